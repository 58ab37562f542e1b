#pragma once

// Instruction modifiers: the dotted words of an opcode token that are
// neither the mnemonic nor a type. Each modifier belongs to one group; at
// most one modifier of a group may appear on an instruction, so a decoded
// instruction stores one value per group. The same spelling may name
// modifiers of different groups (".lo" is a multiply mode and a comparison);
// the instruction table's row decides which group applies.

#include <array>
#include <cstdint>
#include <span>
#include <string_view>

namespace ptxsim::isa {

enum class ModGroup : uint8_t {
  Rounding,       // .rn .rz .rm .rp .rna .rs
  IntRounding,    // .rni .rzi .rmi .rpi
  Ftz,            // .ftz .noftz
  Saturate,       // .sat .satfinite
  Relu,           // .relu
  Precision,      // .approx .full; .acc::f32 .acc::f16 (multimem accumulation precision)
  MulMode,        // .lo .hi .wide
  Carry,          // .cc
  Compare,        // .eq .ne .lt ... .num .nan
  BoolOp,         // .and .or .xor (setp/set combine, bar.red, lop3)
  Space,          // .global .shared .local .const .param ...; the state space a fence's
                  // synchronisation is restricted to (.sync_restrict::shared::cta/::cluster)
  SecondSpace,    // the second state space word: the source of cp.async/cp.async.bulk/
                  // cp.reduce.async.bulk/tensormap.cp_fenceproxy (the first word, the
                  // destination, is Space)
  CacheOp,        // .ca .cg .cs .lu .cv .wb .wt; tcgen05.mma's operand collector buffer
                  // usage (.collector::a::fill ... .collector::b3::discard)
  NonCoherent,    // .nc
  Semantics,      // .volatile .relaxed .acquire .release .acq_rel .sc .weak
  Scope,          // .cta .cluster .gpu .sys
  AtomicOp,       // .add .min .max .inc .dec .exch .cas .and .or .xor
  Vector,         // .v2 .v4 .v8
  L1Eviction,     // .L1::evict_normal ...
  L2Eviction,     // .L2::evict_normal ...
  L2Prefetch,     // .L2::64B .L2::128B .L2::256B
  CacheHint,      // .L2::cache_hint; createpolicy's secondary priority (the second
                  // .L2::evict_first/.L2::evict_unchanged word)
  ShflMode,       // .up .down .bfly .idx
  VoteMode,       // .all .any .uni .ballot
  Uniform,        // .uni on bra/call/ret/brx.idx
  Sync,           // .sync
  Aligned,        // .aligned
  BarrierOp,      // .arrive .red (bar/barrier/barrier.cluster), .wait
  ReduceOp,       // .popc .and .or .add .min .max .xor (bar.red, redux)
  ShiftMode,      // .l .r (shf); .ashift (tcgen05.mma); .down (tcgen05.shift)
  ShiftClamp,     // .wrap .clamp (shf, szext, bmsk)
  PermuteMode,    // .f4e .b4e .rc8 .ecl .ecr .rc16 (prmt)
  TestProperty,   // .finite .infinite .number .notanumber .normal .subnormal
  ShiftAmount,    // .shiftamt (bfind); .shr7 .shr15 (vmad's final shift)
  NaNMode,        // .NaN
  XorSign,        // .xorsign
  AbsMode,        // .abs
  To,             // .to (cvta)
  MembarLevel,    // .cta .gl .sys on membar; the cache level .L1 .L2 of prefetch, prefetchu,
                  // discard, createpolicy.cvt and cp.async.bulk.prefetch
  Proxy,          // the proxy kind of fence.proxy/membar.proxy and tensormap.cp_fenceproxy:
                  // .alias .async .async::generic .tensormap::generic; .mbarrier_init
  Geometry,       // .1d .2d .3d .a1d .a2d .cube .acube .2dms .a2dms; .4d .5d (tensor copies)
  TexLevel,       // .level .grad .base
  Component,      // .r .g .b .a (tld4)
  Query,          // txq/suq queries; the field tensormap.replace writes
  SurfaceMode,    // .b .p (suld/sust)
  Boundary,       // .trap .clamp .zero; .oob (fma.oob)
  Layout,         // .row .col (first matrix)
  LayoutB,        // .row .col (second matrix)
  MatrixPart,     // .a .b .c .d (wmma.load/store)
  MatrixCount,    // .x1 .x2 .x4 ... (ldmatrix/stmatrix, tcgen05.ld/st)
  Transpose,      // .trans
  Shape,          // .m16n8k16 etc.; the numbers are kept in Instruction::shape. Also the
                  // tcgen05 data-path shapes .16x64b .32x32b .128x256b ... (own modifiers)
  MatrixKind,     // .kind::f16 ...
  MbarrierOp,     // .expect_tx .complete_tx .noComplete (mbarrier.arrive), .noinc
                  // (cp.async.mbarrier.arrive)
  Multicast,      // .multicast::cluster .multicast::cluster::all; tcgen05.cp's
                  // .warpx2::02_13 .warpx2::01_23 .warpx4
  CompletionMechanism,  // .mbarrier::complete_tx::bytes .bulk_group .mbarrier::arrive::one
  TensorLoadMode, // .tile .im2col .tile::gather4 .tile::scatter4 .im2col::w .im2col::w::128
                  // .im2col_no_offs
  Parity,         // .parity
  Dependency,     // .launch_dependents .wait (griddepcontrol)
  MaxNReg,        // .inc .dec (setmaxnreg)
  Reserved,       // words accepted and kept but carrying no semantics yet: .b8x16 (the
                  // only unpacked format), .b1024 (tensormap.replace), .ordered_metadata
                  // (of mma.sp::ordered_metadata)
  // Groups added for PTX ISA 9.0 spellings.
  CtaGroup,       // .cta_group::1 .cta_group::2 (tcgen05, cp.async.bulk.tensor)
  Form,           // a word selecting a sub-form of an instruction: .proxy (fence.proxy),
                  // .mmio (ld/st.async/red.async), .fractional .range .cvt (createpolicy),
                  // .is_canceled .get_first_ctaid[::x|y|z] (clusterlaunchcontrol),
                  // .block_scale (mma), .red .pack::16b .unpack::16b (tcgen05.ld/st),
                  // .tensormap (prefetch), .ld .st (tcgen05.wait::ld), .before_thread_sync
                  // .after_thread_sync (tcgen05.fence::...), .b6x16_p32 .b4x16_p64 (source
                  // formats of ldmatrix/tcgen05.cp), .cp_mask, .read (cp.async.bulk.wait_group),
                  // .async (clusterlaunchcontrol.try_cancel), .po (vmad), .mask (pmevent)
  ScaleVector,    // .scale_vec::1X .scale_vec::2X .scale_vec::4X .block16 .block32
  Count_,
};

inline constexpr unsigned kModGroupCount = static_cast<unsigned>(ModGroup::Count_);

enum class Mod : uint16_t {
  None,
  // Rounding.
  Rn, Rz, Rm, Rp, Rna, Rs,
  Rni, Rzi, Rmi, Rpi,
  Ftz, Sat, Satfinite, Relu, Approx, Full,
  MulLo, MulHi, Wide, Cc,
  // Comparisons.
  Eq, Ne, Lt, Le, Gt, Ge, CmpLo, Ls, CmpHi, Hs, Equ, Neu, Ltu, Leu, Gtu, Geu, Num, Nan,
  // Boolean combine.
  BoolAnd, BoolOr, BoolXor,
  // State spaces.
  Global, Shared, SharedCta, SharedCluster, Local, Const, Param, ParamEntry, ParamFunc, TexSpace,
  SrcGlobal, SrcShared, SrcSharedCta, SrcSharedCluster,
  // Cache operators and memory ordering.
  Ca, Cg, Cs, Lu, Cv, Wb, Wt, Nc,
  Volatile, Relaxed, Acquire, Release, AcqRel, Sc, Weak, Mmio,
  Cta, Cluster, Gpu, Sys,
  // Atomic operations.
  AtomAdd, AtomMin, AtomMax, AtomInc, AtomDec, AtomExch, AtomCas, AtomAnd, AtomOr, AtomXor,
  // Vectors.
  V2, V4, V8,
  // Cache eviction and prefetch hints.
  L1EvictNormal, L1EvictUnchanged, L1EvictFirst, L1EvictLast, L1NoAllocate,
  L2EvictNormal, L2EvictFirst, L2EvictLast, L2EvictUnchanged,
  L2Prefetch64B, L2Prefetch128B, L2Prefetch256B, L2CacheHint,
  // Warp collectives and control.
  Up, Down, Bfly, Idx,
  VoteAll, VoteAny, VoteUni, Ballot,
  Uni, SyncMod, AlignedMod,
  Arrive, RedOp, WaitOp,
  RedPopc, RedAnd, RedOr, RedAdd, RedMin, RedMax, RedXor,
  // Bit manipulation.
  ShfL, ShfR, Wrap, Clamp,
  F4e, B4e, Rc8, Ecl, Ecr, Rc16,
  Finite, Infinite, Number, Notanumber, Normal, Subnormal,
  Shiftamt, NaN, Xorsign, AbsMod, To,
  MembarCta, MembarGl, MembarSys,
  ProxyGeneric, ProxyAsync, ProxyAsyncGlobal, ProxyAsyncSharedCta, ProxyAlias,
  ProxyTensormapGeneric, MbarrierInitFence,
  // Texture and surface.
  Geom1d, Geom2d, Geom3d, GeomA1d, GeomA2d, GeomCube, GeomAcube, Geom2dms, GeomA2dms,
  Level, Grad, Base,
  CompR, CompG, CompB, CompA,
  QWidth, QHeight, QDepth, QChannelDataType, QChannelOrder, QNormalizedCoords, QFilterMode,
  QAddrMode0, QAddrMode1, QAddrMode2, QForceUnnormalizedCoords, QNumMipmapLevels, QNumSamples,
  QArraySize, QMemoryLayout,
  SurfB, SurfP,
  Trap, ClampMode, Zero,
  // Matrix.
  RowA, ColA, RowB, ColB,
  PartA, PartB, PartC, PartD,
  X1, X2, X4, X8, X16, X32, X64, X128,
  Trans, ShapeMod,
  KindF16, KindTf32, KindF8f6f4, KindI8, KindMxf8f6f4, KindMxf4, KindMxf4nvf4,
  // Asynchronous copies and mbarriers.
  ExpectTx, CompleteTx, NoComplete, MulticastCluster, MbarrierCompleteTxBytes, BulkGroup,
  Tile, Im2col, TileGather4, TileScatter4, Im2colW, Im2colW128,
  ParityMod, LaunchDependents, DepWait, IncMod, DecMod,
  ReservedMod,
  // Added for PTX ISA 9.0 (groups in the vocabulary, modifier.cpp).
  NoFtz, AccF32, AccF16,
  SyncRestrictSharedCta, SyncRestrictSharedCluster,
  L2SecondaryEvictFirst, L2SecondaryEvictUnchanged,
  LevelL1, LevelL2,
  ProxyAsyncGeneric,
  Geom4d, Geom5d,
  Ashift, ShiftDown, Shr7, Shr15, Oob,
  CollectorAFill, CollectorAUse, CollectorALastuse, CollectorADiscard,
  CollectorB0Fill, CollectorB0Use, CollectorB0Lastuse, CollectorB0Discard,
  CollectorB1Fill, CollectorB1Use, CollectorB1Lastuse, CollectorB1Discard,
  CollectorB2Fill, CollectorB2Use, CollectorB2Lastuse, CollectorB2Discard,
  CollectorB3Fill, CollectorB3Use, CollectorB3Lastuse, CollectorB3Discard,
  FieldGlobalAddress, FieldRank, FieldBoxDim, FieldGlobalDim, FieldGlobalStride, FieldElementStride,
  FieldElemtype, FieldInterleaveLayout, FieldSwizzleMode, FieldSwizzleAtomicity, FieldFillMode,
  Shape16x64b, Shape16x128b, Shape16x256b, Shape32x32b, Shape16x32bx2,
  Shape128x256b, Shape4x256b, Shape128x128b, Shape64x128b, Shape32x128b,
  MulticastClusterAll, Warpx2Lanes02And13, Warpx2Lanes01And23, Warpx4,
  MbarrierArriveOne, NoInc, Im2colNoOffs,
  CtaGroup1, CtaGroup2,
  FormProxy, Fractional, RangePolicy, CvtPolicy, IsCanceled, GetFirstCtaid, GetFirstCtaidX,
  GetFirstCtaidY, GetFirstCtaidZ, BlockScale, LdRed, Pack16b, Unpack16b, TensormapForm, WaitLd, WaitSt,
  BeforeThreadSync, AfterThreadSync, FmtB6x16P32, FmtB4x16P64, CpMask, ReadOnly, AsyncForm, PlusOne,
  PmeventMask,
  FmtB8x16, B1024, OrderedMetadata,
  ScaleVec1X, ScaleVec2X, ScaleVec4X, Block16, Block32,
  Count_,
};

inline constexpr unsigned kModCount = static_cast<unsigned>(Mod::Count_);

struct ModifierInfo {
  std::string_view text;  // without the leading dot, e.g. "L2::cache_hint"
  Mod mod;
  ModGroup group;
};

// Every spelling the table knows, for every group it can belong to.
std::span<const ModifierInfo> modifierVocabulary();
ModGroup groupOf(Mod mod);
std::string_view modifierText(Mod mod);

// One modifier per group; Mod::None where the group is absent. Kept as a
// short list rather than an array over all groups: an instruction carries a
// handful of modifiers, and the IR holds hundreds of thousands of them.
class ModifierSet {
 public:
  static constexpr unsigned kCapacity = 12;

