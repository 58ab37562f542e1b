// ptxsim_conformance: the ISA conformance suite against silicon.
// FORMS names the set: memory_forms.txt (or any name starting "memory") is the
// memory set (atomics, warp collectives), any other name the register set.
//   filter PTXAS FORMS_OUT REJECTED_OUT   the candidate forms of FORMS_OUT's set ptxas accepts for sm_90
//   generate FORMS DIR                    modules (DIR/NAME.ptx), manifest and inputs for the GPU runner
//   replay FORMS OUTPUTS.zst REPORT       runs every form on the simulator against the recorded outputs
//   dump FORMS OUTPUTS.zst FORM           one form's kernel and every record, GPU against simulator
//   simulate FORMS OUTPUTS.zst            the simulator's outputs as a recording (a self-check of the kernels)
// tests/conformance/record.sh strings the first two and the GPU run together.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include <unistd.h>

#include "kernel_text.h"
#include "replay.h"
#include "suite.h"

namespace ptxsim::conformance {
namespace {

// The kernel a ptxas error line falls in, by the kernels' first lines.
std::string kernelAtLine(const std::map<std::string, uint32_t>& firstLine, const std::vector<std::string>& kernels,
                         uint32_t line) {
  std::string best;
  uint32_t bestLine = 0;
  for (const std::string& k : kernels) {
    uint32_t first = firstLine.at(k);
    if (first <= line && first >= bestLine) {
      best = k;
      bestLine = first;
    }
  }
  return best;
}

// Runs ptxas for sm_90 on `text`; "" when it compiles, else ptxas's output.
std::string ptxasOutput(const std::string& ptxas, const std::filesystem::path& work, const std::string& name,
                        const std::string& text) {
  const std::string ptx = (work / (name + ".ptx")).string();
  const std::string log = (work / (name + ".log")).string();
  writeFile(ptx, text);
  const std::string command = "'" + ptxas + "' -arch=sm_90 -o /dev/null '" + ptx + "' > '" + log + "' 2>&1";
  const int status = std::system(command.c_str());
  if (status == 0) return {};
  std::string output = readFile(log);
  if (output.empty()) output = "ptxas exited with status " + std::to_string(status);
  return output;
}

// The last non-empty line of ptxas's output, for a failure that names no line of a kernel.
std::string lastLine(const std::string& output) {
  std::string last;
  std::istringstream lines(output);
  for (std::string line; std::getline(lines, line);) {
    if (!line.empty()) last = line;
  }
  return last;
}

int filter(const std::string& ptxas, const std::string& formsOut, const std::string& rejectedOut) {
  Enumeration all = enumerateForms(setOfFormsFile(formsOut));
  std::vector<std::string> names;
  for (const Form& f : all.forms) names.push_back(f.name);
  std::map<std::string, std::string> rejected;  // form -> ptxas's first message
  // Per process: helpers may filter at the same time.
  const std::filesystem::path work =
      std::filesystem::temp_directory_path() / ("ptxsim_conformance_filter_" + std::to_string(getpid()));
  std::filesystem::create_directories(work);
  const std::regex errorLine(R"(line (\d+); error\s*:\s*(.*))");
  for (int round = 0; round < 50; ++round) {
    std::vector<SuiteForm> suite = suiteOf(all, names);
    std::map<std::string, uint32_t> firstLine;
    std::map<std::string, std::string> modules = moduleTexts(suite, &firstLine);
    std::map<std::string, std::vector<std::string>> kernelsOf;
    std::map<std::string, std::string> formOf;
    for (const SuiteForm& s : suite) {
      kernelsOf[s.module].push_back(s.kernel);
      formOf[s.kernel] = s.form->name;
    }
    size_t before = rejected.size();
    for (const auto& [module, text] : modules) {
      const std::string output = ptxasOutput(ptxas, work, module, text);
      if (output.empty()) continue;
      std::istringstream lines(output);
      bool any = false;
      for (std::string line; std::getline(lines, line);) {
        std::smatch m;
        if (!std::regex_search(line, m, errorLine)) continue;
        std::string kernel = kernelAtLine(firstLine, kernelsOf[module], static_cast<uint32_t>(std::stoul(m[1])));
        if (kernel.empty()) continue;
        rejected.emplace(formOf[kernel], m[2]);
        any = true;
      }
      if (any) continue;
      // A failure that names no kernel (ptxas 13.0 crashes on ld.v8.b16): each kernel alone.
      std::cerr << "ptxas failed on module " << module << " without a line of a kernel (" << lastLine(output)
                << "); compiling its kernels one by one\n";
      for (const SuiteForm& s : suite) {
        if (s.module != module) continue;
        const std::string alone = ptxasOutput(ptxas, work, "alone", moduleHeader() + kernelText(*s.form, s.kernel));
        if (alone.empty()) continue;
        std::smatch m;
        rejected.emplace(s.form->name,
                         std::regex_search(alone, m, errorLine) ? std::string(m[2]) : "ptxas failed: " + lastLine(alone));
        any = true;
      }
      if (!any) {
        std::cerr << "ptxas failed on module " << module << " but on none of its kernels alone:\n" << output;
        return 2;
      }
    }
    if (rejected.size() == before) break;
    names.erase(std::remove_if(names.begin(), names.end(), [&](const std::string& n) { return rejected.count(n); }),
                names.end());
  }
  std::string accepted, refused;
  for (const std::string& n : names) accepted += n + "\n";
  for (const auto& [form, why] : rejected) refused += form + "\t" + why + "\n";
  writeFile(formsOut, std::string("# Forms of the instruction table that ptxas (sm_90) accepts: the conformance suite") +
                          (setOfFormsFile(formsOut) == FormSet::Memory ? "'s memory set" : "") + ".\n" + accepted);
  writeFile(rejectedOut, "# Forms the instruction table accepts and ptxas rejects for sm_90, with ptxas's message.\n" +
                             refused);
  std::cout << all.forms.size() << " candidate forms: " << names.size() << " accepted by ptxas, " << rejected.size()
            << " rejected; " << all.rows.size() << " table rows excluded\n";
  return 0;
}

int generate(const std::string& formsPath, const std::string& dir) {
  Enumeration all = enumerateForms(setOfFormsFile(formsPath));
  std::vector<SuiteForm> suite = suiteOf(all, readLines(formsPath));
  std::filesystem::create_directories(dir);
  for (const auto& [module, text] : moduleTexts(suite)) writeFile(dir + "/" + module + ".ptx", text);
  std::string manifest, inputs;
  for (const SuiteForm& s : suite) {
    manifest += s.module + " " + s.kernel + " " + std::to_string(s.inputs.records) + " " +
                std::to_string(s.form->sources()) + " " + std::to_string(s.form->outputs()) + "\n";
    inputs.append(reinterpret_cast<const char*>(s.inputs.slots.data()), s.inputs.slots.size() * 8);
  }
  writeFile(dir + "/manifest.txt", manifest);
  writeFile(dir + "/inputs.bin", inputs);
  std::cout << suite.size() << " forms in " << dir << "\n";
  return 0;
}

}  // namespace
}  // namespace ptxsim::conformance

