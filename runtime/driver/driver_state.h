#pragma once

// The driver API's own state beside the runtime's (cudart::ShimState, which
// holds the device, memory, modules and streams both APIs share): whether
// cuInit ran, the contexts, and each host thread's stack of current
// contexts. One DriverState lives for the process (driverState()), as the
// C API has no handle to pass it in.

#include <map>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

#include "driver_api.h"

namespace ptxsim::driver {

// A CUcontext is the address of one of these.
struct Context {
  CUdevice device = 0;
  unsigned flags = 0;
  bool primary = false;
  unsigned long long id = 0;  // cuCtxGetId
};

class DriverState {
 public:
  DriverState();

  // Recursive: current() takes it to make the runtime's primary context,
  // and is called with it held.
  std::recursive_mutex& mutex() { return mutex_; }
  bool initialized() const { return initialized_; }
  void setInitialized() { initialized_ = true; }

  // The device's primary context (cuDevicePrimaryCtx*; the runtime's
  // context): the same one for every retain, counted.
  Context& primary(CUdevice device);
  unsigned& primaryRetains(CUdevice device) { return primaryRetains_[device]; }
  bool primaryActive(CUdevice device) const;

  Context* create(CUdevice device, unsigned flags);
  bool destroy(Context* context);
  // Whether `handle` is a context this state made (not destroyed).
  bool valid(CUcontext handle) const;

  // The calling host thread's context stack (cuCtxPushCurrent/PopCurrent;
  // cuCtxSetCurrent replaces its top).
  static std::vector<Context*>& currentStack();
  // The thread's current context: the top of its stack; null if none.
  Context* current();

  // Context-local storage (the static runtime's private table): values by
  // context and key.
  std::map<std::pair<const void*, const void*>, void*>& contextStorage() { return contextStorage_; }

 private:
  std::recursive_mutex mutex_;
  bool initialized_ = false;
  std::map<CUdevice, std::unique_ptr<Context>> primaries_;
  std::map<CUdevice, unsigned> primaryRetains_;
  std::vector<std::unique_ptr<Context>> created_;
  unsigned long long nextId_ = 1;
  std::map<std::pair<const void*, const void*>, void*> contextStorage_;
};

DriverState& driverState();

inline CUcontext handle(Context* context) { return reinterpret_cast<CUcontext>(context); }
inline Context* contextOf(CUcontext handle) { return reinterpret_cast<Context*>(handle); }

}  // namespace ptxsim::driver
