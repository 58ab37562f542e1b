#include "ptxsim/sim/gpu_presets.h"

#include <algorithm>
#include <charconv>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>
#include <stdexcept>

#include "ptxsim/memory/hbm.h"
#include "ptxsim/memory/interconnect.h"
#include "ptxsim/memory/l2_cache.h"
#include "timing/instruction_fetch.h"

namespace ptxsim::sim {

namespace {

std::string trim(std::string_view s) {
  size_t b = s.find_first_not_of(" \t\r");
  size_t e = s.find_last_not_of(" \t\r");
  return b == std::string_view::npos ? std::string() : std::string(s.substr(b, e - b + 1));
}

// Decimal, or hexadecimal with a 0x prefix (PCI ids read better so).
template <typename T>
bool parseNumber(const std::string& text, T& out) {
  bool hex = text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
  const char* begin = text.data() + (hex ? 2 : 0);
  auto [end, ec] = std::from_chars(begin, text.data() + text.size(), out, hex ? 16 : 10);
  return ec == std::errc() && end == text.data() + text.size();
}

// A comma-separated list of numbers ("18,18,16").
bool parseList(const std::string& text, std::vector<uint32_t>& out) {
  std::vector<uint32_t> values;
  size_t at = 0;
  while (at <= text.size()) {
    size_t comma = text.find(',', at);
    if (comma == std::string::npos) comma = text.size();
    uint32_t value = 0;
    if (!parseNumber(text.substr(at, comma - at), value)) return false;
    values.push_back(value);
    at = comma + 1;
  }
  out = std::move(values);
  return !out.empty();
}

// Each key and the field it sets. Numbers only, except the name.
using Setter = std::function<bool(GpuConfig&, const std::string&)>;
template <typename T>
Setter number(T GpuConfig::*field) {
  return [field](GpuConfig& c, const std::string& v) { return parseNumber(v, c.*field); };
}
template <typename T>
Setter description(T DeviceDescription::*field) {
  return [field](GpuConfig& c, const std::string& v) { return parseNumber(v, c.description.*field); };
}

const std::map<std::string, Setter>& setters() {
  static const std::map<std::string, Setter> kSetters = {
      {"name", [](GpuConfig& c, const std::string& v) { return !(c.name = v).empty(); }},
      {"sm_version", number(&GpuConfig::smVersion)},
      {"sm_count", number(&GpuConfig::smCount)},
      {"gpc_sms", [](GpuConfig& c, const std::string& v) { return parseList(v, c.gpcSms); }},
      {"max_threads_per_sm", number(&GpuConfig::maxThreadsPerSm)},
      {"max_blocks_per_sm", number(&GpuConfig::maxBlocksPerSm)},
      {"cluster_blocks_per_sm", number(&GpuConfig::clusterBlocksPerSm)},
      {"registers_per_sm", number(&GpuConfig::registersPerSm)},
      {"registers_per_block", number(&GpuConfig::registersPerBlock)},
      {"shared_bytes_per_block", number(&GpuConfig::sharedBytesPerBlock)},
      {"shared_bytes_per_block_optin", number(&GpuConfig::sharedBytesPerBlockOptin)},
      {"shared_bytes_per_sm", number(&GpuConfig::sharedBytesPerSm)},
      {"constant_bytes", number(&GpuConfig::constantBytes)},
      {"global_memory_bytes", number(&GpuConfig::globalMemoryBytes)},
      {"clock_rate_khz", number(&GpuConfig::clockRateKhz)},
      {"stack_bytes_per_thread", number(&GpuConfig::stackBytesPerThread)},
      {"malloc_heap_bytes", number(&GpuConfig::mallocHeapBytes)},
      {"printf_fifo_bytes", number(&GpuConfig::printfFifoBytes)},
      {"memory_clock_rate_khz", description(&DeviceDescription::memoryClockRateKhz)},
      {"memory_bus_width_bits", description(&DeviceDescription::memoryBusWidthBits)},
      {"l2_cache_bytes", description(&DeviceDescription::l2CacheBytes)},
      {"persisting_l2_max_bytes", description(&DeviceDescription::persistingL2MaxBytes)},
      {"async_engine_count", description(&DeviceDescription::asyncEngineCount)},
      {"ecc_enabled", description(&DeviceDescription::eccEnabled)},
      {"single_to_double_perf_ratio", description(&DeviceDescription::singleToDoublePerfRatio)},
      {"context_reserved_bytes", description(&DeviceDescription::contextReservedBytes)},
      {"pci_domain", description(&DeviceDescription::pciDomain)},
      {"pci_bus", description(&DeviceDescription::pciBus)},
      {"pci_device", description(&DeviceDescription::pciDevice)},
      {"pci_device_id", description(&DeviceDescription::pciDeviceId)},
      {"pci_subsystem_id", description(&DeviceDescription::pciSubsystemId)},
      {"max_threads_per_block",
       [](GpuConfig& c, const std::string& v) { return parseNumber(v, c.limits.maxThreadsPerBlock); }},
  };
  return kSetters;
}

bool applyLine(const std::string& line, GpuConfig& config, std::string& error, const std::string& where) {
  size_t eq = line.find('=');
  if (eq == std::string::npos) {
    error = where + ": expected `key = value`";
    return false;
  }
  std::string key = trim(std::string_view(line).substr(0, eq));
  std::string value = trim(std::string_view(line).substr(eq + 1));
  auto it = setters().find(key);
  if (it == setters().end()) {
    if (const TimingParameter* timing = findTimingParameter(key)) {
      std::string why;
      if (timing->set(config.timing, value, why)) return true;
      error = where + ": bad value '" + value + "' for " + key + " (" + timing->unit + "): " + why;
      return false;
    }
    error = where + ": unknown key '" + key + "'";
    return false;
  }
  if (!it->second(config, value)) {
    error = where + ": bad value '" + value + "' for " + key;
    return false;
  }
  return true;
}

// Whether the caches and memory the timing keys describe can be built
// (whole sets, some channels): a bad combination is an error of the
// preset, not of a later launch.
bool timingGeometryFits(const TimingConfig& timing, std::string& error) {
  try {
    memory::checkHbmConfig(timing.dram);
    memory::checkL2Config(timing.l2);
    memory::checkInterconnectConfig(timing.noc);
    timing::InstructionFetch fetch(timing.fetch);  // small: its constructor checks it
    const uint32_t soonest = std::min({timing.l2.nearLatencyCycles, timing.l2.farLatencyCycles, timing.sm.ctaLaunchCycles});
    if (timing.syncWindowCycles >= soonest) {
      error = "gpu.sync_window (" + std::to_string(timing.syncWindowCycles) +
              " cycles) must be below the L2's round trip and sm.cta_launch (" + std::to_string(soonest) + " cycles)";
      return false;
    }
  } catch (const std::invalid_argument& e) {
    error = std::string("the timing keys describe no memory system that can be built: ") + e.what();
    return false;
  }
  return true;
}

}  // namespace

bool applyPreset(const std::string& text, GpuConfig& config, std::string& error, const std::string& origin) {
  std::istringstream lines(text);
  std::string line;
  unsigned number = 0;
  while (std::getline(lines, line)) {
    ++number;
    line = trim(line.substr(0, line.find('#')));
    if (line.empty()) continue;
    if (!applyLine(line, config, error, origin + ":" + std::to_string(number))) return false;
  }
  return true;
}

bool loadPreset(const std::string& spec, const std::string& presetDirectory, GpuConfig& config, std::string& error) {
  std::string base = spec.substr(0, spec.find(','));
  if (!base.empty()) {
    std::string path = base.find('/') != std::string::npos || base.find(".cfg") != std::string::npos
                           ? base
                           : presetDirectory + "/" + base + ".cfg";
    std::ifstream in(path);
    if (!in) {
      error = "no GPU preset '" + base + "' (" + path + " cannot be read)";
      return false;
    }
    std::stringstream text;
    text << in.rdbuf();
    if (!applyPreset(text.str(), config, error, path)) return false;
  }
  for (size_t at = spec.find(','); at != std::string::npos;) {
    size_t next = spec.find(',', at + 1);
    std::string item = spec.substr(at + 1, next == std::string::npos ? std::string::npos : next - at - 1);
    if (!applyLine(item, config, error, "override '" + item + "'")) return false;
    at = next;
  }
  return timingGeometryFits(config.timing, error);
}

std::string describe(const GpuConfig& c) {
  std::ostringstream out;
  out << "name = " << c.name << "\nsm_version = " << c.smVersion << "\nsm_count = " << c.smCount
      << "\nmax_threads_per_sm = " << c.maxThreadsPerSm << "\nshared_bytes_per_block_optin = "
      << c.sharedBytesPerBlockOptin << "\nclock_rate_khz = " << c.clockRateKhz << "\n";
  return out.str();
}

}  // namespace ptxsim::sim
