"""The instructor guide's plan for Two workers, one debit: every claim true of the model, and
every demo set as the lesson itself sets it.

The expected figures are worked out by hand from the scheduler's rules (``lab/channel.py``: a
lease holds while now < start + lease; a lease that runs out at the instant a pause ends is
handled first; steps take no time), independently of the demos, which print whatever the model
and the explorer say; the demos' settings are checked by running the lesson headless.
"""

from typing import Any

import marimo as mo
import pytest

from asyncfail import Mode, Scenario, simulate
from asyncfail.course import questions, workers_lesson, workers_teaching
from asyncfail.course.timed_demos import WorkersDemo, WorkersTraceDemo
from asyncfail.explore.explorer import explore
from asyncfail.ground.durations import Duration
from asyncfail.handoff.markup import Code
from asyncfail.lab.events import EVENT_KINDS, Event, EventKind
from asyncfail.lab.faults import FaultPlan, parse_plan, plan_text
from asyncfail.lab.reading import Status
from asyncfail.lab.results import LabResult
from asyncfail.lab.scenario import SEED_MODES
from asyncfail.lab.settings import LabSettings
from tests.course.test_assumptions_teaching import _cell_arguments
from tests.notebook_support import load_notebook, run_lesson, visible_text

PLAN = workers_teaching.PLAN
E = EventKind
IN_REQUEST = "1:pause-in-request"


def all_demos() -> list[Any]:
    return [d for r in PLAN.reveals for d in r.demos] + [
        d for m in PLAN.misconceptions for d in m.demos
    ]


def workers_demos() -> list[WorkersDemo]:
    found = [d.demo if isinstance(d, WorkersTraceDemo) else d for d in all_demos()]
    return list(dict.fromkeys(d for d in found if isinstance(d, WorkersDemo)))


def runs(plan: str = IN_REQUEST, **settings: object) -> dict[Mode, LabResult]:
    """Both runtimes with two workers, worker 1 stalling as ``plan`` says."""
    chosen = LabSettings.model_validate({"workers": 2} | settings)
    return {
        m: simulate(Scenario(plan=parse_plan(plan), mode=m, settings=chosen)) for m in SEED_MODES
    }


def effects(plan: str = IN_REQUEST, **settings: object) -> tuple[int, int]:
    """(naive, durable) business effects."""
    found = runs(plan, **settings)
    return found[Mode.NAIVE].counts.effects, found[Mode.DURABLE].counts.effects


def at(events: tuple[Event, ...], kind: EventKind) -> list[tuple[int | None, Duration]]:
    """Which worker each event of ``kind`` was, and when."""
    return [(e.worker, e.at) for e in events if e.kind is kind]


def smallest(**settings: object) -> str | None:
    found = explore(Mode.DURABLE, LabSettings.model_validate({"workers": 2} | settings), 3, 2)
    example = found.invariants[0].counterexample
    return None if example is None else plan_text(FaultPlan(injections=example.plan))


S = Duration.of_seconds


# ---------------------------------------------------------------------------------------------
# The demos are the lesson's own controls


def lesson_controls(demo: WorkersDemo) -> dict[str, object]:
    stall, texts, safeguards = demo.controls()
    return {
        "stall": mo.ui.dropdown({stall: stall}, value=stall),
        "pause": mo.ui.text(value=texts["pause"]),
        "lease": mo.ui.text(value=texts["lease"]),
        "safeguards": mo.ui.dictionary({k: mo.ui.text(value=v) for k, v in safeguards.items()}),
        "skip_prediction": mo.ui.switch(value=True),
    }


def test_every_workers_demo_is_the_run_and_the_verdict_the_lesson_shows() -> None:
    nb = load_notebook(WorkersDemo.lesson)
    demos = workers_demos()
    assert len(demos) >= 12
    for demo in demos:
        page, defs = run_lesson(nb, **lesson_controls(demo))
        assert defs["scenario"] == demo.scenario(), demo
        assert defs["results"] == demo.results(), demo
        if demo.explorer:  # highlighted as code: spans split it, so compare unspaced
            shown = visible_text(page).replace(" ", "")
            for part in demo.shows():
                text = part.text if isinstance(part, Code) else str(part)
                assert text.replace(" ", "")[:60] in shown, demo


