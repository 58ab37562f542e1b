#pragma once

// The timing model's parameters, in typed sections with units. Every one
// has a preset key (`sm.scheduler`, `pipe.fp32.latency`, ...), set in
// configs/*.cfg and overridable with --config h100,key=value; the table of
// keys, units and descriptions is timing_parameters.cpp, which also echoes
// the effective values into each launch's statistics record.
//
// Defaults are the H100's, measured with the calibration programs
// (tests/timing/calibration, outputs in its h100/ folder, SM clock 1980
// MHz) where a figure is marked "measured"; the others are estimates
// still to be measured.

#include <array>
#include <cstdint>
#include <string>

#include "ptxsim/memory/hbm.h"
#include "ptxsim/memory/interconnect.h"
#include "ptxsim/memory/l2_cache.h"

namespace ptxsim::sim {

// One execution pipeline of a sub-partition: cycles from issue until a
// dependent instruction may issue, and cycles between two issues of the
// pipeline (32 lanes over the pipeline's lanes per sub-partition).
struct PipelineTiming {
  uint32_t latencyCycles = 4;
  uint32_t intervalCycles = 1;

  bool operator==(const PipelineTiming&) const = default;
};

// The pipelines a warp instruction can issue to.
// IntHigh is the wide multiplier's high half (mul.hi/mad.hi: IMAD.HI);
// Vote takes the warp-wide votes (vote, match, redux, activemask).
enum class Pipeline : uint8_t {
  Fp32,
  Int,
  IntHigh,
  Fp64,
  Fp16,
  Mufu,
  Conversion,
  Tensor,
  LoadStore,
  Branch,
  Shuffle,
  Vote,
  Count
};

struct SmTiming {
  uint32_t subPartitions = 4;             // each with its own warp scheduler and pipelines
  std::string scheduler = "gto";          // warp-scheduler policy (sim/src/timing/schedulers)
  uint32_t barrierCycles = 14;            // bar.sync of a one-warp CTA (measured: barrier.warps_1)
  uint32_t barrierCyclesPerWarp = 2;      // and for each further warp (measured: barrier.warps_2..32)
  uint32_t ctaLaunchCycles = 329;         // a CTA's end to the next CTA's first instruction on
                                          // its SM (measured: cta.turnaround)
  // A branch to the warp's next issue, and what a branch that splits the
  // warp adds: fitted to divergence.paths_1..32 (control.out) at the PTX
  // level, where ptxas's BSSY/BSYNC pairs are not instructions of their own.
  uint32_t branchCycles = 14;
  uint32_t divergenceCycles = 22;
  // Register-file banks of a sub-partition: a register is in bank
  // (its number % banks), and each bank gives one operand a cycle, so an
  // ALU instruction whose sources not held in the operand reuse cache
  // share a bank waits a cycle to dispatch for each extra read (measured:
  // register_banks.out, regbank.independent.rotating 1.58 cycles per FFMA
  // whose SASS puts half the instructions' sources two to a bank of 4).
  uint32_t registerBanks = 4;

  bool operator==(const SmTiming&) const = default;
};

// Instruction fetch: the sub-partitions' L0 instruction caches (filled
// alike: modelled as one), the SM's L1 instruction cache behind them, and
// the L2 behind that. Straight-line
// code streams in line by line (the next line is fetched with each line);
// a line from the L1 or the L2 takes its cycles per line, the rate at which
// code that does not fit the level above runs (measured:
// instruction_fetch.out: up to 24 KiB of code runs at one instruction a
// cycle, 48 to 96 KiB at 2.2 (17.7 cycles per 128-byte line), 192 KiB and
// more at 5.65 (45 cycles per line)).
struct InstructionFetchTiming {
  uint32_t instructionBytes = 16;  // one SASS instruction; a PTX instruction counts as one
  uint32_t lineBytes = 128;
  uint32_t l0Bytes = 32 * 1024;    // measured: between 24 and 32 KiB of code fits
  uint32_t l0Ways = 4;             // estimate
  uint32_t l1Bytes = 128 * 1024;   // per SM (measured: 96 KiB fits, 192 KiB does not)
  uint32_t l1Ways = 4;             // estimate
  uint32_t l1CyclesPerLine = 18;   // an L0 miss served by the L1 (measured)
  uint32_t l2CyclesPerLine = 45;   // an L1 miss served by the L2 (measured)

