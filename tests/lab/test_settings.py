"""Every assumption of the seed as a setting: what the learner must be able to see, the clock,
and the properties that hold while the seed's assumptions do."""

import json

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from asyncfail import Fault, FaultPlan, FaultPoint, Injection, Mode, Scenario, simulate
from asyncfail.ground.durations import Duration
from asyncfail.lab.events import EventKind
from asyncfail.lab.reading import counts_of
from asyncfail.lab.scenario import MAX_DELIVERIES, command_line
from asyncfail.lab.schedules import Schedule, delivery_times, redelivery_delays
from asyncfail.lab.settings import LabSettings
from asyncfail.lab.simulation import run_plan
from tests.cli_support import run_main


def run(fault: str, mode: str = "durable", **knobs: object) -> tuple[int, str, str]:
    result = simulate(
        Scenario(fault=Fault(fault), mode=Mode(mode), settings=LabSettings.model_validate(knobs))
    )
    return result.counts.effects, result.outcome.value, result.status.value


# --- what the learner must be able to see (the list, one test each) ------------------


def test_a_key_per_attempt_misses_its_own_debit() -> None:
    assert run("crash-after-effect", key="per-attempt")[:2] == (2, "duplicate")
    doc = simulate(Scenario(settings=LabSettings(key="per-attempt"))).model_dump(mode="json")
    lookup = next(e for e in doc["events"] if e["kind"] == "OperationLookupMissing")
    assert lookup["key"].endswith(":attempt-2"), "the lookup asks under the new key"


@pytest.mark.parametrize(
    "knobs",
    [{"key": "per-attempt"}, {"store": "outage"}, {"lookup": "outage"},
     {"on_lookup_outage": "fail-open"}, {"record": "separate"}, {"receiver": "dedupe"}],
)  # fmt: skip
def test_naive_is_unaffected_by_durable_only_settings(knobs: dict[str, str]) -> None:
    for fault in Fault:
        seed = simulate(Scenario(fault=fault, mode=Mode.NAIVE))
        changed = simulate(
            Scenario(fault=fault, mode=Mode.NAIVE, settings=LabSettings.model_validate(knobs))
        )
        assert [e.kind for e in changed.events] == [e.kind for e in seed.events], fault


@pytest.mark.parametrize(
    ("retention", "boundary", "effects"),
    [("30", "expired-at-boundary", 2), ("60", "expired-at-boundary", 2),
     ("60", "retained-at-boundary", 1), ("61", "expired-at-boundary", 1)],
)  # fmt: skip
def test_a_record_that_expires_before_the_lookup_lets_the_debit_repeat(
    retention: str, boundary: str, effects: int
) -> None:
    got = run("crash-after-effect", retention=retention, redelivery_delay="60", boundary=boundary)
    assert got[0] == effects


def test_the_receiver_is_the_last_line_of_defence_when_lookups_fail() -> None:
    open_lookup = {"lookup": "outage", "on_lookup_outage": "fail-open"}
    assert run("crash-after-effect", **open_lookup)[0] == 2
    assert run("crash-after-effect", **open_lookup, receiver="dedupe") == (
        1, "exactly-once", "Deduplicated by the receiver"
    )  # fmt: skip
    assert run("crash-after-effect", lookup="outage") == (
        1, "parked", "Parked for an operator: outcome unknown"
    )  # fmt: skip


def test_a_separate_record_lets_a_receiver_crash_repeat_the_debit() -> None:
    assert run("receiver-crash-before-record", record="atomic")[0] == 1
    assert run("receiver-crash-before-record", record="separate")[0] == 2


def test_a_store_outage_fails_closed_into_a_later_delivery_or_open_into_a_repeat() -> None:
    closed = simulate(Scenario(fault=Fault.NONE, settings=LabSettings(store="outage")))
    assert closed.counts.effects == 1 and closed.counts.attempts == 2
    assert closed.events[0].kind is EventKind.STORE_WRITE_FAILED
    open_store = {"store": "outage", "on_store_outage": "fail-open"}
    assert run("crash-after-effect", **open_store)[0] == 2
    assert run("crash-after-effect", **open_store, receiver="dedupe")[0] == 1


def test_with_every_setting_at_its_default_the_seed_is_unchanged() -> None:
    for fault in Fault:
        for mode in Mode:
            seed = simulate(Scenario(fault=fault, mode=mode))
            assert seed.settings.changed() == () and seed.broken_assumptions == ()


# --- the clock ----------------------------------------------------------------------------------


def seconds(durations: tuple[Duration, ...]) -> list[float]:
    return [float(d.seconds) for d in durations]


