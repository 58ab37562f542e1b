#pragma once

// The shared lane loops: an instruction's semantics are written once, for
// one lane and one C++ type, as a functor with `static R apply(...)`; these
// templates apply it to every executing lane, reading sources from and
// writing the destination to their rows. Operand 0 is the destination.

#include "../exec/exec_context.h"
#include "../exec/lanes.h"

namespace ptxsim::sim::semantics {

using exec::ExecContext;
using exec::forLanes;
using exec::fromBits;
using exec::PreparedInstruction;
using exec::toBits;

template <typename T, typename Op, typename R = T>
void unaryHandler(const PreparedInstruction& pi, ExecContext& ctx) {
  uint64_t* d = ctx.row(pi.ops[0].row);
  const uint64_t* a = ctx.row(pi.ops[1].row);
  forLanes(ctx.mask, [&](unsigned l) { d[l] = toBits<R>(Op::apply(fromBits<T>(a[l]))); });
}

template <typename T, typename Op, typename R = T>
void binaryHandler(const PreparedInstruction& pi, ExecContext& ctx) {
  uint64_t* d = ctx.row(pi.ops[0].row);
  const uint64_t* a = ctx.row(pi.ops[1].row);
  const uint64_t* b = ctx.row(pi.ops[2].row);
  forLanes(ctx.mask, [&](unsigned l) { d[l] = toBits<R>(Op::apply(fromBits<T>(a[l]), fromBits<T>(b[l]))); });
}

template <typename T, typename Op, typename R = T>
void ternaryHandler(const PreparedInstruction& pi, ExecContext& ctx) {
  uint64_t* d = ctx.row(pi.ops[0].row);
  const uint64_t* a = ctx.row(pi.ops[1].row);
  const uint64_t* b = ctx.row(pi.ops[2].row);
  const uint64_t* c = ctx.row(pi.ops[3].row);
  forLanes(ctx.mask, [&](unsigned l) {
    d[l] = toBits<R>(Op::apply(fromBits<T>(a[l]), fromBits<T>(b[l]), fromBits<T>(c[l])));
  });
}

// Variants whose functor also needs the prepared instruction (a mode chosen
// at prepare time and kept in pi.aux): `apply(pi, a, b)`.
template <typename T, typename Op, typename R = T>
void unaryModeHandler(const PreparedInstruction& pi, ExecContext& ctx) {
  uint64_t* d = ctx.row(pi.ops[0].row);
  const uint64_t* a = ctx.row(pi.ops[1].row);
  forLanes(ctx.mask, [&](unsigned l) { d[l] = toBits<R>(Op::apply(pi, fromBits<T>(a[l]))); });
}

template <typename T, typename Op, typename R = T>
void binaryModeHandler(const PreparedInstruction& pi, ExecContext& ctx) {
  uint64_t* d = ctx.row(pi.ops[0].row);
  const uint64_t* a = ctx.row(pi.ops[1].row);
  const uint64_t* b = ctx.row(pi.ops[2].row);
  forLanes(ctx.mask, [&](unsigned l) { d[l] = toBits<R>(Op::apply(pi, fromBits<T>(a[l]), fromBits<T>(b[l]))); });
}

template <typename T, typename Op, typename R = T>
void ternaryModeHandler(const PreparedInstruction& pi, ExecContext& ctx) {
  uint64_t* d = ctx.row(pi.ops[0].row);
  const uint64_t* a = ctx.row(pi.ops[1].row);
  const uint64_t* b = ctx.row(pi.ops[2].row);
  const uint64_t* c = ctx.row(pi.ops[3].row);
  forLanes(ctx.mask, [&](unsigned l) {
    d[l] = toBits<R>(Op::apply(pi, fromBits<T>(a[l]), fromBits<T>(b[l]), fromBits<T>(c[l])));
  });
}

}  // namespace ptxsim::sim::semantics
