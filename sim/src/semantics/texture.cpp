// tex, tld4, txq and istypep on texture objects (unified texture mode: the texture operand is a .b64
// register holding a cudaTextureObject_t). The sampling arithmetic is sim/src/texture/sampling.h; this
// file binds operands and resources to it.
//
// Measured on an H100 (CUDA 13 driver), where the ISA leaves it open:
//  - txq.width/height/depth: a 1D array's height is 1, a linear resource's 0; depth is the depth of a
//    3D array, the layer count of a layered array (cubemap layers for a layered cubemap), else 0;
//    txq.level.* gives the level's size, 0 past the last level (and for levels > 0 of a texture
//    that is not mipmapped);
//  - every other txq query on a texture object makes the kernel fail to launch
//    (cudaErrorNotFound), so those forms are refused at load;
//  - istypep .texref/.samplerref/.surfref is false for every texture-object handle.

#include <bit>
#include <cstdio>
#include <string>

#include "../texture/resource_source.h"
#include "../texture/sampling.h"
#include "lane_ops.h"
#include "semantics.h"
#include "texture_access.h"
#include "../hex_text.h"

namespace ptxsim::sim::semantics {

namespace {

using isa::DataType;
using isa::Mod;
using isa::ModGroup;
using isa::Opcode;
using isa::OperandKind;

enum class TexGeometry : uint8_t { D1, D2, D3, A1, A2, Cube, ACube };
enum class LodForm : uint8_t { Base, Level, Grad };

// pi.aux: geometry | integer coordinates << 4 | lod form << 5 | tld4 component << 8 | txq query << 12.
struct TexMode {
  TexGeometry geometry = TexGeometry::D2;
  bool intCoords = false;
  LodForm lod = LodForm::Base;
  unsigned component = 0;
  unsigned query = 0;

