#pragma once

// The host threads that advance the SMs through a timing window in
// parallel (timing_driver.cpp): run(count, work) calls work(i) for every i
// in [0, count), spread over the pool's threads and the caller, and returns
// when all are done. Which thread takes which i is not fixed; the driver's
// results must not depend on it (each i touches only its own SM).

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
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
  void run(size_t count, const std::function<void(size_t)>& work);

 private:
  void helperLoop();
  // Takes items until none is left; returns after its last.
  void drain();
  // Spins (yielding) for a short while until `done` is true: windows come
  // tens of microseconds apart, as long as a sleeping thread takes to wake,
  // so waiting on the condition variables at once would cost about as much
  // as the window's work. Returns whether `done` became true.
  template <class Done>
  static bool spinUntil(const Done& done);

  std::vector<std::thread> helpers_;
  std::mutex mutex_;
  std::condition_variable start_;
  std::condition_variable done_;
  // Written under mutex_; atomic so that spinUntil may look without it.
  std::atomic<uint64_t> generation_ = 0;  // bumped by each run
  std::atomic<bool> stopping_ = false;
  // The current run, under mutex_ except `next_` handed out under it too
  // (items are whole SMs' windows, thousands of cycles of work: a lock per
  // item costs nothing against them).
  const std::function<void(size_t)>* work_ = nullptr;
  size_t count_ = 0;
  size_t next_ = 0;
  std::atomic<size_t> busy_ = 0;  // helpers inside this run (written under mutex_)
  std::exception_ptr error_;
};

}  // namespace ptxsim::sim::timing
