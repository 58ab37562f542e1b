#include "device_runtime.h"

#include <cstring>

#include "ptxsim/sim/device_heap.h"

namespace ptxsim::sim::semantics {

namespace {

uint64_t argument64(ExecContext& ctx, const exec::CallBinding& binding, size_t index, unsigned lane) {
  uint64_t value = 0;
  if (index < binding.arguments.size()) {
    std::memcpy(&value, ctx.frame->paramsOf(lane) + binding.arguments[index].callerOffset,
                std::min<uint64_t>(8, binding.arguments[index].size));
  }
  return value;
}

void setResult(ExecContext& ctx, const exec::CallBinding& binding, unsigned lane, uint64_t value) {
  if (binding.results.empty()) return;
  std::memcpy(ctx.frame->paramsOf(lane) + binding.results[0].callerOffset, &value,
              std::min<uint64_t>(8, binding.results[0].size));
}

void runMalloc(ExecContext& ctx, const exec::CallBinding& binding, exec::LaneMask lanes) {
  exec::forLanes(lanes, [&](unsigned l) {
    uint64_t size = argument64(ctx, binding, 0, l);
    setResult(ctx, binding, l, ctx.grid.heap.allocate(size));
  });
}

void runFree(ExecContext& ctx, const exec::CallBinding& binding, exec::LaneMask lanes) {
  exec::forLanes(lanes, [&](unsigned l) {
    if (ctx.aborted) return;
    uint64_t address = argument64(ctx, binding, 0, l);
    if (address != 0 && !ctx.grid.heap.release(address)) {
      char text[64];
      std::snprintf(text, sizeof text, "free(0x%llx): not a pointer device malloc returned",
                    static_cast<unsigned long long>(address));
      ctx.fail(LaunchErrorKind::IllegalAddress, text, l);
    }
  });
}

}  // namespace

void runBuiltin(ExecContext& ctx, const exec::CallBinding& binding, exec::LaneMask lanes) {
  switch (binding.builtin) {
    case exec::Builtin::Malloc: runMalloc(ctx, binding, lanes); return;
    case exec::Builtin::Free: runFree(ctx, binding, lanes); return;
    case exec::Builtin::Vprintf:
    case exec::Builtin::AssertFail:
    case exec::Builtin::None: break;
  }
  ctx.fail(LaunchErrorKind::Unsupported, "device runtime function not implemented yet",
           static_cast<unsigned>(std::countr_zero(lanes)));
}

}  // namespace ptxsim::sim::semantics
