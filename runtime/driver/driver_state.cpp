#include "driver_state.h"

#include <algorithm>

#include "shim_state.h"

namespace ptxsim::driver {

DriverState::DriverState() = default;

Context& DriverState::primary(CUdevice device) {
  std::unique_ptr<Context>& slot = primaries_[device];
  if (!slot) {
    slot = std::make_unique<Context>();
    slot->device = device;
    slot->primary = true;
    // Host memory is always mapped since CUDA 4 (cudaDeviceMapHost).
    slot->flags = CU_CTX_MAP_HOST;
    slot->id = nextId_++;
  }
  return *slot;
}

bool DriverState::primaryActive(CUdevice device) const {
  auto it = primaryRetains_.find(device);
  return it != primaryRetains_.end() && it->second > 0;
}

Context* DriverState::create(CUdevice device, unsigned flags) {
  auto context = std::make_unique<Context>();
  context->device = device;
  context->flags = flags;
  context->id = nextId_++;
  created_.push_back(std::move(context));
  return created_.back().get();
}

bool DriverState::destroy(Context* context) {
  auto it = std::find_if(created_.begin(), created_.end(), [&](const auto& c) { return c.get() == context; });
  if (it == created_.end()) return false;
  for (auto storage = contextStorage_.begin(); storage != contextStorage_.end();) {
    storage = storage->first.first == context ? contextStorage_.erase(storage) : std::next(storage);
  }
  created_.erase(it);
  return true;
}

bool DriverState::valid(CUcontext handle) const {
  Context* context = contextOf(handle);
  for (const auto& [device, p] : primaries_) {
    if (p.get() == context) return true;
  }
  return std::any_of(created_.begin(), created_.end(), [&](const auto& c) { return c.get() == context; });
}

std::vector<Context*>& DriverState::currentStack() {
  // Per host thread, as CUDA keeps the current context.
  thread_local std::vector<Context*> stack;
  return stack;
}

Context* DriverState::current() {
  std::vector<Context*>& stack = currentStack();
  if (!stack.empty()) return stack.back();
  // The runtime's primary context, once the program's runtime calls
  // started it (on a GPU: on the threads that made them; here on every
  // thread with no context of its own).
  if (!cudart::shimState().runtimeStarted()) return nullptr;
  std::lock_guard lock(mutex_);
  return &primary(0);
}

DriverState& driverState() {
  // Never destroyed: a statically linked CUDA runtime's exit handler may
  // run after this library's destructors, and it still puts and deletes
  // context-local storage. The process's end frees it.
  static DriverState* state = new DriverState;
  return *state;
}

bool initialized() { return driverState().initialized(); }

CUresult checkDevice(CUdevice device) {
  if (CUresult r = ready(); r != CUDA_SUCCESS) return r;
  int count = 0;
  cudaGetDeviceCount(&count);
  return device >= 0 && device < count ? CUDA_SUCCESS : CUDA_ERROR_INVALID_DEVICE;
}

CUresult ready() {
  // At exit the runtime's state may be gone before a statically linked
  // CUDA runtime's exit handler unloads its modules: CUDA answers calls
  // made while the process shuts down so.
  if (cudart::shimStateDestroyed()) return CUDA_ERROR_DEINITIALIZED;
  return initialized() || cudart::shimState().runtimeStarted() ? CUDA_SUCCESS : CUDA_ERROR_NOT_INITIALIZED;
}

}  // namespace ptxsim::driver

