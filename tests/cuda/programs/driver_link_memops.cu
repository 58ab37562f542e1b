// The driver's JIT linker and stream memory operations: two PTX modules
// linked into one (a kernel calling a function the other defines), a link
// with a function nobody defines, and 32- and 64-bit writes and waits on a
// stream, alone and batched, to device and to mapped host memory.
// nvcc flags: -lcuda
#include <cuda.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include "driver_check.h"

namespace {

void show(const char* what, CUresult r) { printResult(what, r, 40); }


// out[i] = twice(i) + 1, twice() from the other module.
const char* kCaller = R"(
.version 8.0
.target sm_90
.address_size 64
.extern .func (.param .b32 result) twice(.param .b32 x);
.visible .entry callTwice(.param .u64 out)
{
    .reg .b32 %r<5>;
    .reg .b64 %rd<4>;
    ld.param.u64 %rd1, [out];
    mov.u32 %r1, %tid.x;
    {
    .param .b32 x;
    .param .b32 result;
    st.param.b32 [x], %r1;
    call.uni (result), twice, (x);
    ld.param.b32 %r2, [result];
    }
    add.s32 %r3, %r2, 1;
    mul.wide.u32 %rd2, %r1, 4;
    add.s64 %rd3, %rd1, %rd2;
    st.global.u32 [%rd3], %r3;
    ret;
}
)";

const char* kCallee = R"(
.version 8.0
.target sm_90
.address_size 64
.visible .func (.param .b32 result) twice(.param .b32 x)
{
    .reg .b32 %r<3>;
    ld.param.b32 %r1, [x];
    shl.b32 %r2, %r1, 1;
    st.param.b32 [result], %r2;
    ret;
}
)";

}  // namespace

int main() {
  CUdevice device = 0;
  CUcontext context = nullptr;
  CU_CHECK(usePrimaryContext(device, context));

  // Two modules linked into one.
  char log[4096] = {};
  CUjit_option options[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void* values[] = {log, reinterpret_cast<void*>(sizeof log)};
  CUlinkState link = nullptr;
  CU_CHECK(cuLinkCreate(2, options, values, &link));
  CU_CHECK(cuLinkAddData(link, CU_JIT_INPUT_PTX, const_cast<char*>(kCaller), std::strlen(kCaller) + 1, "caller.ptx", 0,
                      nullptr, nullptr));
  CU_CHECK(cuLinkAddData(link, CU_JIT_INPUT_PTX, const_cast<char*>(kCallee), std::strlen(kCallee) + 1, "callee.ptx", 0,
                      nullptr, nullptr));
  void* image = nullptr;
  size_t imageBytes = 0;
  CU_CHECK(cuLinkComplete(link, &image, &imageBytes));
  std::printf("linked image: %s\n", imageBytes > 0 ? "not empty" : "empty");
  CUmodule module = nullptr;
  CU_CHECK(cuModuleLoadData(&module, image));
  CU_CHECK(cuLinkDestroy(link));
  CUfunction callTwice = nullptr;
  CU_CHECK(cuModuleGetFunction(&callTwice, module, "callTwice"));
  CUdeviceptr out = 0;
  CU_CHECK(cuMemAlloc(&out, 64 * sizeof(uint32_t)));
  void* args[] = {&out};
  CU_CHECK(cuLaunchKernel(callTwice, 1, 1, 1, 64, 1, 1, 0, nullptr, args, nullptr));
  std::vector<uint32_t> got(64);
  CU_CHECK(cuMemcpyDtoH(got.data(), out, got.size() * sizeof(uint32_t)));
  int wrong = 0;
  for (uint32_t i = 0; i < 64; ++i) wrong += got[i] != 2 * i + 1;
  std::printf("linked kernel: %d wrong\n", wrong);

  // A link with a function nobody defines.
  CU_CHECK(cuLinkCreate(0, nullptr, nullptr, &link));
  CU_CHECK(cuLinkAddData(link, CU_JIT_INPUT_PTX, const_cast<char*>(kCaller), std::strlen(kCaller) + 1, "caller.ptx", 0,
                      nullptr, nullptr));
  show("cuLinkComplete with twice undefined", cuLinkComplete(link, &image, &imageBytes));
  CU_CHECK(cuLinkDestroy(link));

  // Stream memory operations on device memory.
  CUstream stream = nullptr;
  CU_CHECK(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
  CUdeviceptr flags = 0;
  CU_CHECK(cuMemAlloc(&flags, 16));
  CU_CHECK(cuMemsetD32(flags, 0, 4));
  CU_CHECK(cuStreamWriteValue32(stream, flags, 41, 0));
  CU_CHECK(cuStreamWaitValue32(stream, flags, 41, CU_STREAM_WAIT_VALUE_EQ));
  CU_CHECK(cuStreamWaitValue32(stream, flags, 40, CU_STREAM_WAIT_VALUE_GEQ));
  CU_CHECK(cuStreamWaitValue32(stream, flags, 1, CU_STREAM_WAIT_VALUE_AND));
  CU_CHECK(cuStreamWriteValue64(stream, flags + 8, 0x123456789abcdefull, 0));
  CU_CHECK(cuStreamWaitValue64(stream, flags + 8, 0x123456789abcdefull, CU_STREAM_WAIT_VALUE_EQ));
  CUstreamBatchMemOpParams batch[2] = {};
  batch[0].writeValue.operation = CU_STREAM_MEM_OP_WRITE_VALUE_32;
  batch[0].writeValue.address = flags + 4;
  batch[0].writeValue.value = 7;
  batch[1].waitValue.operation = CU_STREAM_MEM_OP_WAIT_VALUE_32;
  batch[1].waitValue.address = flags + 4;
  batch[1].waitValue.value = 7;
  batch[1].waitValue.flags = CU_STREAM_WAIT_VALUE_EQ;
  CU_CHECK(cuStreamBatchMemOp(stream, 2, batch, 0));
  CU_CHECK(cuStreamSynchronize(stream));
  uint32_t words[4] = {};
  CU_CHECK(cuMemcpyDtoH(words, flags, sizeof words));
  std::printf("device words: %u %u %08x%08x\n", words[0], words[1], words[3], words[2]);

  // And on mapped host memory.
  void* host = nullptr;
  CU_CHECK(cuMemHostAlloc(&host, 8, CU_MEMHOSTALLOC_DEVICEMAP));
  CUdeviceptr hostOnDevice = 0;
  CU_CHECK(cuMemHostGetDevicePointer(&hostOnDevice, host, 0));
  CU_CHECK(cuStreamWriteValue32(stream, hostOnDevice, 99, 0));
  CU_CHECK(cuStreamSynchronize(stream));
  std::printf("host word: %u\n", *static_cast<volatile uint32_t*>(host));
  show("write to a misaligned address", cuStreamWriteValue32(stream, flags + 2, 1, 0));
  show("wait with condition 9", cuStreamWaitValue32(stream, flags, 1, 9));

  CU_CHECK(cuMemFreeHost(host));
  CU_CHECK(cuMemFree(flags));
  CU_CHECK(cuMemFree(out));
  CU_CHECK(cuStreamDestroy(stream));
  CU_CHECK(cuModuleUnload(module));
  CU_CHECK(cuDevicePrimaryCtxRelease(device));
  std::printf("done\n");
  return 0;
}
