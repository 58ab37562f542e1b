#pragma once

// Every PTX ISA 9.0 instruction, as one enumerator per mnemonic. A mnemonic
// may contain dots where the ISA names the instruction that way
// ("bar.warp.sync", "cp.async.bulk.tensor"); the remaining dotted words of
// an opcode token are modifiers and types. The spelling of each enumerator
// lives in the instruction table (instruction_table.cpp).

#include <cstdint>

namespace ptxsim::isa {

enum class Opcode : uint16_t {
  Invalid,
  // Integer arithmetic.
  Add, Sub, Mul, Mad, Mul24, Mad24, Sad, Div, Rem, Abs, Neg, Min, Max, Popc, Clz, Bfind, Fns,
  Brev, Bfe, Bfi, Szext, Bmsk, Dp4a, Dp2a, Addc, Subc, Madc,
  // Floating point.
  Testp, Copysign, Fma, Rcp, Sqrt, Rsqrt, Sin, Cos, Lg2, Ex2, Tanh,
  // Comparison and selection.
  Set, Setp, Selp, Slct,
  // Logic and shift.
  And, Or, Xor, Not, Cnot, Lop3, Shf, Shl, Shr, Prmt,
  // Data movement and conversion.
  Mov, Shfl, Ld, Ldu, St, StAsync, StBulk, MultimemLdReduce, MultimemSt, MultimemRed, Prefetch,
  Prefetchu, Isspacep, Cvta, Cvt, CvtPack, Createpolicy, Discard, Applypriority, Mapa, Getctarank,
  Alloca, Stacksave, Stackrestore,
  CpAsync, CpAsyncCommitGroup, CpAsyncWaitGroup, CpAsyncWaitAll, CpAsyncMbarrierArrive,
  CpAsyncBulk, CpReduceAsyncBulk, CpAsyncBulkTensor, CpReduceAsyncBulkTensor,
  CpAsyncBulkPrefetch, CpAsyncBulkPrefetchTensor, CpAsyncBulkCommitGroup, CpAsyncBulkWaitGroup,
  TensormapReplace, TensormapCpFenceproxy,
  // Texture and surface.
  Tex, Tld4, Txq, Istypep, Suld, Sust, Sured, Suq,
  // Control flow.
  Bra, BrxIdx, Call, Ret, Exit,
  // Synchronisation and communication.
  Bar, Barrier, BarWarpSync, BarrierCluster, Membar, Fence, Atom, Red, RedAsync, Vote, Match,
  Activemask, Redux, Elect, Griddepcontrol, Nanosleep,
  MbarrierInit, MbarrierInval, MbarrierExpectTx, MbarrierCompleteTx, MbarrierArrive,
  MbarrierArriveDrop, MbarrierTestWait, MbarrierTryWait, MbarrierPendingCount,
  ClusterlaunchcontrolTryCancel, ClusterlaunchcontrolQueryCancel,
  // Matrix.
  WmmaLoad, WmmaStore, WmmaMma, Mma, MmaSp, Ldmatrix, Stmatrix, Movmatrix,
  WgmmaFence, WgmmaCommitGroup, WgmmaWaitGroup, WgmmaMmaAsync, WgmmaMmaAsyncSp,
  Tcgen05Alloc, Tcgen05Dealloc, Tcgen05RelinquishAllocPermit, Tcgen05Ld, Tcgen05St, Tcgen05Wait,
  Tcgen05Cp, Tcgen05Shift, Tcgen05Mma, Tcgen05MmaSp, Tcgen05MmaWs, Tcgen05MmaWsSp,
  Tcgen05Commit, Tcgen05Fence,
  // Video.
  Vadd, Vsub, Vabsdiff, Vmin, Vmax, Vshl, Vshr, Vmad, Vset,
  Vadd2, Vsub2, Vavrg2, Vabsdiff2, Vmin2, Vmax2, Vset2,
  Vadd4, Vsub4, Vavrg4, Vabsdiff4, Vmin4, Vmax4, Vset4,
  // Miscellaneous.
  Trap, Brkpt, Pmevent, Setmaxnreg,
  Count_,
};

inline constexpr unsigned kOpcodeCount = static_cast<unsigned>(Opcode::Count_);

// The functional unit class an instruction issues to; the timing model maps
// classes to pipelines.
enum class UnitClass : uint8_t {
  IntAlu,      // integer add, logic, shifts, compares, moves
  IntMul,      // integer multiply, mad, division helpers
  Fp32,        // f32 add/mul/fma
  Fp64,        // f64 arithmetic
  Fp16,        // f16/bf16 arithmetic
  Sfu,         // transcendental approximations, rcp, sqrt
  Conversion,  // cvt and friends
  Memory,      // loads, stores, atomics, prefetch, cp.async
  Texture,     // tex, tld4, suld, sust, txq
  Control,     // branches, calls, returns, exit
  Sync,        // barriers, fences, votes, shuffles, collectives
  Tensor,      // mma, wmma, wgmma, tcgen05
  Misc,        // nanosleep, pmevent, trap, ...
};

// Whether the class's instructions only compute on their operands (no
// memory, control flow or synchronisation).
constexpr bool computesOnly(UnitClass unit) {
  switch (unit) {
    case UnitClass::IntAlu:
    case UnitClass::IntMul:
    case UnitClass::Fp32:
    case UnitClass::Fp64:
    case UnitClass::Fp16:
    case UnitClass::Sfu:
    case UnitClass::Conversion: return true;
    default: return false;
  }
}

}  // namespace ptxsim::isa
