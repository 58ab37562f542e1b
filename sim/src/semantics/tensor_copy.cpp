// The tensor memory accelerator's copies (sm_90): cp.async.bulk.tensor
// loads a box of a tensor into shared memory, completing on an mbarrier;
// cp.async.bulk.tensor stores and cp.reduce.async.bulk.tensor reduce a
// shared-memory box into the tensor, in bulk groups; the tensor prefetches
// and prefetch.tensormap only warm caches. The tensor is described by a
// tensor map (sim/include/ptxsim/sim/tensor_map.h) the driver encoded,
// which the instruction names by its generic address (a __grid_constant__
// parameter's, or global memory's).
//
// A box (tile mode) is the elements at start[d] + i * elementStride[d] for
// i < ceil(boxDim[d] / elementStride[d]) along each dimension d; in shared
// memory it is packed, the first dimension innermost, and the 32-, 64- or
// 128-byte swizzle exchanges its 16-byte chunks (shared_swizzle.h).
// Elements outside the tensor read as zero (or, with the NaN fill, as the
// float type's NaN) and are not written by stores. The functional model
// copies when the instruction issues: one legal completion order, since a
// program must wait for the mbarrier's phase or the bulk group before it
// uses the data.

#include <array>
#include <cstring>

#include "../hex_text.h"
#include "atomic_ops.h"
#include "lane_ops.h"
#include "mbarrier_access.h"
#include "ptxsim/memory/cluster_shared_address.h"
#include "ptxsim/sim/tensor_map.h"
#include "semantics.h"
#include "shared_swizzle.h"

