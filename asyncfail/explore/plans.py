"""Every fault plan of a run, up to a number of injections.

The injections a plan may hold are every fault point at every delivery the channel may make
(the budget, or the schedule's own limit if smaller) and, when an operator replays an abandoned
delivery (``replay_after``), at the replay, the attempt after the last of them. A plan is a set
of them; plans are enumerated by size, then in canonical order, so the enumeration is the same
in every process.
"""

from collections.abc import Iterator
from itertools import combinations
from typing import Final

from asyncfail.lab.faults import FaultPlan, FaultPoint, Injection
from asyncfail.lab.schedules import delivery_times
from asyncfail.lab.settings import LabSettings

MAX_FAULTS: Final = 3
"""The most injections the explorer puts in one plan (3 over 11 points and 3 deliveries is
6,018 plans)."""


def injection_space(settings: LabSettings, deliveries: int) -> tuple[Injection, ...]:
    """Every injection a plan may hold: each fault point at each delivery the channel may make,
    the operator's replay included, by attempt, then in the points' timeline order."""
    attempts = len(delivery_times(settings.schedule, settings.redelivery_delay, deliveries))
    attempts += settings.replay_after is not None
    return tuple(
        Injection(attempt=attempt, point=point)
        for attempt in range(1, attempts + 1)
        for point in FaultPoint
    )


def plans_up_to(space: tuple[Injection, ...], max_faults: int) -> Iterator[FaultPlan]:
    """Every plan of at most ``max_faults`` injections from ``space``: the empty plan, then the
    plans of one injection, of two, and so on, each size in the order of ``space``."""
    for injections in injection_sets_up_to(space, max_faults):
        yield FaultPlan(injections=injections)


def injection_sets_up_to(
    space: tuple[Injection, ...], max_faults: int
) -> Iterator[tuple[Injection, ...]]:
    """The injections of each plan ``plans_up_to`` gives, in its order, without making the plan
    (for a caller that skips most of them)."""
    for size in range(max_faults + 1):
        yield from combinations(space, size)


def plan_order(plan: FaultPlan) -> tuple[tuple[int, int], ...]:
    """A plan's place in the canonical order among plans of its size: its injections as
    (attempt, point's position in the timeline)."""
    points = list(FaultPoint)
    return tuple((i.attempt, points.index(i.point)) for i in plan.injections)