  uint64_t pack() const {
    return static_cast<uint64_t>(geometry) | uint64_t{intCoords} << 4 | static_cast<uint64_t>(lod) << 5 |
           uint64_t{component} << 8 | uint64_t{query} << 12;
  }
  static TexMode unpack(uint64_t a) {
    TexMode m;
    m.geometry = static_cast<TexGeometry>(a & 0xf);
    m.intCoords = ((a >> 4) & 1) != 0;
    m.lod = static_cast<LodForm>((a >> 5) & 3);
    m.component = (a >> 8) & 3;
    m.query = (a >> 12) & 0xf;
    return m;
  }
};

const char* geometryName(TexGeometry g) {
  static constexpr const char* kNames[] = {"1d", "2d", "3d", "a1d", "a2d", "cube", "acube"};
  return kNames[static_cast<unsigned>(g)];
}

bool layered(TexGeometry g) { return g == TexGeometry::A1 || g == TexGeometry::A2 || g == TexGeometry::ACube; }

// Elements of the coordinate vector: a layer index first for the layered forms; 3D and cube forms
// take four (the last ignored, or the layer of acube).
unsigned coordinateCount(TexGeometry g) {
  switch (g) {
    case TexGeometry::D1: return 1;
    case TexGeometry::D2:
    case TexGeometry::A1: return 2;
    default: return 4;
  }
}

// Elements the gradients need (dPdx and dPdy may carry more; extra ones are ignored).
unsigned gradientCount(TexGeometry g) {
  switch (g) {
    case TexGeometry::D1:
    case TexGeometry::A1: return 1;
    case TexGeometry::D2:
    case TexGeometry::A2: return 2;
    default: return 3;
  }
}

// The geometry a texture object's resource has, as tex names it.
TexGeometry resourceGeometry(const ResourceView& view) {
  if (view.kind == ResourceKind::Linear) return TexGeometry::D1;
  if (view.kind == ResourceKind::Pitch2D) return TexGeometry::D2;
  const CudaArray& a = view.kind == ResourceKind::MipmappedArray ? *view.mipmapped->levels.front() : *view.array;
  if (a.flags.cubemap) return a.flags.layered ? TexGeometry::ACube : TexGeometry::Cube;
  if (a.flags.layered) return a.dimensions == 1 ? TexGeometry::A1 : TexGeometry::A2;
  return a.dimensions == 1 ? TexGeometry::D1 : a.dimensions == 2 ? TexGeometry::D2 : TexGeometry::D3;
}

// The texture object of `lane`'s handle and whether the instruction may read it; fails the launch
// otherwise (returns null).
const TextureObject* resolve(ExecContext& ctx, const char* what, uint64_t handle, TexGeometry g, bool intCoords,
                             unsigned lane) {
  const TextureObject* t = textureObject(ctx, handle);
  if (t == nullptr) {
    ctx.fail(LaunchErrorKind::IllegalAddress,
             std::string(what) + ": handle " + hex(handle) + " is not a live texture object", lane);
    return nullptr;
  }
  const TexGeometry have = resourceGeometry(t->resource);
  if (have != g) {
    ctx.fail(LaunchErrorKind::Unsupported,
             std::string(what) + "." + geometryName(g) + " on a " + geometryName(have) + " texture", lane);
    return nullptr;
  }
  const bool linear = t->resource.kind == ResourceKind::Linear;
  if (linear && !intCoords) {
    ctx.fail(LaunchErrorKind::Unsupported,
             std::string(what) + " with float coordinates on a linear-memory texture (only tex1Dfetch's integer "
                                 "coordinates are modelled)",
             lane);
    return nullptr;
  }
  if (!linear && intCoords) {
    ctx.fail(LaunchErrorKind::Unsupported,
             std::string(what) + " with integer coordinates on an array or pitch2D texture: not modelled", lane);
    return nullptr;
  }
  return t;
}

float lanesFloat(const ExecContext& ctx, uint32_t row, unsigned lane) {
  return std::bit_cast<float>(static_cast<uint32_t>(ctx.row(row)[lane]));
}

// The sampler's request for one lane: coordinates (after the layer for layered forms) and LOD.
texture::Request request(const PreparedInstruction& pi, const ExecContext& ctx, const TexMode& m, unsigned lane) {
  const uint32_t* tuple = ctx.vectorRows(pi.ops[1]);
  const uint32_t* coords = tuple + 1;
  texture::Request r;
  switch (m.geometry) {
    case TexGeometry::D1:
    case TexGeometry::A1: r.geometry = texture::Geometry::Dim1; break;
    case TexGeometry::D2:
    case TexGeometry::A2: r.geometry = texture::Geometry::Dim2; break;
    case TexGeometry::D3: r.geometry = texture::Geometry::Dim3; break;
    default: r.geometry = texture::Geometry::Cube; break;
  }
  unsigned first = 0;
  if (layered(m.geometry)) {
    r.layered = true;
    r.layer = static_cast<int32_t>(static_cast<uint32_t>(ctx.row(coords[0])[lane]));
    first = 1;
  }
  const unsigned dims = gradientCount(m.geometry);
  for (unsigned d = 0; d < dims; ++d) r.coord[d] = lanesFloat(ctx, coords[first + d], lane);
  if (m.lod == LodForm::Level) {
    r.lod.kind = texture::Lod::Kind::Level;
    r.lod.level = lanesFloat(ctx, pi.ops[2].row, lane);
  } else if (m.lod == LodForm::Grad) {
    r.lod.kind = texture::Lod::Kind::Gradient;
    const uint32_t* dx = ctx.vectorRows(pi.ops[2]);
    const uint32_t* dy = ctx.vectorRows(pi.ops[3]);
    for (unsigned d = 0; d < dims; ++d) {
      r.lod.dPdx[d] = lanesFloat(ctx, dx[d], lane);
      r.lod.dPdy[d] = lanesFloat(ctx, dy[d], lane);
    }
  }
  return r;
}

void writeResult(const PreparedInstruction& pi, ExecContext& ctx, const texture::Sample& s, unsigned lane) {
  const uint32_t* d = ctx.vectorRows(pi.ops[0]);
  for (unsigned c = 0; c < 4; ++c) ctx.row(d[c])[lane] = s.bits[c];
}

void noteReads(ExecContext& ctx, const texture::ResourceTexelSource& src, unsigned lane) {
  for (const auto& read : src.reads()) noteTextureRead(ctx, read.address, read.bytes, lane);
}

// The lane's texels in the step report, for the timing model's texture path:
// where the caches see them.
void reportTexels(ExecContext& ctx, const texture::ResourceTexelSource& src, unsigned lane) {
  const auto& reads = src.reads();
  if (reads.empty()) return;
  ctx.report.addresses[lane] = reads.front().address;
  for (const auto& read : reads) {
    ctx.report.addTexel(read.cacheAddress, lane);
    ctx.report.accessBytes = std::max(ctx.report.accessBytes, static_cast<uint8_t>(read.bytes));
  }
}

// One lane of tex (isGather false) or tld4; false after failing the launch.
bool fetchLane(const PreparedInstruction& pi, ExecContext& ctx, const TexMode& m, bool isGather, unsigned lane) {
  const char* what = isGather ? "tld4" : "tex";
  const uint32_t* tuple = ctx.vectorRows(pi.ops[1]);
  const TextureObject* t = resolve(ctx, what, ctx.row(tuple[0])[lane], m.geometry, m.intCoords, lane);
  if (t == nullptr) return false;
  texture::ResourceTexelSource src(t->resource, ctx.grid.store);
  texture::SamplerDesc desc = texture::samplerDescOf(t->desc);
  texture::Result res;
  if (m.intCoords) {
    // tex1Dfetch: texel i of the linear memory, unfiltered; out of range reads as the zero border.
    const auto i = static_cast<int32_t>(static_cast<uint32_t>(ctx.row(tuple[1])[lane]));
    const int width = src.extent(0).width;
    texture::SingleTexelSource one(src, i);
    desc.filter = texture::FilterMode::Point;
    desc.normalizedCoords = false;
    desc.address = {texture::AddressMode::Border, texture::AddressMode::Border, texture::AddressMode::Border};
    desc.border = {0.f, 0.f, 0.f, 0.f};
    texture::Request r;
    r.geometry = texture::Geometry::Dim1;
    r.coord = {(i >= 0 && i < width) ? 0.5f : -1.f, 0.f, 0.f};
    res = texture::sample(one, desc, r);
  } else if (isGather) {
    res = texture::gather(src, desc, request(pi, ctx, m, lane), static_cast<int>(m.component));
  } else {
    res = texture::sample(src, desc, request(pi, ctx, m, lane));
  }
  if (res.unsupported) {
    ctx.fail(LaunchErrorKind::Unsupported, std::string(what) + ": " + *res.unsupported, lane);
    return false;
  }
  writeResult(pi, ctx, res.sample, lane);
  noteReads(ctx, src, lane);
  reportTexels(ctx, src, lane);
  return true;
}

template <bool IsGather>
void fetchHandler(const PreparedInstruction& pi, ExecContext& ctx) {
  const TexMode m = TexMode::unpack(pi.aux);
  ctx.recordAccess(AccessKind::Load, AddressSpace::Texture, 0);  // accessBytes: the texels' (reportTexels)
  for (LaneMask mask = ctx.mask; mask != 0; mask &= mask - 1) {
    if (!fetchLane(pi, ctx, m, IsGather, static_cast<unsigned>(std::countr_zero(mask)))) return;
  }
}

// ----------------------------------------------------------------------------------------- txq

enum class Query : uint8_t { Width, Height, Depth };

// A query of one level of an array, as measured (see the top of the file).
uint32_t arrayQuery(const CudaArray& a, Query q) {
  switch (q) {
    case Query::Width: return static_cast<uint32_t>(a.width);
    case Query::Height: return static_cast<uint32_t>(a.height);  // 1 for 1D arrays
    case Query::Depth:
      if (a.flags.cubemap) return a.flags.layered ? static_cast<uint32_t>(a.layers / 6) : 0;
      if (a.flags.layered) return static_cast<uint32_t>(a.layers);
      return a.dimensions == 3 ? static_cast<uint32_t>(a.depth) : 0;
  }
  return 0;
}

uint32_t textureQuery(const ResourceView& v, Query q, int64_t level) {
  switch (v.kind) {
    case ResourceKind::Linear:
      if (level != 0) return 0;
      return q == Query::Width ? static_cast<uint32_t>(v.sizeInBytes / v.format.bytes()) : 0;
    case ResourceKind::Pitch2D:
      if (level != 0) return 0;
      return q == Query::Width ? static_cast<uint32_t>(v.width) : q == Query::Height ? static_cast<uint32_t>(v.height) : 0;
    case ResourceKind::Array: return level == 0 ? arrayQuery(*v.array, q) : 0;
    case ResourceKind::MipmappedArray:
      if (level < 0 || level >= static_cast<int64_t>(v.mipmapped->levels.size())) return 0;
      return arrayQuery(*v.mipmapped->levels[static_cast<size_t>(level)], q);
  }
  return 0;
}

void txqHandler(const PreparedInstruction& pi, ExecContext& ctx) {
  const TexMode m = TexMode::unpack(pi.aux);
  const auto q = static_cast<Query>(m.query);
  const uint64_t* handles = ctx.row(pi.ops[1].row);
  uint64_t* d = ctx.row(pi.ops[0].row);
  for (LaneMask mask = ctx.mask; mask != 0; mask &= mask - 1) {
    const auto lane = static_cast<unsigned>(std::countr_zero(mask));
    const TextureObject* t = textureObject(ctx, handles[lane]);
    if (t == nullptr) {
      ctx.fail(LaunchErrorKind::IllegalAddress, "txq: handle " + hex(handles[lane]) + " is not a live texture object",
               lane);
      return;
    }
    const int64_t level =
        m.lod == LodForm::Level ? static_cast<int32_t>(static_cast<uint32_t>(ctx.row(pi.ops[2].row)[lane])) : 0;
    d[lane] = textureQuery(t->resource, q, level);
  }
}

// istypep: false for every value (measured for texture-object handles of every kind).
void istypepHandler(const PreparedInstruction& pi, ExecContext& ctx) {
  uint64_t* d = ctx.row(pi.ops[0].row);
  forLanes(ctx.mask, [&](unsigned l) { d[l] = 0; });
}

// ----------------------------------------------------------------------------------- selectors

bool geometryOf(const isa::Instruction& inst, TexGeometry& g, std::string& why) {
  switch (inst.modifiers.get(ModGroup::Geometry)) {
    case Mod::Geom1d: g = TexGeometry::D1; return true;
    case Mod::Geom2d: g = TexGeometry::D2; return true;
    case Mod::Geom3d: g = TexGeometry::D3; return true;
    case Mod::GeomA1d: g = TexGeometry::A1; return true;
    case Mod::GeomA2d: g = TexGeometry::A2; return true;
    case Mod::GeomCube: g = TexGeometry::Cube; return true;
    case Mod::GeomAcube: g = TexGeometry::ACube; return true;
    case Mod::Geom2dms:
    case Mod::GeomA2dms: why = "multisample textures (.2dms, .a2dms) are not modelled"; return false;
    default: why = "a texture geometry modifier is required"; return false;
  }
}

const isa::Operand& irOperand(const isa::Instruction& inst, SelectContext& sc, unsigned i) {
  return sc.function.operands[inst.firstOperand + i];
}

// The destination {d0..d3} (no `|p`) and the texture operand [handle, {coords}] of tex/tld4.
bool checkFetchOperands(const isa::Instruction& inst, PreparedInstruction& pi, SelectContext& sc, TexGeometry g,
                        std::string& why) {
  const isa::Operand& dst = irOperand(inst, sc, 0);
  if (dst.secondIndex != isa::kNone) {
    why = "the `|p` residency predicate destination is not modelled";
    return false;
  }
  if (pi.ops[0].elementCount != 4) {
    why = "the destination must be a four-element vector";
    return false;
  }
  const isa::Operand& tex = irOperand(inst, sc, 1);
  if (tex.kind != OperandKind::AddressTuple || tex.count != 2) {
    why = tex.kind == OperandKind::AddressTuple && tex.count == 3
              ? "an explicit sampler operand [tex, sampler, coords] (independent texture mode) is not modelled"
              : "the texture operand must be [handle, {coordinates}]";
    return false;
  }
  const isa::Operand& handle = sc.function.operands[tex.index];
  if (handle.kind != OperandKind::Register) {
    why = "texture references (.texref variables) are not modelled: only texture objects held in a .b64 register";
    return false;
  }
  if (pi.ops[1].elementCount != 1 + coordinateCount(g)) {
    why = std::string(geometryName(g));
    why.insert(0, 1, '.');
    why += " takes " + std::to_string(coordinateCount(g)) + " coordinates";
    return false;
  }
  return true;
}

bool selectTex(const isa::Instruction& inst, PreparedInstruction& pi, SelectContext& sc, std::string& why) {
  TexMode m;
  if (!geometryOf(inst, m.geometry, why)) return false;
  const DataType d = inst.types[0];
  if (d != DataType::F32 && d != DataType::S32 && d != DataType::U32) {
    why = "tex with .f16 or .f16x2 results is not modelled";
    return false;
  }
  if (!inst.modifiers.has(Mod::V4)) {
    why = "only the .v4 form of tex is modelled";
    return false;
  }
  m.intCoords = inst.types[1] == DataType::S32;
  const Mod level = inst.modifiers.get(ModGroup::TexLevel);
  m.lod = level == Mod::Level ? LodForm::Level : level == Mod::Grad ? LodForm::Grad : LodForm::Base;
  if (m.intCoords && (m.geometry != TexGeometry::D1 || m.lod != LodForm::Base)) {
    why = "integer coordinates are modelled only for tex.1d (tex1Dfetch on linear memory)";
    return false;
  }
  if (!checkFetchOperands(inst, pi, sc, m.geometry, why)) return false;
  const unsigned expected = m.lod == LodForm::Base ? 2 : m.lod == LodForm::Level ? 3 : 4;
  if (inst.operandCount != expected) {
    why = "coordinate offset and depth-compare operands are not modelled";
    return false;
  }
  if (m.lod == LodForm::Grad &&
      (pi.ops[2].elementCount < gradientCount(m.geometry) || pi.ops[3].elementCount < gradientCount(m.geometry))) {
    why = "the gradients need " + std::to_string(gradientCount(m.geometry)) + " elements";
    return false;
  }
  pi.aux = m.pack();
  pi.handler = &fetchHandler<false>;
  return true;
}

bool selectTld4(const isa::Instruction& inst, PreparedInstruction& pi, SelectContext& sc, std::string& why) {
  TexMode m;
  if (!geometryOf(inst, m.geometry, why)) return false;
  if (m.geometry != TexGeometry::D2 && m.geometry != TexGeometry::A2) {
    why = "tld4 gathers from .2d and .a2d textures only";
    return false;
  }
  switch (inst.modifiers.get(ModGroup::Component)) {
    case Mod::CompR: m.component = 0; break;
    case Mod::CompG: m.component = 1; break;
    case Mod::CompB: m.component = 2; break;
    case Mod::CompA: m.component = 3; break;
    default: why = "a component (.r .g .b .a) is required"; return false;
  }
  if (!checkFetchOperands(inst, pi, sc, m.geometry, why)) return false;
  if (inst.operandCount != 2) {
    why = "coordinate offset and depth-compare operands are not modelled";
    return false;
  }
  pi.aux = m.pack();
  pi.handler = &fetchHandler<true>;
  return true;
}

bool selectTxq(const isa::Instruction& inst, PreparedInstruction& pi, SelectContext& sc, std::string& why) {
  TexMode m;
  switch (inst.modifiers.get(ModGroup::Query)) {
    case Mod::QWidth: m.query = static_cast<unsigned>(Query::Width); break;
    case Mod::QHeight: m.query = static_cast<unsigned>(Query::Height); break;
    case Mod::QDepth: m.query = static_cast<unsigned>(Query::Depth); break;
    default:
      why = "on an H100 a kernel with this txq query on a texture object fails to launch (cudaErrorNotFound, "
            "measured); only .width, .height and .depth are modelled";
      return false;
  }
  m.lod = inst.modifiers.has(Mod::Level) ? LodForm::Level : LodForm::Base;
  const isa::Operand& tex = irOperand(inst, sc, 1);
  if (tex.kind != OperandKind::Address || tex.scope != isa::SymbolScope::Register || tex.value != 0) {
    why = "texture references (.texref variables) are not modelled: only texture objects held in a .b64 register";
    return false;
  }
  if (inst.operandCount != (m.lod == LodForm::Level ? 3u : 2u)) {
    why = "txq takes d, [handle] (and the level with .level)";
    return false;
  }
  pi.aux = m.pack();
  pi.handler = &txqHandler;
  return true;
}

bool selectIstypep(const isa::Instruction&, PreparedInstruction& pi, SelectContext&, std::string&) {
  pi.handler = &istypepHandler;
  return true;
}

}  // namespace

void registerTextureSemantics(SemanticsTable& table) {
  table.add(Opcode::Tex, &selectTex);
  table.add(Opcode::Tld4, &selectTld4);
  table.add(Opcode::Txq, &selectTxq);
  table.add(Opcode::Istypep, &selectIstypep);
}

}  // namespace ptxsim::sim::semantics
