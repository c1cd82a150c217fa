"""The lanes of a timeline and of a sequence view: which lane each event sits in.

A run with one worker has a lane per actor; a run with two workers gives each worker its own
lane, so a takeover reads as two rows of steps.
"""

from typing import Final

from asyncfail.lab.events import Actor, Event
from asyncfail.lab.results import LabResult

LANES: Final[tuple[Actor, ...]] = (Actor.CHANNEL, Actor.WORKER, Actor.STORE, Actor.RECEIVER)
"""Timeline lanes, top to bottom: the path a delivery takes from channel to receiver."""

ACTOR_LANES: Final[tuple[str, ...]] = tuple(a.value for a in LANES)
"""The lanes of a run with one worker, by name."""

WORKER_LANES: Final[tuple[str, ...]] = ("channel", "worker 1", "worker 2", "store", "receiver")
"""The lanes of a run with two workers: each worker has its own."""


def has_workers(result: LabResult) -> bool:
    """Whether the run's events say which worker each step was (a run with two workers)."""
    return any(e.worker is not None for e in result.events)


def lanes_of(result: LabResult) -> tuple[str, ...]:
    """The lanes a run's timeline has, top to bottom."""
    return WORKER_LANES if has_workers(result) else ACTOR_LANES


def lane_name(event: Event) -> str:
    """The lane an event sits in: its actor's, or ``worker 2`` for a worker's step in a run
    with two workers."""
    if event.actor is Actor.WORKER and event.worker is not None:
        return f"worker {event.worker}"
    return event.actor.value
