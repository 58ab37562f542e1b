// The wmma fragment layouts (sim/src/semantics/wmma_layout.h): whatever
// the shape and type, the warp's fragment holds every element of its
// matrix exactly once, and registers past the distinct elements repeat
// them. The lane-by-lane layouts themselves are held against the H100 by
// tests/cuda/programs/wmma_forms; this also covers the forms that
// recording does not reach.
#include "../../../sim/src/semantics/wmma_layout.h"

#include <gtest/gtest.h>

#include <vector>

namespace ptxsim::sim::semantics::wmma {
namespace {

using mma::Elem;

std::vector<Fragment> everyFragment() {
  const Shape shapes[] = {{16, 16, 16}, {32, 8, 16}, {8, 32, 16}, {16, 16, 8},
                          {8, 8, 4},    {8, 8, 32},  {8, 8, 128}};
  const Elem elems[] = {Elem::F16, Elem::BF16, Elem::TF32, Elem::F32, Elem::F64, Elem::S8,
                        Elem::U8,  Elem::S32,  Elem::S4,   Elem::U4,  Elem::B1};
  std::vector<Fragment> out;
  for (Shape s : shapes) {
    for (Part part : {Part::A, Part::B, Part::C}) {
      for (Elem e : elems) {
        Fragment f{s, part, e};
        if (fragmentExists(f)) out.push_back(f);
      }
    }
  }
  return out;
}

std::string nameOf(const Fragment& f) {
  return "m" + std::to_string(f.shape.m) + "n" + std::to_string(f.shape.n) + "k" + std::to_string(f.shape.k) +
         " part " + std::to_string(static_cast<int>(f.part)) + " type " +
         std::to_string(static_cast<int>(f.elem));
}

TEST(WmmaLayout, SmNinetyHasTheDocumentedFragments) {
  // 3 shapes x (A, B: f16, bf16, s8, u8; C: f16, f32, s32), tf32 (A, B, C),
  // f64 (A, B, C), s4/u4 (A, B: 2 types; C), b1 (A, B, C).
  EXPECT_EQ(everyFragment().size(), 3u * (4 + 4 + 3) + 3 + 3 + 5 + 3);
  EXPECT_FALSE(fragmentExists({{16, 16, 16}, Part::A, Elem::TF32}));
  EXPECT_FALSE(fragmentExists({{8, 8, 32}, Part::C, Elem::F32}));
  EXPECT_FALSE(fragmentExists({{16, 8, 16}, Part::A, Elem::F16}));  // mma.sync's shape, not wmma's
}

TEST(WmmaLayout, EveryElementOnceAndRepeatsMatch) {
  for (const Fragment& f : everyFragment()) {
    SCOPED_TRACE(nameOf(f));
    unsigned rows = rowsOf(f), cols = colsOf(f);
    std::vector<int> seen(rows * cols, 0);
    unsigned distinct = distinctElements(f);
    unsigned held = registerCount(f) * elementsPerRegister(f);
    ASSERT_GE(held, distinct);
    ASSERT_EQ(held % distinct, 0u);
    for (unsigned lane = 0; lane < 32; ++lane) {
      for (unsigned i = 0; i < held; ++i) {
        Cell c = cellOf(f, lane, i);
        ASSERT_LT(c.row, rows);
        ASSERT_LT(c.col, cols);
        Cell first = cellOf(f, lane, i % distinct);
        EXPECT_EQ(c.row, first.row);
        EXPECT_EQ(c.col, first.col);
        if (i < distinct) ++seen[c.row * cols + c.col];
      }
    }
    for (int count : seen) ASSERT_EQ(count, 1);
  }
}

TEST(WmmaLayout, RegisterCountsArePtxs) {
  // PTX ISA, "Matrix fragments for WMMA".
  EXPECT_EQ(registerCount({{16, 16, 16}, Part::A, Elem::F16}), 8u);
  EXPECT_EQ(registerCount({{32, 8, 16}, Part::B, Elem::F16}), 8u);
  EXPECT_EQ(registerCount({{16, 16, 16}, Part::C, Elem::F16}), 4u);
  EXPECT_EQ(registerCount({{8, 32, 16}, Part::C, Elem::F32}), 8u);
  EXPECT_EQ(registerCount({{32, 8, 16}, Part::A, Elem::BF16}), 8u);
  EXPECT_EQ(registerCount({{32, 8, 16}, Part::B, Elem::BF16}), 2u);
  EXPECT_EQ(registerCount({{8, 32, 16}, Part::B, Elem::U8}), 4u);
  EXPECT_EQ(registerCount({{16, 16, 8}, Part::A, Elem::TF32}), 4u);
  EXPECT_EQ(registerCount({{8, 8, 4}, Part::C, Elem::F64}), 2u);
  EXPECT_EQ(registerCount({{8, 8, 32}, Part::A, Elem::S4}), 1u);
  EXPECT_EQ(registerCount({{8, 8, 128}, Part::B, Elem::B1}), 1u);
}

}  // namespace
}  // namespace ptxsim::sim::semantics::wmma
