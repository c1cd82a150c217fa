"""Issue 20, defect 6: the worker's call has a client timeout. A request stalled at the receiver
for longer than it times out for the worker, which carries on (the durable runtime looks the key
up), while the request runs on and may still commit: a late commit."""

import pytest

from asyncfail import Mode, Scenario, simulate
from asyncfail.ground.durations import Duration, parse_duration
from asyncfail.lab.events import EventKind
from asyncfail.lab.faults import FaultPoint, parse_plan
from asyncfail.lab.reading import Outcome, Status
from asyncfail.lab.settings import DEFAULT_SETTINGS, LabSettings

STALL = parse_plan("1:pause-in-request")


def run(mode: Mode, **knobs: object) -> object:
    settings = LabSettings.model_validate(knobs)
    return simulate(Scenario(plan=STALL, mode=mode, settings=settings))


def kinds(result: object) -> list[EventKind]:
    return [e.kind for e in result.events]  # type: ignore[attr-defined]


def test_the_default_is_botocores_read_timeout() -> None:
    # 60 s: a stall of the default pause (60 s) is not longer than it.
    assert DEFAULT_SETTINGS.client_timeout == Duration.of_seconds(60)
    assert DEFAULT_SETTINGS.pause == DEFAULT_SETTINGS.client_timeout


@pytest.mark.parametrize(
    ("timeout", "times_out"), [("59.999", True), ("60", False), ("60.001", False)]
)
def test_a_stall_times_out_only_when_longer_than_the_timeout(timeout: str, times_out: bool) -> None:
    result = run(Mode.DURABLE, pause="60", client_timeout=timeout)
    timeouts = [e for e in result.events if e.kind is EventKind.TIMEOUT_OBSERVED]  # type: ignore[attr-defined]
    assert bool(timeouts) is times_out
    if times_out:
        (seen,) = timeouts
        assert (seen.point, seen.at) == (FaultPoint.PAUSE_IN_REQUEST, parse_duration(timeout))


def test_the_durable_runtime_looks_up_and_the_late_commit_lands() -> None:
    # By hand (lookup-only receiver, 5 s timeout, 60 s stall): at 5 s the worker times out and
    # looks the key up; the stalled request has not committed, so the lookup finds nothing and
    # the worker calls again: debit at 5 s, recorded, acknowledged. At 60 s the stalled request
    # commits anyway: a second debit, after the run looked finished.
    result = run(Mode.DURABLE, client_timeout="5")
    assert kinds(result) == [
        EventKind.DISPATCH_INTENT_RECORDED,
        EventKind.WORKER_PAUSED,
        EventKind.WORKER_RESUMED,
        EventKind.TIMEOUT_OBSERVED,
        EventKind.OPERATION_LOOKUP_MISSING,
        EventKind.TOOL_CALLED_AGAIN,
        EventKind.DEBIT_APPLIED,
        EventKind.TOOL_RESULT_RECORDED,
        EventKind.DEBIT_APPLIED_AGAIN,
    ]
    late = result.events[-1]  # type: ignore[attr-defined]
    assert late.at == Duration.of_seconds(60) and late.attempt == 1
    assert result.outcome is Outcome.DUPLICATE  # type: ignore[attr-defined]


def test_an_in_progress_record_turns_the_retry_away_until_the_late_commit() -> None:
    # With a deduplicating receiver the retry at 5 s is refused (409: the key is executing);
    # the delivery is released and redelivered at 35 s (still executing: refused again) and at
    # 65 s, when the late commit (60 s) has written the record: the lookup finds it.
    result = run(Mode.DURABLE, client_timeout="5", receiver="dedupe")
    assert result.counts.effects == 1  # type: ignore[attr-defined]
    assert kinds(result).count(EventKind.REQUEST_IN_PROGRESS) == 2
    assert result.status is Status.TOLD_TO_RETRY  # type: ignore[attr-defined]
    (debit,) = [e for e in result.events if e.is_business_effect]  # type: ignore[attr-defined]
    assert (debit.attempt, debit.at) == (1, Duration.of_seconds(60))


def test_the_naive_loop_retries_blindly_and_debits_twice() -> None:
    result = run(Mode.NAIVE, client_timeout="5")
    assert result.counts.effects == 2  # type: ignore[attr-defined]
    assert result.counts.attempts == 1  # type: ignore[attr-defined]


def test_a_receiver_crash_in_a_late_request_still_strikes() -> None:
    # The late request reaches the receiver's point after the worker left: with a separate
    # record the debit commits without its record; nobody is told.
    plan = parse_plan("1:pause-in-request,1:receiver-before-record")
    settings = LabSettings.model_validate(
        {"client_timeout": "5", "record": "separate", "receiver": "dedupe"}
    )
    result = simulate(Scenario(plan=plan, mode=Mode.DURABLE, settings=settings))
    crashed = [e for e in result.events if e.kind is EventKind.RECEIVER_CRASHED]
    assert len(crashed) == 1 and crashed[0].at == Duration.of_seconds(60)


def test_the_explorer_finds_the_late_commit_under_a_short_timeout() -> None:
    from asyncfail.explore.explorer import explore

    short = LabSettings.model_validate({"client_timeout": "5"})
    report = explore(Mode.DURABLE, short, 3, 1).invariants[0]
    assert report.counterexample is not None
    assert report.counterexample.plan == STALL.injections
    assert explore(Mode.DURABLE, LabSettings(), 3, 1).invariants[0].violations == 0
