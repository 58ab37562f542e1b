// Error log management (CUDA 12.9+): the messages the shim prints, kept in
// the process's ErrorLog, read with cudaLogsCurrent and cudaLogsDumpTo*,
// and passed to callbacks registered with cudaLogsRegisterCallback.

#include <cstdarg>
#include <cstdio>
#include <string>

#include "error_log.h"
#include "export.h"
#include "shim_state.h"

namespace ptxsim::cudart {

namespace {

void report(cudaLogLevel level, const char* format, va_list arguments) {
  va_list copy;
  va_copy(copy, arguments);
  int length = std::vsnprintf(nullptr, 0, format, copy);
  va_end(copy);
  std::string text(static_cast<size_t>(length > 0 ? length : 0), '\0');
  std::vsnprintf(text.data(), text.size() + 1, format, arguments);
  while (!text.empty() && text.back() == '\n') text.pop_back();
  std::string message = "ptxsim: " + text;
  std::fprintf(stderr, "%s\n", message.c_str());
  shimState().errorLog().add(level, message);
}

}  // namespace

void reportError(const char* format, ...) {
  va_list arguments;
  va_start(arguments, format);
  report(cudaLogLevelError, format, arguments);
  va_end(arguments);
}

void reportWarning(const char* format, ...) {
  va_list arguments;
  va_start(arguments, format);
  report(cudaLogLevelWarning, format, arguments);
  va_end(arguments);
}

}  // namespace ptxsim::cudart

using ptxsim::cudart::result;
using ptxsim::cudart::shimState;

CUDART_EXPORT cudaError_t cudaLogsRegisterCallback(cudaLogsCallback_t callbackFunc, void* userData,
                                                   cudaLogsCallbackHandle* callback_out) {
  if (callbackFunc == nullptr) return result(cudaErrorInvalidValue);
  cudaLogsCallbackHandle handle = shimState().errorLog().registerCallback(callbackFunc, userData);
  if (callback_out != nullptr) *callback_out = handle;  // optional, as documented
  return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaLogsUnregisterCallback(cudaLogsCallbackHandle callback) {
  return shimState().errorLog().unregisterCallback(callback) ? cudaSuccess : result(cudaErrorInvalidValue);
}

CUDART_EXPORT cudaError_t cudaLogsCurrent(cudaLogIterator* iterator_out, unsigned int flags) {
  if (iterator_out == nullptr || flags != 0) return result(cudaErrorInvalidValue);
  *iterator_out = shimState().errorLog().current();
  return cudaSuccess;
}

CUDART_EXPORT cudaError_t cudaLogsDumpToFile(cudaLogIterator* iterator, const char* pathToFile,
                                             unsigned int flags) {
  if (pathToFile == nullptr || flags != 0) return result(cudaErrorInvalidValue);
  std::FILE* file = std::fopen(pathToFile, "w");
  if (file == nullptr) return result(cudaErrorInvalidValue);
  std::string text = shimState().errorLog().dump(iterator);
  bool written = std::fwrite(text.data(), 1, text.size(), file) == text.size();
  written = std::fclose(file) == 0 && written;
  return written ? cudaSuccess : result(cudaErrorInvalidValue);
}

CUDART_EXPORT cudaError_t cudaLogsDumpToMemory(cudaLogIterator* iterator, char* buffer, size_t* size,
                                               unsigned int flags) {
  if (buffer == nullptr || size == nullptr || flags != 0) return result(cudaErrorInvalidValue);
  return shimState().errorLog().dumpToMemory(iterator, buffer, size) ? cudaSuccess
                                                                     : result(cudaErrorInvalidValue);
}
