"""Sequential runs read from their shapes give a trial exactly the segments that running it
gives (the oracle: the trial run at every retention its segments need, ``_from_runs``), and a
run that is not sequential is never read as one."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from asyncfail.lab.faults import FaultPlan, FaultPoint, Injection
from asyncfail.lab.settings import LabSettings
from asyncfail.lab.simulation import execute
from asyncfail.risk import shapes as shapes_module
from asyncfail.risk.draws import Draw, Drawer
from asyncfail.risk.inputs import RiskInputs
from asyncfail.risk.shapes import RunShape, ShapeBook, attempt_starts, sequential
from asyncfail.risk.trials import TrialRunner

KNOBS = st.fixed_dictionaries(
    {},
    optional={
        "receiver": st.sampled_from(["lookup-only", "dedupe"]),
        "boundary": st.sampled_from(["expired-at-boundary", "retained-at-boundary"]),
        "record": st.sampled_from(["atomic", "separate"]),
        "key": st.sampled_from(["stable", "per-attempt"]),
        "lookup": st.sampled_from(["available", "outage"]),
        "on_lookup_outage": st.sampled_from(["fail-closed", "fail-open"]),
        "store": st.sampled_from(["available", "outage"]),
        "on_store_outage": st.sampled_from(["fail-closed", "fail-open"]),
        "schedule": st.sampled_from(["fixed", "temporal", "restate"]),
        "claim": st.sampled_from(["none", "lease"]),
        "fencing": st.sampled_from(["none", "token"]),
        "retention": st.sampled_from(["0", "0.001", "15", "30", "60", "3600", "86400"]),
    },
)


@settings(max_examples=40, deadline=None, derandomize=True)
@given(
    seed=st.integers(min_value=0, max_value=10_000),
    mode=st.sampled_from(["naive", "durable", "checkpoint"]),
    jitter=st.sampled_from(["none", "full", "equal"]),
    deliveries=st.integers(min_value=1, max_value=5),
    replay=st.sampled_from([None, "60", "86400"]),
    knobs=KNOBS,
)
def test_a_trial_read_from_shapes_is_the_trial_run(
    seed: int,
    mode: str,
    jitter: str,
    deliveries: int,
    replay: str | None,
    knobs: dict[str, str],
) -> None:
    if mode == "naive":
        knobs = {k: v for k, v in knobs.items() if k != "key"}
    question = RiskInputs.model_validate(
        {"trials": 60, "seed": seed, "mode": mode, "jitter": jitter, "deliveries": deliveries,
         "crash_probability": 0.25, "loss_probability": 0.1, "outage_probability": 0.1,
         "replay_median": replay, "settings": knobs}
    )  # fmt: skip
    drawer, read, run = Drawer(question), TrialRunner(question), TrialRunner(question)
    read_from_shapes = 0
    for _ in range(question.trials):
        draw = drawer.draw()
        segments = read._from_shapes(draw)
        if segments is not None:
            read_from_shapes += 1
            assert segments == run._from_runs(draw), draw
    assert read_from_shapes == question.trials, "one worker, no pause: every run is sequential"


REUSED = [
    {"jitter": "full", "settings": {"retention": "20"}},
    {"jitter": "equal", "deliveries": 3, "settings": {"retention": "40", "receiver": "dedupe"}},
    {"jitter": "full", "deliveries": 3, "mode": "checkpoint", "loss_probability": 0.05,
     "settings": {"retention": "25", "boundary": "retained-at-boundary", "receiver": "dedupe"}},
    {"deliveries": 1, "settings": {"retention": "86400", "receiver": "dedupe"}},
]  # fmt: skip


@pytest.mark.parametrize("fields", REUSED)
def test_a_shape_read_again_at_other_delays_is_the_trial_run(
    fields: dict[str, object], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Few injection sets, many draws: most trials whose records can expire are read from a
    # shape another draw's answers made, not from a run of their own.
    question = RiskInputs.model_validate({"trials": 1000, "crash_probability": 0.05} | fields)
    runs_at_a_retention = []
    run_shape = ShapeBook._run

    def counted(book: ShapeBook, draw: Draw, starts: tuple[int, ...], retention: int | None):
        if retention is not None:
            runs_at_a_retention.append(draw)
        return run_shape(book, draw, starts, retention)

    monkeypatch.setattr(ShapeBook, "_run", counted)
    drawer, read, run = Drawer(question), TrialRunner(question), TrialRunner(question)
    reused = 0
    for _ in range(question.trials):
        draw, runs_before = drawer.draw(), len(runs_at_a_retention)
        segments = read._from_shapes(draw)
        assert segments is not None and segments == run._from_runs(draw), draw
        reused += len(segments) > 1 and len(runs_at_a_retention) == runs_before
    assert reused >= 10, "trials read at a retention from shapes other draws made"


def test_a_draw_with_a_pause_or_two_workers_is_run() -> None:
    one = RiskInputs.model_validate({"trials": 1, "pause_probability": 0.5})
    two = RiskInputs.model_validate({"trials": 1, "settings": {"workers": 2}})
    crash = ((1, FaultPoint.AFTER_EFFECT),)
    pause = ((1, FaultPoint.PAUSE_IN_REQUEST),)
    assert sequential(one, crash) and not sequential(one, pause)
    assert not sequential(two, crash) and not sequential(two, ())


def test_attempts_start_after_their_delays_and_the_replay_after_the_last() -> None:
    assert attempt_starts((), None) == (0, 0)
    assert attempt_starts((30, 0, 45), None) == (0, 0, 30, 30, 75)
    assert attempt_starts((30, 45), 1000) == (0, 0, 30, 75, 1075)


def test_a_run_that_is_not_sequential_has_no_shape() -> None:
    # Two workers and a pause: the second worker takes over while the first is paused, so
    # events of the first delivery happen after the second one starts.
    settings = LabSettings.model_validate({"workers": 2, "lease": "10", "pause": "60"})
    plan = FaultPlan.of(Injection(attempt=1, point=FaultPoint.PAUSE_AFTER_EFFECT))
    run = execute(RiskInputs().mode, plan, 2, settings, (30_000,))
    starts = attempt_starts((30_000,), None)
    assert RunShape.of(run.events, starts, None, settings.boundary) is None
    # The same events read at the starts they had, with one worker, do have a shape.
    one = execute(RiskInputs().mode, FaultPlan.of(), 2, LabSettings(), (30_000,))
    assert RunShape.of(one.events, starts, None, settings.boundary) is not None


def test_an_answer_the_retention_would_not_give_has_no_shape() -> None:
    # A crash after the effect: the redelivery's lookup finds the record, 30 s old. Read as a
    # run at a retention of 10 s it would have found it expired: not the run it claims to be.
    plan = FaultPlan.of(Injection(attempt=1, point=FaultPoint.AFTER_EFFECT))
    run = execute(RiskInputs().mode, plan, 2, LabSettings(), (30_000,))
    starts = attempt_starts((30_000,), None)
    boundary = LabSettings().boundary
    shape = RunShape.of(run.events, starts, None, boundary)
    assert shape is not None and shape.checks == ((2, 1),) and shape.kept == (True,)
    assert list(shape.ages(starts)) == [30_000]
    assert RunShape.of(run.events, starts, 10_000, boundary) is None


def test_the_shapes_remembered_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(shapes_module, "REMEMBERED_SETS", 5)
    question = RiskInputs.model_validate(
        {"trials": 300, "jitter": "full", "deliveries": 4, "crash_probability": 0.4}
    )
    drawer, book = Drawer(question), ShapeBook(question)
    sizes = []
    for _ in range(question.trials):
        draw = drawer.draw()
        book.first(draw, attempt_starts(draw.delays, draw.replay))
        sizes.append(len(book.books))
    assert max(sizes) == 5
