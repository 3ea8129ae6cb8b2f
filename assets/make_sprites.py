#!/usr/bin/env python3
"""Draws the sample scenes' sprites (assets/*.png) with nothing but the standard library."""
import struct
import zlib
from pathlib import Path


def png(path, width, height, pixel):
    rows = b"".join(
        b"\x00" + b"".join(bytes(pixel(x, y)) for x in range(width)) for y in range(height)
    )
    chunk = lambda tag, data: struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data))
    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
    Path(path).write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b""))


def sword(x, y):
    # 16 x 64, tip at the top: blade, cross-guard, grip, pommel.
    cx = abs(x - 7.5)
    if y < 6 and cx <= (y / 6) * 3:
        return (225, 230, 240, 255)
    if 6 <= y < 44 and cx <= 3:
        return (200, 205, 220, 255) if cx > 1 else (245, 248, 255, 255)
    if 44 <= y < 48:
        return (150, 110, 40, 255)
    if 48 <= y < 60 and cx <= 1.5:
        return (110, 70, 40, 255)
    if 60 <= y < 64 and cx <= 2.5:
        return (200, 170, 60, 255)
    return (0, 0, 0, 0)


def fish(x, y):
    # 64 x 32, facing right: the tail on the left makes a mirror obvious.
    dx, dy = (x - 38) / 22, (y - 16) / 12
    if dx * dx + dy * dy <= 1:
        if (x - 50) ** 2 + (y - 13) ** 2 <= 5:
            return (20, 20, 30, 255)
        return (240, 140, 40, 255) if (x // 6) % 2 else (250, 170, 70, 255)
    if x < 18 and abs(y - 16) <= (18 - x) * 0.8:
        return (220, 100, 30, 255)
    return (0, 0, 0, 0)


def tread(x, y):
    # 32 x 8 tank tread.
    return (70, 75, 60, 255) if (x // 4 + y // 4) % 2 else (95, 100, 80, 255)


here = Path(__file__).parent
png(here / "sword.png", 16, 64, sword)
png(here / "fish.png", 64, 32, fish)
png(here / "tread.png", 32, 8, tread)
