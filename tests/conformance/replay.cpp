#include "replay.h"

#include <zstd.h>

#include <cinttypes>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>

#include "kernel_text.h"
#include "ptxsim/runtime/device.h"
#include "suite.h"

namespace ptxsim::conformance {
namespace {

constexpr uint32_t kBlock = 128;
constexpr size_t kShownPerForm = 3;

std::string decompress(const std::string& compressed, const std::string& path) {
  const unsigned long long size = ZSTD_getFrameContentSize(compressed.data(), compressed.size());
  if (size == ZSTD_CONTENTSIZE_ERROR || size == ZSTD_CONTENTSIZE_UNKNOWN)
    throw std::runtime_error(path + " is not a zstd frame with its size");
  std::string out(size, '\0');
  const size_t got = ZSTD_decompress(out.data(), out.size(), compressed.data(), compressed.size());
  if (ZSTD_isError(got) || got != size) throw std::runtime_error(path + ": " + ZSTD_getErrorName(got));
  return out;
}

std::string hex(uint64_t v) {
  char text[24];
  std::snprintf(text, sizeof text, "0x%" PRIx64, v);
  return text;
}

std::string firstLine(const std::string& text) { return text.substr(0, text.find('\n')); }

// One host thread, and every kernel prepared when its module loads: the
// suite tells the forms the simulator refuses (at load) from those that
// run and differ, which lazy loading would only tell at the launch.
DeviceOptions conformanceDeviceOptions() {
  return DeviceOptions{.hostThreads = 1, .moduleLoading = sim::ModuleLoading::Eager};
}

struct Outcome {
  std::vector<std::string> differences;               // one line per differing form
  std::map<std::string, std::vector<std::string>> refused;  // the loader's reason -> forms
  size_t matched = 0;
  size_t runFailures = 0;
};

// One form on the simulator: the loader's refusal, a failed launch, or every record's outputs.
struct Simulated {
  std::string refused;
  std::string launchError;
  std::vector<uint64_t> outputs;  // records x form.outputs() slots
};

Simulated simulate(Device& device, const SuiteForm& s) {
  const Form& form = *s.form;
  Simulated result;
  std::shared_ptr<sim::LoadedModule> module;
  try {
    module = device.loadModule(moduleHeader() + kernelText(form, "k"), form.name);
  } catch (const std::exception& e) {
    result.refused = firstLine(e.what());
    return result;
  }
  const uint32_t records = s.inputs.records;
  const uint64_t bytes = uint64_t{records} * form.outputs() * 8;
  const uint64_t in = device.malloc(std::max<uint64_t>(8, s.inputs.slots.size() * 8));
  if (!s.inputs.slots.empty()) device.write(in, s.inputs.slots);
  const uint64_t out = device.malloc(bytes);
  device.memset(out, 0, bytes);
  sim::LaunchResult launch =
      device.launch(*module, "k", {(records + kBlock - 1) / kBlock}, {kBlock}, 0, KernelArgs().add(in).add(out).add(records));
  if (launch.error) result.launchError = launch.error.message;
  else result.outputs = device.read<uint64_t>(out, bytes / 8);
  device.free(in);
  device.free(out);
  return result;
}

// Runs one form; returns the differences shown ("" when it matches).
std::string runForm(Device& device, const SuiteForm& s, const uint64_t* want, Outcome& outcome) {
  const Form& form = *s.form;
  Simulated simulated = simulate(device, s);
  if (!simulated.refused.empty()) {
    std::string why = simulated.refused;
    if (size_t at = why.find("error: "); at != std::string::npos) why = why.substr(at + 7);
    outcome.refused[why].push_back(form.name);
    return {};
  }
  if (!simulated.launchError.empty()) {
    ++outcome.runFailures;
    return form.name + ": the launch failed on the simulator: " + simulated.launchError;
  }
  const uint32_t records = s.inputs.records, sources = form.sources(), outputs = form.outputs();
  const std::vector<uint64_t>& got = simulated.outputs;
  std::ostringstream shown;
  size_t differing = 0;
  for (uint32_t r = 0; r < records; ++r) {
    for (uint32_t o = 0; o < outputs; ++o) {
      const uint64_t w = want[size_t{r} * outputs + o], g = got[size_t{r} * outputs + o];
      if (w == g) continue;
      if (differing++ < kShownPerForm) {
        shown << "\n    record " << r << " inputs";
        for (uint32_t i = 0; i < sources; ++i) shown << " " << hex(s.inputs.slots[size_t{r} * sources + i]);
        shown << ": result " << o << " GPU " << hex(w) << ", ptxsim " << hex(g);
      }
    }
  }
  if (differing == 0) {
    ++outcome.matched;
    return {};
  }
  return form.name + ": " + std::to_string(differing) + " of " + std::to_string(records * outputs) +
         " results differ" + shown.str();
}

void writeReport(const std::string& path, const std::string& formsPath, const Enumeration& all, const std::vector<SuiteForm>& suite,
                 const Outcome& outcome, const std::string& rejectedPath, const std::string& recordedOn) {
  std::ostringstream r;
  size_t ptxasRejected = 0;
  if (std::filesystem::exists(rejectedPath)) ptxasRejected = readLines(rejectedPath).size();
  size_t refused = 0;
  for (const auto& [why, forms] : outcome.refused) refused += forms.size();
  r << "# ISA conformance against silicon\n\n";
  r << "Recorded on: " << recordedOn << "\n\n";
  r << "| | forms |\n|---|---|\n";
  r << "| " << (setOfFormsFile(formsPath) == FormSet::Memory ? "memory and warp-collective" : "register-to-register")
    << " forms the instruction table accepts for sm_90 | " << all.forms.size() << " |\n";
  r << "| ... of which ptxas rejects (" << std::filesystem::path(rejectedPath).filename().string() << ") | "
    << ptxasRejected << " |\n";
  r << "| forms recorded on the GPU | " << suite.size() << " |\n";
  r << "| tested and identical bit for bit | " << outcome.matched << " |\n";
  r << "| refused by the simulator at load (below) | " << refused << " |\n";
  r << "| differing (below) | " << outcome.differences.size() << " |\n";
  r << "| failed to run on the simulator | " << outcome.runFailures << " |\n\n";
  r << "## Refused at load\n\n";
  for (const auto& [why, forms] : outcome.refused) {
    r << "- " << why << ": " << forms.size() << " form(s):";
    for (const std::string& f : forms) r << " `" << f << "`";
    r << "\n";
  }
  r << "\n## Differences\n\n";
  for (const std::string& d : outcome.differences) r << "- " << d << "\n";
  if (!all.collapsed.empty()) {
    r << "\n## Modifier combinations on representatives only\n\n";
    for (const std::string& note : all.collapsed) r << "- " << note << "\n";
  }
  r << "\n## Table rows not in the suite\n\n";
  for (const ExcludedRow& row : all.rows) r << "- `" << row.what << "`: " << row.why << "\n";
  writeFile(path, r.str());
}

}  // namespace

int dump(const std::string& formsPath, const std::string& outputsPath, const std::string& formName) {
  const Enumeration all = enumerateForms(setOfFormsFile(formsPath));
  const std::vector<SuiteForm> suite = suiteOf(all, readLines(formsPath));
  const std::string outputs = decompress(readFile(outputsPath), outputsPath);
  size_t offset = 0;
  for (const SuiteForm& s : suite) {
    const Form& form = *s.form;
    const uint32_t records = s.inputs.records, sources = form.sources(), outputCount = form.outputs();
    const size_t bytes = size_t{records} * outputCount * 8;
    if (offset + bytes > outputs.size()) throw std::runtime_error(outputsPath + " is shorter than the forms of " + formsPath);
    if (form.name != formName) {
      offset += bytes;
      continue;
    }
    std::vector<uint64_t> want(bytes / 8);
    std::memcpy(want.data(), outputs.data() + offset, bytes);
    std::cout << moduleHeader() + kernelText(form, "k") << "\n";
    Device device(sim::GpuConfig{}, conformanceDeviceOptions());
    const Simulated simulated = simulate(device, s);
    if (!simulated.refused.empty()) std::cout << "# refused at load: " << simulated.refused << "\n";
    if (!simulated.launchError.empty()) std::cout << "# the launch failed on the simulator: " << simulated.launchError << "\n";
    const std::vector<uint64_t>& got = simulated.outputs;
    // One line a record: its inputs, then each result as GPU/ptxsim ('=' when equal).
    std::cout << "# record: inputs | results GPU/ptxsim\n";
    for (uint32_t r = 0; r < records; ++r) {
      std::cout << r;
      for (uint32_t i = 0; i < sources; ++i) std::cout << " " << hex(s.inputs.slots[size_t{r} * sources + i]);
      std::cout << " |";
      for (uint32_t o = 0; o < outputCount; ++o) {
        const uint64_t w = want[size_t{r} * outputCount + o];
        std::cout << " " << hex(w);
        if (got.empty()) continue;
        const uint64_t g = got[size_t{r} * outputCount + o];
        std::cout << (g == w ? "=" : "/" + hex(g));
      }
      std::cout << "\n";
    }
    return 0;
  }
  std::cerr << formName << " is not a form of " << formsPath << "\n";
  return 1;
}

int simulateAll(const std::string& formsPath, const std::string& outputsPath) {
  const Enumeration all = enumerateForms(setOfFormsFile(formsPath));  // the suite points into it
  const std::vector<SuiteForm> suite = suiteOf(all, readLines(formsPath));
  Device device(sim::GpuConfig{}, conformanceDeviceOptions());
  std::string outputs;
  size_t refused = 0, failed = 0;
  for (const SuiteForm& s : suite) {
    Simulated simulated = simulate(device, s);
    refused += !simulated.refused.empty();
    failed += !simulated.launchError.empty();
    // A refused form or a failed launch leaves its results zero, as the runner clears them.
    simulated.outputs.resize(size_t{s.inputs.records} * s.form->outputs(), 0);
    outputs.append(reinterpret_cast<const char*>(simulated.outputs.data()), simulated.outputs.size() * 8);
  }
  std::string compressed(ZSTD_compressBound(outputs.size()), '\0');
  const size_t size = ZSTD_compress(compressed.data(), compressed.size(), outputs.data(), outputs.size(), 3);
  if (ZSTD_isError(size)) throw std::runtime_error(std::string("compressing: ") + ZSTD_getErrorName(size));
  compressed.resize(size);
  writeFile(outputsPath, compressed);
  std::cout << suite.size() << " forms simulated (" << refused << " refused at load, " << failed
            << " failed to launch) into " << outputsPath << "\n";
  return 0;
}

int replay(const std::string& formsPath, const std::string& outputsPath, const std::string& reportPath,
           const std::string& onlyFormsContaining) {
  const Enumeration all = enumerateForms(setOfFormsFile(formsPath));
  const std::vector<SuiteForm> suite = suiteOf(all, readLines(formsPath));
  const std::string outputs = decompress(readFile(outputsPath), outputsPath);
  size_t expectedBytes = 0;
  for (const SuiteForm& s : suite) expectedBytes += size_t{s.inputs.records} * s.form->outputs() * 8;
  if (outputs.size() != expectedBytes)
    throw std::runtime_error(outputsPath + " holds " + std::to_string(outputs.size()) + " bytes of results; the forms of " +
                             formsPath + " with their inputs give " + std::to_string(expectedBytes) +
                             ": the generator changed since the recording (record again: tests/conformance/record.sh)");
  Device device(sim::GpuConfig{}, conformanceDeviceOptions());
  Outcome outcome;
  size_t offset = 0;
  for (const SuiteForm& s : suite) {
    const size_t bytes = size_t{s.inputs.records} * s.form->outputs() * 8;
    std::vector<uint64_t> want(bytes / 8);
    std::memcpy(want.data(), outputs.data() + offset, bytes);
    offset += bytes;
    if (!onlyFormsContaining.empty() && s.form->name.find(onlyFormsContaining) == std::string::npos) continue;
    if (std::string difference = runForm(device, s, want.data(), outcome); !difference.empty())
      outcome.differences.push_back(difference);
  }
  std::string recordedOn = "(not recorded)";
  const std::string recordedOnPath = companionPath(formsPath, "recorded_on.txt");
  if (std::filesystem::exists(recordedOnPath)) recordedOn = firstLine(readFile(recordedOnPath));
  writeReport(reportPath, formsPath, all, suite, outcome, companionPath(formsPath, "ptxas_rejected.txt"), recordedOn);
  size_t refused = 0;
  for (const auto& [why, forms] : outcome.refused) refused += forms.size();
  // Differences not fixed yet are listed (known_differences.txt, one form a line): the test
  // fails on a form that differs and is not listed, and on a listed one that matches now.
  std::set<std::string> known;
  const std::string knownPath = companionPath(formsPath, "known_differences.txt");
  if (std::filesystem::exists(knownPath) && onlyFormsContaining.empty()) {
    for (const std::string& line : readLines(knownPath)) known.insert(line);
  }
  size_t unexpected = 0;
  std::set<std::string> differing;
  for (const std::string& d : outcome.differences) {
    const std::string name = d.substr(0, d.find(": "));
    differing.insert(name);
    const bool listed = known.count(name) != 0;
    unexpected += !listed;
    std::cout << (listed ? "DIFFERS (known) " : "DIFFERS ") << d << "\n";
  }
  for (const std::string& name : known) {
    if (differing.count(name) == 0) {
      ++unexpected;
      std::cout << "FIXED " << name << ": it matches the GPU now; remove it from " << std::filesystem::path(knownPath).filename().string() << "\n";
    }
  }
  std::cout << "conformance: " << suite.size() << " forms recorded on the GPU; " << outcome.matched
            << " identical bit for bit, " << refused << " refused at load, " << outcome.differences.size()
            << " differ; report: " << reportPath << "\n";
  return unexpected == 0 ? 0 : 1;
}

}  // namespace ptxsim::conformance
