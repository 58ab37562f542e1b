#include "printf_format.h"

#include <algorithm>
#include <bit>
#include <climits>
#include <cstdio>
#include <cstring>

namespace ptxsim::sim::semantics {

namespace {

// What a conversion takes from the argument buffer.
enum class ArgKind : uint8_t { Signed, Unsigned, Char, String, Pointer, Double, Percent };

// One conversion specification: %[flags][width][.precision][length]conversion.
struct Spec {
  std::string_view text;  // as written, from '%' to the conversion character
  std::string_view flags;
  bool widthStar = false;
  int width = -1;  // -1: none
  bool precisionStar = false;
  int precision = -1;  // -1: none
  std::string_view length;
  char conversion = 0;
  ArgKind kind = ArgKind::Signed;
};

bool isDigit(char c) { return c >= '0' && c <= '9'; }

// Digits from `at`, saturating at INT_MAX (the host printf then fails on
// the width and prints nothing for the conversion, as it would on a GPU's host).
int readNumber(std::string_view format, size_t& at) {
  int value = 0;
  for (; at < format.size() && isDigit(format[at]); ++at) {
    int digit = format[at] - '0';
    value = value > (INT_MAX - digit) / 10 ? INT_MAX : value * 10 + digit;
  }
  return value;
}

bool kindOf(char conversion, ArgKind& kind) {
  switch (conversion) {
    case 'd':
    case 'i': kind = ArgKind::Signed; return true;
    case 'u':
    case 'o':
    case 'x':
    case 'X': kind = ArgKind::Unsigned; return true;
    case 'c': kind = ArgKind::Char; return true;
    case 's': kind = ArgKind::String; return true;
    case 'p': kind = ArgKind::Pointer; return true;
    case 'f':
    case 'F':
    case 'e':
    case 'E':
    case 'g':
    case 'G':
    case 'a':
    case 'A': kind = ArgKind::Double; return true;
    case '%': kind = ArgKind::Percent; return true;
    default: return false;
  }
}

// Parses the specification starting at format[start] == '%'. False for one
// that does not end in a known conversion (the format's end, %n, or any
// other character): it is printed as written, up to and including that
// character, and takes no argument, as on the GPU ("[%y]" prints "[%y]").
bool parseSpec(std::string_view format, size_t start, Spec& spec, size_t& end) {
  size_t at = start + 1;
  size_t flagsStart = at;
  while (at < format.size() && std::strchr("-+ #0", format[at]) != nullptr && format[at] != '\0') ++at;
  spec.flags = format.substr(flagsStart, at - flagsStart);
  if (at < format.size() && format[at] == '*') {
    spec.widthStar = true;
    ++at;
  } else if (at < format.size() && isDigit(format[at])) {
    spec.width = readNumber(format, at);
  }
  if (at < format.size() && format[at] == '.') {
    ++at;
    if (at < format.size() && format[at] == '*') {
      spec.precisionStar = true;
      ++at;
    } else {
      spec.precision = readNumber(format, at);
    }
  }
  size_t lengthStart = at;
  if (at < format.size() && std::strchr("hlLzjt", format[at]) != nullptr && format[at] != '\0') {
    char first = format[at++];
    if ((first == 'h' || first == 'l') && at < format.size() && format[at] == first) ++at;
  }
  spec.length = format.substr(lengthStart, at - lengthStart);
  end = std::min(at + 1, format.size());
  spec.text = format.substr(start, end - start);
  if (at >= format.size()) return false;
  spec.conversion = format[at];
  return kindOf(spec.conversion, spec.kind);
}

// Integer arguments are 8 bytes with a 64-bit length modifier (the host is
// LP64, as CUDA requires of the compiling and the running host alike),
// else 4: char and short arrive promoted to int.
bool isWide(std::string_view length) {
  return length == "l" || length == "ll" || length == "L" || length == "z" || length == "j" || length == "t";
}

unsigned argumentBytes(const Spec& spec) {
  switch (spec.kind) {
    case ArgKind::Signed:
    case ArgKind::Unsigned: return isWide(spec.length) ? 8 : 4;
    case ArgKind::Char: return 4;
    case ArgKind::String:
    case ArgKind::Pointer:
    case ArgKind::Double: return 8;
    case ArgKind::Percent: return 0;
  }
  return 0;
}

template <typename T>
void appendFormatted(std::string& out, const std::string& spec, T value) {
  char small[256];
  int n = std::snprintf(small, sizeof small, spec.c_str(), value);
  if (n < 0) return;  // the host printf rejected it (a width past INT_MAX): nothing, as on the GPU's host
  if (static_cast<size_t>(n) < sizeof small) {
    out.append(small, static_cast<size_t>(n));  // n, not strlen: %c of 0 prints a NUL byte
    return;
  }
  size_t at = out.size();
  out.resize(at + static_cast<size_t>(n) + 1);
  std::snprintf(out.data() + at, static_cast<size_t>(n) + 1, spec.c_str(), value);
  out.resize(at + static_cast<size_t>(n));
}

class Formatter {
 public:
  Formatter(std::string_view format, PrintfArguments& args, std::string& out)
      : format_(format), args_(args), out_(out) {}

  int used() const { return used_; }

