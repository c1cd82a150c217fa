"""Exact answers, where the timed model has one: a single certain fault, and a delay that either
reaches the retention or does not.

Two cases, both for the durable runtime with every random probability at 0, one worker, a stable
key, an atomic record and the named fault ``crash-after-effect`` (the debit happened, the result
was not recorded), so the run debits twice exactly when the record no longer counts when the
operation comes back:

- **redelivery**: a budget of two deliveries or more, nobody replays; the operation comes back
  after the schedule's first delay, jittered;
- **replay**: a budget of one delivery; the operation comes back when an operator replays it,
  after a log-normal delay.

Each probability is computed from the same draw rules as the trials (``risk.draws``), whole
milliseconds included, so an estimate's interval must contain it.
"""

import math
from statistics import NormalDist
from typing import Final

from pydantic import BaseModel, Field

from asyncfail.ground.durations import MAX_DURATION
from asyncfail.ground.frozen import FROZEN
from asyncfail.ground.retention import BoundaryConvention
from asyncfail.lab.faults import Fault
from asyncfail.lab.scenario import Mode
from asyncfail.lab.schedules import redelivery_delays
from asyncfail.lab.settings import KeyStability, RecordWrite
from asyncfail.risk.inputs import Jitter, RiskInputs

_STANDARD: Final = NormalDist()


class ExactAnswer(BaseModel):
    """An exact duplicate probability, and which case it is."""

    model_config = FROZEN

    case: str
    probability: float = Field(ge=0, le=1)


def _first_expiring(retention: int, boundary: BoundaryConvention) -> int:
    """The smallest delay (ms) at which a record of ``retention`` ms no longer counts."""
    return retention if boundary is BoundaryConvention.EXPIRED_AT_BOUNDARY else retention + 1


def jittered_reaches(delay: int, jitter: Jitter, expiring: int) -> float:
    """P(a jittered ``delay`` is at least ``expiring`` ms), under ``draws.jittered``'s rules:
    floor(delay * u) >= e iff u >= e / delay; equal jitter adds delay // 2 first."""
    if expiring <= 0:
        return 1.0
    match jitter:
        case Jitter.NONE:
            return 1.0 if delay >= expiring else 0.0
        case Jitter.FULL:
            return min(1.0, max(0.0, 1 - expiring / delay)) if delay else 0.0
        case Jitter.EQUAL:
            half, rest = delay // 2, delay - delay // 2
            if expiring <= half:
                return 1.0
            return min(1.0, max(0.0, 1 - (expiring - half) / rest)) if rest else 0.0


def replay_reaches(median: int, spread: float, expiring: int) -> float:
    """P(a replay delay is at least ``expiring`` ms), under ``draws.replay_delay``'s rules:
    round(m * e^(s z)) >= e iff z >= (ln(e - 1/2) - ln m) / s, and never beyond 30 days."""
    if expiring <= 0:
        return 1.0
    if expiring > MAX_DURATION.millis:
        return 0.0
    if spread == 0:
        return 1.0 if median >= expiring else 0.0
    z = (math.log(expiring - 0.5) - math.log(median)) / spread
    return 1 - _STANDARD.cdf(z)


def exact_duplicate(inputs: RiskInputs) -> ExactAnswer | None:
    """The exact duplicate probability when ``inputs`` is one of the module's two cases."""
    s = inputs.settings
    simple = (
        inputs.mode is Mode.DURABLE
        and inputs.fault is Fault.CRASH_AFTER_EFFECT
        and inputs.crash_probability == inputs.loss_probability == 0
        and inputs.outage_probability == inputs.pause_probability == 0
        and s.workers == 1
        and s.key is KeyStability.STABLE
        and s.record is RecordWrite.ATOMIC
        and s.retention is not None
    )
    if not simple or s.retention is None:
        return None
    expiring = _first_expiring(s.retention.millis, s.boundary)
    delays = redelivery_delays(s.schedule, s.redelivery_delay, inputs.deliveries)
    if delays and inputs.replay_median is None:
        p = jittered_reaches(delays[0].millis, inputs.jitter, expiring)
        return ExactAnswer(case="redelivery", probability=p)
    if not delays and inputs.replay_median is not None:
        p = replay_reaches(inputs.replay_median.millis, inputs.replay_spread, expiring)
        return ExactAnswer(case="replay", probability=p)
    return None
