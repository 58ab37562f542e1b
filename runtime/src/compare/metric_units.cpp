#include "ptxsim/runtime/compare/metric_units.h"

#include <array>
#include <utility>

namespace ptxsim::runtime::compare {

namespace {

// Units ncu prints that are counts or already base units (their prefixed
// forms, "Kinst", "Msector", scale by the prefix).
constexpr std::array<std::string_view, 20> kCountUnits = {
    "byte",   "cycle",   "inst", "sector",  "warp",  "thread",    "request", "wavefront", "block", "register",
    "bit",    "hit",     "miss", "pixel",   "quad",  "primitive", "event",   "ratio",     "tb",    "cta"};

// Time in nanoseconds, the statistics' gpu__time_duration unit; ncu 2025
// writes the short names with --print-units base ("ns").
constexpr std::array<std::pair<std::string_view, double>, 10> kTimeUnits = {
    {{"nsecond", 1.0}, {"usecond", 1e3}, {"msecond", 1e6}, {"second", 1e9}, {"psecond", 1e-3},
     {"ns", 1.0}, {"us", 1e3}, {"ms", 1e6}, {"s", 1e9}, {"ps", 1e-3}}};

// SI prefixes as ncu writes them (it prints decimal multiples: "Kbyte" is
// 1000 bytes), and the binary ones.
constexpr std::array<std::pair<std::string_view, double>, 7> kPrefixes = {
    {{"K", 1e3}, {"M", 1e6}, {"G", 1e9}, {"T", 1e12}, {"Ki", 1024.0}, {"Mi", 1048576.0}, {"Gi", 1073741824.0}}};

bool isCountUnit(std::string_view unit) {
  for (std::string_view known : kCountUnits)
    if (unit == known) return true;
  return false;
}

// A unit with no '/'.
std::optional<double> simpleUnitFactor(std::string_view unit, bool inDenominator) {
  if (unit.empty() || unit == "%" || isCountUnit(unit)) return 1.0;
  for (auto [name, factor] : kTimeUnits) {
    // A rate stays per second; a duration is in nanoseconds.
    if (unit == name) return inDenominator ? factor / 1e9 : factor;
  }
  if (unit == "hz" || unit == "Hz") return 1.0;
  for (auto [prefix, factor] : kPrefixes) {
    if (unit.size() > prefix.size() && unit.substr(0, prefix.size()) == prefix) {
      std::string_view rest = unit.substr(prefix.size());
      if (isCountUnit(rest) || rest == "hz" || rest == "Hz") return factor;
    }
  }
  return std::nullopt;
}

}  // namespace

std::optional<double> baseUnitFactor(std::string_view unit) {
  size_t slash = unit.find('/');
  if (slash == std::string_view::npos) return simpleUnitFactor(unit, false);
  std::optional<double> numerator = unit.substr(0, slash) == "1" ? std::optional<double>(1.0)
                                                                 : simpleUnitFactor(unit.substr(0, slash), false);
  std::optional<double> denominator = simpleUnitFactor(unit.substr(slash + 1), true);
  if (!numerator || !denominator || unit.substr(slash + 1).empty()) return std::nullopt;
  // Within a rate a duration in the numerator counts in seconds too.
  std::string_view top = unit.substr(0, slash);
  for (auto [name, factor] : kTimeUnits)
    if (top == name) numerator = factor / 1e9;
  return *numerator / *denominator;
}

}  // namespace ptxsim::runtime::compare
