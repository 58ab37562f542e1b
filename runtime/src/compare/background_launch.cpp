#include "ptxsim/runtime/compare/background_launch.h"

#include <charconv>
#include <string_view>

#include "ptxsim/runtime/compare/kernel_names.h"

namespace ptxsim::runtime::compare {

namespace {

// The counters an idle launch has too: the L2's lookups and DRAM's bytes.
// Not rates, cycles, times or instructions, which mean what they say only
// for a whole launch.
bool isMemoryCounter(std::string_view metric) {
  return (metric.starts_with("lts__") || metric.starts_with("dram__")) && metric.ends_with(".sum");
}

bool sameKernel(const std::string& kernel, const std::string& name) {
  return demangledName(kernel) == demangledName(name) || kernelBaseName(kernel) == kernelBaseName(name);
}

}  // namespace

BackgroundLaunch parseBackgroundLaunch(const std::string& spec) {
  BackgroundLaunch background{spec, 0};
  const size_t hash = spec.rfind('#');
  if (hash != std::string::npos) {
    std::string_view number = std::string_view(spec).substr(hash + 1);
    auto [end, error] = std::from_chars(number.data(), number.data() + number.size(), background.index);
    if (number.empty() || error != std::errc() || end != number.data() + number.size())
      throw CompareError("--background: '" + spec +
                         "' is not NAME or NAME #N (N the launch's index, from 0)");
    background.name = spec.substr(0, hash);
    while (!background.name.empty() && background.name.back() == ' ') background.name.pop_back();
  }
  if (background.name.empty()) throw CompareError("--background: no kernel name in '" + spec + "'");
  return background;
}

void subtractBackground(std::vector<LaunchMetrics>& launches, const BackgroundLaunch& background,
                        const std::string& file) {
  size_t seen = 0;
  auto idle = launches.end();
  for (auto launch = launches.begin(); launch != launches.end(); ++launch) {
    if (sameKernel(launch->kernel, background.name) && seen++ == background.index) {
      idle = launch;
      break;
    }
  }
  if (idle == launches.end())
    throw CompareError("--background: " + file + " has " + std::to_string(seen) + " launch(es) of " +
                       background.name + ", not launch #" + std::to_string(background.index));
  const LaunchMetrics counters = *idle;
  launches.erase(idle);
  for (LaunchMetrics& launch : launches) {
    for (auto& [name, value] : launch.metrics) {
      if (!isMemoryCounter(name)) continue;
      auto idleValue = counters.metrics.find(name);
      if (idleValue != counters.metrics.end()) value -= idleValue->second;
    }
  }
}

}  // namespace ptxsim::runtime::compare