def test_named_schedules_are_the_engines_defaults() -> None:
    # Written out from each engine's documentation, not from the code.
    assert seconds(redelivery_delays(Schedule.TEMPORAL, Duration(0), 9)) == [
        1, 2, 4, 8, 16, 32, 64, 100,
    ]  # fmt: skip
    assert seconds(redelivery_delays(Schedule.RESTATE, Duration(0), 5)) == [0.05, 0.1, 0.2, 0.4]
    assert seconds(redelivery_delays(Schedule.STEP_FUNCTIONS, Duration(0), 9)) == [1, 2, 4]
    assert seconds(redelivery_delays(Schedule.FIXED, Duration.of_seconds(30), 3)) == [30, 30]
    assert seconds(delivery_times(Schedule.TEMPORAL, Duration(0), 4)) == [0, 1, 3, 7]


def test_every_event_carries_the_time_of_its_delivery() -> None:
    result = simulate(
        Scenario(fault=Fault.CRASH_AFTER_EFFECT, settings=LabSettings(schedule="temporal"))
    )
    assert {(e.attempt, float(e.at.seconds)) for e in result.events} == {(1, 0.0), (2, 1.0)}


def test_step_functions_stop_after_three_retries_whatever_the_budget() -> None:
    crashes = (Injection(attempt=a, point=FaultPoint.BEFORE_DISPATCH) for a in range(1, 10))
    plan = FaultPlan.of(*crashes)
    events = run_plan(
        Mode.NAIVE,
        plan,
        MAX_DELIVERIES,
        LabSettings(schedule="step-functions"),
    )
    assert counts_of(events).attempts == 4 and events[-1].kind is EventKind.DELIVERY_ABANDONED


# --- properties -----------------------------------------------------------------------------

plans = st.lists(
    st.builds(Injection, attempt=st.integers(1, 5), point=st.sampled_from(list(FaultPoint))),
    max_size=4,
).map(lambda injections: FaultPlan.of(*injections))
clocks = st.fixed_dictionaries(
    {
        "schedule": st.sampled_from(list(Schedule)),
        "boundary": st.sampled_from(["expired-at-boundary", "retained-at-boundary"]),
    }
)


@settings(max_examples=300)
@given(plans, st.integers(1, MAX_DELIVERIES), clocks, st.sampled_from(["lookup-only", "dedupe"]))
def test_under_the_seeds_assumptions_the_durable_runtime_never_debits_twice(
    plan: FaultPlan, deliveries: int, clock: dict[str, str], receiver: str
) -> None:
    knobs = LabSettings.model_validate(clock | {"receiver": receiver})
    assert counts_of(run_plan(Mode.DURABLE, plan, deliveries, knobs)).effects <= 1


runtime_knobs = st.fixed_dictionaries(
    {
        "lookup": st.sampled_from(["available", "outage"]),
        "on_lookup_outage": st.sampled_from(["fail-closed", "fail-open"]),
        "store": st.sampled_from(["available", "outage"]),
        "on_store_outage": st.sampled_from(["fail-closed", "fail-open"]),
        "schedule": st.sampled_from(list(Schedule)),
    }
)


@settings(max_examples=300)
@given(plans, st.integers(1, MAX_DELIVERIES), runtime_knobs)
def test_a_deduplicating_receiver_with_a_stable_key_holds_against_every_runtime_setting(
    plan: FaultPlan, deliveries: int, knobs: dict[str, str]
) -> None:
    # Inside retention (the record lives for the whole run), atomic with the debit.
    settings_ = LabSettings.model_validate(knobs | {"receiver": "dedupe"})
    assert counts_of(run_plan(Mode.DURABLE, plan, deliveries, settings_)).effects <= 1


# --- the CLI ----------------------------------------------------------------------------------


def test_the_command_a_lesson_shows_prints_the_same_run() -> None:
    scenario = Scenario(
        fault=Fault.CRASH_AFTER_EFFECT,
        settings=LabSettings(retention="60", redelivery_delay="0.5", key="per-attempt"),
    )
    words = command_line(scenario).split()
    assert words[:2] == ["asyncfail", "lab"]
    assert "--retention 60" in command_line(scenario)
    code, out, _ = run_main(*words[1:])
    assert code == 0 and json.loads(out) == simulate(scenario).model_dump(mode="json")


