"""Two workers: a paused one's lease runs out, a second takes over, and the safeguards (claims,
in-progress records, fencing tokens) decide whether the debit happens twice."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from asyncfail import FaultPlan, FaultPoint, Injection, Mode, Scenario, simulate
from asyncfail.explore.explorer import explore
from asyncfail.ground.durations import Duration
from asyncfail.lab.actors import DurableStore
from asyncfail.lab.events import EventKind
from asyncfail.lab.faults import parse_plan, plan_text
from asyncfail.lab.reading import Outcome, Status
from asyncfail.lab.settings import LabSettings
from asyncfail.lab.trace import TraceRecorder
from tests.cli_support import run_main

TWO = {"workers": 2}
FAULT_KINDS = {"ProcessCrashed", "TimeoutObserved", "ReceiverCrashed", "OperationLookupFailed"}


def run(plan: str, mode: str = "durable", **knobs: object) -> object:
    return simulate(
        Scenario(plan=parse_plan(plan), mode=Mode(mode), settings=LabSettings.model_validate(knobs))
    )


def kinds(result: object) -> list[str]:
    return [e.kind.value for e in result.events]  # type: ignore[attr-defined]


# --- what the learner must be able to see ------------------------------------------------------


def test_a_naive_loop_with_two_workers_debits_twice_without_any_fault() -> None:
    # Worked by hand: worker 1 debits and stalls for 60 s; its 30 s lease runs out, worker 2
    # is handed the operation at 30 s and calls again. Nothing crashed, nothing was lost.
    result = run("1:pause-after-effect", "naive", **TWO)
    assert result.counts.effects == 2  # type: ignore[attr-defined]
    assert not FAULT_KINDS & set(kinds(result))
    (expired,) = [e for e in result.events if e.kind is EventKind.LEASE_EXPIRED]  # type: ignore[attr-defined]
    assert expired.at == Duration.of_seconds(30)
    second = [e for e in result.events if e.is_business_effect][1]  # type: ignore[attr-defined]
    assert (second.worker, second.at) == (2, Duration.of_seconds(30))


@pytest.mark.parametrize(
    ("pause", "effects"),
    [("29.999", 1), ("30", 2), ("30.001", 2)],
)
def test_the_lease_runs_out_at_exactly_its_length(pause: str, effects: int) -> None:
    # A lease holds while now < start + lease: a worker back just before 30 s keeps its
    # delivery; at 30 s the channel has already handed it on.
    result = run("1:pause-after-effect", "naive", workers=2, lease="30", pause=pause)
    assert result.counts.effects == effects  # type: ignore[attr-defined]


def test_with_one_worker_a_pause_only_delays() -> None:
    result = run("1:pause-after-effect", "naive", pause="600")
    assert result.counts.effects == 1  # type: ignore[attr-defined]
    assert EventKind.LEASE_EXPIRED.value not in kinds(result)


def test_a_claim_lease_without_fencing_is_beaten_by_a_stall_after_its_check() -> None:
    found = explore(Mode.DURABLE, LabSettings(workers=2, claim="lease"), 3, 2)
    (report, *_) = found.invariants
    assert report.counterexample is not None
    assert plan_text(FaultPlan(injections=report.counterexample.plan)) == "1:pause-in-request"
    events = report.counterexample.events
    assert {e.worker for e in events if e.worker is not None} == {1, 2}
    # The paused first worker's request lands after the second worker's debit.
    effects = [e for e in events if e.is_business_effect]
    assert [e.worker for e in effects] == [2, 1]
    assert found.interleavings >= 2


def test_the_claim_check_stops_a_worker_that_stalled_before_dispatching() -> None:
    result = run("1:pause-before-dispatch", workers=2, claim="lease")
    assert result.counts.effects == 1 and result.status is Status.CLAIM_LOST  # type: ignore[attr-defined]
    assert run("1:pause-before-dispatch", **TWO).counts.effects == 2  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    "knobs",
    [
        {"claim": "lease", "fencing": "token"},
        {"receiver": "dedupe"},
        {"receiver": "dedupe", "claim": "lease"},
    ],
)
def test_fencing_with_a_claim_or_a_deduplicating_receiver_never_debits_twice(
    knobs: dict[str, str],
) -> None:
    for max_faults in (1, 2):
        found = explore(Mode.DURABLE, LabSettings(workers=2, **knobs), 3, max_faults)
        assert found.invariants[0].violations == 0, (knobs, max_faults)


def test_fencing_alone_orders_writes_but_does_not_make_a_debit_idempotent() -> None:
    # Found by the explorer, and worked by hand: both workers look the key up (nothing yet),
    # both stall before dispatching, the older token writes first (nothing newer seen yet),
    # then the newer one writes too. Fencing refuses stale writes; it cannot tell a second
    # debit from a first. One stall is not enough.
    fenced = LabSettings(workers=2, fencing="token")
    assert explore(Mode.DURABLE, fenced, 3, 1).invariants[0].violations == 0
    report = explore(Mode.DURABLE, fenced, 3, 2).invariants[0]
    assert report.counterexample is not None
    assert plan_text(FaultPlan(injections=report.counterexample.plan)) == (
        "1:pause-before-dispatch,2:pause-before-dispatch"
    )


def test_a_request_refused_as_in_progress_is_its_own_outcome() -> None:
    result = run("1:pause-in-request", workers=2, receiver="dedupe")
    assert result.status is Status.TOLD_TO_RETRY  # type: ignore[attr-defined]
    assert result.outcome is Outcome.EXACTLY_ONCE and result.counts.effects == 1  # type: ignore[attr-defined]
    refused = next(e for e in result.events if e.kind is EventKind.REQUEST_IN_PROGRESS)  # type: ignore[attr-defined]
    assert refused.worker == 2 and "409" in refused.description
    # Told to retry later, worker 2 released its delivery; a later one finds the result.
    assert EventKind.TOOL_RESULT_REPLAYED.value in kinds(result)
    assert EventKind.DEBIT_APPLIED_AGAIN.value not in kinds(result)


def test_a_stale_request_is_fenced_off() -> None:
    result = run("1:pause-in-request", workers=2, claim="lease", fencing="token")
    assert result.status is Status.FENCED_OFF and result.counts.effects == 1  # type: ignore[attr-defined]
    fenced = next(e for e in result.events if e.kind is EventKind.REQUEST_FENCED)  # type: ignore[attr-defined]
    assert fenced.worker == 1


def test_a_claim_that_still_holds_turns_another_worker_away() -> None:
    trace = TraceRecorder()
    store = DurableStore(trace, LabSettings(claim="lease", lease="30"))
    assert store.take_claim(1) == 1
    trace.now = Duration.of_seconds(29)
    assert store.take_claim(2) is None
    assert trace.events()[-1].kind is EventKind.CLAIM_HELD
    trace.now = Duration.of_seconds(30)
    assert store.take_claim(2) == 2
    assert not store.claim_holds(1) and store.claim_holds(2)


# --- the scheduler ----------------------------------------------------------------------------

points = list(FaultPoint)


@settings(max_examples=80, deadline=None)
@given(
    injections=st.lists(
        st.builds(
            Injection,
            attempt=st.integers(min_value=1, max_value=3),
            point=st.sampled_from(points),
        ),
        max_size=3,
        unique=True,
    ),
    knobs=st.fixed_dictionaries(
        {},
        optional={
            "claim": st.sampled_from(["none", "lease"]),
            "fencing": st.sampled_from(["none", "token"]),
            "receiver": st.sampled_from(["lookup-only", "dedupe"]),
            "pause": st.sampled_from(["10", "30", "90"]),
        },
    ),
    mode=st.sampled_from(list(Mode)),
)
def test_time_never_runs_backwards_and_every_step_names_its_worker(
    injections: list[Injection], knobs: dict[str, str], mode: Mode
) -> None:
    plan = FaultPlan.of(*injections)
    result = simulate(Scenario(plan=plan, mode=mode, settings=LabSettings(workers=2, **knobs)))
    times = [e.at.millis for e in result.events]
    assert times == sorted(times)
    for e in result.events:
        assert (e.worker is None) == (e.kind in {EventKind.LEASE_EXPIRED,
                                                  EventKind.DELIVERY_ABANDONED})  # fmt: skip
    assert result == simulate(
        Scenario(plan=plan, mode=mode, settings=LabSettings(workers=2, **knobs))
    )


# --- the command line --------------------------------------------------------------------------


def test_lab_and_explore_take_the_concurrency_settings() -> None:
    argv = ["--workers", "2", "--lease", "30", "--pause", "60", "--claim", "lease"]
    code, out, _ = run_main("lab", "--plan", "1:pause-in-request", *argv)
    doc = json.loads(out)
    assert code == 0 and doc["counts"]["effects"] == 2
    assert {e.get("worker") for e in doc["events"]} == {1, 2, None}
    code, out, _ = run_main("explore", "--max-faults", "1", *argv, "--fencing", "token")
    doc = json.loads(out)
    assert code == 0 and doc["invariants"][0]["violations"] == 0 and doc["interleavings"] >= 2


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--workers", "3"], "--workers: must be a whole number from 1 to 2"),
        (["--claim", "forever"], "--claim: invalid choice"),
        (["--fencing", "yes"], "--fencing: invalid choice"),
        (["--lease", "-5"], "--lease"),
    ],
)
def test_bad_concurrency_settings_exit_2(argv: list[str], message: str) -> None:
    for command in ("lab", "explore"):
        code, out, err = run_main(command, *argv)
        assert (code, out) == (2, "") and message in err and err.count("\n") == 1
