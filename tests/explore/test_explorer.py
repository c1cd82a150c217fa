"""The explorer: honest counts, the invariants at their boundaries, minimal counterexamples
checked by brute force, and verdicts that agree with the lab run by run."""

import json
import os
import subprocess
import sys
from itertools import combinations
from math import comb

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from asyncfail import Fault, FaultPlan, FaultPoint, Injection, Mode, Scenario, simulate
from asyncfail.explore.explorer import explore, plan_runs
from asyncfail.explore.invariants import Invariant, broken_by, status_is_borne_out
from asyncfail.lab.events import Event, EventKind
from asyncfail.lab.faults import parse_plan, plan_text
from asyncfail.lab.reading import Status
from asyncfail.lab.settings import LabSettings
from asyncfail.lab.simulation import run_plan
from tests.cli_support import run_main

POINTS = list(FaultPoint)
SEED = LabSettings()


def effects_of(events: tuple[Event, ...]) -> int:
    # Written apart from the library: the ledger's debits, by event name.
    return sum(1 for e in events if e.kind.value in {"DebitApplied", "DebitAppliedAgain"})


# --- counts ------------------------------------------------------------------------------------


@pytest.mark.parametrize("max_faults", [0, 1, 2, 3])
def test_every_plan_is_explored_once(max_faults: int) -> None:
    # Eleven points at each of three deliveries: 33 injections; a plan is a subset of them.
    injections = len(POINTS) * 3
    expected = sum(comb(injections, k) for k in range(max_faults + 1))
    assert explore(Mode.DURABLE, SEED, 3, max_faults).explored == expected


def test_a_schedule_that_stops_early_bounds_the_attempts() -> None:
    # Step Functions retries three times: four deliveries at most, whatever the budget.
    capped = LabSettings(schedule="step-functions")
    assert explore(Mode.DURABLE, capped, 9, 1).explored == 1 + len(POINTS) * 4


def test_plans_that_never_fire_are_counted_apart() -> None:
    # Worked by hand for the naive loop and one injection: only the eight points a clean first
    # delivery passes can strike (before-dispatch and its pause, request and its pause at the
    # receiver, response, after-effect and its pause, after-record: it writes no journal,
    # looks nothing up, sends no key), and with one worker no single injection makes a second
    # delivery come. So 25 of the 33 one-injection plans never fire, and with the empty plan
    # 34 plans are explored.
    result = explore(Mode.NAIVE, SEED, 3, 1)
    assert (result.explored, result.unreachable) == (34, 25)


# --- what the explorer finds (the issue's expected results, derived) --------------------------


def test_the_naive_loop_debits_twice_under_a_single_fault() -> None:
    report = explore(Mode.NAIVE, SEED, 3, 1).invariants[0]
    assert report.name is Invariant.AT_MOST_ONCE and report.violations > 0
    assert report.counterexample is not None and len(report.counterexample.plan) == 1
    assert report.counterexample.counts.effects == 2


@pytest.mark.parametrize("max_faults", [1, 2])
def test_the_durable_runtime_never_debits_twice_under_the_seeds_assumptions(
    max_faults: int,
) -> None:
    (at_most_once, *_) = explore(Mode.DURABLE, SEED, 3, max_faults).invariants
    assert at_most_once.violations == 0 and at_most_once.counterexample is None


@pytest.mark.parametrize(
    "knobs", [{"key": "per-attempt"}, {"retention": "30", "redelivery_delay": "60"}]
)
def test_a_broken_assumption_has_a_one_fault_counterexample(knobs: dict[str, str]) -> None:
    settings_ = LabSettings.model_validate(knobs)
    (report, *_) = explore(Mode.DURABLE, settings_, 3, 2).invariants
    assert report.counterexample is not None
    assert [(i.attempt, i.point) for i in report.counterexample.plan] == [
        (1, FaultPoint.AFTER_EFFECT)
    ]


def test_three_crashes_before_dispatch_lose_the_debit_and_a_fourth_delivery_saves_it() -> None:
    lost = explore(Mode.DURABLE, SEED, 3, 3).invariants[1]
    assert lost.name is Invariant.NO_SILENT_LOSS and lost.counterexample is not None
    assert plan_text(FaultPlan(injections=lost.counterexample.plan)) == (
        "1:before-dispatch,2:before-dispatch,3:before-dispatch"
    )
    assert lost.counterexample.status is Status.NEVER_APPLIED
    assert explore(Mode.DURABLE, SEED, 4, 3).invariants[1].violations == 0


