// atom and red on .global, .shared and generic addresses: every operation
// and type PTX ISA 9.0 defines (the forms ptxas accepts for sm_90 and
// later), scalar and vector.
//
// CTAs of a grid run on several host threads at once, so an atomic on
// global memory is a real host atomic (std::atomic_ref, a compare-exchange
// loop around the element operation). Shared memory belongs to the CTA's
// own host thread and is updated with plain accesses. The lanes of one warp
// apply their atomics one after another in lane order (lane 0 first); a
// vector or packed atomic is atomic per element, as the ISA guarantees.
// Every atomic is sequentially consistent on the host, which is at least
// as strong as any .sem/.scope a program can ask for.

#include <atomic>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <mutex>

#include "../hex_text.h"
#include "atomic_ops.h"
#include "lane_ops.h"
#include "semantics.h"

namespace ptxsim::sim::semantics {

namespace {

using exec::AccessKind;
using exec::AddressSpace;
using exec::Handler;
using isa::DataType;
using isa::Mod;
using isa::ModGroup;
using isa::Opcode;
namespace ops = atomic_ops;

constexpr unsigned kMaxElements = 8;

// The host bytes one lane's atomic updates, checked; null after a fault.
// `shared` tells whether they are the CTA's shared memory (generic
// addresses are classified per lane). Only global and shared memory have
// atomics; vector forms only global memory.
uint8_t* atomicTarget(ExecContext& ctx, AddressSpace space, uint64_t address, unsigned bytes, unsigned lane,
                      bool vector, bool& shared) {
  shared = space == AddressSpace::Shared;
  if (space == AddressSpace::Generic) {
    switch (memory::classify(ctx.layout, address)) {
      case memory::Window::Global: break;
      case memory::Window::Shared: shared = true; break;
      default:
        ctx.fail(LaunchErrorKind::IllegalAddress,
                 "atomic at generic address " + hex(address) + " outside global and shared memory", lane);
        return nullptr;
    }
  }
  if (vector && shared) {
    ctx.fail(LaunchErrorKind::IllegalAddress,
             "vector atomic at generic address " + hex(address) +
                 " in shared memory (only global memory has them)",
             lane);
    return nullptr;
  }
  return ctx.access(space, address, bytes, lane, AccessKind::Atomic);
}

// Replaces the element at p by update(old) and returns old: a host atomic
// for global memory, a plain update for the CTA's own shared memory.
template <typename Bits, typename Update>
Bits readModifyWrite(uint8_t* p, bool hostAtomic, Update&& update) {
  Bits* element = reinterpret_cast<Bits*>(p);
  if (!hostAtomic) {
    Bits old = *element;
    *element = update(old);
    return old;
  }
  std::atomic_ref<Bits> ref(*element);
  Bits old = ref.load();
  while (!ref.compare_exchange_weak(old, update(old))) {
  }
  return old;
}

// Operands: atom d, [a], b{, c}; red [a], b (d and b braced vectors in the
// vector forms). pi.aux: 1 for atom, 0 for red.
struct AtomicOperands {
  unsigned address;
  unsigned count;  // elements per lane
  const uint64_t* b[kMaxElements];
  uint64_t* d[kMaxElements];
};

AtomicOperands operandsOf(const PreparedInstruction& pi, ExecContext& ctx) {
  bool isAtom = pi.aux != 0;
  AtomicOperands o{};
  o.address = isAtom ? 1 : 0;
  const PreparedOperand& value = pi.ops[o.address + 1];
  o.count = value.elementCount == 0 ? 1 : value.elementCount;
  for (unsigned e = 0; e < o.count; ++e) {
    o.b[e] = ctx.row(value.elementCount == 0 ? value.row : ctx.vectorRows(value)[e]);
    if (isAtom) o.d[e] = ctx.row(pi.ops[0].elementCount == 0 ? pi.ops[0].row : ctx.vectorRows(pi.ops[0])[e]);
  }
  return o;
}

template <typename Op>
void atomicHandler(const PreparedInstruction& pi, ExecContext& ctx) {
  using Bits = typename Op::Bits;
  AtomicOperands o = operandsOf(pi, ctx);
  bool isAtom = pi.aux != 0;
  bool vector = pi.ops[o.address + 1].elementCount != 0;
  unsigned bytes = o.count * static_cast<unsigned>(sizeof(Bits));
  const uint64_t* base = ctx.row(pi.ops[o.address].row);
  ctx.recordAccess(AccessKind::Atomic, pi.space, bytes);
  bool changed = false;
  forLanes(ctx.mask, [&](unsigned l) {
    if (ctx.aborted) return;
    uint64_t address = pi.ops[o.address].effectiveAddress(base[l]);
    ctx.report.addresses[l] = address;
    bool shared = false;
    uint8_t* p = atomicTarget(ctx, pi.space, address, bytes, l, vector, shared);
    if (p == nullptr) return;
    // All sources first: a destination element may be another element's source.
    Bits b[kMaxElements];
    for (unsigned e = 0; e < o.count; ++e) b[e] = static_cast<Bits>(o.b[e][l]);
    for (unsigned e = 0; e < o.count; ++e) {
      bool stored = false;  // the last (successful) update's: whether it changed the element
      Bits old = readModifyWrite<Bits>(p + e * sizeof(Bits), !shared, [&](Bits current) {
        Bits next = Op::apply(current, b[e], !shared);
        stored = next != current;
        return next;
      });
      changed = changed || stored;
      if (isAtom) o.d[e][l] = old;
    }
  });
  // A spin on atom.add 0 (or any atomic that leaves the value as it was)
  // changes nothing: the progress monitor must not count it as progress.
  ctx.memoryUnchanged = !changed;
  if (ctx.mask != 0) ++ctx.stats.atomicInstructions;
}

// atom.cas.bN d, [a], b, c: d = old; if old == b, the element becomes c.
// A failed compare writes nothing.
template <typename Bits>
void casHandler(const PreparedInstruction& pi, ExecContext& ctx) {
  uint64_t* d = ctx.row(pi.ops[0].row);
  const uint64_t* base = ctx.row(pi.ops[1].row);
  const uint64_t* b = ctx.row(pi.ops[2].row);
  const uint64_t* c = ctx.row(pi.ops[3].row);
  ctx.recordAccess(AccessKind::Atomic, pi.space, sizeof(Bits));
  bool swapped = false;
  forLanes(ctx.mask, [&](unsigned l) {
    if (ctx.aborted) return;
    uint64_t address = pi.ops[1].effectiveAddress(base[l]);
    ctx.report.addresses[l] = address;
    bool shared = false;
    uint8_t* p = atomicTarget(ctx, pi.space, address, sizeof(Bits), l, false, shared);
    if (p == nullptr) return;
    Bits expected = static_cast<Bits>(b[l]);
    Bits desired = static_cast<Bits>(c[l]);
    Bits* element = reinterpret_cast<Bits*>(p);
    if (shared) {
      Bits old = *element;
      if (old == expected) *element = desired, swapped = true;
      d[l] = old;
    } else {
      swapped |= std::atomic_ref<Bits>(*element).compare_exchange_strong(expected, desired);
      d[l] = expected;  // the value found, whether or not it matched
    }
  });
  // A spin lock's failing compares change nothing: the progress monitor
  // must not count them as progress.
  ctx.memoryUnchanged = !swapped;
  if (ctx.mask != 0) ++ctx.stats.atomicInstructions;
}

// atom.exch.b128 d, [a], b and atom.cas.b128 d, [a], b, c: each .b128
// register is two rows (low, high). Global memory serialises on a lock
// (GridContext::wideAtomicLock); shared memory belongs to this host thread.
template <bool kCas>
void atomic128Handler(const PreparedInstruction& pi, ExecContext& ctx) {
  const uint64_t* base = ctx.row(pi.ops[1].row);
  ctx.recordAccess(AccessKind::Atomic, pi.space, 16);
  forLanes(ctx.mask, [&](unsigned l) {
    if (ctx.aborted) return;
    uint64_t address = pi.ops[1].effectiveAddress(base[l]);
    ctx.report.addresses[l] = address;
    bool shared = false;
    uint8_t* p = atomicTarget(ctx, pi.space, address, 16, l, false, shared);
    if (p == nullptr) return;
    uint64_t b[2] = {ctx.row(pi.ops[2].row)[l], ctx.row(pi.ops[2].row + 1)[l]};
    uint64_t c[2] = {};
    if constexpr (kCas) c[0] = ctx.row(pi.ops[3].row)[l], c[1] = ctx.row(pi.ops[3].row + 1)[l];
    uint64_t old[2];
    std::unique_lock<std::mutex> lock;
    if (!shared) lock = std::unique_lock(ctx.grid.wideAtomicLock(address));
    std::memcpy(old, p, 16);
    if constexpr (kCas) {
      if (old[0] == b[0] && old[1] == b[1]) std::memcpy(p, c, 16);
    } else {
      std::memcpy(p, b, 16);
    }
    ctx.row(pi.ops[0].row)[l] = old[0];
    ctx.row(pi.ops[0].row + 1)[l] = old[1];
  });
  if (ctx.mask != 0) ++ctx.stats.atomicInstructions;
}

template <typename Op>
Handler handler() {
  return &atomicHandler<Op>;
}

// The handler of a scalar form, or null where PTX defines no such
// operation and type.
Handler scalarHandler(Mod op, DataType type) {
  using enum DataType;
  using namespace ops;
  switch (op) {
    case Mod::AtomAdd:
      switch (type) {
        case U32:
        case S32: return handler<IntAdd<uint32_t>>();
        case U64: return handler<IntAdd<uint64_t>>();
        case F32: return handler<AddF32>();
        case F64: return handler<AddF64>();
        case F16: return handler<Half<HalfOp::Add, false>>();
        case BF16: return handler<Half<HalfOp::Add, true>>();
        case F16x2: return handler<HalfPair<HalfOp::Add, false>>();
        case BF16x2: return handler<HalfPair<HalfOp::Add, true>>();
        default: return nullptr;
      }
    case Mod::AtomMin:
      switch (type) {
        case U32: return handler<IntMin<uint32_t>>();
        case S32: return handler<IntMin<int32_t>>();
        case U64: return handler<IntMin<uint64_t>>();
        case S64: return handler<IntMin<int64_t>>();
        default: return nullptr;
      }
    case Mod::AtomMax:
      switch (type) {
        case U32: return handler<IntMax<uint32_t>>();
        case S32: return handler<IntMax<int32_t>>();
        case U64: return handler<IntMax<uint64_t>>();
        case S64: return handler<IntMax<int64_t>>();
        default: return nullptr;
      }
    case Mod::AtomInc: return type == U32 ? handler<Inc>() : nullptr;
    case Mod::AtomDec: return type == U32 ? handler<Dec>() : nullptr;
    case Mod::AtomAnd:
      return type == B32 ? handler<And<uint32_t>>() : type == B64 ? handler<And<uint64_t>>() : nullptr;
    case Mod::AtomOr:
      return type == B32 ? handler<Or<uint32_t>>() : type == B64 ? handler<Or<uint64_t>>() : nullptr;
    case Mod::AtomXor:
      return type == B32 ? handler<Xor<uint32_t>>() : type == B64 ? handler<Xor<uint64_t>>() : nullptr;
    case Mod::AtomExch:
      return type == B32 ? handler<Exch<uint32_t>>() : type == B64 ? handler<Exch<uint64_t>>() : nullptr;
    case Mod::AtomCas:
      switch (type) {
        case B16: return &casHandler<uint16_t>;
        case B32: return &casHandler<uint32_t>;
        case B64: return &casHandler<uint64_t>;
        default: return nullptr;
      }
    default: return nullptr;
  }
}

template <ops::HalfOp kOp>
Handler halfVectorHandler(DataType type, unsigned count) {
  using enum DataType;
  switch (type) {
    case F16: return handler<ops::Half<kOp, false>>();
    case BF16: return handler<ops::Half<kOp, true>>();
    case F16x2: return count <= 4 ? handler<ops::HalfPair<kOp, false>>() : nullptr;
    case BF16x2: return count <= 4 ? handler<ops::HalfPair<kOp, true>>() : nullptr;
    default: return nullptr;
  }
}

// Vector forms (.v2/.v4 f32 add; .v2/.v4/.v8 f16/bf16 and .v2/.v4
// f16x2/bf16x2 add, min, max), global memory only.
Handler vectorHandler(Mod op, DataType type, unsigned count) {
  switch (op) {
    case Mod::AtomAdd:
      if (type == DataType::F32) return count <= 4 ? handler<ops::AddF32>() : nullptr;
      return halfVectorHandler<ops::HalfOp::Add>(type, count);
    case Mod::AtomMin: return halfVectorHandler<ops::HalfOp::Min>(type, count);
    case Mod::AtomMax: return halfVectorHandler<ops::HalfOp::Max>(type, count);
    default: return nullptr;
  }
}

bool isHalfType(DataType type) {
  return type == DataType::F16 || type == DataType::BF16 || type == DataType::F16x2 ||
         type == DataType::BF16x2;
}

bool selectAtomic(const isa::Instruction& inst, PreparedInstruction& pi, SelectContext&, std::string& why) {
  bool isAtom = inst.opcode == Opcode::Atom;
  pi.aux = isAtom ? 1 : 0;
  Mod op = inst.modifiers.get(ModGroup::AtomicOp);
  DataType type = inst.types[0];
  std::string form = std::string(isAtom ? "atom." : "red.") + std::string(isa::modifierText(op)) +
                     std::string(isa::typeName(type));
  if (pi.space != AddressSpace::Global && pi.space != AddressSpace::Shared &&
      pi.space != AddressSpace::Generic) {
    why = "atomics exist only on global and shared memory";
    return false;
  }
  if (isa::typeBits(type) == 128) {
    bool cas = op == Mod::AtomCas && inst.operandCount >= 4;
    if (!isAtom || (op != Mod::AtomExch && !cas) || pi.ops[2].elementCount != 0) {
      why = form + " is not a PTX form (128-bit atomics are atom.exch and atom.cas)";
      return false;
    }
    pi.handler = cas ? &atomic128Handler<true> : &atomic128Handler<false>;
    return true;
  }
  if (isHalfType(type) && !inst.modifiers.has(Mod::NoFtz)) {
    why = form + " requires .noftz";
    return false;
  }
  unsigned count = pi.ops[isAtom ? 2 : 1].elementCount;
  if (count > 0) {
    if (pi.space == AddressSpace::Shared) {
      why = "vector atomics exist only on global memory";
      return false;
    }
    if (isAtom && pi.ops[0].elementCount != count) {
      why = "destination and source vectors of different lengths";
      return false;
    }
    pi.handler = vectorHandler(op, type, count);
  } else {
    if (op == Mod::AtomCas && inst.operandCount < 4) {
      why = "atom.cas without its swap operand";
      return false;
    }
    bool needsResult = op == Mod::AtomCas || op == Mod::AtomExch;  // red has no cas or exch
    pi.handler = needsResult && !isAtom ? nullptr : scalarHandler(op, type);
  }
  if (pi.handler == nullptr) {
    why = form + (count > 0 ? " with .v" + std::to_string(count) : std::string()) + " is not a PTX form";
    return false;
  }
  return true;
}

}  // namespace

void registerAtomicSemantics(SemanticsTable& table) {
  table.add(Opcode::Atom, &selectAtomic);
  table.add(Opcode::Red, &selectAtomic);
}

}  // namespace ptxsim::sim::semantics
