"""Sequential runs, their times taken out: one run of an injection set serves every draw of it.

A run is sequential when one worker runs it and nothing pauses it (``sequential``): then the
channel's agenda never holds more than the next delivery, steps take no time, and every event of
a delivery happens at the instant the delivery starts: the first at 0, each next one its
redelivery delay after the one before, the operator's replay its replay delay after the last
(``attempt_starts``). The delays then only shift events in time, and the one thing in the model
that compares times is the receiver's retention check (a record retained while its age is below
the retention, ``ground.retention``). So the run of an injection set, at any delays and
retention, is fixed by the answers of its retention checks, in order: it is the run of any
other draw whose checks answered the same so far (``RunShape``, ``ShapeBook``).

A trial's segments (``trials``) are read from the shapes at the trial's own delays: the same
segments, exactly, as running it (``tests/risk/test_shapes.py`` compares them run by run), at a
few runs per injection set instead of a few per trial.
"""

from collections.abc import Iterator
from dataclasses import dataclass
from itertools import accumulate
from typing import Final

from asyncfail.ground.durations import Duration
from asyncfail.ground.retention import RETAINED_WHILE, BoundaryConvention
from asyncfail.lab.events import Event, EventKind
from asyncfail.lab.faults import FAILURE_AT, Failure, FaultPlan, FaultPoint, Injection
from asyncfail.lab.reading import Outcome, outcome_of, record_writes
from asyncfail.lab.simulation import execute
from asyncfail.risk.draws import Draw
from asyncfail.risk.inputs import RiskInputs

CONSULTED: Final = frozenset({EventKind.OPERATION_LOOKUP_FOUND, EventKind.REQUEST_DEDUPLICATED})
"""The events of a run that relied on a retained record."""

CHECKED: Final = CONSULTED | {EventKind.RECORD_EXPIRED}
"""The events of a run that asked whether a record was retained: retained, or expired."""

PAUSES: Final = frozenset(p for p, failure in FAILURE_AT.items() if failure is Failure.PAUSE)

Injections = tuple[tuple[int, FaultPoint], ...]


def sequential(inputs: RiskInputs, injections: Injections) -> bool:
    """Whether every run of ``injections`` is sequential: one worker, no pause injected."""
    return inputs.settings.workers == 1 and not any(p in PAUSES for _, p in injections)


def attempt_starts(delays: tuple[int, ...], replay: int | None) -> tuple[int, ...]:
    """When each delivery of a sequential run starts, in ms, indexed by its attempt (index 0,
    0: no delivery): attempt 1 at 0, attempt k + 1 ``delays[k - 1]`` after attempt k, and the
    replay (the attempt after the budget's last) ``replay`` after the last."""
    starts = (0, 0, *accumulate(delays))
    return starts if replay is None else (*starts, starts[-1] + replay)


@dataclass(frozen=True, slots=True)
class RunShape:
    """A sequential run with its times taken out: its retention checks in order (the attempt
    that checked, the attempt that wrote the record checked), whether each found its record
    retained, its outcome, and the attempt of its last event (0: no event)."""

    checks: tuple[tuple[int, int], ...]
    kept: tuple[bool, ...]
    outcome: Outcome
    last: int

    @classmethod
    def of(
        cls,
        events: tuple[Event, ...],
        starts: tuple[int, ...],
        retention: int | None,
        rule: BoundaryConvention,
    ) -> "RunShape | None":
        """The shape of a run made at ``starts`` and ``retention`` (ms; None: for ever) under
        the boundary ``rule``, or None when the run is not the sequential run this module
        describes (an event off its delivery's start, a check no write explains, an answer the
        rule would not give): the caller then runs every draw of it instead."""
        retained = RETAINED_WHILE[rule]
        writes = {id(e) for e in record_writes(events)}
        written: dict[str, int] = {}
        checks, kept = [], []
        for e in events:
            if e.attempt >= len(starts) or e.at.millis != starts[e.attempt]:
                return None
            if id(e) in writes and e.key is not None:
                written[e.key] = e.attempt
            elif e.kind in CHECKED:
                if e.key not in written:
                    return None
                check = (e.attempt, written[e.key])
                found = e.kind in CONSULTED
                age = starts[check[0]] - starts[check[1]]
                if found != (retention is None or retained(age, retention)):
                    return None
                checks.append(check)
                kept.append(found)
        last = events[-1].attempt if events else 0
        return cls(tuple(checks), tuple(kept), outcome_of(events), last)

    def ages(self, starts: tuple[int, ...]) -> Iterator[int]:
        """How old each record the run relied on was, in ms, at the draw's ``starts``."""
        for (check, write), found in zip(self.checks, self.kept, strict=True):
            if found:
                yield starts[check] - starts[write]


