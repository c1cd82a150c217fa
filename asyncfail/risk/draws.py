"""What one trial draws, and in what order.

A trial's randomness comes from one ``random.Random(seed)`` shared by the trials of an estimate,
drawn in this fixed order, the same number of draws whatever the probabilities are, so a seed
means the same trials after a probability changes:

0. the named fault, if any, strikes the first delivery of every trial (no draw);
1. for each delivery the channel may make, then the operator's replay (attempt 1, 2, ..., the
   budget plus one), for each fault point in timeline order: one uniform number; an injection
   strikes there when it is below that point's probability (``RiskInputs.probability_of``);
2. for each redelivery the schedule allows: one uniform number, turned into the jittered delay
   (``jittered``);
3. one uniform number, turned into the replay delay: log-normal with the given median and
   spread, by the inverse of the normal distribution (``statistics.NormalDist``), in whole
   milliseconds, at most 30 days.

A change to this order is a change to what a seed means, and is announced as one.
"""

import math
import operator
import random
from dataclasses import dataclass
from itertools import compress, starmap
from statistics import NormalDist
from typing import Final

from asyncfail.ground.durations import MAX_DURATION
from asyncfail.lab.faults import FAILURE_AT, FAULT_POINT, FaultPoint
from asyncfail.lab.schedules import redelivery_delays
from asyncfail.risk.inputs import Jitter, RiskInputs

_STANDARD: Final = NormalDist()
_SMALLEST: Final = 2.0**-53
"""The smallest uniform draw used for the replay: ``random()`` may return 0, whose inverse is
minus infinity."""


@dataclass(frozen=True, slots=True)
class Draw:
    """One trial's randomness: its injections, its redelivery delays and its replay delay."""

    injections: tuple[tuple[int, FaultPoint], ...]
    delays: tuple[int, ...]
    """Milliseconds before each redelivery."""
    replay: int | None
    """Milliseconds after the channel gives up before an operator replays (None: never)."""


def jittered(delay: int, jitter: Jitter, u: float) -> int:
    """A redelivery delay of ``delay`` ms under ``jitter``, from a uniform ``u`` in [0, 1):
    none keeps it, full draws from [0, delay), equal from [delay / 2, delay); whole ms."""
    match jitter:
        case Jitter.NONE:
            return delay
        case Jitter.FULL:
            return math.floor(delay * u)
        case Jitter.EQUAL:
            return delay // 2 + math.floor((delay - delay // 2) * u)


def replay_delay(median: int, spread: float, u: float) -> int:
    """A log-normal replay delay, in whole ms, from a uniform ``u``: ``median`` times e to the
    ``spread`` times the standard normal quantile of ``u``, at most 30 days."""
    z = _STANDARD.inv_cdf(max(u, _SMALLEST))
    return min(round(median * math.exp(spread * z)), MAX_DURATION.millis)


def expected_injections(inputs: RiskInputs) -> float:
    """How many injections one trial draws on average: the sum of every point's chance, at every
    delivery the schedule offers and at the replay (the points ``Drawer`` draws at, in step 1),
    plus the named fault, which strikes every trial. A trial that draws none is read from a run
    made before; one that draws some is run anew, the longer the more it draws, so this is what
    a trial costs."""
    return sum(Drawer(inputs).chances) + (inputs.fault is not None)


class Drawer:
    """Draws the trials of one estimate, in order, from its seed."""

    def __init__(self, inputs: RiskInputs) -> None:
        settings = inputs.settings
        base = redelivery_delays(settings.schedule, settings.redelivery_delay, inputs.deliveries)
        self.base = tuple(d.millis for d in base)
        # Every delivery the schedule offers (one more than its redeliveries), and the replay.
        last = len(self.base) + 2
        self.points = tuple(
            (attempt, point, inputs.probability_of(FAILURE_AT[point]))
            for attempt in range(1, last + 1)
            for point in FaultPoint
        )
        # The same rule as ``points``, laid out for one pass in C per trial: ``no_arguments``
        # calls ``random()`` once per point, ``compress`` keeps the points whose number is below
        # their probability.
        self.where = tuple((attempt, point) for attempt, point, _ in self.points)
        self.chances = tuple(p for _, _, p in self.points)
        self.no_arguments = ((),) * len(self.points)
        point = None if inputs.fault is None else FAULT_POINT[inputs.fault]
        self.certain = () if point is None else ((1, point),)
        self.jitter = inputs.jitter
        self.median = None if inputs.replay_median is None else inputs.replay_median.millis
        self.spread = inputs.replay_spread
        self.rng = random.Random(inputs.seed)

    def draw(self) -> Draw:
        """The next trial's draw."""
        rand = self.rng.random
        numbers = starmap(rand, self.no_arguments)
        drawn = tuple(compress(self.where, map(operator.lt, numbers, self.chances)))
        certain = self.certain
        injections = certain + tuple(i for i in drawn if i not in certain) if certain else drawn
        jitter = self.jitter
        delays = tuple([jittered(d, jitter, rand()) for d in self.base])
        u = rand()
        replay = None if self.median is None else replay_delay(self.median, self.spread, u)
        return Draw(injections, delays, replay)
