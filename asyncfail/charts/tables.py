"""Every chart's data as a table a person can read: the "show as a table" view of a chart.

Rows are plain dicts with readable column names, in the chart's order; durations in human
units, findings with their ✓ or ✗.
"""

from typing import Final

from asyncfail.charts.heatmap import heatmap_cells
from asyncfail.contract.sweep import RetentionSweep
from asyncfail.lab.results import LabResult

TIMELINE_COLUMNS: Final = ("step", "attempt", "actor", "event", "layer", "what happens")
HEATMAP_COLUMNS: Final = ("retention", "second request after", "record", "effects", "finding")


def timeline_table(result: LabResult) -> list[dict[str, object]]:
    """One row per event of a trace, in order."""
    return [
        dict(
            zip(
                TIMELINE_COLUMNS,
                (e.seq, e.attempt, e.actor.value, e.kind.value, e.layer.value, e.description),
                strict=True,
            )
        )
        for e in result.events
    ]


def heatmap_table(sweep: RetentionSweep) -> list[dict[str, object]]:
    """One row per cell of a sweep, retention-major."""
    return [
        dict(
            zip(
                HEATMAP_COLUMNS,
                (
                    c["retention_text"],
                    c["delay_text"],
                    c["record"],
                    c["effects"],
                    c["finding_label"],
                ),
                strict=True,
            )
        )
        for c in heatmap_cells(sweep)
    ]
