// mov (scalar, vector pack and unpack), ld/ldu/st in every state space,
// cvta, isspacep and prefetch.

#include <cstring>

#include "access_counts.h"
#include "cluster_address.h"
#include "lane_ops.h"
#include "ptxsim/memory/allocation_table.h"
#include "ptxsim/memory/cluster_shared_address.h"
#include "semantics.h"
#include "type_dispatch.h"

namespace ptxsim::sim::semantics {

namespace {

using exec::AccessKind;
using exec::AddressSpace;
using isa::DataType;
using isa::Opcode;

template <typename T>
void movHandler(const PreparedInstruction& pi, ExecContext& ctx) {
  uint64_t* d = ctx.row(pi.ops[0].row);
  const uint64_t* a = ctx.row(pi.ops[1].row);
  forLanes(ctx.mask, [&](unsigned l) { d[l] = toBits<T>(fromBits<T>(a[l])); });
}

void movPredicateHandler(const PreparedInstruction& pi, ExecContext& ctx) {
  uint64_t* d = ctx.row(pi.ops[0].row);
  const uint64_t* a = ctx.row(pi.ops[1].row);
  bool negate = pi.ops[1].negated;
  forLanes(ctx.mask, [&](unsigned l) { d[l] = (a[l] != 0) != negate ? 1 : 0; });
}

// mov.b64 d, {a, b}: element 0 in the low bits. aux: element bits.
void movPackHandler(const PreparedInstruction& pi, ExecContext& ctx) {
  uint64_t* d = ctx.row(pi.ops[0].row);
  const uint32_t* rows = ctx.vectorRows(pi.ops[1]);
  unsigned count = pi.ops[1].elementCount;
  auto bits = static_cast<unsigned>(pi.aux);
  uint64_t elementMask = bits == 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
  forLanes(ctx.mask, [&](unsigned l) {
    uint64_t value = 0;
    for (unsigned e = 0; e < count; ++e) value |= (ctx.row(rows[e])[l] & elementMask) << (e * bits);
    d[l] = value;
  });
}

// mov.b64 {a, b}, d.
void movUnpackHandler(const PreparedInstruction& pi, ExecContext& ctx) {
  const uint64_t* a = ctx.row(pi.ops[1].row);
  const uint32_t* rows = ctx.vectorRows(pi.ops[0]);
  unsigned count = pi.ops[0].elementCount;
  auto bits = static_cast<unsigned>(pi.aux);
  uint64_t elementMask = bits == 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
  forLanes(ctx.mask, [&](unsigned l) {
    uint64_t value = a[l];
    for (unsigned e = 0; e < count; ++e) ctx.row(rows[e])[l] = (value >> (e * bits)) & elementMask;
  });
}

// .b128 values live in two consecutive rows, low 64 bits first.
void mov128Handler(const PreparedInstruction& pi, ExecContext& ctx) {
  uint64_t* dLo = ctx.row(pi.ops[0].row);
  uint64_t* dHi = ctx.row(pi.ops[0].row + 1);
  const uint64_t* aLo = ctx.row(pi.ops[1].row);
  const uint64_t* aHi = ctx.row(pi.ops[1].row + 1);
  forLanes(ctx.mask, [&](unsigned l) {
    uint64_t lo = aLo[l], hi = aHi[l];
    dLo[l] = lo;
    dHi[l] = hi;
  });
}

// mov.b128 d, {lo, hi} and mov.b128 {lo, hi}, d (two 64-bit halves).
void movPack128Handler(const PreparedInstruction& pi, ExecContext& ctx) {
  const uint32_t* rows = ctx.vectorRows(pi.ops[1]);
  uint64_t* dLo = ctx.row(pi.ops[0].row);
  uint64_t* dHi = ctx.row(pi.ops[0].row + 1);
  const uint64_t* lo = ctx.row(rows[0]);
  const uint64_t* hi = ctx.row(rows[1]);
  forLanes(ctx.mask, [&](unsigned l) {
    uint64_t a = lo[l], b = hi[l];
    dLo[l] = a;
    dHi[l] = b;
  });
}

void movUnpack128Handler(const PreparedInstruction& pi, ExecContext& ctx) {
  const uint32_t* rows = ctx.vectorRows(pi.ops[0]);
  const uint64_t* aLo = ctx.row(pi.ops[1].row);
  const uint64_t* aHi = ctx.row(pi.ops[1].row + 1);
  uint64_t* lo = ctx.row(rows[0]);
  uint64_t* hi = ctx.row(rows[1]);
  forLanes(ctx.mask, [&](unsigned l) {
    uint64_t a = aLo[l], b = aHi[l];
    lo[l] = a;
    hi[l] = b;
  });
}

bool selectMov128(PreparedInstruction& pi, std::string& why) {
  bool packDest = pi.ops[0].elementCount > 0;
  bool packSource = pi.ops[1].elementCount > 0;
  if (packDest || packSource) {
    if ((packDest ? pi.ops[0].elementCount : pi.ops[1].elementCount) != 2) {
      why = "mov.b128 with other than two 64-bit halves";
      return false;
    }
    pi.handler = packDest ? &movUnpack128Handler : &movPack128Handler;
    return true;
  }
  pi.handler = &mov128Handler;
  return true;
}

bool selectMov(const isa::Instruction& inst, PreparedInstruction& pi, SelectContext&, std::string& why) {
  DataType type = inst.types[0];
  if (isa::typeBits(type) == 128) return selectMov128(pi, why);
  bool packDest = pi.ops[0].elementCount > 0;
  bool packSource = pi.ops[1].elementCount > 0;
  if (packDest || packSource) {
    unsigned count = packDest ? pi.ops[0].elementCount : pi.ops[1].elementCount;
    unsigned total = isa::typeBits(type);
    if (count == 0 || total % count != 0 || total > 64) {
      why = "vector mov of this width";
      return false;
    }
    pi.aux = total / count;
    pi.handler = packDest ? &movUnpackHandler : &movPackHandler;
    return true;
  }
  if (type == DataType::Pred) {
    pi.handler = &movPredicateHandler;
    return true;
  }
  return dispatchBits(type, [&]<typename T>() { pi.handler = &movHandler<T>; }) || (why = "mov of this type", false);
}

// Loads and stores. The address is the base row plus the constant offset;
// a vector access is checked once, for its whole width and alignment.
inline uint64_t addressOf(const PreparedInstruction& pi, const uint64_t* base, unsigned lane, unsigned operand) {
  return pi.ops[operand].effectiveAddress(base[lane]);
}

// A loaded value as its destination register holds it: signed types are
// sign-extended to the register's declared width (a wider register is
// legal for ld), then kept zero-extended beyond it like every register.
// `registerMask` has the register's width in ones.
template <typename T>
inline uint64_t extend(const uint8_t* p, uint64_t registerMask) {
  T value;
  std::memcpy(&value, p, sizeof(T));
  if constexpr (std::is_signed_v<T>) {
    return static_cast<uint64_t>(static_cast<int64_t>(value)) & registerMask;
  } else {
    return static_cast<uint64_t>(value);
  }
}

template <typename T>
void loadHandler(const PreparedInstruction& pi, ExecContext& ctx) {
  const uint64_t* base = ctx.row(pi.ops[1].row);
  uint64_t* d = ctx.row(pi.ops[0].row);
  ctx.recordAccess(AccessKind::Load, pi.space, sizeof(T));
  forLanes(ctx.mask, [&](unsigned l) {
    if (ctx.aborted) return;
    uint64_t address = addressOf(pi, base, l, 1);
    ctx.report.addresses[l] = address;
    const uint8_t* p = ctx.access(pi.space, address, sizeof(T), l, AccessKind::Load);
    if (p != nullptr) d[l] = extend<T>(p, pi.aux);
  });
  countAccess(ctx, pi.space, false);
}

template <typename T>
void loadVectorHandler(const PreparedInstruction& pi, ExecContext& ctx) {
  const uint64_t* base = ctx.row(pi.ops[1].row);
  const uint32_t* rows = ctx.vectorRows(pi.ops[0]);
  unsigned count = pi.ops[0].elementCount;
  ctx.recordAccess(AccessKind::Load, pi.space, sizeof(T) * count);
  forLanes(ctx.mask, [&](unsigned l) {
    if (ctx.aborted) return;
    uint64_t address = addressOf(pi, base, l, 1);
    ctx.report.addresses[l] = address;
    const uint8_t* p = ctx.access(pi.space, address, static_cast<unsigned>(sizeof(T) * count), l, AccessKind::Load);
    if (p == nullptr) return;
    for (unsigned e = 0; e < count; ++e) ctx.row(rows[e])[l] = extend<T>(p + e * sizeof(T), pi.aux);
  });
  countAccess(ctx, pi.space, false);
}

template <typename T>
void storeHandler(const PreparedInstruction& pi, ExecContext& ctx) {
  const uint64_t* base = ctx.row(pi.ops[0].row);
  const uint64_t* v = ctx.row(pi.ops[1].row);
  ctx.recordAccess(AccessKind::Store, pi.space, sizeof(T));
  forLanes(ctx.mask, [&](unsigned l) {
    if (ctx.aborted) return;
    uint64_t address = addressOf(pi, base, l, 0);
    ctx.report.addresses[l] = address;
    uint8_t* p = ctx.access(pi.space, address, sizeof(T), l, AccessKind::Store);
    if (p == nullptr) return;
    T value = static_cast<T>(v[l]);
    std::memcpy(p, &value, sizeof(T));
  });
  countAccess(ctx, pi.space, true);
}

template <typename T>
void storeVectorHandler(const PreparedInstruction& pi, ExecContext& ctx) {
  const uint64_t* base = ctx.row(pi.ops[0].row);
  const uint32_t* rows = ctx.vectorRows(pi.ops[1]);
  unsigned count = pi.ops[1].elementCount;
  ctx.recordAccess(AccessKind::Store, pi.space, sizeof(T) * count);
  forLanes(ctx.mask, [&](unsigned l) {
    if (ctx.aborted) return;
    uint64_t address = addressOf(pi, base, l, 0);
    ctx.report.addresses[l] = address;
    uint8_t* p = ctx.access(pi.space, address, static_cast<unsigned>(sizeof(T) * count), l, AccessKind::Store);
    if (p == nullptr) return;
    for (unsigned e = 0; e < count; ++e) {
      T value = static_cast<T>(ctx.row(rows[e])[l]);
      std::memcpy(p + e * sizeof(T), &value, sizeof(T));
    }
  });
  countAccess(ctx, pi.space, true);
}

// The C++ type a load or store moves: signedness matters only for
// sign-extension of loads.
template <typename F>
bool dispatchMemoryType(DataType type, F&& f) {
  switch (type) {
    case DataType::S8: f.template operator()<int8_t>(); return true;
    case DataType::S16: f.template operator()<int16_t>(); return true;
    case DataType::S32: f.template operator()<int32_t>(); return true;
    case DataType::Pred: return false;
    default: return dispatchBits(type, f);
  }
}

void load128Handler(const PreparedInstruction& pi, ExecContext& ctx) {
  const uint64_t* base = ctx.row(pi.ops[1].row);
  uint64_t* lo = ctx.row(pi.ops[0].row);
  uint64_t* hi = ctx.row(pi.ops[0].row + 1);
  ctx.recordAccess(AccessKind::Load, pi.space, 16);
  forLanes(ctx.mask, [&](unsigned l) {
    if (ctx.aborted) return;
    uint64_t address = addressOf(pi, base, l, 1);
    ctx.report.addresses[l] = address;
    const uint8_t* p = ctx.access(pi.space, address, 16, l, AccessKind::Load);
    if (p == nullptr) return;
    std::memcpy(&lo[l], p, 8);
    std::memcpy(&hi[l], p + 8, 8);
  });
  countAccess(ctx, pi.space, false);
}

void store128Handler(const PreparedInstruction& pi, ExecContext& ctx) {
  const uint64_t* base = ctx.row(pi.ops[0].row);
  const uint64_t* lo = ctx.row(pi.ops[1].row);
  const uint64_t* hi = ctx.row(pi.ops[1].row + 1);
  ctx.recordAccess(AccessKind::Store, pi.space, 16);
  forLanes(ctx.mask, [&](unsigned l) {
    if (ctx.aborted) return;
    uint64_t address = addressOf(pi, base, l, 0);
    ctx.report.addresses[l] = address;
    uint8_t* p = ctx.access(pi.space, address, 16, l, AccessKind::Store);
    if (p == nullptr) return;
    std::memcpy(p, &lo[l], 8);
    std::memcpy(p + 8, &hi[l], 8);
  });
  countAccess(ctx, pi.space, true);
}

// The declared width of a load's destination register (the first element
// of a vector), as a mask; all ones for a sink or an unusual operand.
uint64_t destinationMask(const isa::Instruction& inst, const SelectContext& sc) {
  const isa::Operand* op = &sc.function.operands[inst.firstOperand];
  if (op->kind == isa::OperandKind::Vector) op = &sc.function.operands[op->index];
  if (op->kind != isa::OperandKind::Register) return ~uint64_t{0};
  unsigned bits = isa::typeBits(sc.function.registers[op->index].type);
  return bits >= 64 || bits == 0 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
}

// ld/st.v8 of 8- and 16-bit elements: ptxas 13.0 accepts them for sm_90
// (and crashes on ld.v8.b16), but what the H100 reads and writes does not
// follow the elements in any order found (the conformance suite's memory
// set: 36 such forms, 192 to 544 of 288 to 576 results differing from
// element-wise semantics). Refused rather than guessed.
bool narrowEightVector(const isa::Instruction& inst, std::string& why) {
  if (inst.modifiers.get(isa::ModGroup::Vector) != isa::Mod::V8 || isa::typeBits(inst.types[0]) >= 32)
    return false;
  why =
      ".v8 of 8- or 16-bit elements: ptxas accepts it for sm_90, but the H100's results follow no element "
      "order "
      "measured (tests/conformance/h100/memory_forms.txt)";
  return true;
}

bool selectLoad(const isa::Instruction& inst, PreparedInstruction& pi, SelectContext& sc, std::string& why) {
  if (narrowEightVector(inst, why)) return false;
  bool vector = pi.ops[0].elementCount > 0;
  pi.aux = destinationMask(inst, sc);
  if (isa::typeBits(inst.types[0]) == 128) {
    if (vector) {
      why = "vectors of 128-bit values";
      return false;
    }
    pi.handler = &load128Handler;
    return true;
  }
  bool ok = dispatchMemoryType(inst.types[0], [&]<typename T>() {
    pi.handler = vector ? &loadVectorHandler<T> : &loadHandler<T>;
  });
  if (!ok) why = "loads of this type";
  return ok;
}

bool selectStore(const isa::Instruction& inst, PreparedInstruction& pi, SelectContext&, std::string& why) {
  if (narrowEightVector(inst, why)) return false;
  bool vector = pi.ops[1].elementCount > 0;
  if (isa::typeBits(inst.types[0]) == 128) {
    if (vector) {
      why = "vectors of 128-bit values";
      return false;
    }
    pi.handler = &store128Handler;
    return true;
  }
  bool ok = dispatchMemoryType(inst.types[0], [&]<typename T>() {
    pi.handler = vector ? &storeVectorHandler<T> : &storeHandler<T>;
  });
  if (!ok) why = "stores of this type";
  return ok;
}

// cvta: aux is the window (0 global, 1 shared, 2 local, 3 kernel
// parameters, 4 the module's constant bank); aux2 is 1 for cvta.to
// (generic to window).
uint64_t windowBase(const ExecContext& ctx, uint64_t window) {
  switch (window) {
    case 1: return ctx.layout.sharedBase;
    case 2: return ctx.layout.localBase;
    case 3: return ctx.layout.paramBase;
    case 4: return ctx.grid.constantBankBase;
    default: return 0;
  }
}

template <typename T>
void cvtaHandler(const PreparedInstruction& pi, ExecContext& ctx) {
  uint64_t* d = ctx.row(pi.ops[0].row);
  const uint64_t* a = ctx.row(pi.ops[1].row);
  uint64_t base = windowBase(ctx, pi.aux);
  bool toWindow = pi.aux2 != 0;
  // A constant variable's name already gives its device address (the
  // preparer resolves every state space's symbols to device addresses), so
  // cvta.const only moves bank offsets.
  bool constant = pi.aux == 4;
  forLanes(ctx.mask, [&](unsigned l) {
    uint64_t value = toWindow                                                   ? a[l] - base
                     : constant && a[l] >= memory::AllocationTable::kFirstAddress ? a[l]
                                                                                 : a[l] + base;
    d[l] = static_cast<T>(value);
  });
}

uint64_t windowOf(isa::Mod space) {
  switch (space) {
    case isa::Mod::Shared:
    case isa::Mod::SharedCta:
    case isa::Mod::SharedCluster: return 1;
    case isa::Mod::Local: return 2;
    case isa::Mod::Param:
    case isa::Mod::ParamEntry: return 3;
    case isa::Mod::Const: return 4;
    default: return 0;
  }
}

bool selectCvta(const isa::Instruction& inst, PreparedInstruction& pi, SelectContext&, std::string& why) {
  isa::Mod space = inst.modifiers.get(isa::ModGroup::Space);
  if (space == isa::Mod::ParamFunc) {
    why = "generic addresses of function parameters";
    return false;
  }
  pi.aux = windowOf(space);
  pi.aux2 = inst.modifiers.has(isa::Mod::To) ? 1 : 0;
  if (isa::typeBits(inst.types[0]) == 32) {
    pi.handler = &cvtaHandler<uint32_t>;
  } else {
    pi.handler = &cvtaHandler<uint64_t>;
  }
  return true;
}

void isspacepHandler(const PreparedInstruction& pi, ExecContext& ctx) {
  uint64_t* d = ctx.row(pi.ops[0].row);
  const uint64_t* a = ctx.row(pi.ops[1].row);
  forLanes(ctx.mask, [&](unsigned l) {
    memory::Window w = memory::classify(ctx.layout, a[l]);
    bool in = false;
    switch (pi.aux) {
      case 0: in = w == memory::Window::Global; break;
      // .shared (::cta): the CTA's own slot of the window; .shared::cluster:
      // the slot of any CTA of its cluster (cluster_shared_address.h).
      case 1:
        in = w == memory::Window::Shared && memory::decodeClusterShared(a[l] - ctx.layout.sharedBase).own;
        break;
      case 5: {
        memory::ClusterSharedAddress at = memory::decodeClusterShared(a[l] - ctx.layout.sharedBase);
        in = w == memory::Window::Shared && (at.own || at.rank < clusterSizeOf(ctx));
        break;
      }
      case 2: in = w == memory::Window::Local; break;
      case 3: in = w == memory::Window::Param; break;
      default: {
        // Constant variables live in global memory here; the allocation says which.
        const memory::Allocation* owner = w == memory::Window::Global ? ctx.grid.allocations.find(a[l]) : nullptr;
        in = owner != nullptr && owner->kind == memory::AllocationKind::ModuleConstant;
      }
    }
    d[l] = in ? 1 : 0;
  });
}

bool selectIsspacep(const isa::Instruction& inst, PreparedInstruction& pi, SelectContext&, std::string&) {
  isa::Mod space = inst.modifiers.get(isa::ModGroup::Space);
  pi.aux = space == isa::Mod::Global ? 0 : windowOf(space) != 0 ? windowOf(space) : 4;
  if (space == isa::Mod::SharedCluster) pi.aux = 5;
  pi.handler = &isspacepHandler;
  return true;
}

// Prefetches only warm caches, which the functional model does not have.
void prefetchHandler(const PreparedInstruction&, ExecContext&) {}

bool selectPrefetch(const isa::Instruction&, PreparedInstruction& pi, SelectContext&, std::string&) {
  pi.handler = &prefetchHandler;
  return true;
}

// multimem reaches the copies of an allocation on every GPU of an NVLink
// multicast group; the simulator models one device, so it refuses them.
bool refuseMultimem(const isa::Instruction&, PreparedInstruction&, SelectContext&, std::string& why) {
  why = "multimem needs several devices bound to a multicast object (NVLink SHARP), and the simulator runs one "
        "device";
  return false;
}

}  // namespace

void registerDataMovementSemantics(SemanticsTable& table) {
  table.add(Opcode::MultimemLdReduce, &refuseMultimem);
  table.add(Opcode::MultimemSt, &refuseMultimem);
  table.add(Opcode::MultimemRed, &refuseMultimem);
  table.add(Opcode::Mov, &selectMov);
  table.add(Opcode::Ld, &selectLoad);
  table.add(Opcode::Ldu, &selectLoad);
  table.add(Opcode::St, &selectStore);
  table.add(Opcode::Cvta, &selectCvta);
  table.add(Opcode::Isspacep, &selectIsspacep);
  table.add(Opcode::Prefetch, &selectPrefetch);
  table.add(Opcode::Prefetchu, &selectPrefetch);
  registerClusterAddressSemantics(table);
}

}  // namespace ptxsim::sim::semantics
