#pragma once

// Nsight Compute's units (as `--print-units base` prints them, and the
// prefixed ones it prints otherwise) and the factor to the base unit the
// simulator's statistics use: bytes, cycles, nanoseconds, percent, counts.

#include <optional>
#include <string_view>

namespace ptxsim::runtime::compare {

// The factor that turns a value in `unit` into the base unit: "Kbyte" 1000,
// "usecond" 1000 (to nanoseconds), "%" 1, "inst" 1, "" 1. A rate
// ("Gbyte/second") scales its numerator and denominator alike, so a rate
// stays per second. Empty when the unit is not one ncu prints.
std::optional<double> baseUnitFactor(std::string_view unit);

}  // namespace ptxsim::runtime::compare
