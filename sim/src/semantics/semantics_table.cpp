#include "semantics.h"

namespace ptxsim::sim::semantics {

TypeClass typeClassOf(isa::DataType type) {
  using isa::DataType;
  switch (type) {
    case DataType::F32:
    case DataType::F64: return TypeClass::Float;
    case DataType::F16:
    case DataType::F16x2:
    case DataType::BF16:
    case DataType::BF16x2: return TypeClass::Half;
    case DataType::U16x2:
    case DataType::S16x2: return TypeClass::PackedInteger;
    default: break;
  }
  switch (isa::typeKind(type)) {
    case isa::TypeKind::Bits:
    case isa::TypeKind::Signed:
    case isa::TypeKind::Unsigned: return TypeClass::Integer;
    default: return TypeClass::Any;
  }
}

const SemanticsTable& semanticsTable() {
  // Built on first use and never changed afterwards: immutable, so safe to
  // share between host threads.
  static const SemanticsTable table = [] {
    SemanticsTable t;
    registerIntegerSemantics(t);
    registerLogicSemantics(t);
    registerCompareSemantics(t);
    registerFloatSemantics(t);
    registerHalfSemantics(t);
    registerConvertSemantics(t);
    registerConvertPackSemantics(t);
    registerDataMovementSemantics(t);
    registerAtomicSemantics(t);
    registerControlSemantics(t);
    registerSyncSemantics(t);
    registerWarpCollectiveSemantics(t);
    registerMiscSemantics(t);
    registerAsyncCopySemantics(t);
    registerMbarrierSemantics(t);
    registerBulkCopySemantics(t);
    registerTensorCopySemantics(t);
    registerTensorMapUpdateSemantics(t);
    registerVideoSemantics(t);
    registerSurfaceSemantics(t);
    registerTextureSemantics(t);
    registerMatrixMmaSemantics(t);
    registerMatrixMmaSparseSemantics(t);
    registerMatrixWmmaSemantics(t);
    registerMatrixWmmaMmaSemantics(t);
    registerMatrixWgmmaSemantics(t);
    registerMatrixLoadSemantics(t);
    return t;
  }();
  return table;
}

}  // namespace ptxsim::sim::semantics
