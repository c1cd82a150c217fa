"""The retention heatmap drawn as SVG: the finding over a grid of (retention, delay).

What it draws, as the Vega-Lite heatmap it replaces drew it: retention along the bottom, the
second request's delay up the side, both read in one human unit (``human_unit``), so no label
prints an exponent; each cell filled in its finding's colour (``look.FINDING_COLOURS``: right
findings cool, wrong ones warm) with a white ✗ on every wrong cell, so the pattern survives
colour blindness; the exact boundary delay = retention as a dashed diagonal; the current inputs
as a ring filled with their own finding's colour (a coarse cell on the diagonal straddles the
boundary, so its colour alone can differ from the exact result), drawn only when they lie on
the grid; and the legend of the findings present, in ``Finding`` order, each with its ✓ or ✗.

A column's neighbouring cells with the same outcome are one rectangle, with one hover text for
its delays: the overview's 1,681 cells draw as a few dozen shapes, and a change redraws at once.
Each rectangle says in its ``data-`` attributes which cells it covers and what they found, so a
test can read the drawing back cell by cell.
"""

import math
from collections.abc import Callable
from typing import Final

from asyncfail.charts.drawing import (
    TITLE_LINE,
    Drawing,
    number,
    svg_root,
    text,
    title_lines,
    wrapped,
)
from asyncfail.charts.heatmap import cell_edges, describe_heatmap, findings_present
from asyncfail.charts.look import FINDING_COLOURS, finding_label
from asyncfail.contract.experiment import evaluate
from asyncfail.contract.rules import CORRECT_FINDINGS, Finding
from asyncfail.contract.sweep import RetentionSweep
from asyncfail.ground.durations import Duration, human, human_unit
from asyncfail.ground.prose import counted

LEFT: Final = 64
"""Pixels left of the grid: the delay axis's labels and its title."""

RIGHT: Final = 12
"""Pixels right of the grid, so the last retention label and the ring fit."""

TICKS: Final = 5
"""About how many labelled ticks an axis has: steps of 1, 2 or 5 times a power of ten."""

RING_RADIUS: Final = 8.4
"""The current inputs' ring, in pixels (the Vega chart's point of 220 square pixels)."""

LEGEND_TITLE: Final = "Finding (✓ right, ✗ wrong)"
"""The legend's heading: the ✓ and ✗ that mark each finding say right or wrong without colour."""


def tick_step(span: float, ticks: int = TICKS) -> float:
    """The step between labelled ticks over ``span`` (in the axis's unit): the smallest of 1, 2
    or 5 times a power of ten that makes at most about ``ticks`` steps."""
    raw = span / ticks
    magnitude = 10 ** math.floor(math.log10(raw)) if raw > 0 else 1
    return next(
        (f * magnitude for f in (1, 2, 5) if f * magnitude >= raw * (1 - 1e-9)), 10 * magnitude
    )


def tick_values(low: float, high: float, ticks: int = TICKS) -> list[float]:
    """Multiples of ``tick_step`` from ``low`` to ``high`` inclusive (in the axis's unit)."""
    step = tick_step(high - low, ticks)
    first = math.ceil(low / step - 1e-9)
    last = math.floor(high / step + 1e-9)
    return [index * step for index in range(first, last + 1)]


def tick_label(value: float, step: float, unit_name: str) -> str:
    """A tick's label: the value with thousands separated and as many decimals as the step
    needs, then the unit: ``0 s``, ``2,500 s``, ``1.5 h``."""
    decimals = max(0, -math.floor(math.log10(step) + 1e-9))
    label = f"{value:,.{decimals}f}"
    return f"{'0' if float(label.replace(',', '')) == 0 else label} {unit_name}"


def _hover(retention: str, first: str, last: str, outcome: tuple[str, str, int, str]) -> str:
    record, disposition, effects, finding = outcome
    delays = first if first == last else f"{first} to {last}"
    return (
        f"Retention {retention}; second request after {delays}: record {record}, "
        f"{disposition}, {counted(effects, 'effect')} in all. {finding}"
    )


CROSS_STROKE: Final = 1.5
"""The width of a cross's strokes, in pixels."""


def _crosses(vertices: list[str], arm: float) -> list[str]:
    """The white ✗ on every wrong cell: one marker, a cross with arms ``arm`` pixels long
    each way from its centre, drawn at every vertex of one unstroked path (``vertices``: a
    column's cells as ``M x,y`` then ``V y`` for each further one). A marker is drawn at
    every vertex of a path, its first and last included, so there is a cross per vertex.

    Why a marker and not the crosses themselves: the overview has some 870 wrong cells, and
    writing each cross out took 30 kB, half of the drawing; a vertex takes 6 bytes, and the
    page sends, parses and redraws the drawing on every change of a lesson's controls. The
    marker's id names its arm, the only thing that tells one heatmap's cross from another's,
    so two heatmaps on one page each find their own (or the same one, drawn alike)."""
    reach = number(2 * arm)
    box = number(2 * arm + 2 * CROSS_STROKE)
    centre = number(arm + CROSS_STROKE)
    cross = f"heatmap-cross-{reach.replace('.', '-')}"
    marker = f"url(#{cross})"
    return [
        f'<defs><marker id="{cross}" markerUnits="userSpaceOnUse" markerWidth="{box}" '
        f'markerHeight="{box}" refX="{centre}" refY="{centre}">'
        f'<path d="M{number(CROSS_STROKE)},{number(CROSS_STROKE)}l{reach},{reach}'
        f'm0,-{reach}l-{reach},{reach}" stroke="#ffffff" stroke-width="{CROSS_STROKE}" '
        'opacity="0.85" fill="none"/></marker></defs>',
        f'<path d="{"".join(vertices)}" fill="none" stroke="none" marker-start="{marker}" '
        f'marker-mid="{marker}" marker-end="{marker}" pointer-events="none" '
        'aria-hidden="true"/>',
    ]


