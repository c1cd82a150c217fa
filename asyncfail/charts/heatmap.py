"""A retention sweep laid out as heatmap cells, with its axes and its text description.

Plain data for ``asyncfail.charts.specs``: each cell carries its edges, so cells of any width
tile the plane and the diagonal delay == retention (the exact boundary) runs through the grid.
"""

from collections import Counter
from itertools import pairwise
from math import log10
from typing import Final, TypedDict

from asyncfail.contract.experiment import ContractScenario
from asyncfail.contract.rules import Finding
from asyncfail.contract.sweep import RetentionSweep
from asyncfail.contract.terms import MAX_SECONDS
from asyncfail.ground.prose import counted

OVERVIEW_CELLS: Final = 41
"""Cells per axis of the overview heatmap (41 x 41 = 1,681): fine enough to read, cheap to draw."""


def _nice_ceiling(value: float) -> float:
    """The smallest of 1, 2, 2.5 or 5 times a power of ten that is at least ``value``."""
    magnitude = 10.0 ** int(log10(value)) if value >= 1 else 1.0
    for factor in (1, 2, 2.5, 5, 10):
        if factor * magnitude >= value:
            return factor * magnitude
    return 10 * magnitude  # pragma: no cover - the loop's last factor always suffices


def overview_axis(scenario: ContractScenario, cells: int = OVERVIEW_CELLS) -> tuple[float, ...]:
    """One axis for both retention and delay: ``cells`` even steps from 0 to a round number at
    least twice the larger of the scenario's retention and delay (and at least 10 s), so the
    current point sits inside and the boundary diagonal crosses the whole grid; never beyond
    the experiment's ``MAX_SECONDS``, the largest value a scenario accepts."""
    wanted = max(2 * scenario.retention_seconds, 2 * scenario.delay_seconds, 10.0)
    top = min(_nice_ceiling(wanted), float(MAX_SECONDS))
    step = top / (cells - 1)
    return tuple(round(i * step, 6) for i in range(cells))


class HeatmapCell(TypedDict):
    retention_seconds: float
    delay_seconds: float
    retention_from: float
    retention_to: float
    delay_from: float
    delay_to: float
    record: str
    disposition: str
    effects: int
    finding: str
    correct: bool


def _edges(axis: tuple[float, ...]) -> list[tuple[float, float]]:
    # Each value owns the span halfway to its neighbours; the ends mirror their inner half.
    if len(axis) == 1:
        return [(axis[0] - 0.5, axis[0] + 0.5)]
    mids = [(a + b) / 2 for a, b in pairwise(axis)]
    lows = [axis[0] - (mids[0] - axis[0]), *mids]
    highs = [*mids, axis[-1] + (axis[-1] - mids[-1])]
    return list(zip(lows, highs, strict=True))


def heatmap_cells(sweep: RetentionSweep) -> list[HeatmapCell]:
    """One cell per (retention, delay) of the sweep, retention-major, with its edges."""
    retention_edges = _edges(sweep.retentions)
    delay_edges = _edges(sweep.delays)
    columns = sweep.columns()
    width = len(sweep.delays)
    return [
        HeatmapCell(
            retention_seconds=float(columns["retention_seconds"][i]),
            delay_seconds=float(columns["delay_seconds"][i]),
            retention_from=retention_edges[i // width][0],
            retention_to=retention_edges[i // width][1],
            delay_from=delay_edges[i % width][0],
            delay_to=delay_edges[i % width][1],
            record=str(columns["record"][i]),
            disposition=str(columns["disposition"][i]),
            effects=int(columns["effects"][i]),
            finding=str(columns["finding"][i]),
            correct=bool(columns["correct"][i]),
        )
        for i in range(len(sweep))
    ]


def findings_present(sweep: RetentionSweep) -> list[str]:
    """The findings that occur in the sweep, in the order ``Finding`` declares them."""
    seen = set(sweep.finding)
    return [f.value for f in Finding if f in seen]


def _seconds(value: float) -> str:
    return f"{value:g} s"


def describe_heatmap(sweep: RetentionSweep) -> str:
    """A text description of a heatmap: its ranges, and how many cells show each finding."""
    counts = Counter(sweep.finding)
    parts = [f"{counted(counts[f], 'cell')} {f.value}" for f in Finding if counts[f]]
    return (
        f"Heatmap of the finding over retention {_seconds(sweep.retentions[0])} to "
        f"{_seconds(sweep.retentions[-1])} and delay {_seconds(sweep.delays[0])} to "
        f"{_seconds(sweep.delays[-1])} ({len(sweep.retentions)} x {len(sweep.delays)} cells), "
        f"with {sweep.scenario.scope.value} keys, the {sweep.scenario.second.value} second "
        f"request and the {sweep.scenario.policy.value} policy: {'; '.join(parts)}. "
        "The diagonal marks delay = retention, the exact boundary."
    )
