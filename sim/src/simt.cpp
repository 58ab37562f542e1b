#include "ptxsim/sim/simt.h"

namespace ptxsim::sim {

std::string_view nameOf(SimtMode mode) {
  switch (mode) {
    case SimtMode::Default: return "default";
    case SimtMode::Stack: return "stack";
    case SimtMode::Its: return "its";
  }
  return "?";
}

std::string_view nameOf(ItsSchedule schedule) {
  switch (schedule) {
    case ItsSchedule::Converge: return "converge";
    case ItsSchedule::RoundRobin: return "round-robin";
    case ItsSchedule::Random: return "random";
    case ItsSchedule::Adversarial: return "adversarial";
  }
  return "?";
}

std::optional<SimtMode> parseSimtMode(std::string_view text) {
  for (SimtMode m : {SimtMode::Default, SimtMode::Stack, SimtMode::Its}) {
    if (text == nameOf(m)) return m;
  }
  return std::nullopt;
}

std::optional<ItsSchedule> parseItsSchedule(std::string_view text) {
  for (ItsSchedule s : {ItsSchedule::Converge, ItsSchedule::RoundRobin, ItsSchedule::Random, ItsSchedule::Adversarial}) {
    if (text == nameOf(s)) return s;
  }
  return std::nullopt;
}

}  // namespace ptxsim::sim