REMEMBERED_SETS: Final = 4096
"""The most injection sets whose shapes are remembered: most trials share a few sets, and a
heavy setting, where every trial draws a set of its own, must not grow with the trials."""

Book = dict[tuple[bool, ...], RunShape]
"""The shapes of one injection set, each under every prefix of its answers."""


class ShapeBook:
    """The shapes of the sequential runs of one estimate, by injection set (``REMEMBERED_SETS``
    at most); a shape is run the first time a draw's answers call for it."""

    def __init__(self, inputs: RiskInputs) -> None:
        self.inputs = inputs
        self.forever = inputs.settings.model_copy(update={"retention": None})
        self.rule = inputs.settings.boundary
        self.retained = RETAINED_WHILE[self.rule]
        self.books: dict[Injections, Book | None] = {}

    def first(self, draw: Draw, starts: tuple[int, ...]) -> RunShape | None:
        """The shape of ``draw``'s run with records kept for ever; None when its runs are not
        sequential (or not as this module says: see ``RunShape.of``)."""
        books = self.books
        if draw.injections in books:
            book = books[draw.injections]
            return None if book is None else book[()]
        book = None
        if sequential(self.inputs, draw.injections):
            shape = self._run(draw, starts, None)
            book = None if shape is None else self._file({}, shape)
        if len(books) >= REMEMBERED_SETS:  # forget the oldest: memory stays flat in the trials
            del books[next(iter(books))]
        books[draw.injections] = book
        return None if book is None else book[()]

    def at(
        self, draw: Draw, starts: tuple[int, ...], shape: RunShape, retention: int
    ) -> RunShape | None:
        """The shape of ``draw``'s run at ``retention`` (ms), from its first shape: each check
        answered at the draw's ages, and where an answer differs, the shape that follows it
        (run when none is known yet); None when that run is not a sequential one."""
        book = self.books[draw.injections]
        assert book is not None
        retained, i = self.retained, 0
        while i < len(shape.checks):
            check, write = shape.checks[i]
            answer = retained(starts[check] - starts[write], retention)
            if answer != shape.kept[i]:
                found = book.get(answers := (*shape.kept[:i], answer))
                if found is None:
                    found = self._run(draw, starts, retention)
                    if found is None or found.kept[: i + 1] != answers:
                        return None
                    self._file(book, found)
                shape = found
            i += 1
        return shape

    @staticmethod
    def _file(book: Book, shape: RunShape) -> Book:
        for end in range(len(shape.kept) + 1):
            book.setdefault(shape.kept[:end], shape)
        return book

    def _run(self, draw: Draw, starts: tuple[int, ...], retention: int | None) -> RunShape | None:
        inputs = self.inputs
        settings = self.forever.model_copy(
            update={
                "retention": None if retention is None else Duration(retention),
                "replay_after": None if draw.replay is None else Duration(draw.replay),
            }
        )
        injections = tuple(Injection(attempt=a, point=p) for a, p in draw.injections)
        plan = FaultPlan(injections=injections)
        run = execute(inputs.mode, plan, inputs.deliveries, settings, draw.delays)
        return RunShape.of(run.events, starts, retention, self.rule)
