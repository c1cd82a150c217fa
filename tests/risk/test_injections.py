"""What a trial costs: the injections it draws on average, against the draws themselves and
against a count worked by hand."""

import statistics

import pytest

from asyncfail.lab.faults import FAILURE_AT, Failure, FaultPoint
from asyncfail.risk.draws import Drawer, expected_injections
from asyncfail.risk.inputs import RiskInputs

CRASH_POINTS = sum(FAILURE_AT[p] in (Failure.CRASH, Failure.RECEIVER_CRASH) for p in FaultPoint)


@pytest.mark.parametrize(("deliveries", "crash"), [(1, 0.5), (2, 0.05), (9, 0.5), (9, 1.0)])
def test_a_crash_rate_draws_at_each_crash_point_of_each_delivery_and_the_replay(
    deliveries: int, crash: float
) -> None:
    # By hand: the fixed schedule offers every delivery of the budget, then the replay.
    inputs = RiskInputs(deliveries=deliveries, crash_probability=crash, loss_probability=0)
    worked = (deliveries + 1) * CRASH_POINTS * crash
    assert expected_injections(inputs) == pytest.approx(worked)


def test_a_named_fault_adds_the_injection_every_trial_makes() -> None:
    quiet = RiskInputs(crash_probability=0, loss_probability=0, outage_probability=0)
    assert expected_injections(quiet) == 0
    named = RiskInputs(
        crash_probability=0, loss_probability=0, outage_probability=0, fault="crash-after-effect"
    )
    assert expected_injections(named) == 1


@pytest.mark.parametrize(
    "fields",
    [
        {"deliveries": 9, "crash_probability": 0.1, "loss_probability": 0.05},
        {"deliveries": 3, "crash_probability": 0.2, "outage_probability": 0.1, "jitter": "full"},
    ],
)
def test_the_mean_is_what_the_trials_draw(fields: dict[str, object]) -> None:
    inputs = RiskInputs.model_validate({"seed": 7, **fields})
    drawer = Drawer(inputs)
    counts = [len(drawer.draw().injections) for _ in range(20_000)]
    mean, spread = statistics.fmean(counts), statistics.stdev(counts)
    assert abs(mean - expected_injections(inputs)) < 4 * spread / len(counts) ** 0.5
