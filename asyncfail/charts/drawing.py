"""A chart drawn by the library as inline SVG, and the pieces such a drawing is made of.

A Vega-Lite chart costs the page its compile, dataflow and scenegraph on every change (about 86
ms of JavaScript a change for lesson 5's two sequence views, measured in Chromium's profiler);
an SVG written here in Python is drawn by the browser at once, the same in the live page, the
static snapshot and the home, with no browser needed to make it. Every number is written with
fixed decimals, so a drawing is the same text in any process.
"""

import html
import math
from typing import Final

from pydantic import BaseModel

from asyncfail.charts.look import GROUND, MARKER_COLOURS, MARKER_SHAPES
from asyncfail.charts.timeline import Marker
from asyncfail.ground.frozen import FROZEN_LENIENT

FONT: Final = "sans-serif"
"""The drawings' typeface: the browser's own, as Vega's charts used."""

CHAR_WIDTH: Final = 0.52
"""A character's width as a share of its font size, on average: what wraps a title."""

TITLE_SIZE: Final = 13
"""A drawing's title's font size in pixels (bold; it wraps between words to the width)."""

TITLE_LINE: Final = 17
"""Pixels from one line of a wrapped title to the next."""


class Drawing(BaseModel):
    """A chart as SVG text, with its title and its one-sentence text description; marimo shows
    it as HTML (``_mime_``), and ``course.page.chart`` puts the description and the data's
    table under it."""

    model_config = FROZEN_LENIENT

    svg: str
    title: str
    description: str
    width: int
    height: int

    def _mime_(self) -> tuple[str, str]:
        return "text/html", self.svg


def number(value: float) -> str:
    """A coordinate as the drawings write it: one decimal, no ``-0.0``."""
    text = f"{value:.1f}"
    return "0.0" if text == "-0.0" else text


def text(value: object) -> str:
    """Text or an attribute's value, escaped for SVG."""
    return html.escape(str(value), quote=True)


def svg_root(kind: str, size: tuple[int, int], title: str, body: str, spill: bool = False) -> str:
    """A drawing's ``<svg>`` around ``body``: of class ``kind``, ``size`` (width, height) pixels
    that scale down to its container's width, named ``title`` for a screen reader (``role="img"``;
    the description and the table are the page's, ``course.page.chart``), in ``FONT`` 11 px
    ``#222222``. It is painted on ``look.GROUND`` and kept as drawn in forced colours
    (``forced-color-adjust: none``): a drawing is a picture, whose marks mean what their colours
    mean, and its text keeps the contrast it was drawn with. ``spill``: marks may be drawn a
    little beyond the edges (a larger shown step), not cut."""
    width, height = size
    overflow = ";overflow:visible" if spill else ""
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="{kind}" width="{width}" '
        f'height="{height}" viewBox="0 0 {width} {height}" role="img" aria-label="{text(title)}" '
        f'font-family="{FONT}" font-size="11" fill="#222222" '
        f'style="max-width:100%;height:auto;forced-color-adjust:none{overflow}">'
        f'<rect width="{width}" height="{height}" fill="{GROUND}"/>{body}</svg>'
    )


def wrapped(words: str, size: float, width: float) -> list[str]:
    """``words`` in lines that fit ``width`` pixels at font ``size`` (``CHAR_WIDTH`` a
    character), broken between words; a word longer than a line has a line of its own."""
    most = max(int(width / (size * CHAR_WIDTH)), 1)
    lines: list[str] = []
    for word in words.split():
        if lines and len(lines[-1]) + 1 + len(word) <= most:
            lines[-1] += f" {word}"
        else:
            lines.append(word)
    return lines or [""]


def title_lines(title: str, width: float) -> tuple[list[str], int]:
    """A drawing's title at its top left, bold, wrapped to ``width`` (``wrapped``): its SVG
    text elements, one per line, and how many lines it takes."""
    lines = wrapped(title, TITLE_SIZE, width)
    return [
        f'<text x="0.0" y="{number(TITLE_SIZE + index * TITLE_LINE)}" font-size="{TITLE_SIZE}" '
        f'font-weight="bold">{text(line)}</text>'
        for index, line in enumerate(lines)
    ], len(lines)


