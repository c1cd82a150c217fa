"""A retention sweep laid out as heatmap cells, with its axes and its text description.

Plain data for ``heatmap_drawing`` and the heatmap's table (``tables.heatmap_table``): each
value's cell has edges (``cell_edges``), so cells of any width tile the plane and the diagonal
delay == retention (the exact boundary) runs through the grid.
"""

from collections import Counter
from itertools import pairwise
from typing import Final, TypedDict

from asyncfail.charts.look import finding_label
from asyncfail.contract.experiment import ContractScenario
from asyncfail.contract.rules import Finding
from asyncfail.contract.sweep import RetentionSweep
from asyncfail.ground.durations import MAX_DURATION, Duration, human
from asyncfail.ground.prose import counted

OVERVIEW_CELLS: Final = 41
"""Cells per axis of the overview heatmap (41 x 41 = 1,681): fine enough to read, cheap to draw."""


def _nice_ceiling(millis: int) -> int:
    """The smallest of 1, 2, 2.5 or 5 times a power of ten seconds that is at least ``millis``
    (in whole milliseconds: from 10 s up, every such value is a whole number of them)."""
    magnitude = 10_000
    while True:
        for factor_ms in (magnitude, 2 * magnitude, 5 * magnitude // 2, 5 * magnitude):
            if factor_ms >= millis:
                return factor_ms
        magnitude *= 10


def overview_axis(scenario: ContractScenario, cells: int = OVERVIEW_CELLS) -> tuple[Duration, ...]:
    """One axis for both retention and delay: ``cells`` even steps from 0 to a round number at
    least twice the larger of the retention in force and the delay (and at least 10 s), so the
    current point sits inside and the boundary diagonal crosses the whole grid; never beyond
    30 days, the longest duration a scenario accepts. Steps are whole milliseconds (floored
    where the span does not divide evenly)."""
    wanted = 2 * max(scenario.settings.retention.millis, scenario.delay_seconds.millis)
    top = min(_nice_ceiling(max(wanted, 10_000)), MAX_DURATION.millis)
    return tuple(Duration(i * top // (cells - 1)) for i in range(cells))


class HeatmapCell(TypedDict):
    """One cell: its exact inputs (seconds as JSON numbers), its edges (chart geometry only),
    and what the experiment says of it."""

    retention_seconds: int | float
    delay_seconds: int | float
    retention_text: str
    delay_text: str
    retention_from: float
    retention_to: float
    delay_from: float
    delay_to: float
    record: str
    disposition: str
    effects: int
    finding: str
    finding_label: str
    correct: bool


def cell_edges(durations: tuple[Duration, ...]) -> list[tuple[float, float]]:
    """Where each value's cell begins and ends along an axis, in seconds: each value owns the
    span halfway to its neighbours, the ends mirror their inner half, and a lone value owns
    half a second either side. Geometry for drawing only: the verdicts were reached on exact
    milliseconds."""
    axis = [float(d.seconds) for d in durations]
    if len(axis) == 1:
        return [(axis[0] - 0.5, axis[0] + 0.5)]
    mids = [(a + b) / 2 for a, b in pairwise(axis)]
    lows = [axis[0] - (mids[0] - axis[0]), *mids]
    highs = [*mids, axis[-1] + (axis[-1] - mids[-1])]
    return list(zip(lows, highs, strict=True))


def heatmap_cells(sweep: RetentionSweep) -> list[HeatmapCell]:
    """One cell per (retention, delay) of the sweep, retention-major, with its edges."""
    retention_edges = cell_edges(sweep.retentions)
    delay_edges = cell_edges(sweep.delays)
    columns = sweep.columns()
    width = len(sweep.delays)
    texts = {d.millis: human(d) for d in (*sweep.retentions, *sweep.delays)}
    labels = {f.value: finding_label(f) for f in Finding}
    return [
        HeatmapCell(
            retention_seconds=columns["retention_seconds"][i],  # type: ignore[typeddict-item]
            delay_seconds=columns["delay_seconds"][i],  # type: ignore[typeddict-item]
            retention_text=texts[sweep.retention_ms[i]],
            delay_text=texts[sweep.delay_ms[i]],
            retention_from=retention_edges[i // width][0],
            retention_to=retention_edges[i // width][1],
            delay_from=delay_edges[i % width][0],
            delay_to=delay_edges[i % width][1],
            record=str(columns["record"][i]),
            disposition=str(columns["disposition"][i]),
            effects=int(columns["effects"][i]),
            finding=str(columns["finding"][i]),
            finding_label=labels[str(columns["finding"][i])],
            correct=bool(columns["correct"][i]),
        )
        for i in range(len(sweep))
    ]


def findings_present(sweep: RetentionSweep) -> list[str]:
    """The findings that occur in the sweep, in the order ``Finding`` declares them."""
    seen = set(sweep.finding)
    return [f.value for f in Finding if f in seen]


def describe_heatmap(sweep: RetentionSweep) -> str:
    """A text description of a heatmap: its ranges, and how many cells show each finding."""
    counts = Counter(sweep.finding)
    parts = [f"{counted(counts[f], 'cell')} {f.value}" for f in Finding if counts[f]]
    return (
        f"Heatmap of the finding over retention {human(sweep.retentions[0])} to "
        f"{human(sweep.retentions[-1])} and delay {human(sweep.delays[0])} to "
        f"{human(sweep.delays[-1])} ({len(sweep.retentions)} x {len(sweep.delays)} cells), "
        f"with {sweep.scenario.settings.scope.value} keys, the {sweep.scenario.second.value} "
        f"second request and the {sweep.scenario.settings.policy.value} policy: "
        f"{'; '.join(parts)}. "
        "The diagonal marks delay = retention, the exact boundary."
    )