  bool operator==(const InstructionFetchTiming&) const = default;
};

struct SharedMemoryTiming {
  uint32_t latencyCycles = 23;         // a conflict-free load, issue to use (measured: latency.smem.chase)
  uint32_t cyclesPerExtraWay = 2;      // each further way of a bank conflict (measured)
  uint32_t cyclesPerExtraRequest = 3;  // each further request of a 64/128-bit access (measured:
                                       // latency.smem.ld64 26, ld128 32)
  uint32_t cyclesPerWavefront = 2;     // the LSU pipeline is kept this long per wavefront
                                       // (measured: throughput.smem.conflict_N = 2N)
  uint32_t banks = 32;
  uint32_t bankBytes = 4;

  bool operator==(const SharedMemoryTiming&) const = default;
};

struct L1Timing {
  uint32_t hitLatencyCycles = 32;  // measured: latency.l1.chase
  uint32_t lineBytes = 128;
  uint32_t sectorBytes = 32;
  uint32_t mshrs = 512;  // outstanding missed lines per SM (fitted: configs/h100.cfg)
  uint32_t ways = 4;     // associativity (estimate)
  uint32_t sectorsPerCycle = 4;  // data-stage width (measured: latency.l1.warp_32lines, 39.5)
  // Stores allocate their sectors (write-through either way): the H100's
  // store hit rates (tests/timing/kernels/h100/*.caches.ncu.csv).
  bool storeAllocates = true;
  // A later store hits a sector a store wrote only this long after it
  // (statistics only). The H100's window lies between 0 and about 100
  // cycles (tests/timing/kernels/probe/l1_store_probe.cu: two warps' stores
  // 100 cycles apart hit, eight warps' half of them). 64 matches 25 of the
  // probe's 27 launches (128: 26, 0: 22) and leaves transpose_naive's L1
  // hit rate at 56.4% (the H100's 64.6%): the model's warps of one CTA
  // store closer together than the H100's (README), so 128 would take it
  // to 12% and 0 to 77.8%.
  uint32_t storeFillCycles = 64;
  // Which line a miss evicts (memory/src/replacement/registry.cpp).
  const memory::ReplacementPolicy* replacement = &memory::kLeastRecentlyUsed;

  bool operator==(const L1Timing&) const = default;
};

// Beyond the L1 (memory/l2_cache.h, memory/hbm.h): every SM's misses,
// stores and atomics go to one L2 shared by the SMs, in slices with near
// and far partitions, write-back, atomics performed in its slices; its
// misses go to the HBM's channels. Defaults are the H100's (derivations in
// those headers): L2 hits 260 / 290 cycles after the L1 (measured
// latency.l2.near 263, far 293), DRAM 401 / 413 beyond the L2 (measured
// latency.dram.page_local 679, page_stride 691), 48 slices x 80 bytes a
// cycle (measured bw.l2.read 3651 bytes a cycle), 80 channels x 21 bytes a
// cycle (measured bw.dram.read 1565).
// The constant cache that ld.const reads through (LDC; kernel parameters
// are operands of the instructions that use them, at the ALU's latency).
struct ConstantCacheTiming {
  uint32_t hitLatencyCycles = 28;    // measured: latency.const.chase_1k
  uint32_t missLatencyCycles = 97;   // to the next level (measured: latency.const.chase_32k, 98)
  uint32_t capacityBytes = 2048;     // estimate: chases over 1 KiB hit, over 32 KiB miss
  uint32_t lineBytes = 64;
  uint32_t ways = 4;                 // estimate

