#include "ptxsim/isa/instruction_table.h"

#include <algorithm>
#include <charconv>
#include <unordered_map>
#include <vector>

#include "instruction_table_rows.h"

namespace ptxsim::isa {

namespace {

struct Table {
  std::vector<InstructionSpec> rows;
  // [first, end) of each opcode's rows.
  std::array<std::pair<uint32_t, uint32_t>, kOpcodeCount> byOpcode{};
  std::unordered_map<std::string_view, Opcode> byMnemonic;

  Table() {
    for (auto part : {table::arithmeticRows(), table::memoryRows(), table::controlRows(), table::matrixRows()}) {
      rows.insert(rows.end(), part.begin(), part.end());
    }
    // Group each opcode's rows together, keeping their order.
    std::stable_sort(rows.begin(), rows.end(), [](const InstructionSpec& a, const InstructionSpec& b) {
      return static_cast<unsigned>(a.opcode) < static_cast<unsigned>(b.opcode);
    });
    for (uint32_t i = 0; i < rows.size(); ++i) {
      auto& range = byOpcode[static_cast<unsigned>(rows[i].opcode)];
      if (range.second == 0) range.first = i;
      range.second = i + 1;
    }
    for (unsigned op = 1; op < kOpcodeCount; ++op) byMnemonic.emplace(table::kMnemonics[op], Opcode(op));
  }
};

const Table& theTable() {
  static const Table table;
  return table;
}

}  // namespace

std::span<const InstructionSpec> instructionTable() { return theTable().rows; }

std::span<const InstructionSpec> rowsFor(Opcode opcode) {
  const Table& t = theTable();
  auto index = static_cast<unsigned>(opcode);
  if (index >= kOpcodeCount) return {};
  auto [first, end] = t.byOpcode[index];
  return std::span<const InstructionSpec>(t.rows).subspan(first, end - first);
}

std::string_view mnemonicOf(Opcode opcode) {
  auto index = static_cast<unsigned>(opcode);
  return index < kOpcodeCount ? table::kMnemonics[index] : std::string_view();
}

// A mnemonic ends at a '.', at the end of the token, or at a "::" that
// glues a modifier to it (tcgen05.wait::ld, tcgen05.fence::before_thread_sync,
// mma.sp::ordered_metadata). In the last case `length` covers the first
// ':' as well, so that the rest of the token, like ".global.u32" after
// "ld", starts with one separator character followed by the next word.
std::optional<MnemonicMatch> matchMnemonic(std::string_view opcodeToken) {
  const auto& byMnemonic = theTable().byMnemonic;
  size_t end = opcodeToken.size();
  while (true) {
    std::string_view prefix = opcodeToken.substr(0, end);
    if (auto it = byMnemonic.find(prefix); it != byMnemonic.end()) {
      bool glued = end < opcodeToken.size() && opcodeToken[end] == ':';
      return MnemonicMatch{it->second, glued ? end + 1 : end};
    }
    // The next shorter candidate ends before the last '.' or "::".
    size_t cut = std::string_view::npos;
    for (size_t i = end; i-- > 0;) {
      if (prefix[i] == '.' || (prefix[i] == ':' && i + 1 < prefix.size() && prefix[i + 1] == ':')) {
        cut = i;
        break;
      }
    }
    if (cut == std::string_view::npos || cut == 0) return std::nullopt;
    end = cut;
  }
}

namespace {

// Reads the decimal number at the front of `text`; false without one.
bool takeNumber(std::string_view& text, uint16_t& value) {
  const char* begin = text.data();
  const char* last = begin + text.size();
  auto [ptr, ec] = std::from_chars(begin, last, value);
  if (ec != std::errc() || ptr == begin || *begin == '0') return false;
  text.remove_prefix(static_cast<size_t>(ptr - begin));
  return true;
}

}  // namespace

// mMnN or mMnNkK, with positive decimal numbers: m16n8k16, m64n256k16,
// m8n8 (ldmatrix), m16n16k16 (wmma) ...
bool parseShape(std::string_view word, MatrixShape& shape) {
  MatrixShape parsed;
  if (word.empty() || word[0] != 'm') return false;
  word.remove_prefix(1);
  if (!takeNumber(word, parsed.m) || word.empty() || word[0] != 'n') return false;
  word.remove_prefix(1);
  if (!takeNumber(word, parsed.n)) return false;
  if (!word.empty()) {
    if (word[0] != 'k') return false;
    word.remove_prefix(1);
    if (!takeNumber(word, parsed.k) || !word.empty()) return false;
  }
  constexpr uint16_t kLargest = 1024;
  if (parsed.m > kLargest || parsed.n > kLargest || parsed.k > kLargest) return false;
  shape = parsed;
  return true;
}

}  // namespace ptxsim::isa