SHAPES: Final[dict[str, tuple[tuple[float, float], ...]]] = {
    "square": ((-1, -1), (1, -1), (1, 1), (-1, 1)),
    "diamond": ((0, -1.3), (1.3, 0), (0, 1.3), (-1.3, 0)),
    "triangle-up": ((0, -1.2), (1.2, 1), (-1.2, 1)),
    "triangle-down": ((0, 1.2), (1.2, -1), (-1.2, -1)),
    "triangle-left": ((-1.2, 0), (1, -1.2), (1, 1.2)),
    "triangle-right": ((1.2, 0), (-1, -1.2), (-1, 1.2)),
    "cross": (
        (-0.35, -1.2),
        (0.35, -1.2),
        (0.35, -0.35),
        (1.2, -0.35),
        (1.2, 0.35),
        (0.35, 0.35),
        (0.35, 1.2),
        (-0.35, 1.2),
        (-0.35, 0.35),
        (-1.2, 0.35),
        (-1.2, -0.35),
        (-0.35, -0.35),
    ),
}
"""The outline of each polygon symbol, in half-sides from its centre (y grows downwards)."""


def symbol(shape: str, x: float, y: float, area: float) -> str:
    """The path of a Vega symbol ``shape`` of ``area`` square pixels centred on (x, y): the
    shapes of ``look.MARKER_SHAPES`` and the arrowheads (``triangle-right``,
    ``triangle-left``). A triangle's tip points its way."""
    h = math.sqrt(area) / 2
    if shape == "circle":
        r = math.sqrt(area / math.pi)
        return (
            f"M{number(x - r)},{number(y)}a{number(r)},{number(r)} 0 1,0 {number(2 * r)},0"
            f"a{number(r)},{number(r)} 0 1,0 {number(-2 * r)},0Z"
        )
    if shape not in SHAPES:
        raise ValueError(f"no symbol {shape!r}: one of circle, {', '.join(sorted(SHAPES))}")
    return (
        "M"
        + "L".join(f"{number(x + dx * h)},{number(y + dy * h)}" for dx, dy in SHAPES[shape])
        + "Z"
    )


MARKER_LOOK: Final[dict[Marker, tuple[str, str]]] = dict(
    zip(Marker, zip(MARKER_COLOURS, MARKER_SHAPES, strict=True), strict=True)
)
"""Each marker's colour and shape, as every chart draws it (``look``)."""


def marker_symbol(marker: Marker, x: float, y: float, area: float, stroke_width: float) -> str:
    """A marker drawn in its colour and shape, outlined in black (the shape carries it where
    the colour cannot)."""
    colour, shape = MARKER_LOOK[marker]
    return (
        f'<path d="{symbol(shape, x, y, area)}" fill="{colour}" stroke="#000000" '
        f'stroke-width="{number(stroke_width)}"/>'
    )


def legend(markers: list[Marker], top: float, width: float) -> tuple[list[str], float]:
    """The legend of ``markers`` under the title "Event type", from ``top``, in as many
    columns (up to 3) as ``width`` holds at 160 pixels each; its SVG and its height."""
    if not markers:
        return [], 0.0
    columns = max(1, min(3, int(width // 160), len(markers)))
    column = width / columns
    parts = [f'<text x="0.0" y="{number(top + 12)}" font-weight="bold">Event type</text>']
    for index, marker in enumerate(markers):
        x = (index % columns) * column + 8
        y = top + 28 + (index // columns) * 18
        parts.append(marker_symbol(marker, x, y - 4, 80, 0.5))
        parts.append(f'<text x="{number(x + 12)}" y="{number(y)}">{text(marker.value)}</text>')
    rows = math.ceil(len(markers) / columns)
    return parts, 22 + rows * 18
