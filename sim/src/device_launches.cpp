// Runs the grids that device code launched (dynamic parallelism), after
// the grid that launched them: depth first, each grid's own launches right
// after it, in the order runGrid gave (exec/device_launch.h says why that
// order keeps every CDP2 stream rule).

#include "exec/device_launch.h"
#include "ptxsim/sim/gpu.h"

namespace ptxsim::sim {

void Gpu::runDeviceLaunches(LoadedModule& module, const LaunchOptions& options, const GridPlace& parent,
                            uint64_t parentLaunchId, std::vector<exec::DeviceLaunch>& launches,
                            LaunchResult& total) {
  for (size_t k = 0; k < launches.size(); ++k) {
    exec::DeviceLaunch& launch = launches[k];
    LaunchConfig config;
    config.grid = launch.grid;
    config.block = launch.block;
    config.dynamicSharedBytes = launch.dynamicSharedBytes;
    config.parameters = std::move(launch.parameters);
    // While this grid and its descendants run, the launches after it wait.
    GridPlace place{parent.depth + 1, parent.pendingBefore + (launches.size() - 1 - k), parentLaunchId};
    std::vector<exec::DeviceLaunch> children;
    LaunchResult child = runGrid(module, launch.function, config, options, place, children);
    total.printfOutput += child.printfOutput;
    total.warnings.insert(total.warnings.end(), child.warnings.begin(), child.warnings.end());
    total.deviceLaunches.push_back(child.stats);
    if (child.error) {
      // A fault in a child grid is the fault of the launch the host made.
      total.error = {child.error.kind, child.error.message + " (in a grid launched from the device, depth " +
                                           std::to_string(place.depth) + ")"};
      return;
    }
    if (!children.empty()) runDeviceLaunches(module, options, place, child.stats.launchId, children, total);
    if (total.error) return;
  }
}

}  // namespace ptxsim::sim
