#pragma once

// Where a timed launch's host time goes, for tuning how the timing driver
// spreads the SMs over host threads (sim/src/timing/timing_driver.cpp: in
// each window, phase A runs the SMs in parallel, phase B is serial).
// LaunchOptions::hostProfile points at one to have timed launches add to
// it; the simulation's results do not change, and a launch without one
// reads no clock.
//
// From one run on one host thread it predicts the time on P threads, each
// window's phase A as the pool would deal its SMs' measured runs (in the
// driver's order, each to the first thread free) plus everything serial:
// the efficiency the windows allow before any dispatch cost.

#include <array>
#include <cstdint>
#include <span>

namespace ptxsim::sim {

// Work spread over the host threads in runs of items (the SMs), each
// item's time measured on its own: their sum, each run's longest, and per
// HostProfile::kPredictedThreads entry the run dealt as WindowPool deals it
// (in order, each item to the first thread free) and its bound
// max(longest, sum / threads), all summed over runs.
struct ParallelTime {
  static constexpr std::array<unsigned, 5> kPredictedThreads = {1, 2, 4, 8, 16};

  uint64_t runs = 0;
  uint64_t items = 0;
  double seconds = 0;
  double longestSeconds = 0;
  std::array<double, kPredictedThreads.size()> dealtSeconds{};
  std::array<double, kPredictedThreads.size()> boundSeconds{};
  // ... dealt longest first (knowing each item's time beforehand).
  std::array<double, kPredictedThreads.size()> longestFirstSeconds{};

  // Adds one run, its items' times in the order the pool was given them.
  void add(std::span<const double> itemSeconds);
};

// Seconds are the thread's CPU time (so that a host busy with other work
// does not make one SM look long), except the *Wall* ones and phaseASeconds.
struct HostProfile {
  static constexpr auto kPredictedThreads = ParallelTime::kPredictedThreads;

  uint64_t launches = 0;
  ParallelTime smBuilds;   // the SMs built (each SM's caches cleared) at the launch's start
  ParallelTime smWindows;  // phase A: the SMs run through the windows (runs = windows)
  ParallelTime smEnds;     // the SMs freed at the launch's end
  double phaseASeconds = 0;  // phase A on the pool as run, wall time (dispatch and waits included)
  double buildWallSeconds = 0;  // ... smBuilds's runs as run, wall time
  double endWallSeconds = 0;    // ... smEnds's
  // Serial, on the calling thread.
  double placeSeconds = 0;     // the first CTAs placed
  double scheduleSeconds = 0;  // choosing each window and its SMs
  double overlaySeconds = 0;   // phase B: the store overlays written to memory, by the calling thread
  double overlaySharedSeconds = 0;  // ... in windows where more threads would share them (so / threads)
  double deferredSeconds = 0;  // ... the deferred instructions gathered, ordered and run
  double l2Seconds = 0;        // ... the logged L2 requests gathered, ordered and applied to the slices
  double l2DramSeconds = 0;    // ... the slices' DRAM requests applied in order, their counts added
  // What l2Seconds holds of the windows whose L2 requests the host threads
  // shared, slice by slice (l2_exchange.h): each slice's step's wall time
  // (not in parallelSeconds: the calling thread's share is in l2Seconds),
  // and those runs' wall time on the pool.
  ParallelTime sliceSteps;
  double sliceStepsWallSeconds = 0;
  // ... of all the slices' steps (shared or not), the wall time gathering
  // and ordering their requests from the SMs' logs, the rest being the
  // requests applied to the crossbar and the L2.
  double sliceGatherSeconds = 0;
  double retireSeconds = 0;    // ... finished CTAs retired and their successors placed
  double checkSeconds = 0;     // ... the shared counts, timeout, progress, livelock and deadlock checks
  double finishSeconds = 0;    // the SMs' counters gathered after the last window
  // Running ahead (timing_driver.cpp): the SMs' runs ahead, their CPU time
  // summed over whichever threads ran them, and the calling thread's wall
  // time spent until those it waits for stop or pass a window's end (its
  // own runs of them included, and so also in aheadSeconds).
  uint64_t aheadRuns = 0;
  double aheadSeconds = 0;
  double aheadWaitWallSeconds = 0;
  // ... each launch's SM with the most and the least of that CPU time
  // (of those that ran ahead), summed over launches: SMs doing the same
  // work at different speeds show the host cores' differences.
  double aheadMostSmSeconds = 0;
  double aheadLeastSmSeconds = 0;

  double serialSeconds() const {
    return placeSeconds + scheduleSeconds + overlaySeconds + overlaySharedSeconds + deferredSeconds +
           l2Seconds + l2DramSeconds + retireSeconds + checkSeconds + finishSeconds;
  }
  double parallelSeconds() const { return smBuilds.seconds + smWindows.seconds + smEnds.seconds; }
  // The launches' time on kPredictedThreads[i] threads, and its parallel
  // efficiency against the time on one (both from the times measured, with
  // no cost to deal the items).
  double predictedSeconds(size_t i) const {
    return smBuilds.dealtSeconds[i] + smWindows.dealtSeconds[i] + smEnds.dealtSeconds[i] + serialSeconds() -
           overlaySharedSeconds * (1 - 1.0 / kPredictedThreads[i]);
  }
  double predictedEfficiency(size_t i) const {
    const double parallel = predictedSeconds(i) * kPredictedThreads[i];
    return parallel > 0 ? (parallelSeconds() + serialSeconds()) / parallel : 0;
  }
};

// The calling thread's CPU time so far, in seconds.
double threadCpuSeconds();

}  // namespace ptxsim::sim