  bool operator==(const ConstantCacheTiming&) const = default;
};

// The texture pipeline: tex, tld4 and tex1Dfetch read their texels, and
// suld, sust and sured their surface elements, through the SM's L1 (the
// H100's texture cache is its unified L1) and the L2 like loads and
// stores; the pipeline's own stages (addressing, filtering) add their
// cycles to every access: 56 on the H100 (tests/timing/calibration/h100/
// texture_cp_async.out: a tex1Dfetch chase hitting the L1 takes 88 cycles,
// an ld.ca chase 32). The SM's texture units start lookupsPerCycle
// lanes' lookups (a tex or tld4 lane each) a cycle, whatever their
// footprint: fitted to the H100's 3x3 box filter with tex2D (tests/timing/
// kernels: tex2dBoxFilterKernel: 11547 cycles against 11342).
struct TextureTiming {
  uint32_t latencyCycles = 56;
  double lookupsPerCycle = 3;

  bool operator==(const TextureTiming&) const = default;
};

// The tensor cores as wgmma.mma_async uses them. A warpgroup's four warps
// sit on the four sub-partitions, and each sub-partition's tensor core
// runs its warp's 16 rows of each wgmma after the ones before it: it
// computes for N / wgmmaColumnsPerCycle cycles (every dense form reads 256
// bits of each A row per instruction, as does a sparse form's compressed
// A, so the rate is the same for every type), and the next wgmma starts no
// sooner than wgmmaOverheadCycles + N / wgmmaOverheadColumnsPerCycle
// cycles after it (what narrow wgmmas cost on top). Its results are there
// wgmmaLatencyCycles after its computing ends, and wgmma.wait_group holds
// the warp until then. Fitted to the H100 (tests/timing/calibration/
// wgmma.cu, h100/wgmma.out, f16 with f32 accumulators, N 8 to 256): a
// chain of wgmmas into the same accumulators takes max(N / 2, 16 + N / 4)
// cycles a wgmma, two warpgroups twice that each, and one wgmma's wait
// returns N / 2 + 6 cycles after it issued.
struct TensorCoreTiming {
  double wgmmaColumnsPerCycle = 2;
  uint32_t wgmmaOverheadCycles = 16;
  double wgmmaOverheadColumnsPerCycle = 4;
  uint32_t wgmmaLatencyCycles = 9;

  bool operator==(const TensorCoreTiming&) const = default;
};

// The tensor memory accelerator (cp.async.bulk, cp.async.bulk.tensor): an
// SM's engine sends each copy's global lines to the L2 (its L1 is not
// involved), one copy after another: a load's requests at bytesPerCycle,
// and its mbarrier completion lands latencyCycles after its last line is
// answered; a store's or reduction's lines at storeBytesPerCycle, and its
// bulk group is done storeLatencyCycles after the last is sent (the H100
// does not wait for the L2's answer: tests/timing/calibration/tma.cu,
// h100/tma.out, 47 cycles for 128 bytes, 555 for 16 KiB, a third of an
// L2 round trip at the smallest). Fitted there: a 128-byte load from the
// L2 completes in 333 cycles, and one SM streams 53.5 bytes a cycle.
struct TmaTiming {
  uint32_t latencyCycles = 0;
  double bytesPerCycle = 128;
  uint32_t storeLatencyCycles = 40;
  double storeBytesPerCycle = 32;

