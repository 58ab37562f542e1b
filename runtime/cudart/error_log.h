#pragma once

// The error log of CUDA 12.9's log management API (cudaLogsCurrent,
// cudaLogsDumpToMemory, ...): every message the shim prints on stderr is
// also kept here, in the order printed, within the 25600 bytes CUDA keeps,
// and handed to the registered callbacks. Standalone (no shim state), so it
// is tested alone; ShimState owns the process's one log.

#include <cuda_runtime_api.h>

#include <cstdint>
#include <deque>
#include <map>
#include <mutex>
#include <string>

namespace ptxsim::cudart {

class ErrorLog {
 public:
  // What CUDA documents as the driver's log memory.
  static constexpr size_t kCapacityBytes = 25600;

  // Keeps `message` (one line, no newline) and passes it to each callback.
  void add(cudaLogLevel level, const std::string& message);

  cudaLogsCallbackHandle registerCallback(cudaLogsCallback_t function, void* userData);
  bool unregisterCallback(cudaLogsCallbackHandle handle);

  // Where the next message will go (cudaLogsCurrent).
  cudaLogIterator current() const;
  // The messages from `*from` (all kept ones for a null iterator), one per
  // line, for cudaLogsDumpToFile; advances `*from` past them. Starts with a
  // line saying how many were dropped when some of them are no longer kept.
  std::string dump(cudaLogIterator* from);
  // cudaLogsDumpToMemory: as many of the newest messages from `*from` as
  // fit in `*size` bytes with the terminating NUL (a first line says when
  // older ones are left out); *size becomes the bytes written without the
  // NUL. False (and *size 0) when not even the newest message fits.
  bool dumpToMemory(cudaLogIterator* from, char* buffer, size_t* size);

 private:
  // The kept messages from `from` on, and how many before them are lost.
  std::deque<std::string> messagesFrom(cudaLogIterator* from, size_t& dropped) const;

  mutable std::mutex mutex_;
  std::deque<std::string> messages_;  // the newest ones, at most kCapacityBytes together
  size_t keptBytes_ = 0;
  uint64_t firstKept_ = 0;  // the number of the oldest kept message (messages count from 0)
  struct Callback {
    cudaLogsCallback_t function = nullptr;
    void* userData = nullptr;
  };
  std::map<uintptr_t, Callback> callbacks_;
  uintptr_t nextCallback_ = 1;
};

// Prints "ptxsim: ..." (the format's text) with a newline on stderr and
// keeps it in the process's error log. The shim's one way to report an
// error or warning to the person running the program.
void reportError(const char* format, ...) __attribute__((format(printf, 1, 2)));
void reportWarning(const char* format, ...) __attribute__((format(printf, 1, 2)));

}  // namespace ptxsim::cudart