  // One conversion; false after a failed read.
  bool convert(Spec& spec) {
    if (spec.kind == ArgKind::Percent) {
      // Only "%%" is a percent sign; "%5%" prints as written on the GPU.
      out_.append(spec.text.size() == 2 ? std::string_view("%") : spec.text);
      return true;
    }
    std::string flags(spec.flags);
    if (spec.widthStar) {
      uint64_t bits = 0;
      if (!next(4, bits)) return false;
      int width = static_cast<int32_t>(bits);
      // A negative * width is the '-' flag and its magnitude, as in C.
      if (width < 0) {
        flags += '-';
        width = width == INT_MIN ? INT_MAX : -width;
      }
      spec.width = width;
    }
    if (spec.precisionStar) {
      uint64_t bits = 0;
      if (!next(4, bits)) return false;
      int precision = static_cast<int32_t>(bits);
      spec.precision = precision < 0 ? -1 : precision;  // negative: as if omitted
    }
    uint64_t bits = 0;
    if (!next(argumentBytes(spec), bits)) return false;
    std::string host(1, '%');
    host += flags;
    if (spec.width >= 0) host += std::to_string(spec.width);
    if (spec.precision >= 0) {
      host += '.';
      host += std::to_string(spec.precision);
    }
    bool wide = isWide(spec.length);
    switch (spec.kind) {
      case ArgKind::Signed:
      case ArgKind::Unsigned:
        // h and hh narrow the promoted int as the host printf does; every
        // 64-bit modifier becomes ll, the same width on an LP64 host.
        if (wide) {
          host += "ll";
        } else if (spec.length == "h" || spec.length == "hh") {
          host += spec.length;
        }
        host += spec.conversion;
        if (spec.kind == ArgKind::Signed) {
          if (wide) {
            appendFormatted(out_, host, static_cast<long long>(bits));
          } else {
            appendFormatted(out_, host, static_cast<int>(static_cast<int32_t>(bits)));
          }
        } else if (wide) {
          appendFormatted(out_, host, static_cast<unsigned long long>(bits));
        } else {
          appendFormatted(out_, host, static_cast<unsigned>(bits));
        }
        return true;
      case ArgKind::Char:
        // A narrow character whatever the modifier: device code has no wint_t.
        appendFormatted(out_, host + 'c', static_cast<int>(static_cast<int32_t>(bits)));
        return true;
      case ArgKind::String: return string(host + 's', spec.precision, bits, spec.text);
      case ArgKind::Pointer:
        appendFormatted(out_, host + 'p', reinterpret_cast<void*>(static_cast<uintptr_t>(bits)));
        return true;
      case ArgKind::Double:
        // l and L change nothing: floats arrive as double and device code
        // treats long double as double.
        appendFormatted(out_, host + spec.conversion, std::bit_cast<double>(bits));
        return true;
      case ArgKind::Percent: break;
    }
    return true;
  }

 private:
  // The next argument of `size` bytes, at its natural alignment in the
  // buffer nvcc packed.
  bool next(unsigned size, uint64_t& value) {
    if (used_ == kPrintfMaxArguments) {
      value = phantom(size);
      return true;
    }
    offset_ = (offset_ + size - 1) & ~uint64_t{size - 1};
    if (!args_.read(offset_, size, value)) return false;
    offset_ += size;
    ++used_;
    return true;
  }

  // Past the 32nd argument the GPU's host side keeps formatting, reading
  // the record CUDA's vprintf wrote: one 8-byte slot per argument, then the
  // format string. So the 33rd argument is the format's first 8 bytes, the
  // 34th the next 8 (recorded on an H100: "%d" there prints 0x25206425,
  // "%d %" as an int). Bytes past the format's end read as zero.
  uint64_t phantom(unsigned size) {
    uint64_t slot = 0;
    uint64_t start = phantomSlots_++ * 8;
    for (uint64_t i = 0; i < 8 && start + i < format_.size(); ++i) {
      slot |= uint64_t{static_cast<uint8_t>(format_[start + i])} << (8 * i);
    }
    return size == 4 ? slot & 0xffffffffu : slot;
  }

  bool string(const std::string& host, int precision, uint64_t address, std::string_view written) {
    if (used_ == kPrintfMaxArguments && phantomSlots_ > 0) {
      // A string pointer made of format bytes: the GPU's host would chase
      // it (and crash or print garbage); print the conversion as written.
      out_.append(written);
      return true;
    }
    if (address == 0) {
      // The host printf's own rendering of a null string pointer.
      appendFormatted(out_, host, static_cast<const char*>(nullptr));
      return true;
    }
    // With a precision the string need not be terminated within it (C99).
    uint64_t limit = precision >= 0 ? static_cast<uint64_t>(precision) : UINT64_MAX;
    std::string text;
    if (!args_.readString(address, limit, text)) return false;
    appendFormatted(out_, host, text.c_str());
    return true;
  }

  std::string_view format_;
  PrintfArguments& args_;
  std::string& out_;
  uint64_t offset_ = 0;
  int used_ = 0;
  uint64_t phantomSlots_ = 0;
};

}  // namespace

int formatPrintf(std::string_view format, PrintfArguments& args, std::string& out) {
  Formatter formatter(format, args, out);
  size_t at = 0;
  while (at < format.size()) {
    size_t percent = format.find('%', at);
    if (percent == std::string_view::npos) {
      out.append(format.substr(at));
      break;
    }
    out.append(format.substr(at, percent - at));
    Spec spec;
    size_t end = 0;
    if (!parseSpec(format, percent, spec, end)) {
      out.append(spec.text);
    } else if (!formatter.convert(spec)) {
      return -1;
    }
    at = end;
  }
  return formatter.used();
}

}  // namespace ptxsim::sim::semantics
