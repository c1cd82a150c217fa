"""Redelivery schedules: how long the channel waits before each redelivery.

Time passes only between deliveries (steps within one delivery take no time), so a schedule is
the whole clock of a run. Each named schedule is a real engine's default, with its source.
"""

from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from asyncfail.ground.durations import Duration


class Schedule(StrEnum):
    """The redelivery schedules the lab knows."""

    FIXED = "fixed"
    """The same delay before every redelivery: an SQS-style visibility timeout."""
    TEMPORAL = "temporal"
    """Temporal's default activity retry policy: 1 s, doubling, capped at 100 s."""
    RESTATE = "restate"
    """Restate's default retry policy: 50 ms, doubling, capped at 60 s."""
    STEP_FUNCTIONS = "step-functions"
    """AWS Step Functions' default retrier: 1 s, doubling, 3 retries at most."""


@dataclass(frozen=True, slots=True)
class Backoff:
    """An exponential backoff: ``initial`` before the first redelivery, multiplied by
    ``factor`` each time, never more than ``cap``; ``retries`` redeliveries at most (None: as
    many as the delivery budget allows)."""

    initial: Duration
    factor: int
    cap: Duration | None
    retries: int | None
    source: str


BACKOFFS: Final[dict[Schedule, Backoff]] = {
    Schedule.TEMPORAL: Backoff(
        Duration.of_seconds(1),
        2,
        Duration.of_seconds(100),
        None,
        "Temporal activity retry policy defaults: initial interval 1 s, backoff coefficient "
        "2.0, maximum interval 100 x initial (100 s), maximum attempts unlimited.",
    ),
    Schedule.RESTATE: Backoff(
        Duration(50),
        2,
        Duration.of_seconds(60),
        None,
        "Restate's default invocation retry policy: initial interval 50 ms, factor 2.0, "
        "maximum interval 60 s (then, after 70 attempts, the invocation is paused).",
    ),
    Schedule.STEP_FUNCTIONS: Backoff(
        Duration.of_seconds(1),
        2,
        None,
        3,
        "AWS Step Functions Retry field defaults: IntervalSeconds 1, BackoffRate 2.0, "
        "MaxAttempts 3.",
    ),
}
"""The named backoffs, each from its engine's documentation."""

DEFAULT_REDELIVERY_DELAY: Final = Duration.of_seconds(30)
"""The fixed schedule's delay unless given: SQS's default visibility timeout, 30 s."""


def redelivery_delays(
    schedule: Schedule, fixed_delay: Duration, deliveries: int
) -> tuple[Duration, ...]:
    """The delay before each redelivery (attempts 2, 3, ...) within a budget of ``deliveries``.

    Rules: the fixed schedule waits ``fixed_delay`` every time; a backoff waits ``initial``,
    then ``factor`` times as long each time, never more than ``cap``; a backoff with a limit of
    retries offers no more redeliveries than that, whatever the budget.
    """
    redeliveries = max(deliveries - 1, 0)
    if schedule is Schedule.FIXED:
        return (fixed_delay,) * redeliveries
    backoff = BACKOFFS[schedule]
    if backoff.retries is not None:
        redeliveries = min(redeliveries, backoff.retries)
    delays = []
    millis = backoff.initial.millis
    for _ in range(redeliveries):
        delays.append(Duration(millis if backoff.cap is None else min(millis, backoff.cap.millis)))
        millis *= backoff.factor
    return tuple(delays)


def delivery_times(
    schedule: Schedule, fixed_delay: Duration, deliveries: int
) -> tuple[Duration, ...]:
    """When each delivery the schedule offers starts: the first at 0, each next one a
    redelivery delay later."""
    times = [Duration(0)]
    for delay in redelivery_delays(schedule, fixed_delay, deliveries):
        times.append(times[-1] + delay)
    return tuple(times)
