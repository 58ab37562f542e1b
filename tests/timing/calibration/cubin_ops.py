#!/usr/bin/env python3
"""Rough SASS opcode counts per kernel of an sm_90 cubin, for machines with
ptxas but no cuobjdump/nvdisasm (measure.sh uses cuobjdump where it exists).

  nvcc -cubin -arch=sm_90 -O3 -o x.cubin PROGRAM.cu
  python3 cubin_ops.py x.cubin [KERNEL_SUBSTRING] [MIN_COUNT]

Counts the opcode field (low 12 bits) of every 128-bit instruction of each
.text.<kernel> section. The high nibble of that field is the operand form
(0x2 register, 0x8 immediate, 0xc constant bank), shown as a suffix i / c.
Names were matched against cuobjdump counts of the same kernels (H100 run
in h100/*.sass.txt); fields not in the table print in hex. Modifiers
(.HI, .MMA, .IADD, ...) are not decoded, except where one field means one
variant in these programs."""
import struct
import sys

NAMES = {
    0x202: "MOV", 0x207: "SEL", 0x208: "FSEL", 0x20c: "ISETP", 0x210: "IADD3",
    0x212: "LOP3", 0x219: "SHF", 0x220: "FMUL", 0x221: "FADD", 0x223: "FFMA",
    0x224: "IMAD", 0x225: "IMAD.WIDE", 0x227: "IMAD.HI", 0x229: "DADD",
    0x22b: "DFMA", 0x230: "HADD2", 0x231: "HFMA2", 0x235: "HFMA2.MMA",
    0x23c: "HMMA", 0x23e: "F2FP", 0x245: "I2FP", 0x304: "F2F", 0x305: "F2I",
    0x308: "MUFU", 0x387: "STL", 0x388: "STS", 0x389: "SHFL", 0x805: "CS2R",
    0x806: "VOTE", 0x81c: "PLOP3", 0x918: "NOP", 0x919: "S2R", 0x941: "BSSY",
    0x945: "BSYNC", 0x947: "BRA", 0x94d: "EXIT", 0x981: "LDG", 0x983: "LDL",
    0x984: "LDS", 0x986: "STG", 0xb1d: "BAR", 0xb82: "LDC",
}


def name(op):
    if op in NAMES:
        return NAMES[op]
    form = {0x2: "", 0x8: "i", 0xc: "c"}.get(op >> 8)
    base = 0x200 | (op & 0xff)
    if form is not None and base in NAMES:
        return NAMES[base] + form
    return hex(op)


def main():
    path = sys.argv[1]
    filt = sys.argv[2] if len(sys.argv) > 2 else ""
    least = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    d = open(path, "rb").read()
    shoff, = struct.unpack_from("<Q", d, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", d, 0x3a)
    secs = [struct.unpack_from("<IIQQQQIIQQ", d, shoff + i * shentsize) for i in range(shnum)]
    stro = secs[shstrndx][4]

    def secname(o):
        return d[stro + o:d.index(b"\0", stro + o)].decode()

    for s in secs:
        n = secname(s[0])
        if not n.startswith(".text.") or filt not in n:
            continue
        body = d[s[4]:s[4] + s[5]]
        h = {}
        for i in range(0, len(body), 16):
            lo, = struct.unpack_from("<Q", body, i)
            k = name(lo & 0xfff)
            h[k] = h.get(k, 0) + 1
        ops = " ".join(f"{k}:{v}" for k, v in sorted(h.items(), key=lambda x: -x[1]) if v >= least)
        print(n[6:], len(body) // 16, ops)


if __name__ == "__main__":
    main()
