// The inputs of a warp collective's kernel: warp after warp, a lane pattern
// of its sources crossed with member masks (full, halves, alternate lanes,
// the two end lanes, one lane). Lanes outside a warp's mask do not execute
// the instruction. shfl's lane and clamp operands are chosen so that every
// lane reads a lane that executes (the ISA leaves a read of another lane
// undefined): any lane, clamp and segment with the full mask; with a
// partial mask, segments that lie inside it.

#include <functional>

#include "test_values.h"

namespace ptxsim::conformance {
namespace {

using isa::DataType;

constexpr uint32_t kWarpLanes = 32;
constexpr uint32_t kMasks[] = {0xffffffffu, 0x0000ffffu, 0x55555555u, 0x80000001u,
                               0x00000001u, 0xfffffffeu, 0x00ff00ffu};

using LaneValue = std::function<uint64_t(uint32_t lane)>;

// One warp: its member mask, then each source's value per lane.
void appendWarp(Inputs& in, uint32_t mask, const std::vector<LaneValue>& sources) {
  for (uint32_t lane = 0; lane < kWarpLanes; ++lane) {
    in.slots.push_back(mask);
    for (const LaneValue& source : sources) in.slots.push_back(source(lane));
    ++in.records;
  }
}

// Lane values of one type: specials by lane, equal values, groups of equal
// values, distinct and random values.
std::vector<LaneValue> valuePatterns(DataType type, FormRandom& random) {
  const std::vector<uint64_t> specials = specialValues(type);
  const uint32_t bits = isa::typeBits(type);
  const uint64_t mask = bits >= 64 ? ~0ull : (1ull << bits) - 1;
  const uint64_t top = 1ull << (bits - 1);
  std::vector<uint64_t> randomLanes, fewValues;
  const uint64_t four[] = {random.next() & mask, random.next() & mask, specials[4], specials[6]};
  for (uint32_t lane = 0; lane < kWarpLanes; ++lane) {
    randomLanes.push_back(random.next() & mask);
    fewValues.push_back(four[random.next() % 4]);
  }
  const size_t n = specials.size();
  return {
      [=](uint32_t lane) { return specials[lane % n]; },
      [=](uint32_t lane) { return specials[(lane * 5 + 3) % n]; },
      [](uint32_t) { return uint64_t{0}; },
      [=](uint32_t) { return top - 1; },  // every lane the largest signed value: a sum overflows
      [=](uint32_t) { return top; },
      [=](uint32_t) { return mask; },
      [](uint32_t lane) { return uint64_t{lane}; },
      [=](uint32_t lane) { return specials[4 + lane % 3]; },
      [=](uint32_t lane) { return specials[lane / 8]; },
      [=](uint32_t lane) { return (lane % 2 == 0 ? 0 : top) & mask; },   // +0 and -0 in IEEE terms
      [=](uint32_t lane) { return (uint64_t{lane % 2} << 32) & mask; },  // differing only above bit 31
      [=](uint32_t lane) { return randomLanes[lane]; },
      [=](uint32_t lane) { return fewValues[lane]; },
  };
}

void crossWithMasks(Inputs& in, const std::vector<std::vector<LaneValue>>& warps) {
  for (uint32_t mask : kMasks) {
    for (const std::vector<LaneValue>& sources : warps) appendWarp(in, mask, sources);
  }
}

Inputs shflInputs(const Form& form, FormRandom& random) {
  const bool up = form.mnemonic.find(".up.") != std::string::npos;
  // c: the clamp lane in bits 4:0, the segment mask in bits 12:8.
  const uint64_t canonical = up ? 0x0 : 0x1f;
  std::vector<uint64_t> distinct, laneRandom;
  for (uint32_t lane = 0; lane < kWarpLanes; ++lane) {
    distinct.push_back(random.next() & 0xffffffffu);
    laneRandom.push_back(random.next() & 0xffffffffu);
  }
  const std::vector<uint64_t> specials = specialValues(DataType::F32);
  const LaneValue values = [=](uint32_t lane) { return distinct[lane]; };
  const LaneValue specialByLane = [=](uint32_t lane) { return specials[lane % specials.size()]; };
  const auto constant = [](uint64_t v) { return LaneValue([=](uint32_t) { return v; }); };
  const LaneValue spread = [](uint32_t lane) { return uint64_t{lane * 7 % 40}; };
  const LaneValue randomLane = [=](uint32_t lane) { return laneRandom[lane]; };
  Inputs in;
  // The full mask: every lane distance, past the warp too, with the usual clamp.
  for (uint64_t b : {0ull, 1ull, 2ull, 3ull, 8ull, 16ull, 31ull, 32ull, 33ull, 0xffffffffull, 0x80000001ull})
    appendWarp(in, 0xffffffffu, {values, constant(b), constant(canonical)});
  appendWarp(in, 0xffffffffu, {values, spread, constant(canonical)});
  appendWarp(in, 0xffffffffu, {specialByLane, randomLane, constant(canonical)});
  // Every clamp and segment width, bits beyond 12 set too.
  for (uint64_t c : {0x0ull, 0x1full, 0x1807ull, 0x1c03ull, 0x101full, 0x1f00ull, 0xffffffffull, 0x5ull,
                     0x1000ull, 0x1810ull}) {
    for (const LaneValue& b : {constant(1), spread, randomLane})
      appendWarp(in, 0xffffffffu, {values, b, constant(c)});
  }
  // Partial masks with segments inside them: halves in 16-lane segments, alternate bytes in 8-lane
  // ones. up, down and idx stay in the lane's segment whatever b; bfly compares lane ^ b with the
  // segment's end only, so its b stays below the segment width (16 ^ 16 would read lane 0).
  const bool bfly = form.mnemonic.find(".bfly.") != std::string::npos;
  for (uint32_t mask : {0x0000ffffu, 0xffff0000u, 0x00ff00ffu, 0xff00ff00u}) {
    const uint32_t width = (mask == 0x0000ffffu || mask == 0xffff0000u) ? 16 : 8;
    const uint64_t segment = (uint64_t{32 - width} << 8) | (up ? 0 : width - 1);
    const LaneValue randomInSegment = [=](uint32_t lane) { return laneRandom[lane] & (width - 1); };
    for (const LaneValue& b : {constant(1), constant(3), constant(5), bfly ? randomInSegment : randomLane})
      appendWarp(in, mask, {values, b, constant(segment)});
  }
  return in;
}

}  // namespace

Inputs warpInputs(const Form& form) {
  FormRandom random(form.name);
  if (form.mnemonic.rfind("shfl", 0) == 0) return shflInputs(form, random);
  std::vector<const Operand*> sources;
  for (const Operand& o : form.operands) {
    if (o.role == OperandRole::Source || o.role == OperandRole::PredSource) sources.push_back(&o);
  }
  Inputs in;
  if (sources.empty()) {
    // activemask, elect: the member masks, and some at random.
    for (uint32_t mask : kMasks) appendWarp(in, mask, {});
    for (int i = 0; i < 4; ++i) appendWarp(in, static_cast<uint32_t>(random.next()) | 0x100, {});
    return in;
  }
  std::vector<std::vector<LaneValue>> warps;
  if (sources[0]->role == OperandRole::PredSource) {
    std::vector<uint64_t> bits;
    for (uint32_t lane = 0; lane < kWarpLanes; ++lane) bits.push_back(random.next() & 1);
    for (LaneValue q : std::vector<LaneValue>{[](uint32_t) { return 1ull; }, [](uint32_t) { return 0ull; },
                                              [](uint32_t lane) { return uint64_t{lane == 0}; },
                                              [](uint32_t lane) { return uint64_t{lane == 31}; },
                                              [](uint32_t lane) { return uint64_t{lane & 1}; },
                                              [](uint32_t lane) { return uint64_t{lane < 16}; },
                                              [](uint32_t lane) { return uint64_t{lane != 5}; },
                                              [](uint32_t lane) { return uint64_t{lane % 3 == 0}; },
                                              [=](uint32_t lane) { return bits[lane]; }})
      warps.push_back({q});
  } else {
    for (const LaneValue& v : valuePatterns(sources[0]->values, random)) warps.push_back({v});
  }
  crossWithMasks(in, warps);
  return in;
}

}  // namespace ptxsim::conformance
