#include "window_pool.h"

#include <algorithm>
#include <chrono>
#include <limits>
#include <stdexcept>

namespace ptxsim::sim::timing {

template <class Done>
bool WindowPool::spinUntil(const Done& done) {
  // Long enough to span the gap between an SM's runs ahead, when its
  // thread waits for the slowest SM to reach the window it stopped in (up
  // to a millisecond in n-body at 16 threads): with 100 us, the helpers
  // slept and woke at each of those and n-body ran 10-15% slower on the
  // device machine's 16 cores.
  constexpr auto kSpin = std::chrono::microseconds(2000);
  const auto until = std::chrono::steady_clock::now() + kSpin;
  while (!done()) {
    if (std::chrono::steady_clock::now() >= until) return false;
    std::this_thread::yield();  // leaves the core to others on a busy host
  }
  return true;
}

WindowPool::WindowPool(unsigned threads) : stripes_(std::make_unique<Stripe[]>(std::max(threads, 1u))) {
  for (unsigned t = 1; t < threads; ++t) helpers_.emplace_back([this, t] { helperLoop(t); });
}

WindowPool::~WindowPool() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  start_.notify_all();
  for (std::thread& helper : helpers_) helper.join();
}

void WindowPool::drain(uint32_t generation, unsigned self) {
  const unsigned stripes = threads();
  for (unsigned k = 0; k < stripes; ++k) {
    Stripe& stripe = stripes_[(self + k) % stripes];
    uint64_t claim = stripe.claim.load(std::memory_order_acquire);
    while (true) {
      if (generationOf(claim) != generation) return;  // the run is over: every item was claimed
      const uint32_t item = stripe.first.load(std::memory_order_acquire) + claimedOf(claim);
      if (item >= stripe.end.load(std::memory_order_acquire)) break;
      if (!stripe.claim.compare_exchange_weak(claim, claim + 1, std::memory_order_acq_rel)) continue;
      // The item is ours and unfinished, so the run (count_, work_) stays.
      const uint32_t count = count_;
      try {
        (*work_)(item);
      } catch (...) {
        std::lock_guard lock(mutex_);
        if (!error_) error_ = std::current_exception();
      }
      if (finished_.fetch_add(1) + 1 == count && callerSleeping_.load()) {
        { std::lock_guard lock(mutex_); }
        done_.notify_one();
      }
      claim = stripe.claim.load(std::memory_order_acquire);
    }
  }
}

void WindowPool::helperLoop(unsigned self) {
  uint32_t seen = 0;
  auto started = [&] { return stopping_.load() || generation_.load() != seen || queuedTasks_.load() != 0; };
  while (true) {
    if (!spinUntil(started)) {
      ++sleepingHelpers_;
      std::unique_lock lock(mutex_);
      start_.wait(lock, started);
      --sleepingHelpers_;
    }
    if (stopping_) return;
    // A run's items first: the caller waits for them.
    const uint32_t generation = generation_.load(std::memory_order_acquire);
    if (generation != seen) {
      seen = generation;
      drain(seen, self);
    } else if (Task* task = takeTask()) {
      task->runOnce();
    }
  }
}

void WindowPool::Task::runOnce() {
  try {
    work_();
  } catch (...) {
    error_ = std::current_exception();
  }
  state_.store(State::Done, std::memory_order_release);
}

WindowPool::Task* WindowPool::takeTask() {
  std::lock_guard lock(mutex_);
  if (tasks_.empty()) return nullptr;
  Task* task = tasks_.front();
  tasks_.pop_front();
  --queuedTasks_;
  task->state_.store(Task::State::Running, std::memory_order_relaxed);
  return task;
}

void WindowPool::post(Task& task) {
  {
    std::lock_guard lock(mutex_);
    task.state_.store(Task::State::Queued, std::memory_order_relaxed);
    tasks_.push_back(&task);
    ++queuedTasks_;
  }
  if (sleepingHelpers_.load() != 0) start_.notify_one();
}

bool WindowPool::claim(Task& task) {
  std::lock_guard lock(mutex_);
  if (task.state_.load(std::memory_order_relaxed) != Task::State::Queued) return false;
  tasks_.erase(std::find(tasks_.begin(), tasks_.end(), &task));
  --queuedTasks_;
  task.state_.store(Task::State::Running, std::memory_order_relaxed);
  return true;
}

void WindowPool::run(size_t count, const std::function<void(size_t)>& work,
                     std::span<const size_t> stripeStarts) {
  const unsigned stripes = threads();
  if (!stripeStarts.empty() && (stripeStarts.size() != stripes + 1u || stripeStarts.back() != count ||
                                !std::is_sorted(stripeStarts.begin(), stripeStarts.end())))
    throw std::invalid_argument(
        "window pool: the stripes must be threads() + 1 sorted starts ending at the count");
  if (helpers_.empty() || count <= 1) {
    for (size_t i = 0; i < count; ++i) work(i);
    return;
  }
  if (count > std::numeric_limits<uint32_t>::max())
    throw std::length_error("window pool: too many items in a run");
  work_ = &work;
  count_ = static_cast<uint32_t>(count);
  finished_ = 0;
  error_ = nullptr;  // no helper holds an item: none can write it
  const uint32_t generation = generation_.load() + 1;
  for (unsigned t = 0; t < stripes; ++t) {
    Stripe& stripe = stripes_[t];
    // The claim first: a thread late from the last run may hold that run's
    // claim (all its items taken) and be about to read this stripe's new
    // bounds. Were they written first, the stripe's new items past the old
    // count would look unclaimed to it and its compare-and-swap on the old
    // claim would win one, to be run twice (and the caller, counting one
    // item too many, would wait for ever). With the claim first, whoever
    // reads a new bound (acquire) sees the new claim, and its swap fails.
    stripe.claim.store(uint64_t{generation} << 32, std::memory_order_release);
    stripe.first.store(static_cast<uint32_t>(stripeStarts.empty() ? count * t / stripes : stripeStarts[t]),
                       std::memory_order_release);
    stripe.end.store(
        static_cast<uint32_t>(stripeStarts.empty() ? count * (t + 1) / stripes : stripeStarts[t + 1]),
        std::memory_order_release);
  }
  // Sequentially consistent, as sleepingHelpers_ is: either a helper going
  // to sleep sees the new run or this thread sees it sleeping and wakes it.
  generation_.store(generation);
  if (sleepingHelpers_.load() != 0) {
    { std::lock_guard lock(mutex_); }
    start_.notify_all();
  }
  drain(generation, 0);
  // Every item is claimed; wait for the helpers still running one.
  auto allDone = [&] { return finished_.load() == count; };
  if (!spinUntil(allDone)) {
    callerSleeping_ = true;
    std::unique_lock lock(mutex_);
    done_.wait(lock, allDone);
    callerSleeping_ = false;
  }
  work_ = nullptr;
  std::exception_ptr error;
  {
    std::lock_guard lock(mutex_);
    error = error_;
  }
  if (error) std::rethrow_exception(error);
}

}  // namespace ptxsim::sim::timing
