// Surface instructions on surface objects: suld.b, sust.b, sust.p, sured.b,
// sured.p and suq (PTX ISA, "Surface Instructions").
//
// The surface operand [s, {coordinates}] arrives flattened (preparer.cpp):
// element 0 is the 64-bit surface object handle, then the coordinates:
//   1d {x}   2d {x, y}   3d {x, y, z, _}   a1d {layer, x}   a2d {layer, x, y, _}
// x counts bytes for the .b forms (the element is x / elementBytes) and
// elements for the .p forms; y, z are element rows and slices; the layer is
// unsigned. CUDA's cubemap surface functions use a2d with layer = 6 * cube +
// face, which is our layer numbering, so no cube geometry is needed.
//
// Out-of-bounds coordinates follow the boundary mode: .trap faults (a launch
// error like any memory fault, cudaErrorIllegalAddress), .clamp clamps each
// coordinate to the nearest element, .zero loads zeros and drops stores and
// reductions. The access size must equal the array's element size: a GPU
// leaves other sizes undefined, so the simulator stops with an error there
// rather than guess.

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstring>

#include "../texture/block_linear.h"
#include "lane_ops.h"
#include "semantics.h"
#include "small_float.h"
#include "texture_access.h"

namespace ptxsim::sim::semantics {

namespace {

using exec::AccessKind;
using exec::AddressSpace;
using isa::DataType;
using isa::Mod;
using isa::ModGroup;
using isa::Opcode;

enum class Geometry : uint8_t { D1, D2, D3, A1, A2 };
enum class Boundary : uint8_t { Trap, Clamp, Zero };
enum class Reduction : uint8_t { Add, Min, Max, And, Or };

// What the selector decides, kept in pi.aux.
struct Form {
  Geometry geometry = Geometry::D1;
  Boundary boundary = Boundary::Trap;
  bool formatted = false;  // .p: x counts elements; sust.p converts to the array's format
  uint8_t valueBits = 32;  // of one vector element (the instruction's type)
  uint8_t count = 1;       // vector elements
  DataType type = DataType::B32;
  Reduction reduction = Reduction::Add;