# --- minimality, by brute force ---------------------------------------------------------------


CASES = [
    (Mode.NAIVE, SEED),
    (Mode.DURABLE, LabSettings(key="per-attempt")),
    (Mode.DURABLE, LabSettings(on_lookup_outage="fail-open")),
    (Mode.DURABLE, LabSettings(on_store_outage="fail-open")),
]


@pytest.mark.parametrize(("mode", "settings_"), CASES)
def test_no_smaller_plan_debits_twice(mode: Mode, settings_: LabSettings) -> None:
    report = explore(mode, settings_, 3, 2).invariants[0]
    assert report.counterexample is not None
    size = len(report.counterexample.plan)
    events = len(report.counterexample.events)
    space = [(a, p) for a in (1, 2, 3) for p in POINTS]
    for k in range(size + 1):
        for chosen in combinations(space, k):
            plan = FaultPlan.of(*(Injection(attempt=a, point=p) for a, p in chosen))
            trace = run_plan(mode, plan, 3, settings_)
            if effects_of(trace) > 1:
                assert k == size, f"{plan_text(plan)} is smaller and debits twice"
                assert len(trace) >= events, f"{plan_text(plan)} has fewer events"


# --- verdicts agree with the lab, plan by plan --------------------------------------------------

injection = st.builds(
    Injection, attempt=st.integers(min_value=1, max_value=3), point=st.sampled_from(POINTS)
)
knob = st.fixed_dictionaries(
    {},
    optional={
        "key": st.sampled_from(["stable", "per-attempt"]),
        "receiver": st.sampled_from(["lookup-only", "dedupe"]),
        "record": st.sampled_from(["atomic", "separate"]),
        "on_lookup_outage": st.sampled_from(["fail-closed", "fail-open"]),
        "on_store_outage": st.sampled_from(["fail-closed", "fail-open"]),
    },
)


@settings(max_examples=60, deadline=None)
@given(
    injections=st.lists(injection, max_size=2, unique=True),
    mode=st.sampled_from(list(Mode)),
    knobs=knob,
)
def test_each_plans_verdict_is_the_labs(
    injections: list[Injection], mode: Mode, knobs: dict[str, str]
) -> None:
    settings_ = LabSettings.model_validate(knobs)
    plan = FaultPlan.of(*injections)
    result = simulate(Scenario(plan=plan, mode=mode, settings=settings_))
    (run,) = [r for r in plan_runs(mode, settings_, 3, 2) if r.plan == plan]
    assert run.broken == broken_by(result)
    assert run.result.events == result.events
    assert (Invariant.AT_MOST_ONCE in run.broken) == (effects_of(result.events) > 1)


# --- the invariants at their boundaries --------------------------------------------------------


def trace(*kinds: str) -> tuple[Event, ...]:
    from asyncfail.ground.durations import Duration

    return tuple(
        Event(seq=i, kind=EventKind(kind), attempt=1, at=Duration(0))
        for i, kind in enumerate(kinds, 1)
    )


@pytest.mark.parametrize(
    ("status", "kinds", "borne_out"),
    [
        (Status.RECOVERED_BY_KEY, ("DebitApplied", "OperationLookupFound"), True),
        (Status.RECOVERED_BY_KEY, ("DebitApplied", "OperationLookupMissing"), False),
        (
            Status.RECOVERED_BY_KEY,
            ("DebitApplied", "DebitAppliedAgain", "OperationLookupFound"),
            False,
        ),
        (Status.RECOVERED_FROM_STORE, ("DebitApplied", "ToolResultReplayed"), True),
        (Status.RECOVERED_FROM_STORE, ("DebitApplied",), False),
        (Status.DEDUPLICATED, ("DebitApplied", "RequestDeduplicated"), True),
        (Status.DEDUPLICATED, ("DebitApplied",), False),
        (
            Status.RETRIED_AFTER_LOOKUP,
            ("OperationLookupMissing", "ToolCalledAgain", "DebitApplied"),
            True,
        ),
        (
            Status.RETRIED_AFTER_LOOKUP,
            ("ToolCalledAgain", "OperationLookupMissing", "DebitApplied"),
            False,
        ),
        (Status.APPLIED_ONCE, ("DebitApplied",), True),
        (Status.APPLIED_ONCE, ("DebitApplied", "DeliveryAbandoned"), False),
        (Status.APPLIED_ONCE, (), False),
        (Status.APPLIED_BUT_ABANDONED, ("DebitApplied", "DeliveryAbandoned"), True),
        (Status.NEVER_APPLIED, (), True),
        (Status.NEVER_APPLIED, ("DebitApplied",), False),
        (Status.DUPLICATE, ("DebitApplied", "DebitAppliedAgain"), True),
        (Status.DUPLICATE, ("DebitApplied",), False),
        (Status.PARKED, ("OperationParked",), True),
        (Status.PARKED, ("DebitApplied",), False),
        (Status.UNKNOWN, ("DebitApplied",), True),
        (Status.UNKNOWN, ("DebitApplied", "DebitAppliedAgain"), False),
    ],
)
def test_a_status_is_borne_out_only_by_its_evidence(
    status: Status, kinds: tuple[str, ...], borne_out: bool
) -> None:
    assert status_is_borne_out(status, trace(*kinds)) is borne_out


