// The front end refuses what ptxas refuses for sm_90, with ptxas's
// message, and still takes what ptxas takes. The forms are the conformance
// suite's (tests/conformance/form.h), each built into the same kernel the
// suite gives ptxas and compiled by the front end alone: ptxas's verdicts
// were recorded with them (h100/ptxas_rejected.txt, h100/forms.txt and
// their memory_ twins).

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "form.h"
#include "kernel_text.h"
#include "ptxsim/isa/lower.h"

namespace ptxsim {
namespace {

const std::string kRecording = std::string(PTXSIM_SOURCE_DIR) + "/tests/conformance/h100/";

// The rejected forms the front end does not refuse with ptxas's message
// yet, counted by that message (ptxas_strictness_pending.txt): what is left
// to express as rules. Counts are exact, so a new rule updates the file.
std::map<std::string, size_t> pendingCounts() {
  std::ifstream in(std::string(PTXSIM_SOURCE_DIR) + "/tests/isa/ptxas_strictness_pending.txt");
  EXPECT_TRUE(in);
  std::map<std::string, size_t> out;
  std::string text;
  while (std::getline(in, text)) {
    if (text.empty() || text[0] == '#') continue;
    size_t tab = text.find('\t');
    out[text.substr(tab + 1)] = std::stoul(text.substr(0, tab));
  }
  return out;
}

// Every form of both sets by name, the way the suite enumerates them.
const std::map<std::string, conformance::Form>& formsByName() {
  static const std::map<std::string, conformance::Form> forms = [] {
    std::map<std::string, conformance::Form> out;
    for (auto set : {conformance::FormSet::Register, conformance::FormSet::Memory}) {
      for (conformance::Form& f : conformance::enumerateForms(set).forms) out.emplace(f.name, std::move(f));
    }
    return out;
  }();
  return forms;
}

struct Line {
  std::string form;
  std::string message;  // ptxas's, for the rejected lists
};

std::vector<Line> readList(const std::string& name) {
  std::ifstream in(kRecording + name);
  EXPECT_TRUE(in) << name;
  std::vector<Line> out;
  std::string text;
  while (std::getline(in, text)) {
    if (text.empty() || text[0] == '#') continue;
    size_t tab = text.find('\t');
    out.push_back({text.substr(0, tab), tab == std::string::npos ? "" : text.substr(tab + 1)});
  }
  return out;
}

// The front end's first error for the form's kernel; "" when it compiles.
std::string frontEndError(const std::string& name) {
  auto it = formsByName().find(name);
  if (it == formsByName().end()) return "(form not enumerated)";
  isa::CompileResult result =
      isa::compilePtx(conformance::moduleHeader() + conformance::kernelText(it->second, "k"));
  return result.ok() ? "" : result.errors.front().message;
}

TEST(PtxasStrictness, RefusesWhatPtxasRefusesWithItsMessage) {
  // ptxas's message -> the forms the front end takes, or refuses otherwise.
  std::map<std::string, std::vector<std::string>> differing;
  size_t checked = 0;
  for (const char* list : {"ptxas_rejected.txt", "memory_ptxas_rejected.txt"}) {
    for (const Line& line : readList(list)) {
      ++checked;
      std::string error = frontEndError(line.form);
      if (error != line.message) {
        differing[line.message].push_back(line.form + " -> " + (error.empty() ? "(compiles)" : error));
      }
    }
  }
  EXPECT_GT(checked, 45000u);
  for (const auto& [message, forms] : pendingCounts()) {
    auto it = differing.find(message);
    size_t measured = it == differing.end() ? 0 : it->second.size();
    EXPECT_EQ(measured, forms) << "pending count changed (ptxas_strictness_pending.txt): " << message;
    if (it != differing.end()) differing.erase(it);
  }
  for (const auto& [message, forms] : differing) {
    ADD_FAILURE() << forms.size() << " forms not refused with ptxas's \"" << message << "\", e.g. "
                  << forms.front();
  }
}

TEST(PtxasStrictness, AcceptsWhatPtxasAccepts) {
  size_t checked = 0;
  for (const char* list : {"forms.txt", "memory_forms.txt"}) {
    for (const Line& line : readList(list)) {
      ++checked;
      std::string error = frontEndError(line.form);
      EXPECT_EQ(error, "") << line.form;
    }
  }
  EXPECT_GT(checked, 6500u);
}

}  // namespace
}  // namespace ptxsim
