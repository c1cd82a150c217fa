"""Issue 20, defect 2: faults are drawn for every delivery of the budget and for the operator's
replay, so a replay that fails can show in an estimate."""

import pytest

from asyncfail.lab.reading import Outcome
from asyncfail.risk.draws import Drawer
from asyncfail.risk.inputs import RiskInputs
from asyncfail.risk.report import assess


@pytest.mark.parametrize("deliveries", [1, 2])
def test_a_certain_crash_strikes_the_replay_too(deliveries: int) -> None:
    # By hand: with every crash point certain, the naive loop dies before dispatching on each
    # delivery of the budget, the channel gives up, the operator replays, and the replay dies
    # before dispatching as well: every trial loses the debit. Were the replay spared, it would
    # debit once and every trial would end exactly once.
    question = RiskInputs.model_validate(
        {"trials": 20, "mode": "naive", "deliveries": deliveries, "crash_probability": 1}
    )
    run = assess(question)
    assert {t.at(run.report.retention).outcome for t in run.trials} == {Outcome.LOST}
    assert run.report.lost.count == 20


def test_faults_are_drawn_for_the_budget_plus_one_attempt_and_no_more() -> None:
    question = RiskInputs.model_validate({"trials": 1, "deliveries": 3, "crash_probability": 1})
    attempts = {a for a, _ in Drawer(question).draw().injections}
    assert attempts == {1, 2, 3, 4}