def test_the_lesson_opens_on_a_stalled_request_and_no_safeguard() -> None:
    _, defs = run_lesson(load_notebook(WorkersDemo.lesson))
    opening = Scenario(plan=parse_plan(IN_REQUEST), settings=LabSettings(workers=2))
    assert defs["scenario"] == opening == workers_teaching.STALLED.scenario()
    assert (workers_lesson.PAUSE_TEXT, workers_lesson.LEASE_TEXT) == (60, 30)
    assert defs["revealed"] is False
    assert defs["skip_prediction"].value is False  # type: ignore[attr-defined]


def test_the_lesson_asks_for_a_guess_once() -> None:
    read = _cell_arguments(WorkersDemo.lesson, "prediction")
    assert not read & {"stall", "pause", "lease", "safeguards", "scenario", "results"}


def test_a_demo_the_lesson_cannot_set_is_refused() -> None:
    with pytest.raises(ValueError, match="not a control"):
        WorkersDemo((("workers", "3"),))
    with pytest.raises(ValueError, match="no stall"):
        WorkersDemo((("stall", "before-dispatch"),))
    with pytest.raises(ValueError, match="not a choice"):
        WorkersDemo((("claim", "forever"),))
    with pytest.raises(ValueError, match="readable"):
        WorkersDemo((("pause", "a minute"),))


def test_a_demo_names_the_stall_and_its_settings_as_the_lesson_labels_them() -> None:
    demo = WorkersDemo((("claim", "lease"),))
    assert demo.setting() == (
        "Worker 1 stalls: ",
        Code("pause-in-request"),
        "; ",
        Code("--claim"),
        ": lease",
    )
    assert workers_lesson.STALL_LABEL == "**Worker 1 stalls**"
    assert workers_lesson.PAUSE_LABEL.startswith("`--pause`:")
    assert workers_lesson.EXPLORER_TITLE == "## Could a stall elsewhere still debit twice?"


def test_the_plan_fills_a_class_and_ends_on_the_lessons_check() -> None:
    assert PLAN.stem == "05_two_workers"
    assert sum(s.minutes for s in PLAN.segments) == 50
    assert PLAN.check is questions.WORKERS_QUESTION


# ---------------------------------------------------------------------------------------------
# Slow, not dead


def test_a_stall_past_the_lease_debits_twice_with_no_crash_and_no_lost_message() -> None:
    found = runs()
    for result in found.values():
        assert (result.counts.attempts, result.counts.effects) == (2, 2)
        kinds = {e.kind for e in result.events}
        assert not kinds & {E.PROCESS_CRASHED, E.TIMEOUT_OBSERVED, E.RECEIVER_CRASHED}
        assert at(result.events, E.LEASE_EXPIRED) == [(None, S(30))]
    durable = found[Mode.DURABLE].events
    # Worker 2 looks up at 30 s and finds nothing: worker 1's debit has not committed yet.
    assert at(durable, E.OPERATION_LOOKUP_MISSING) == [(2, S(30))]
    assert at(durable, E.DEBIT_APPLIED) == [(2, S(30))]
    assert at(durable, E.WORKER_RESUMED) == [(1, S(60))]
    assert at(durable, E.DEBIT_APPLIED_AGAIN) == [(1, S(60))]
    assert workers_teaching.STALLED_DURABLE.modes == (Mode.DURABLE,)


def test_a_stall_inside_the_lease_changes_nothing_and_one_as_long_loses_it() -> None:
    for mode, result in runs(pause="20").items():
        assert (result.counts.attempts, result.counts.effects) == (1, 1), mode
        assert result.status is Status.APPLIED_ONCE
    assert effects(pause="30") == (2, 2)
    assert workers_teaching.SHORTER == "20"


def test_two_short_stalls_in_one_delivery_outlast_the_lease() -> None:
    two = "1:pause-before-dispatch,1:pause-in-request"
    assert smallest(pause="20") == two
    assert effects(two, pause="20")[1] == 2


