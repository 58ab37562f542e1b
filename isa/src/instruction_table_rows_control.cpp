// Instruction-table rows: control flow, synchronisation and communication,
// mbarriers, cluster launch control, and texture/surface instructions.

#include "instruction_table_rows.h"

namespace ptxsim::isa::table {

namespace {

using namespace rowWords;

// mbarrier instructions on an mbarrier object in shared memory.
constexpr GroupSet kMbarrier{Semantics, Scope, Space};

constexpr InstructionSpec kRows[] = {
    // Control flow. call's operands are lowered by a dedicated path.
    row(Op::Bra, {}, {Uniform}, {}, "l", 10, 10, U::Control),
    row(Op::BrxIdx, {}, {Uniform}, {}, "r,t", 60, 30, U::Control),
    row(Op::Call, {}, {Uniform}, {}, "x,...", 10, 10, U::Control),
    row(Op::Ret, {}, {Uniform}, {}, "", 10, 10, U::Control),
    row(Op::Exit, {}, {}, {}, "", 10, 10, U::Control),

    // Barriers: bar{.cta}.sync/.arrive a{, b}; bar{.cta}.red.popc.u32 and
    // bar{.cta}.red.{and,or}.pred d, a{, b}, {!}c.
    row(Op::Bar, {}, {Scope, Sync, BarrierOp, Aligned}, {}, "U32,U32?", 10, 10, U::Sync),
    row(Op::Bar, {TypeSet{U32}}, {Scope, Aligned}, {BarrierOp, ReduceOp}, "d,U32,x,q?", 20, 20, U::Sync),
    row(Op::Bar, {kPred}, {Scope, Aligned}, {BarrierOp, ReduceOp}, "p,U32,x,q?", 20, 20, U::Sync),
    row(Op::Barrier, {}, {Scope, Sync, BarrierOp, Aligned}, {}, "U32,U32?", 60, 30, U::Sync),
    row(Op::Barrier, {TypeSet{U32}}, {Scope, Aligned}, {BarrierOp, ReduceOp}, "d,U32,x,q?", 60, 30, U::Sync),
    row(Op::Barrier, {kPred}, {Scope, Aligned}, {BarrierOp, ReduceOp}, "p,U32,x,q?", 60, 30, U::Sync),
    row(Op::BarWarpSync, {}, {}, {}, "U32", 60, 30, U::Sync),
    row(Op::BarrierCluster, {}, {Semantics, Aligned}, {BarrierOp}, "", 78, 90, U::Sync),
    // membar.level, and the old spelling membar.proxy.kind.
    row(Op::Membar, {}, {}, {MembarLevel}, "", 14, 10, U::Sync),
    row(Op::Membar, {}, {}, {Form, Proxy}, "", 75, 70, U::Sync),
    // fence{.sem}.scope; fence.acquire/release.sync_restrict::...; and the
    // proxy fences (fence.proxy.kind, fence.mbarrier_init.release.cluster,
    // fence.proxy.tensormap::generic.acquire.scope [addr], size).
    row(Op::Fence, {}, {Semantics, Scope, Space}, {}, "", 60, 70, U::Sync),
    row(Op::Fence, {}, {Form, Semantics, Scope, Space}, {Proxy}, "a?,U32?", 75, 70, U::Sync),

    // Warp-level collectives.
    row(Op::Vote, {kPred}, {}, {VoteMode, Sync}, "p,q,U32", 60, 30, U::Sync),
    row(Op::Vote, {TypeSet{B32}}, {}, {VoteMode, Sync}, "d,q,U32", 60, 30, U::Sync),
    row(Op::Vote, {kPred}, {}, {VoteMode}, "p,q", 12, 12, U::Sync),
    row(Op::Vote, {TypeSet{B32}}, {}, {VoteMode}, "d,q", 20, 20, U::Sync),
    // match.{any,all}.sync (VoteMode) writes a .b32 mask (and, for .all,
    // optionally a predicate) whatever the source width.
    row(Op::Match, {kB32B64}, {}, {VoteMode, Sync}, "x,s,U32", 60, 70, U::Sync),
    row(Op::Activemask, {TypeSet{B32}}, {}, {}, "d", 62, 30, U::Sync),
    row(Op::Redux, {TypeSet{U32, S32, B32}}, {}, {ReduceOp, Sync}, "d,s,U32", 70, 80, U::Sync),
    row(Op::Redux, {kF32}, {AbsMode, NaNMode}, {ReduceOp, Sync}, "d,s,U32", 86, 100, U::Sync),
    row(Op::Elect, {}, {}, {Sync}, "d,U32", 80, 90, U::Sync),
    row(Op::Griddepcontrol, {}, {}, {Dependency}, "", 78, 90, U::Sync),

    // mbarrier. arrive/arrive_drop write the state (or the sink `_`).
    row(Op::MbarrierInit, {TypeSet{B64}}, {Space}, {}, "a,U32", 70, 80, U::Sync),
    row(Op::MbarrierInval, {TypeSet{B64}}, {Space}, {}, "a", 70, 80, U::Sync),
    row(Op::MbarrierExpectTx, {TypeSet{B64}}, kMbarrier, {}, "a,U32", 80, 90, U::Sync),
    row(Op::MbarrierCompleteTx, {TypeSet{B64}}, kMbarrier, {}, "a,U32", 80, 90, U::Sync),
    row(Op::MbarrierArrive, {TypeSet{B64}}, kMbarrier | GroupSet{MbarrierOp}, {}, "d,a,U32?", 70, 80, U::Sync),
    row(Op::MbarrierArriveDrop, {TypeSet{B64}}, kMbarrier | GroupSet{MbarrierOp}, {}, "d,a,U32?", 70, 80,
        U::Sync),
    // test_wait/try_wait take the state, or with .parity the phase parity.
    row(Op::MbarrierTestWait, {TypeSet{B64}}, kMbarrier | GroupSet{Parity}, {}, "p,a,x", 70, 80, U::Sync),
    row(Op::MbarrierTryWait, {TypeSet{B64}}, kMbarrier | GroupSet{Parity}, {}, "p,a,x,U32?", 78, 90, U::Sync),
    row(Op::MbarrierPendingCount, {TypeSet{B64}}, {}, {}, "x,s", 70, 80, U::Sync),

    // Cluster launch control (.async and the query forms are Form words).
    row(Op::ClusterlaunchcontrolTryCancel, {TypeSet{B128}}, {Form, Space, CompletionMechanism, Multicast}, {},
        "a,a", 86, 100, U::Sync),
    row(Op::ClusterlaunchcontrolQueryCancel, {kPred, TypeSet{B128}}, {}, {Form}, "p,s1", 86, 100, U::Sync),
    row(Op::ClusterlaunchcontrolQueryCancel, {TypeSet{B32}, TypeSet{B128}}, {Vector}, {Form}, "dv,s1", 86, 100,
        U::Sync),

    // Texture and surface. The texture/surface operand [t, {coords}] is
    // not checked here; tex and tld4 may write `{...}|%p`.
    row(Op::Tex, {TypeSet{U32, S32, F16, F32, F16x2}, TypeSet{S32, F32}}, {TexLevel}, {Geometry, Vector},
        "dv,x,x?,x?,x?,x?", 10, 10, U::Texture),
    row(Op::Tld4, {TypeSet{U32, S32, F32}, kF32}, {}, {Component, Geometry, Vector}, "dv,x,x?,x?", 22, 20,
        U::Texture),
    row(Op::Txq, {TypeSet{B32}}, {TexLevel}, {Query}, "d,x,x?", 15, 10, U::Texture),
    row(Op::Istypep, {TypeSet{TexRef, SamplerRef, SurfRef}}, {}, {}, "p,x", 40, 30, U::Texture),
    row(Op::Suld, {TypeSet{B8, B16, B32, B64}}, {CacheOp, Vector, Boundary}, {SurfaceMode, Geometry}, "dv,x", 15,
        20, U::Texture),
    row(Op::Sust, {TypeSet{B8, B16, B32, B64, U32, S32, F32}}, {CacheOp, Vector, Boundary},
        {SurfaceMode, Geometry}, "x,sv", 15, 20, U::Texture),
    row(Op::Sured, {TypeSet{U32, U64, S32, S64, B32, B64}}, {Boundary}, {SurfaceMode, AtomicOp, Geometry}, "x,s",
        20, 20, U::Texture),
    row(Op::Suq, {TypeSet{B32}}, {}, {Query}, "d,x", 15, 20, U::Texture),
};

}  // namespace

std::span<const InstructionSpec> controlRows() { return kRows; }

}  // namespace ptxsim::isa::table
