// atomics.cu - covers: atomicAdd on int/unsigned/ull/float/double/__half2/
// __half/__nv_bfloat162 and float2/float4 (sm_90+), 128-bit atomicCAS/
// atomicExch (sm_90+), atomicSub, atomicExch
// (int/float/ull), atomicMin/Max (signed/unsigned/64-bit), atomicInc/Dec,
// atomicAnd/Or/Xor, atomicCAS (32/64/16-bit), CAS loops for custom ops,
// _block and _system scoped variants, shared-memory atomics, fences
// (__threadfence*), volatile accesses, and the libcu++ cuda::atomic_ref.
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cuda/atomic>

__global__ void int_atomics(int *gi, unsigned *gu, unsigned long long *gull, long long *gll, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  atomicAdd(&gi[0], i);
  atomicSub(&gi[1], 3);
  atomicExch(&gi[2], i);
  atomicMin(&gi[3], -i);
  atomicMax(&gi[4], i);
  atomicAnd(&gi[5], ~i);
  atomicOr(&gi[6], 1 << (i & 31));
  atomicXor(&gi[7], i * 2654435761u);
  atomicCAS(&gi[8], i - 1, i);
  atomicInc(&gu[0], 1000u);
  atomicDec(&gu[1], 1000u);
  atomicMin(&gu[2], (unsigned)i);
  atomicMax(&gu[3], (unsigned)i);
  atomicAdd(&gull[0], 1ull);
  atomicExch(&gull[1], (unsigned long long)i);
  atomicCAS(&gull[2], 0ull, (unsigned long long)i);
  atomicMin(&gull[3], (unsigned long long)i);
  atomicMax(&gll[0], (long long)i);
  atomicMin(&gll[1], -(long long)i);
  atomicAnd(&gull[4], ~1ull);
  atomicOr(&gull[5], 1ull << (i & 63));
  atomicXor(&gull[6], (unsigned long long)i << 3);
  unsigned short *hs = reinterpret_cast<unsigned short *>(&gu[8]);
  atomicCAS(hs, (unsigned short)0, (unsigned short)i);
}

struct __align__(16) Quad { unsigned long long lo, hi; };

__global__ void float_atomics(float *gf, double *gd, __half2 *gh2, __half *gh, __nv_bfloat162 *gb2,
                              __nv_bfloat16 *gb, float2 *gf2, float4 *gf4, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float old = atomicAdd(&gf[0], 1.5f);
  atomicExch(&gf[1], old);
  atomicAdd(&gd[0], (double)i * 0.25);
  atomicAdd(&gh2[0], __floats2half2_rn(1.f, 2.f));
  atomicAdd(&gh[0], __float2half(0.5f));
#if __CUDA_ARCH__ >= 800
  atomicAdd(&gb2[0], __floats2bfloat162_rn(1.f, -1.f));
  atomicAdd(&gb[0], __float2bfloat16(0.125f));
#endif
#if __CUDA_ARCH__ >= 900
  atomicAdd(&gf2[0], make_float2(1.f, 2.f));
  atomicAdd(&gf4[0], make_float4(1.f, 2.f, 3.f, 4.f));
  atomicAdd_block(&gf2[1], make_float2(0.5f, 0.5f));
  atomicAdd_system(&gf4[1], make_float4(0.f, 1.f, 0.f, 1.f));
  // 128-bit atomicCAS / atomicExch on a 16-byte trivially-copyable type.
  Quad *q = reinterpret_cast<Quad *>(gf4 + 2);
  Quad seen = atomicExch(q, Quad{(unsigned long long)i, 1ull});
  Quad want{seen.lo + 1, seen.hi};
  atomicCAS(q, seen, want);
  atomicCAS_block(q + 1, seen, want);
  atomicExch_system(q + 2, want);
#endif
  // Custom atomic via a CAS loop: float max.
  int *addr = reinterpret_cast<int *>(&gf[2]);
  int cur = *addr, assumed;
  do {
    assumed = cur;
    float nv = fmaxf(__int_as_float(assumed), (float)i);
    cur = atomicCAS(addr, assumed, __float_as_int(nv));
  } while (cur != assumed);
  // Double multiply via 64-bit CAS.
  unsigned long long *daddr = reinterpret_cast<unsigned long long *>(&gd[1]);
  unsigned long long dcur = *daddr, dassumed;
  do {
    dassumed = dcur;
    dcur = atomicCAS(daddr, dassumed, __double_as_longlong(__longlong_as_double(dassumed) * 1.0001));
  } while (dcur != dassumed);
}

__global__ void scoped_atomics(int *gi, float *gf, double *gd, unsigned *flag, int n) {
  __shared__ int sh_hist[32];
  __shared__ float sh_sum;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x < 32) sh_hist[threadIdx.x] = 0;
  if (threadIdx.x == 0) sh_sum = 0.f;
  __syncthreads();
  if (i < n) {
    atomicAdd(&sh_hist[gi[i] & 31], 1);
    atomicAdd(&sh_sum, gf[i]);
    atomicAdd_block(&gi[n], 1);
    atomicAdd_system(&gi[n + 1], 1);
    atomicAdd_block(&gf[n], 1.f);
    atomicAdd_system(&gd[0], 2.0);
    atomicExch_system(&gi[n + 2], i);
    atomicCAS_block(&gi[n + 3], 0, i);
    atomicMax_system(&gi[n + 4], i);
    atomicMin_block(&gi[n + 5], i);
    atomicOr_system((unsigned *)&gi[n + 6], 2u);
    atomicInc_block((unsigned *)&gi[n + 7], 77u);
  }
  __syncthreads();
  if (threadIdx.x < 32) atomicAdd(&gi[n + 8 + threadIdx.x], sh_hist[threadIdx.x]);
  __threadfence();
  __threadfence_block();
  __threadfence_system();
  if (threadIdx.x == 0) {
    volatile unsigned *vf = flag;
    *vf = 1u;
    while (atomicAdd(flag + 1, 0u) == 0xffffffffu) {
    }
    gf[n + 1] = sh_sum + (float)*vf;
  }
}

__global__ void atomic_ref(int *counter, unsigned long long *total, float *fsum, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  cuda::atomic_ref<int, cuda::thread_scope_device> c(*counter);
  c.fetch_add(1, cuda::std::memory_order_relaxed);
  cuda::atomic_ref<unsigned long long, cuda::thread_scope_system> t(*total);
  t.fetch_or(1ull << (i & 63), cuda::std::memory_order_acq_rel);
  cuda::atomic_ref<float, cuda::thread_scope_block> f(fsum[blockIdx.x]);
  f.fetch_add(0.5f, cuda::std::memory_order_release);
  int seen = c.load(cuda::std::memory_order_acquire);
  int expected = seen;
  c.compare_exchange_strong(expected, seen + 1, cuda::std::memory_order_seq_cst);
  cuda::atomic_thread_fence(cuda::std::memory_order_seq_cst, cuda::thread_scope_device);
}
