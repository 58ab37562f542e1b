// mbarrier and the bulk copies that complete on one (sm_90): parity waits
// right after init, a bulk copy from global to shared memory that one
// producer thread expects with arrive.expect_tx while every thread waits
// on the phase parity, a second phase, try_wait/test_wait answering false
// while nothing can complete the phase, pending_count of .noComplete
// arrivals, arrive with a count, arrive_drop, expect_tx/complete_tx,
// cp.async with cp.async.mbarrier.arrive (.noinc and not), inval and
// re-init, and a bulk copy from shared to global memory in a bulk group.
// Wait results are written as 0/1; copied data as the words themselves.
#include <cstdint>

__device__ unsigned int case_count = 146;

// The source of the copies: a pattern the loader writes before the kernel
// runs (generic-proxy stores in the kernel would need a proxy fence before
// the bulk copy reads them).
#define PAT(i) ((0x0123456789abcdefull * ((i) + 1)) ^ ((unsigned long long)(i) << 40))
#define PAT4(b) PAT(b), PAT(b + 1), PAT(b + 2), PAT(b + 3)
#define PAT16(b) PAT4(b), PAT4(b + 4), PAT4(b + 8), PAT4(b + 12)
__device__ __align__(128) unsigned long long src_g[48] = {PAT16(0), PAT16(16), PAT16(32)};

__device__ unsigned smem(const void* p) { return static_cast<unsigned>(__cvta_generic_to_shared(p)); }

__device__ unsigned tryWaitParity(unsigned bar, unsigned parity) {
  unsigned r;
  asm volatile("{\n\t.reg .pred p;\n\tmbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n\tselp.u32 %0, 1, 0, p;\n\t}"
               : "=r"(r)
               : "r"(bar), "r"(parity)
               : "memory");
  return r;
}

__device__ unsigned testWaitParity(unsigned bar, unsigned parity) {
  unsigned r;
  asm volatile("{\n\t.reg .pred p;\n\tmbarrier.test_wait.parity.shared::cta.b64 p, [%1], %2;\n\tselp.u32 %0, 1, 0, p;\n\t}"
               : "=r"(r)
               : "r"(bar), "r"(parity)
               : "memory");
  return r;
}

__device__ unsigned testWaitState(unsigned bar, unsigned long long state) {
  unsigned r;
  asm volatile("{\n\t.reg .pred p;\n\tmbarrier.test_wait.shared::cta.b64 p, [%1], %2;\n\tselp.u32 %0, 1, 0, p;\n\t}"
               : "=r"(r)
               : "r"(bar), "l"(state)
               : "memory");
  return r;
}

__device__ void waitParity(unsigned bar, unsigned parity) {
  while (!tryWaitParity(bar, parity)) {
  }
}

__device__ void init(unsigned bar, unsigned count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(bar), "r"(count) : "memory");
}

__device__ unsigned long long arrive(unsigned bar) {
  unsigned long long state;
  asm volatile("mbarrier.arrive.shared::cta.b64 %0, [%1];" : "=l"(state) : "r"(bar) : "memory");
  return state;
}

__device__ void bulkToShared(void* dst, const void* src, unsigned bytes, unsigned bar) {
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(
                   smem(dst)),
               "l"(src), "r"(bytes), "r"(bar)
               : "memory");
}

