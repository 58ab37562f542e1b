#include "wmma_layout.h"

namespace ptxsim::sim::semantics::wmma {

namespace {

using mma::Elem;

bool is(const Shape& s, unsigned m, unsigned n, unsigned k) { return s.m == m && s.n == n && s.k == k; }

bool sixteenDeep(const Shape& s) { return is(s, 16, 16, 16) || is(s, 32, 8, 16) || is(s, 8, 32, 16); }

bool sixteenBit(Elem e) { return e == Elem::F16 || e == Elem::BF16; }

Cell accumulatorCell(const Shape& s, unsigned g, unsigned t, unsigned i) {
  if (s.m == 8 && s.n == 8) return {g, 2 * t + i};
  if (s.m == 32) return {g + 8 * (i >> 1), 2 * t + (i & 1)};
  if (s.n == 32) return {2 * t + (i & 1), g + 8 * (i >> 1)};
  return {g + 8 * ((i >> 1) & 1), 2 * t + (i & 1) + 8 * (i >> 2)};
}

Cell aCell(const Fragment& f, unsigned g, unsigned t, unsigned i) {
  const Shape& s = f.shape;
  if (s.m == 8 && s.n == 8) return {g, t * (s.k / 4) + i};
  if (f.elem == Elem::TF32) return {g + 8 * (i & 1), t + 4 * (i >> 1)};
  if (sixteenBit(f.elem)) {
    unsigned r = i >> 1, h = i & 1;
    if (s.n == 32) return {g, 2 * t + h + 8 * r};
    return {g + 8 * (r & 1) + 16 * (r >> 2), 8 * ((r >> 1) & 1) + 2 * t + h};
  }
  return {g + 8 * (i >> 2), 4 * t + (i & 3)};  // s8/u8
}

Cell bCell(const Fragment& f, unsigned g, unsigned t, unsigned i) {
  const Shape& s = f.shape;
  if (s.m == 8 && s.n == 8) return {t * (s.k / 4) + i, g};
  if (f.elem == Elem::TF32) return {t + 4 * (i & 1), g + 8 * (i >> 1)};
  if (sixteenBit(f.elem)) {
    unsigned r = i >> 1, h = i & 1;
    if (s.n == 32) return {2 * t + h + 8 * ((r >> 1) & 1), g + 8 * (r & 1) + 16 * (r >> 2)};
    return {2 * t + h + 8 * (r & 1), g + 8 * (r >> 1)};
  }
  return {4 * t + (i & 3), g + 8 * (i >> 2)};  // s8/u8
}

}  // namespace

bool fragmentExists(const Fragment& f) {
  const Shape& s = f.shape;
  bool accumulator = f.part == Part::C;
  Elem e = f.elem;
  if (sixteenDeep(s)) {
    if (accumulator) return e == Elem::F16 || e == Elem::F32 || e == Elem::S32;
    return sixteenBit(e) || e == Elem::S8 || e == Elem::U8;
  }
  if (is(s, 16, 16, 8)) return e == (accumulator ? Elem::F32 : Elem::TF32);
  if (is(s, 8, 8, 4)) return e == Elem::F64;
  if (is(s, 8, 8, 32)) return accumulator ? e == Elem::S32 : e == Elem::S4 || e == Elem::U4;
  if (is(s, 8, 8, 128)) return e == (accumulator ? Elem::S32 : Elem::B1);
  return false;
}

unsigned rowsOf(const Fragment& f) { return f.part == Part::B ? f.shape.k : f.shape.m; }

unsigned colsOf(const Fragment& f) { return f.part == Part::A ? f.shape.k : f.shape.n; }

unsigned elementsPerRegister(const Fragment& f) { return f.elem == Elem::F64 ? 1 : 32 / mma::bitsOf(f.elem); }

unsigned distinctElements(const Fragment& f) { return rowsOf(f) * colsOf(f) / 32; }

unsigned registerCount(const Fragment& f) {
  // The f16 A and B fragments keep the 8 registers of the first tensor
  // cores' (sm_70) layout whatever the shape.
  if (f.elem == Elem::F16 && f.part != Part::C) return 8;
  return distinctElements(f) / elementsPerRegister(f);
}

Cell cellOf(const Fragment& f, unsigned lane, unsigned i) {
  unsigned g = lane >> 2, t = lane & 3;
  i %= distinctElements(f);
  switch (f.part) {
    case Part::A: return aCell(f, g, t, i);
    case Part::B: return bCell(f, g, t, i);
    case Part::C: return accumulatorCell(f.shape, g, t, i);
  }
  return {0, 0};
}

}  // namespace ptxsim::sim::semantics::wmma
