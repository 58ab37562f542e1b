#!/usr/bin/env bash
# What ptxsim's driver refuses, and how, under `ptxsim run`: a cubin with no
# PTX beside it (CUDA_ERROR_NO_BINARY_FOR_GPU and a message saying how to
# embed PTX), a stream wait for a value no earlier work wrote (ptxsim runs
# each stream's work when it is issued), and one physical allocation mapped
# at two addresses at once. Each must fail with its code and message, and
# the program must go on. And code with PTX for a newer GPU only (as
# NVIDIA's libraries ship): refused on the h100 preset with a message naming
# the h100_forward preset, on which it runs, and `ptxsim check --config`
# alike. And a library that keeps its kernels as fat binaries in its data
# and loads them itself, as cuFFT does: `ptxsim check` finds them there, and
# one of machine code only is refused naming the library and h100_forward.
# Usage: run_driver_refusal_tests.sh PTXSIM WORK_DIR
set -uo pipefail
ptxsim=$1
work=$2
mkdir -p "$work"
source "$(dirname "$0")/check_support.sh" run_driver_refusal_tests

cat >"$work/kernel.cu" <<'CU'
extern "C" __global__ void touch(int* p) { p[threadIdx.x] = 1; }
CU
"$nvcc" -cubin -arch=sm_90 -o "$work/kernel.cubin" "$work/kernel.cu" || exit 1

cat >"$work/refusals.cu" <<'CU'
#include <cuda.h>
#include <cstdio>
static const char* name(CUresult r) {
  const char* n = nullptr;
  cuGetErrorName(r, &n);
  return n;
}
int main(int, char** argv) {
  CUdevice device;
  CUcontext context;
  if (cuInit(0) || cuDeviceGet(&device, 0) || cuDevicePrimaryCtxRetain(&context, device) || cuCtxSetCurrent(context)) return 1;
  CUmodule module;
  std::printf("cubin: %s\n", name(cuModuleLoad(&module, argv[1])));
  CUdeviceptr flag;
  if (cuMemAlloc(&flag, 4) || cuMemsetD32(flag, 0, 1)) return 1;
  std::printf("wait for an unwritten value: %s\n", name(cuStreamWaitValue32(nullptr, flag, 1, CU_STREAM_WAIT_VALUE_EQ)));
  std::printf("wait for a written value: %s\n", name(cuStreamWaitValue32(nullptr, flag, 0, CU_STREAM_WAIT_VALUE_EQ)));
  CUmemAllocationProp prop{};
  prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  size_t granularity;
  cuMemGetAllocationGranularity(&granularity, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM);
  CUdeviceptr first, second;
  CUmemGenericAllocationHandle handle;
  if (cuMemAddressReserve(&first, granularity, 0, 0, 0) || cuMemAddressReserve(&second, granularity, 0, 0, 0) ||
      cuMemCreate(&handle, granularity, &prop, 0) || cuMemMap(first, granularity, 0, handle, 0)) {
    return 1;
  }
  std::printf("map again elsewhere: %s\n", name(cuMemMap(second, granularity, 0, handle, 0)));
  std::printf("done\n");
  return 0;
}
CU
"$nvcc" -arch=sm_90 -o "$work/refusals" "$work/refusals.cu" -lcuda || exit 1

out=$("$ptxsim" run -- "$work/refusals" "$work/kernel.cubin" 2>"$work/stderr")
status=$?
check "program goes on and ends well" [ "$status" -eq 0 ]
check "cubin refused with NO_BINARY_FOR_GPU" grep -q "^cubin: CUDA_ERROR_NO_BINARY_FOR_GPU$" <<<"$out"
check "cubin message says how to embed PTX" grep -q "compute_90,code=compute_90" "$work/stderr"
check "unwritten wait refused" grep -q "^wait for an unwritten value: CUDA_ERROR_NOT_SUPPORTED$" <<<"$out"
check "wait message explains" grep -q "a wait for a later write is not supported" "$work/stderr"
check "written wait passes" grep -q "^wait for a written value: CUDA_SUCCESS$" <<<"$out"
check "second mapping refused" grep -q "^map again elsewhere: CUDA_ERROR_NOT_SUPPORTED$" <<<"$out"
check "mapping message explains" grep -q "maps a whole allocation at one address at a time" "$work/stderr"
check "reached the end" grep -q "^done$" <<<"$out"

