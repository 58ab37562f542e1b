// The ptxsim command line.

#include <CLI/CLI.hpp>

#include <cstdlib>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "ptxsim/runtime/check.h"
#include "ptxsim/runtime/logging.h"

int main(int argc, char** argv) {
  CLI::App app{"ptxsim: a PTX-level GPU simulator"};
  app.require_subcommand(1);
  std::optional<std::string> logLevel;
  app.add_option("--log-level", logLevel,
                 "trace, debug, info, warn, error or off (default: $PTXSIM_LOG, else warn)");

  std::vector<std::string> checkPaths;
  CLI::App* check = app.add_subcommand("check", "Validate PTX files and summarise them");
  check->add_option("files", checkPaths, "PTX files")->required();
  ptxsim::runtime::CheckOptions checkOptions;
  check->add_flag("--executable", checkOptions.executable,
                  "Also report every instruction the simulator cannot execute yet");

  CLI11_PARSE(app, argc, argv);
  if (!ptxsim::runtime::configureLogging(logLevel)) {
    std::cerr << "ptxsim: error: unknown log level '"
              << logLevel.value_or(std::getenv("PTXSIM_LOG") != nullptr ? std::getenv("PTXSIM_LOG") : "")
              << "' (use trace, debug, info, warn, error or off)\n";
    return 2;
  }
  if (check->parsed()) return ptxsim::runtime::checkFiles(checkPaths, std::cout, std::cerr, checkOptions);
  return 0;
}
