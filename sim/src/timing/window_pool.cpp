#include "window_pool.h"

#include <chrono>

namespace ptxsim::sim::timing {

template <class Done>
bool WindowPool::spinUntil(const Done& done) {
  constexpr auto kSpin = std::chrono::microseconds(100);
  const auto until = std::chrono::steady_clock::now() + kSpin;
  while (!done()) {
    if (std::chrono::steady_clock::now() >= until) return false;
    std::this_thread::yield();  // leaves the core to others on a busy host
  }
  return true;
}

WindowPool::WindowPool(unsigned threads) {
  for (unsigned t = 1; t < threads; ++t) helpers_.emplace_back([this] { helperLoop(); });
}

WindowPool::~WindowPool() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  start_.notify_all();
  for (std::thread& helper : helpers_) helper.join();
}

void WindowPool::drain() {
  while (true) {
    size_t item = 0;
    {
      std::lock_guard lock(mutex_);
      if (next_ >= count_) return;
      item = next_++;
    }
    try {
      (*work_)(item);
    } catch (...) {
      std::lock_guard lock(mutex_);
      if (!error_) error_ = std::current_exception();
    }
  }
}

void WindowPool::helperLoop() {
  uint64_t seen = 0;
  while (true) {
    spinUntil([&] { return stopping_.load() || generation_.load() != seen; });
    {
      std::unique_lock lock(mutex_);
      start_.wait(lock, [&] { return stopping_ || generation_ != seen; });
      if (stopping_) return;
      seen = generation_;
      ++busy_;
    }
    drain();
    {
      std::lock_guard lock(mutex_);
      --busy_;
    }
    done_.notify_one();
  }
}

void WindowPool::run(size_t count, const std::function<void(size_t)>& work) {
  if (helpers_.empty() || count <= 1) {
    for (size_t i = 0; i < count; ++i) work(i);
    return;
  }
  {
    std::lock_guard lock(mutex_);
    work_ = &work;
    count_ = count;
    next_ = 0;
    error_ = nullptr;
    ++generation_;
  }
  start_.notify_all();
  drain();
  std::exception_ptr error;
  {
    // Every item is taken; wait for the helpers still running one. A helper
    // that wakes late finds nothing left and leaves at once.
    spinUntil([&] { return busy_.load() == 0; });
    std::unique_lock lock(mutex_);
    done_.wait(lock, [&] { return busy_ == 0; });
    work_ = nullptr;
    count_ = 0;
    error = error_;
  }
  if (error) std::rethrow_exception(error);
}

}  // namespace ptxsim::sim::timing
