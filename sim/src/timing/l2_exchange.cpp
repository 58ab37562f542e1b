#include "l2_exchange.h"

#include <algorithm>
#include <chrono>
#include <numeric>

namespace ptxsim::sim::timing {

namespace {

// How many requests ahead of the one applied a slice's step has the host
// fetch the L2's state for.
constexpr size_t kPrefetchRequests = 8;

}  // namespace

L2Exchange::L2Exchange(MemorySystem& memory, uint32_t smCount, bool timeGathers)
    : memory_(memory),
      crossbar_(memory.crossbar()),
      l2_(memory.l2()),
      slices_(memory.l2().config().slices),
      timeGathers_(timeGathers),
      bySlice_(slices_),
      bySm_(smCount),
      rowWords_(1 + (slices_ + 63) / 64),
      rows_(size_t{smCount} * rowWords_, 0) {
  crossbar_.addSms(smCount);
}

void L2Exchange::inject(uint32_t s, const SmModel& sm, uint64_t window) {
  SmSteps& mine = bySm_[s];
  const auto& log = sm.l2Requests();
  mine.sm = &sm;
  // Logged in sequence order; by cycle too but for the instructions
  // deferred to phase B, logged after the window's others.
  mine.order.resize(log.size());
  std::iota(mine.order.begin(), mine.order.end(), 0u);
  std::stable_sort(mine.order.begin(), mine.order.end(),
                   [&](uint32_t x, uint32_t y) { return log[x].now < log[y].now; });
  mine.injected.resize(log.size());
  for (uint32_t k : mine.order) mine.injected[k] = crossbar_.inject(log[k].now, log[k].request, mine.counts);
  mine.sliceStarts.assign(slices_ + 1, 0);
  uint64_t* row = &rows_[size_t{s} * rowWords_];
  row[0] = window;
  std::fill_n(row + 1, rowWords_ - 1, 0);
  for (const auto& logged : log) {
    ++mine.sliceStarts[logged.slice + 1];
    row[1 + logged.slice / 64] |= uint64_t{1} << (logged.slice % 64);
  }
  std::partial_sum(mine.sliceStarts.begin(), mine.sliceStarts.end(), mine.sliceStarts.begin());
  mine.sliceCursor.assign(mine.sliceStarts.begin(), mine.sliceStarts.end() - 1);
  mine.bySlice.resize(log.size());
  for (uint32_t k = 0; k < log.size(); ++k) mine.bySlice[mine.sliceCursor[log[k].slice]++] = k;
  mine.answers.resize(log.size());
  mine.answersDue = true;
}

void L2Exchange::applySlice(uint32_t index, std::span<const uint32_t> running, uint64_t window) {
  SliceRequests& slice = bySlice_[index];
  const auto gatherFrom =
      timeGathers_ ? std::chrono::steady_clock::now() : std::chrono::steady_clock::time_point{};
  // In (cycle, SM, sequence) order: gathered in SM order, each SM's in
  // sequence order, then sorted by cycle keeping that order.
  slice.items.clear();
  const size_t word = 1 + index / 64;
  const uint64_t bit = uint64_t{1} << (index % 64);
  for (uint32_t s : running) {
    const uint64_t* row = &rows_[size_t{s} * rowWords_];
    // Not injected in this window: an SM whose deferred instructions ran
    // in phase B, with no request.
    if (row[0] != window || (row[word] & bit) == 0) continue;
    const SmSteps& mine = bySm_[s];
    const auto& log = mine.sm->l2Requests();
    for (uint32_t p = mine.sliceStarts[index]; p < mine.sliceStarts[index + 1]; ++p) {
      const uint32_t k = mine.bySlice[p];
      slice.items.push_back({log[k].now, s, k, &log[k].request, mine.injected[k]});
    }
  }
  std::stable_sort(slice.items.begin(), slice.items.end(),
                   [](const SliceRequests::Item& x, const SliceRequests::Item& y) { return x.now < y.now; });
  if (timeGathers_)
    slice.gatheredSeconds +=
        std::chrono::duration<double>(std::chrono::steady_clock::now() - gatherFrom).count();
  for (size_t k = 0; k < slice.items.size(); ++k) {
    // The L2's sets are megabytes of host memory, each request in a set
    // of its own, most of them: fetched ahead they cost no wait.
    if (k + kPrefetchRequests < slice.items.size())
      memory_.prefetch(slice.items[k + kPrefetchRequests].request->lineAddress);
    const SliceRequests::Item& item = slice.items[k];
    // Each request's answer has a place of its own: slices on other
    // threads write the same SM's other answers.
    bySm_[item.sm].answers[item.index] =
        l2_.requestInWindow(crossbar_.eject(item.injected, *item.request, slice.counts), *item.request);
  }
}

void L2Exchange::hear(uint32_t s, SmModel& sm) {
  SmSteps& mine = bySm_[s];
  if (!mine.answersDue) return;
  mine.answersDue = false;
  const auto& log = sm.l2Requests();
  uint64_t doneAt = 0;
  for (uint32_t k : mine.order) {
    if (mine.answers[k] > log[k].estimate) sm.lateAnswer(log[k].sequence, mine.answers[k]);
    doneAt = std::max(doneAt, mine.answers[k]);
  }
  sm.appliedL2Requests(doneAt);
}

double L2Exchange::gatheredSeconds() const {
  double seconds = 0;
  for (const SliceRequests& slice : bySlice_) seconds += slice.gatheredSeconds;
  return seconds;
}

void L2Exchange::addCounts() {
  for (const SliceRequests& slice : bySlice_) crossbar_.addCounts(slice.counts);
  for (const SmSteps& mine : bySm_) crossbar_.addCounts(mine.counts);
}

}  // namespace ptxsim::sim::timing
