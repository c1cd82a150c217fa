"""Estimators: a proportion with its 95% Wilson interval, quantiles, and the duplicate risk as a
function of retention.

Wilson's score interval (Wilson 1927; recommended over the normal approximation by Brown, Cai and
DasGupta, "Interval Estimation for a Binomial Proportion", 2001) stays inside [0, 1] and is
honest when nothing, or everything, was seen: with no duplicate in n trials it still says the risk
may be as high as about 3.84 / n.
"""

import math
from collections.abc import Sequence
from typing import Final

from pydantic import BaseModel, Field

from asyncfail.ground.frozen import FROZEN

Z95: Final = 1.959963984540054
"""The standard normal quantile for a two-sided 95% interval."""


class Estimate(BaseModel):
    """A proportion seen in trials: the count, the point estimate and its 95% Wilson interval."""

    model_config = FROZEN

    count: int = Field(ge=0)
    probability: float = Field(ge=0, le=1)
    low: float = Field(ge=0, le=1)
    high: float = Field(ge=0, le=1)


def wilson(count: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of ``count`` successes in ``trials``: centre
    (p + z²/2n) / (1 + z²/n), half-width z·sqrt(p(1-p)/n + z²/4n²) / (1 + z²/n)."""
    if trials <= 0 or not 0 <= count <= trials:
        raise ValueError(f"{count} of {trials} is not a count of trials")
    p = count / trials
    z2 = z * z
    denominator = 1 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / denominator
    # At none or all seen an end is exactly 0 or 1; rounding must not move it off.
    low = 0.0 if count == 0 else max(0.0, centre - half)
    high = 1.0 if count == trials else min(1.0, centre + half)
    return low, high


def estimate(count: int, trials: int) -> Estimate:
    """``count`` of ``trials`` as an ``Estimate``."""
    low, high = wilson(count, trials)
    return Estimate(count=count, probability=count / trials, low=low, high=high)


def quantile(sorted_values: Sequence[int], q: float) -> int:
    """The ``q`` quantile of already sorted values, by the nearest-rank rule (the smallest value
    with at least a fraction ``q`` of the values at or below it)."""
    if not sorted_values:
        raise ValueError("no values")
    return sorted_values[rank_of(q, len(sorted_values)) - 1]


def rank_of(q: float, n: int) -> int:
    """The nearest rank of the ``q`` quantile among ``n`` values (1-based): ceil(q * n), at
    least 1."""
    return max(1, math.ceil(q * n))
