"""A browser's screenshot read back as pixels (Chromium writes 8-bit, non-interlaced PNG, RGB or
RGBA), and what a test asks of them: the colour most of the picture is (its ground), and the
pixels that stand out from it (its shape, whatever their colour)."""

from __future__ import annotations

import struct
import zlib
from collections import Counter
from typing import NamedTuple

from tests.contrast import RGB

SIGNATURE = b"\x89PNG\r\n\x1a\n"
CHANNELS = {2: 3, 6: 4}
"""Bytes a pixel of each PNG colour type Chromium writes: 2 RGB, 6 RGBA."""
STANDS_OUT = 48
"""How far (in any channel, 0-255) a pixel must be from the ground to be part of the shape:
more than a font's anti-aliasing fringe on a plain ground moves a pixel by, in a test's eye."""


class Picture(NamedTuple):
    width: int
    height: int
    pixels: list[RGB]
    """Row by row from the top left."""


def _paeth(a: int, b: int, c: int) -> int:
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    return a if pa <= pb and pa <= pc else b if pb <= pc else c


def decode(png: bytes) -> Picture:
    """The pixels of a PNG as Chromium writes it; other kinds are refused by name."""
    if not png.startswith(SIGNATURE):
        raise ValueError("not a PNG")
    at, data, width, height, kind = len(SIGNATURE), b"", 0, 0, 0
    while at < len(png):
        (length, name) = struct.unpack(">I4s", png[at : at + 8])
        chunk = png[at + 8 : at + 8 + length]
        at += 12 + length
        if name == b"IHDR":
            width, height, depth, kind, _, _, interlace = struct.unpack(">IIBBBBB", chunk)
            if depth != 8 or kind not in CHANNELS or interlace:
                raise ValueError(f"a PNG of depth {depth}, colour type {kind}: 8-bit RGB(A) only")
        elif name == b"IDAT":
            data += chunk
    size = CHANNELS[kind]
    stride = width * size
    raw = zlib.decompress(data)
    previous = bytearray(stride)
    pixels: list[RGB] = []
    for row in range(height):
        start = row * (stride + 1)
        method, line = raw[start], bytearray(raw[start + 1 : start + 1 + stride])
        for i in range(stride):
            left = line[i - size] if i >= size else 0
            up = previous[i]
            corner = previous[i - size] if i >= size else 0
            if method == 1:
                line[i] = (line[i] + left) & 0xFF
            elif method == 2:
                line[i] = (line[i] + up) & 0xFF
            elif method == 3:
                line[i] = (line[i] + (left + up) // 2) & 0xFF
            elif method == 4:
                line[i] = (line[i] + _paeth(left, up, corner)) & 0xFF
        pixels += [(line[i], line[i + 1], line[i + 2]) for i in range(0, stride, size)]
        previous = line
    return Picture(width, height, pixels)


def ground(picture: Picture) -> RGB:
    """The colour most of the picture is."""
    return Counter(picture.pixels).most_common(1)[0][0]


def shape(picture: Picture) -> frozenset[tuple[int, int]]:
    """Where the picture stands out from its ground (``STANDS_OUT``), as (x, y): what it shows
    without its colours."""
    base = ground(picture)
    return frozenset(
        (i % picture.width, i // picture.width)
        for i, pixel in enumerate(picture.pixels)
        if max(abs(a - b) for a, b in zip(pixel, base, strict=True)) > STANDS_OUT
    )