int main(int argc, char** argv) {
  using namespace ptxsim::conformance;
  const std::vector<std::string> args(argv + 1, argv + argc);
  try {
    if (args.size() == 4 && args[0] == "filter") return filter(args[1], args[2], args[3]);
    if (args.size() == 3 && args[0] == "generate") return generate(args[1], args[2]);
    if (args.size() == 3 && args[0] == "simulate") return simulateAll(args[1], args[2]);
    if (args.size() == 4 && args[0] == "dump") return dump(args[1], args[2], args[3]);
    if (args.size() >= 4 && args[0] == "replay") return replay(args[1], args[2], args[3], args.size() > 4 ? args[4] : "");
  } catch (const std::exception& e) {
    std::cerr << "ptxsim_conformance: error: " << e.what() << "\n";
    return 2;
  }
  std::cerr << "usage: ptxsim_conformance filter PTXAS FORMS_OUT REJECTED_OUT\n"
               "       ptxsim_conformance generate FORMS DIR\n"
               "       ptxsim_conformance replay FORMS OUTPUTS.zst REPORT [FORM_FILTER]\n"
               "       ptxsim_conformance dump FORMS OUTPUTS.zst FORM\n"
               "       ptxsim_conformance simulate FORMS OUTPUTS.zst\n";
  return 2;
}
