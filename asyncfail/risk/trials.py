"""Running trials: one draw, run through the lab's model, for every retention at once.

A trial's outcome depends on the retention only through the records its run consults (a lookup
that finds one, a request the receiver deduplicates from one). So a trial is first run with
records kept for ever; then, as long as some consulted record could have expired, it is run again
with the largest retention that expires the oldest such consultation, and so on down. Each run
holds for a whole range of retentions (every consultation retained in it stays retained, every
one that missed stays missed), so the trial's outcome is known exactly, as a few ranges, for every
retention.

Most runs are sequential (one worker, nothing paused): their runs are read from the shapes of
their injection set's runs (``risk.shapes``), a few runs per injection set. The others are run;
those that take no time (one delivery, nothing replayed, nothing paused) do not depend on any
timing they did not wait on: a trial reuses the segments of an earlier one with the same
injections that waited on the same redelivery delays and, if it came, the same replay delay.
"""

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Final, NamedTuple

from asyncfail.ground.durations import Duration
from asyncfail.ground.retention import RETAINED_WHILE, BoundaryConvention
from asyncfail.lab.events import Event
from asyncfail.lab.faults import FaultPlan, FaultPoint, Injection
from asyncfail.lab.reading import Outcome, outcome_of, record_writes
from asyncfail.lab.settings import LabSettings
from asyncfail.lab.simulation import execute
from asyncfail.risk import shapes as shapes_module
from asyncfail.risk.draws import Draw, Drawer
from asyncfail.risk.inputs import RiskInputs
from asyncfail.risk.shapes import CONSULTED, ShapeBook, attempt_starts


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
    """The largest retention (ms) under which a record of ``age`` ms no longer counts (the
    rule's ``RETAINED_WHILE``)."""
    return age - 1 if RETAINED_WHILE[boundary](age, age) else age


class Reading(NamedTuple):
    """What a trial's segment needs of one run: the ages of the records it relied on
    (``consulted_ages``), its outcome, and when it settled."""

    ages: list[int]
    outcome: Outcome
    settled: int


Shape = tuple[int, bool]
"""What a trial's runs waited on: how many redelivery delays, and whether the replay."""
Key = tuple[tuple[int, ...], int | None]
"""The values of that timing: the delays waited on, and the replay delay if it came."""


REMEMBERED: Final = 4096
"""The most runs remembered per injections and shape (and at most ``REMEMBERED_SETS`` sets of
injections). Runs that waited on no timing have one key each and are always found again; runs
that waited on jittered delays rarely repeat, and remembering every one would grow with the
trials (a million trials with full jitter held hundreds of MB)."""


class TrialRunner:
    """Runs the trials of one estimate: a sequential run's trial is read from its injection
    set's shapes (``risk.shapes``); any other is run, reusing runs that used no timing
    (``REMEMBERED``)."""

    def __init__(self, inputs: RiskInputs) -> None:
        self.inputs = inputs
        self.forever = inputs.settings.model_copy(update={"retention": None})
        self.boundary = inputs.settings.boundary
        self.known: dict[tuple[tuple[int, FaultPoint], ...], dict[Shape, dict[Key, Segments]]]
        self.known = {}
        self.waited: Shape = (0, False)
        self.shapes = ShapeBook(inputs)

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
        segments = self._from_shapes(draw)
        return Trial(draw, self._from_runs(draw) if segments is None else segments)

    def _from_shapes(self, draw: Draw) -> Segments | None:
        """The trial's segments read from its injection set's shapes (``risk.shapes``), at its
        own delays; None when its runs are not sequential."""
        starts = attempt_starts(draw.delays, draw.replay)
        shape = self.shapes.first(draw, starts)
        if shape is None:
            return None
        if not shape.checks:  # nothing a retention could change: most trials
            return (Segment(-1, None, shape.outcome, starts[shape.last]),)
        segments = []
        high: int | None = None
        while True:
            reading = Reading(list(shape.ages(starts)), shape.outcome, starts[shape.last])
            low = self._expiring(reading, high)
            segments.append(Segment(low, high, reading.outcome, reading.settled))
            if low < 0:
                return tuple(segments)
            high = low
            found = self.shapes.at(draw, starts, shape, low)
            if found is None:
                return None
            shape = found

    def _from_runs(self, draw: Draw) -> Segments:
        """The trial's segments from running it (``_segments``), reusing runs that used no
        timing (``REMEMBERED``)."""
        known = self.known
        if draw.injections not in known and len(known) >= shapes_module.REMEMBERED_SETS:
            del known[next(iter(known))]  # forget the oldest set: a heavy setting's are all new
        shapes = known.setdefault(draw.injections, {})
        for shape, table in shapes.items():
            found = table.get(self._key(draw, shape))
            if found is not None:
                return found
        injections = tuple(Injection(attempt=a, point=p) for a, p in draw.injections)
        plan = FaultPlan(injections=injections)
        self.waited = (0, False)
        events = self._run(plan, draw, self.forever)
        segments = tuple(self._segments(plan, draw, events))
        table = shapes.setdefault(self.waited, {})
        if len(table) >= REMEMBERED:  # forget the oldest: memory stays flat in the trials
            del table[next(iter(table))]
        table[self._key(draw, self.waited)] = segments
        return segments

    def _expiring(self, reading: Reading, high: int | None) -> int:
        """The largest retention below ``high`` that expires a consultation retained in the
        run ``reading`` reads: where its segment ends below (-1: none, the segment holds down
        to 0)."""
        boundary = self.boundary
        return max(
            (
                limit
                for age in reading.ages
                if (limit := largest_expiring(age, boundary)) >= 0
                and (high is None or limit < high)
            ),
            default=-1,
        )

    def _segments(
        self, plan: FaultPlan, draw: Draw, events: tuple[Event, ...]
    ) -> Iterator[Segment]:
        high: int | None = None
        while True:
            settled = events[-1].at.millis if events else 0
            reading = Reading(consulted_ages(events), outcome_of(events), settled)
            low = self._expiring(reading, high)
            yield Segment(low, high, reading.outcome, settled)
            if low < 0:
                return
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