def heatmap_drawing(sweep: RetentionSweep, title: str, width: int = 360) -> Drawing:
    """The heatmap of ``sweep`` as SVG, ``width`` pixels wide, its grid square.

    The grid ends where the cells end (``heatmap.cell_edges``); retention grows to the right and
    the delay upwards. Each rectangle is one column's run of neighbouring delays with the same
    record, disposition, effects and finding, and carries ``data-retention-ms``,
    ``data-delay-from-ms``, ``data-delay-to-ms`` (its first and last delay, inclusive) and
    ``data-finding``; the ring carries ``data-retention-ms``, ``data-delay-ms`` and
    ``data-finding``.
    """
    retention_edges = cell_edges(sweep.retentions)
    delay_edges = cell_edges(sweep.delays)
    x_min, x_max = retention_edges[0][0], retention_edges[-1][1]
    y_min, y_max = delay_edges[0][0], delay_edges[-1][1]
    span = max(sweep.retentions[-1].millis - sweep.retentions[0].millis, 1)
    unit_name, unit = human_unit(Duration(span))

    parts, lines = title_lines(title, width)
    top = lines * TITLE_LINE + 10
    size = width - LEFT - RIGHT
    bottom = top + size

    def px(seconds: float) -> float:
        return LEFT + (seconds - x_min) / (x_max - x_min) * size

    def py(seconds: float) -> float:
        return bottom - (seconds - y_min) / (y_max - y_min) * size

    # The cells: one rectangle per run of equal outcomes up a column. What every column
    # shares (each delay's edges, cross and text) is written once, not once per cell.
    delays = len(sweep.delays)
    texts = {d.millis: human(d) for d in (*sweep.retentions, *sweep.delays)}
    outcomes = list(zip(sweep.record, sweep.disposition, sweep.effects, sweep.finding, strict=True))
    cells: list[str] = []
    # The crosses: one vertex per wrong cell, at its centre, down each column (``crosses``).
    crosses: list[str] = []
    cell_px = size / max(len(sweep.retentions), delays)
    arm = min(max(cell_px * 0.8, 6), 16) * 0.28
    cross_y = [number(py(float(d.seconds))) for d in sweep.delays]
    lows = [round(py(low), 1) for low, _ in delay_edges]
    highs = [round(py(high), 1) for _, high in delay_edges]
    delay_ms = [d.millis for d in sweep.delays]
    for column, retention in enumerate(sweep.retentions):
        # Edges rounded as written, so neighbours share them to the decimal: no seam.
        left = round(px(retention_edges[column][0]), 1)
        right = round(px(retention_edges[column][1]), 1)
        cross_x = number(px(float(retention.seconds)))
        wrong: list[str] = []
        start = column * delays
        row = 0
        while row < delays:
            outcome = outcomes[start + row]
            end = row
            while end + 1 < delays and outcomes[start + end + 1] == outcome:
                end += 1
            record, disposition, effects, finding = outcome
            first, last = delay_ms[row], delay_ms[end]
            hover = _hover(
                texts[retention.millis],
                texts[first],
                texts[last],
                (record.value, disposition.value, effects, finding_label(finding)),
            )
            cells.append(
                f'<rect x="{number(left)}" y="{number(highs[end])}" '
                f'width="{number(right - left)}" height="{number(lows[row] - highs[end])}" '
                f'fill="{FINDING_COLOURS[finding]}" data-retention-ms="{retention.millis}" '
                f'data-delay-from-ms="{first}" data-delay-to-ms="{last}" '
                f'data-finding="{text(finding.value)}"><title>{text(hover)}</title></rect>'
            )
            if finding not in CORRECT_FINDINGS:
                wrong += cross_y[row : end + 1]
            row = end + 1
        if wrong:
            crosses.append(f"M{cross_x},{wrong[0]}" + "".join(f"V{y}" for y in wrong[1:]))
    # crispEdges: neighbouring rectangles share their edges exactly, and antialiasing would
    # draw a seam between them.
    parts.append(f'<g shape-rendering="crispEdges">{"".join(cells)}</g>')
    if crosses:
        parts += _crosses(crosses, arm)
    parts.append(
        f'<rect x="{number(LEFT)}" y="{number(top)}" width="{number(size)}" '
        f'height="{number(size)}" fill="none" stroke="#888888"/>'
    )
    # The exact boundary: delay = retention, where both axes hold it.
    low, high = max(x_min, y_min), min(x_max, y_max)
    if low < high:
        parts.append(
            f'<line x1="{number(px(low))}" y1="{number(py(low))}" x2="{number(px(high))}" '
            f'y2="{number(py(high))}" stroke="#000000" stroke-width="1.5" '
            'stroke-dasharray="6,3" pointer-events="none"/>'
        )
    parts += _axes(px, py, (x_min, x_max), (y_min, y_max), (top, bottom), unit, unit_name)
    # The ring: the current inputs, in their own finding's colour, when they lie on the grid.
    scenario = sweep.scenario
    retention, delay = scenario.settings.retention, scenario.delay_seconds
    if x_min <= float(retention.seconds) <= x_max and y_min <= float(delay.seconds) <= y_max:
        finding = evaluate(scenario).finding
        hover = f"Your inputs: retention {human(retention)}, delay {human(delay)}. "
        parts.append(
            f'<circle cx="{number(px(float(retention.seconds)))}" '
            f'cy="{number(py(float(delay.seconds)))}" r="{RING_RADIUS}" '
            f'fill="{FINDING_COLOURS[finding]}" stroke="#000000" stroke-width="2.5" '
            f'data-retention-ms="{retention.millis}" data-delay-ms="{delay.millis}" '
            f'data-finding="{text(finding.value)}">'
            f"<title>{text(hover + finding_label(finding))}</title></circle>"
        )
    key, key_height = _legend(sweep, bottom + 44, width)
    parts += key
    height = round(bottom + 44 + key_height + 4)
    svg = svg_root("heatmap-view", (width, height), title, "".join(parts))
    return Drawing(
        svg=svg,
        title=title,
        description=describe_heatmap(sweep),
        width=width,
        height=height,
    )