# PTX for compute_120 only, as cuBLAS ships it.
cat >"$work/newer_ptx.cu" <<'CU'
#include <cstdio>
__global__ void twice(int* p) { p[threadIdx.x] = 2 * threadIdx.x; }
int main() {
  int* p;
  cudaMallocManaged(&p, 32 * sizeof(int));
  p[31] = -1;
  twice<<<1, 32>>>(p);
  cudaError_t e = cudaGetLastError();
  cudaDeviceSynchronize();
  std::printf("%s, p[31] = %d\n", cudaGetErrorName(e), p[31]);
  cudaFuncAttributes a{};
  if (cudaFuncGetAttributes(&a, twice) == cudaSuccess) std::printf("ptxVersion %d, binaryVersion %d\n", a.ptxVersion, a.binaryVersion);
  return 0;
}
CU
"$nvcc" -gencode arch=compute_120,code=compute_120 -o "$work/newer_ptx" "$work/newer_ptx.cu" || exit 1
out=$("$ptxsim" run -- "$work/newer_ptx" 2>"$work/stderr")
check "newer PTX refused on sm_90" grep -q "^cudaErrorNoKernelImageForDevice, p\[31\] = -1$" <<<"$out"
check "refusal names the forward preset" grep -q "its PTX is for a newer GPU, as in NVIDIA's libraries: run with --config h100_forward" "$work/stderr"
out=$("$ptxsim" run --config h100_forward -- "$work/newer_ptx" 2>"$work/stderr")
check "newer PTX runs on h100_forward" grep -q "^cudaSuccess, p\[31\] = 62$" <<<"$out"
# The CUDA runtime's cudaFuncAttributes: ptxVersion names the PTX's target,
# binaryVersion the GPU the driver compiles it for.
check "its attributes name compute_120 and the GPU" grep -q "^ptxVersion 120, binaryVersion 130$" <<<"$out"
"$ptxsim" check "$work/newer_ptx" >"$work/check.out" 2>&1
check "check refuses it for sm_90" grep -q "holds no PTX for sm_90" "$work/check.out"
"$ptxsim" check --config h100_forward "$work/newer_ptx" >"$work/check.out" 2>&1
check "check --config accepts it" grep -q "compute_120): PTX .*, target sm_120, 1 kernel" "$work/check.out"

# A library with its kernel in its data: as PTX, and as machine code only.
"$nvcc" -fatbin -gencode arch=compute_90,code=compute_90 -o "$work/touch_ptx.fatbin" "$work/kernel.cu" || exit 1
"$nvcc" -fatbin -gencode arch=compute_90,code=sm_90 -o "$work/touch_sass.fatbin" "$work/kernel.cu" || exit 1
{
  echo '#include <cuda.h>'
  for image in touch_ptx touch_sass; do
    echo "alignas(8) static const unsigned char ${image}[] = {"
    od -An -v -tu1 "$work/$image.fatbin" | sed 's/^ *//; s/ \+/,/g; s/$/,/'
    echo "};"
  done
  cat <<'CU'
extern "C" int loadEmbedded(int machineCodeOnly, int* out) {
  CUmodule module;
  CUfunction touch;
  if (cuModuleLoadData(&module, machineCodeOnly ? touch_sass : touch_ptx) != CUDA_SUCCESS) return 1;
  CUdeviceptr p;
  if (cuModuleGetFunction(&touch, module, "touch") || cuMemAlloc(&p, 32 * sizeof(int))) return 2;
  void* params[] = {&p};
  if (cuLaunchKernel(touch, 1, 1, 1, 32, 1, 1, 0, nullptr, params, nullptr) || cuMemcpyDtoH(out, p, 32 * sizeof(int))) return 3;
  return 0;
}
CU
} >"$work/embedded.cu"
"$nvcc" -x c++ -shared -Xcompiler -fPIC -o "$work/libembedded.so" "$work/embedded.cu" -lcuda || exit 1
cat >"$work/use_embedded.cu" <<'CU'
#include <cuda.h>
#include <cstdio>
extern "C" int loadEmbedded(int machineCodeOnly, int* out);
int main() {
  CUdevice device;
  CUcontext context;
  if (cuInit(0) || cuDeviceGet(&device, 0) || cuDevicePrimaryCtxRetain(&context, device) || cuCtxSetCurrent(context)) return 1;
  int out[32] = {};
  int loaded = loadEmbedded(0, out);
  std::printf("PTX in the library's data: %d, out[31] = %d\n", loaded, out[31]);
  std::printf("machine code only: %d\n", loadEmbedded(1, out));
  return 0;
}
CU
"$nvcc" -o "$work/use_embedded" "$work/use_embedded.cu" -L"$work" -lembedded -lcuda || exit 1
out=$(LD_LIBRARY_PATH="$work" "$ptxsim" run -- "$work/use_embedded" 2>"$work/stderr")
check "a library's own fat binary of PTX runs" grep -q "^PTX in the library's data: 0, out\[31\] = 1$" <<<"$out"
check "its fat binary of machine code is refused" grep -q "^machine code only: 1$" <<<"$out"
check "the refusal names the library and h100_forward" \
  grep -q "libembedded.so chose it .*run with --config h100_forward" "$work/stderr"
"$ptxsim" check "$work/libembedded.so" >"$work/check.out" 2>&1
check "check finds the PTX in the library's data" \
  grep -q "libembedded.so (fat binary in its data 1, compute_90): PTX .*, 1 kernel" "$work/check.out"
check "and only that" [ "$(grep -c "fat binary in its data" "$work/check.out")" -eq 1 ]
exit $((failures > 0))
