#include "suite.h"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <unordered_map>

#include "kernel_text.h"

namespace ptxsim::conformance {

std::vector<SuiteForm> suiteOf(const Enumeration& all, const std::vector<std::string>& names) {
  std::unordered_map<std::string, const Form*> byName;
  for (const Form& f : all.forms) byName.emplace(f.name, &f);
  std::vector<SuiteForm> suite;
  for (const std::string& name : names) {
    auto it = byName.find(name);
    if (it == byName.end()) {
      std::string why = "form '";
      why += name;
      why += "' of the recording is not a candidate of the instruction table any more: record the suite again "
             "(tests/conformance/record.sh)";
      throw std::runtime_error(why);
    }
    SuiteForm s;
    s.form = it->second;
    s.module = name.substr(0, name.find_first_of(". "));
    s.kernel = "k";  // appended, not "k" + ...: GCC 12 warns falsely (-Wrestrict) on the latter
    s.kernel += std::to_string(suite.size());
    s.inputs = inputsFor(*s.form);
    suite.push_back(std::move(s));
  }
  return suite;
}

std::map<std::string, std::string> moduleTexts(const std::vector<SuiteForm>& suite,
                                               std::map<std::string, uint32_t>* firstLine) {
  std::map<std::string, std::string> modules;
  for (const SuiteForm& s : suite) {
    std::string& text = modules[s.module];
    if (text.empty()) text = moduleHeader();
    if (firstLine != nullptr)
      (*firstLine)[s.kernel] = static_cast<uint32_t>(std::count(text.begin(), text.end(), '\n')) + 1;
    text += kernelText(*s.form, s.kernel) + "\n";
  }
  return modules;
}

std::vector<std::string> readLines(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line[0] != '#') lines.push_back(line);
  }
  return lines;
}

std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

void writeFile(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary);
  out << bytes;
  if (!out) throw std::runtime_error("cannot write " + path);
}

}  // namespace ptxsim::conformance