  bool operator==(const TmaTiming&) const = default;
};

// Thread block clusters: a load, store or atomic on another CTA's shared
// memory (distributed shared memory) crosses the SM-to-SM network, and
// its result is there dsmemLatencyCycles after it issues; the warps a
// barrier.cluster phase releases move on barrierCycles +
// barrierCyclesPerCta x (the cluster's CTAs) after the arrival that
// completed it. Fitted to the H100 (tests/timing/calibration/cluster.cu,
// h100/cluster.out): a chase through another CTA's shared memory takes
// 192 cycles a load, and one barrier.cluster arrive and wait by 128
// threads a CTA 769, 785, 824 and 906 cycles for clusters of 2, 4, 8 and
// 16 (the model adds about 5 cycles of its own issue).
struct ClusterTiming {
  uint32_t dsmemLatencyCycles = 192;
  uint32_t barrierCycles = 741;
  uint32_t barrierCyclesPerCta = 10;

  bool operator==(const ClusterTiming&) const = default;
};

// What the MEMBAR of a memory fence takes once the warp's earlier
// accesses have completed, by scope (sim/src/timing/fence_cost.h): membar
// and fence.sc / fence.acq_rel, and the cluster-scope release of an
// mbarrier arrival. Not measured yet: 0 until the probe that times them
// (tests/timing/calibration/cluster.cu, latency.fence.*) is recorded on
// the GPU; the H100's cluster-multicast GEMM stalls on them 5191 cycles a
// warp (docs/timing/accuracy.md, "The Hopper kernels").
struct FenceTiming {
  uint32_t ctaCycles = 0;
  uint32_t clusterCycles = 0;
  uint32_t gpuCycles = 0;
  uint32_t sysCycles = 0;

  bool operator==(const FenceTiming&) const = default;
};

// What a copy or a fill takes on the simulated device's clock, the one
// events read (cudaMemcpy*, cudaMemset*, their async forms and graph
// nodes; runtime/cudart/transfer_time.h). Measured on the H200's host
// (tests/timing/calibration/copy_time.cu and memset_time.cu, h200/*.out):
// a copy between the device and host memory takes its start plus its
// bytes at the host link's rate, pinned or pageable (the driver stages
// pageable memory through its own); one within the device takes at least
// deviceLatencyNs, or its bytes at deviceBytesPerNs (each read and
// written); a fill its start plus its bytes at fillBytesPerNs.
struct TransferTiming {
  uint32_t pinnedLatencyNs = 9000;
  double pinnedBytesPerNs = 55.4;
  uint32_t pageableLatencyNs = 8000;
  double pageableBytesPerNs = 11.7;
  uint32_t deviceLatencyNs = 6200;
  double deviceBytesPerNs = 1958;
  uint32_t fillLatencyNs = 3600;
  double fillBytesPerNs = 4700;
  bool operator==(const TransferTiming&) const = default;
};

struct TimingConfig {
  SmTiming sm;
  std::array<PipelineTiming, static_cast<size_t>(Pipeline::Count)> pipelines{};
  // Multi-function-unit instructions ptxas wraps in others (sim/src/
  // timing/pipeline_of.h, sassAround), issue to a dependent issue:
  // rsqrt, sqrt, lg2 and rcp.approx.f32 without .ftz, scaled for
  // denormals (measured 39 to 41 cycles a step of a chain on the H100's
  // SM, against 17 with .ftz), and sin and cos.approx.f32, their argument
  // reduced first (23; tests/timing/kernels/probe/mufu_forms_probe.cu).
  uint32_t mufuScaledLatencyCycles = 40;
  uint32_t mufuReducedLatencyCycles = 23;
  SharedMemoryTiming shared;
  L1Timing l1;
  memory::InterconnectConfig noc;  // between the SMs and the L2's slices (memory/interconnect.h)
  memory::L2Config l2;
  memory::HbmConfig dram;
  ConstantCacheTiming constant;
  TextureTiming texture;
  TensorCoreTiming tensor;
  TmaTiming tma;
  ClusterTiming cluster;
  FenceTiming fence;
  InstructionFetchTiming fetch;
  TransferTiming transfer;
  // What a grid's elapsed cycles (gpc__cycles_elapsed.max) count beyond its
  // CTAs' work: the front end's launch of it and its retirement. An empty
  // one-CTA grid takes 4203 cycles on the H100 under Nsight Compute
  // (tests/timing/kernels/probe/h100: overhead.cache_all.ncu.csv).
  uint32_t gridCycles = 4150;
  // What a launch reads from DRAM for itself when it starts with empty
  // caches (--cache-control all): its parameters and constant bank, then
  // its code (CodeLayout::sassBytes) in blocks of launchCodeReadBytes. On
  // the H100 a kernel reads 2304 bytes beyond its own data and its SASS
  // rounded up to 256 bytes: 2816 for copy's 512 bytes of SASS, 5376 for
  // mandelbrot's 3072, 5632 for fma_chains_4blocks' 3200
  // (tests/timing/kernels/h100).
  uint32_t launchDramReadBytes = 2304;
  uint32_t launchCodeReadBytes = 256;
  // What a copy to or from host memory leaves in the L2 for the next
  // launch: the most recent this many bytes of its device side, clean
  // (timing::CopyEngineLog). Measured on the H100: an 8 MiB copy leaves
  // 3.0 MiB (tests/timing/calibration/h100/copy_residency.quick.out), a
  // 16th of its L2; the H200 3.7 to 4.2 MiB of 1 to 128 MiB copies, either
  // way (h200/copy_residency.out).
  uint64_t hostCopyResidentBytes = 3ull << 20;
  // What one kernel launch adds to its stream's time besides running it
  // (gridCycles included there): events around a launch see it (measured:
  // launch.empty.back_to_back, 4890 ns, of which gridCycles are 2096 ns).
  uint32_t launchOverheadNs = 2794;
  // The timing driver's window (sim/src/timing/timing_driver.cpp): the SMs
  // run this many cycles each on its own, then exchange stores, atomics and
  // L2 traffic. Must stay below the L2's round trip and the CTA launch
  // time, which bound how soon one SM can see another's work.
  uint32_t syncWindowCycles = 32;