# ---------------------------------------------------------------------------------------------
# The safeguards


def test_a_claim_is_checked_before_the_act_not_during_it() -> None:
    assert effects(claim="lease") == (2, 2)
    durable = runs(claim="lease")[Mode.DURABLE].events
    assert at(durable, E.OPERATION_CLAIMED) == [(1, S(0)), (2, S(30))]
    assert at(durable, E.DEBIT_APPLIED) == [(2, S(30))]
    assert at(durable, E.DEBIT_APPLIED_AGAIN) == [(1, S(60))]
    before = runs("1:pause-before-dispatch", claim="lease")
    assert before[Mode.NAIVE].counts.effects == 2
    stopped = before[Mode.DURABLE]
    assert (stopped.counts.effects, stopped.status) == (1, Status.CLAIM_LOST)
    assert at(stopped.events, E.CLAIM_LOST) == [(1, S(60))]
    assert smallest(claim="lease") == IN_REQUEST


def test_fencing_orders_writes_but_does_not_deduplicate_them() -> None:
    fenced = runs(fencing="token")
    assert fenced[Mode.NAIVE].counts.effects == 2
    assert (fenced[Mode.DURABLE].counts.effects, fenced[Mode.DURABLE].status) == (
        1,
        Status.FENCED_OFF,
    )
    assert at(fenced[Mode.DURABLE].events, E.REQUEST_FENCED) == [(1, S(60))]
    # Both stall before dispatch: worker 1 (the older token) lands first, at 60 s; worker 2's
    # newer token is larger than any accepted, so it lands too, at 90 s.
    two = "1:pause-before-dispatch,2:pause-before-dispatch"
    assert smallest(fencing="token") == two
    both = runs(two, fencing="token")[Mode.DURABLE].events
    assert at(both, E.DEBIT_APPLIED) == [(1, S(60))]
    assert at(both, E.DEBIT_APPLIED_AGAIN) == [(2, S(90))]
    assert smallest(claim="lease", fencing="token") is None
    assert smallest(receiver="dedupe") is None


def test_a_409_is_the_in_progress_record_telling_worker_2_to_retry_later() -> None:
    found = runs(receiver="dedupe")
    assert found[Mode.NAIVE].counts.effects == 2
    durable = found[Mode.DURABLE]
    assert (durable.counts.attempts, durable.counts.effects) == (3, 1)
    assert durable.status is Status.TOLD_TO_RETRY
    assert "a concurrent request was told to retry later" in durable.status
    events = durable.events
    assert at(events, E.REQUEST_IN_PROGRESS) == [(2, S(30))]
    assert at(events, E.DEBIT_APPLIED) == [(1, S(60))]
    third = [e.kind for e in events if e.attempt == 3]
    assert third == [E.RUN_REPLAYED, E.TOOL_RESULT_REPLAYED]
    assert "409 Conflict, as the IETF draft and Stripe answer" in (
        EVENT_KINDS[E.REQUEST_IN_PROGRESS].narration
    )


def test_the_naive_loop_uses_no_safeguard() -> None:
    for safeguard in ({"claim": "lease"}, {"fencing": "token"}, {"receiver": "dedupe"}):
        for stall in workers_lesson.STALLS:
            assert effects(f"1:{stall}", **safeguard)[0] == 2


def test_the_sources_the_plan_names() -> None:
    assert "Martin Kleppmann" in workers_lesson.NOTICE


# ---------------------------------------------------------------------------------------------
# The check


def test_the_checks_run_is_the_opening_stall_with_a_claim_and_each_option_can_be_set() -> None:
    prompt = questions.WORKERS_QUESTION.prompt
    assert "claims the operation with a lease" in prompt
    assert "stalls at the receiver after that check" in prompt
    assert effects(claim="lease")[1] == 2  # nothing more
    assert effects(claim="lease", fencing="token")[1] == 1
    assert effects(claim="lease", receiver="dedupe")[1] == 1
    assert effects(claim="lease", pause="120")[1] == 2  # a longer pause
