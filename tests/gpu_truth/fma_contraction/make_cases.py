#!/usr/bin/env python3
"""Writes cases.ptx: one kernel for each way PTX leaves a multiply and an add
unrounded (no rounding modifier) that ptxas might contract into a fused
multiply-add, in every floating-point type that has them (f32, f64, f16,
bf16, f16x2, bf16x2).

Each kernel runs 32 threads; lane L reads eight inputs a..h from
in[8L..8L+7] and writes its results to out[4L..]. record.sh builds the
module with ptxas for sm_90, keeps ptxas's SASS (cuobjdump -sass) and runs
every kernel on the GPU (run_cases.cu); tests/sim/fma_contraction_test.cpp
runs the same kernels on the simulator and wants the GPU's bits.

Usage: make_cases.py > cases.ptx (the output is checked in; the kernel list
comes first, as comments, for the harness and the test).
"""

TYPES = {
    # name: (register type, load/store type, bytes, instruction type, has ftz/sat)
    "f32": (".f32", ".f32", 4, ".f32", True),
    "f64": (".f64", ".f64", 8, ".f64", False),
    "f16": (".b16", ".b16", 2, ".f16", False),
    "bf16": (".b16", ".b16", 2, ".bf16", False),
    "f16x2": (".b32", ".b32", 4, ".f16x2", False),
    "bf16x2": (".b32", ".b32", 4, ".bf16x2", False),
}

IMMEDIATES = {"f32": ("0f3FC00000", "0f3E800000"), "f64": ("0d3FF8000000000000", "0d3FD0000000000000")}

# name: (outputs, body, which types). {T} is the instruction type; a..h the
# inputs, t0..t7 temporaries, o0..o3 the outputs.
ALL = tuple(TYPES)
SCALAR_FLOAT = ("f32", "f64")
PATTERNS = [
    ("ab_c", 1, "mul{T} %t0, %a, %b; add{T} %o0, %t0, %c;", ALL),
    ("c_ab", 1, "mul{T} %t0, %a, %b; add{T} %o0, %c, %t0;", ALL),
    ("ab_minus_c", 1, "mul{T} %t0, %a, %b; sub{T} %o0, %t0, %c;", ALL),
    ("c_minus_ab", 1, "mul{T} %t0, %a, %b; sub{T} %o0, %c, %t0;", ALL),
    ("ab_c_stored", 2, "mul{T} %t0, %a, %b; add{T} %o0, %t0, %c; mov{R} %o1, %t0;", ALL),
    ("ab_c_ab_d", 2, "mul{T} %t0, %a, %b; add{T} %o0, %t0, %c; add{T} %o1, %t0, %d;", ALL),
    ("ab_de", 1, "mul{T} %t0, %a, %b; mul{T} %t1, %d, %e; add{T} %o0, %t0, %t1;", ALL),
    ("de_ab", 1, "mul{T} %t0, %a, %b; mul{T} %t1, %d, %e; add{T} %o0, %t1, %t0;", ALL),
    ("ab_minus_de", 1, "mul{T} %t0, %a, %b; mul{T} %t1, %d, %e; sub{T} %o0, %t0, %t1;", ALL),
    ("ab_de_first_stored", 2,
     "mul{T} %t0, %a, %b; mul{T} %t1, %d, %e; add{T} %o0, %t0, %t1; mov{R} %o1, %t0;", ALL),
    ("ab_de_second_stored", 2,
     "mul{T} %t0, %a, %b; mul{T} %t1, %d, %e; add{T} %o0, %t0, %t1; mov{R} %o1, %t1;", ALL),
    ("ab_de_both_stored", 3,
     "mul{T} %t0, %a, %b; mul{T} %t1, %d, %e; add{T} %o0, %t0, %t1; mov{R} %o1, %t0; mov{R} %o2, %t1;", ALL),
    ("mul_rn", 1, "mul.rn{T} %t0, %a, %b; add{T} %o0, %t0, %c;", ALL),
    ("add_rn", 1, "mul{T} %t0, %a, %b; add.rn{T} %o0, %t0, %c;", ALL),
    ("sub_rn", 1, "mul{T} %t0, %a, %b; sub.rn{T} %o0, %t0, %c;", ALL),
    ("neg_ab_c", 1, "mul{T} %t0, %a, %b; neg{T} %t1, %t0; add{T} %o0, %t1, %c;", ALL),
    ("mov_ab_c", 1, "mul{T} %t0, %a, %b; mov{R} %t1, %t0; add{T} %o0, %t1, %c;", ALL),
    ("chain", 1, "mul{T} %t0, %a, %b; add{T} %t1, %t0, %c; mul{T} %t2, %t1, %d; add{T} %o0, %t2, %e;", ALL),
    ("dot3", 1,
     "mul{T} %t0, %a, %b; mul{T} %t1, %c, %d; mul{T} %t2, %e, %f; add{T} %t3, %t0, %t1; add{T} %o0, %t3, %t2;",
     ALL),
    ("squares", 1, "mul{T} %t0, %a, %a; mul{T} %t1, %b, %b; add{T} %o0, %t0, %t1;", ALL),
    ("ab_plus_ab", 1, "mul{T} %t0, %a, %b; add{T} %o0, %t0, %t0;", ALL),
    ("two_sum_error", 1, "mul{T} %t0, %a, %b; add{T} %t1, %t0, %c; sub{T} %o0, %t1, %t0;", ALL),
    ("abs_ab_c", 1, "mul{T} %t0, %a, %b; abs{T} %t1, %t0; add{T} %o0, %t1, %c;", ALL),
    ("imm", 1, "mul{T} %t0, %a, {I0}; add{T} %o0, %t0, {I1};", SCALAR_FLOAT),
    ("imm_c", 1, "mul{T} %t0, %a, {I0}; add{T} %o0, %t0, %c;", SCALAR_FLOAT),
    ("ab_c_compared", 2,
     "mul{T} %t0, %a, %b; add{T} %o0, %t0, %c; setp.gt{T} %p1, %t0, %d; selp{R} %o1, %e, %f, %p1;", SCALAR_FLOAT),
    ("branch", 1,
     "mul{T} %t0, %a, %b; and.b32 %u1, %lane, 1; setp.ne.u32 %p1, %u1, 0; @%p1 bra ODD; add{T} %o0, %t0, %c;"
     " bra.uni DONE; ODD: sub{T} %o0, %t0, %c; DONE:", ALL),
    ("later_block", 1,
     "mul{T} %t0, %a, %b; mov{R} %o0, %c; mov.u32 %u1, %tid.y; setp.ne.u32 %p1, %u1, 0; @%p1 bra DONE;"
     " add{T} %o0, %t0, %c; DONE:", ALL),
    ("loop", 1,
     "mov{R} %t1, %c; mov{R} %t2, %a; mov.u32 %u1, 0; LOOP: mul{T} %t0, %t2, %b; add{T} %t1, %t1, %t0;"
     " add{T} %t2, %t2, %d; add.u32 %u1, %u1, 1; setp.lt.u32 %p1, %u1, 4; @%p1 bra LOOP; mov{R} %o0, %t1;", ALL),
    ("ftz_mul", 1, "mul.ftz{T} %t0, %a, %b; add{T} %o0, %t0, %c;", ("f32",)),
    ("ftz_add", 1, "mul{T} %t0, %a, %b; add.ftz{T} %o0, %t0, %c;", ("f32",)),
    ("ftz_both", 1, "mul.ftz{T} %t0, %a, %b; add.ftz{T} %o0, %t0, %c;", ("f32",)),
    ("sat_mul", 1, "mul.sat{T} %t0, %a, %b; add{T} %o0, %t0, %c;", ("f32",)),
    ("sat_add", 1, "mul{T} %t0, %a, %b; add.sat{T} %o0, %t0, %c;", ("f32",)),
]

