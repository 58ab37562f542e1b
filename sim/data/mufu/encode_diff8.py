#!/usr/bin/env python3
"""Encodes a table's differences (int32, little endian, on stdin) as the
simulator stores them (stdout): a difference in [-127, 127] as one signed
byte, any other as the byte 0x80 and its four bytes. Most differences of a
monotone table are small, so this is about a quarter of the int32 stream
and decompresses that much faster (sim/src/semantics/mufu_table.cpp)."""
import struct
import sys

data = sys.stdin.buffer.read()
out = bytearray()
for (d,) in struct.iter_unpack("<i", data):
    if -127 <= d <= 127:
        out.append(d & 0xFF)
    else:
        out.append(0x80)
        out += struct.pack("<i", d)
sys.stdout.buffer.write(out)
