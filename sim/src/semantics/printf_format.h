#pragma once

// The formatting half of device printf. CUDA's vprintf copies the format
// and the argument buffer into a FIFO; the host later formats them with
// the host C library ("the final formatting of printf() output takes place
// on the host system"). This formatter does the same: it walks the format
// as CUDA's parser does (which fixes how many bytes each argument takes and
// where it sits in the buffer), then hands each conversion, with its value
// as the right C type, to the host's snprintf.
//
// The argument buffer is what nvcc packs: each argument at its natural
// alignment, integers narrower than int promoted to int, float promoted to
// double, %s and %p as 8-byte generic pointers.

#include <cstdint>
#include <string>
#include <string_view>

namespace ptxsim::sim::semantics {

// At most this many arguments per call. The guide says conversions past
// them print as written; on the GPU they print bytes of the format string
// instead (see Formatter::phantom), and so does the simulator.
inline constexpr int kPrintfMaxArguments = 32;

// Where a call's arguments come from. A read returns false after it has
// reported a fault; formatting then stops.
class PrintfArguments {
 public:
  virtual ~PrintfArguments() = default;
  // `size` (4 or 8) little-endian bytes at byte `offset` of the argument
  // buffer (offset is already aligned to size).
  virtual bool read(uint64_t offset, unsigned size, uint64_t& value) = 0;
  // The bytes of the NUL-terminated string at the non-null `address`, at
  // most `limit` of them.
  virtual bool readString(uint64_t address, uint64_t limit, std::string& text) = 0;
};

// Appends the formatted text to `out` and returns what CUDA's printf
// returns: the number of arguments it used, or -1 when a read failed.
int formatPrintf(std::string_view format, PrintfArguments& args, std::string& out);

}  // namespace ptxsim::sim::semantics
