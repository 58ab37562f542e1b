// The timing model's preset keys: one row per parameter, with its unit and
// description, which parse, echo and document it.
#include <charconv>
#include <cstdio>
#include <limits>
#include <sstream>
#include <type_traits>

#include "ptxsim/sim/timing_config.h"
#include "timing/schedulers/issue_policy.h"

namespace ptxsim::sim {

namespace {

bool parseCount(const std::string& text, uint64_t& out) {
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && end == text.data() + text.size();
}

// A whole-number field (32 or 64 bits), reached from the TimingConfig by
// `field`; `minimum` rejects values the model cannot run with (a zero
// interval, no banks).
template <typename Field>
TimingParameter number(std::string key, std::string unit, std::string description, Field field,
                       uint32_t minimum = 0) {
  return {std::move(key), std::move(unit), std::move(description),
          [field, minimum](TimingConfig& t, const std::string& v, std::string& why) {
            auto& target = field(t);
            using Value = std::remove_reference_t<decltype(target)>;
            uint64_t value = 0;
            if (!parseCount(v, value)) {
              why = "not a whole number";
              return false;
            }
            if (value > std::numeric_limits<Value>::max()) {
              why = "at most " + std::to_string(std::numeric_limits<Value>::max());
              return false;
            }
            if (value < minimum) {
              why = "at least " + std::to_string(minimum);
              return false;
            }
            target = static_cast<Value>(value);
            return true;
          },
          [field](const TimingConfig& t) { return std::to_string(field(const_cast<TimingConfig&>(t))); }};
}

// A positive decimal field (cycles that need not be whole); `zeroAllowed`
// also takes 0 (a delay the model can leave out).
template <typename Field>
TimingParameter decimal(std::string key, std::string unit, std::string description, Field field,
                        bool zeroAllowed = false) {
  return {std::move(key), std::move(unit), std::move(description),
          [field, zeroAllowed](TimingConfig& t, const std::string& v, std::string& why) {
            double value = 0;
            auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), value);
            if (ec != std::errc() || end != v.data() + v.size() || !(value > 0 || (zeroAllowed && value == 0))) {
              why = zeroAllowed ? "not a number of 0 or more" : "not a positive number";
              return false;
            }
            field(t) = value;
            return true;
          },
          [field](const TimingConfig& t) {
            std::ostringstream out;
            out << field(const_cast<TimingConfig&>(t));
            return out.str();
          }};
}

// An on/off field.
template <typename Field>
TimingParameter onOff(std::string key, std::string description, Field field) {
  return {std::move(key), "on/off", std::move(description),
          [field](TimingConfig& t, const std::string& v, std::string& why) {
            if (v != "on" && v != "off") {
              why = "not on or off";
              return false;
            }
            field(t) = v == "on";
            return true;
          },
          [field](const TimingConfig& t) { return std::string(field(const_cast<TimingConfig&>(t)) ? "on" : "off"); }};
}

// A cache's replacement policy, by its name in memory's registry.
template <typename Field>
TimingParameter replacement(std::string key, std::string description, Field field) {
  return {std::move(key), "name", std::move(description) + ": " + memory::replacementPolicyNames(),
          [field](TimingConfig& t, const std::string& v, std::string& why) {
            const memory::ReplacementPolicy* policy = memory::findReplacementPolicy(v);
            if (policy == nullptr) {
              why = "no such policy (" + memory::replacementPolicyNames() + ")";
              return false;
            }
            field(t) = policy;
            return true;
          },
          [field](const TimingConfig& t) { return std::string(field(const_cast<TimingConfig&>(t))->name); }};
}

