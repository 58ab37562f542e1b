// inline_asm.cu - covers: inline PTX via asm/asm volatile with "r","l","h",
// "f","d","n" and read-write "+r" operands, scoped {.reg} blocks, local labels
// via %=, predicates and @p guards, lop3/prmt/bfe/bfi/shf/brev/bfind/fns/popc,
// dp4a/dp2a, add.cc/addc carry chains, mad.wide, testp/copysign, special
// registers (%laneid %warpid %smid %nsmid %clock %clock64 %globaltimer
// %dynamic_smem_size %lanemask_*), vote/activemask/bar.warp.sync, memory-order
// loads and stores (ld.acquire, st.release, ld.volatile, fence, membar,
// red.relaxed), prefetch, nanosleep, a brx.idx jump table (.branchtargets),
// sm_80+ createpolicy/cache hints, sm_90+ elect.sync/%cluster_ctarank/
// griddepcontrol, sm_90a setmaxnreg.

__device__ __forceinline__ unsigned lop3_mix(unsigned a, unsigned b, unsigned c) {
  unsigned r;
  asm("lop3.b32 %0, %1, %2, %3, 0x96;" : "=r"(r) : "r"(a), "r"(b), "r"(c));  // a ^ b ^ c
  unsigned s;
  asm("lop3.b32 %0, %1, %2, %3, 0xE8;" : "=r"(s) : "r"(a), "r"(b), "r"(c));  // majority
  return r + s;
}

__device__ __forceinline__ unsigned bit_tricks(unsigned x, unsigned y, int pos) {
  unsigned p, e, f, l, rr, b, bf, pc, fn;
  int se;
  asm("prmt.b32 %0, %1, %2, 0x5140;" : "=r"(p) : "r"(x), "r"(y));
  asm("prmt.b32.f4e %0, %1, %2, %3;" : "=r"(f) : "r"(x), "r"(y), "r"(pos));
  asm("bfe.u32 %0, %1, %2, 8;" : "=r"(e) : "r"(x), "r"(pos & 23));
  asm("bfe.s32 %0, %1, 4, %2;" : "=r"(se) : "r"(y), "r"(pos & 15));
  asm("bfi.b32 %0, %1, %2, %3, 5;" : "=r"(b) : "r"(x), "r"(y), "r"(pos & 27));
  asm("shf.l.wrap.b32 %0, %1, %2, %3;" : "=r"(l) : "r"(x), "r"(y), "r"(pos));
  asm("shf.r.clamp.b32 %0, %1, %2, %3;" : "=r"(rr) : "r"(x), "r"(y), "r"(pos));
  asm("brev.b32 %0, %1;" : "=r"(bf) : "r"(x));
  asm("bfind.shiftamt.u32 %0, %1;" : "=r"(pc) : "r"(y));
  asm("fns.b32 %0, %1, %2, %3;" : "=r"(fn) : "r"(x), "r"(pos & 31), "n"(1));
  unsigned pop;
  asm("popc.b32 %0, %1;" : "=r"(pop) : "r"(x ^ y));
  return p + f + e + (unsigned)se + b + l + rr + bf + pc + fn + pop;
}

__device__ __forceinline__ unsigned long long add128(unsigned long long alo, unsigned long long ahi,
                                                     unsigned long long blo, unsigned long long bhi,
                                                     unsigned long long &hi) {
  unsigned long long lo;
  asm("add.cc.u64 %0, %2, %3;\n\t"
      "addc.u64 %1, %4, %5;"
      : "=l"(lo), "=l"(hi)
      : "l"(alo), "l"(blo), "l"(ahi), "l"(bhi));
  return lo;
}

__device__ __noinline__ int jump_table(int sel, int v) {
  int r;
  asm volatile(
      "{\n\t"
      ".reg .u32 idx;\n\t"
      "and.b32 idx, %1, 3;\n\t"
      "Ltab%=: .branchtargets Lc0%=, Lc1%=, Lc2%=, Lc3%=;\n\t"
      "brx.idx idx, Ltab%=;\n"
      "Lc0%=:\n\tadd.s32 %0, %2, 100;\n\tbra.uni Ldone%=;\n"
      "Lc1%=:\n\tmul.lo.s32 %0, %2, 3;\n\tbra.uni Ldone%=;\n"
      "Lc2%=:\n\txor.b32 %0, %2, 0x55;\n\tbra.uni Ldone%=;\n"
      "Lc3%=:\n\tneg.s32 %0, %2;\n"
      "Ldone%=:\n\t"
      "}"
      : "=r"(r)
      : "r"(sel), "r"(v));
  return r;
}

__global__ void alu_asm(const unsigned *a, const unsigned *b, unsigned *out, unsigned long long *wide, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned x = a[i], y = b[i];
  unsigned r = lop3_mix(x, y, x + y) + bit_tricks(x, y, i & 31);
  int d4, d2;
  asm("dp4a.u32.u32 %0, %1, %2, %3;" : "=r"(d4) : "r"(x), "r"(y), "r"(r));
  asm("dp2a.lo.s32.s32 %0, %1, %2, %3;" : "=r"(d2) : "r"(x), "r"(y), "r"(d4));
  unsigned long long hi, mw;
  unsigned long long lo = add128(x, y, (unsigned long long)r << 32, d2, hi);
  asm("mad.wide.u32 %0, %1, %2, %3;" : "=l"(mw) : "r"(x), "r"(y), "l"(lo));
  unsigned acc = r;
  asm("{\n\t.reg .pred p;\n\tsetp.gt.u32 p, %1, %2;\n\t@p add.u32 %0, %0, 1;\n\t@!p sub.u32 %0, %0, 1;\n\t}"
      : "+r"(acc)
      : "r"(x), "r"(y));
  out[i] = acc + (unsigned)jump_table((int)x, (int)y);
  wide[i] = lo ^ hi ^ mw;
}

