#include "memcheck_reports.h"

#include <algorithm>

namespace ptxsim::sim::exec {

void MemcheckReports::record(const Site& site, const Order& order,
                             const std::function<std::string()>& describe) {
  std::lock_guard lock(mutex_);
  auto it = firstBySite_.find(site);
  // A later access of the same warp, or one of a later warp or CTA, is not the first.
  if (it != firstBySite_.end() && it->second.order <= order) return;
  firstBySite_[site] = First{order, describe()};
}

std::vector<std::string> MemcheckReports::lines(uint64_t failedCta) const {
  std::lock_guard lock(mutex_);
  std::vector<std::pair<std::tuple<Order, Site>, const std::string*>> kept;
  for (const auto& [site, first] : firstBySite_) {
    if (first.order.cta <= failedCta) kept.push_back({{first.order, site}, &first.text});
  }
  std::sort(kept.begin(), kept.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::string> out;
  out.reserve(kept.size());
  for (const auto& [key, text] : kept) out.push_back(*text);
  return out;
}

}  // namespace ptxsim::sim::exec
