"""Issue 20, defect 9: Powertools stores a record's expiry in whole epoch seconds, so between
its retention and one second past it a real record still counts or not depending on when in
its second it was written. The profile reads the clock as Powertools does, takes the write at
the start of a second, and says so in its departures where that choice decides the answer.

The oracle is Powertools' own arithmetic, written here from its source (``persistence/base.py``:
``expiry_timestamp = int(now) + expires_after_seconds``; ``is_expired``: ``int(now) >
expiry_timestamp``), not from the library's rule.
"""

import math
from decimal import Decimal

import pytest

from asyncfail.contract.experiment import ContractScenario, evaluate
from asyncfail.contract.rules import RecordState
from asyncfail.contract.sweep import sweep_retention
from asyncfail.ground.durations import Duration, parse_duration

EPOCH = 1_700_000_000  # a whole second: the model's write


def powertools_keeps(write: Decimal, delay: Decimal, retention: int) -> bool:
    expiry = int(write) + retention
    return not math.floor(write + delay) > expiry


@pytest.mark.parametrize(
    ("retention", "delay"),
    [
        (3600, "3599.999"),
        (3600, "3600"),
        (3600, "3600.001"),
        (3600, "3600.5"),
        (3600, "3600.999"),
        (3600, "3601"),
        (3600, "3601.001"),
        (1, "0.5"),
        (1, "1"),
        (1, "1.25"),
        (1, "1.999"),
        (1, "2"),
        (0, "0"),
        (0, "0.999"),
        (0, "1"),
    ],
)
def test_the_profile_reads_expiry_as_powertools_does(retention: int, delay: str) -> None:
    scenario = ContractScenario(
        profile="powertools",
        retention_seconds=Duration.of_seconds(retention),
        delay_seconds=parse_duration(delay),
    )
    kept = powertools_keeps(Decimal(EPOCH), Decimal(delay), retention)
    expected = RecordState.RETAINED if kept else RecordState.EXPIRED
    assert evaluate(scenario).record is expected
    # The sweep holds the same rule.
    swept = sweep_retention(scenario, [Duration.of_seconds(retention)], [delay])
    assert swept.record == (expected,)


@pytest.mark.parametrize(
    ("delay", "departs"),
    [("3600", False), ("3600.001", True), ("3600.999", True), ("3601", False), ("60", False)],
)
def test_the_departure_is_named_where_the_write_phase_decides(delay: str, departs: bool) -> None:
    # Written later in its second, a real record expires sooner: at 3600.5 s it is gone for a
    # write in the second half of a second, kept for one in the first half (every millisecond
    # of the write's second tried).
    d = Decimal(delay)
    phases = {powertools_keeps(EPOCH + Decimal(f) / 1000, d, 3600) for f in range(1000)}
    assert (len(phases) == 2) is departs
    result = evaluate(ContractScenario(profile="powertools", delay_seconds=delay))
    clock = [s for s in result.departures if "whole epoch seconds" in s]
    assert len(clock) == departs


def test_other_profiles_compare_exact_milliseconds() -> None:
    at = evaluate(ContractScenario(profile="stripe", delay_seconds="86399.999"))
    past = evaluate(ContractScenario(profile="brandur-postgres", delay_seconds="259200.001"))
    assert (at.record, past.record) == (RecordState.RETAINED, RecordState.EXPIRED)
    assert at.departures == past.departures == ()
