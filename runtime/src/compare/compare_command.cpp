#include "ptxsim/runtime/compare/compare_command.h"

#include <fstream>
#include <optional>

#include "ptxsim/runtime/compare/background_launch.h"
#include "ptxsim/runtime/compare/compare_checks.h"
#include "ptxsim/runtime/compare/compare_html.h"
#include "ptxsim/runtime/compare/compare_report.h"
#include "ptxsim/runtime/compare/derived_metrics.h"
#include "ptxsim/runtime/compare/launch_matching.h"
#include "ptxsim/runtime/compare/metric_comparison.h"
#include "ptxsim/runtime/compare/ncu_csv.h"
#include "ptxsim/runtime/compare/stats_jsonl.h"

namespace ptxsim::runtime::compare {

int runCompare(const CompareOptions& options, std::ostream& out, std::ostream& err) {
  try {
    // The checks first: a typo in one should not wait for the comparison.
    std::vector<Check> checks;
    for (const std::string& spec : options.checks) checks.push_back(parseCheck(spec));
    std::optional<BackgroundLaunch> background;
    if (!options.background.empty()) background = parseBackgroundLaunch(options.background);
    std::vector<LaunchMetrics> hardware = readNcuCsv(options.ncuCsv);
    std::vector<LaunchMetrics> simulated = readStatsJsonl(options.statsJsonl);
    if (background) {
      subtractBackground(hardware, *background, options.ncuCsv);
      subtractBackground(simulated, *background, options.statsJsonl);
    }
    addDerivedHitRates(hardware);
    addDerivedHitRates(simulated);
    addDerivedDramBytes(hardware);
    addDerivedDramBytes(simulated);
    LaunchMatching matching = matchLaunches(hardware, simulated);
    for (const UnmatchedLaunch& launch : matching.unmatched)
      err << "ptxsim compare: warning: " << launch.label << " is only in "
          << (launch.hardwareSide ? options.ncuCsv : options.statsJsonl) << "\n";
    if (matching.matched.empty())
      throw CompareError("no launch of " + options.ncuCsv + " matches one of " + options.statsJsonl +
                         " (launches pair by kernel name and order)");
    std::vector<MetricComparison> comparisons =
        compareMetrics(matching, metricsToCompare(matching, options.metrics));
    printReport(out, comparisons);
    if (!options.html.empty()) {
      std::ofstream page(options.html);
      if (!page) throw CompareError(options.html + ": cannot write the HTML page");
      writeHtml(page, comparisons);
      if (!page.flush()) throw CompareError(options.html + ": cannot write the HTML page");
    }
    int failures = 0;
    for (const Check& check : checks) {
      if (std::optional<std::string> failure = failedCheck(check, comparisons)) {
        err << "ptxsim compare: check failed: " << *failure << "\n";
        ++failures;
      }
    }
    if (!checks.empty())
      out << "\nchecks: " << checks.size() - failures << " of " << checks.size() << " passed\n";
    return failures == 0 ? 0 : 1;
  } catch (const CompareError& error) {
    err << "ptxsim compare: error: " << error.what() << "\n";
    return 2;
  }
}

}  // namespace ptxsim::runtime::compare
