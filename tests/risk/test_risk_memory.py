"""What ``assess`` keeps while it runs: nothing per trial. The report is tallied as the trials
run, and the runs remembered for reuse are bounded, with the same report either way."""

import pytest

from asyncfail.ground.canonical import to_json
from asyncfail.lab.reading import Outcome
from asyncfail.risk import shapes as shapes_module
from asyncfail.risk import trials as trials_module
from asyncfail.risk.draws import Drawer
from asyncfail.risk.estimates import quantile
from asyncfail.risk.inputs import RiskInputs
from asyncfail.risk.report import RiskRun, assess
from asyncfail.risk.trials import TrialRunner

CASES = [
    {"trials": 1500, "jitter": "full", "crash_probability": 0.2},
    {"trials": 800, "seed": 7, "jitter": "equal", "deliveries": 5, "crash_probability": 0.3,
     "loss_probability": 0.1, "settings": {"retention": "60"}},
    {"trials": 600, "seed": 5, "jitter": "full", "crash_probability": 0.1,
     "pause_probability": 0.2, "settings": {"workers": 2, "retention": "90"}},
]  # fmt: skip


def document(run: RiskRun) -> str:
    return to_json(run.report.model_dump(mode="json"))


@pytest.mark.parametrize("fields", CASES)
def test_a_tiny_memory_of_runs_gives_the_same_report(
    fields: dict[str, object], monkeypatch: pytest.MonkeyPatch
) -> None:
    question = RiskInputs.model_validate(fields)
    full = document(assess(question))
    monkeypatch.setattr(trials_module, "REMEMBERED", 3)
    monkeypatch.setattr(shapes_module, "REMEMBERED_SETS", 3)
    assert document(assess(question)) == full


def test_the_runs_remembered_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    # Two workers and pauses: runs that are not sequential, so run, not read from shapes.
    monkeypatch.setattr(trials_module, "REMEMBERED", 3)
    question = RiskInputs.model_validate(CASES[2])
    drawer, runner = Drawer(question), TrialRunner(question)
    for _ in range(question.trials):
        runner.trial(drawer.draw())
    sizes = [len(table) for shapes in runner.known.values() for table in shapes.values()]
    assert max(sizes) == 3, "full jitter fills a table, and no table grows past the bound"


def test_the_injection_sets_remembered_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(shapes_module, "REMEMBERED_SETS", 5)
    question = RiskInputs.model_validate(CASES[2])
    drawer, runner = Drawer(question), TrialRunner(question)
    sets = []
    for _ in range(question.trials):
        runner.trial(drawer.draw())
        sets.append(len(runner.known))
    assert max(sets) == 5, "a heavy setting draws new sets all the time; the oldest go"


@pytest.mark.parametrize("fields", CASES)
def test_the_tally_is_what_the_trials_say(fields: dict[str, object]) -> None:
    # The oracle: the trials themselves, run again and read one by one.
    run = assess(RiskInputs.model_validate(fields))
    report, trials = run.report, run.trials
    here = [t.at(report.retention) for t in trials]
    settled = sorted(s.settled for s in here)
    assert report.trials == len(trials)
    assert report.duplicate.count == sum(s.outcome is Outcome.DUPLICATE for s in here)
    assert report.lost.count == sum(s.outcome is Outcome.LOST for s in here)
    assert [report.settled.median.millis, report.settled.p90.millis, report.settled.p99.millis,
            report.settled.longest.millis] == [quantile(settled, 0.5), quantile(settled, 0.9),
                                              quantile(settled, 0.99), settled[-1]]  # fmt: skip
    for point in report.curve:
        dups = sum(t.at(point.retention).outcome is Outcome.DUPLICATE for t in trials)
        assert point.duplicate.count == dups == run.steps.at(point.retention)


def test_a_run_keeps_no_trial_until_asked() -> None:
    run = assess(RiskInputs(trials=50))
    assert "trials" not in vars(run)
    assert len(run.trials) == 50 and "trials" in vars(run)


@pytest.mark.parametrize("fields", CASES)
def test_the_replays_drawn_again_are_the_trials_replays(fields: dict[str, object]) -> None:
    run = assess(RiskInputs.model_validate(fields))
    replays = run.replays()
    assert replays == [t.draw.replay for t in run.trials if t.draw.replay is not None]
    assert len(replays) > 0
