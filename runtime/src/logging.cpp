#include "ptxsim/runtime/logging.h"

#include <spdlog/sinks/stdout_color_sinks.h>

#include <cstdlib>

namespace ptxsim::runtime {

bool configureLogging(const std::optional<std::string>& requested) {
  std::string name = "warn";
  if (requested) {
    name = *requested;
  } else if (const char* env = std::getenv("PTXSIM_LOG"); env != nullptr && *env != '\0') {
    name = env;
  }
  spdlog::level::level_enum level = spdlog::level::from_str(name);
  // from_str maps unknown names to "off"; only "off" itself may mean off.
  if (level == spdlog::level::off && name != "off") return false;
  spdlog::set_level(level);
  return true;
}

std::shared_ptr<spdlog::logger> logger(std::string_view component) {
  std::string name(component);
  if (auto existing = spdlog::get(name)) return existing;
  auto created = spdlog::stderr_color_mt(name);
  created->set_pattern("ptxsim[%n] %^%l%$: %v");
  return created;
}

}  // namespace ptxsim::runtime
