#pragma once

// Private to the instruction table: the mnemonic of every opcode, the
// helper that builds a row, and the type sets the rows share. The rows
// themselves live in instruction_table_rows_*.cpp, one file per area;
// instruction_table.cpp joins them.

#include <array>
#include <initializer_list>
#include <span>
#include <string_view>

#include "ptxsim/isa/instruction_table.h"

namespace ptxsim::isa::table {

// Indexed by Opcode.
inline constexpr std::array<std::string_view, kOpcodeCount> kMnemonics = [] {
  std::array<std::string_view, kOpcodeCount> m{};
  auto set = [&m](Opcode op, std::string_view text) { m[static_cast<unsigned>(op)] = text; };
  using enum Opcode;
  set(Add, "add"), set(Sub, "sub"), set(Mul, "mul"), set(Mad, "mad"), set(Mul24, "mul24");
  set(Mad24, "mad24"), set(Sad, "sad"), set(Div, "div"), set(Rem, "rem"), set(Abs, "abs");
  set(Neg, "neg"), set(Min, "min"), set(Max, "max"), set(Popc, "popc"), set(Clz, "clz");
  set(Bfind, "bfind"), set(Fns, "fns"), set(Brev, "brev"), set(Bfe, "bfe"), set(Bfi, "bfi");
  set(Szext, "szext"), set(Bmsk, "bmsk"), set(Dp4a, "dp4a"), set(Dp2a, "dp2a"), set(Addc, "addc");
  set(Subc, "subc"), set(Madc, "madc");
  set(Testp, "testp"), set(Copysign, "copysign"), set(Fma, "fma"), set(Rcp, "rcp"), set(Sqrt, "sqrt");
  set(Rsqrt, "rsqrt"), set(Sin, "sin"), set(Cos, "cos"), set(Lg2, "lg2"), set(Ex2, "ex2");
  set(Tanh, "tanh");
  set(Set, "set"), set(Setp, "setp"), set(Selp, "selp"), set(Slct, "slct");
  set(And, "and"), set(Or, "or"), set(Xor, "xor"), set(Not, "not"), set(Cnot, "cnot");
  set(Lop3, "lop3"), set(Shf, "shf"), set(Shl, "shl"), set(Shr, "shr"), set(Prmt, "prmt");
  set(Mov, "mov"), set(Shfl, "shfl"), set(Ld, "ld"), set(Ldu, "ldu"), set(St, "st");
  set(StAsync, "st.async"), set(StBulk, "st.bulk"), set(MultimemLdReduce, "multimem.ld_reduce");
  set(MultimemSt, "multimem.st"), set(MultimemRed, "multimem.red"), set(Prefetch, "prefetch");
  set(Prefetchu, "prefetchu"), set(Isspacep, "isspacep"), set(Cvta, "cvta"), set(Cvt, "cvt");
  set(CvtPack, "cvt.pack"), set(Createpolicy, "createpolicy"), set(Discard, "discard");
  set(Applypriority, "applypriority"), set(Mapa, "mapa"), set(Getctarank, "getctarank");
  set(Alloca, "alloca"), set(Stacksave, "stacksave"), set(Stackrestore, "stackrestore");
  set(CpAsync, "cp.async"), set(CpAsyncCommitGroup, "cp.async.commit_group");
  set(CpAsyncWaitGroup, "cp.async.wait_group"), set(CpAsyncWaitAll, "cp.async.wait_all");
  set(CpAsyncMbarrierArrive, "cp.async.mbarrier.arrive"), set(CpAsyncBulk, "cp.async.bulk");
  set(CpReduceAsyncBulk, "cp.reduce.async.bulk"), set(CpAsyncBulkTensor, "cp.async.bulk.tensor");
  set(CpReduceAsyncBulkTensor, "cp.reduce.async.bulk.tensor");
  set(CpAsyncBulkPrefetch, "cp.async.bulk.prefetch");
  set(CpAsyncBulkPrefetchTensor, "cp.async.bulk.prefetch.tensor");
  set(CpAsyncBulkCommitGroup, "cp.async.bulk.commit_group");
  set(CpAsyncBulkWaitGroup, "cp.async.bulk.wait_group");
  set(TensormapReplace, "tensormap.replace"), set(TensormapCpFenceproxy, "tensormap.cp_fenceproxy");
  set(Tex, "tex"), set(Tld4, "tld4"), set(Txq, "txq"), set(Istypep, "istypep"), set(Suld, "suld");
  set(Sust, "sust"), set(Sured, "sured"), set(Suq, "suq");
  set(Bra, "bra"), set(BrxIdx, "brx.idx"), set(Call, "call"), set(Ret, "ret"), set(Exit, "exit");
  set(Bar, "bar"), set(Barrier, "barrier"), set(BarWarpSync, "bar.warp.sync");
  set(BarrierCluster, "barrier.cluster"), set(Membar, "membar"), set(Fence, "fence"), set(Atom, "atom");
  set(Red, "red"), set(RedAsync, "red.async"), set(Vote, "vote"), set(Match, "match");
  set(Activemask, "activemask"), set(Redux, "redux"), set(Elect, "elect");
  set(Griddepcontrol, "griddepcontrol"), set(Nanosleep, "nanosleep");
  set(MbarrierInit, "mbarrier.init"), set(MbarrierInval, "mbarrier.inval");
  set(MbarrierExpectTx, "mbarrier.expect_tx"), set(MbarrierCompleteTx, "mbarrier.complete_tx");
  set(MbarrierArrive, "mbarrier.arrive"), set(MbarrierArriveDrop, "mbarrier.arrive_drop");
  set(MbarrierTestWait, "mbarrier.test_wait"), set(MbarrierTryWait, "mbarrier.try_wait");
  set(MbarrierPendingCount, "mbarrier.pending_count");
  set(ClusterlaunchcontrolTryCancel, "clusterlaunchcontrol.try_cancel");
  set(ClusterlaunchcontrolQueryCancel, "clusterlaunchcontrol.query_cancel");
  set(WmmaLoad, "wmma.load"), set(WmmaStore, "wmma.store"), set(WmmaMma, "wmma.mma"), set(Mma, "mma");
  set(MmaSp, "mma.sp"), set(Ldmatrix, "ldmatrix"), set(Stmatrix, "stmatrix"), set(Movmatrix, "movmatrix");
  set(WgmmaFence, "wgmma.fence"), set(WgmmaCommitGroup, "wgmma.commit_group");
  set(WgmmaWaitGroup, "wgmma.wait_group"), set(WgmmaMmaAsync, "wgmma.mma_async");
  set(WgmmaMmaAsyncSp, "wgmma.mma_async.sp");
  set(Tcgen05Alloc, "tcgen05.alloc"), set(Tcgen05Dealloc, "tcgen05.dealloc");
  set(Tcgen05RelinquishAllocPermit, "tcgen05.relinquish_alloc_permit"), set(Tcgen05Ld, "tcgen05.ld");
  set(Tcgen05St, "tcgen05.st"), set(Tcgen05Wait, "tcgen05.wait"), set(Tcgen05Cp, "tcgen05.cp");
  set(Tcgen05Shift, "tcgen05.shift"), set(Tcgen05Mma, "tcgen05.mma"), set(Tcgen05MmaSp, "tcgen05.mma.sp");
  set(Tcgen05MmaWs, "tcgen05.mma.ws"), set(Tcgen05MmaWsSp, "tcgen05.mma.ws.sp");
  set(Tcgen05Commit, "tcgen05.commit"), set(Tcgen05Fence, "tcgen05.fence");
  set(Vadd, "vadd"), set(Vsub, "vsub"), set(Vabsdiff, "vabsdiff"), set(Vmin, "vmin"), set(Vmax, "vmax");
  set(Vshl, "vshl"), set(Vshr, "vshr"), set(Vmad, "vmad"), set(Vset, "vset");
  set(Vadd2, "vadd2"), set(Vsub2, "vsub2"), set(Vavrg2, "vavrg2"), set(Vabsdiff2, "vabsdiff2");
  set(Vmin2, "vmin2"), set(Vmax2, "vmax2"), set(Vset2, "vset2");
  set(Vadd4, "vadd4"), set(Vsub4, "vsub4"), set(Vavrg4, "vavrg4"), set(Vabsdiff4, "vabsdiff4");
  set(Vmin4, "vmin4"), set(Vmax4, "vmax4"), set(Vset4, "vset4");
  set(Trap, "trap"), set(Brkpt, "brkpt"), set(Pmevent, "pmevent"), set(Setmaxnreg, "setmaxnreg");
  for (unsigned i = 1; i < kOpcodeCount; ++i) {
    if (m[i].empty()) throw "an opcode has no mnemonic";
  }
  return m;
}();

// One row. The mnemonic comes from kMnemonics; required groups are
// allowed too.
constexpr InstructionSpec row(Opcode opcode, std::initializer_list<TypeSet> types, GroupSet allowed,
                              GroupSet required, std::string_view operands, uint16_t minPtx, uint16_t minSm,
                              UnitClass unit) {
  InstructionSpec spec{opcode,   kMnemonics[static_cast<unsigned>(opcode)],
                       0,        {},
                       allowed | required,
                       required, operands,
                       minPtx,   minSm,
                       unit};
  if (types.size() > spec.legalTypes.size()) throw "too many type slots";
  for (TypeSet t : types) spec.legalTypes[spec.typeSlots++] = t;
  return spec;
}

// Type sets shared by the rows.
namespace types {
using enum DataType;
inline constexpr TypeSet kPred{Pred};
inline constexpr TypeSet kB16To64{B16, B32, B64};
inline constexpr TypeSet kB32B64{B32, B64};
inline constexpr TypeSet kU32S32{U32, S32};
inline constexpr TypeSet kU32U64{U32, U64};
inline constexpr TypeSet kInt32And64{U32, U64, S32, S64};
inline constexpr TypeSet kInt16To64{U16, U32, U64, S16, S32, S64};
inline constexpr TypeSet kSigned16To64{S16, S32, S64};
inline constexpr TypeSet kInt8To64{U8, U16, U32, U64, S8, S16, S32, S64};
inline constexpr TypeSet kPacked16{U16x2, S16x2};
inline constexpr TypeSet kF16{F16, F16x2};
inline constexpr TypeSet kBF16{BF16, BF16x2};
inline constexpr TypeSet kF32{F32};
inline constexpr TypeSet kF64{F64};
inline constexpr TypeSet kF32F64{F32, F64};
// Every type an integer/bit compare, select or move accepts.
inline constexpr TypeSet kScalar = kB16To64 | kInt16To64 | kF32F64;
// ld/st/ldu element types.
inline constexpr TypeSet kMemory{B8, B16, B32, B64, B128, U8, U16, U32, U64, S8, S16, S32, S64, F32, F64};
// The 32/64-bit element types of atom/red.
inline constexpr TypeSet kAtomic{B32, B64, U32, U64, S32, S64, F32};
}  // namespace types

// Everything a rows file writes its rows with: `using namespace rowWords;`.
namespace rowWords {
using namespace types;
using enum DataType;
using enum ModGroup;
using Op = Opcode;
using U = UnitClass;
}  // namespace rowWords

std::span<const InstructionSpec> arithmeticRows();
std::span<const InstructionSpec> memoryRows();
std::span<const InstructionSpec> controlRows();
std::span<const InstructionSpec> matrixRows();

}  // namespace ptxsim::isa::table