def test_the_document_shows_the_settings_and_what_they_break() -> None:
    code, out, _ = run_main("lab", "--retention", "30", "--record", "separate")
    assert code == 0
    doc = json.loads(out)
    assert doc["settings"]["retention"] == 30 and doc["settings"]["record"] == "separate"
    (broken,) = [b for b in doc["broken_assumptions"] if b["assumption"] == 3]
    assert len(broken["by"]) == 2 and broken["text"] == doc["assumptions"][2]


@pytest.mark.parametrize(
    ("argv", "names"),
    [
        (["--key", "sometimes"], ["--key", "stable", "per-attempt"]),
        (["--receiver", "x"], ["--receiver", "lookup-only", "dedupe"]),
        (["--retention", "-1"], ["--retention", "must not be negative"]),
        (["--redelivery-delay", "1e3"], ["--redelivery-delay", "exponent"]),
        (["--schedule", "temporal", "--redelivery-delay", "5"], ["fixed schedule"]),
    ],
)
def test_bad_settings_exit_2_with_one_line(argv: list[str], names: list[str]) -> None:
    code, out, err = run_main("lab", *argv)
    assert (code, out) == (2, "") and err.count("\n") == 1
    for name in names:
        assert name in err


def test_the_schema_covers_every_setting_and_refuses_an_unknown_value() -> None:
    schema = json.loads(run_main("schema")[1])
    argv = ["--retention", "60", "--boundary", "retained-at-boundary", "--lookup", "outage"]
    argv += ["--on-lookup-outage", "fail-open", "--receiver", "dedupe", "--schedule", "temporal"]
    doc = json.loads(run_main("lab", *argv)[1])
    jsonschema.validate(doc, schema)
    assert set(doc["settings"]) == set(schema["$defs"]["LabSettings"]["properties"])
    bad = doc | {"settings": doc["settings"] | {"lookup": "flaky"}}
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(bad, schema)


# --- explicit plans ---------------------------------------------------------------------------


def test_a_plan_runs_on_the_command_line_and_replays_as_its_command() -> None:
    plan = FaultPlan.of(
        Injection(attempt=1, point=FaultPoint.AFTER_EFFECT),
        Injection(attempt=2, point=FaultPoint.LOOKUP),
    )
    scenario = Scenario(plan=plan)
    assert scenario.fault is None
    command = command_line(scenario)
    assert "--plan 1:after-effect,2:lookup" in command and "--fault" not in command
    code, out, _ = run_main(*command.split()[1:])
    doc = json.loads(out)
    assert code == 0 and doc == simulate(scenario).model_dump(mode="json")
    # Worked by hand: the debit, the crash, then the replay's lookup fails and the runtime
    # (failing closed by default) parks the operation.
    assert doc["fault"] is None and doc["outcome"] == "parked"
    assert doc["plan"] == [
        {"attempt": 1, "point": "after-effect"},
        {"attempt": 2, "point": "lookup"},
    ]
    assert [b["assumption"] for b in doc["broken_assumptions"]] == [1]


def test_an_injected_journal_outage_fails_open_into_a_duplicate() -> None:
    # The journal refuses the intent; failing open, the runtime dispatches without it, the
    # worker crashes after the debit, and the redelivery finds no run to reconcile.
    plan = FaultPlan.of(
        Injection(attempt=1, point=FaultPoint.JOURNAL_WRITE),
        Injection(attempt=1, point=FaultPoint.AFTER_EFFECT),
    )
    open_ = LabSettings(on_store_outage="fail-open")
    assert simulate(Scenario(plan=plan, settings=open_)).counts.effects == 2
    assert simulate(Scenario(plan=plan)).counts.effects == 1


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--plan", "1:nowhere"], "'nowhere' is not a fault point"),
        (["--plan", "1"], "'1' is not ATTEMPT:POINT"),
        (["--plan", "0:lookup"], "'0' is not a delivery attempt"),
        (["--plan", "1:lookup,1:lookup"], "'1:lookup' is given twice"),
        (["--plan", "4:lookup"], "injection 4:lookup is past the delivery budget of 3"),
        (["--plan", "1:lookup", "--fault", "none"], "give --fault or --plan, not both"),
        (["--plan", "1:lookup", "--all"], "drop --fault, --plan and --mode"),
    ],
)
def test_a_bad_plan_exits_2_with_one_line(argv: list[str], message: str) -> None:
    code, out, err = run_main("lab", *argv)
    assert (code, out) == (2, "") and err.count("\n") == 1 and message in err


def test_a_scenario_takes_a_fault_or_a_plan_never_both() -> None:
    with pytest.raises(ValueError, match="not both"):
        Scenario(fault=Fault.NONE, plan=FaultPlan())
    assert Scenario(plan=FaultPlan()).fault_plan == FaultPlan()
