"""The trace recorder: numbers events in the order they happen within one run.

The counter belongs to the run, not to the module, so two runs (or two processes) number their
events identically.
"""

from asyncfail.ground.durations import Duration
from asyncfail.lab.events import Event, EventKind, has_kind
from asyncfail.lab.faults import FaultPoint


class TraceRecorder:
    """Collects the events of one run; the interpreter sets the current delivery attempt, the
    clock (``now``) and, with two workers, the worker (``worker``) before each step it runs."""

    __slots__ = ("_events", "attempt", "now", "worker")

    def __init__(self) -> None:
        self._events: list[Event] = []
        self.attempt = 1
        self.now = Duration(0)
        self.worker: int | None = None

    def emit(
        self, kind: EventKind, *, point: FaultPoint | None = None, key: str | None = None
    ) -> None:
        """Record one fact of the current attempt; ``point`` and ``key`` as ``Event`` says."""
        self._events.append(
            Event(
                seq=len(self._events) + 1,
                kind=kind,
                attempt=self.attempt,
                at=self.now,
                point=point,
                key=key,
                worker=self.worker,
            )
        )

    def has(self, *kinds: EventKind) -> bool:
        return has_kind(self._events, *kinds)

    def events(self) -> tuple[Event, ...]:
        return tuple(self._events)
