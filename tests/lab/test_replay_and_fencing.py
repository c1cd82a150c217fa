"""Issue 20's model defects, each pinned by a hand-derived case: a replayed delivery that fails,
injections that never struck, and a refused request that must not move the fence."""

import pytest

from asyncfail import Mode, Scenario, simulate
from asyncfail.lab.events import EventKind
from asyncfail.lab.faults import FaultPoint, parse_plan
from asyncfail.lab.reading import Outcome, Status
from asyncfail.lab.settings import LabSettings
from asyncfail.lab.simulation import execute

REPLAY = LabSettings.model_validate({"replay_after": "60"})


def kinds(events: object) -> list[EventKind]:
    return [e.kind for e in events]  # type: ignore[attr-defined]


# --- a replayed delivery that fails (issue 20, defect 1) ----------------------------------------


def test_a_replay_that_crashes_after_the_debit_is_an_unknown_outcome() -> None:
    # By hand: delivery 1 dies before dispatching; the budget of one is spent, the channel
    # abandons; an operator replays 60 s later (attempt 2), which debits and dies before it
    # records anything. Nothing that survived knows of the debit: unknown, as the naive loop's
    # crash-after-record with one delivery says, and the channel gives up a second time.
    plan = parse_plan("1:before-dispatch,2:after-effect")
    result = simulate(Scenario(plan=plan, mode=Mode.DURABLE, deliveries=1, settings=REPLAY))
    assert result.counts.effects == 1
    assert result.outcome is Outcome.UNKNOWN
    assert result.status is Status.UNKNOWN
    assert kinds(result.events)[-2:] == [EventKind.PROCESS_CRASHED, EventKind.DELIVERY_ABANDONED]
    assert kinds(result.events).count(EventKind.DELIVERY_ABANDONED) == 2
    assert result.events[-1].attempt == 2


def test_a_replay_that_crashes_before_dispatching_shows_its_abandonment() -> None:
    plan = parse_plan("1:before-dispatch,2:before-dispatch")
    result = simulate(Scenario(plan=plan, mode=Mode.DURABLE, deliveries=1, settings=REPLAY))
    assert result.status is Status.NEVER_APPLIED
    assert kinds(result.events)[-1] is EventKind.DELIVERY_ABANDONED
    assert kinds(result.events).count(EventKind.DELIVERY_ABANDONED) == 2


def test_a_replay_that_succeeds_is_not_abandoned() -> None:
    plan = parse_plan("1:before-dispatch")
    result = simulate(Scenario(plan=plan, mode=Mode.DURABLE, deliveries=1, settings=REPLAY))
    assert result.status is Status.APPLIED_ONCE
    assert kinds(result.events).count(EventKind.DELIVERY_ABANDONED) == 1


@pytest.mark.parametrize(("deliveries", "replay", "accepted"), [(1, True, 2), (3, True, 4)])
def test_a_plan_may_strike_the_replay_and_nothing_past_it(
    deliveries: int, replay: bool, accepted: int
) -> None:
    settings = REPLAY if replay else LabSettings()
    Scenario(plan=parse_plan(f"{accepted}:after-effect"), deliveries=deliveries, settings=settings)
    with pytest.raises(ValueError, match="past the delivery budget"):
        Scenario(
            plan=parse_plan(f"{accepted + 1}:after-effect"),
            deliveries=deliveries,
            settings=settings,
        )


def test_without_a_replay_the_budget_is_the_last_attempt() -> None:
    with pytest.raises(ValueError, match="past the delivery budget"):
        Scenario(plan=parse_plan("2:after-effect"), deliveries=1)


# --- injections that never struck (defect 4) -----------------------------------------------------


def test_a_receiver_crash_in_a_fenced_request_never_strikes() -> None:
    # By hand: worker 1 stalls in its request; its lease runs out and worker 2 (token 2) debits;
    # worker 1 resumes and its request (token 1) is fenced off before it would commit, so the
    # receiver never reaches the point between debit and record: the crash never fired, and the
    # run is the run of the pause alone.
    two = LabSettings.model_validate({"workers": 2, "fencing": "token"})
    both = parse_plan("1:pause-in-request,1:receiver-before-record")
    alone = parse_plan("1:pause-in-request")
    run = execute(Mode.DURABLE, both, 3, two)
    assert run.events == execute(Mode.DURABLE, alone, 3, two).events
    assert EventKind.REQUEST_FENCED in kinds(run.events)
    assert run.fired == frozenset({(1, FaultPoint.PAUSE_IN_REQUEST)})
    assert not run.all_fired(both)


# --- a refused request does not move the fence (defect 5) -----------------------------------------


def test_a_request_refused_as_in_progress_does_not_raise_the_fence() -> None:
    # By hand (dedupe + claim + fencing, two workers): delivery 1 dies before dispatching;
    # delivery 2 (worker 1, token 2) stalls in its request, its key in progress; its lease
    # runs out and delivery 3 (worker 2, token 3) is refused with 409 and releases. Under
    # Kleppmann's fencing only a request the receiver processes moves the fence, so token 2
    # stays the largest admitted: delivery 2 resumes and commits the one debit.
    knobs = {"workers": 2, "receiver": "dedupe", "claim": "lease", "fencing": "token"}
    plan = parse_plan("1:before-dispatch,2:pause-in-request")
    result = simulate(
        Scenario(plan=plan, mode=Mode.DURABLE, settings=LabSettings.model_validate(knobs))
    )
    assert EventKind.REQUEST_IN_PROGRESS in kinds(result.events)
    assert EventKind.REQUEST_FENCED not in kinds(result.events)
    assert result.counts.effects == 1
    (debit,) = [e for e in result.events if e.is_business_effect]
    assert debit.attempt == 2