extern "C" __global__ void cases(unsigned long long* out) {
  __shared__ __align__(8) unsigned long long mbar[8];
  __shared__ __align__(128) unsigned long long buf[32];
  __shared__ __align__(128) unsigned long long buf2[16];
  __shared__ __align__(16) uint32_t words[2][32];
  const unsigned lane = threadIdx.x;
  unsigned n = 0;
  unsigned b[8];
  for (int i = 0; i < 8; ++i) b[i] = smem(&mbar[i]);

  // 0-1: right after init (phase 0), parity 1 names the phase before it,
  // which counts as complete; parity 0 is the current phase.
  if (lane == 0) {
    init(b[0], 1);
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    out[n] = tryWaitParity(b[0], 1);
    out[n + 1] = testWaitParity(b[0], 0);
  }
  n += 2;
  __syncwarp();

  // 2-35: lane 0 expects 256 bytes; before it issues the copy, test_wait
  // (its arrival's state) and try_wait (after its time limit) say false.
  // Then every lane waits on parity 0 and reads one copied word.
  if (lane == 0) {
    init(b[1], 1);
    unsigned long long state;
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 %0, [%1], %2;"
                 : "=l"(state)
                 : "r"(b[1]), "r"(256u)
                 : "memory");
    out[n] = testWaitState(b[1], state);
    out[n + 1] = tryWaitParity(b[1], 0);
    bulkToShared(buf, src_g, 256, b[1]);
  }
  n += 2;
  __syncwarp();
  waitParity(b[1], 0);
  out[n + lane] = buf[lane];
  n += 32;

  // 36-53: phase 1 of the same mbarrier: 128 more bytes with a suspend-time
  // hint on the wait; then parity 1 is complete and parity 0 (phase 2) is not.
  __syncwarp();
  if (lane == 0) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(b[1]), "r"(128u) : "memory");
    bulkToShared(buf2, src_g + 32, 128, b[1]);
  }
  __syncwarp();
  {
    unsigned done = 0;
    while (!done) {
      asm volatile("{\n\t.reg .pred p;\n\tmbarrier.try_wait.parity.shared::cta.b64 p, [%1], 1, 1000;\n\t"
                   "selp.u32 %0, 1, 0, p;\n\t}"
                   : "=r"(done)
                   : "r"(b[1])
                   : "memory");
    }
  }
  if (lane < 16) out[n + lane] = buf2[lane];
  n += 16;
  if (lane == 0) {
    out[n] = testWaitParity(b[1], 1);
    out[n + 1] = testWaitParity(b[1], 0);
  }
  n += 2;

  // 54-56: .noComplete arrivals on a count of 3: pending_count gives the
  // count before each; the third arrival completes the phase.
  if (lane == 0) {
    init(b[2], 3);
    unsigned long long s1, s2;
    unsigned p1, p2;
    asm volatile("mbarrier.arrive.noComplete.shared::cta.b64 %0, [%1], 1;" : "=l"(s1) : "r"(b[2]) : "memory");
    asm volatile("mbarrier.arrive.noComplete.shared::cta.b64 %0, [%1], 1;" : "=l"(s2) : "r"(b[2]) : "memory");
    asm volatile("mbarrier.pending_count.b64 %0, %1;" : "=r"(p1) : "l"(s1));
    asm volatile("mbarrier.pending_count.b64 %0, %1;" : "=r"(p2) : "l"(s2));
    arrive(b[2]);
    out[n] = p1;
    out[n + 1] = p2;
    out[n + 2] = testWaitState(b[2], s1);
  }
  n += 3;

  // 57-58: 32 lanes arriving with a count of 2 complete a count of 64;
  // each lane's state then tests complete.
  if (lane == 0) init(b[3], 64);
  __syncwarp();
  {
    unsigned long long state;
    asm volatile("mbarrier.arrive.shared::cta.b64 %0, [%1], 2;" : "=l"(state) : "r"(b[3]) : "memory");
    __syncwarp();
    unsigned all = __all_sync(0xffffffffu, testWaitState(b[3], state));
    if (lane == 0) {
      out[n] = all;
      out[n + 1] = testWaitParity(b[3], 1);  // phase 1 is current
    }
  }
  n += 2;

  // 59-61: arrive_drop on a count of 2 leaves one arrival per phase: one
  // more arrival completes phase 0, another completes phase 1.
  if (lane == 0) {
    init(b[4], 2);
    asm volatile("mbarrier.arrive_drop.shared::cta.b64 _, [%0];" ::"r"(b[4]) : "memory");
    arrive(b[4]);
    out[n] = testWaitParity(b[4], 0);
    arrive(b[4]);
    out[n + 1] = testWaitParity(b[4], 1);
    out[n + 2] = testWaitParity(b[4], 0);
  }
  n += 3;

  // 62-63: expect_tx holds a phase whose arrivals are all in until
  // complete_tx brings the tx-count back to zero.
  if (lane == 0) {
    init(b[5], 1);
    asm volatile("mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%0], 32;" ::"r"(b[5]) : "memory");
    arrive(b[5]);
    out[n] = testWaitParity(b[5], 0);
    asm volatile("mbarrier.complete_tx.relaxed.cta.shared::cta.b64 [%0], 32;" ::"r"(b[5]) : "memory");
    out[n + 1] = testWaitParity(b[5], 0);
  }
  n += 2;

  // 64-95: each lane copies one word with cp.async and arrives with .noinc
  // on a count of 32 (phase 0); then again without .noinc, which leaves the
  // pending count as it was, plus an explicit arrival (phase 1). Each case
  // is (first word << 32) | second word.
  if (lane == 0) init(b[6], 32);
  __syncwarp();
  {
    const uint32_t* src32 = reinterpret_cast<const uint32_t*>(src_g);
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" ::"r"(smem(&words[0][lane])), "l"(src32 + lane)
                 : "memory");
    asm volatile("cp.async.mbarrier.arrive.noinc.shared::cta.b64 [%0];" ::"r"(b[6]) : "memory");
    waitParity(b[6], 0);
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" ::"r"(smem(&words[1][lane])), "l"(src32 + 64 + lane)
                 : "memory");
    asm volatile("cp.async.mbarrier.arrive.shared::cta.b64 [%0];" ::"r"(b[6]) : "memory");
    arrive(b[6]);
    waitParity(b[6], 1);
    out[n + lane] = (uint64_t(words[0][lane]) << 32) | words[1][lane];
  }
  n += 32;

  // 96: inval, then init again: a fresh phase 0 that one arrival completes.
  __syncwarp();
  if (lane == 0) {
    asm volatile("mbarrier.inval.shared::cta.b64 [%0];" ::"r"(b[0]) : "memory");
    init(b[0], 1);
    arrive(b[0]);
    out[n] = testWaitParity(b[0], 0);
  }
  n += 1;

  // 97: padding, so the bulk store below starts on a 16-byte boundary.
  if (lane == 0) out[n] = 0x5a5a5a5a5a5a5a5aull;
  n += 1;

  // 98-113: lane 0 copies the first 128 bytes the bulk load brought in back
  // out to global memory in a bulk group, and waits for the group.
  if (lane == 0) {
    asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], 128;" ::"l"(out + n), "r"(smem(buf))
                 : "memory");
    asm volatile("cp.async.bulk.commit_group;" ::: "memory");
    asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
  }
  n += 16;

  // 114-145: a CTA-wide mbarrier with one arrival per lane; each lane waits
  // on its own arrival's state and reports its lane and the wait's answer.
  __syncwarp();
  if (lane == 0) init(b[7], 32);
  __syncwarp();
  {
    unsigned long long state = arrive(b[7]);
    unsigned done = 0;
    while (!done) {
      asm volatile("{\n\t.reg .pred p;\n\tmbarrier.try_wait.shared::cta.b64 p, [%1], %2;\n\tselp.u32 %0, 1, 0, p;\n\t}"
                   : "=r"(done)
                   : "r"(b[7]), "l"(state)
                   : "memory");
    }
    out[n + lane] = (uint64_t(lane) << 32) | done;
  }
  n += 32;
}

#include "harness.h"
