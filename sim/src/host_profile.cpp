#include "ptxsim/sim/host_profile.h"

#include <time.h>

#include <algorithm>
#include <functional>
#include <vector>

namespace ptxsim::sim {

void ParallelTime::add(std::span<const double> itemSeconds) {
  double sum = 0, longest = 0;
  for (double s : itemSeconds) {
    sum += s;
    longest = std::max(longest, s);
  }
  ++runs;
  items += itemSeconds.size();
  seconds += sum;
  longestSeconds += longest;
  std::vector<double> threadFreeAt;
  std::vector<double> longestFirst(itemSeconds.begin(), itemSeconds.end());
  std::sort(longestFirst.begin(), longestFirst.end(), std::greater<>());
  for (size_t i = 0; i < kPredictedThreads.size(); ++i) {
    const unsigned threads = kPredictedThreads[i];
    boundSeconds[i] += std::max(longest, sum / threads);
    // WindowPool's threads run their stripes, then take what is left of the
    // others': close to each item going to whichever thread is free first.
    threadFreeAt.assign(threads, 0.0);
    for (double s : itemSeconds) *std::min_element(threadFreeAt.begin(), threadFreeAt.end()) += s;
    dealtSeconds[i] += *std::max_element(threadFreeAt.begin(), threadFreeAt.end());
    threadFreeAt.assign(threads, 0.0);
    for (double s : longestFirst) *std::min_element(threadFreeAt.begin(), threadFreeAt.end()) += s;
    longestFirstSeconds[i] += *std::max_element(threadFreeAt.begin(), threadFreeAt.end());
  }
}

double threadCpuSeconds() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + 1e-9 * static_cast<double>(now.tv_nsec);
}

}  // namespace ptxsim::sim
