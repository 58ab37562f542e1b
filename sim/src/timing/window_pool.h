#pragma once

// The host threads that advance the SMs through a timing window in
// parallel (timing_driver.cpp): run(count, work) calls work(i) for every i
// in [0, count), spread over the pool's threads and the caller, and returns
// when all are done. Which thread takes which i is not fixed, and the
// driver's results must not depend on it (each i touches only its own SM).
//
// The items are split into one stripe a thread (the caller's is stripe 0),
// contiguous, evenly or where the caller says: a thread runs its own
// stripe's items in order, then takes what is left of the others'. So an
// SM stays on one host thread from window to window while the work is
// balanced, and its state (an L1 model alone is hundreds of kilobytes)
// stays in that core's caches: SMs dealt to whichever thread was free ran
// up to twice as slowly on 16 threads as on one.
//
// Windows come tens of microseconds apart, a few microseconds of work for
// each thread, so a run costs no lock: an item is claimed with one
// compare-and-swap on its stripe's word holding the run's number and the
// items claimed (so a thread that arrives late claims nothing of a later
// run), the caller waits for a count of finished items, and idle threads
// spin a while before they sleep.
//
// Tasks (post) are work that may outlast the runs: an SM running ahead of
// the windows (timing_driver.cpp). A helper with no run item to do takes
// the oldest; the caller, when it needs one done, may run it itself if no
// helper has taken it (claim). So one host thread runs them too.

#include <atomic>
#include <condition_variable>
#include <deque>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <span>
#include <thread>
#include <vector>

namespace ptxsim::sim::timing {

class WindowPool {
 public:
  // `threads` host threads in all, the caller's included (1: no others).
  explicit WindowPool(unsigned threads);
  ~WindowPool();
  WindowPool(const WindowPool&) = delete;
  WindowPool& operator=(const WindowPool&) = delete;

  unsigned threads() const { return static_cast<unsigned>(helpers_.size()) + 1; }
  // Rethrows the first exception a work item threw, after all have ended.
  // `stripeStarts`: threads() + 1 non-decreasing item indices, the last
  // `count`, where each thread's stripe starts; empty: even stripes.
  void run(size_t count, const std::function<void(size_t)>& work, std::span<const size_t> stripeStarts = {});

  class Task {
   public:
    explicit Task(std::function<void()> work) : work_(std::move(work)) {}
    // Whether it has run (what it wrote is then visible to the caller).
    bool done() const { return state_.load(std::memory_order_acquire) == State::Done; }
    // Once done: rethrows what it threw.
    void rethrow() const {
      if (error_) std::rethrow_exception(error_);
    }
    // Runs it on the calling thread, once claimed (WindowPool::claim).
    void runOnce();

   private:
    friend class WindowPool;
    enum class State : uint8_t { Idle, Queued, Running, Done };
    std::function<void()> work_;
    std::atomic<State> state_ = State::Idle;  // to Queued and Running under the pool's mutex_
    std::exception_ptr error_;
  };
  // Queues `task`, which must stay alive until done().
  void post(Task& task);
  // Takes `task` for the calling thread to run (Task::runOnce) if no
  // helper has taken it; returns whether it did.
  bool claim(Task& task);

 private:
  // The oldest queued task, marked running; null if none.
  Task* takeTask();
  void helperLoop(unsigned self);
  // Runs items of run `generation`, its own stripe's first, until none is
  // left; returns after its last.
  void drain(uint32_t generation, unsigned self);
  // Spins (yielding) for a short while until `done` is true: a sleeping
  // thread takes about as long to wake as a window's work. Returns whether
  // `done` became true.
  template <class Done>
  static bool spinUntil(const Done& done);

  static uint32_t generationOf(uint64_t claim) { return static_cast<uint32_t>(claim >> 32); }
  static uint32_t claimedOf(uint64_t claim) { return static_cast<uint32_t>(claim); }

  // A stripe's current run's number (high half) and its items claimed so
  // far (low half), on a cache line of its own; its items [first, end).
  struct alignas(64) Stripe {
    std::atomic<uint64_t> claim = 0;
    // Atomic only so that a thread late from the last run may read them
    // while the next is set up: run() stores the new claim before them, so
    // such a thread's claim then fails (the run changed).
    std::atomic<uint32_t> first = 0;
    std::atomic<uint32_t> end = 0;
  };

  std::vector<std::thread> helpers_;
  std::unique_ptr<Stripe[]> stripes_;  // one a thread
  // The current run's number, published after its stripes.
  std::atomic<uint32_t> generation_ = 0;
  // The current run, written before generation_ publishes it; read only by
  // a thread holding one of its items, which the caller waits for.
  const std::function<void(size_t)>* work_ = nullptr;
  uint32_t count_ = 0;
  std::atomic<uint32_t> finished_ = 0;  // the current run's items done
  // Sleeping helpers and caller, so that a run (an item's end) wakes them
  // only when there is someone to wake; the condition variables under mutex_.
  std::atomic<uint32_t> sleepingHelpers_ = 0;
  std::atomic<bool> callerSleeping_ = false;
  std::atomic<bool> stopping_ = false;
  std::mutex mutex_;
  std::condition_variable start_;
  std::condition_variable done_;
  std::exception_ptr error_;  // under mutex_
  std::deque<Task*> tasks_;   // under mutex_
  std::atomic<uint32_t> queuedTasks_ = 0;
};

}  // namespace ptxsim::sim::timing
