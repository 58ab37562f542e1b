#pragma once

// GPU presets: readable, commented `key = value` files in configs/ (one per
// GPU), chosen by name or by path, with single keys overridable.

#include <string>

#include "ptxsim/sim/gpu_config.h"

namespace ptxsim::sim {

// Applies `text` (a preset file's contents) to `config`. Returns false with
// `error` naming the line for an unknown key or a bad value.
bool applyPreset(const std::string& text, GpuConfig& config, std::string& error, const std::string& origin = "");

// A preset by spec: "" or a name ("h100": configs/h100.cfg under
// `presetDirectory`) or a file path, optionally followed by
// ",key=value,key=value" overrides.
bool loadPreset(const std::string& spec, const std::string& presetDirectory, GpuConfig& config, std::string& error);

// The effective configuration as `key = value` lines, for the output.
std::string describe(const GpuConfig& config);

}  // namespace ptxsim::sim
