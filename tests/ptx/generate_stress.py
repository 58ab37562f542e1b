#!/usr/bin/env python3
"""Writes the stress inputs for `ptxsim check` into OUTDIR (stdlib only).

    generate_stress.py OUTDIR

None of them may crash or hang the checker. long_line.ptx and huge_valid.ptx
are valid PTX (ptxas accepts them) and must be accepted; every other file
has a definite error and must be rejected with a located error. The stress
part of each rejected file is itself well formed where that is possible
(balanced parentheses and braces), and the definite error comes after it, so
a checker must get through the whole stress part (or refuse it with its own
located "too deep"/"too long" error) before it can report anything.
Output is deterministic: the same bytes on every run.
"""
import pathlib
import sys

HEADER = ".version 9.0\n.target sm_90\n.address_size 64\n\n"
DEPTH = 100_000


def kernel(body, regs=".reg .b32 %r<4>;", name="k"):
    return (HEADER + f".visible .entry {name}(\n\t.param .u64 {name}_param_0\n)\n{{\n"
            f"\t{regs}\n\t.reg .b64 %rd<2>;\n\tld.param.u64 %rd1, [{name}_param_0];\n"
            f"{body}\tst.global.u32 [%rd1], %r1;\n\tret;\n}}\n")


def deep_parens():
    # 100000 balanced parentheses around an immediate, then an undeclared register.
    expr = "(" * DEPTH + "1" + ")" * DEPTH
    return kernel(f"\tmov.u32 %r1, 0;\n\tadd.s32 %r1, %r1, {expr};\n"
                  "\tadd.s32 %r1, %r1, %r99;\n")


def deep_braces():
    # 100000 nested, balanced { } blocks inside the body, then an undeclared register.
    return kernel("\tmov.u32 %r1, 0;\n\t" + "{" * DEPTH + "\n\tadd.s32 %r1, %r1, 1;\n\t"
                  + "}" * DEPTH + "\n\tadd.s32 %r1, %r1, %r99;\n")


def long_line():
    # Valid: the whole body is one ~4 MB line.
    unit = "add.s32 %r1, %r1, 1; "
    line = unit * (4 * 1024 * 1024 // len(unit) + 1)
    return kernel("\tmov.u32 %r1, 0;\n\t" + line + "\n")


def long_identifier():
    # A 1 MB register name, never declared.
    name = "%" + "r" + "x" * (1024 * 1024)
    return kernel(f"\tmov.u32 %r1, 0;\n\tadd.s32 %r1, %r1, {name};\n")


def many_operators():
    # 1e5-term sum and 1e5 unary minuses (an even count: the value is 1),
    # both well formed; then an undeclared register.
    plus = "+".join(["1"] * DEPTH)
    minus = "-" * DEPTH + "1"
    return kernel(f"\tmov.u32 %r1, 0;\n\tadd.s32 %r1, %r1, {plus};\n"
                  f"\tadd.s32 %r1, %r1, {minus};\n\tadd.s32 %r1, %r1, %r99;\n")


def binary_garbage():
    # 64 KiB from a fixed-seed xorshift64 generator (independent of Python's random).
    x = 0x9E3779B97F4A7C15
    out = bytearray()
    while len(out) < 64 * 1024:
        x ^= (x << 13) & 0xFFFFFFFFFFFFFFFF
        x ^= x >> 7
        x ^= (x << 17) & 0xFFFFFFFFFFFFFFFF
        out += x.to_bytes(8, "little")
    return bytes(out[:64 * 1024])


def truncated():
    # A valid kernel cut in the middle of the `add.s32` opcode (no final newline).
    full = kernel("\tmov.u32 %r1, 0;\n\tadd.s32 %r1, %r1, 1;\n")
    cut = full.index("add.s32") + len("add.s")
    return full[:cut]


def huge_valid():
    # Valid: exactly 200000 instructions.
    ops = ["add.s32 %r1, %r1, 1;", "xor.b32 %r2, %r2, %r1;", "mul.lo.s32 %r3, %r3, 3;",
           "add.s32 %r1, %r1, %r3;"]
    n = 200_000 - 5  # + 2 mov, ld.param, st.global, ret = 200000
    body = "\tmov.u32 %r2, 0;\n\tmov.u32 %r3, 1;\n" + "".join(
        f"\t{ops[i % len(ops)]}\n" for i in range(n))
    return kernel(body)


FILES = {
    "deep_parens.ptx": deep_parens,
    "deep_braces.ptx": deep_braces,
    "long_line.ptx": long_line,
    "long_identifier.ptx": long_identifier,
    "many_operators.ptx": many_operators,
    "empty.ptx": lambda: "",
    "binary_garbage.bin": binary_garbage,
    "truncated.ptx": truncated,
    "huge_valid.ptx": huge_valid,
}


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: generate_stress.py OUTDIR")
    out = pathlib.Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    for name, make in FILES.items():
        data = make()
        if isinstance(data, str):
            data = data.encode("ascii")
        (out / name).write_bytes(data)
        print(out / name)


if __name__ == "__main__":
    main()
