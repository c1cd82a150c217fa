"""The retention rule: whether a stored record still counts a given time after it was written.

One rule for the whole library: the contract experiment's second request and (with a clock) the
lab's receiver both ask ``retained``. Both conventions exist in the wild, so the convention is
an input and every result states the one in force.
"""

import operator
from collections.abc import Callable
from enum import StrEnum
from typing import Final

from asyncfail.ground.durations import Duration, human


class BoundaryConvention(StrEnum):
    """What the record is at exactly ``age == retention`` (both conventions exist)."""

    EXPIRED_AT_BOUNDARY = "expired-at-boundary"
    """The seed's rule: at the exact expiry boundary the record is already gone."""
    RETAINED_AT_BOUNDARY = "retained-at-boundary"
    """AWS Lambda Powertools' rule (and Brandur Leach's reaper's): a record expires only once
    ``now > expiry``, so at its expiry instant it still counts."""


RETAINED_WHILE: Final[dict[BoundaryConvention, Callable[[int, int], bool]]] = {
    BoundaryConvention.EXPIRED_AT_BOUNDARY: operator.lt,
    BoundaryConvention.RETAINED_AT_BOUNDARY: operator.le,
}
"""A stored record is retained while ``RETAINED_WHILE[boundary](age_ms, retention_ms)``:
``age < retention`` under the seed's convention, ``age <= retention`` under Powertools' (its
``is_expired`` is ``int(now) > expiry_timestamp``). Both compare whole milliseconds exactly;
Powertools truncates to whole seconds, so the two agree on whole-second values."""

BOUNDARY_RULES: Final[dict[BoundaryConvention, str]] = {
    BoundaryConvention.EXPIRED_AT_BOUNDARY: "At exactly the retention boundary the record is "
    "already expired (the seed's convention): retained while delay < retention, so records must "
    "be kept strictly longer than the longest delay.",
    BoundaryConvention.RETAINED_AT_BOUNDARY: "At exactly the retention boundary the record still "
    "counts (AWS Lambda Powertools' convention): retained while delay <= retention, so records "
    "kept exactly as long as the longest delay are enough (Powertools compares whole seconds; "
    "the lab compares exact milliseconds).",
}
"""The convention in force, in words: every result states it."""


def retained(age: Duration, retention: Duration, boundary: BoundaryConvention) -> bool:
    """Whether a record written ``age`` ago still counts under ``retention`` and ``boundary``."""
    return RETAINED_WHILE[boundary](age.millis, retention.millis)


def counts_until(expiry: Duration, boundary: BoundaryConvention) -> str:
    """How long a record expiring at ``expiry`` counts, in words, under ``boundary``:
    ``until just before 30 s`` or ``up to and including 30 s``."""
    match boundary:
        case BoundaryConvention.EXPIRED_AT_BOUNDARY:
            return f"until just before {human(expiry)}"
        case BoundaryConvention.RETAINED_AT_BOUNDARY:
            return f"up to and including {human(expiry)}"
