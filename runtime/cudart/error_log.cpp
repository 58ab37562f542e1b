#include "error_log.h"

#include <cstring>
#include <vector>

namespace ptxsim::cudart {

namespace {

std::string droppedLine(size_t dropped) {
  return "ptxsim: " + std::to_string(dropped) + " older log message" + (dropped == 1 ? " was" : "s were") +
         " left out";
}

}  // namespace

void ErrorLog::add(cudaLogLevel level, const std::string& message) {
  std::vector<Callback> toCall;
  {
    std::lock_guard lock(mutex_);
    messages_.push_back(message);
    keptBytes_ += message.size() + 1;
    while (keptBytes_ > kCapacityBytes && messages_.size() > 1) {
      keptBytes_ -= messages_.front().size() + 1;
      messages_.pop_front();
      ++firstKept_;
    }
    for (const auto& [handle, callback] : callbacks_) toCall.push_back(callback);
  }
  // Outside the log's lock, so a callback may read the log.
  for (const Callback& c : toCall) {
    std::string text = message;
    c.function(c.userData, level, text.data(), text.size());
  }
}

cudaLogsCallbackHandle ErrorLog::registerCallback(cudaLogsCallback_t function, void* userData) {
  std::lock_guard lock(mutex_);
  uintptr_t handle = nextCallback_++;
  callbacks_[handle] = {function, userData};
  return reinterpret_cast<cudaLogsCallbackHandle>(handle);
}

bool ErrorLog::unregisterCallback(cudaLogsCallbackHandle handle) {
  std::lock_guard lock(mutex_);
  return callbacks_.erase(reinterpret_cast<uintptr_t>(handle)) != 0;
}

cudaLogIterator ErrorLog::current() const {
  std::lock_guard lock(mutex_);
  return static_cast<cudaLogIterator>(firstKept_ + messages_.size());
}

std::deque<std::string> ErrorLog::messagesFrom(cudaLogIterator* from, size_t& dropped) const {
  uint64_t start = from != nullptr ? *from : firstKept_;
  uint64_t end = firstKept_ + messages_.size();
  dropped = start < firstKept_ ? static_cast<size_t>(firstKept_ - start) : 0;
  if (start < firstKept_) start = firstKept_;
  if (start > end) start = end;
  return std::deque<std::string>(messages_.begin() + static_cast<std::ptrdiff_t>(start - firstKept_),
                                 messages_.end());
}

std::string ErrorLog::dump(cudaLogIterator* from) {
  std::lock_guard lock(mutex_);
  size_t dropped = 0;
  std::string text;
  for (const std::string& m : messagesFrom(from, dropped)) text += m + "\n";
  if (dropped != 0) text = droppedLine(dropped) + "\n" + text;
  if (from != nullptr) *from = static_cast<cudaLogIterator>(firstKept_ + messages_.size());
  return text;
}

bool ErrorLog::dumpToMemory(cudaLogIterator* from, char* buffer, size_t* size) {
  std::lock_guard lock(mutex_);
  size_t dropped = 0;
  std::deque<std::string> messages = messagesFrom(from, dropped);
  size_t room = *size;  // with the NUL
  if (messages.empty()) {
    if (room > 0) buffer[0] = '\0';
    *size = 0;
    return true;
  }
  // The newest messages that fit, each with its newline, and a line first
  // when some are left out (which then needs room too).
  auto bytesOf = [&](size_t first, size_t leftOut) {
    size_t bytes = 1;  // the NUL
    for (size_t i = first; i < messages.size(); ++i) bytes += messages[i].size() + 1;
    if (leftOut != 0) bytes += droppedLine(leftOut).size() + 1;
    return bytes;
  };
  size_t first = 0;
  while (first < messages.size() && bytesOf(first, dropped + first) > room) ++first;
  if (first == messages.size()) {
    *size = 0;
    return false;
  }
  std::string text = dropped + first != 0 ? droppedLine(dropped + first) + "\n" : "";
  for (size_t i = first; i < messages.size(); ++i) text += messages[i] + "\n";
  std::memcpy(buffer, text.c_str(), text.size() + 1);
  *size = text.size();
  if (from != nullptr) *from = static_cast<cudaLogIterator>(firstKept_ + messages_.size());
  return true;
}

}  // namespace ptxsim::cudart