std::vector<TimingParameter> makeParameters() {
  std::vector<TimingParameter> p;
  p.push_back(number("sm.sub_partitions", "count", "sub-partitions per SM, each with a warp scheduler",
                     [](TimingConfig& t) -> uint32_t& { return t.sm.subPartitions; }, 1));
  p.push_back({"sm.scheduler", "name", "warp-scheduler policy: " + timing::issuePolicyNames(),
               [](TimingConfig& t, const std::string& v, std::string& why) {
                 if (timing::makeIssuePolicy(v) == nullptr) {
                   why = "no such policy (" + timing::issuePolicyNames() + ")";
                   return false;
                 }
                 t.sm.scheduler = v;
                 return true;
               },
               [](const TimingConfig& t) { return t.sm.scheduler; }});
  p.push_back(number("sm.barrier", "cycles", "bar.sync of a one-warp CTA",
                     [](TimingConfig& t) -> uint32_t& { return t.sm.barrierCycles; }));
  p.push_back(number("sm.barrier_per_warp", "cycles", "bar.sync: added for each further warp",
                     [](TimingConfig& t) -> uint32_t& { return t.sm.barrierCyclesPerWarp; }));
  p.push_back(number("sm.cta_launch", "cycles", "a CTA's end to the next CTA's first instruction on its SM",
                     [](TimingConfig& t) -> uint32_t& { return t.sm.ctaLaunchCycles; }));
  p.push_back(number("sm.branch", "cycles", "a branch to its warp's next issue",
                     [](TimingConfig& t) -> uint32_t& { return t.sm.branchCycles; }));
  p.push_back(number("sm.divergence", "cycles", "added to a branch that splits its warp",
                     [](TimingConfig& t) -> uint32_t& { return t.sm.divergenceCycles; }));
  p.push_back(number("sm.register_banks", "count", "register-file banks of a sub-partition, one operand a cycle each",
                     [](TimingConfig& t) -> uint32_t& { return t.sm.registerBanks; }, 1));
  for (size_t i = 0; i < static_cast<size_t>(Pipeline::Count); ++i) {
    std::string name = nameOf(static_cast<Pipeline>(i));
    p.push_back(number("pipe." + name + ".latency", "cycles", name + " pipeline: issue to a dependent issue",
                       [i](TimingConfig& t) -> uint32_t& { return t.pipelines[i].latencyCycles; }, 1));
    p.push_back(number("pipe." + name + ".interval", "cycles", name + " pipeline: between two issues",
                       [i](TimingConfig& t) -> uint32_t& { return t.pipelines[i].intervalCycles; }, 1));
  }
  p.push_back(number("pipe.mufu.scaled_latency", "cycles",
                     "rsqrt, sqrt, lg2, rcp.approx.f32 without .ftz (MUFU scaled for denormals): issue to a "
                     "dependent issue",
                     [](TimingConfig& t) -> uint32_t& { return t.mufuScaledLatencyCycles; }, 1));
  p.push_back(number("pipe.mufu.reduced_latency", "cycles",
                     "sin, cos.approx.f32 (FMUL.RZ, MUFU): issue to a dependent issue",
                     [](TimingConfig& t) -> uint32_t& { return t.mufuReducedLatencyCycles; }, 1));
  p.push_back(number("shared.latency", "cycles", "conflict-free shared load, issue to use",
                     [](TimingConfig& t) -> uint32_t& { return t.shared.latencyCycles; }, 1));
  p.push_back(number("shared.cycles_per_extra_way", "cycles", "each further way of a bank conflict",
                     [](TimingConfig& t) -> uint32_t& { return t.shared.cyclesPerExtraWay; }));
  p.push_back(number("shared.cycles_per_extra_request", "cycles", "each further request of a 64- or 128-bit access",
                     [](TimingConfig& t) -> uint32_t& { return t.shared.cyclesPerExtraRequest; }));
  p.push_back(number("shared.cycles_per_wavefront", "cycles", "the LSU pipeline is kept this long per wavefront",
                     [](TimingConfig& t) -> uint32_t& { return t.shared.cyclesPerWavefront; }, 1));
  p.push_back(number("shared.banks", "count", "shared-memory banks",
                     [](TimingConfig& t) -> uint32_t& { return t.shared.banks; }, 1));
  p.push_back(number("shared.bank_bytes", "bytes", "width of a bank",
                     [](TimingConfig& t) -> uint32_t& { return t.shared.bankBytes; }, 1));
  p.push_back(number("l1.hit_latency", "cycles", "L1 hit, issue to use",
                     [](TimingConfig& t) -> uint32_t& { return t.l1.hitLatencyCycles; }, 1));
  p.push_back(number("l1.line_bytes", "bytes", "L1 line", [](TimingConfig& t) -> uint32_t& { return t.l1.lineBytes; },
                     1));
  p.push_back(number("l1.sector_bytes", "bytes", "L1 sector",
                     [](TimingConfig& t) -> uint32_t& { return t.l1.sectorBytes; }, 1));
  p.push_back(number("l1.mshrs", "count", "outstanding missed lines per SM",
                     [](TimingConfig& t) -> uint32_t& { return t.l1.mshrs; }, 1));
  p.push_back(number("l1.ways", "count", "L1 associativity",
                     [](TimingConfig& t) -> uint32_t& { return t.l1.ways; }, 1));
  p.push_back(number("l1.sectors_per_cycle", "count", "sectors the L1's data stage passes per cycle",
                     [](TimingConfig& t) -> uint32_t& { return t.l1.sectorsPerCycle; }, 1));
  p.push_back(replacement("l1.replacement", "which line an L1 miss evicts",
                          [](TimingConfig& t) -> const memory::ReplacementPolicy*& { return t.l1.replacement; }));
  p.push_back(onOff("l1.store_allocate", "a store's sectors become valid in the L1 (write-through either way)",
                    [](TimingConfig& t) -> bool& { return t.l1.storeAllocates; }));
  p.push_back(number("l1.store_fill", "cycles", "a later store hits a sector a store wrote only this long after it",
                     [](TimingConfig& t) -> uint32_t& { return t.l1.storeFillCycles; }, 0));
  p.push_back(number("noc.sm_bytes_per_cycle", "bytes/cycle",
                     "an SM's port into the crossbar to the L2 (its requests queue behind each other)",
                     [](TimingConfig& t) -> uint32_t& { return t.noc.smBytesPerCycle; }, 1));
  p.push_back(number("noc.sm_store_bytes_per_cycle", "bytes/cycle", "an SM's port into the crossbar, for a store's data",
                     [](TimingConfig& t) -> uint32_t& { return t.noc.smStoreBytesPerCycle; }, 1));
  p.push_back(number("noc.slice_bytes_per_cycle", "bytes/cycle", "an L2 slice's port out of the crossbar",
                     [](TimingConfig& t) -> uint32_t& { return t.noc.sliceBytesPerCycle; }, 1));
  p.push_back(number("l2.capacity", "bytes", "L2 cache, all slices",
                     [](TimingConfig& t) -> uint64_t& { return t.l2.capacityBytes; }, 1));
  p.push_back(number("l2.ways", "count", "L2 associativity",
                     [](TimingConfig& t) -> uint32_t& { return t.l2.ways; }, 1));
  p.push_back(number("l2.line_bytes", "bytes", "L2 line", [](TimingConfig& t) -> uint32_t& { return t.l2.lineBytes; },
                     1));
  p.push_back(number("l2.sector_bytes", "bytes", "L2 sector",
                     [](TimingConfig& t) -> uint32_t& { return t.l2.sectorBytes; }, 1));
  p.push_back(number("l2.slices", "count", "L2 slices (address-hashed)",
                     [](TimingConfig& t) -> uint32_t& { return t.l2.slices; }, 1));
  p.push_back(number("l2.partitions", "count", "L2 partitions; an SM is near one of them",
                     [](TimingConfig& t) -> uint32_t& { return t.l2.partitions; }, 1));
  p.push_back(number("l2.near_latency", "cycles", "L2 hit in the SM's near partition, after the L1",
                     [](TimingConfig& t) -> uint32_t& { return t.l2.nearLatencyCycles; }, 1));
  p.push_back(number("l2.far_latency", "cycles", "L2 hit in a far partition, after the L1",
                     [](TimingConfig& t) -> uint32_t& { return t.l2.farLatencyCycles; }, 1));
  p.push_back(number("l2.slice_bytes_per_cycle", "bytes/cycle", "what one L2 slice passes a cycle",
                     [](TimingConfig& t) -> uint32_t& { return t.l2.sliceBytesPerCycle; }, 1));
  p.push_back(number("l2.mshrs_per_slice", "count", "missed lines in flight per L2 slice",
                     [](TimingConfig& t) -> uint32_t& { return t.l2.mshrsPerSlice; }, 1));
  p.push_back(number("l2.fetch_bytes", "bytes",
                     "a read miss fetches the aligned blocks of this size holding its sectors "
                     "(cudaLimitMaxL2FetchGranularity)",
                     [](TimingConfig& t) -> uint32_t& { return t.l2.fetchBytes; }, 1));
  p.push_back(onOff("l2.partition_copies",
                    "a partition keeps copies of the sectors its SMs read or store of the other partitions' lines",
                    [](TimingConfig& t) -> bool& { return t.l2.partitionCopies; }));
  p.push_back(number("l2.partition_sm_run", "count", "consecutive SMs near the same L2 partition (1: they alternate)",
                     [](TimingConfig& t) -> uint32_t& { return t.l2.partitionSmRun; }, 1));
  p.push_back(number("l2.coalesce_window_cycles", "cycles",
                     "a read merges with a read of its sectors looked up this recently (0: no coalescer)",
                     [](TimingConfig& t) -> uint32_t& { return t.l2.coalesceWindowCycles; }, 0));
  p.push_back(decimal("l2.atomic_cycles_per_op", "cycles",
                      "a slice's atomic unit: one word's operations (a warp's lanes on it, or warps), apart",
                      [](TimingConfig& t) -> double& { return t.l2.atomicCyclesPerOp; }));
  p.push_back(decimal("l2.atomic_cycles_per_sector", "cycles",
                      "a slice's atomic unit: the sectors it starts (each updating its distinct words together), apart",
                      [](TimingConfig& t) -> double& { return t.l2.atomicCyclesPerSector; }));
  p.push_back(decimal(
      "l2.atomic_hazard_cycles", "cycles",
      "a slice's atomic unit: an atomic to other words of a sector it has just updated starts this much "
      "after the update",
      [](TimingConfig& t) -> double& { return t.l2.atomicHazardCycles; }, true));
  p.push_back(decimal("l2.write_request_cycles", "cycles",
                      "a slice's data-array write port: what each store or fetch holds it, besides its sectors",
                      [](TimingConfig& t) -> double& { return t.l2.writeRequestCycles; }));
  p.push_back(replacement("l2.replacement", "which line an L2 set evicts, and which dirty line it writes back",
                          [](TimingConfig& t) -> const memory::ReplacementPolicy*& { return t.l2.replacement; }));
  p.push_back(number("l2.dirty_line_ways", "ways",
                     "what a line with dirty sectors takes of its set's room (1: a way, as a clean one)",
                     [](TimingConfig& t) -> uint32_t& { return t.l2.dirtyLineWays; }, 1));
  p.push_back(decimal("l2.dirty_share", "fraction",
                      "the share of a set's ways that may hold dirty lines; one more written back and kept clean "
                      "(1: no limit)",
                      [](TimingConfig& t) -> double& { return t.l2.dirtyShare; }, true));
  p.push_back(
      number("l2.host_copy_resident_bytes", "bytes",
             "what a copy to or from host memory leaves in the L2 for the next launch: the most recent "
             "this many bytes of its device side, clean",
             [](TimingConfig& t) -> uint64_t& { return t.hostCopyResidentBytes; }));
  p.push_back(decimal("l2.write_sectors_per_cycle", "sectors/cycle",
                      "a slice's data-array write port: the sectors stores write and fetches bring in",
                      [](TimingConfig& t) -> double& { return t.l2.writeSectorsPerCycle; }));
  p.push_back(number("dram.channels", "count", "HBM channels (address-hashed)",
                     [](TimingConfig& t) -> uint32_t& { return t.dram.channels; }, 1));
  p.push_back(number("dram.banks_per_channel", "count", "banks per channel, each with an open row",
                     [](TimingConfig& t) -> uint32_t& { return t.dram.banksPerChannel; }, 1));
  p.push_back(number("dram.row_bytes", "bytes", "a bank's row",
                     [](TimingConfig& t) -> uint32_t& { return t.dram.rowBytes; }, 1));
  p.push_back(number("dram.interleave_bytes", "bytes", "consecutive bytes on one channel",
                     [](TimingConfig& t) -> uint32_t& { return t.dram.interleaveBytes; }, 1));
  p.push_back(number("dram.row_hit_latency", "cycles", "an access to the open row, beyond the L2",
                     [](TimingConfig& t) -> uint32_t& { return t.dram.rowHitLatencyCycles; }, 1));
  p.push_back(number("dram.row_miss_latency", "cycles", "an access that opens another row, beyond the L2",
                     [](TimingConfig& t) -> uint32_t& { return t.dram.rowMissLatencyCycles; }, 1));
  p.push_back(number("dram.bytes_per_cycle_per_channel", "bytes/cycle", "what one channel moves a cycle",
                     [](TimingConfig& t) -> uint32_t& { return t.dram.bytesPerCyclePerChannel; }, 1));
  p.push_back(number("dram.queue_reorder", "percent",
                     "a request's wait for its busy channel is redrawn within +- this share (0: in order)",
                     [](TimingConfig& t) -> uint32_t& { return t.dram.queueReorderPercent; }, 0));
  p.push_back(number("const.hit_latency", "cycles", "constant-cache hit (ld.const), issue to use",
                     [](TimingConfig& t) -> uint32_t& { return t.constant.hitLatencyCycles; }, 1));
  p.push_back(number("const.miss_latency", "cycles", "constant-cache miss to the next level",
                     [](TimingConfig& t) -> uint32_t& { return t.constant.missLatencyCycles; }, 1));
  p.push_back(number("const.capacity", "bytes", "constant cache",
                     [](TimingConfig& t) -> uint32_t& { return t.constant.capacityBytes; }));
  p.push_back(number("const.line_bytes", "bytes", "constant-cache line",
                     [](TimingConfig& t) -> uint32_t& { return t.constant.lineBytes; }, 1));
  p.push_back(number("const.ways", "count", "constant-cache associativity",
                     [](TimingConfig& t) -> uint32_t& { return t.constant.ways; }, 1));
  p.push_back(number("tex.latency", "cycles", "the texture pipeline's stages, on top of the L1 (tex, tld4, suld, sust)",
                     [](TimingConfig& t) -> uint32_t& { return t.texture.latencyCycles; }));
  p.push_back(decimal("tex.lookups_per_cycle", "lookups/cycle", "what an SM's texture units start a cycle (a tex or tld4 lane each)",
                      [](TimingConfig& t) -> double& { return t.texture.lookupsPerCycle; }));
  p.push_back(decimal("tensor.wgmma.columns_per_cycle", "columns/cycle",
                      "N columns of a wgmma a sub-partition's tensor core computes a cycle (its 16 rows)",
                      [](TimingConfig& t) -> double& { return t.tensor.wgmmaColumnsPerCycle; }));
  p.push_back(number("tensor.wgmma.overhead_cycles", "cycles",
                     "a wgmma keeps its tensor core at least this plus N / overhead_columns_per_cycle cycles",
                     [](TimingConfig& t) -> uint32_t& { return t.tensor.wgmmaOverheadCycles; }));
  p.push_back(decimal("tensor.wgmma.overhead_columns_per_cycle", "columns/cycle",
                      "the part of a narrow wgmma's tensor-core cycles that grows with N",
                      [](TimingConfig& t) -> double& { return t.tensor.wgmmaOverheadColumnsPerCycle; }));
  p.push_back(number("tensor.wgmma.latency", "cycles",
                     "a wgmma's results after its tensor core has computed it (wgmma.wait_group waits for them)",
                     [](TimingConfig& t) -> uint32_t& { return t.tensor.wgmmaLatencyCycles; }));
  p.push_back(number("tma.latency", "cycles",
                     "a bulk copy's completion after the L2 answered its last line (mbarrier complete-tx, bulk group)",
                     [](TimingConfig& t) -> uint32_t& { return t.tma.latencyCycles; }));
  p.push_back(decimal("tma.bytes_per_cycle", "bytes/cycle", "what an SM's tensor memory accelerator requests of the L2 a cycle (loads)",
                      [](TimingConfig& t) -> double& { return t.tma.bytesPerCycle; }));
  p.push_back(number("tma.store_latency", "cycles",
                     "a bulk store's or reduction's group done after its last line is sent (cp.async.bulk.wait_group)",
                     [](TimingConfig& t) -> uint32_t& { return t.tma.storeLatencyCycles; }));
  p.push_back(decimal("tma.store_bytes_per_cycle", "bytes/cycle",
                      "what an SM's tensor memory accelerator sends to the L2 a cycle (stores and reductions)",
                      [](TimingConfig& t) -> double& { return t.tma.storeBytesPerCycle; }, 1));
  p.push_back(number("cluster.dsmem_latency", "cycles",
                     "a load of another CTA's shared memory in the cluster (distributed shared memory), issue to use",
                     [](TimingConfig& t) -> uint32_t& { return t.cluster.dsmemLatencyCycles; }));
  p.push_back(number("cluster.barrier_cycles", "cycles",
                     "the warps barrier.cluster.wait holds, after the arrival that completed the phase",
                     [](TimingConfig& t) -> uint32_t& { return t.cluster.barrierCycles; }));
  p.push_back(number("cluster.barrier_cycles_per_cta", "cycles", "what each CTA of the cluster adds to barrier_cycles",
                     [](TimingConfig& t) -> uint32_t& { return t.cluster.barrierCyclesPerCta; }));
  p.push_back(number("fence.cta_cycles", "cycles",
                     "membar.cta and fence.sc/acq_rel.cta, once the warp's earlier accesses are done (not measured: 0)",
                     [](TimingConfig& t) -> uint32_t& { return t.fence.ctaCycles; }));
  p.push_back(number("fence.cluster_cycles", "cycles",
                     "fence.sc/acq_rel.cluster and an mbarrier arrival releasing at cluster scope, once the warp's "
                     "earlier accesses are done (not measured: 0)",
                     [](TimingConfig& t) -> uint32_t& { return t.fence.clusterCycles; }));
  p.push_back(number("fence.gpu_cycles", "cycles",
                     "membar.gl and fence.sc/acq_rel.gpu, once the warp's earlier accesses are done (not measured: 0)",
                     [](TimingConfig& t) -> uint32_t& { return t.fence.gpuCycles; }));
  p.push_back(number("fence.sys_cycles", "cycles",
                     "membar.sys and fence.sc/acq_rel.sys, once the warp's earlier accesses are done (not measured: 0)",
                     [](TimingConfig& t) -> uint32_t& { return t.fence.sysCycles; }));
  p.push_back(number("icache.instruction_bytes", "bytes", "one instruction in the instruction caches",
                     [](TimingConfig& t) -> uint32_t& { return t.fetch.instructionBytes; }, 1));
  p.push_back(number("icache.line_bytes", "bytes", "instruction-cache line",
                     [](TimingConfig& t) -> uint32_t& { return t.fetch.lineBytes; }, 1));
  p.push_back(number("icache.l0_bytes", "bytes", "L0 instruction cache (every sub-partition's holds the same lines)",
                     [](TimingConfig& t) -> uint32_t& { return t.fetch.l0Bytes; }, 1));
  p.push_back(number("icache.l0_ways", "count", "L0 instruction-cache associativity",
                     [](TimingConfig& t) -> uint32_t& { return t.fetch.l0Ways; }, 1));
  p.push_back(number("icache.l1_bytes", "bytes", "L1 instruction cache of the SM",
                     [](TimingConfig& t) -> uint32_t& { return t.fetch.l1Bytes; }, 1));
  p.push_back(number("icache.l1_ways", "count", "L1 instruction-cache associativity",
                     [](TimingConfig& t) -> uint32_t& { return t.fetch.l1Ways; }, 1));
  p.push_back(number("icache.l1_cycles_per_line", "cycles", "an L0 miss served by the L1 instruction cache, per line",
                     [](TimingConfig& t) -> uint32_t& { return t.fetch.l1CyclesPerLine; }, 1));
  p.push_back(number("icache.l2_cycles_per_line", "cycles", "an L1 instruction-cache miss served by the L2, per line",
                     [](TimingConfig& t) -> uint32_t& { return t.fetch.l2CyclesPerLine; }, 1));
  p.push_back(number("gpu.sync_window", "cycles",
                     "the SMs run this many cycles apart between exchanges (host threads; below the L2's round trip)",
                     [](TimingConfig& t) -> uint32_t& { return t.syncWindowCycles; }, 1));
  p.push_back(number("launch.grid_cycles", "cycles",
                     "what a grid's elapsed cycles count beyond its CTAs' work (the front end's launch and retirement)",
                     [](TimingConfig& t) -> uint32_t& { return t.gridCycles; }));
  p.push_back(number("launch.dram_read_bytes", "bytes",
                     "what a launch reads from DRAM for its parameters and constant bank when its caches start empty",
                     [](TimingConfig& t) -> uint32_t& { return t.launchDramReadBytes; }));
  p.push_back(number("launch.code_read_bytes", "bytes",
                     "a launch with empty caches reads its code from DRAM in blocks of this many bytes",
                     [](TimingConfig& t) -> uint32_t& { return t.launchCodeReadBytes; }, 1));
  p.push_back(number("launch.overhead", "ns", "what a kernel launch adds to its stream's time besides running it",
                     [](TimingConfig& t) -> uint32_t& { return t.launchOverheadNs; }));
  p.push_back(number("copy.pinned_latency", "ns", "a copy between the device and pinned host memory: its start",
                     [](TimingConfig& t) -> uint32_t& { return t.transfer.pinnedLatencyNs; }));
  p.push_back(decimal("copy.pinned_bytes_per_ns", "bytes/ns", "a copy between the device and pinned host memory: its rate after its start",
                      [](TimingConfig& t) -> double& { return t.transfer.pinnedBytesPerNs; }));
  p.push_back(number("copy.pageable_latency", "ns", "a copy between the device and pageable host memory: its start",
                     [](TimingConfig& t) -> uint32_t& { return t.transfer.pageableLatencyNs; }));
  p.push_back(decimal("copy.pageable_bytes_per_ns", "bytes/ns", "a copy between the device and pageable host memory: its rate after its start",
                      [](TimingConfig& t) -> double& { return t.transfer.pageableBytesPerNs; }));
  p.push_back(number("copy.device_latency", "ns", "a copy within the device takes at least this",
                     [](TimingConfig& t) -> uint32_t& { return t.transfer.deviceLatencyNs; }));
  p.push_back(decimal("copy.device_bytes_per_ns", "bytes/ns", "a copy within the device: its bytes (each read and written) at this rate, if longer than its least",
                      [](TimingConfig& t) -> double& { return t.transfer.deviceBytesPerNs; }));
  p.push_back(number("memset.latency", "ns", "a fill (cudaMemset): its start",
                     [](TimingConfig& t) -> uint32_t& { return t.transfer.fillLatencyNs; }));
  p.push_back(decimal("memset.bytes_per_ns", "bytes/ns", "a fill (cudaMemset): its rate after its start",
                      [](TimingConfig& t) -> double& { return t.transfer.fillBytesPerNs; }));
  return p;
}

}  // namespace

