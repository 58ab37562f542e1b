// Instruction-table rows: data movement and conversion, asynchronous and
// bulk copies, tensormaps, multimem, atomics and reductions.
//
// Where a newer modifier raises the PTX/sm requirement, a mnemonic has an
// older row without it first and a newer row with it after: the decoder
// takes the first row that accepts the instruction.

#include "instruction_table_rows.h"

namespace ptxsim::isa::table {

namespace {

using namespace rowWords;

// cvt: the classic types, and the newer ones by generation.
constexpr TypeSet kCvtClassic = kInt8To64 | TypeSet{F16, F32, F64};
constexpr TypeSet kCvtBf16 = kCvtClassic | TypeSet{BF16};
constexpr TypeSet kF8x2{E4M3x2, E5M2x2};
constexpr TypeSet kF6F4x2{E2M3x2, E3M2x2, E2M1x2, UE8M0x2};
// multimem element types (the .x4 fp8 forms are not DataTypes).
constexpr TypeSet kMultimem{B32, B64, U32, U64, S32, S64, F16, F16x2, BF16, BF16x2, F32, F64,
                            E5M2, E5M2x2, E4M3, E4M3x2};
// ld/st: plain, with a scope (.relaxed/.acquire/.release), with eviction
// and prefetch hints, with an explicit cache policy.
constexpr GroupSet kLdBase{Space, CacheOp, NonCoherent, Vector, Semantics};
constexpr GroupSet kLdScoped = kLdBase | GroupSet{Scope};
constexpr GroupSet kLdHints = kLdScoped | GroupSet{L1Eviction, L2Eviction, L2Prefetch};
constexpr GroupSet kLdPolicy = kLdHints | GroupSet{CacheHint};
// atom/red beyond the PTX 1.x forms: memory order, scope, cache policy.
constexpr GroupSet kAtomFull{AtomicOp, Space, Semantics, Scope, CacheHint};
constexpr GroupSet kAtomHalf = kAtomFull | GroupSet{Ftz, Vector};

constexpr InstructionSpec kRows[] = {
    // mov: a source may also be a special register, a {vector} to pack or
    // unpack, or a symbol's address.
    row(Op::Mov, {kPred | kScalar}, {}, {}, "d,s", 10, 10, U::IntAlu),
    row(Op::Mov, {TypeSet{B128}}, {}, {}, "d,s", 83, 70, U::IntAlu),
    // shfl.sync.mode.b32 d[|p], a, b, c, membermask; the old shfl has no mask.
    row(Op::Shfl, {TypeSet{B32}}, {}, {ShflMode, Sync}, "d,s,U32,U32,U32", 60, 30, U::Sync),
    row(Op::Shfl, {TypeSet{B32}}, {}, {ShflMode}, "d,s,U32,U32", 30, 30, U::Sync),

    row(Op::Ld, {kMemory}, kLdBase, {}, "dv,a", 10, 10, U::Memory),
    row(Op::Ld, {kMemory}, kLdScoped, {}, "dv,a", 60, 70, U::Memory),
    row(Op::Ld, {kMemory}, kLdHints, {}, "dv,a", 74, 70, U::Memory),
    row(Op::Ld, {kMemory}, kLdPolicy, {}, "dv,a,B64?", 74, 80, U::Memory),
    row(Op::Ld, {kMemory}, {Space, Semantics, Scope}, {Form}, "d,a", 82, 70, U::Memory),  // ld.mmio
    row(Op::Ldu, {kMemory}, {Space, Vector}, {}, "dv,a", 20, 20, U::Memory),
    row(Op::St, {kMemory}, kLdBase, {}, "a,sv", 10, 10, U::Memory),
    row(Op::St, {kMemory}, kLdScoped, {}, "a,sv", 60, 70, U::Memory),
    row(Op::St, {kMemory}, kLdHints, {}, "a,sv", 74, 70, U::Memory),
    row(Op::St, {kMemory}, kLdPolicy, {}, "a,sv,B64?", 74, 80, U::Memory),
    row(Op::St, {kMemory}, {Space, Semantics, Scope}, {Form}, "a,s", 82, 70, U::Memory),  // st.mmio
    // st.async [a], b, [mbar] to shared::cluster; st.async.mmio.release to
    // global has no mbarrier.
    row(Op::StAsync, {kMemory}, {Semantics, Scope, Space, CompletionMechanism, Vector, Form}, {}, "a,sv,a?", 81,
        90, U::Memory),
    row(Op::StBulk, {}, {Semantics, Space}, {}, "a,x,x", 86, 100, U::Memory),
    row(Op::MultimemLdReduce, {kMultimem}, {Semantics, Scope, Space, Precision, Vector}, {AtomicOp}, "dv,a", 81,
        90, U::Memory),
    row(Op::MultimemSt, {kMultimem}, {Semantics, Scope, Space, Vector}, {}, "a,sv", 81, 90, U::Memory),
    row(Op::MultimemRed, {kMultimem}, {Semantics, Scope, Space, Vector}, {AtomicOp}, "a,sv", 81, 90,
        U::Memory),
    // prefetch{.space}.L1/.L2 (MembarLevel), .L2::evict_last/normal, and
    // prefetch{.const,.param}.tensormap (Form).
    row(Op::Prefetch, {}, {Space, MembarLevel}, {}, "a", 20, 20, U::Memory),
    row(Op::Prefetch, {}, {Space}, {L2Eviction}, "a", 74, 80, U::Memory),
    row(Op::Prefetch, {}, {Space}, {Form}, "a", 80, 90, U::Memory),
    row(Op::Prefetchu, {}, {}, {MembarLevel}, "a", 20, 20, U::Memory),
    row(Op::Isspacep, {}, {}, {Space}, "p,x", 20, 20, U::IntAlu),
    row(Op::Cvta, {kU32U64}, {To}, {Space}, "d,s", 20, 20, U::IntAlu),

    // cvt.dtype.atype: integer rounding and float rounding are separate
    // rows, so two roundings never combine. Packing conversions take a
    // second source and, with .rs, random bits.
    row(Op::Cvt, {kCvtClassic, kCvtClassic}, {IntRounding, Ftz, Saturate}, {}, "d,s1", 10, 10, U::Conversion),
    row(Op::Cvt, {kCvtClassic, kCvtClassic}, {Rounding, Ftz, Saturate, Relu}, {}, "d,s1", 10, 10,
        U::Conversion),
    row(Op::Cvt, {kCvtBf16 | TypeSet{TF32, F16x2, BF16x2}, kCvtBf16}, {Rounding, Ftz, Saturate, Relu}, {},
        "d,s1,s1?,U32?", 70, 80, U::Conversion),
    row(Op::Cvt, {kCvtBf16, kCvtBf16}, {IntRounding, Ftz, Saturate}, {}, "d,s1", 78, 90, U::Conversion),
    row(Op::Cvt, {kF8x2 | TypeSet{F16x2}, kF8x2 | TypeSet{F32, F16x2}}, {Rounding, Saturate, Relu}, {},
        "d,s1,s1?,U32?", 78, 89, U::Conversion),
    row(Op::Cvt, {kF6F4x2 | TypeSet{F16x2, BF16x2}, kF6F4x2 | TypeSet{F32, BF16x2}}, {Rounding, Saturate, Relu},
        {}, "d,s1,s1?,U32?", 86, 100, U::Conversion),
    row(Op::CvtPack, {TypeSet{U16, S16}, TypeSet{S32}}, {}, {Saturate}, "d,s1,s1", 65, 72, U::Conversion),
    row(Op::CvtPack, {TypeSet{U8, S8, U4, S4}, TypeSet{S32}, TypeSet{B32}}, {}, {Saturate}, "d,s1,s1,s2", 65,
        72, U::Conversion),

    // createpolicy.fractional/.range/.cvt (Form) with a primary and an
    // optional secondary priority (the second .L2::evict_* is a CacheHint).
    row(Op::Createpolicy, {TypeSet{B64}}, {Space, L2Eviction, CacheHint, MembarLevel}, {Form}, "d,x?,x?,x?", 74,
        80, U::IntAlu),
    row(Op::Discard, {}, {Space}, {MembarLevel}, "a,x", 74, 80, U::Memory),
    row(Op::Applypriority, {}, {Space}, {L2Eviction}, "a,x", 74, 80, U::Memory),
    row(Op::Mapa, {kU32U64}, {Space}, {}, "d,s,U32", 78, 90, U::IntAlu),
    row(Op::Getctarank, {kU32U64}, {Space}, {}, "x,s", 78, 90, U::IntAlu),
    row(Op::Alloca, {kU32U64}, {}, {}, "d,x,U32?", 73, 52, U::Memory),
    row(Op::Stacksave, {kU32U64}, {}, {}, "d", 73, 52, U::IntAlu),
    row(Op::Stackrestore, {kU32U64}, {}, {}, "r", 73, 52, U::IntAlu),

    // Asynchronous copies. The first state space word is the destination
    // (Space), the second the source (SecondSpace).
    row(Op::CpAsync, {}, {CacheHint, L2Prefetch}, {CacheOp, Space, SecondSpace}, "a,a,U32,x?,x?", 70, 80,
        U::Memory),
    row(Op::CpAsyncCommitGroup, {}, {}, {}, "", 70, 80, U::Memory),
    row(Op::CpAsyncWaitGroup, {}, {}, {}, "U32", 70, 80, U::Memory),
    row(Op::CpAsyncWaitAll, {}, {}, {}, "", 70, 80, U::Memory),
    row(Op::CpAsyncMbarrierArrive, {TypeSet{B64}}, {MbarrierOp, Space}, {}, "a", 70, 80, U::Memory),
    row(Op::CpAsyncBulk, {}, {Multicast, CacheHint, Form}, {Space, SecondSpace, CompletionMechanism},
        "a,a,U32,x?,x?,x?", 80, 90, U::Memory),
    row(Op::CpReduceAsyncBulk, {TypeSet{B32, U32, S32, B64, U64, S64, F16, BF16, F32, F64}}, {CacheHint, Ftz},
        {Space, SecondSpace, CompletionMechanism, AtomicOp}, "a,a,U32,x?", 80, 90, U::Memory),
    row(Op::CpAsyncBulkTensor, {}, {TensorLoadMode, Multicast, CtaGroup, CacheHint},
        {Geometry, Space, SecondSpace, CompletionMechanism}, "x,x,...", 80, 90, U::Memory),
    row(Op::CpReduceAsyncBulkTensor, {}, {TensorLoadMode, CacheHint},
        {Geometry, Space, SecondSpace, AtomicOp, CompletionMechanism}, "x,x,...", 80, 90, U::Memory),
    // cp.async.bulk.prefetch.L2.global: .L2 is the destination level.
    row(Op::CpAsyncBulkPrefetch, {}, {CacheHint}, {MembarLevel, Space}, "a,U32,x?", 80, 90, U::Memory),
    row(Op::CpAsyncBulkPrefetchTensor, {}, {TensorLoadMode, CacheHint}, {Geometry, MembarLevel, Space}, "x,...",
        80, 90, U::Memory),
    row(Op::CpAsyncBulkCommitGroup, {}, {}, {}, "", 80, 90, U::Memory),
    row(Op::CpAsyncBulkWaitGroup, {}, {Form}, {}, "U32", 80, 90, U::Memory),  // .read
    // tensormap.replace.tile.field{.space}.b1024.type [addr], {ord,} value.
    row(Op::TensormapReplace, {kB32B64}, {Space, Reserved}, {TensorLoadMode, Query}, "a,x,x?", 83, 90,
        U::Memory),
    row(Op::TensormapCpFenceproxy, {}, {Sync, Aligned}, {Space, SecondSpace, Proxy, Semantics, Scope}, "a,a,U32",
        83, 90, U::Memory),

    // Atomics: the PTX 1.x forms, then memory order/scope/cache policy,
    // then the newer element types and vectors.
    row(Op::Atom, {kAtomic}, {Space}, {AtomicOp}, "d,a,s,x?", 11, 11, U::Memory),
    row(Op::Atom, {kAtomic}, kAtomFull, {AtomicOp}, "d,a,s,x?", 60, 70, U::Memory),
    row(Op::Atom, {kF64}, kAtomFull, {AtomicOp}, "d,a,s,x?", 50, 60, U::Memory),
    row(Op::Atom, {TypeSet{B16}}, kAtomFull, {AtomicOp}, "d,a,s,s", 63, 70, U::Memory),
    row(Op::Atom, {TypeSet{B128}}, kAtomFull, {AtomicOp}, "d,a,s,x?", 83, 90, U::Memory),
    row(Op::Atom, {kF16}, kAtomHalf, {AtomicOp}, "dv,a,sv,x?", 62, 60, U::Memory),
    row(Op::Atom, {kBF16}, kAtomHalf, {AtomicOp}, "dv,a,sv,x?", 78, 90, U::Memory),
    row(Op::Atom, {kF32}, kAtomFull | GroupSet{Vector}, {AtomicOp}, "dv,a,sv,x?", 81, 90, U::Memory),
    row(Op::Red, {kAtomic}, {Space}, {AtomicOp}, "a,s,x?", 12, 11, U::Memory),
    row(Op::Red, {kAtomic}, kAtomFull, {AtomicOp}, "a,s,x?", 60, 70, U::Memory),
    row(Op::Red, {kF64}, kAtomFull, {AtomicOp}, "a,s,x?", 50, 60, U::Memory),
    row(Op::Red, {kF16}, kAtomHalf, {AtomicOp}, "a,sv,x?", 62, 60, U::Memory),
    row(Op::Red, {kBF16}, kAtomHalf, {AtomicOp}, "a,sv,x?", 78, 90, U::Memory),
    row(Op::Red, {kF32}, kAtomFull | GroupSet{Vector}, {AtomicOp}, "a,sv,x?", 81, 90, U::Memory),
    // red.async to shared::cluster completes on an mbarrier; the .mmio
    // (Form) release form to global has none.
    row(Op::RedAsync, {kInt32And64 | TypeSet{B32}}, {Form, Semantics, Scope, Space, CompletionMechanism},
        {AtomicOp}, "a,s,a?", 81, 90, U::Memory),
};

}  // namespace

std::span<const InstructionSpec> memoryRows() { return kRows; }

}  // namespace ptxsim::isa::table
