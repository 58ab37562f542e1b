// Instruction-table rows: warp-level matrix instructions (wmma, mma,
// ldmatrix, stmatrix, movmatrix), warpgroup wgmma and tcgen05.
//
// Their operands are vectors and descriptors whose shape depends on the
// matrix shape, so most signatures leave them unchecked ("x"). A row
// cannot tell shapes apart: each row carries the version of its types'
// oldest shape. The block-scaled mma forms (a fifth, scale-factor type)
// do not fit the four type slots and are not in the table.

#include "instruction_table_rows.h"

namespace ptxsim::isa::table {

namespace {

using namespace rowWords;

constexpr GroupSet kWmma{Sync, Aligned, Layout, Shape, Space};
constexpr GroupSet kWmmaMma{Sync, Aligned, Layout, LayoutB, Shape, Saturate};
constexpr GroupSet kMma{Sync, Aligned, Layout, LayoutB, Shape};
// mma.sp; .ordered_metadata (Reserved) follows mma.sp:: without a dot.
constexpr GroupSet kMmaSp = kMma | GroupSet{Saturate, MatrixKind, Reserved};
constexpr TypeSet kF16F32{F16, F32};
constexpr TypeSet kInt8{S8, U8};
constexpr TypeSet kSubByte{S4, U4};
constexpr TypeSet kFp8{E4M3, E5M2};
constexpr TypeSet kF8F6F4{E4M3, E5M2, E3M2, E2M3, E2M1};
constexpr TypeSet kS32{S32};
// tcgen05.mma and its .sp/.ws variants: .cta_group, .kind, .block_scale
// (Form), .scale_vec (ScaleVector), .collector::* (CacheOp), .ashift.
constexpr GroupSet kTcgen05Mma{CtaGroup, MatrixKind, Form, ScaleVector, CacheOp, ShiftMode};

constexpr InstructionSpec kRows[] = {
    // wmma.load.{a,b,c}.sync.aligned.layout.shape{.space}.type r, [p]{, stride}
    row(Op::WmmaLoad, {kF16F32}, kWmma, {MatrixPart, Layout, Shape}, "x,a,U32?", 60, 70, U::Tensor),
    row(Op::WmmaLoad, {kInt8 | kS32}, kWmma, {MatrixPart, Layout, Shape}, "x,a,U32?", 63, 72, U::Tensor),
    row(Op::WmmaLoad, {kSubByte | TypeSet{B1}}, kWmma, {MatrixPart, Layout, Shape}, "x,a,U32?", 63, 75,
        U::Tensor),
    row(Op::WmmaLoad, {TypeSet{BF16, TF32, F64}}, kWmma, {MatrixPart, Layout, Shape}, "x,a,U32?", 70, 80,
        U::Tensor),
    // wmma.store.d.sync.aligned.layout.shape{.space}.type [p], r{, stride}
    row(Op::WmmaStore, {kF16F32}, kWmma, {MatrixPart, Layout, Shape}, "a,x,U32?", 60, 70, U::Tensor),
    row(Op::WmmaStore, {kS32}, kWmma, {MatrixPart, Layout, Shape}, "a,x,U32?", 63, 72, U::Tensor),
    row(Op::WmmaStore, {kF64}, kWmma, {MatrixPart, Layout, Shape}, "a,x,U32?", 70, 80, U::Tensor),
    // wmma.mma{.op.popc}.sync.aligned.alayout.blayout.shape.types d, a, b, c
    row(Op::WmmaMma, {kF16F32, kF16F32}, kWmmaMma, {Layout, LayoutB, Shape}, "x,x,x,x", 60, 70, U::Tensor),
    row(Op::WmmaMma, {kS32, kInt8, kInt8, kS32}, kWmmaMma, {Layout, LayoutB, Shape}, "x,x,x,x", 63, 72,
        U::Tensor),
    row(Op::WmmaMma, {kS32, kSubByte | TypeSet{B1}, kSubByte | TypeSet{B1}, kS32},
        kWmmaMma | GroupSet{BoolOp, ReduceOp}, {Layout, LayoutB, Shape}, "x,x,x,x", 63, 75, U::Tensor),
    row(Op::WmmaMma, {kF32, TypeSet{BF16, TF32}, TypeSet{BF16, TF32}, kF32}, kWmmaMma, {Layout, LayoutB, Shape},
        "x,x,x,x", 70, 80, U::Tensor),
    row(Op::WmmaMma, {kF64, kF64, kF64, kF64}, kWmmaMma | GroupSet{Rounding}, {Layout, LayoutB, Shape},
        "x,x,x,x", 70, 80, U::Tensor),

    // mma.sync.aligned.shape.alayout.blayout.dtype.atype.btype.ctype d, a, b, c
    row(Op::Mma, {kF16F32, TypeSet{F16}, TypeSet{F16}, kF16F32}, kMma, {Shape}, "x,x,x,x", 64, 70, U::Tensor),
    row(Op::Mma, {kF32, TypeSet{BF16, TF32}, TypeSet{BF16, TF32}, kF32}, kMma, {Shape}, "x,x,x,x", 70, 80,
        U::Tensor),
    row(Op::Mma, {kF64, kF64, kF64, kF64}, kMma, {Shape}, "x,x,x,x", 70, 80, U::Tensor),
    row(Op::Mma, {kS32, kInt8 | kSubByte, kInt8 | kSubByte, kS32}, kMma | GroupSet{Saturate}, {Shape},
        "x,x,x,x", 65, 75, U::Tensor),
    row(Op::Mma, {kS32, TypeSet{B1}, TypeSet{B1}, kS32}, kMma | GroupSet{BoolOp, ReduceOp}, {Shape}, "x,x,x,x",
        65, 75, U::Tensor),
    row(Op::Mma, {kF16F32, kF8F6F4, kF8F6F4, kF16F32}, kMma | GroupSet{MatrixKind}, {Shape}, "x,x,x,x", 84, 89,
        U::Tensor),
    // mma.sp{::ordered_metadata} ... d, a, b, c, e, f
    row(Op::MmaSp, {kF16F32, TypeSet{F16}, TypeSet{F16}, kF16F32}, kMmaSp, {Shape}, "x,x,x,x,x,x", 71, 80,
        U::Tensor),
    row(Op::MmaSp, {kF32, TypeSet{BF16, TF32}, TypeSet{BF16, TF32}, kF32}, kMmaSp, {Shape}, "x,x,x,x,x,x", 71,
        80, U::Tensor),
    row(Op::MmaSp, {kS32, kInt8 | kSubByte, kInt8 | kSubByte, kS32}, kMmaSp, {Shape}, "x,x,x,x,x,x", 71, 80,
        U::Tensor),
    row(Op::MmaSp, {kF16F32, kF8F6F4, kF8F6F4, kF16F32}, kMmaSp, {Shape}, "x,x,x,x,x,x", 84, 89, U::Tensor),

    // ldmatrix.sync.aligned.shape.num{.trans}{.ss}.type r, [p]; the sm_100
    // forms .m8n16/.m16n16 with .b8x16.b6x16_p32 formats take no type.
    row(Op::Ldmatrix, {TypeSet{B16}}, {Sync, Aligned, Transpose, Space}, {Shape, MatrixCount}, "x,a", 65, 75,
        U::Memory),
    row(Op::Ldmatrix, {TypeSet{B8}}, {Sync, Aligned, Transpose, Space}, {Shape, MatrixCount}, "x,a", 86, 100,
        U::Memory),
    row(Op::Ldmatrix, {}, {Sync, Aligned, Transpose, Space}, {Shape, MatrixCount, Reserved, Form}, "x,a", 86,
        100, U::Memory),
    row(Op::Stmatrix, {TypeSet{B16, B8}}, {Sync, Aligned, Transpose, Space}, {Shape, MatrixCount}, "a,x", 78, 90,
        U::Memory),
    row(Op::Movmatrix, {TypeSet{B16}}, {Sync, Aligned}, {Shape, Transpose}, "d,s", 78, 75, U::Tensor),

    // wgmma (sm_90a).
    row(Op::WgmmaFence, {}, {Sync, Aligned}, {}, "", 80, 90, U::Tensor),
    row(Op::WgmmaCommitGroup, {}, {Sync, Aligned}, {}, "", 80, 90, U::Tensor),
    row(Op::WgmmaWaitGroup, {}, {Sync, Aligned}, {}, "U32", 80, 90, U::Tensor),
    row(Op::WgmmaMmaAsync, {kF16F32, TypeSet{F16, BF16, TF32, E4M3, E5M2}, TypeSet{F16, BF16, TF32, E4M3, E5M2}},
        {Sync, Aligned}, {Shape}, "x,x,x,...", 80, 90, U::Tensor),
    row(Op::WgmmaMmaAsync, {kS32, kInt8 | TypeSet{B1}, kInt8 | TypeSet{B1}},
        {Sync, Aligned, Saturate, BoolOp, ReduceOp}, {Shape}, "x,x,x,...", 80, 90, U::Tensor),
    row(Op::WgmmaMmaAsyncSp,
        {kF16F32, TypeSet{F16, BF16, TF32, E4M3, E5M2}, TypeSet{F16, BF16, TF32, E4M3, E5M2}}, {Sync, Aligned},
        {Shape}, "x,x,x,...", 80, 90, U::Tensor),
    row(Op::WgmmaMmaAsyncSp, {kS32, kInt8, kInt8}, {Sync, Aligned, Saturate}, {Shape}, "x,x,x,...", 80, 90,
        U::Tensor),

    // tcgen05 (sm_100a). tcgen05.wait::ld/::st and tcgen05.fence::before/
    // after_thread_sync spell their Form word after "::".
    row(Op::Tcgen05Alloc, {TypeSet{B32}}, {Sync, Aligned, Space}, {CtaGroup}, "a,U32", 86, 100, U::Tensor),
    row(Op::Tcgen05Dealloc, {TypeSet{B32}}, {Sync, Aligned}, {CtaGroup}, "x,U32", 86, 100, U::Tensor),
    row(Op::Tcgen05RelinquishAllocPermit, {}, {Sync, Aligned}, {CtaGroup}, "", 86, 100, U::Tensor),
    // tcgen05.ld.sync.aligned.shape.num{.pack::16b}.b32 r, [taddr]{, imm}
    row(Op::Tcgen05Ld, {TypeSet{B32}}, {Sync, Aligned, Form}, {Shape, MatrixCount}, "x,a,x?", 86, 100,
        U::Tensor),
    // tcgen05.ld.red...op{.abs}{.NaN}.type r, redval, [taddr]{, imm}
    row(Op::Tcgen05Ld, {TypeSet{F32, U32, S32}}, {Sync, Aligned, AbsMode, NaNMode},
        {Shape, MatrixCount, Form, ReduceOp}, "x,x,a,x?", 88, 103, U::Tensor),
    row(Op::Tcgen05St, {TypeSet{B32}}, {Sync, Aligned, Form}, {Shape, MatrixCount}, "a,x,x?", 86, 100,
        U::Tensor),
    row(Op::Tcgen05Wait, {}, {Sync, Aligned}, {Form}, "", 86, 100, U::Tensor),
    // tcgen05.cp.cta_group.shape{.multicast}{.b8x16.b6x16_p32} [taddr], s-desc
    row(Op::Tcgen05Cp, {}, {Multicast, Reserved, Form}, {CtaGroup, Shape}, "a,x", 86, 100, U::Tensor),
    row(Op::Tcgen05Shift, {}, {}, {CtaGroup, ShiftMode}, "a", 86, 100, U::Tensor),
    row(Op::Tcgen05Mma, {}, kTcgen05Mma, {CtaGroup, MatrixKind}, "x,x,x,x,...", 86, 100, U::Tensor),
    row(Op::Tcgen05MmaSp, {}, kTcgen05Mma, {CtaGroup, MatrixKind}, "x,x,x,x,...", 86, 100, U::Tensor),
    row(Op::Tcgen05MmaWs, {}, kTcgen05Mma, {CtaGroup, MatrixKind}, "x,x,x,x,...", 86, 100, U::Tensor),
    row(Op::Tcgen05MmaWsSp, {}, kTcgen05Mma, {CtaGroup, MatrixKind}, "x,x,x,x,...", 86, 100, U::Tensor),
    row(Op::Tcgen05Commit, {TypeSet{B64}}, {Space, Multicast}, {CtaGroup, CompletionMechanism}, "a,x?", 86, 100,
        U::Tensor),
    row(Op::Tcgen05Fence, {}, {}, {Form}, "", 86, 100, U::Tensor),
};

}  // namespace

std::span<const InstructionSpec> matrixRows() { return kRows; }

}  // namespace ptxsim::isa::table
