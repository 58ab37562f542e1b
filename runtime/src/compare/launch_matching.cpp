#include "ptxsim/runtime/compare/launch_matching.h"

#include <functional>
#include <map>

#include "ptxsim/runtime/compare/kernel_names.h"

namespace ptxsim::runtime::compare {

namespace {

// Pairs the launches not yet paired whose keys are equal, in order, and
// marks them paired.
void pairByKey(const std::vector<LaunchMetrics>& hardware, const std::vector<LaunchMetrics>& simulated,
               const std::function<std::string(const LaunchMetrics&)>& key, std::vector<bool>& hardwarePaired,
               std::vector<bool>& simulatedPaired, std::vector<std::pair<size_t, size_t>>& pairs) {
  std::map<std::string, std::vector<size_t>> waiting;  // simulated launches by key, in order
  for (size_t s = 0; s < simulated.size(); ++s)
    if (!simulatedPaired[s]) waiting[key(simulated[s])].push_back(s);
  std::map<std::string, size_t> taken;
  for (size_t h = 0; h < hardware.size(); ++h) {
    if (hardwarePaired[h]) continue;
    auto candidates = waiting.find(key(hardware[h]));
    if (candidates == waiting.end()) continue;
    size_t& next = taken[candidates->first];
    if (next == candidates->second.size()) continue;
    size_t s = candidates->second[next++];
    hardwarePaired[h] = simulatedPaired[s] = true;
    pairs.emplace_back(h, s);
  }
}

}  // namespace

LaunchMatching matchLaunches(const std::vector<LaunchMetrics>& hardware,
                             const std::vector<LaunchMetrics>& simulated) {
  std::vector<bool> hardwarePaired(hardware.size()), simulatedPaired(simulated.size());
  std::vector<std::pair<size_t, size_t>> pairs;
  pairByKey(hardware, simulated, [](const LaunchMetrics& l) { return demangledName(l.kernel); }, hardwarePaired,
            simulatedPaired, pairs);
  pairByKey(hardware, simulated, [](const LaunchMetrics& l) { return kernelBaseName(l.kernel); }, hardwarePaired,
            simulatedPaired, pairs);

  // Labels number each kernel's launches on its own side, from 0.
  auto labels = [](const std::vector<LaunchMetrics>& launches) {
    std::map<std::string, size_t> seen;
    std::vector<std::string> result;
    for (const LaunchMetrics& launch : launches) {
      std::string name = demangledName(launch.kernel);
      result.push_back(name + " #" + std::to_string(seen[name]++));
    }
    return result;
  };
  std::vector<std::string> hardwareLabels = labels(hardware), simulatedLabels = labels(simulated);

  LaunchMatching matching;
  std::vector<const std::pair<size_t, size_t>*> byHardware(hardware.size(), nullptr);
  for (const auto& pair : pairs) byHardware[pair.first] = &pair;
  for (size_t h = 0; h < hardware.size(); ++h) {
    if (byHardware[h] == nullptr) continue;
    size_t s = byHardware[h]->second;
    matching.matched.push_back({simulatedLabels[s], &hardware[h], &simulated[s]});
  }
  for (size_t h = 0; h < hardware.size(); ++h)
    if (!hardwarePaired[h]) matching.unmatched.push_back({hardwareLabels[h], true});
  for (size_t s = 0; s < simulated.size(); ++s)
    if (!simulatedPaired[s]) matching.unmatched.push_back({simulatedLabels[s], false});
  return matching;
}

}  // namespace ptxsim::runtime::compare
