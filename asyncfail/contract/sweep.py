"""Retention-boundary sweeps: the contract experiment over a grid of (retention, delay) values.

Every other input is held fixed; each cell agrees exactly with ``experiment.evaluate``.
"""

from collections.abc import Iterable
from dataclasses import dataclass
from itertools import chain, repeat
from math import ceil, floor
from typing import Final

from asyncfail.contract.experiment import ContractScenario, check_seconds
from asyncfail.contract.requests import case_of
from asyncfail.contract.rules import (
    CORRECT_FINDINGS,
    Disposition,
    Finding,
    RecordState,
    judge,
    record_states,
)
from asyncfail.contract.terms import MAX_SECONDS

MAX_SWEEP_CELLS: Final = 4_000_000
"""A 2,000 x 2,000 grid: room above the 1,000 x 1,000 the lessons need, and still a few seconds
in a browser's Python rather than minutes."""

MAX_RADIUS_SECONDS: Final = 999
"""A zoom of up to 999 s either side keeps each boundary axis under 2,000 values."""

COLUMNS: Final = (
    "retention_seconds",
    "delay_seconds",
    "record",
    "disposition",
    "effects",
    "finding",
    "correct",
)
"""The keys of a tidy row, in order: the two swept inputs, then what follows from them."""


@dataclass(frozen=True, slots=True)
class RetentionSweep:
    """A grid of runs as parallel columns, one entry per cell, retention-major.

    Cell ``i`` is retention ``retentions[i // len(delays)]`` and delay
    ``delays[i % len(delays)]``; ``scenario`` holds the fixed inputs (its own retention and delay
    are not used). ``columns()`` suits ``pandas.DataFrame``, ``rows()`` suits Altair and JSON.
    """

    scenario: ContractScenario
    retentions: tuple[float, ...]
    delays: tuple[float, ...]
    retention_seconds: tuple[float, ...]
    delay_seconds: tuple[float, ...]
    record: tuple[RecordState, ...]
    disposition: tuple[Disposition, ...]
    effects: tuple[int, ...]
    finding: tuple[Finding, ...]

    def __len__(self) -> int:
        return len(self.record)

    def scenario_at(self, index: int) -> ContractScenario:
        """The full scenario of one cell (no validation: both values were checked)."""
        update = {
            "retention_seconds": self.retention_seconds[index],
            "delay_seconds": self.delay_seconds[index],
        }
        return self.scenario.model_copy(update=update)

    def columns(self) -> dict[str, tuple[float | int | str | bool, ...]]:
        """The tidy columns named in ``COLUMNS``, enums as their plain string values."""
        return {
            "retention_seconds": self.retention_seconds,
            "delay_seconds": self.delay_seconds,
            "record": tuple(map(_PLAIN.__getitem__, self.record)),
            "disposition": tuple(map(_PLAIN.__getitem__, self.disposition)),
            "effects": self.effects,
            "finding": tuple(map(_PLAIN.__getitem__, self.finding)),
            "correct": tuple(map(CORRECT_FINDINGS.__contains__, self.finding)),
        }

    def rows(self) -> list[dict[str, float | int | str | bool]]:
        """One dict per cell with the keys of ``COLUMNS`` (for charts: a dict per cell costs
        about 3 us, so prefer ``columns()`` for grids of a million cells)."""
        columns = self.columns()
        return [
            dict(zip(COLUMNS, cell, strict=True)) for cell in zip(*columns.values(), strict=True)
        ]


# Enum members as plain strings, so chart and JSON libraries see ordinary values. A dict lookup
# keeps the conversion in C: a million cells in tens of milliseconds.
_PLAIN: Final[dict[str, str]] = {
    member: member.value for enum in (RecordState, Disposition, Finding) for member in enum
}


def _axis(name: str, values: Iterable[float]) -> tuple[float, ...]:
    if isinstance(values, str | bytes):
        raise ValueError(f"{name} must be a sequence of numbers of seconds, got {values!r}")
    axis = tuple(check_seconds(f"{name}[{i}]", value) for i, value in enumerate(values))
    if not axis:
        raise ValueError(f"{name} must hold at least one number of seconds")
    return axis


def sweep_retention(
    scenario: ContractScenario, retentions: Iterable[float], delays: Iterable[float]
) -> RetentionSweep:
    """Evaluate ``scenario`` at every (retention, delay) pair of the two axes.

    Each axis value is checked once with the scenario's own ``Seconds`` rule, and the grid may
    hold at most ``MAX_SWEEP_CELLS`` cells; a bad value raises ValueError naming its position.
    Per cell only the record state is computed (``record_states``, a row of delays at a time);
    disposition, effects and finding depend on nothing else once the fixed inputs are known, so
    they are judged once per record state and looked up.
    """
    retention_axis = _axis("retentions", retentions)
    delay_axis = _axis("delays", delays)
    cells = len(retention_axis) * len(delay_axis)
    if cells > MAX_SWEEP_CELLS:
        raise ValueError(
            f"a sweep may hold at most {MAX_SWEEP_CELLS} cells, got "
            f"{len(retention_axis)} x {len(delay_axis)} = {cells}"
        )
    # Everything was validated once, above: the scenario by its model, each axis value by
    # check_seconds. That alone is why the per-cell path below builds no model per cell.
    case = case_of(scenario.scope, scenario.second)
    key_reused = case.key_reused
    record = tuple(
        chain.from_iterable(
            record_states(
                key_reused=key_reused,
                retention_seconds=retention,
                delays=delay_axis,
                boundary=scenario.boundary,
            )
            for retention in retention_axis
        )
    )
    judged = {state: judge(case, state, scenario.policy) for state in RecordState}
    return RetentionSweep(
        scenario=scenario,
        retentions=retention_axis,
        delays=delay_axis,
        retention_seconds=tuple(
            chain.from_iterable(map(repeat, retention_axis, repeat(len(delay_axis))))
        ),
        delay_seconds=delay_axis * len(retention_axis),
        record=record,
        disposition=tuple(map({s: j.disposition for s, j in judged.items()}.__getitem__, record)),
        effects=tuple(map({s: j.effects for s, j in judged.items()}.__getitem__, record)),
        finding=tuple(map({s: j.finding for s, j in judged.items()}.__getitem__, record)),
    )


def boundary_axis(retention_seconds: float, radius_seconds: int = 5) -> tuple[float, ...]:
    """Whole seconds within ``radius_seconds`` of the retention, and the retention itself.

    The axis for a zoom on the boundary: it always contains the exact boundary value (even a
    fractional one), clipped to 0 .. ``MAX_SECONDS``, sorted.
    """
    retention = check_seconds("retention_seconds", retention_seconds)
    if (
        isinstance(radius_seconds, bool)
        or not isinstance(radius_seconds, int)
        or not 0 <= radius_seconds <= MAX_RADIUS_SECONDS
    ):
        raise ValueError(
            f"radius_seconds must be a whole number from 0 to {MAX_RADIUS_SECONDS}, "
            f"got {radius_seconds!r}"
        )
    low = max(0, floor(retention) - radius_seconds)
    high = min(MAX_SECONDS, ceil(retention) + radius_seconds)
    return tuple(sorted({float(second) for second in range(low, high + 1)} | {retention}))


def sweep_around_boundary(scenario: ContractScenario, radius_seconds: int = 5) -> RetentionSweep:
    """A zoom on the scenario's retention boundary: both axes are ``boundary_axis`` of it, so
    the diagonal delay == retention runs through the grid."""
    axis = boundary_axis(scenario.retention_seconds, radius_seconds)
    return sweep_retention(scenario, axis, axis)
