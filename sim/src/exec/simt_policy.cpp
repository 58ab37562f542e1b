#include "simt_policy.h"

#include <algorithm>
#include <bit>
#include <cstdio>

#include "ptxsim/isa/instruction_table.h"

namespace ptxsim::sim::exec {

namespace {

// Under converge, a group waits at a meeting point for at most this many of
// the warp's steps before it goes on alone (forward progress), and a group
// keeps the warp for at most kSlice steps while others can run.
constexpr uint32_t kConvergeWaitSteps = 4096;
constexpr uint32_t kSlice = 64;
// Adversarial: how long one thread may run alone before the others get a
// turn (a thread spinning on another one must not starve it).
constexpr uint32_t kAdversarialSlice = 8192;

bool waitsToReconverge(const Warp& warp) {
  return warp.mode == SimtMode::Stack || warp.schedule == ItsSchedule::Converge;
}

bool mergesOpportunistically(const Warp& warp) {
  return warp.mode == SimtMode::Its &&
         (warp.schedule == ItsSchedule::RoundRobin || warp.schedule == ItsSchedule::Random);
}

void closeDivergence(Warp& warp, uint32_t id) {
  warp.divergences[id].live = false;
  warp.freeDivergences.push_back(id);
}

uint64_t nextRandom(uint64_t& state) {  // splitmix64
  uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

void tryMeet(Warp& warp, uint32_t id);

// Lanes no longer expected at a divergence: if every remaining lane is
// waiting there, they meet now; a divergence nobody is expected at closes.
void dropFromDivergence(Warp& warp, uint32_t id, LaneMask lanes) {
  Divergence& d = warp.divergences[id];
  d.lanes &= ~lanes;
  tryMeet(warp, id);
}

// Merges the groups waiting at divergence `id` once all its lanes are there.
void tryMeet(Warp& warp, uint32_t id) {
  Divergence& d = warp.divergences[id];
  if (!d.live) return;
  LaneMask arrived = 0;
  uint32_t first = UINT32_MAX;
  for (uint32_t i = 0; i < warp.groups.size(); ++i) {
    const ThreadGroup& g = warp.groups[i];
    if (g.mask != 0 && g.wait == GroupWait::Reconvergence && !g.splits.empty() && g.splits.back() == id) {
      arrived |= g.mask;
      if (first == UINT32_MAX) first = i;
    }
  }
  if ((d.lanes & ~arrived) != 0) return;
  if (first == UINT32_MAX) {
    if (d.lanes == 0) closeDivergence(warp, id);
    return;
  }
  for (uint32_t i = first + 1; i < warp.groups.size(); ++i) {
    ThreadGroup& g = warp.groups[i];
    if (g.mask != 0 && g.wait == GroupWait::Reconvergence && !g.splits.empty() && g.splits.back() == id) {
      warp.groups[first].mask |= g.mask;
      g.mask = 0;
    }
  }
  ThreadGroup& merged = warp.groups[first];
  merged.splits.pop_back();
  merged.wait = GroupWait::None;
  merged.waited = 0;
  closeDivergence(warp, id);
  groupMoved(warp, first);
}

// Merges runnable groups that stand at the same PC of the same frame with
// the same divergences (round-robin and random schedules).
void mergeCoincident(Warp& warp) {
  for (uint32_t i = 0; i < warp.groups.size(); ++i) {
    ThreadGroup& a = warp.groups[i];
    if (a.mask == 0 || a.wait != GroupWait::None) continue;
    for (uint32_t j = i + 1; j < warp.groups.size(); ++j) {
      ThreadGroup& b = warp.groups[j];
      if (b.mask != 0 && b.wait == GroupWait::None && b.pc == a.pc && b.frame == a.frame && b.splits == a.splits) {
        a.mask |= b.mask;
        b.mask = 0;
      }
    }
  }
}

// Removes dead groups, keeping Warp::current on the same group if it lives.
void compact(Warp& warp) {
  uint32_t out = 0;
  uint32_t current = UINT32_MAX;
  for (uint32_t i = 0; i < warp.groups.size(); ++i) {
    if (warp.groups[i].mask == 0) continue;
    if (i == warp.current) current = out;
    if (out != i) warp.groups[out] = std::move(warp.groups[i]);
    ++out;
  }
  warp.groups.resize(out);
  if (current == UINT32_MAX) {
    warp.current = out == 0 ? 0 : std::min<uint32_t>(warp.current, out - 1);
    warp.slice = 0;
  } else {
    warp.current = current;
  }
}

uint32_t lowestLane(const ThreadGroup& g) { return static_cast<uint32_t>(std::countr_zero(g.mask)); }

// The next runnable group after `from`, cyclically; `from` itself last.
uint32_t nextRunnable(const Warp& warp, uint32_t from) {
  uint32_t n = static_cast<uint32_t>(warp.groups.size());
  for (uint32_t k = 1; k <= n; ++k) {
    uint32_t i = (from + k) % n;
    if (warp.groups[i].wait == GroupWait::None) return i;
  }
  return UINT32_MAX;
}

uint32_t choose(Warp& warp, uint32_t runnable) {
  uint32_t n = static_cast<uint32_t>(warp.groups.size());
  bool currentRuns = warp.current < n && warp.groups[warp.current].wait == GroupWait::None;
  if (warp.mode == SimtMode::Stack) {
    for (uint32_t i = n; i-- > 0;) {
      if (warp.groups[i].wait == GroupWait::None) return i;
    }
    return UINT32_MAX;
  }
  switch (warp.schedule) {
    case ItsSchedule::Converge: {
      if (currentRuns && warp.slice < kSlice) return warp.current;
      if (currentRuns) return nextRunnable(warp, warp.current);  // its slice is over
      for (uint32_t i = n; i-- > 0;) {
        if (warp.groups[i].wait == GroupWait::None) return i;  // the newest, as the stack would
      }
      return UINT32_MAX;
    }
    case ItsSchedule::RoundRobin: return nextRunnable(warp, warp.current);
    case ItsSchedule::Random: {
      uint64_t k = nextRandom(warp.random) % runnable;
      for (uint32_t i = 0; i < n; ++i) {
        if (warp.groups[i].wait == GroupWait::None && k-- == 0) return i;
      }
      return UINT32_MAX;
    }
    case ItsSchedule::Adversarial: {
      if (currentRuns && warp.slice < kAdversarialSlice) return warp.current;
      uint32_t best = UINT32_MAX;
      for (uint32_t i = 0; i < n; ++i) {
        const ThreadGroup& g = warp.groups[i];
        if (g.wait != GroupWait::None || (currentRuns && i == warp.current && runnable > 1)) continue;
        if (best == UINT32_MAX || lowestLane(g) < lowestLane(warp.groups[best])) best = i;
      }
      return best;
    }
  }
  return UINT32_MAX;
}

// Adversarial: the chosen group's lowest thread goes on alone, unless the
// instruction makes it wait for the others anyway.
void isolateLowestLane(Warp& warp) {
  ThreadGroup& g = warp.groups[warp.current];
  if (std::popcount(g.mask) < 2 || g.frame->function->code[g.pc].sync != SyncKind::None) return;
  ThreadGroup rest = g;
  LaneMask lowest = g.mask & (~g.mask + 1);
  rest.mask &= ~lowest;
  g.mask = lowest;
  warp.groups.push_back(std::move(rest));
}

// Converge: waiting groups age; one that waited long enough goes on alone.
void ageWaits(Warp& warp) {
  for (uint32_t i = 0; i < warp.groups.size(); ++i) {
    ThreadGroup& g = warp.groups[i];
    if (g.mask == 0 || g.wait != GroupWait::Reconvergence || ++g.waited < kConvergeWaitSteps) continue;
    uint32_t id = g.splits.back();
    g.splits.pop_back();
    g.wait = GroupWait::None;
    g.waited = 0;
    dropFromDivergence(warp, id, g.mask);
  }
}

}  // namespace

// `from`'s lanes join `into` (both at one PC of one frame). The merged
// group keeps the divergences both are in; from the others, the lanes that
// leave them are no longer expected.
void absorbGroup(Warp& warp, uint32_t into, uint32_t from) {
  ThreadGroup& a = warp.groups[into];
  ThreadGroup& b = warp.groups[from];
  size_t common = 0;
  while (common < a.splits.size() && common < b.splits.size() && a.splits[common] == b.splits[common]) ++common;
  for (size_t i = common; i < a.splits.size(); ++i) warp.divergences[a.splits[i]].lanes &= ~a.mask;
  for (size_t i = common; i < b.splits.size(); ++i) warp.divergences[b.splits[i]].lanes &= ~b.mask;
  a.splits.resize(common);
  a.mask |= b.mask;
  a.wait = GroupWait::None;
  a.waited = 0;
  b.mask = 0;  // dead: removed by the next pickGroup
}

void configureWarp(Warp& warp, SimtMode mode, ItsSchedule schedule, uint64_t seed, uint64_t cta) {
  warp.mode = mode;
  warp.schedule = schedule;
  warp.random = seed ^ (cta * 0x9E3779B97F4A7C15ull) ^ (uint64_t{warp.index} << 32);
  nextRandom(warp.random);
}

uint32_t openDivergence(Warp& warp, Frame* frame, uint32_t meet, LaneMask lanes) {
  uint32_t id;
  if (warp.freeDivergences.empty()) {
    id = static_cast<uint32_t>(warp.divergences.size());
    warp.divergences.emplace_back();
  } else {
    id = warp.freeDivergences.back();
    warp.freeDivergences.pop_back();
  }
  warp.divergences[id] = Divergence{frame, meet, lanes, true};
  return id;
}

void groupMoved(Warp& warp, uint32_t index) {
  ThreadGroup& g = warp.groups[index];
  while (g.mask != 0 && !g.splits.empty()) {
    uint32_t id = g.splits.back();
    const Divergence& d = warp.divergences[id];
    if (d.frame != g.frame || d.meet != g.pc) return;
    if (waitsToReconverge(warp)) {
      g.wait = GroupWait::Reconvergence;
      g.waited = 0;
      tryMeet(warp, id);  // may merge g and move it on (recursively)
      return;
    }
    // Schedules that do not wait pass the point; groups that happen to
    // arrive together still merge (mergeCoincident).
    g.splits.pop_back();
    dropFromDivergence(warp, id, g.mask);
  }
}

void removeLanes(Warp& warp, uint32_t index, LaneMask lanes) {
  warp.groups[index].mask &= ~lanes;
  // Groups waiting for other threads at a synchronising instruction look
  // again: the threads they waited for may be the ones that exited.
  for (ThreadGroup& g : warp.groups) {
    if (g.wait == GroupWait::Collective || g.wait == GroupWait::WarpSync || g.wait == GroupWait::Barrier) {
      g.wait = GroupWait::None;
    }
  }
  for (uint32_t id = 0; id < warp.divergences.size(); ++id) {
    if (warp.divergences[id].live && (warp.divergences[id].lanes & lanes) != 0) dropFromDivergence(warp, id, lanes);
  }
  if (warp.live() == 0) warp.status = WarpStatus::Done;
}

void leaveDivergencesIn(Warp& warp, uint32_t index, const Frame* frame) {
  ThreadGroup& g = warp.groups[index];
  while (!g.splits.empty() && warp.divergences[g.splits.back()].frame == frame) {
    uint32_t id = g.splits.back();
    g.splits.pop_back();
    dropFromDivergence(warp, id, g.mask);
  }
}

void advanceGroup(Warp& warp, uint32_t index) {
  warp.groups[index].wait = GroupWait::None;
  ++warp.groups[index].pc;
  groupMoved(warp, index);
}

bool pickGroup(Warp& warp, bool& stuck) {
  stuck = false;
  bool adversarial = warp.mode == SimtMode::Its && warp.schedule == ItsSchedule::Adversarial;
  if (warp.groups.size() == 1 && !adversarial) {  // converged: the common case
    if (warp.groups[0].wait != GroupWait::None || warp.groups[0].mask == 0) return false;
    warp.current = 0;
    warp.slice = 0;
    return true;
  }
  if (warp.schedule == ItsSchedule::Converge && warp.mode == SimtMode::Its) ageWaits(warp);
  if (mergesOpportunistically(warp)) mergeCoincident(warp);
  compact(warp);
  if (warp.groups.empty()) return false;
  uint32_t runnable = 0;
  for (const ThreadGroup& g : warp.groups) runnable += g.wait == GroupWait::None ? 1 : 0;
  if (runnable == 0) {
    bool atBarrier = false;
    for (const ThreadGroup& g : warp.groups) atBarrier = atBarrier || g.wait == GroupWait::Barrier;
    // Under ITS, groups waiting to reconverge for each other give up.
    if (warp.mode == SimtMode::Its) {
      for (uint32_t i = 0; i < warp.groups.size(); ++i) {
        ThreadGroup& g = warp.groups[i];
        if (g.wait != GroupWait::Reconvergence) continue;
        uint32_t id = g.splits.back();
        g.splits.pop_back();
        g.wait = GroupWait::None;
        dropFromDivergence(warp, id, g.mask);
        return pickGroup(warp, stuck);
      }
    }
    stuck = !atBarrier;
    return false;
  }
  uint32_t chosen = choose(warp, runnable);
  // Only converge and adversarial use time slices; the count stays bounded
  // so a livelocked warp's state repeats (progress_monitor.h).
  uint32_t slice = warp.mode == SimtMode::Stack                    ? 0
                   : warp.schedule == ItsSchedule::Converge        ? kSlice
                   : warp.schedule == ItsSchedule::Adversarial     ? kAdversarialSlice
                                                                   : 0;
  if (chosen != warp.current || warp.slice >= slice) warp.slice = 0;
  warp.current = chosen;
  if (slice != 0) ++warp.slice;
  if (adversarial) isolateLowestLane(warp);
  return true;
}

}  // namespace ptxsim::sim::exec
