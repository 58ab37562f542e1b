#pragma once

// Named spdlog loggers, one per component, all writing to stderr at one
// level chosen by --log-level or the PTXSIM_LOG environment variable.

#include <spdlog/spdlog.h>

#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace ptxsim::runtime {

// Sets the level from `requested`, else from PTXSIM_LOG, else "warn".
// Returns false (and leaves the level alone) for an unknown level name.
bool configureLogging(const std::optional<std::string>& requested);

std::shared_ptr<spdlog::logger> logger(std::string_view component);

}  // namespace ptxsim::runtime