@pytest.mark.parametrize("mode", list(Mode))
@pytest.mark.parametrize(
    "knobs",
    [
        {},
        {"key": "per-attempt", "record": "separate"},
        {"receiver": "dedupe"},
        {"on_lookup_outage": "fail-open", "on_store_outage": "fail-open"},
    ],
)
def test_the_labs_statuses_never_overclaim(mode: Mode, knobs: dict[str, str]) -> None:
    report = explore(mode, LabSettings.model_validate(knobs), 3, 3).invariants[2]
    assert report.name is Invariant.TRUTHFUL_STATUS and report.violations == 0


def test_a_lost_debit_must_say_so_and_an_applied_one_must_not_deny_it() -> None:
    lost = simulate(Scenario(fault=Fault.CRASH_BEFORE_DISPATCH, deliveries=1))
    assert lost.status is Status.NEVER_APPLIED and Invariant.NO_SILENT_LOSS in broken_by(lost)
    unknown = simulate(Scenario(fault=Fault.CRASH_AFTER_EFFECT, deliveries=1))
    assert unknown.status is Status.UNKNOWN and broken_by(unknown) == ()


# --- the command line --------------------------------------------------------------------------


def test_every_counterexample_replays_as_its_command() -> None:
    for mode, settings_ in CASES:
        for report in explore(mode, settings_, 3, 2).invariants:
            found = report.counterexample
            if found is None:
                continue
            code, out, _ = run_main(*found.command.split()[1:])
            doc = json.loads(out)
            assert code == 0
            assert doc["events"] == [e.model_dump(mode="json") for e in found.events]
            assert doc["counts"] == found.counts.model_dump(mode="json")
            assert parse_plan(found.command.split("--plan ")[1].split()[0]).injections == (
                found.plan
            )


def test_the_json_document_has_the_issues_fields_and_its_schema() -> None:
    code, out, _ = run_main("explore", "--mode", "naive", "--max-faults", "1")
    doc = json.loads(out)
    assert code == 0
    assert {"explored", "unreachable", "invariants"} <= set(doc)
    assert [i["name"] for i in doc["invariants"]] == [i.value for i in Invariant]
    (at_most_once, *_) = doc["invariants"]
    assert set(at_most_once) >= {"name", "violations", "counterexample"}
    assert set(at_most_once["counterexample"]) >= {"plan", "events", "counts"}
    assert at_most_once["counterexample"]["plan"] == [{"attempt": 1, "point": "response"}]
    schema = json.loads(run_main("schema", "explore")[1])
    jsonschema.validate(doc, schema)


def test_no_violation_still_exits_0_and_says_how_many_plans() -> None:
    code, out, _ = run_main("explore", "--format", "text")
    found = explore()
    assert code == 0
    fired = found.explored - found.unreachable
    assert f"at-most-once     holds in every one of {fired} plans that fired" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--max-faults", "4"], "must be a whole number from 0 to 3"),
        (["--mode", "eager"], "invalid choice"),
        (["--deliveries", "0"], "must be a whole number from 1 to 9"),
        (["--retention", "soon"], "--retention"),
    ],
)
def test_bad_input_exits_2_with_one_line(argv: list[str], message: str) -> None:
    code, out, err = run_main("explore", *argv)
    assert (code, out) == (2, "") and err.count("\n") == 1 and message in err


def test_two_processes_print_the_same_bytes() -> None:
    argv = [sys.executable, "-m", "asyncfail", "explore", "--key", "per-attempt"]
    outputs = {
        subprocess.run(
            argv, capture_output=True, check=True, env=os.environ | {"PYTHONHASHSEED": seed}
        ).stdout
        for seed in ("1", "2")
    }
    assert len(outputs) == 1
