"""The sequence view drawn as SVG: lanes, arrows, labels and markers from ``sequence_rows``.

What it draws, row by row from the top, as Maelstrom's ``messages.svg`` and Lamport's diagrams
draw a run: one vertical line per lane, headed by its name; each message an arrow from its
sender's lane to its recipient's, labelled above its middle; a lost message dashed and red,
ending halfway in a ✗; an event's marker (crash, business effect, timeout...) on its own lane,
in the colour and shape every chart gives it; a fact on one lane labelled beside it; each
step's number at the left; the legend of the markers drawn. Stepping through a run fades the
rows still to come and draws the shown step's larger, so it reads like a replay. Each row's
hover text says its step, delivery, time, message and what happens; the whole story is the
table ``sequence_table`` a lesson offers beside it.
"""

from collections.abc import Callable
from functools import lru_cache
from typing import Final

from asyncfail.charts.drawing import (
    TITLE_LINE,
    Drawing,
    legend,
    marker_symbol,
    number,
    svg_root,
    symbol,
    text,
    title_lines,
)
from asyncfail.charts.lanes import lanes_of
from asyncfail.charts.look import ROW_HEIGHT, sequence_title
from asyncfail.charts.sequence import (
    SequenceRow,
    describe_sequence,
    sequence_rows,
    sequence_table,
)
from asyncfail.charts.timeline import Marker
from asyncfail.lab.results import LabResult

LOST: Final = "#c0392b"
"""A lost message's colour (with its dash and ✗, so colour is never all that says it)."""

INK: Final = "#333333"
"""A delivered message's colour."""

FADED: Final = 0.15
"""The opacity of a row still to come when a lesson steps through the run."""


def hover_text(row: SequenceRow) -> str:
    """What a row says on hover: ``Step 2, delivery 1, at 0 s. receiver → worker: debited;
    reply (lost). <what happens>``; a fact on one lane names its lane alone."""
    step = "" if row["step"] is None else f"Step {row['step']}, "
    if row["fate"] == "local":
        what = f"{row['sender']}: {row['message']}"
    else:
        lost = " (lost)" if row["fate"] == "lost" else ""
        what = f"{row['sender']} → {row['recipient']}: {row['message']}{lost}"
    return f"{step}delivery {row['attempt']}, at {row['at_text']}. {what}. {row['description']}"


def _row(row: SequenceRow, x: Callable[[float], float], y: float, last_lane: int) -> str:
    """One row's group: its arrow (or note), label, marker and step number; ``x`` places a
    lane position (a lane's index, a half-lane, -0.7 for step numbers) in pixels."""
    current = row["state"] == "current"
    size = 12 if current else 10
    parts: list[str] = [f"<title>{text(hover_text(row))}</title>"]
    if row["step_label"]:
        parts.append(
            f'<text x="{number(x(-0.7))}" y="{number(y + 3.5)}" font-size="10" fill="#666666">'
            f"{text(row['step_label'])}</text>"
        )
    start, head = x(row["from_x"]), x(row["head_x"])
    if row["fate"] == "local":
        # A fact on the last lane is labelled to its left, so the label stays inside.
        left = row["from_x"] == last_lane
        parts.append(
            f'<text x="{number(start - 10 if left else start + 10)}" y="{number(y + size * 0.35)}" '
            f'font-size="{size}" font-style="italic" fill="#222222" '
            f'text-anchor="{"end" if left else "start"}">{text(row["message"])}</text>'
        )
    else:
        lost = row["fate"] == "lost"
        way = 1 if head > start else -1
        width = 3 if current else 1.5
        # A delivered arrow stops where its head begins, the head's tip on the lane.
        end = head if lost else head - way * 5
        dash = ' stroke-dasharray="5,3"' if lost else ""
        parts.append(
            f'<line x1="{number(start)}" y1="{number(y)}" x2="{number(end)}" y2="{number(y)}" '
            f'stroke="{LOST if lost else INK}" stroke-width="{number(width)}"{dash}/>'
        )
        if lost:
            parts.append(
                f'<text x="{number(head)}" y="{number(y + 5)}" font-size="15" font-weight="bold" '
                f'fill="{LOST}" text-anchor="middle">✗</text>'
            )
        else:
            shape = "triangle-right" if way > 0 else "triangle-left"
            parts.append(f'<path d="{symbol(shape, head - way * 5, y, 70)}" fill="{INK}"/>')
        parts.append(
            f'<text x="{number(x(row["label_x"]))}" y="{number(y - 7 + size * 0.35)}" '
            f'font-size="{size}" fill="#222222" text-anchor="middle">{text(row["message"])}</text>'
        )
    if row["marker"] is not None and row["point_x"] is not None:
        parts.append(
            marker_symbol(
                Marker(row["marker"]),
                x(row["point_x"]),
                y,
                area=260 if current else 110,
                stroke_width=2 if current else 0.5,
            )
        )
    fade = f' opacity="{FADED}"' if row["state"] == "future" else ""
    return (
        f'<g data-row="{row["row"]}" data-state="{row["state"]}" data-fate="{row["fate"]}"'
        f"{fade}>{''.join(parts)}</g>"
    )