  Mod get(ModGroup group) const {
    for (unsigned i = 0; i < count_; ++i) {
      if (groups_[i] == group) return mods_[i];
    }
    return Mod::None;
  }
  bool has(Mod mod) const { return get(groupOf(mod)) == mod; }
  bool hasGroup(ModGroup group) const { return get(group) != Mod::None; }
  // Replaces the group's modifier; false when the set is full.
  bool set(Mod mod) {
    ModGroup group = groupOf(mod);
    for (unsigned i = 0; i < count_; ++i) {
      if (groups_[i] == group) {
        mods_[i] = mod;
        return true;
      }
    }
    if (count_ == kCapacity) return false;
    groups_[count_] = group;
    mods_[count_++] = mod;
    return true;
  }
  unsigned size() const { return count_; }

 private:
  std::array<Mod, kCapacity> mods_{};
  std::array<ModGroup, kCapacity> groups_{};
  uint8_t count_ = 0;
};

// A set of modifier groups, for the instruction table.
class GroupSet {
 public:
  constexpr GroupSet() = default;
  constexpr GroupSet(std::initializer_list<ModGroup> groups) {
    for (ModGroup g : groups) bits_ |= bit(g);
  }
  constexpr bool contains(ModGroup g) const { return (bits_ & bit(g)) != 0; }
  constexpr GroupSet operator|(GroupSet other) const { return GroupSet(bits_ | other.bits_); }
  constexpr bool empty() const { return bits_ == 0; }
  constexpr uint64_t bits() const { return bits_; }

 private:
  constexpr explicit GroupSet(uint64_t bits) : bits_(bits) {}
  static constexpr uint64_t bit(ModGroup g) { return uint64_t{1} << static_cast<unsigned>(g); }
  uint64_t bits_ = 0;
};
static_assert(kModGroupCount <= 64, "GroupSet holds at most 64 groups");

}  // namespace ptxsim::isa