def _axes(
    px: Callable[[float], float],
    py: Callable[[float], float],
    x_range: tuple[float, float],
    y_range: tuple[float, float],
    rows: tuple[float, float],
    unit: int,
    unit_name: str,
) -> list[str]:
    """The two axes: ticks and labels in ``unit`` (seconds per unit), and their titles."""
    top, bottom = rows

    def ticks(ends: tuple[float, float], draw: Callable[[float, str], str]) -> list[str]:
        # One axis's ticks, each drawn at its value in seconds with its label.
        step = tick_step((ends[1] - ends[0]) / unit)
        return [
            draw(value * unit, text(tick_label(value, step, unit_name)))
            for value in tick_values(ends[0] / unit, ends[1] / unit)
        ]

    def x_tick(seconds: float, label: str) -> str:
        x = number(px(seconds))
        return (
            f'<line x1="{x}" y1="{number(bottom)}" x2="{x}" y2="{number(bottom + 5)}" '
            f'stroke="#888888"/><text x="{x}" y="{number(bottom + 16)}" '
            f'text-anchor="middle">{label}</text>'
        )

    def y_tick(seconds: float, label: str) -> str:
        y = py(seconds)
        return (
            f'<line x1="{number(LEFT - 5)}" y1="{number(y)}" x2="{number(LEFT)}" '
            f'y2="{number(y)}" stroke="#888888"/><text x="{number(LEFT - 8)}" '
            f'y="{number(y + 3.5)}" text-anchor="end">{label}</text>'
        )

    parts = ticks(x_range, x_tick) + ticks(y_range, y_tick)
    middle = (top + bottom) / 2
    parts.append(
        f'<text x="{number((LEFT + px(x_range[1])) / 2)}" y="{number(bottom + 32)}" '
        'text-anchor="middle" font-weight="bold">Idempotency retention</text>'
        f'<text x="12.0" y="{number(middle)}" text-anchor="middle" font-weight="bold" '
        f'transform="rotate(-90 12.0 {number(middle)})">Second request after</text>'
    )
    return parts


def _legend(sweep: RetentionSweep, top: float, width: int) -> tuple[list[str], float]:
    """The findings present in ``sweep``, each a swatch in its colour (with the ✗ of a wrong
    one) and its label wrapped to the width; the legend's SVG and its height."""
    parts = [f'<text x="0.0" y="{number(top + 12)}" font-weight="bold">{LEGEND_TITLE}</text>']
    y = top + 22
    for value in findings_present(sweep):
        finding = Finding(value)
        parts.append(
            f'<rect x="0.0" y="{number(y)}" width="12" height="12" '
            f'fill="{FINDING_COLOURS[finding]}" stroke="#666666" stroke-width="0.5"/>'
        )
        if finding not in CORRECT_FINDINGS:
            parts.append(
                f'<path d="M{number(2.5)},{number(y + 2.5)}l7,7m0,-7l-7,7" stroke="#ffffff" '
                'stroke-width="1.5" fill="none"/>'
            )
        lines = wrapped(finding_label(finding), 11, width - 18)
        for index, line in enumerate(lines):
            parts.append(f'<text x="18.0" y="{number(y + 10 + index * 15)}">{text(line)}</text>')
        y += max(len(lines) * 15, 15) + 3
    return parts, y - top