def sequence_drawing(
    result: LabResult,
    step: int | None = None,
    width: int = 520,
    rows: list[SequenceRow] | None = None,
) -> Drawing:
    """A run's sequence view as SVG, ``width`` pixels wide, its rows ``ROW_HEIGHT`` apart.

    The lanes sit where Vega placed them: lane ``i`` of ``n`` at ``(i + 0.75) / (n + 0.25)`` of
    the width, so the step numbers have the left edge and a note on the last lane fits. The
    legend lists only the markers drawn, in ``Marker`` order. With ``step`` set, rows still to
    come are faded and the shown step's are drawn larger (``sequence_rows`` says which).
    ``rows`` are ``sequence_rows(result, step)`` when the caller made them already.
    """
    rows = sequence_rows(result, step) if rows is None else rows
    lanes = lanes_of(result)
    title = sequence_title(result)
    span = len(lanes) + 0.25

    def at(value: float) -> float:
        return (value + 0.75) / span * width

    parts, lines = title_lines(title, width)
    lanes_y = lines * TITLE_LINE + 14
    top = lanes_y + 8
    bottom = top + ROW_HEIGHT * len(rows)
    used = {r["marker"] for r in rows}
    key, key_height = legend([m for m in Marker if m.value in used], bottom + 10, width)
    height = round(bottom + 10 + key_height + 4)
    for index, lane in enumerate(lanes):
        parts.append(
            f'<text x="{number(at(index))}" y="{number(lanes_y)}" font-size="12" '
            f'font-weight="bold" text-anchor="middle">{text(lane)}</text>'
            f'<line x1="{number(at(index))}" y1="{number(top)}" x2="{number(at(index))}" '
            f'y2="{number(bottom)}" stroke="#bbbbbb" stroke-width="1.5"/>'
        )
    parts += [_row(r, at, top + (r["row"] + 0.7) * ROW_HEIGHT, len(lanes) - 1) for r in rows]
    parts += key
    svg = svg_root("sequence-view", (width, height), title, "".join(parts), spill=True)
    return Drawing(
        svg=svg,
        title=title,
        description=describe_sequence(result, rows),
        width=width,
        height=height,
    )


VIEWS_KEPT: Final = 256
"""How many sequence views ``sequence_view`` keeps (the most recently asked)."""


@lru_cache(maxsize=VIEWS_KEPT)
def sequence_view(
    result: LabResult, step: int | None = None, width: int = 520
) -> tuple[Drawing, tuple[dict[str, object], ...]]:
    """What a lesson shows for a run's sequence view: the drawing (``sequence_drawing``) and
    its table (``sequence_table``), as ``course.page.chart(mo, figure, table)`` takes them:
    the run's rows are made once for both.

    A run's view is a function of the run, the step and the width alone, and a run is frozen,
    so a view asked again (a lesson's control set back, a starting point picked again) is the
    one drawn before: in the WebAssembly page drawing one cost a lesson's change about 1.5 ms
    of Python, twice per change in lessons 1 and 2 (cProfile in the page, 2026-12-05)."""
    rows = sequence_rows(result, step)
    return sequence_drawing(result, step, width, rows), tuple(sequence_table(result, rows))
