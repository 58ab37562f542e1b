#include "device_runtime.h"

#include <cstring>
#include <map>

#include "printf_format.h"
#include "ptxsim/sim/device_heap.h"

namespace ptxsim::sim::semantics {

void argumentBytes(ExecContext& ctx, const exec::CallBinding& binding, size_t index, unsigned lane, void* out,
                   uint64_t size) {
  std::memset(out, 0, size);
  if (index < binding.arguments.size()) {
    std::memcpy(out, ctx.frame->paramsOf(lane) + binding.arguments[index].callerOffset,
                std::min(size, binding.arguments[index].size));
  }
}

uint64_t argument64(ExecContext& ctx, const exec::CallBinding& binding, size_t index, unsigned lane) {
  uint64_t value = 0;
  argumentBytes(ctx, binding, index, lane, &value, sizeof value);
  return value;
}

void setResult(ExecContext& ctx, const exec::CallBinding& binding, unsigned lane, uint64_t value) {
  if (binding.results.empty()) return;
  std::memcpy(ctx.frame->paramsOf(lane) + binding.results[0].callerOffset, &value,
              std::min<uint64_t>(8, binding.results[0].size));
}

namespace {

// The NUL-terminated string at a generic address, at most `limit` bytes;
// false after a fault. Byte by byte: strings have no alignment and may end
// right at the end of their allocation.
bool readString(ExecContext& ctx, unsigned lane, uint64_t address, uint64_t limit, std::string& text) {
  text.clear();
  for (uint64_t i = 0; i < limit; ++i) {
    const uint8_t* byte =
        ctx.access(exec::AddressSpace::Generic, address + i, 1, lane, exec::AccessKind::Load);
    if (byte == nullptr) return false;
    if (*byte == 0) break;
    text += static_cast<char>(*byte);
  }
  return true;
}

// A printf argument buffer in device memory: nvcc's local struct, reached
// through its generic address.
class DeviceArguments final : public PrintfArguments {
 public:
  DeviceArguments(ExecContext& ctx, unsigned lane, uint64_t buffer)
      : ctx_(ctx), lane_(lane), buffer_(buffer) {}

  bool read(uint64_t offset, unsigned size, uint64_t& value) override {
    if (buffer_ == 0) {
      // nvcc passes a null buffer when the call has no arguments after the format.
      ctx_.fail(LaunchErrorKind::IllegalAddress,
                "printf format has a conversion but the call passed no arguments", lane_);
      return false;
    }
    value = 0;
    for (unsigned i = 0; i < size; ++i) {
      const uint8_t* byte =
          ctx_.access(exec::AddressSpace::Generic, buffer_ + offset + i, 1, lane_, exec::AccessKind::Load);
      if (byte == nullptr) return false;
      value |= uint64_t{*byte} << (8 * i);
    }
    return true;
  }

  bool readString(uint64_t address, uint64_t limit, std::string& text) override {
    return semantics::readString(ctx_, lane_, address, limit, text);
  }

