// Instruction-table rows: integer and floating-point arithmetic, comparison
// and selection, logic and shifts, video instructions and miscellaneous
// ones. Versions are major*10+minor (PTX ISA) and sm_XY as XY.

#include "instruction_table_rows.h"

namespace ptxsim::isa::table {

namespace {

using namespace rowWords;

// The rows of the scalar (vadd..vset) and SIMD (vadd2..vset4) video
// instructions differ only in the opcode.
constexpr InstructionSpec videoScalar(Opcode op) {
  return row(op, {kU32S32, kU32S32, kU32S32}, {Saturate, ReduceOp}, {}, "d,s1,s2,s?", 20, 20, U::IntAlu);
}
constexpr InstructionSpec videoSimd(Opcode op) {
  return row(op, {kU32S32, kU32S32, kU32S32}, {Saturate, ReduceOp}, {}, "d,s1,s2,s", 30, 30, U::IntAlu);
}
constexpr InstructionSpec videoSet(Opcode op, std::string_view operands, uint16_t version) {
  return row(op, {kU32S32, kU32S32}, {ReduceOp}, {Compare}, operands, version, version, U::IntAlu);
}

constexpr InstructionSpec kRows[] = {
    // Integer arithmetic. Integer rows take no rounding; .sat applies to
    // .s32 and .cc to 32/64-bit types, which the table does not separate.
    row(Op::Add, {kInt16To64}, {Saturate, Carry}, {}, "d,s,s", 10, 10, U::IntAlu),
    // The packed halves (PTX 8.0, sm_90): add, min, max, and .relu on the
    // signed min/max; there is no sub on them (ptxas rejects it).
    row(Op::Add, {kPacked16}, {}, {}, "d,s,s", 80, 90, U::IntAlu),
    row(Op::Add, {kF32}, {Rounding, Ftz, Saturate}, {}, "d,s,s", 10, 10, U::Fp32),
    row(Op::Add, {kF64}, {Rounding}, {}, "d,s,s", 10, 13, U::Fp64),
    row(Op::Add, {kF16}, {Rounding, Ftz, Saturate}, {}, "d,s,s", 42, 53, U::Fp16),
    row(Op::Add, {kBF16}, {Rounding}, {}, "d,s,s", 78, 90, U::Fp16),
    row(Op::Sub, {kInt16To64}, {Saturate, Carry}, {}, "d,s,s", 10, 10, U::IntAlu),
    row(Op::Sub, {kF32}, {Rounding, Ftz, Saturate}, {}, "d,s,s", 10, 10, U::Fp32),
    row(Op::Sub, {kF64}, {Rounding}, {}, "d,s,s", 10, 13, U::Fp64),
    row(Op::Sub, {kF16}, {Rounding, Ftz, Saturate}, {}, "d,s,s", 42, 53, U::Fp16),
    row(Op::Sub, {kBF16}, {Rounding}, {}, "d,s,s", 78, 90, U::Fp16),
    // mul.wide/mad.wide write (and mad.wide adds) twice the type's width;
    // operand checking widens those operands itself.
    row(Op::Mul, {kInt16To64}, {}, {MulMode}, "d,s,s", 10, 10, U::IntMul),
    row(Op::Mul, {kF32}, {Rounding, Ftz, Saturate}, {}, "d,s,s", 10, 10, U::Fp32),
    row(Op::Mul, {kF64}, {Rounding}, {}, "d,s,s", 10, 13, U::Fp64),
    row(Op::Mul, {kF16}, {Rounding, Ftz, Saturate}, {}, "d,s,s", 42, 53, U::Fp16),
    row(Op::Mul, {kBF16}, {Rounding}, {}, "d,s,s", 78, 90, U::Fp16),
    row(Op::Mad, {kInt16To64}, {Saturate, Carry}, {MulMode}, "d,s,s,s", 10, 10, U::IntMul),
    row(Op::Mad, {kF32}, {Rounding, Ftz, Saturate}, {}, "d,s,s,s", 10, 10, U::Fp32),
    row(Op::Mad, {kF64}, {Rounding}, {}, "d,s,s,s", 10, 13, U::Fp64),
    row(Op::Mul24, {kU32S32}, {}, {MulMode}, "d,s,s", 10, 10, U::IntMul),
    row(Op::Mad24, {kU32S32}, {Saturate}, {MulMode}, "d,s,s,s", 10, 10, U::IntMul),
    row(Op::Sad, {kInt16To64}, {}, {}, "d,s,s,s", 10, 10, U::IntAlu),
    row(Op::Div, {kInt16To64}, {}, {}, "d,s,s", 10, 10, U::IntMul),
    row(Op::Div, {kF32}, {Rounding, Ftz, Precision}, {}, "d,s,s", 10, 10, U::Sfu),
    row(Op::Div, {kF64}, {Rounding}, {}, "d,s,s", 10, 13, U::Fp64),
    row(Op::Rem, {kInt16To64}, {}, {}, "d,s,s", 10, 10, U::IntMul),
    row(Op::Abs, {kSigned16To64}, {}, {}, "d,s", 10, 10, U::IntAlu),
    row(Op::Abs, {kF32}, {Ftz}, {}, "d,s", 10, 10, U::Fp32),
    row(Op::Abs, {kF64}, {}, {}, "d,s", 10, 13, U::Fp64),
    row(Op::Abs, {kF16}, {Ftz}, {}, "d,s", 65, 53, U::Fp16),
    row(Op::Abs, {kBF16}, {}, {}, "d,s", 70, 80, U::Fp16),
    row(Op::Neg, {kSigned16To64}, {}, {}, "d,s", 10, 10, U::IntAlu),
    row(Op::Neg, {kF32}, {Ftz}, {}, "d,s", 10, 10, U::Fp32),
    row(Op::Neg, {kF64}, {}, {}, "d,s", 10, 13, U::Fp64),
    row(Op::Neg, {kF16}, {Ftz}, {}, "d,s", 60, 53, U::Fp16),
    row(Op::Neg, {kBF16}, {}, {}, "d,s", 70, 80, U::Fp16),
    // min/max: a third source is PTX 8.8; .relu on .s32 and .s16x2 is sm_90; .NaN,
    // .xorsign.abs and the half types are sm_80/sm_86.
    row(Op::Min, {kInt16To64}, {}, {}, "d,s,s,s?", 10, 10, U::IntAlu),
    row(Op::Min, {TypeSet{S32}}, {Relu}, {}, "d,s,s,s?", 80, 90, U::IntAlu),
    row(Op::Min, {TypeSet{U16x2}}, {}, {}, "d,s,s", 80, 90, U::IntAlu),
    row(Op::Min, {TypeSet{S16x2}}, {Relu}, {}, "d,s,s", 80, 90, U::IntAlu),
    row(Op::Min, {kF32}, {Ftz}, {}, "d,s,s,s?", 10, 10, U::Fp32),
    row(Op::Min, {kF32}, {Ftz, NaNMode, XorSign, AbsMode}, {}, "d,s,s,s?", 70, 80, U::Fp32),
    row(Op::Min, {kF64}, {}, {}, "d,s,s", 10, 13, U::Fp64),
    row(Op::Min, {kF16}, {Ftz, NaNMode, XorSign, AbsMode}, {}, "d,s,s,s?", 70, 80, U::Fp16),
    row(Op::Min, {kBF16}, {NaNMode, XorSign, AbsMode}, {}, "d,s,s,s?", 70, 80, U::Fp16),
    row(Op::Max, {kInt16To64}, {}, {}, "d,s,s,s?", 10, 10, U::IntAlu),
    row(Op::Max, {TypeSet{S32}}, {Relu}, {}, "d,s,s,s?", 80, 90, U::IntAlu),
    row(Op::Max, {TypeSet{U16x2}}, {}, {}, "d,s,s", 80, 90, U::IntAlu),
    row(Op::Max, {TypeSet{S16x2}}, {Relu}, {}, "d,s,s", 80, 90, U::IntAlu),
    row(Op::Max, {kF32}, {Ftz}, {}, "d,s,s,s?", 10, 10, U::Fp32),
    row(Op::Max, {kF32}, {Ftz, NaNMode, XorSign, AbsMode}, {}, "d,s,s,s?", 70, 80, U::Fp32),
    row(Op::Max, {kF64}, {}, {}, "d,s,s", 10, 13, U::Fp64),
    row(Op::Max, {kF16}, {Ftz, NaNMode, XorSign, AbsMode}, {}, "d,s,s,s?", 70, 80, U::Fp16),
    row(Op::Max, {kBF16}, {NaNMode, XorSign, AbsMode}, {}, "d,s,s,s?", 70, 80, U::Fp16),
    // popc, clz and bfind write a .u32 whatever the source width.
    row(Op::Popc, {kB32B64}, {}, {}, "x,s", 20, 20, U::IntAlu),
    row(Op::Clz, {kB32B64}, {}, {}, "x,s", 20, 20, U::IntAlu),
    row(Op::Bfind, {kInt32And64}, {ShiftAmount}, {}, "x,s", 20, 20, U::IntAlu),
    row(Op::Fns, {TypeSet{B32}}, {}, {}, "d,B32,U32,S32", 60, 30, U::IntAlu),
    row(Op::Brev, {kB32B64}, {}, {}, "d,s", 20, 20, U::IntAlu),
    row(Op::Bfe, {kInt32And64}, {}, {}, "d,s,U32,U32", 20, 20, U::IntAlu),
    row(Op::Bfi, {kB32B64}, {}, {}, "d,s,s,U32,U32", 20, 20, U::IntAlu),
    row(Op::Szext, {kU32S32}, {}, {ShiftClamp}, "d,s,U32", 76, 70, U::IntAlu),
    row(Op::Bmsk, {TypeSet{B32}}, {}, {ShiftClamp}, "d,U32,U32", 76, 70, U::IntAlu),
    row(Op::Dp4a, {kU32S32, kU32S32}, {}, {}, "d,s,s1,s", 50, 61, U::IntMul),
    row(Op::Dp2a, {kU32S32, kU32S32}, {}, {MulMode}, "d,s,s1,s", 50, 61, U::IntMul),
    row(Op::Addc, {kInt32And64}, {Carry}, {}, "d,s,s", 12, 12, U::IntAlu),
    row(Op::Subc, {kInt32And64}, {Carry}, {}, "d,s,s", 12, 12, U::IntAlu),
    row(Op::Madc, {kInt32And64}, {Carry}, {MulMode}, "d,s,s,s", 30, 20, U::IntMul),

    // Floating point.
    row(Op::Testp, {kF32F64}, {}, {TestProperty}, "p,s", 20, 20, U::Fp32),
    row(Op::Copysign, {kF32F64}, {}, {}, "d,s,s", 20, 20, U::Fp32),
    row(Op::Fma, {kF32}, {Rounding, Ftz, Saturate}, {}, "d,s,s,s", 20, 20, U::Fp32),
    row(Op::Fma, {kF64}, {Rounding}, {}, "d,s,s,s", 14, 13, U::Fp64),
    row(Op::Fma, {kF16}, {Rounding, Ftz, Saturate, Relu, Boundary}, {}, "d,s,s,s", 42, 53, U::Fp16),
    row(Op::Fma, {kBF16}, {Rounding, Relu, Boundary}, {}, "d,s,s,s", 70, 80, U::Fp16),
    row(Op::Rcp, {kF32}, {Rounding, Ftz, Precision}, {}, "d,s", 10, 10, U::Sfu),
    row(Op::Rcp, {kF64}, {Rounding, Ftz, Precision}, {}, "d,s", 14, 13, U::Fp64),
    row(Op::Sqrt, {kF32}, {Rounding, Ftz, Precision}, {}, "d,s", 10, 10, U::Sfu),
    row(Op::Sqrt, {kF64}, {Rounding, Ftz, Precision}, {}, "d,s", 14, 13, U::Fp64),
    row(Op::Rsqrt, {kF32}, {Ftz}, {Precision}, "d,s", 10, 10, U::Sfu),
    row(Op::Rsqrt, {kF64}, {Ftz}, {Precision}, "d,s", 10, 13, U::Sfu),
    row(Op::Sin, {kF32}, {Ftz}, {Precision}, "d,s", 10, 10, U::Sfu),
    row(Op::Cos, {kF32}, {Ftz}, {Precision}, "d,s", 10, 10, U::Sfu),
    row(Op::Lg2, {kF32}, {Ftz}, {Precision}, "d,s", 10, 10, U::Sfu),
    row(Op::Ex2, {kF32}, {Ftz}, {Precision}, "d,s", 10, 10, U::Sfu),
    row(Op::Ex2, {kF16}, {Ftz}, {Precision}, "d,s", 70, 75, U::Sfu),
    row(Op::Ex2, {kBF16}, {Ftz}, {Precision}, "d,s", 78, 90, U::Sfu),
    row(Op::Tanh, {TypeSet{F32, F16, F16x2}}, {}, {Precision}, "d,s", 70, 75, U::Sfu),
    row(Op::Tanh, {kBF16}, {}, {Precision}, "d,s", 78, 90, U::Sfu),

    // Comparison and selection. set writes slot 0's type from a comparison
    // of slot 1's; setp's destination may be a pair `%p|%q`.
    row(Op::Set, {TypeSet{U32, S32, F32}, kScalar}, {BoolOp, Ftz}, {Compare}, "d,s1,s1,q?", 10, 10, U::IntAlu),
    row(Op::Set, {TypeSet{U32, S32, F32, F16, F16x2}, kF16}, {BoolOp, Ftz}, {Compare}, "d,s1,s1,q?", 42, 53,
        U::Fp16),
    row(Op::Set, {TypeSet{U32, S32, F32, BF16, BF16x2}, kBF16}, {BoolOp}, {Compare}, "d,s1,s1,q?", 78, 90,
        U::Fp16),
    row(Op::Setp, {kScalar}, {BoolOp, Ftz}, {Compare}, "p,s,s,q?", 10, 10, U::IntAlu),
    row(Op::Setp, {kF16}, {BoolOp, Ftz}, {Compare}, "p,s,s,q?", 42, 53, U::Fp16),
    row(Op::Setp, {kBF16}, {BoolOp}, {Compare}, "p,s,s,q?", 78, 90, U::Fp16),
    row(Op::Selp, {kScalar}, {}, {}, "d,s,s,q", 10, 10, U::IntAlu),
    row(Op::Slct, {kScalar, TypeSet{S32, F32}}, {Ftz}, {}, "d,s,s,s1", 10, 10, U::IntAlu),

    // Logic and shifts.
    row(Op::And, {kPred | kB16To64}, {}, {}, "d,s,s", 10, 10, U::IntAlu),
    row(Op::Or, {kPred | kB16To64}, {}, {}, "d,s,s", 10, 10, U::IntAlu),
    row(Op::Xor, {kPred | kB16To64}, {}, {}, "d,s,s", 10, 10, U::IntAlu),
    row(Op::Not, {kPred | kB16To64}, {}, {}, "d,s", 10, 10, U::IntAlu),
    row(Op::Cnot, {kB16To64}, {}, {}, "d,s", 10, 10, U::IntAlu),
    // lop3.op.b32 d|p, a, b, c, lut, q is the PTX 8.2 predicate form.
    row(Op::Lop3, {TypeSet{B32}}, {BoolOp}, {}, "d,s,s,s,U32,q?", 43, 50, U::IntAlu),
    row(Op::Shf, {TypeSet{B32}}, {}, {ShiftMode, ShiftClamp}, "d,s,s,U32", 31, 32, U::IntAlu),
    row(Op::Shl, {kB16To64}, {}, {}, "d,s,U32", 10, 10, U::IntAlu),
    row(Op::Shr, {kB16To64 | kInt16To64}, {}, {}, "d,s,U32", 10, 10, U::IntAlu),
    row(Op::Prmt, {TypeSet{B32}}, {PermuteMode}, {}, "d,s,s,s", 20, 20, U::IntAlu),

    // Video instructions: .dtype.atype.btype, an optional secondary
    // operation (.add .min .max, ReduceOp) and a third source with it.
    videoScalar(Op::Vadd),
    videoScalar(Op::Vsub),
    videoScalar(Op::Vabsdiff),
    videoScalar(Op::Vmin),
    videoScalar(Op::Vmax),
    row(Op::Vshl, {kU32S32, kU32S32, TypeSet{U32}}, {Saturate, ReduceOp}, {ShiftClamp}, "d,s1,s2,s?", 20, 20,
        U::IntAlu),
    row(Op::Vshr, {kU32S32, kU32S32, TypeSet{U32}}, {Saturate, ReduceOp}, {ShiftClamp}, "d,s1,s2,s?", 20, 20,
        U::IntAlu),
    // vmad: .po (Form) and the final .shr7/.shr15 (ShiftAmount).
    row(Op::Vmad, {kU32S32, kU32S32, kU32S32}, {Saturate, ShiftAmount, Form}, {}, "d,s1,s2,s", 20, 20,
        U::IntMul),
    videoSet(Op::Vset, "d,s,s1,s?", 20),
    videoSimd(Op::Vadd2),
    videoSimd(Op::Vsub2),
    videoSimd(Op::Vavrg2),
    videoSimd(Op::Vabsdiff2),
    videoSimd(Op::Vmin2),
    videoSimd(Op::Vmax2),
    videoSet(Op::Vset2, "d,s,s1,s", 30),
    videoSimd(Op::Vadd4),
    videoSimd(Op::Vsub4),
    videoSimd(Op::Vavrg4),
    videoSimd(Op::Vabsdiff4),
    videoSimd(Op::Vmin4),
    videoSimd(Op::Vmax4),
    videoSet(Op::Vset4, "d,s,s1,s", 30),

    // Miscellaneous.
    row(Op::Trap, {}, {}, {}, "", 10, 10, U::Misc),
    row(Op::Brkpt, {}, {}, {}, "", 11, 11, U::Misc),
    row(Op::Pmevent, {}, {Form}, {}, "x", 14, 10, U::Misc),
    row(Op::Nanosleep, {TypeSet{U32}}, {}, {}, "U32", 63, 70, U::Misc),
    row(Op::Setmaxnreg, {TypeSet{U32}}, {Sync, Aligned}, {MaxNReg}, "U32", 80, 90, U::Misc),
};

}  // namespace

std::span<const InstructionSpec> arithmeticRows() { return kRows; }

}  // namespace ptxsim::isa::table