const std::vector<TimingParameter>& timingParameters() {
  static const std::vector<TimingParameter> kParameters = makeParameters();
  return kParameters;
}

const TimingParameter* findTimingParameter(const std::string& key) {
  for (const TimingParameter& p : timingParameters()) {
    if (p.key == key) return &p;
  }
  return nullptr;
}

std::string describeTiming(const TimingConfig& timing) {
  std::ostringstream out;
  for (const TimingParameter& p : timingParameters()) {
    std::string line = p.key + " = " + p.get(timing);
    out << line << std::string(line.size() < 40 ? 40 - line.size() : 1, ' ') << "# " << p.unit << ": "
        << p.description << "\n";
  }
  return out.str();
}

std::string timingJson(const TimingConfig& timing) {
  std::string json = "{";
  for (const TimingParameter& p : timingParameters()) {
    std::string value = p.get(timing);
    bool text = p.unit == "name" || p.unit == "on/off";
    json += (json.size() > 1 ? "," : "") + std::string("\"") + p.key + "\":" + (text ? "\"" + value + "\"" : value);
  }
  return json + "}";
}

TimingParameterSet timingParameterSet(const TimingConfig& timing) {
  TimingParameterSet set{timingJson(timing), {}};
  uint64_t hash = 0xcbf29ce484222325ull;  // FNV-1a, 64 bits
  for (unsigned char c : set.json) hash = (hash ^ c) * 0x100000001b3ull;
  char id[17];
  std::snprintf(id, sizeof id, "%016llx", static_cast<unsigned long long>(hash));
  set.id = id;
  return set;
}

}  // namespace ptxsim::sim