  TimingConfig();
  PipelineTiming& pipeline(Pipeline p) { return pipelines[static_cast<size_t>(p)]; }
  const PipelineTiming& pipeline(Pipeline p) const { return pipelines[static_cast<size_t>(p)]; }
  // Whether every parameter is the same (a launch reuses the last echo of them).
  bool operator==(const TimingConfig&) const = default;
};

// A pipeline's name in preset keys: "fp32", "int", "fp64", ...
const char* nameOf(Pipeline p);

}  // namespace ptxsim::sim

#include <functional>
#include <vector>

namespace ptxsim::sim {

// One preset key of the timing model.
struct TimingParameter {
  std::string key;          // "sm.scheduler", "pipe.fp32.latency"
  std::string unit;         // "cycles", "bytes", "count", "name", "bytes/cycle"
  std::string description;
  std::function<bool(TimingConfig&, const std::string&, std::string& why)> set;
  std::function<std::string(const TimingConfig&)> get;
};

// Every timing parameter, in preset order.
const std::vector<TimingParameter>& timingParameters();

// The parameter called `key`; null when there is none.
const TimingParameter* findTimingParameter(const std::string& key);

// Every parameter as `key = value  # unit: description` lines (what a
// preset file holds), and as one JSON object {"key": value, ...}.
std::string describeTiming(const TimingConfig& timing);
std::string timingJson(const TimingConfig& timing);

// The parameters a timed launch ran under as its statistics name them:
// timingJson() and an id for it, 16 hex digits of its FNV-1a hash, the same
// for the same parameters in every run. A launch's record carries the id;
// `--stats` writes the parameters once, in a record of their own
// (KernelStats::toJson, timingParametersRecord).
struct TimingParameterSet {
  std::string json;
  std::string id;
};
TimingParameterSet timingParameterSet(const TimingConfig& timing);

}  // namespace ptxsim::sim
