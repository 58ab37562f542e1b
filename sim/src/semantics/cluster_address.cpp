#include "cluster_address.h"

#include "../exec/cluster_geometry.h"
#include "../hex_text.h"
#include "ptxsim/memory/cluster_shared_address.h"
#include "ptxsim/memory/generic_address.h"

namespace ptxsim::sim::semantics {

namespace {

using exec::forLanes;

// aux: 1 for the generic form (addresses in the generic shared window),
// 0 for .shared::cluster addresses.
bool isGenericForm(const isa::Instruction& inst) {
  return inst.modifiers.get(isa::ModGroup::Space) == isa::Mod::None;
}

// The .shared::cluster address behind operand value `a` for `lane`; false,
// with the launch failed, for a generic address outside shared memory.
bool clusterAddressOf(const PreparedInstruction& pi, ExecContext& ctx, uint64_t a, unsigned lane,
                      uint64_t& out) {
  if (pi.aux == 0) {
    out = a;
    return true;
  }
  if (memory::classify(ctx.layout, a) != memory::Window::Shared) {
    ctx.fail(LaunchErrorKind::IllegalAddress,
             std::string(isa::mnemonicOf(pi.source->opcode)) + ": the generic address " + hex(a) +
                 " is not in shared memory",
             lane);
    return false;
  }
  out = a - ctx.layout.sharedBase;
  return true;
}

template <typename T>
void mapaHandler(const PreparedInstruction& pi, ExecContext& ctx) {
  uint64_t* d = ctx.row(pi.ops[0].row);
  const uint64_t* a = ctx.row(pi.ops[1].row);
  const uint64_t* b = ctx.row(pi.ops[2].row);
  const uint64_t size = clusterSizeOf(ctx);
  forLanes(ctx.mask, [&](unsigned l) {
    if (ctx.aborted) return;
    uint64_t rank = static_cast<uint32_t>(b[l]);
    if (rank >= size) {
      ctx.fail(
          LaunchErrorKind::IllegalAddress,
          "mapa to rank " + std::to_string(rank) + " of a cluster of " + std::to_string(size) + " blocks", l);
      return;
    }
    uint64_t address = 0;
    if (!clusterAddressOf(pi, ctx, a[l], l, address)) return;
    uint64_t mapped = memory::clusterSharedOf(rank, address);
    d[l] = static_cast<T>(pi.aux == 0 ? mapped : mapped + ctx.layout.sharedBase);
  });
}

bool selectMapa(const isa::Instruction& inst, PreparedInstruction& pi, SelectContext&, std::string&) {
  pi.aux = isGenericForm(inst) ? 1 : 0;
  pi.handler = isa::typeBits(inst.types[0]) == 32 ? &mapaHandler<uint32_t> : &mapaHandler<uint64_t>;
  return true;
}

// getctarank: the rank of the CTA whose shared memory an address names.
void getctarankHandler(const PreparedInstruction& pi, ExecContext& ctx) {
  uint64_t* d = ctx.row(pi.ops[0].row);
  const uint64_t* a = ctx.row(pi.ops[1].row);
  const uint64_t ownRank = exec::rankInCluster(ctx.cta->ctaid, ctx.grid.clusters.dims);
  forLanes(ctx.mask, [&](unsigned l) {
    if (ctx.aborted) return;
    uint64_t address = 0;
    if (!clusterAddressOf(pi, ctx, a[l], l, address)) return;
    memory::ClusterSharedAddress at = memory::decodeClusterShared(address);
    d[l] = static_cast<uint32_t>(at.own ? ownRank : at.rank);
  });
}

bool selectGetctarank(const isa::Instruction& inst, PreparedInstruction& pi, SelectContext&, std::string&) {
  pi.aux = isGenericForm(inst) ? 1 : 0;
  pi.handler = &getctarankHandler;
  return true;
}

}  // namespace

uint64_t clusterSizeOf(const ExecContext& ctx) {
  return ctx.cta->cluster != nullptr ? ctx.cta->cluster->ctas.size() : 1;
}

void registerClusterAddressSemantics(SemanticsTable& table) {
  table.add(isa::Opcode::Mapa, &selectMapa);
  table.add(isa::Opcode::Getctarank, &selectGetctarank);
}

}  // namespace ptxsim::sim::semantics