INPUTS = "abcdefgh"


def kernel(pattern, type_name):
    name, outputs, body, _ = pattern
    reg, ldst, size, itype, _ = TYPES[type_name]
    immediates = IMMEDIATES.get(type_name, ("", ""))
    text = body.replace("{T}", itype).replace("{R}", ".b64" if size == 8 else ".b32" if size == 4 else ".b16")
    text = text.replace("{I0}", immediates[0]).replace("{I1}", immediates[1])
    if type_name == "f32" or type_name == "f64":
        text = text.replace("mov.b32 ", "mov.f32 ").replace("mov.b64 ", "mov.f64 ")
        text = text.replace("selp.b32 ", "selp.f32 ").replace("selp.b64 ", "selp.f64 ")
    entry = f"{name}_{type_name}"
    lines = [
        f".visible .entry {entry}(.param .u64 in, .param .u64 out)",
        "{",
        "  .reg .b64 %in, %out, %ia, %oa;",
        "  .reg .b32 %lane, %u1;",
        "  .reg .pred %p1;",
        f"  .reg {reg} %a, %b, %c, %d, %e, %f, %g, %h, %t<8>, %o<4>;",
        "  ld.param.u64 %in, [in];",
        "  ld.param.u64 %out, [out];",
        "  cvta.to.global.u64 %in, %in;",
        "  cvta.to.global.u64 %out, %out;",
        "  mov.u32 %lane, %tid.x;",
        f"  mul.wide.u32 %ia, %lane, {8 * size};",
        "  add.u64 %ia, %in, %ia;",
    ]
    for i, r in enumerate(INPUTS):
        lines.append(f"  ld.global{ldst} %{r}, [%ia+{i * size}];")
    lines += [f"  mul.wide.u32 %oa, %lane, {4 * size};", "  add.u64 %oa, %out, %oa;"]
    for statement in text.split(";"):
        statement = statement.strip()
        if statement:
            label, colon, rest = statement.partition(":") if statement.split()[0].endswith(":") else ("", "", "")
            if colon:
                lines.append(f"{label}:")
                statement = rest.strip()
            if statement:
                lines.append(f"  {statement};")
    for o in range(outputs):
        lines.append(f"  st.global{ldst} [%oa+{o * size}], %o{o};")
    lines += ["  ret;", "}", ""]
    return entry, outputs, "\n".join(lines)


def main():
    kernels = []
    for pattern in PATTERNS:
        for type_name in TYPES:
            if type_name in pattern[3]:
                kernels.append((type_name, *kernel(pattern, type_name)))
    print("// Generated by make_cases.py: ptxas's contraction of unrounded mul/add/sub, one kernel a case.")
    print("// kernels: name type outputs")
    for type_name, entry, outputs, _ in kernels:
        print(f"// kernel {entry} {type_name} {outputs}")
    print(".version 9.0\n.target sm_90\n.address_size 64\n")
    for _, _, _, text in kernels:
        print(text)


if __name__ == "__main__":
    main()
