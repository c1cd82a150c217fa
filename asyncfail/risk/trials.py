"""Running trials: one draw, run through the lab's model, for every retention at once.

A trial's outcome depends on the retention only through the records its run consults (a lookup
that finds one, a request the receiver deduplicates from one). So a trial is first run with
records kept for ever; then, as long as some consulted record could have expired, it is run again
with the largest retention that expires the oldest such consultation, and so on down. Each run
holds for a whole range of retentions (every consultation retained in it stays retained, every
one that missed stays missed), so the trial's outcome is known exactly, as a few ranges, for every
retention. Runs that take no time (one delivery, nothing replayed, nothing paused) do not depend on
any timing they did not wait on: a trial reuses the segments of an earlier one with the same
injections that waited on the same redelivery delays and, if it came, the same replay delay.
"""

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Final

from asyncfail.ground.durations import Duration
from asyncfail.ground.retention import BoundaryConvention, retained
from asyncfail.lab.events import Event, EventKind
from asyncfail.lab.faults import FaultPlan, FaultPoint, Injection
from asyncfail.lab.reading import Outcome, outcome_of, record_writes
from asyncfail.lab.settings import LabSettings
from asyncfail.lab.simulation import execute
from asyncfail.risk.draws import Draw, Drawer
from asyncfail.risk.inputs import RiskInputs

CONSULTED: Final = frozenset({EventKind.OPERATION_LOOKUP_FOUND, EventKind.REQUEST_DEDUPLICATED})
"""The events of a run that relied on a retained record."""


@dataclass(frozen=True, slots=True)
class Segment:
    """A trial's outcome for every retention in (``low``, ``high``] milliseconds (``high``
    None: up to keeping records for ever; the last segment's ``low`` is -1, so it holds down to
    a retention of 0), and when its run settled (its last event)."""

    low: int
    high: int | None
    outcome: Outcome
    settled: int


Segments = tuple[Segment, ...]


@dataclass(frozen=True, slots=True)
class Trial:
    """One trial: its draw and its outcome at every retention, largest retentions first."""

    draw: Draw
    segments: tuple[Segment, ...]

    def at(self, retention: Duration | None) -> Segment:
        """The segment that holds at ``retention`` (None: records kept for ever)."""
        if retention is None:
            return self.segments[0]
        return next(s for s in self.segments if s.low < retention.millis)


def consulted_ages(events: tuple[Event, ...]) -> list[int]:
    """How old each record was, in ms, when the run relied on it (``CONSULTED``): the time since
    the latest write of a record under the same key."""
    writes = {id(e) for e in record_writes(events)}
    written: dict[str, int] = {}
    ages = []
    for e in events:
        if id(e) in writes and e.key is not None:
            written[e.key] = e.at.millis
        elif e.kind in CONSULTED and e.key in written:
            ages.append(e.at.millis - written[e.key])
    return ages


def largest_expiring(age: int, boundary: BoundaryConvention) -> int:
    """The largest retention (ms) under which a record of ``age`` ms no longer counts."""
    return age if not retained(Duration(age), Duration(age), boundary) else age - 1


Shape = tuple[int, bool]
"""What a trial's runs waited on: how many redelivery delays, and whether the replay."""
Key = tuple[tuple[int, ...], int | None]
"""The values of that timing: the delays waited on, and the replay delay if it came."""


REMEMBERED: Final = 4096
"""The most runs remembered per injections and shape. Runs that waited on no timing have one
key each and are always found again; runs that waited on jittered delays rarely repeat, and
remembering every one would grow with the trials (a million trials with full jitter held
hundreds of MB)."""


class TrialRunner:
    """Runs the trials of one estimate, reusing runs that used no timing (``REMEMBERED``)."""

    def __init__(self, inputs: RiskInputs) -> None:
        self.inputs = inputs
        self.forever = inputs.settings.model_copy(update={"retention": None})
        self.boundary = inputs.settings.boundary
        self.known: dict[tuple[tuple[int, FaultPoint], ...], dict[Shape, dict[Key, Segments]]]
        self.known = {}
        self.waited: Shape = (0, False)

    def _run(self, plan: FaultPlan, draw: Draw, settings: LabSettings) -> tuple[Event, ...]:
        replay = None if draw.replay is None else Duration(draw.replay)
        timed = settings.model_copy(update={"replay_after": replay})
        inputs = self.inputs
        run = execute(inputs.mode, plan, inputs.deliveries, timed, draw.delays)
        used, replayed = self.waited
        self.waited = (max(used, run.delays_used), replayed or run.replayed)
        return run.events

    @staticmethod
    def _key(draw: Draw, shape: Shape) -> Key:
        used, replayed = shape
        return draw.delays[:used], draw.replay if replayed else None

    def trial(self, draw: Draw) -> Trial:
        """The trial of ``draw``: its outcome at every retention."""
        shapes = self.known.setdefault(draw.injections, {})
        for shape, table in shapes.items():
            found = table.get(self._key(draw, shape))
            if found is not None:
                return Trial(draw, found)
        injections = tuple(Injection(attempt=a, point=p) for a, p in draw.injections)
        plan = FaultPlan(injections=injections)
        self.waited = (0, False)
        events = self._run(plan, draw, self.forever)
        segments = tuple(self._segments(plan, draw, events))
        table = shapes.setdefault(self.waited, {})
        if len(table) >= REMEMBERED:  # forget the oldest: memory stays flat in the trials
            del table[next(iter(table))]
        table[self._key(draw, self.waited)] = segments
        return Trial(draw, segments)

    def _segments(
        self, plan: FaultPlan, draw: Draw, events: tuple[Event, ...]
    ) -> Iterator[Segment]:
        high: int | None = None
        while True:
            # The consultations retained in this run that a shorter retention would expire.
            expiring = [
                limit
                for age in consulted_ages(events)
                if (limit := largest_expiring(age, self.boundary)) >= 0
                and (high is None or limit < high)
            ]
            settled = events[-1].at.millis if events else 0
            if not expiring:
                yield Segment(-1, high, outcome_of(events), settled)
                return
            low = max(expiring)
            yield Segment(low, high, outcome_of(events), settled)
            high = low
            shorter = self.forever.model_copy(update={"retention": Duration(low)})
            events = self._run(plan, draw, shorter)


def run_trials(inputs: RiskInputs) -> Iterator[Trial]:
    """Every trial of ``inputs``, in order, from its seed."""
    drawer, runner = Drawer(inputs), TrialRunner(inputs)
    for _ in range(inputs.trials):
        yield runner.trial(drawer.draw())


PROGRESS_EVERY: Final = 500
"""How many trials pass between two progress reports."""
