#include "ptxsim/sim/kernel_stats.h"

#include <cstdio>

#include <nlohmann/json.hpp>

namespace ptxsim::sim {

void KernelStats::add(const KernelStats& o) {
  warpInstructions += o.warpInstructions;
  threadInstructions += o.threadInstructions;
  threadInstructionsPredOn += o.threadInstructionsPredOn;
  globalLoadInstructions += o.globalLoadInstructions;
  globalStoreInstructions += o.globalStoreInstructions;
  sharedLoadInstructions += o.sharedLoadInstructions;
  sharedStoreInstructions += o.sharedStoreInstructions;
  atomicInstructions += o.atomicInstructions;
  branchInstructions += o.branchInstructions;
  divergentBranches += o.divergentBranches;
  barriers += o.barriers;
  warpSyncHazards += o.warpSyncHazards;
  for (unsigned e = 0; e < kProfileTriggers; ++e) profileTriggers[e] += o.profileTriggers[e];
}

std::string KernelStats::toJson() const {
  nlohmann::ordered_json j;
  j["kernel"] = kernel;
  j["grid"] = {grid.x, grid.y, grid.z};
  j["block"] = {block.x, block.y, block.z};
  j["launch__shared_mem_per_block_dynamic"] = dynamicSharedBytes;
  j["launch__shared_mem_per_block_static"] = staticSharedBytes;
  j["launch__registers_per_thread"] = registersPerThread;
  j["smsp__inst_executed.sum"] = warpInstructions;
  j["smsp__thread_inst_executed.sum"] = threadInstructions;
  j["smsp__thread_inst_executed_pred_on.sum"] = threadInstructionsPredOn;
  j["smsp__inst_executed_op_global_ld.sum"] = globalLoadInstructions;
  j["smsp__inst_executed_op_global_st.sum"] = globalStoreInstructions;
  j["smsp__inst_executed_op_shared_ld.sum"] = sharedLoadInstructions;
  j["smsp__inst_executed_op_shared_st.sum"] = sharedStoreInstructions;
  j["smsp__inst_executed_op_atom.sum"] = atomicInstructions;
  j["smsp__inst_executed_op_branch.sum"] = branchInstructions;
  j["smsp__branch_targets_threads_divergent.sum"] = divergentBranches;
  j["smsp__inst_executed_op_barrier.sum"] = barriers;
  j["ptxsim__warp_sync_hazards"] = warpSyncHazards;
  j["ptxsim__simt_mode"] = simtMode;
  // The profiler's names for the __prof_trigger counters.
  for (unsigned e = 0; e < kProfileTriggers; ++e) {
    char name[24];
    std::snprintf(name, sizeof name, "prof_trigger_%02u", e);
    j[name] = profileTriggers[e];
  }
  j["ptxsim__launch_id"] = launchId;
  if (parentLaunchId != 0) {
    // Launched from device code (dynamic parallelism).
    j["ptxsim__parent_launch_id"] = parentLaunchId;
    j["ptxsim__launch_depth"] = launchDepth;
  }
  if (timed) {
    j["gpc__cycles_elapsed.max"] = timing.cyclesElapsed;
    j["sm__cycles_elapsed.avg"] = timing.cyclesElapsed;  // every SM is clocked for the whole launch
    j["gpu__time_duration.sum"] = timing.durationNs;
    j["sm__cycles_active.avg"] = timing.smCyclesActiveAvg;
    j["sm__warps_active.avg.pct_of_peak_sustained_active"] = timing.warpsActivePct;
    j["smsp__inst_issued.sum"] = timing.instructionsIssued;
    j["sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active"] = timing.tensorGmmaPct;
    j["sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active"] = timing.tensorHmmaPct;
    for (size_t r = 0; r < kStallReasons; ++r) {
      double ratio = timing.instructionsIssued == 0 ? 0.0
                                             : static_cast<double>(timing.stallWarpCycles[r]) /
                                                   static_cast<double>(timing.instructionsIssued);
      j[std::string("smsp__average_warp_latency_issue_stalled_") + kStallReasonNames[r] + ".ratio"] = ratio;
    }
    j["l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"] = timing.sharedBankConflictsLoad;
    j["l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"] = timing.sharedBankConflictsStore;
    j["l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_atom.sum"] = timing.sharedBankConflictsAtomic;
    j["l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"] = timing.l1LoadRequests;
    j["l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"] = timing.l1StoreRequests;
    j["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"] = timing.l1LoadSectors;
    j["l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"] = timing.l1StoreSectors;
    j["l1tex__t_requests_pipe_tex_mem_texture.sum"] = timing.l1TextureRequests;
    j["l1tex__t_sectors_pipe_tex_mem_texture.sum"] = timing.l1TextureSectors;
    j["l1tex__t_sectors_pipe_tex_mem_surface_op_ld.sum"] = timing.l1SurfaceLoadSectors;
    j["l1tex__t_sectors_pipe_tex_mem_surface_op_st.sum"] = timing.l1SurfaceStoreSectors;
    j["l1tex__t_requests_pipe_lsu_mem_global_op_ldgsts.sum"] = timing.l1LdgstsRequests;
    j["l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts.sum"] = timing.l1LdgstsSectors;
    uint64_t sectors = timing.l1LoadSectors + timing.l1StoreSectors + timing.l1TextureSectors +
                       timing.l1SurfaceLoadSectors + timing.l1SurfaceStoreSectors + timing.l1LdgstsSectors;
    j["l1tex__t_sector_hit_rate.pct"] =
        sectors == 0 ? 0.0 : 100.0 * static_cast<double>(timing.l1SectorHits) / static_cast<double>(sectors);
    // Every lookup, the SMs' and those between the L2's partitions
    // (srcunit ltcfabric), as the H100's lts__t_sectors counts them.
    const uint64_t lookups = timing.l2Sectors + timing.l2FabricSectors;
    j["lts__t_sectors.sum"] = lookups;
    j["lts__t_sector_hit_rate.pct"] =
        lookups == 0 ? 0.0
                     : 100.0 * static_cast<double>(timing.l2SectorHits + timing.l2FabricSectorHits) /
                           static_cast<double>(lookups);
    j["lts__t_sectors_srcunit_tex.sum"] = timing.l2Sectors;
    j["lts__t_sectors_srcunit_tex_lookup_hit.sum"] = timing.l2SectorHits;
    j["lts__t_sectors_srcunit_tex_lookup_miss.sum"] = timing.l2SectorMisses;
    j["lts__t_sectors_srcunit_ltcfabric.sum"] = timing.l2FabricSectors;
    j["lts__t_sectors_srcunit_ltcfabric_lookup_hit.sum"] = timing.l2FabricSectorHits;
    j["lts__t_sectors_srcunit_ltcfabric_lookup_miss.sum"] = timing.l2FabricSectorMisses;
    // Every unit's lookups: the SMs' and the partitions' (the H100's also
    // count other units', which `ptxsim compare --background` takes out).
    j["lts__t_sectors_lookup_hit.sum"] = timing.l2SectorHits + timing.l2FabricSectorHits;
    j["lts__t_sectors_lookup_miss.sum"] = timing.l2SectorMisses + timing.l2FabricSectorMisses;
    j["ptxsim__l2_coalesced_read_sectors.sum"] = timing.l2CoalescedSectors;  // not looked up: see above
    j["dram__bytes_read.sum"] = timing.dramBytesRead;
    j["dram__bytes_write.sum"] = timing.dramBytesWritten;
    if (timingParameters != nullptr) j["ptxsim__config"] = timingParameters->id;
  }
  j["ptxsim__simulation_seconds"] = simulationSeconds;
  j["ptxsim__host_threads"] = hostThreads;
  return j.dump();
}

std::string timingParametersRecord(const TimingParameterSet& parameters) {
  // The parameters are JSON already: written as they are, not parsed again.
  return R"({"ptxsim__record":"config","ptxsim__config":")" + parameters.id + R"(","ptxsim__timing":)" +
         parameters.json + "}";
}

}  // namespace ptxsim::sim
