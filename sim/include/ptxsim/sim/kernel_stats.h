#pragma once

// Per-launch statistics. Field names follow Nsight Compute's metrics where
// a metric exists; toJson() writes them under those names.

#include <array>
#include <cstdint>
#include <memory>
#include <string>

#include "ptxsim/sim/launch_geometry.h"
#include "ptxsim/sim/stall_reason.h"
#include "ptxsim/sim/timing_config.h"

namespace ptxsim::sim {

inline constexpr unsigned kProfileTriggers = 8;

// What a timing run measured, in Nsight Compute's terms.
struct TimedStats {
  uint64_t cyclesElapsed = 0;          // gpc__cycles_elapsed.max
  double smCyclesActiveAvg = 0;        // sm__cycles_active.avg
  double warpsActivePct = 0;           // sm__warps_active.avg.pct_of_peak_sustained_active
  // The tensor cores' busy cycles over the active SMs' sub-partition-cycles
  // (sm__pipe_tensor_op_{gmma,hmma}_cycles_active.avg.pct_of_peak_sustained_active):
  // wgmma's, and every tensor instruction's (mma.sync's, wmma's and, as
  // the H100 counts them, wgmma's).
  double tensorGmmaPct = 0;
  double tensorHmmaPct = 0;
  uint64_t instructionsIssued = 0;     // smsp__inst_issued.sum
  uint64_t durationNs = 0;             // gpu__time_duration.sum: the cycles at the preset's SM clock
  // Warp-cycles by stall reason; over instructionsIssued, Nsight Compute's
  // smsp__average_warp_latency_issue_stalled_<reason>.ratio.
  std::array<uint64_t, kStallReasons> stallWarpCycles{};
  uint64_t sharedBankConflictsLoad = 0;   // l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum
  uint64_t sharedBankConflictsStore = 0;  // l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
  uint64_t sharedBankConflictsAtomic = 0;  // l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_atom.sum
  // Global and local accesses at the L1 (l1tex__t_{requests,sectors}_pipe_lsu_mem_global_op_{ld,st}.sum
  // and the sectors that hit, for l1tex__t_sector_hit_rate.pct).
  uint64_t l1LoadRequests = 0;
  uint64_t l1StoreRequests = 0;
  uint64_t l1LoadSectors = 0;
  uint64_t l1StoreSectors = 0;
  // The texture pipe's and cp.async's traffic at the L1
  // (l1tex__t_{requests,sectors}_pipe_tex_mem_texture.sum,
  // l1tex__t_sectors_pipe_tex_mem_surface_op_{ld,st}.sum,
  // l1tex__t_{requests,sectors}_pipe_lsu_mem_global_op_ldgsts.sum).
  uint64_t l1TextureRequests = 0;
  uint64_t l1TextureSectors = 0;
  uint64_t l1SurfaceLoadSectors = 0;
  uint64_t l1SurfaceStoreSectors = 0;
  uint64_t l1LdgstsRequests = 0;
  uint64_t l1LdgstsSectors = 0;
  uint64_t l1SectorHits = 0;  // of every class above
  // The L2's sectors the SMs look up (reads, writes, atomics: srcunit tex)
  // and those that hit; DRAM traffic (dram__bytes_read.sum,
  // dram__bytes_write.sum).
  uint64_t l2Sectors = 0;
  uint64_t l2SectorHits = 0;
  uint64_t l2SectorMisses = 0;  // the sectors fetched, fetch-block neighbours included
  // Lookups at a line's home for another partition (srcunit ltcfabric).
  uint64_t l2FabricSectors = 0;
  uint64_t l2FabricSectorHits = 0;
  uint64_t l2FabricSectorMisses = 0;
  uint64_t l2CoalescedSectors = 0;  // read sectors merged before the lookup (L2Config::coalesceWindowCycles)
  uint64_t dramBytesRead = 0;
  uint64_t dramBytesWritten = 0;
};

struct KernelStats {
  std::string kernel;
  Dim3 grid;
  Dim3 block;
  uint32_t dynamicSharedBytes = 0;
  uint32_t staticSharedBytes = 0;
  uint32_t registersPerThread = 0;
  uint64_t warpInstructions = 0;          // smsp__inst_executed.sum
  uint64_t threadInstructions = 0;        // smsp__thread_inst_executed.sum
  uint64_t threadInstructionsPredOn = 0;  // smsp__thread_inst_executed_pred_on.sum
  uint64_t globalLoadInstructions = 0;    // smsp__inst_executed_op_global_ld.sum
  uint64_t globalStoreInstructions = 0;   // smsp__inst_executed_op_global_st.sum
  uint64_t sharedLoadInstructions = 0;    // smsp__inst_executed_op_shared_ld.sum
  uint64_t sharedStoreInstructions = 0;   // smsp__inst_executed_op_shared_st.sum
  uint64_t atomicInstructions = 0;        // smsp__inst_executed_op_global_atom.sum + shared atoms
  uint64_t branchInstructions = 0;        // smsp__inst_executed_op_branch.sum
  uint64_t divergentBranches = 0;         // smsp__sass_branch_targets_threads_divergent.sum
  uint64_t barriers = 0;                  // smsp__inst_executed_op_barrier.sum
  uint64_t warpSyncHazards = 0;           // distinct hazards --check=warp-sync found
  std::string simtMode;
  // pmevent / __prof_trigger(n): prof_trigger_00 .. _07, once per warp.
  std::array<uint64_t, kProfileTriggers> profileTriggers{};                   // "stack", or "its" and the schedule: "its/converge"
  // Which launch this is: numbered from 1 in the order grids ran, device
  // launches included; a grid launched from device code names the grid
  // whose thread launched it (0 for the host) and its nesting depth.
  uint64_t launchId = 0;
  uint64_t parentLaunchId = 0;
  uint32_t launchDepth = 0;
  // Timing runs only (LaunchOptions::timing): what the timing model
  // measured, and the timing parameters in effect, shared by the launches
  // that ran under the same ones.
  bool timed = false;
  TimedStats timing;
  std::shared_ptr<const TimingParameterSet> timingParameters;
  double simulationSeconds = 0;           // host wall time spent simulating the launch
  unsigned hostThreads = 0;

  void add(const KernelStats& other);  // sums the counters (not the identity fields)
  // One JSON object, the launch's record in `--stats`: a timed launch's
  // names its timing parameters by their id ("ptxsim__config"), which
  // timingParametersRecord() gives in full.
  std::string toJson() const;
};

// The record of the timing parameters that launch records name by id:
// {"ptxsim__record": "config", "ptxsim__config": ID, "ptxsim__timing": {...}}.
// Records of launches have no "ptxsim__record" key; readers of `--stats`
// files skip the records that have one.
std::string timingParametersRecord(const TimingParameterSet& parameters);

}  // namespace ptxsim::sim