  unsigned accessBytes() const { return valueBits / 8u * count; }
  uint64_t pack() const {
    return uint64_t{static_cast<uint8_t>(geometry)} | uint64_t{static_cast<uint8_t>(boundary)} << 8 |
           uint64_t{formatted} << 16 | uint64_t{valueBits} << 24 | uint64_t{count} << 32 |
           uint64_t{static_cast<uint8_t>(type)} << 40 | uint64_t{static_cast<uint8_t>(reduction)} << 48;
  }
  static Form unpack(uint64_t v) {
    Form f;
    f.geometry = static_cast<Geometry>(v & 0xff);
    f.boundary = static_cast<Boundary>((v >> 8) & 0xff);
    f.formatted = ((v >> 16) & 1) != 0;
    f.valueBits = static_cast<uint8_t>(v >> 24);
    f.count = static_cast<uint8_t>(v >> 32);
    f.type = static_cast<DataType>((v >> 40) & 0xff);
    f.reduction = static_cast<Reduction>((v >> 48) & 0xff);
    return f;
  }
};

// Coordinates the geometry takes (the handle not counted), and how many the
// PTX operand must at least give.
unsigned coordinatesOf(Geometry g) {
  switch (g) {
    case Geometry::D1: return 1;
    case Geometry::D2: return 2;
    case Geometry::D3: return 3;
    case Geometry::A1: return 2;
    case Geometry::A2: return 3;
  }
  return 0;
}

const char* geometryName(Geometry g) {
  switch (g) {
    case Geometry::D1: return "1d";
    case Geometry::D2: return "2d";
    case Geometry::D3: return "3d";
    case Geometry::A1: return "a1d";
    case Geometry::A2: return "a2d";
  }
  return "?";
}

// Geometry and boundary mode of any surface instruction; false with `why`.
bool selectCommon(const isa::Instruction& inst, const PreparedOperand& surface, Form& form, std::string& why) {
  switch (inst.modifiers.get(ModGroup::Geometry)) {
    case Mod::Geom1d: form.geometry = Geometry::D1; break;
    case Mod::Geom2d: form.geometry = Geometry::D2; break;
    case Mod::Geom3d: form.geometry = Geometry::D3; break;
    case Mod::GeomA1d: form.geometry = Geometry::A1; break;
    case Mod::GeomA2d: form.geometry = Geometry::A2; break;
    default:
      why = "surface geometry other than .1d .2d .3d .a1d .a2d";
      return false;
  }
  switch (inst.modifiers.get(ModGroup::Boundary)) {
    case Mod::None:
    case Mod::Trap: form.boundary = Boundary::Trap; break;
    case Mod::ClampMode: form.boundary = Boundary::Clamp; break;
    case Mod::Zero: form.boundary = Boundary::Zero; break;
    default:
      why = "boundary mode";
      return false;
  }
  form.formatted = inst.modifiers.has(Mod::SurfP);
  if (surface.elementCount == 0) {
    why = "surface references (.surfref) are not supported; use surface objects";
    return false;
  }
  if (surface.elementCount < 1 + coordinatesOf(form.geometry)) {
    why = std::string("too few coordinates for .") + geometryName(form.geometry);
    return false;
  }
  form.type = inst.types[0];
  form.valueBits = static_cast<uint8_t>(isa::typeBits(inst.types[0]));
  switch (inst.modifiers.get(ModGroup::Vector)) {
    case Mod::V2: form.count = 2; break;
    case Mod::V4: form.count = 4; break;
    default: form.count = 1; break;
  }
  return true;
}

bool geometryFits(Geometry g, const CudaArray& a) {
  bool layered = a.flags.layered || a.flags.cubemap;
  switch (g) {
    case Geometry::D1: return a.dimensions == 1 && !layered;
    case Geometry::D2: return a.dimensions == 2 && !layered;
    case Geometry::D3: return a.dimensions == 3;
    case Geometry::A1: return a.dimensions == 1 && layered;
    case Geometry::A2: return a.dimensions == 2 && layered;
  }
  return false;
}

enum class Resolved : uint8_t { Texel, Skip, Fault };

// The texel a lane addresses, after the boundary mode; Fault after the
// error was reported, Skip for an out-of-bounds .zero access. `accessBytes`
// must be the element size, except for sust.p (0: any).
Resolved resolve(ExecContext& ctx, const Form& form, unsigned accessBytes, const PreparedOperand& op, unsigned lane,
                 const char* what, const CudaArray*& array, uint64_t& address) {
  const uint32_t* rows = ctx.vectorRows(op);
  uint64_t handle = ctx.row(rows[0])[lane];
  const SurfaceObject* surface = surfaceObject(ctx, handle);
  if (surface == nullptr) {
    ctx.fail(LaunchErrorKind::IllegalAddress,
             std::string(what) + " on " + std::to_string(handle) + ", which is not a live surface object", lane);
    return Resolved::Fault;
  }
  array = surface->resource.array.get();
  if (!geometryFits(form.geometry, *array)) {
    ctx.fail(LaunchErrorKind::IllegalInstruction,
             std::string(what) + "." + geometryName(form.geometry) + " on a surface of another shape (" +
                 std::to_string(array->dimensions) + "D" +
                 (array->flags.layered || array->flags.cubemap ? ", layered" : "") + "): undefined on a GPU",
             lane);
    return Resolved::Fault;
  }
  unsigned elementBytes = array->format.bytes();
  if (accessBytes != 0 && accessBytes != elementBytes) {
    ctx.fail(LaunchErrorKind::Unsupported,
             std::string(what) + " of " + std::to_string(accessBytes) + " bytes on a surface of " +
                 std::to_string(elementBytes) + "-byte elements (undefined on a GPU; the simulator does not guess)",
             lane);
    return Resolved::Fault;
  }
  auto coord = [&](unsigned k) { return static_cast<int64_t>(static_cast<int32_t>(ctx.row(rows[1 + k])[lane])); };
  bool layered = form.geometry == Geometry::A1 || form.geometry == Geometry::A2;
  uint64_t layer = layered ? static_cast<uint32_t>(ctx.row(rows[1])[lane]) : 0;
  unsigned first = layered ? 1 : 0;
  int64_t xRaw = coord(first);
  int64_t y = array->dimensions >= 2 ? coord(first + 1) : 0;
  int64_t z = array->dimensions >= 3 ? coord(first + 2) : 0;
  int64_t x = xRaw;
  if (!form.formatted) {
    if (xRaw % elementBytes != 0) {
      ctx.fail(LaunchErrorKind::MisalignedAddress,
               std::string(what) + " at byte x coordinate " + std::to_string(xRaw) + ", not a multiple of the " +
                   std::to_string(elementBytes) + "-byte element",
               lane);
      return Resolved::Fault;
    }
    x = xRaw / static_cast<int64_t>(elementBytes);
  }
  auto inside = [](int64_t v, uint64_t size) { return v >= 0 && static_cast<uint64_t>(v) < size; };
  bool in = inside(x, array->width) && inside(y, array->height) && inside(z, array->depth) && layer < array->layers;
  if (!in) {
    switch (form.boundary) {
      case Boundary::Zero: return Resolved::Skip;
      case Boundary::Clamp: {
        auto clamp = [](int64_t v, uint64_t size) {
          return static_cast<int64_t>(std::clamp<int64_t>(v, 0, static_cast<int64_t>(size) - 1));
        };
        x = clamp(x, array->width);
        y = clamp(y, array->height);
        z = clamp(z, array->depth);
        layer = std::min<uint64_t>(layer, array->layers - 1);
        break;
      }
      case Boundary::Trap: {
        // Built with append: GCC 12 warns (-Wrestrict, falsely) on "literal" + std::string&&.
        std::string at = "x " + std::to_string(xRaw) + (form.formatted ? "" : " bytes");
        std::string size = std::to_string(array->width);
        if (array->dimensions >= 2) at.append(", y ").append(std::to_string(y));
        if (array->dimensions >= 2) size.append("x").append(std::to_string(array->height));
        if (array->dimensions >= 3) at.append(", z ").append(std::to_string(z));
        if (array->dimensions >= 3) size.append("x").append(std::to_string(array->depth));
        if (layered) at.append(", layer ").append(std::to_string(layer));
        if (layered) size.append(", ").append(std::to_string(array->layers)).append(" layers");
        ctx.fail(LaunchErrorKind::IllegalAddress,
                 std::string(what) + ".trap out of bounds at " + at + " of surface " + std::to_string(handle) + " (" +
                     size + " elements of " + std::to_string(elementBytes) + " bytes)",
                 lane);
        return Resolved::Fault;
      }
    }
  }
  const auto ux = static_cast<uint64_t>(x), uy = static_cast<uint64_t>(y), uz = static_cast<uint64_t>(z);
  address = array->texelAddress(layer, ux, uy, uz);
  ctx.report.addTexel(texture::cacheTexelAddress(*array, layer, ux, uy, uz), lane);  // for the timing model
  return Resolved::Texel;
}

// ------------------------------------------------------------------ suld

void suldHandler(const PreparedInstruction& pi, ExecContext& ctx) {
  Form form = Form::unpack(pi.aux);
  const PreparedOperand& dst = pi.ops[0];
  unsigned bytes = form.valueBits / 8u;
  ctx.recordAccess(AccessKind::Load, AddressSpace::Global, form.accessBytes());
  forLanes(ctx.mask, [&](unsigned l) {
    if (ctx.aborted) return;
    const CudaArray* array = nullptr;
    uint64_t address = 0;
    Resolved r = resolve(ctx, form, form.accessBytes(), pi.ops[1], l, "suld", array, address);
    if (r == Resolved::Fault) return;
    ctx.report.addresses[l] = address;
    const uint8_t* p = nullptr;
    if (r == Resolved::Texel) {
      p = ctx.access(AddressSpace::Global, address, form.accessBytes(), l, AccessKind::Load);
      if (p == nullptr) return;
    }
    for (unsigned e = 0; e < form.count; ++e) {
      uint64_t value = 0;
      if (p != nullptr) std::memcpy(&value, p + e * bytes, bytes);  // little-endian: zero-extended
      uint32_t row = dst.elementCount != 0 ? ctx.vectorRows(dst)[e] : dst.row;
      ctx.row(row)[l] = value;
    }
  });
}

bool selectSuld(const isa::Instruction& inst, PreparedInstruction& pi, SelectContext&, std::string& why) {
  Form form;
  if (!selectCommon(inst, pi.ops[1], form, why)) return false;
  if (form.formatted) {
    why = "suld.p is not in the PTX ISA";
    return false;
  }
  pi.aux = form.pack();
  pi.handler = &suldHandler;
  return true;
}

// ------------------------------------------------------------------ sust

// sust.p: one 32-bit source value (f32 bits for float formats, an integer
// otherwise) as a channel of the array's format; false where the conversion
// is not defined by the ISA well enough to reproduce (narrow integers).
bool formatChannel(uint32_t value, const ElementFormat& f, uint8_t* out) {
  switch (f.bitsPerChannel) {
    case 32: std::memcpy(out, &value, 4); return true;
    case 16:
      if (f.kind == ChannelKind::Float) {
        // Round to nearest even, as cvt.rn.f16.f32.
        auto half = static_cast<uint16_t>(sf::encode(sf::decode(value, sf::kF32), sf::kF16, {}));
        std::memcpy(out, &half, 2);
        return true;
      }
      return false;
    default: return false;
  }
}

void sustHandler(const PreparedInstruction& pi, ExecContext& ctx) {
  Form form = Form::unpack(pi.aux);
  const PreparedOperand& src = pi.ops[1];
  unsigned bytes = form.valueBits / 8u;
  ctx.recordAccess(AccessKind::Store, AddressSpace::Global, form.formatted ? 0 : form.accessBytes());
  forLanes(ctx.mask, [&](unsigned l) {
    if (ctx.aborted) return;
    auto source = [&](unsigned e) {
      return ctx.row(src.elementCount != 0 ? ctx.vectorRows(src)[e] : src.row)[l];
    };
    const CudaArray* array = nullptr;
    uint64_t address = 0;
    // sust.p writes one element of any size, converted to the array's format.
    Resolved r = resolve(ctx, form, form.formatted ? 0 : form.accessBytes(), pi.ops[0], l, "sust", array, address);
    if (r == Resolved::Fault) return;
    ctx.report.addresses[l] = address;
    if (r == Resolved::Skip) return;
    unsigned size = array->format.bytes();
    uint8_t* p = ctx.access(AddressSpace::Global, address, size, l, AccessKind::Store);
    if (p == nullptr) return;
    if (!form.formatted) {
      for (unsigned e = 0; e < form.count; ++e) {
        uint64_t value = source(e);
        std::memcpy(p + e * bytes, &value, bytes);
      }
      return;
    }
    const ElementFormat& f = array->format;
    uint8_t element[16] = {};
    for (unsigned c = 0; c < f.channels; ++c) {
      // Channels the source lacks are unpredictable on a GPU: zero here.
      uint32_t value = c < form.count ? static_cast<uint32_t>(source(c)) : 0;
      if (!formatChannel(value, f, element + c * f.channelBytes())) {
        ctx.fail(LaunchErrorKind::Unsupported,
                 "sust.p to a " + std::to_string(f.bitsPerChannel) +
                     "-bit integer channel (the ISA leaves the narrowing conversion unspecified)",
                 l);
        return;
      }
    }
    std::memcpy(p, element, size);
  });
}

bool selectSust(const isa::Instruction& inst, PreparedInstruction& pi, SelectContext&, std::string& why) {
  Form form;
  if (!selectCommon(inst, pi.ops[0], form, why)) return false;
  DataType t = inst.types[0];
  if (form.formatted ? isa::typeBits(t) != 32 : isa::typeKind(t) != isa::TypeKind::Bits) {
    why = form.formatted ? "sust.p takes .b32 .u32 .s32 .f32" : "sust.b takes .b8 .b16 .b32 .b64";
    return false;
  }
  if (pi.ops[1].elementCount != 0 && pi.ops[1].elementCount != form.count) {
    why = "source vector size differs from the vector modifier";
    return false;
  }
  pi.aux = form.pack();
  pi.handler = &sustHandler;
  return true;
}

// ----------------------------------------------------------------- sured

template <typename T>
T reduce(Reduction op, T old, T b) {
  switch (op) {
    case Reduction::Add: return static_cast<T>(old + b);
    case Reduction::Min: return std::min(old, b);
    case Reduction::Max: return std::max(old, b);
    case Reduction::And: return old & b;
    case Reduction::Or: return old | b;
  }
  return old;
}

template <typename T>
void suredHandler(const PreparedInstruction& pi, ExecContext& ctx) {
  Form form = Form::unpack(pi.aux);
  const uint64_t* b = ctx.row(pi.ops[1].row);
  ctx.recordAccess(AccessKind::Atomic, AddressSpace::Global, sizeof(T));
  forLanes(ctx.mask, [&](unsigned l) {
    if (ctx.aborted) return;
    const CudaArray* array = nullptr;
    uint64_t address = 0;
    Resolved r = resolve(ctx, form, sizeof(T), pi.ops[0], l, "sured", array, address);
    if (r == Resolved::Fault) return;
    ctx.report.addresses[l] = address;
    if (r == Resolved::Skip) return;
    uint8_t* p = ctx.access(AddressSpace::Global, address, sizeof(T), l, AccessKind::Atomic);
    if (p == nullptr) return;
    using U = std::make_unsigned_t<T>;
    // Other CTAs may reduce into the same texel from other host threads.
    std::atomic_ref<U> cell(*reinterpret_cast<U*>(p));
    U expected = cell.load(std::memory_order_relaxed);
    auto operand = static_cast<T>(b[l]);
    while (!cell.compare_exchange_weak(
        expected, static_cast<U>(reduce<T>(form.reduction, static_cast<T>(expected), operand)),
        std::memory_order_relaxed)) {
    }
  });
}

bool selectSured(const isa::Instruction& inst, PreparedInstruction& pi, SelectContext&, std::string& why) {
  Form form;
  if (!selectCommon(inst, pi.ops[0], form, why)) return false;
  if (form.formatted) {
    why = "sured.p (reductions typed by the surface format) is not implemented";
    return false;
  }
  if (form.geometry == Geometry::A1 || form.geometry == Geometry::A2) {
    why = "sured has no layered geometry in the PTX ISA";
    return false;
  }
  DataType t = inst.types[0];
  Mod op = inst.modifiers.get(ModGroup::AtomicOp);
  bool bits = t == DataType::B32 || t == DataType::B64;
  switch (op) {
    case Mod::AtomAdd: form.reduction = Reduction::Add; break;
    case Mod::AtomMin: form.reduction = Reduction::Min; break;
    case Mod::AtomMax: form.reduction = Reduction::Max; break;
    case Mod::AtomAnd: form.reduction = Reduction::And; break;
    case Mod::AtomOr: form.reduction = Reduction::Or; break;
    default:
      why = "sured operation other than .add .min .max .and .or";
      return false;
  }
  bool logical = form.reduction == Reduction::And || form.reduction == Reduction::Or;
  if (logical != bits) {
    why = logical ? "sured .and/.or take .b32/.b64" : "sured .add/.min/.max take .u32 .s32 .u64 .s64";
    return false;
  }
  if (form.reduction == Reduction::Add && t == DataType::S64) {
    why = "sured.add has no .s64 form";
    return false;
  }
  form.count = 1;
  pi.aux = form.pack();
  switch (t) {
    case DataType::U32:
    case DataType::B32: pi.handler = &suredHandler<uint32_t>; return true;
    case DataType::S32: pi.handler = &suredHandler<int32_t>; return true;
    case DataType::U64:
    case DataType::B64: pi.handler = &suredHandler<uint64_t>; return true;
    case DataType::S64: pi.handler = &suredHandler<int64_t>; return true;
    default: why = "sured type"; return false;
  }
}

// ------------------------------------------------------------------- suq

// OpenCL's cl_channel_type and cl_channel_order values, which the PTX ISA
// names for txq/suq .channel_data_type and .channel_order.
uint32_t channelDataType(const ElementFormat& f) {
  switch (f.kind) {
    case ChannelKind::Signed: return f.bitsPerChannel == 8 ? 0x10D7 : f.bitsPerChannel == 16 ? 0x10D8 : 0x10D9;
    case ChannelKind::Unsigned: return f.bitsPerChannel == 8 ? 0x10DA : f.bitsPerChannel == 16 ? 0x10DB : 0x10DC;
    case ChannelKind::Float: return f.bitsPerChannel == 16 ? 0x10DD : 0x10DE;
  }
  return 0;
}

uint32_t channelOrder(const ElementFormat& f) {
  switch (f.channels) {
    case 1: return 0x10B0;  // CL_R
    case 2: return 0x10B2;  // CL_RG
    default: return 0x10B5;  // CL_RGBA
  }
}

void suqHandler(const PreparedInstruction& pi, ExecContext& ctx) {
  auto query = static_cast<Mod>(pi.aux);
  uint64_t* d = ctx.row(pi.ops[0].row);
  const uint64_t* handles = ctx.row(pi.ops[1].row);
  forLanes(ctx.mask, [&](unsigned l) {
    if (ctx.aborted) return;
    const SurfaceObject* s = surfaceObject(ctx, pi.ops[1].effectiveAddress(handles[l]));
    if (s == nullptr) {
      ctx.fail(LaunchErrorKind::IllegalAddress,
               "suq on " + std::to_string(handles[l]) + ", which is not a live surface object", l);
      return;
    }
    const CudaArray& a = *s->resource.array;
    uint64_t value = 0;
    switch (query) {
      case Mod::QWidth: value = a.width; break;
      case Mod::QHeight: value = a.height; break;
      case Mod::QDepth: value = a.depth; break;
      case Mod::QChannelDataType: value = channelDataType(a.format); break;
      case Mod::QChannelOrder: value = channelOrder(a.format); break;
      case Mod::QArraySize: value = a.flags.layered || a.flags.cubemap ? a.layers : 1; break;
      case Mod::QMemoryLayout: value = 0; break;  // arrays are block-linear (opaque), never pitch-linear
      default: break;
    }
    d[l] = static_cast<uint32_t>(value);
  });
}

bool selectSuq(const isa::Instruction& inst, PreparedInstruction& pi, SelectContext&, std::string& why) {
  Mod q = inst.modifiers.get(ModGroup::Query);
  switch (q) {
    case Mod::QWidth:
    case Mod::QHeight:
    case Mod::QDepth:
    case Mod::QChannelDataType:
    case Mod::QChannelOrder:
    case Mod::QArraySize:
    case Mod::QMemoryLayout: break;
    default:
      why = "suq query other than .width .height .depth .channel_data_type .channel_order .array_size "
            ".memory_layout";
      return false;
  }
  if (pi.ops[1].row == exec::kNoRow || pi.ops[1].elementCount != 0) {
    why = "suq takes [surface object register]";
    return false;
  }
  pi.aux = static_cast<uint64_t>(q);
  pi.handler = &suqHandler;
  return true;
}

}  // namespace

void registerSurfaceSemantics(SemanticsTable& table) {
  table.add(Opcode::Suld, &selectSuld);
  table.add(Opcode::Sust, &selectSust);
  table.add(Opcode::Sured, &selectSured);
  table.add(Opcode::Suq, &selectSuq);
}

}  // namespace ptxsim::sim::semantics
