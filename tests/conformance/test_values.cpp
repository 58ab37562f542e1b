#include "test_values.h"

#include <algorithm>

namespace ptxsim::conformance {
namespace {

using isa::DataType;

std::vector<uint64_t> floatSpecials32() {
  return {0x00000000, 0x80000000, 0x3f800000, 0xbf800000, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00001,
          0x7f800001, 0x7fa5a5a5, 0x00000001, 0x807fffff, 0x00800000, 0x7f7fffff, 0x3f000000, 0x3fc00000,
          0x40000000, 0xc0400000, 0x3f800001, 0x4b800001, 0x3eaaaaab, 0x40490fdb, 0x501502f9, 0xa0000000,
          0x00400000, 0x80800000, 0xcb000001, 0x7effffff, 0x4f000000, 0xcf000000, 0x5f000000, 0x3f7fffff};
}

std::vector<uint64_t> floatSpecials64() {
  return {0x0000000000000000ull, 0x8000000000000000ull, 0x3ff0000000000000ull, 0xbff0000000000000ull,
          0x7ff0000000000000ull, 0xfff0000000000000ull, 0x7ff8000000000000ull, 0xfff8000000000001ull,
          0x7ff0000000000001ull, 0x7ff4a5a5a5a5a5a5ull, 0x0000000000000001ull, 0x800fffffffffffffull,
          0x0010000000000000ull, 0x7fefffffffffffffull, 0x3fe0000000000000ull, 0x3ff8000000000000ull,
          0x4000000000000000ull, 0xc008000000000000ull, 0x3ff0000000000001ull, 0x4340000000000001ull,
          0x3fd5555555555555ull, 0x400921fb54442d18ull, 0x41e0000000000000ull, 0xc3e0000000000000ull,
          0x36a0000000000000ull, 0x3810000000000000ull, 0x47efffffe0000000ull, 0x3ff0000010000000ull};
}

std::vector<uint64_t> halfSpecials() {
  return {0x0000, 0x8000, 0x3c00, 0xbc00, 0x7c00, 0xfc00, 0x7e00, 0xfe01, 0x7c01, 0x7d55, 0x0001, 0x83ff,
          0x0400, 0x7bff, 0x3800, 0x3e00, 0x4000, 0xc200, 0x3c01, 0x6801, 0x3555, 0x4248, 0x7800, 0x0200};
}

std::vector<uint64_t> bfloatSpecials() {
  return {0x0000, 0x8000, 0x3f80, 0xbf80, 0x7f80, 0xff80, 0x7fc0, 0xffc1, 0x7f81, 0x7fa5, 0x0001, 0x807f,
          0x0080, 0x7f7f, 0x3f00, 0x3fc0, 0x4000, 0xc040, 0x3f81, 0x4b80, 0x3eab, 0x4049, 0x0040, 0x4f00};
}

std::vector<uint64_t> integerSpecials(uint32_t bits, bool isSigned) {
  const uint64_t mask = bits == 64 ? ~0ull : (1ull << bits) - 1;
  const uint64_t top = 1ull << (bits - 1);
  std::vector<uint64_t> v{0, 1, mask, 2, top, top - 1, top + 1, mask - 1, 7, 8, 15, 16, 31, 32, 33, 63, 64, 65,
                          0x7f, 0x80, 0xff, 0x100, 0x7fff, 0x8000, 0xffff, 0x12345678, 0x55555555aaaaaaaaull,
                          0x8000000000000000ull >> 3, 0xfedcba9876543210ull, 5, 3, 0x10000};
  (void)isSigned;  // the same bit patterns serve both: -1, MIN and MAX are among them
  for (uint64_t& x : v) x &= mask;
  std::vector<uint64_t> unique;
  for (uint64_t x : v) {
    if (std::find(unique.begin(), unique.end(), x) == unique.end()) unique.push_back(x);
  }
  return unique;
}

// Two halves of a packed pair: specials in either half.
std::vector<uint64_t> pairs(const std::vector<uint64_t>& half, uint32_t halfBits) {
  std::vector<uint64_t> out;
  for (size_t i = 0; i < half.size(); ++i) out.push_back(half[i] | (half[(i * 7 + 3) % half.size()] << halfBits));
  return out;
}

uint64_t maskOf(uint32_t bits) { return bits >= 64 ? ~0ull : (1ull << bits) - 1; }

}  // namespace

FormRandom::FormRandom(const std::string& formName) : state_(0xcbf29ce484222325ull) {
  for (unsigned char c : formName) state_ = (state_ ^ c) * 0x100000001b3ull;  // FNV-1a
}

// SplitMix64: a small, well-mixed generator whose sequence is fixed forever.
uint64_t FormRandom::next() {
  uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

std::vector<uint64_t> specialValues(DataType type) {
  switch (type) {
    case DataType::Pred: return {0, 1};
    case DataType::F32: return floatSpecials32();
    case DataType::F64: return floatSpecials64();
    case DataType::F16: return halfSpecials();
    case DataType::BF16: return bfloatSpecials();
    case DataType::F16x2: return pairs(halfSpecials(), 16);
    case DataType::BF16x2: return pairs(bfloatSpecials(), 16);
    case DataType::U16x2:
    case DataType::S16x2: return pairs(integerSpecials(16, false), 16);
    case DataType::E4M3x2:
    case DataType::E5M2x2:
    case DataType::E2M3x2:
    case DataType::E3M2x2:
    case DataType::UE8M0x2: return pairs({0x00, 0x80, 0x01, 0x7f, 0xff, 0x38, 0x3c, 0x7e, 0xfe, 0x08, 0x40, 0xc0}, 8);
    case DataType::E2M1x2: return {0x00, 0x08, 0x11, 0x77, 0x7f, 0xf8, 0x2a, 0x35, 0xcf, 0x9c};
    default: {
      const uint32_t bits = isa::typeBits(type);
      return integerSpecials(bits == 0 ? 32 : bits, isa::typeKind(type) == isa::TypeKind::Signed);
    }
  }
}

namespace {

// One input of a record: a source operand or a memory word, of `lanes`
// values of `laneBits` each, `strideBits` apart (a vector's registers, the
// halves of a 128-bit register, the elements of a memory word), packed into
// 8-byte slots; one lane for every register operand of the register set.
struct Field {
  isa::DataType values = isa::DataType::B32;
  std::vector<uint64_t> specials;
  uint32_t laneBits = 64;
  uint32_t lanes = 1;
  uint32_t strideBits = 64;
};

uint32_t laneBitsOf(isa::DataType values) { return isa::typeBits(values) == 0 ? 32 : isa::typeBits(values); }

Field fieldOf(isa::DataType values, uint32_t lanes, uint32_t strideBits, bool predicate) {
  Field f;
  f.values = values;
  f.specials = specialValues(values);
  if (predicate) {
    f.laneBits = 1;
    return f;
  }
  f.laneBits = laneBitsOf(values);
  f.lanes = lanes;
  f.strideBits = strideBits;
  return f;
}

// Appends the field's slots, each lane's value given by `laneValue(lane)`.
template <typename LaneValue>
void appendField(const Field& f, std::vector<uint64_t>& slots, LaneValue laneValue) {
  const size_t first = slots.size();
  slots.resize(first + (uint64_t{f.lanes - 1} * f.strideBits + f.laneBits + 63) / 64, 0);
  for (uint32_t lane = 0; lane < f.lanes; ++lane) {
    const uint64_t bit = uint64_t{lane} * f.strideBits;
    slots[first + bit / 64] |= (laneValue(lane) & maskOf(f.laneBits)) << (bit % 64);
  }
}

// Which NaN a float operation returns depends on where its NaNs are: 1,
// two quiet NaNs of different payload and sign, and a signaling NaN, for
// crossing over every float source (the specials above cross fewer values
// the more sources there are). Empty for other types.
std::vector<uint64_t> nanPositionValues(isa::DataType type) {
  switch (type) {
    case isa::DataType::F16:
    case isa::DataType::F16x2: return {0x3c00, 0x7e01, 0xfe02, 0x7c03};
    case isa::DataType::BF16:
    case isa::DataType::BF16x2: return {0x3f80, 0x7fc1, 0xffc2, 0x7f83};
    case isa::DataType::F32: return {0x3f800000, 0x7fc00001, 0xffc00002, 0x7f800003};
    case isa::DataType::F64: return {0x3ff0000000000000, 0x7ff8000000000001, 0xfff8000000000002, 0x7ff0000000000003};
    default: return {};
  }
}

// Calls visit(index) for every index with index[s] < counts[s], the first
// source changing fastest (counts of 1 hold a source still).
template <typename Visit>
void forEachCombination(const std::vector<size_t>& counts, Visit visit) {
  std::vector<size_t> index(counts.size(), 0);
  for (;;) {
    visit(index);
    size_t s = 0;
    while (s < counts.size() && ++index[s] >= counts[s]) index[s++] = 0;
    if (s == counts.size()) return;
  }
}

// Every combination of nanPositionValues over the float sources (others
// keep their first special), when a form has two to four float sources.
void appendNanPositions(const std::vector<Field>& fields, Inputs& in) {
  std::vector<std::vector<uint64_t>> choices;
  std::vector<size_t> counts;
  size_t floats = 0;
  for (const Field& f : fields) {
    choices.push_back(nanPositionValues(f.values));
    counts.push_back(std::max<size_t>(choices.back().size(), 1));
    if (!choices.back().empty()) ++floats;
  }
  if (floats < 2 || floats > 4) return;
  forEachCombination(counts, [&](const std::vector<size_t>& index) {
    for (size_t s = 0; s < fields.size(); ++s) {
      const std::vector<uint64_t>& c = choices[s];
      appendField(fields[s], in.slots, [&](uint32_t lane) {
        return c.empty() ? fields[s].specials[0] : c[(index[s] + lane) % c.size()];
      });
    }
    ++in.records;
  });
}

// A form of one scalar 16-bit source is cheap to hold against every input.
bool exhaustive16(const std::vector<Field>& fields) {
  return fields.size() == 1 && fields[0].laneBits == 16 && fields[0].lanes == 1;
}

}  // namespace

Inputs inputsFor(const Form& form) {
  if (form.kind == FormKind::Warp) return warpInputs(form);
  std::vector<Field> fields;
  if (form.memory.bits != 0) {
    const uint32_t laneBits = laneBitsOf(form.memory.values);
    fields.push_back(fieldOf(form.memory.values, form.memory.bits / laneBits, laneBits, false));
  }
  for (const Operand& o : form.operands) {
    if (o.role != OperandRole::Source && o.role != OperandRole::PredSource) continue;
    // A 128-bit register draws two 64-bit values; a narrower type widened to a register, one.
    const uint32_t perRegister = o.bits > 64 ? o.bits / laneBitsOf(o.values) : 1;
    fields.push_back(fieldOf(o.values, o.elements * perRegister, o.bits / perRegister,
                             o.role == OperandRole::PredSource));
  }
  if (form.carryIn) fields.push_back(Field{isa::DataType::Pred, {0, 1}, 1, 1});
  const size_t sources = fields.size();
  Inputs in;
  // The memory set keeps its recorded inputs: these two are register forms' only.
  const bool registerForm = form.kind == FormKind::Register;
  if (registerForm && exhaustive16(fields)) {
    for (uint32_t v = 0; v < 0x10000; ++v) {
      appendField(fields[0], in.slots, [&](uint32_t) { return v; });
      ++in.records;
    }
    return in;
  }
  // How many specials of each source are crossed: all of them for one
  // source, fewer the more sources there are, within about 256 records.
  static constexpr size_t kCrossed[] = {1, 64, 16, 6, 4, 3, 3};
  const size_t crossed = kCrossed[std::min<size_t>(sources, 6)];
  if (sources > 0) {
    std::vector<size_t> counts;
    for (const Field& f : fields) counts.push_back(std::min(crossed, f.specials.size()));
    forEachCombination(counts, [&](const std::vector<size_t>& index) {
      // Lane k of a vector takes the special 7k further on, so the lanes differ.
      for (size_t s = 0; s < sources; ++s) {
        const std::vector<uint64_t>& choices = fields[s].specials;
        appendField(fields[s], in.slots, [&](uint32_t lane) { return choices[(index[s] + 7 * lane) % choices.size()]; });
      }
      ++in.records;
    });
  }
  if (registerForm) appendNanPositions(fields, in);
  // Then random records: half random bit patterns, half specials drawn at random.
  FormRandom random(form.name);
  const uint32_t target = sources == 0 ? 1 : std::max<uint32_t>(in.records + 32, 96);
  while (in.records < target) {
    for (size_t s = 0; s < sources; ++s) {
      const std::vector<uint64_t>& choices = fields[s].specials;
      appendField(fields[s], in.slots, [&](uint32_t) {
        uint64_t r = random.next();
        return (r & 1) ? random.next() : choices[(r >> 1) % choices.size()];
      });
    }
    ++in.records;
  }
  return in;
}

}  // namespace ptxsim::conformance
