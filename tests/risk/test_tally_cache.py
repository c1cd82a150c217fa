"""``assess`` keeps the tallies of its last questions: a question that differs only in its target
(lesson 6's "Target duplicate risk") gets its report without running the trials again, and that
report is the one a fresh run gives."""

from collections.abc import Iterator

import pytest

from asyncfail.ground.durations import Duration
from asyncfail.risk import report
from asyncfail.risk.inputs import RiskInputs
from asyncfail.risk.report import (
    TALLIES_KEPT,
    _replays,
    assess,
    replays,
    report_of,
    tallied,
    trials_question,
)
from asyncfail.risk.trials import PROGRESS_EVERY, run_trials

MINUTE = Duration.of_seconds(60)
SMALL = RiskInputs(trials=2 * PROGRESS_EVERY + 120, seed=7, crash_probability=0.3)
TARGETS = (1e-4, 1e-3, 0.05, 0.5)


def forget() -> None:
    report._TALLIED.clear()
    _replays.cache_clear()


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[RiskInputs]]:
    """The questions whose trials were run, in order."""
    ran: list[RiskInputs] = []

    def run(inputs: RiskInputs):  # type: ignore[no-untyped-def]
        ran.append(inputs)
        return run_trials(inputs)

    forget()
    monkeypatch.setattr(report, "run_trials", run)
    yield ran
    forget()


def test_the_trials_never_read_the_target() -> None:
    # The premise of the cache, checked on the trials themselves: the same draws and runs.
    first, second = (SMALL.model_copy(update={"target": t}) for t in (1e-4, 0.5))
    assert list(run_trials(first)) == list(run_trials(second))


def test_a_new_target_reuses_the_trials_and_reports_as_a_fresh_run(
    counted: list[RiskInputs],
) -> None:
    kept = [assess(SMALL.model_copy(update={"target": t})) for t in TARGETS]
    assert len(counted) == 1
    for target, run in zip(TARGETS, kept, strict=True):
        forget()
        fresh = assess(SMALL.model_copy(update={"target": target}))
        assert run.report == fresh.report
        assert run.report.required.target == target
    assert len(counted) == 1 + len(TARGETS)


def test_other_trials_are_run_and_the_oldest_question_is_forgotten(
    counted: list[RiskInputs],
) -> None:
    questions = [SMALL.model_copy(update={"seed": seed}) for seed in range(TALLIES_KEPT + 1)]
    for question in questions:
        assess(question)
    assert len(counted) == TALLIES_KEPT + 1
    assess(questions[-1])  # kept
    assert len(counted) == TALLIES_KEPT + 1
    assess(questions[0])  # forgotten when the ninth came
    assert len(counted) == TALLIES_KEPT + 2


def test_progress_counts_every_trial_run_or_kept(counted: list[RiskInputs]) -> None:
    told: list[int] = []
    assess(SMALL, progress=told.append)
    assert told == [PROGRESS_EVERY, PROGRESS_EVERY]
    told.clear()
    assess(SMALL.model_copy(update={"target": 0.5}), progress=told.append)
    assert told == [SMALL.trials]


def test_the_replays_are_those_of_a_fresh_draw(counted: list[RiskInputs]) -> None:
    run = assess(SMALL)
    kept = run.replays()
    kept.append(-1)  # a caller's list is its own: the kept draws do not change
    other = assess(SMALL.model_copy(update={"target": 0.5})).replays()
    forget()
    assert other == assess(SMALL).replays() == kept[:-1]
    assert trials_question(SMALL) == trials_question(SMALL.model_copy(update={"target": 0.5}))


def test_one_tally_reports_every_target_as_a_fresh_run(counted: list[RiskInputs]) -> None:
    # Lesson 6 keeps the tally of its trials and reports each target from it.
    tally = tallied(trials_question(SMALL))
    reports = [report_of(SMALL.model_copy(update={"target": t}), tally) for t in TARGETS]
    assert len(counted) == 1
    for target, run in zip(TARGETS, reports, strict=True):
        forget()
        assert run.report == assess(SMALL.model_copy(update={"target": target})).report
        assert replays(run.report.inputs) == run.replays()


@pytest.mark.parametrize(
    "other",
    [
        SMALL.model_copy(update={"trials": SMALL.trials + 1}),
        SMALL.model_copy(
            update={"settings": SMALL.settings.model_copy(update={"retention": MINUTE})}
        ),
    ],
    ids=["more trials", "another retention"],
)
def test_a_tally_of_other_trials_is_refused(other: RiskInputs) -> None:
    tally = tallied(SMALL)
    with pytest.raises(ValueError, match="cannot report"):
        report_of(other, tally)
