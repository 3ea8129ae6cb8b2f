#!/usr/bin/env python3
"""Draws this example project's images (art/*.png) with nothing but the standard library."""
import struct
import zlib
from pathlib import Path

HERE = Path(__file__).parent


def png(name, width, height, pixel):
    rows = b"".join(
        b"\x00" + b"".join(bytes(pixel(x, y)) for x in range(width)) for y in range(height)
    )
    chunk = lambda tag, data: struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data))
    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
    (HERE / name).write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b""))


def base(x, y):
    # 96 x 48: a yellow cab with a dark window and two wheels.
    if y >= 36 and ((x - 20) ** 2 + (y - 40) ** 2 < 64 or (x - 76) ** 2 + (y - 40) ** 2 < 64):
        return (40, 40, 48, 255)
    if 4 <= y < 38 and 4 <= x < 92:
        if 10 <= y < 22 and 60 <= x < 84:
            return (60, 90, 130, 255)
        return (235, 180, 40, 255) if (x // 8 + y // 8) % 5 else (210, 150, 30, 255)
    return (0, 0, 0, 0)


def boom(x, y):
    # 128 x 16: a lattice girder.
    if y < 2 or y >= 14 or (x + y) % 16 < 2 or (x - y) % 16 < 2:
        return (230, 120, 40, 255)
    return (0, 0, 0, 0)


def claw(x, y):
    # 64 x 32: two frames (open, closed) of a claw, 32 x 32 each.
    f, cx = divmod(x, 32)
    gap = 10 if f == 0 else 3
    if y < 8 and 10 <= cx < 22:
        return (150, 150, 160, 255)
    if 8 <= y < 30 and (abs(cx - 16) - gap) in range(0, 4):
        return (190, 190, 200, 255)
    return (0, 0, 0, 0)


png("base.png", 96, 48, base)
png("boom.png", 128, 16, boom)
png("claw.png", 64, 32, claw)
