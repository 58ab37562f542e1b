// Tensor maps changed on the device, as grouped GEMMs change them:
// tensormap.replace rewrites one field of a 128-byte tensor map in global
// or shared memory (the global address, the rank, a box or global
// dimension, a global or element stride, the element type, the interleave,
// swizzle or fill mode); tensormap.cp_fenceproxy copies a map from shared
// to global memory, publishing it to the tensor memory accelerator. The
// map is the simulator's own encoding (tensor_map.h), so a replacement
// rewrites that encoding's field; the values take PTX's encodings (the
// element type's numbering differs from CUtensorMapDataType's). The proxy
// fences around them order nothing the functional model reorders.

#include <cstring>

#include "../hex_text.h"
#include "lane_ops.h"
#include "ptxsim/sim/tensor_map.h"
#include "semantics.h"

namespace ptxsim::sim::semantics {

namespace {

using exec::AccessKind;
using exec::AddressSpace;
using isa::Mod;
using isa::ModGroup;
using isa::Opcode;

// PTX's element types (tensormap.replace .elemtype, 0 to 12) as
// CUtensorMapDataType; the first eight agree.
uint8_t mapTypeOfPtx(uint64_t ptxType) {
  constexpr uint8_t kF32Ftz = 10, kF64 = 8, kBF16 = 9;
  switch (ptxType) {
    case 8: return kF32Ftz;  // .f32.ftz
    case 9: return kF64;
    case 10: return kBF16;
    default: return static_cast<uint8_t>(ptxType);
  }
}

unsigned bitsOfMapType(uint8_t type) {
  switch (type) {
    case 0: return 8;
    case 1:
    case 6:
    case 9: return 16;
    case 4:
    case 5:
    case 8: return 64;
    default: return 32;
  }
}

// Applies one replacement; false with `why` for a value the field cannot hold.
bool replaceField(TensorMapDescriptor& map, Mod field, uint64_t ordinal, uint64_t value, std::string& why) {
  auto needOrdinal = [&](unsigned limit) {
    if (ordinal < limit) return true;
    why = "the dimension " + std::to_string(ordinal) + " is past the tensor map's " + std::to_string(limit);
    return false;
  };
  switch (field) {
    case Mod::FieldGlobalAddress: map.globalAddress = value; return true;
    case Mod::FieldRank:
      if (value >= kTensorMapMaxRank) {
        why = "a rank of " + std::to_string(value + 1);
        return false;
      }
      map.rank = static_cast<uint8_t>(value + 1);  // the value is the rank less one
      return true;
    case Mod::FieldBoxDim:
      if (!needOrdinal(kTensorMapMaxRank)) return false;
      if (value == 0 || value > 256) {
        why = "a box dimension of " + std::to_string(value);
        return false;
      }
      map.boxDimMinusOne[ordinal] = static_cast<uint8_t>(value - 1);
      return true;
    case Mod::FieldGlobalDim:
      if (!needOrdinal(kTensorMapMaxRank)) return false;
      if (value == 0) {
        why = "a global dimension of 0";
        return false;
      }
      map.globalDimMinusOne[ordinal] = static_cast<uint32_t>(value - 1);
      return true;
    case Mod::FieldGlobalStride:
      if (!needOrdinal(kTensorMapMaxRank - 1)) return false;
      map.globalStrides[ordinal] = value;
      return true;
    case Mod::FieldElementStride:
      if (!needOrdinal(kTensorMapMaxRank)) return false;
      if (value == 0 || value > 8) {
        why = "an element stride of " + std::to_string(value);
        return false;
      }
      map.elementStrides[ordinal] = static_cast<uint8_t>(value);
      return true;
    case Mod::FieldElemtype:
      map.dataType = mapTypeOfPtx(value);
      map.elementBits = static_cast<uint8_t>(bitsOfMapType(map.dataType));
      return true;
    case Mod::FieldInterleaveLayout: map.interleave = static_cast<uint8_t>(value); return true;
    case Mod::FieldSwizzleMode: map.swizzle = static_cast<uint8_t>(value); return true;
    case Mod::FieldFillMode: map.oobFill = static_cast<uint8_t>(value); return true;
    default: why = "this field"; return false;
  }
}

// pi.aux: the field (Mod); pi.aux2: 1 when the form takes an ordinal.
void replaceHandler(const PreparedInstruction& pi, ExecContext& ctx) {
  const auto field = static_cast<Mod>(pi.aux);
  const bool withOrdinal = pi.aux2 != 0;
  const uint64_t* address = ctx.row(pi.ops[0].row);
  const uint64_t* ordinals = withOrdinal ? ctx.row(pi.ops[1].row) : nullptr;
  const uint64_t* values = ctx.row(pi.ops[withOrdinal ? 2 : 1].row);
  ctx.recordAccess(AccessKind::Store, pi.space, 16);
  exec::forLanes(ctx.mask, [&](unsigned l) {
    if (ctx.aborted) return;
    uint64_t at = pi.ops[0].effectiveAddress(address[l]);
    ctx.report.addresses[l] = at;
    uint8_t* bytes = ctx.access(pi.space, at, 128, l, AccessKind::Store);
    if (bytes == nullptr) return;
    std::optional<TensorMapDescriptor> map = readTensorMap(bytes);
    if (!map) {
      ctx.fail(LaunchErrorKind::IllegalInstruction,
               "tensormap.replace: the 128 bytes at " + hex(at) + " are not a tensor map the driver encoded", l);
      return;
    }
    std::string why;
    if (!replaceField(*map, field, withOrdinal ? ordinals[l] : 0, values[l], why)) {
      ctx.fail(LaunchErrorKind::IllegalInstruction, "tensormap.replace: " + why, l);
      return;
    }
    writeTensorMap(*map, bytes);
  });
}

bool selectReplace(const isa::Instruction& inst, PreparedInstruction& pi, SelectContext&, std::string& why) {
  Mod field = inst.modifiers.get(ModGroup::Query);
  bool withOrdinal = field == Mod::FieldBoxDim || field == Mod::FieldGlobalDim ||
                     field == Mod::FieldGlobalStride || field == Mod::FieldElementStride;
  if (field == Mod::FieldSwizzleAtomicity) {
    why = "tensormap.replace .swizzle_atomicity (sm_100)";
    return false;
  }
  if (inst.operandCount != (withOrdinal ? 3u : 2u)) {
    why = withOrdinal ? "tensormap.replace of this field takes [map], ordinal, value"
                      : "tensormap.replace of this field takes [map], value";
    return false;
  }
  Mod space = inst.modifiers.get(ModGroup::Space);
  pi.space = space == Mod::SharedCta ? AddressSpace::Shared : space == Mod::Global ? AddressSpace::Global
                                                                                 : AddressSpace::Generic;
  pi.aux = static_cast<uint64_t>(field);
  pi.aux2 = withOrdinal ? 1 : 0;
  pi.handler = &replaceHandler;
  return true;
}

// tensormap.cp_fenceproxy.global.shared::cta...: [dst], [src], 128.
void copyMapHandler(const PreparedInstruction& pi, ExecContext& ctx) {
  const uint64_t* dst = ctx.row(pi.ops[0].row);
  const uint64_t* src = ctx.row(pi.ops[1].row);
  ctx.recordAccess(AccessKind::Store, AddressSpace::Global, 16);
  exec::forLanes(ctx.mask, [&](unsigned l) {
    if (ctx.aborted) return;
    const uint8_t* from =
        ctx.access(AddressSpace::Shared, pi.ops[1].effectiveAddress(src[l]), 128, l, AccessKind::Load);
    if (from == nullptr) return;
    uint8_t map[128];
    std::memcpy(map, from, sizeof map);
    uint8_t* to = ctx.access(AddressSpace::Global, pi.ops[0].effectiveAddress(dst[l]), 128, l, AccessKind::Store);
    if (to != nullptr) std::memcpy(to, map, sizeof map);
  });
}

bool selectCopyMap(const isa::Instruction& inst, PreparedInstruction& pi, SelectContext& sc, std::string& why) {
  const isa::Operand& size = sc.function.operands[inst.firstOperand + 2];
  if (size.kind != isa::OperandKind::Immediate || size.value != 128) {
    why = "tensormap.cp_fenceproxy copies 128 bytes";
    return false;
  }
  pi.space = AddressSpace::Global;
  pi.handler = &copyMapHandler;
  return true;
}

}  // namespace

void registerTensorMapUpdateSemantics(SemanticsTable& table) {
  table.add(Opcode::TensormapReplace, &selectReplace);
  table.add(Opcode::TensormapCpFenceproxy, &selectCopyMap);
}

}  // namespace ptxsim::sim::semantics
