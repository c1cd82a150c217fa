"""Retention-boundary sweeps: the contract experiment over a grid of (retention, delay) values.

Every other input is held fixed (the scenario's settings in force); each cell agrees exactly
with ``experiment.evaluate`` of that cell's scenario.
"""

from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal
from itertools import chain, repeat
from math import ceil, floor
from typing import Final

from pydantic import TypeAdapter, ValidationError

from asyncfail.contract.experiment import ContractScenario
from asyncfail.contract.profiles import PROFILES
from asyncfail.contract.requests import case_of
from asyncfail.contract.rules import (
    CORRECT_FINDINGS,
    Disposition,
    Finding,
    RecordState,
    judge,
    record_states,
)
from asyncfail.ground.durations import MAX_SECONDS, Duration

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
    ``delays[i % len(delays)]`` (per cell, in whole milliseconds: ``retention_ms``,
    ``delay_ms``); ``scenario`` holds the fixed inputs (its own retention and delay are not
    used). ``columns()`` suits ``pandas.DataFrame``, ``rows()`` suits Altair and JSON.
    """

    scenario: ContractScenario
    retentions: tuple[Duration, ...]
    delays: tuple[Duration, ...]
    retention_ms: tuple[int, ...]
    delay_ms: tuple[int, ...]
    record: tuple[RecordState, ...]
    disposition: tuple[Disposition, ...]
    effects: tuple[int, ...]
    finding: tuple[Finding, ...]

    def __len__(self) -> int:
        return len(self.record)

    def scenario_at(self, index: int) -> ContractScenario:
        """The full scenario of one cell (no validation: both values were checked)."""
        update = {
            "retention_seconds": Duration(self.retention_ms[index]),
            "delay_seconds": Duration(self.delay_ms[index]),
        }
        return self.scenario.model_copy(update=update)

    def columns(self) -> dict[str, tuple[float | int | str | bool, ...]]:
        """The tidy columns named in ``COLUMNS``: seconds as JSON numbers, enums as their plain
        string values."""
        seconds = {d.millis: d.json_number for d in (*self.retentions, *self.delays)}
        return {
            "retention_seconds": tuple(map(seconds.__getitem__, self.retention_ms)),
            "delay_seconds": tuple(map(seconds.__getitem__, self.delay_ms)),
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


_DURATION: Final = TypeAdapter(Duration)


def _axis(name: str, values: Iterable[Duration | int | Decimal | str]) -> tuple[Duration, ...]:
    """One axis, every value read by the ``Duration`` rule (a float is refused, as anywhere)."""
    if isinstance(values, str | bytes):
        raise ValueError(f"{name} must be a sequence of durations, got a string")
    axis = []
    for i, value in enumerate(values):
        try:
            axis.append(_DURATION.validate_python(value))
        except ValidationError as error:
            reason = error.errors()[0]["msg"].removeprefix("Value error, ")
            raise ValueError(f"{name}[{i}]: {reason}") from None
    if not axis:
        raise ValueError(f"{name} must hold at least one duration")
    return tuple(axis)


def sweep_retention(
    scenario: ContractScenario,
    retentions: Iterable[Duration | int | Decimal | str],
    delays: Iterable[Duration | int | Decimal | str],
) -> RetentionSweep:
    """Evaluate ``scenario`` at every (retention, delay) pair of the two axes.

    Each axis value is read once by the ``Duration`` rule, and the grid may
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
    # Everything was validated once, above: the scenario by its model, each axis value by the
    # Duration rule. That alone is why the per-cell path below builds no model per cell.
    settings = scenario.settings
    case = case_of(settings.scope, scenario.second)
    key_reused = case.key_reused
    retention_ms = [d.millis for d in retention_axis]
    delay_ms = tuple(d.millis for d in delay_axis)
    clock = PROFILES[scenario.profile].clock
    clock_ms = None if clock is None else clock.millis
    record = tuple(
        chain.from_iterable(
            record_states(
                key_reused=key_reused,
                retention_ms=retention,
                delays_ms=delay_ms,
                boundary=settings.boundary,
                clock_ms=clock_ms,
            )
            for retention in retention_ms
        )
    )
    judged = {state: judge(case, state, settings.policy) for state in RecordState}
    return RetentionSweep(
        scenario=scenario,
        retentions=retention_axis,
        delays=delay_axis,
        retention_ms=tuple(chain.from_iterable(map(repeat, retention_ms, repeat(len(delay_ms))))),
        delay_ms=delay_ms * len(retention_ms),
        record=record,
        disposition=tuple(map({s: j.disposition for s, j in judged.items()}.__getitem__, record)),
        effects=tuple(map({s: j.effects for s, j in judged.items()}.__getitem__, record)),
        finding=tuple(map({s: j.finding for s, j in judged.items()}.__getitem__, record)),
    )


def boundary_axis(retention: Duration, radius_seconds: int = 5) -> tuple[Duration, ...]:
    """The whole seconds within ``radius_seconds`` of the retention, and the retention itself.

    The axis for a zoom on the boundary: every whole second ``s`` with
    ``|s - retention| <= radius_seconds``, within 0 .. ``MAX_SECONDS``, plus the exact boundary
    value (even a fractional one), sorted.
    """
    if (
        isinstance(radius_seconds, bool)
        or not isinstance(radius_seconds, int)
        or not 0 <= radius_seconds <= MAX_RADIUS_SECONDS
    ):
        raise ValueError(
            f"radius_seconds must be a whole number from 0 to {MAX_RADIUS_SECONDS}, "
            f"got {radius_seconds!r}"
        )
    centre = retention.seconds
    low = max(0, ceil(centre - radius_seconds))
    high = min(MAX_SECONDS, floor(centre + radius_seconds))
    seconds = {Duration.of_seconds(second) for second in range(low, high + 1)}
    return tuple(sorted(seconds | {retention}))


def sweep_around_boundary(scenario: ContractScenario, radius_seconds: int = 5) -> RetentionSweep:
    """A zoom on the scenario's retention boundary: both axes are ``boundary_axis`` of the
    retention in force, so the diagonal delay == retention runs through the grid."""
    axis = boundary_axis(scenario.settings.retention, radius_seconds)
    return sweep_retention(scenario, axis, axis)