namespace ptxsim::sim::semantics {

namespace {

using exec::AccessKind;
using exec::AddressSpace;
using isa::Mod;
using isa::ModGroup;
using isa::Opcode;

constexpr unsigned kMaxRank = kTensorMapMaxRank;

// CUtensorMapDataType (cuda.h).
enum class MapType : uint8_t {
  U8 = 0, U16, U32, S32, U64, S64, F16, F32, F64, BF16, F32Ftz, TF32, TF32Ftz,
};

bool isFloatType(uint8_t type) {
  auto t = static_cast<MapType>(type);
  return t == MapType::F16 || t == MapType::F32 || t == MapType::F64 || t == MapType::BF16 ||
         t == MapType::F32Ftz || t == MapType::TF32 || t == MapType::TF32Ftz;
}

// The element a box holds where it lies outside the tensor.
void fillElement(const TensorMapDescriptor& map, unsigned bytes, uint8_t* out) {
  constexpr uint8_t kFillNanRequestZeroFma = 1;  // CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA
  std::memset(out, 0, bytes);
  if (map.oobFill != kFillNanRequestZeroFma || !isFloatType(map.dataType)) return;
  // Every bit but the sign, the canonical NaN of the H100's float units.
  std::memset(out, 0xff, bytes);
  out[bytes - 1] = 0x7f;
}

struct Box {
  TensorMapDescriptor map;
  unsigned rank = 0, elementBytes = 0;
  std::array<int64_t, kMaxRank> start{};
  std::array<uint32_t, kMaxRank> counts{};  // tile mode: elements along each dimension
  std::array<int64_t, kMaxRank - 2> offsets{};  // im2col: the filter tap's offset along W, H, D
  bool im2col() const { return map.kind == TensorMapKind::Im2col; }
  uint64_t elements() const {
    if (im2col()) return uint64_t{map.channelsPerPixel} * map.pixelsPerColumn;
    uint64_t n = 1;
    for (unsigned d = 0; d < rank; ++d) n *= counts[d];
    return n;
  }
};

// The tensor map a lane names and its box at the lane's coordinates
// (operand `tuple`: [map, {c0, ...}]); false after the launch failed.
bool resolveBox(const PreparedInstruction& pi, ExecContext& ctx, const PreparedOperand& tuple, unsigned rank,
                bool im2col, unsigned lane, Box& box) {
  const uint32_t* rows = ctx.vectorRows(tuple);
  uint64_t mapAddress = ctx.row(rows[0])[lane];
  const std::string name(isa::mnemonicOf(pi.source->opcode));
  const uint8_t* bytes = ctx.access(AddressSpace::Generic, mapAddress, 128, lane, AccessKind::Load);
  if (bytes == nullptr) return false;
  std::optional<TensorMapDescriptor> map = readTensorMap(bytes);
  if (!map) {
    ctx.fail(LaunchErrorKind::IllegalInstruction,
             name + ": the 128 bytes at " + hex(mapAddress) +
                 " are not a tensor map cuTensorMapEncodeTiled or cuTensorMapEncodeIm2col wrote",
             lane);
    return false;
  }
  if ((map->kind == TensorMapKind::Im2col) != im2col) {
    ctx.fail(LaunchErrorKind::IllegalInstruction,
             name + (im2col ? ": a tiled tensor map used by an im2col copy" : ": an im2col tensor map used by a tile-mode copy"),
             lane);
    return false;
  }
  if (map->rank != rank) {
    ctx.fail(LaunchErrorKind::IllegalInstruction,
             name + ": a " + std::to_string(rank) + "d copy of a rank-" + std::to_string(map->rank) +
                 " tensor map",
             lane);
    return false;
  }
  // cuTensorMapEncodeTiled refuses such a box; tensormap.replace can still
  // write one, and the H100 then faults at the copy
  // (tests/cuda/programs/tensormap_replace.expected: a box of 7 f32).
  const unsigned innerBytes = (map->boxDimMinusOne[0] + 1u) * map->elementBits / 8;
  if (!im2col && map->interleave == 0 && innerBytes % 16 != 0) {
    ctx.fail(LaunchErrorKind::IllegalInstruction,
             name + ": the tensor map's box is " + std::to_string(innerBytes) +
                 " bytes along its inner dimension, not a multiple of 16",
             lane);
    return false;
  }
  box.map = *map;
  box.rank = rank;
  box.elementBytes = map->elementBits / 8;
  for (unsigned d = 0; d < rank; ++d) {
    box.start[d] = static_cast<int32_t>(ctx.row(rows[1 + d])[lane]);
    unsigned boxDim = map->boxDimMinusOne[d] + 1u, stride = map->elementStrides[d] != 0 ? map->elementStrides[d] : 1u;
    box.counts[d] = (boxDim + stride - 1) / stride;
  }
  return true;
}

// The im2col box: pixelsPerColumn pixels, each channelsPerPixel channels
// from start[0], packed pixel by pixel. The pixels are the filter windows'
// origins walked from the start coordinates over the bounding box the map
// gives (lower corner to the dimension's end plus the upper corner, along
// W, then H, then D, then N), each moved by the instruction's offsets.
template <typename Visit>
void forEachIm2colElement(const Box& box, Visit&& visit) {
  const TensorMapDescriptor& m = box.map;
  unsigned spatial = box.rank - 2;
  std::array<int64_t, kMaxRank> position = box.start;  // [0]: channel, [1..rank-2]: W, H, D, [rank-1]: N
  uint64_t offset = 0;
  for (unsigned p = 0; p < m.pixelsPerColumn; ++p) {
    for (unsigned c = 0; c < m.channelsPerPixel; ++c) {
      bool inBounds = true;
      uint64_t address = m.globalAddress;
      for (unsigned d = 0; d < box.rank; ++d) {
        int64_t g = position[d];
        if (d == 0) g += c;
        if (d >= 1 && d <= spatial) g += box.offsets[d - 1];
        if (g < 0 || g > static_cast<int64_t>(m.globalDimMinusOne[d])) inBounds = false;
        uint64_t step = d == 0 ? box.elementBytes : m.globalStrides[d - 1];
        address += static_cast<uint64_t>(g) * step;
      }
      visit(offset, address, inBounds);
      offset += box.elementBytes;
    }
    // The next pixel: W first, wrapping at the bounding box into H, D, N.
    for (unsigned d = 1; d < box.rank; ++d) {
      if (d == box.rank - 1) {
        ++position[d];
        break;
      }
      int64_t last = static_cast<int64_t>(m.globalDimMinusOne[d]) + m.pixelBoxUpperCorner[d - 1];
      if (++position[d] <= last) break;
      position[d] = m.pixelBoxLowerCorner[d - 1];
    }
  }
}

// Calls visit(sharedOffset, globalAddress, inBounds) for every element of
// the box, in shared-memory order.
template <typename Visit>
void forEachElement(const Box& box, Visit&& visit) {
  if (box.im2col()) {
    forEachIm2colElement(box, visit);
    return;
  }
  std::array<uint32_t, kMaxRank> i{};
  uint64_t count = box.elements();
  for (uint64_t n = 0; n < count; ++n) {
    bool inBounds = true;
    uint64_t address = box.map.globalAddress;
    for (unsigned d = 0; d < box.rank; ++d) {
      unsigned stride = box.map.elementStrides[d] != 0 ? box.map.elementStrides[d] : 1u;
      int64_t g = box.start[d] + static_cast<int64_t>(i[d]) * stride;
      if (g < 0 || g > static_cast<int64_t>(box.map.globalDimMinusOne[d])) inBounds = false;
      uint64_t step = d == 0 ? box.elementBytes : box.map.globalStrides[d - 1];
      address += static_cast<uint64_t>(g) * step;
    }
    visit(n * box.elementBytes, address, inBounds);
    for (unsigned d = 0; d < box.rank && ++i[d] == box.counts[d]; ++d) i[d] = 0;
  }
}

unsigned swizzleBytesOf(const TensorMapDescriptor& map) {
  switch (map.swizzle) {  // CUtensorMapSwizzle
    case 1: return 32;
    case 2: return 64;
    case 3: return 128;
    default: return 0;
  }
}

unsigned rankOf(const isa::Instruction& inst) {
  switch (inst.modifiers.get(ModGroup::Geometry)) {
    case Mod::Geom1d: return 1;
    case Mod::Geom2d: return 2;
    case Mod::Geom3d: return 3;
    case Mod::Geom4d: return 4;
    case Mod::Geom5d: return 5;
    default: return 0;
  }
}

// The CTAs a load writes: the executing one's own shared memory, or with
// .multicast::cluster each CTA of the cluster whose rank the 16-bit mask
// names, at the same offsets (memory/cluster_shared_address.h).
struct Destinations {
  bool multicast = false;
  uint32_t mask = 0;
};

uint64_t destinationAddress(const Destinations& to, unsigned rank, uint64_t sharedOffset) {
  return to.multicast ? memory::clusterSharedOf(rank, sharedOffset) : sharedOffset;
}

// pi.aux: the rank, and kMulticastFlag for .multicast::cluster (the last
// operand before any cache policy: the CTA mask); pi.aux2: 1 for im2col
// (operand 3: the offsets).
constexpr uint64_t kMulticastFlag = 0x100;

void tensorLoadHandler(const PreparedInstruction& pi, ExecContext& ctx) {
  const auto rank = static_cast<unsigned>(pi.aux & 0xff);
  const bool im2col = pi.aux2 != 0;
  const bool multicast = (pi.aux & kMulticastFlag) != 0;
  const uint64_t* dst = ctx.row(pi.ops[0].row);
  ctx.recordAccess(AccessKind::Load, AddressSpace::Global, 16);
  exec::forLanes(ctx.mask, [&](unsigned l) {
    if (ctx.aborted) return;
    Box box;
    if (!resolveBox(pi, ctx, pi.ops[1], rank, im2col, l, box)) return;
    if (im2col) {
      for (unsigned i = 0; i + 2 < rank; ++i) box.offsets[i] = static_cast<uint16_t>(ctx.row(ctx.vectorRows(pi.ops[3])[i])[l]);
    }
    uint64_t base = pi.ops[0].effectiveAddress(dst[l]);
    ctx.report.addresses[l] = box.map.globalAddress;
    Destinations to;
    if (multicast) {
      to.multicast = true;
      to.mask = static_cast<uint16_t>(ctx.row(pi.ops[im2col ? 4 : 3].row)[l]);
    }
    // The shared offsets of the box and the mbarrier (multicast writes the
    // same offsets in every CTA it names).
    uint64_t barrier = pi.ops[2].effectiveAddress(ctx.row(pi.ops[2].row)[l]);
    if (multicast) base %= memory::kClusterSlotBytes, barrier %= memory::kClusterSlotBytes;
    unsigned swizzle = swizzleBytesOf(box.map);
    uint8_t element[8];
    bool ok = true;
    auto bytes = static_cast<uint32_t>(box.elements() * box.elementBytes);
    for (unsigned target = 0; target < (multicast ? 16u : 1u) && ok; ++target) {
      if (multicast && ((to.mask >> target) & 1) == 0) continue;
      forEachElement(box, [&](uint64_t offset, uint64_t address, bool inBounds) {
        if (!ok) return;
        if (inBounds) {
          if (ctx.bulkCopies != nullptr && target == 0) ctx.bulkCopies->touch(address, box.elementBytes);
          const uint8_t* p = ctx.access(AddressSpace::Global, address, box.elementBytes, l, AccessKind::Load);
          if (p == nullptr) {
            ok = false;
            return;
          }
          std::memcpy(element, p, box.elementBytes);
        } else {
          fillElement(box.map, box.elementBytes, element);
        }
        uint32_t at = swizzleSharedAddress(static_cast<uint32_t>(base + offset), swizzle);
        uint8_t* q = ctx.access(AddressSpace::Shared, destinationAddress(to, target, at), box.elementBytes, l,
                                AccessKind::Store);
        if (q == nullptr) {
          ok = false;
          return;
        }
        std::memcpy(q, element, box.elementBytes);
      });
      if (ok) ok = completeCopyTransactionAt(ctx, pi, destinationAddress(to, target, barrier), l, bytes);
    }
  });
  if (ctx.mask != 0) noteMemoryWrite(*ctx.cta);  // the livelock watch must see the shared memory written
}

// The reduction of a shared element into a global one, by the map's type.
using Reduce = void (*)(uint8_t* memory, const uint8_t* value);

template <typename Op>
void reduceWith(uint8_t* memory, const uint8_t* value) {
  using Bits = typename Op::Bits;
  Bits old, b;
  std::memcpy(&old, memory, sizeof(Bits));
  std::memcpy(&b, value, sizeof(Bits));
  Bits result = Op::apply(old, b, true);
  std::memcpy(memory, &result, sizeof(Bits));
}

void storeElement(uint8_t* memory, const uint8_t* value, unsigned bytes) { std::memcpy(memory, value, bytes); }

// The reduction for a map type and operation, or null where the
// accelerator has none.
Reduce reductionFor(MapType type, Mod op) {
  namespace ao = atomic_ops;
  switch (type) {
    case MapType::U32:
      switch (op) {
        case Mod::AtomAdd: return &reduceWith<ao::IntAdd<uint32_t>>;
        case Mod::AtomMin: return &reduceWith<ao::IntMin<uint32_t>>;
        case Mod::AtomMax: return &reduceWith<ao::IntMax<uint32_t>>;
        case Mod::AtomInc: return &reduceWith<ao::Inc>;
        case Mod::AtomDec: return &reduceWith<ao::Dec>;
        case Mod::AtomAnd: return &reduceWith<ao::And<uint32_t>>;
        case Mod::AtomOr: return &reduceWith<ao::Or<uint32_t>>;
        case Mod::AtomXor: return &reduceWith<ao::Xor<uint32_t>>;
        default: return nullptr;
      }
    case MapType::S32:
      switch (op) {
        case Mod::AtomAdd: return &reduceWith<ao::IntAdd<uint32_t>>;
        case Mod::AtomMin: return &reduceWith<ao::IntMin<int32_t>>;
        case Mod::AtomMax: return &reduceWith<ao::IntMax<int32_t>>;
        case Mod::AtomAnd: return &reduceWith<ao::And<uint32_t>>;
        case Mod::AtomOr: return &reduceWith<ao::Or<uint32_t>>;
        case Mod::AtomXor: return &reduceWith<ao::Xor<uint32_t>>;
        default: return nullptr;
      }
    case MapType::U64:
      switch (op) {
        case Mod::AtomAdd: return &reduceWith<ao::IntAdd<uint64_t>>;
        case Mod::AtomMin: return &reduceWith<ao::IntMin<uint64_t>>;
        case Mod::AtomMax: return &reduceWith<ao::IntMax<uint64_t>>;
        case Mod::AtomAnd: return &reduceWith<ao::And<uint64_t>>;
        case Mod::AtomOr: return &reduceWith<ao::Or<uint64_t>>;
        case Mod::AtomXor: return &reduceWith<ao::Xor<uint64_t>>;
        default: return nullptr;
      }
    case MapType::F32:
    case MapType::F32Ftz: return op == Mod::AtomAdd ? &reduceWith<ao::AddF32> : nullptr;
    case MapType::F16:
      switch (op) {
        case Mod::AtomAdd: return &reduceWith<ao::Half<ao::HalfOp::Add, false>>;
        case Mod::AtomMin: return &reduceWith<ao::Half<ao::HalfOp::Min, false>>;
        case Mod::AtomMax: return &reduceWith<ao::Half<ao::HalfOp::Max, false>>;
        default: return nullptr;
      }
    case MapType::BF16:
      switch (op) {
        case Mod::AtomAdd: return &reduceWith<ao::Half<ao::HalfOp::Add, true>>;
        case Mod::AtomMin: return &reduceWith<ao::Half<ao::HalfOp::Min, true>>;
        case Mod::AtomMax: return &reduceWith<ao::Half<ao::HalfOp::Max, true>>;
        default: return nullptr;
      }
    default: return nullptr;
  }
}

const char* atomicOpName(Mod op) {
  switch (op) {
    case Mod::AtomAdd: return "add";
    case Mod::AtomMin: return "min";
    case Mod::AtomMax: return "max";
    case Mod::AtomInc: return "inc";
    case Mod::AtomDec: return "dec";
    case Mod::AtomAnd: return "and";
    case Mod::AtomOr: return "or";
    case Mod::AtomXor: return "xor";
    default: return "?";
  }
}

// Stores (pi.aux2 == 0) and reductions (pi.aux2: the Mod of the operation).
// pi.aux: the rank. Operands: [map, {coords}], [shared source].
void tensorStoreHandler(const PreparedInstruction& pi, ExecContext& ctx) {
  const auto rank = static_cast<unsigned>(pi.aux);
  const auto op = static_cast<Mod>(pi.aux2);
  const uint64_t* src = ctx.row(pi.ops[1].row);
  ctx.recordAccess(op == Mod::None ? AccessKind::Store : AccessKind::Atomic, AddressSpace::Global, 16);
  exec::forLanes(ctx.mask, [&](unsigned l) {
    if (ctx.aborted) return;
    Box box;
    if (!resolveBox(pi, ctx, pi.ops[0], rank, false, l, box)) return;
    Reduce reduce = nullptr;
    if (op != Mod::None) {
      reduce = reductionFor(static_cast<MapType>(box.map.dataType), op);
      if (reduce == nullptr) {
        ctx.fail(LaunchErrorKind::IllegalInstruction,
                 std::string("cp.reduce.async.bulk.tensor: no .") + atomicOpName(op) +
                     " reduction for the tensor map's element type (CUtensorMapDataType " +
                     std::to_string(box.map.dataType) + ")",
                 l);
        return;
      }
    }
    uint64_t base = pi.ops[1].effectiveAddress(src[l]);
    ctx.report.addresses[l] = box.map.globalAddress;
    unsigned swizzle = swizzleBytesOf(box.map);
    bool ok = true;
    if (ctx.bulkCopies != nullptr) ctx.bulkCopies->writesGlobal = true;
    forEachElement(box, [&](uint64_t offset, uint64_t address, bool inBounds) {
      if (!ok || !inBounds) return;
      if (ctx.bulkCopies != nullptr) ctx.bulkCopies->touch(address, box.elementBytes);
      uint32_t at = swizzleSharedAddress(static_cast<uint32_t>(base + offset), swizzle);
      const uint8_t* value = ctx.access(AddressSpace::Shared, at, box.elementBytes, l, AccessKind::Load);
      uint8_t* memory = value == nullptr ? nullptr
                                         : ctx.access(AddressSpace::Global, address, box.elementBytes, l,
                                                      reduce != nullptr ? AccessKind::Atomic : AccessKind::Store);
      if (memory == nullptr) {
        ok = false;
        return;
      }
      if (reduce != nullptr)
        reduce(memory, value);
      else
        storeElement(memory, value, box.elementBytes);
    });
  });
  if (ctx.mask != 0) noteMemoryWrite(*ctx.cta);
}

bool selectTensorCopy(const isa::Instruction& inst, PreparedInstruction& pi, SelectContext&, std::string& why) {
  unsigned rank = rankOf(inst);
  Mod mode = inst.modifiers.get(ModGroup::TensorLoadMode);
  if (rank == 0) {
    why = "a tensor copy without its dimension (.1d to .5d)";
    return false;
  }
  bool im2col = mode == Mod::Im2col;
  if (mode != Mod::Tile && mode != Mod::None && !im2col) {
    why = "cp.async.bulk.tensor in this load mode (tile and im2col run; not the sm_100 gather, scatter and "
          "im2col::w modes)";
    return false;
  }
  bool multicast = inst.modifiers.hasGroup(ModGroup::Multicast);
  if (inst.modifiers.hasGroup(ModGroup::CtaGroup)) {
    why = "cp.async.bulk.tensor with .cta_group (sm_100)";
    return false;
  }
  Mod destination = inst.modifiers.get(ModGroup::Space);
  Mod completion = inst.modifiers.get(ModGroup::CompletionMechanism);
  bool load = (destination == Mod::SharedCluster || destination == Mod::SharedCta) &&
              completion == Mod::MbarrierCompleteTxBytes;
  bool store = destination == Mod::Global && completion == Mod::BulkGroup;
  if (!load && !store) {
    why = "this cp.async.bulk.tensor direction or completion mechanism";
    return false;
  }
  if (im2col && (!load || rank < 3)) {
    why = "an im2col tensor copy other than a 3d to 5d load";
    return false;
  }
  if (multicast && !load) {
    why = "a multicast tensor copy other than a load";
    return false;
  }
  unsigned needed = load ? (im2col ? 4 : 3) + (multicast ? 1 : 0) : 2;
  unsigned withPolicy = needed + (inst.modifiers.hasGroup(ModGroup::CacheHint) ? 1 : 0);
  const PreparedOperand& tuple = pi.ops[load ? 1 : 0];
  if (inst.operandCount != withPolicy || tuple.elementCount != rank + 1 ||
      (im2col && pi.ops[3].elementCount != rank - 2)) {
    why = std::string("cp.async.bulk.tensor.") + std::to_string(rank) + "d takes " +
          (load ? "[dst], [map, {" + std::to_string(rank) + " coordinates}], [mbar]" +
                      (im2col ? ", {" + std::to_string(rank - 2) + " offsets}" : "") +
                      (multicast ? ", ctaMask" : "")
                : "[map, {" + std::to_string(rank) + " coordinates}], [src]") +
          " and, with .L2::cache_hint, a cache policy";
    return false;
  }
  pi.aux = rank | (multicast ? kMulticastFlag : 0);
  if (load) {
    pi.aux2 = im2col ? 1 : 0;
    pi.space = AddressSpace::Shared;
    pi.handler = &tensorLoadHandler;
  } else {
    pi.aux2 = static_cast<uint64_t>(inst.opcode == Opcode::CpReduceAsyncBulkTensor
                                        ? inst.modifiers.get(ModGroup::AtomicOp)
                                        : Mod::None);
    pi.space = AddressSpace::Global;
    pi.handler = &tensorStoreHandler;
  }
  return true;
}

// Prefetches warm the L2 and the tensor-map cache; nothing to do here.
void nothingToDo(const PreparedInstruction&, ExecContext&) {}

bool selectTensorPrefetch(const isa::Instruction& inst, PreparedInstruction& pi, SelectContext&,
                          std::string& why) {
  if (inst.opcode == Opcode::CpAsyncBulkPrefetchTensor && rankOf(inst) == 0) {
    why = "a tensor prefetch without its dimension (.1d to .5d)";
    return false;
  }
  pi.handler = &nothingToDo;
  return true;
}

}  // namespace

void registerTensorCopySemantics(SemanticsTable& table) {
  table.add(Opcode::CpAsyncBulkTensor, &selectTensorCopy);
  table.add(Opcode::CpReduceAsyncBulkTensor, &selectTensorCopy);
  table.add(Opcode::CpAsyncBulkPrefetchTensor, &selectTensorPrefetch);
}

}  // namespace ptxsim::sim::semantics
