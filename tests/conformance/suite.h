#pragma once

// The conformance suite as files: the forms a recording covers (one name a
// line), the modules the GPU runs (a kernel per form, grouped by
// mnemonic), their inputs and the recorded outputs, all in the order of the
// forms file.

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "form.h"
#include "test_values.h"

namespace ptxsim::conformance {

struct SuiteForm {
  const Form* form = nullptr;
  std::string module;  // the mnemonic's first word: "add", "cvt"
  std::string kernel;  // "k<index in the forms file>"
  Inputs inputs;
};

// The forms named in `names`, looked up among the candidates; throws
// std::runtime_error naming a form the table no longer has.
std::vector<SuiteForm> suiteOf(const Enumeration& all, const std::vector<std::string>& names);

// The module texts by module name, each kernel's first line recorded in `firstLine` (by kernel).
std::map<std::string, std::string> moduleTexts(const std::vector<SuiteForm>& suite,
                                               std::map<std::string, uint32_t>* firstLine = nullptr);

std::vector<std::string> readLines(const std::string& path);
std::string readFile(const std::string& path);
void writeFile(const std::string& path, const std::string& bytes);

}  // namespace ptxsim::conformance