 private:
  ExecContext& ctx_;
  unsigned lane_;
  uint64_t buffer_;
};

// vprintf(format, arguments): the lanes print in lane order into the CTA's
// output, which the driver concatenates CTA by CTA.
void runVprintf(ExecContext& ctx, const exec::CallBinding& binding, exec::LaneMask lanes) {
  std::string format;
  std::string text;
  exec::forLanes(lanes, [&](unsigned l) {
    if (ctx.aborted) return;
    uint64_t formatAddress = argument64(ctx, binding, 0, l);
    if (formatAddress == 0) {
      setResult(ctx, binding, l, static_cast<uint64_t>(int64_t{-1}));  // CUDA: -1 for a null format
      return;
    }
    if (!readString(ctx, l, formatAddress, UINT64_MAX, format)) return;
    DeviceArguments args(ctx, l, argument64(ctx, binding, 1, l));
    text.clear();
    int used = formatPrintf(format, args, text);
    if (used < 0) return;
    ctx.cta->printfOutput += text;
    setResult(ctx, binding, l, static_cast<uint64_t>(int64_t{used}));
  });
}

// __assertfail(message, file, line, function, charSize): the launch fails
// with cudaErrorAssert and CUDA's line for the first failing lane, e.g.
// "x.cu:7: void k(int): block: [0,0,0], thread: [1,0,0] Assertion `v` failed."
// (recorded on an H100). The GPU writes that line to stderr, not to the
// printf stream, so it goes into the error message only. charSize is
// sizeof(char), 1 for every string nvcc passes.
void runAssertFail(ExecContext& ctx, const exec::CallBinding& binding, exec::LaneMask lanes) {
  std::string first;
  exec::forLanes(lanes, [&](unsigned l) {
    if (ctx.aborted) return;
    std::string message, file, function;
    uint64_t functionAddress = argument64(ctx, binding, 3, l);
    if (!readString(ctx, l, argument64(ctx, binding, 0, l), UINT64_MAX, message) ||
        !readString(ctx, l, argument64(ctx, binding, 1, l), UINT64_MAX, file) ||
        (functionAddress != 0 && !readString(ctx, l, functionAddress, UINT64_MAX, function))) {
      return;
    }
    auto line = static_cast<uint32_t>(argument64(ctx, binding, 2, l));
    const auto& tid = ctx.warp->tid[l];
    const Dim3& block = ctx.cta->ctaid;
    std::string text = file + ":" + std::to_string(line) + ": ";
    if (functionAddress != 0) text += function + ": ";
    text += "block: [" + std::to_string(block.x) + "," + std::to_string(block.y) + "," +
            std::to_string(block.z) + "], thread: [" + std::to_string(tid[0]) + "," + std::to_string(tid[1]) +
            "," + std::to_string(tid[2]) + "] Assertion `" + message + "` failed.";
    if (first.empty()) first = text;
  });
  if (ctx.aborted || first.empty()) return;
  ctx.fail(LaunchErrorKind::Assert, first, static_cast<unsigned>(std::countr_zero(lanes)));
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

exec::Builtin builtinNamed(const std::string& name) {
  using B = exec::Builtin;
  static const std::map<std::string, B, std::less<>> kBuiltins = {
      {"vprintf", B::Vprintf},
      {"malloc", B::Malloc},
      {"free", B::Free},
      {"__assertfail", B::AssertFail},
      {"__cudaCDP2GetParameterBufferV2", B::GetParameterBuffer},
      {"__cudaCDP2LaunchDeviceV2", B::LaunchDevice},
      {"__cudaCDP2GetLastError", B::GetLastError},
      {"__cudaCDP2PeekAtLastError", B::PeekAtLastError},
      {"__cudaCDP2GetDevice", B::GetDevice},
      {"__cudaCDP2StreamCreateWithFlags", B::StreamCreateWithFlags},
      {"__cudaCDP2StreamDestroy", B::StreamDestroy},
      {"__cudaCDP2EventCreateWithFlags", B::EventCreateWithFlags},
      {"__cudaCDP2EventRecord", B::EventRecord},
      {"__cudaCDP2EventRecordWithFlags", B::EventRecord},
      {"__cudaCDP2EventDestroy", B::EventDestroy},
      {"__cudaCDP2StreamWaitEvent", B::StreamWaitEvent},
      {"__cudaCDP2Malloc", B::DeviceMalloc},
      {"__cudaCDP2Free", B::DeviceFree},
  };
  auto it = kBuiltins.find(name);
  return it != kBuiltins.end() ? it->second : B::None;
}

bool isDeviceRuntimeFunction(const std::string& name) {
  return name.rfind("__cudaCDP", 0) == 0 || name.rfind("cuda", 0) == 0 || name.rfind("__cuda", 0) == 0;
}

void runBuiltin(ExecContext& ctx, const exec::CallBinding& binding, exec::LaneMask lanes) {
  switch (binding.builtin) {
    case exec::Builtin::Malloc: runMalloc(ctx, binding, lanes); return;
    case exec::Builtin::Free: runFree(ctx, binding, lanes); return;
    case exec::Builtin::Vprintf: runVprintf(ctx, binding, lanes); return;
    case exec::Builtin::AssertFail: runAssertFail(ctx, binding, lanes); return;
    case exec::Builtin::None: break;
    default: runDeviceLaunchBuiltin(ctx, binding, lanes); return;
  }
  ctx.fail(LaunchErrorKind::Unsupported, "call to a device runtime function the simulator does not know",
           static_cast<unsigned>(std::countr_zero(lanes)));
}

}  // namespace ptxsim::sim::semantics