__global__ void float_asm(const float *x, const double *y, float *out, double *dout, unsigned short *hout, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float f = x[i], g;
  double d = y[i], e;
  asm("fma.rn.ftz.f32 %0, %1, %1, 0f3F800000;" : "=f"(g) : "f"(f));
  asm("{\n\t.reg .pred fin;\n\ttestp.finite.f32 fin, %1;\n\tselp.f32 %0, %1, 0f00000000, fin;\n\t}" : "=f"(g) : "f"(g));
  asm("copysign.f32 %0, %1, %2;" : "=f"(g) : "f"(f), "f"(g));
  asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(g) : "f"(g));
  asm("mul.rn.f64 %0, %1, 0d3FF8000000000000;" : "=d"(e) : "d"(d));
  asm("rcp.approx.ftz.f64 %0, %1;" : "=d"(e) : "d"(e));
  unsigned short h;
  asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(f));
  asm("{\n\t.reg .f16 t;\n\tmov.b16 t, %1;\n\tadd.f16 t, t, t;\n\tmov.b16 %0, t;\n\t}" : "=h"(h) : "h"(h));
  out[i] = g;
  dout[i] = e;
  hout[i] = h;
}

__global__ void special_regs(unsigned *out, unsigned long long *times, int *flag, int n) {
  extern __shared__ int dsm[];
  unsigned lane, warp, sm, nsm, clk, dyn, ltm, act;
  unsigned long long c64, gt;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
  asm volatile("mov.u32 %0, %%warpid;" : "=r"(warp));
  asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
  asm volatile("mov.u32 %0, %%nsmid;" : "=r"(nsm));
  asm volatile("mov.u32 %0, %%clock;" : "=r"(clk));
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(c64));
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(gt));
  asm volatile("mov.u32 %0, %%dynamic_smem_size;" : "=r"(dyn));
  asm volatile("mov.u32 %0, %%lanemask_lt;" : "=r"(ltm));
  asm volatile("activemask.b32 %0;" : "=r"(act));
  unsigned ballot;
  asm volatile("{\n\t.reg .pred q;\n\tsetp.ne.u32 q, %1, 0;\n\tvote.sync.ballot.b32 %0, q, 0xffffffff;\n\t}"
               : "=r"(ballot) : "r"(lane & 1));
  asm volatile("bar.warp.sync 0xffffffff;");
  dsm[threadIdx.x] = (int)lane;
  asm volatile("bar.sync 0;" ::: "memory");
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int seen;
  asm volatile("ld.acquire.gpu.global.s32 %0, [%1];" : "=r"(seen) : "l"(flag) : "memory");
  asm volatile("st.release.gpu.global.s32 [%0], %1;" ::"l"(flag + 1), "r"(seen + 1) : "memory");
  asm volatile("ld.volatile.global.s32 %0, [%1];" : "=r"(seen) : "l"(flag + 2) : "memory");
  asm volatile("red.relaxed.gpu.global.add.s32 [%0], %1;" ::"l"(flag + 3), "r"(1) : "memory");
  asm volatile("fence.acq_rel.gpu;" ::: "memory");
  asm volatile("membar.sys;" ::: "memory");
  asm volatile("prefetch.global.L2 [%0];" ::"l"(flag + 4));
  asm volatile("nanosleep.u32 %0;" ::"r"(lane * 10));
#if __CUDA_ARCH__ >= 800
  unsigned long long policy;
  asm volatile("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;" : "=l"(policy));
  asm volatile("ld.global.L2::cache_hint.s32 %0, [%1], %2;" : "=r"(seen) : "l"(flag + 5), "l"(policy));
#endif
#if __CUDA_ARCH__ >= 900
  unsigned elected = 0, rank;
  asm volatile("{\n\t.reg .pred e;\n\telect.sync _|e, 0xffffffff;\n\tselp.u32 %0, 1, 0, e;\n\t}" : "=r"(elected));
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
  asm volatile("griddepcontrol.wait;" ::: "memory");
  asm volatile("griddepcontrol.launch_dependents;");
  seen += (int)(elected + rank);
#endif
  if (i < n) {
    out[i] = lane + warp + sm + nsm + clk + dyn + ltm + act + ballot + (unsigned)dsm[(threadIdx.x + 1) % blockDim.x] + (unsigned)seen;
    times[i] = c64 ^ gt;
  }
}

// Register reallocation between warpgroups (sm_90a only): producer warps give
// registers back, consumer warps take more.
__global__ void __launch_bounds__(384, 1) warpgroup_regs(float *out, int n) {
  int wg = threadIdx.x / 128;
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  if (wg == 0) {
    asm volatile("setmaxnreg.dec.sync.aligned.u32 40;");
  } else {
    asm volatile("setmaxnreg.inc.sync.aligned.u32 232;");
  }
#endif
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = (float)wg;
}
