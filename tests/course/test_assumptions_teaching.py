"""The instructor guide's plan for Break the assumptions: every claim true of the model, and
every demo set as the lesson itself sets it.

The expected figures are written out by hand from the lab's rules (an oracle independent of
the demos, which print whatever the model says); the demos' settings are checked by running
the lesson headless with the same controls.
"""

import ast
from typing import Any

import marimo as mo
import pytest

from asyncfail import Fault, Mode, Scenario, simulate
from asyncfail.course import assumptions_lesson, assumptions_teaching, questions
from asyncfail.course.setting_demos import SettingsDemo, TimeTraceDemo
from asyncfail.ground.durations import Duration
from asyncfail.handoff.markup import Code
from asyncfail.lab.assumptions import NOT_MODELED, SINGLE_FAULT
from asyncfail.lab.events import EventKind
from asyncfail.lab.faults import parse_plan
from asyncfail.lab.reading import Outcome, Status
from asyncfail.lab.restore import restorations
from asyncfail.lab.results import LabResult
from asyncfail.lab.scenario import SEED_MODES
from asyncfail.lab.schedules import delivery_times
from asyncfail.lab.settings import LabSettings
from tests.notebook_support import NOTEBOOKS, load_notebook, run_lesson

PLAN = assumptions_teaching.PLAN
E = EventKind


def runs(fault: Fault, **settings: object) -> dict[Mode, LabResult]:
    chosen = LabSettings.model_validate(settings)
    return {m: simulate(Scenario(fault=fault, mode=m, settings=chosen)) for m in SEED_MODES}


def effects(fault: Fault, **settings: object) -> tuple[int, int]:
    """(naive, durable) business effects."""
    found = runs(fault, **settings)
    return found[Mode.NAIVE].counts.effects, found[Mode.DURABLE].counts.effects


def changes(scenario: Scenario) -> set[str]:
    """The single changes that restore the durable promise, as the CLI writes them."""
    return {r.change for r in restorations(scenario)}


EXPIRING = {"retention": "60", "redelivery_delay": "60"}
LOOKUP_DOWN_OPEN = {"lookup": "outage", "on_lookup_outage": "fail-open"}
AFTER = Fault.CRASH_AFTER_EFFECT


def all_demos() -> list[Any]:
    return [d for r in PLAN.reveals for d in r.demos] + [
        d for m in PLAN.misconceptions for d in m.demos
    ]


def settings_demos() -> list[SettingsDemo]:
    found = [d.demo if isinstance(d, TimeTraceDemo) else d for d in all_demos()]
    return list(dict.fromkeys(d for d in found if isinstance(d, SettingsDemo)))


# ---------------------------------------------------------------------------------------------
# The demos are the lesson's own controls


def lesson_controls(demo: SettingsDemo) -> dict[str, object]:
    """The controls a learner leaves after choosing the demo's starting point and making its
    changes, as marimo substitutes them."""
    words = assumptions_lesson
    start = words.start_options()[demo.start_label()]
    choices = words.choices_of(start)
    texts = {
        "retention": words.seconds_of(start.settings.retention),
        "redelivery_delay": words.seconds_of(start.settings.redelivery_delay),
        "plan": words.plan_of(start),
        "deliveries": str(start.deliveries),
    }
    for name, value in demo.changes:
        (texts if name in texts else choices)[name] = value
    return {
        "start": mo.ui.dropdown(list(words.start_options()), value=demo.start_label()),
        "choices": mo.ui.dictionary({k: mo.ui.text(value=v) for k, v in choices.items()}),
        "deliveries": mo.ui.number(1, 9, value=int(texts["deliveries"])),
        "retention": mo.ui.text(value=texts["retention"]),
        "delay": mo.ui.text(value=texts["redelivery_delay"]),
        "plan": mo.ui.text(value=texts["plan"]),
        "skip_prediction": mo.ui.switch(value=True),
    }


def test_every_settings_demo_is_the_run_the_lesson_shows_for_its_controls() -> None:
    nb = load_notebook(SettingsDemo.lesson)
    demos = settings_demos()
    assert len(demos) >= 10
    for demo in demos:
        _, defs = run_lesson(nb, **lesson_controls(demo))
        assert defs["scenario"] == demo.scenario(), demo
        assert defs["results"] == demo.results(), demo


def test_a_demo_the_lesson_cannot_set_is_refused() -> None:
    with pytest.raises(ValueError, match="not a control"):
        SettingsDemo(NOT_MODELED, (("mode", "naive"),))
    with pytest.raises(ValueError, match="readable"):
        SettingsDemo(NOT_MODELED, (("retention", "a minute"),))
    with pytest.raises(ValueError, match="readable"):
        SettingsDemo(NOT_MODELED, (("deliveries", "many"),))
    with pytest.raises(ValueError, match="readable"):
        SettingsDemo(NOT_MODELED, (("plan", "9:lookup"),))  # past the budget
    with pytest.raises(ValueError):
        SettingsDemo(NOT_MODELED, (("key", "sideways"),))
    with pytest.raises(ValueError, match="no starting point"):
        SettingsDemo(6)


def test_a_demo_names_its_starting_point_and_its_controls_as_the_lesson_labels_them() -> None:
    demo = SettingsDemo(NOT_MODELED, (("boundary", "retained-at-boundary"),))
    assert demo.setting() == (
        "Start from: 5. a record that expires exactly when the redelivery comes",
        "; ",
        Code("--boundary"),
        ": retained-at-boundary",
    )
    # The option is what the lesson's label for the control starts with.
    assert assumptions_lesson.setting_label("boundary").startswith("`--boundary`:")


def test_the_plan_fills_a_class_and_ends_on_the_lessons_check() -> None:
    assert PLAN.stem == "02_break_the_assumptions"
    assert sum(s.minutes for s in PLAN.segments) == 50
    assert PLAN.check is questions.ASSUMPTIONS_QUESTION


# ---------------------------------------------------------------------------------------------
# How the lesson runs in class


def test_the_lesson_opens_on_the_expiring_record_which_is_the_checks_setting() -> None:
    _, defs = run_lesson(load_notebook(SettingsDemo.lesson))
    opening = Scenario(
        fault=AFTER,
        settings=LabSettings(
            retention=Duration.of_seconds(60), redelivery_delay=Duration.of_seconds(60)
        ),
    )
    assert defs["scenario"] == opening == SettingsDemo(NOT_MODELED).scenario()
    prompt = questions.ASSUMPTIONS_QUESTION.prompt
    assert "records for 60 s" in prompt and "60 s apart" in prompt
    assert "crashes after the debit" in prompt


def test_the_tables_last_two_columns_give_the_answers_away() -> None:
    assert assumptions_lesson.TABLE_HEADER[3:] == ("Durable runtime", "Restored by")
    table = assumptions_lesson.assumption_table()
    assert "2 debits, duplicate" in table and "`--key stable`" in table


def _cell_arguments(stem: str, name: str) -> set[str]:
    """The names the notebook cell that defines ``name`` reads."""
    tree = ast.parse((NOTEBOOKS / f"{stem}.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if not isinstance(node, ast.FunctionDef):
            continue
        returned = [n for n in ast.walk(node) if isinstance(n, ast.Return)]
        if any(name in {getattr(e, "id", None) for e in ast.walk(r)} for r in returned):
            return {a.arg for a in node.args.args}
    raise AssertionError(f"no cell defines {name}")


def test_the_lesson_asks_for_a_guess_once_per_starting_point() -> None:
    # The form is rebuilt (asking again) only when the starting point changes.
    read = _cell_arguments(SettingsDemo.lesson, "prediction")
    assert "start" in read
    assert not read & {"choices", "deliveries", "retention", "delay", "scenario", "results"}


# ---------------------------------------------------------------------------------------------
# A record with an end date


def test_a_record_that_expires_as_the_redelivery_comes() -> None:
    assert effects(AFTER, **EXPIRING) == (2, 2)
    durable = runs(AFTER, **EXPIRING)[Mode.DURABLE]
    second = [e for e in durable.events if e.attempt == 2]
    assert {e.at for e in second} == {Duration.of_seconds(60)}
    assert [e.kind for e in second][:3] == [
        E.RUN_REPLAYED,
        E.RECORD_EXPIRED,
        E.OPERATION_LOOKUP_MISSING,
    ]


def test_a_sooner_redelivery_saves_only_the_durable_runtime() -> None:
    assert effects(AFTER, retention="60", redelivery_delay="30") == (2, 1)
    assert effects(AFTER, retention="60", redelivery_delay="0") == (2, 1)


def test_the_other_convention_counts_the_record_at_its_expiry() -> None:
    assert effects(AFTER, **EXPIRING, boundary="retained-at-boundary") == (2, 1)


def test_a_deduplicating_receiver_needs_the_same_record() -> None:
    assert effects(AFTER, **EXPIRING, receiver="dedupe") == (2, 2)


def test_records_must_outlive_the_last_redelivery_the_channel_may_make() -> None:
    settings = LabSettings.model_validate(EXPIRING)
    assert delivery_times(settings.schedule, settings.redelivery_delay, 3) == tuple(
        Duration.of_seconds(s) for s in (0, 60, 120)
    )
    found = changes(Scenario(fault=AFTER, settings=settings))
    assert {"--retention 120.001", "--boundary retained-at-boundary"} <= found
    assert "--receiver dedupe" not in found


# ---------------------------------------------------------------------------------------------
# A new key every time


def test_a_key_per_attempt_is_looked_up_but_never_stored() -> None:
    assert effects(AFTER, key="per-attempt") == (2, 2)
    assert effects(AFTER, key="per-attempt", receiver="dedupe") == (2, 2)
    durable = runs(AFTER, key="per-attempt")[Mode.DURABLE].events
    stored = {e.key for e in durable if e.kind is E.DEBIT_APPLIED}
    (lookup,) = [e for e in durable if e.kind is E.OPERATION_LOOKUP_MISSING]
    assert lookup.attempt == 2 and lookup.key not in stored
    assert lookup.at == Duration.of_seconds(30)
    scenario = Scenario(fault=AFTER, settings=LabSettings(key="per-attempt"))
    assert changes(scenario) == {"--key stable"}


# ---------------------------------------------------------------------------------------------
# Atomic or nothing

CUT = Fault.RECEIVER_CRASH_BEFORE_RECORD


def test_a_separate_record_lost_with_the_receiver_means_a_second_debit_in_one_attempt() -> None:
    found = runs(CUT, record="separate")
    naive, durable = found[Mode.NAIVE], found[Mode.DURABLE]
    assert (durable.counts.attempts, durable.counts.effects) == (1, 2)
    kinds = [e.kind for e in durable.events]
    assert kinds.index(E.RECEIVER_CRASHED) < kinds.index(E.OPERATION_LOOKUP_MISSING)
    # The naive loop's request carries no key: no record to crash before, one debit.
    assert (naive.counts.attempts, naive.counts.effects) == (1, 1)
    assert all(e.key is None for e in naive.events)
    assert E.RECEIVER_CRASHED not in {e.kind for e in naive.events}
    assert effects(CUT, record="separate", receiver="dedupe") == (1, 2)
    assert changes(Scenario(fault=CUT, settings=LabSettings(record="separate"))) == {
        "--record atomic"
    }


def test_an_atomic_record_takes_the_debit_with_it() -> None:
    durable = runs(CUT, record="atomic")[Mode.DURABLE]
    kinds = [e.kind for e in durable.events]
    assert E.DEBIT_APPLIED not in kinds[: kinds.index(E.RECEIVER_CRASHED)]
    assert durable.counts.effects == 1
    assert durable.status is Status.RETRIED_AFTER_LOOKUP


# ---------------------------------------------------------------------------------------------
# Fail open or fail closed


def test_a_lookup_outage_failing_open_closed_and_with_a_deduplicating_receiver() -> None:
    assert effects(AFTER, **LOOKUP_DOWN_OPEN) == (2, 2)
    closed = runs(AFTER, lookup="outage", on_lookup_outage="fail-closed")[Mode.DURABLE]
    assert (closed.counts.effects, closed.outcome) == (1, Outcome.PARKED)
    dedupe = runs(AFTER, **LOOKUP_DOWN_OPEN, receiver="dedupe")[Mode.DURABLE]
    assert (dedupe.counts.effects, dedupe.status) == (1, Status.DEDUPLICATED)
    found = changes(Scenario(fault=AFTER, settings=LabSettings.model_validate(LOOKUP_DOWN_OPEN)))
    assert found == {
        "--receiver dedupe",
        "--lookup available",
        "--on-lookup-outage fail-closed",
    }


def test_a_journal_outage_in_the_first_delivery() -> None:
    opened = runs(AFTER, store="outage", on_store_outage="fail-open")[Mode.DURABLE]
    first = [e.kind for e in opened.events if e.attempt == 1]
    assert E.STORE_WRITE_FAILED in first and E.DISPATCH_INTENT_RECORDED not in first
    assert E.PROCESS_CRASHED in first and opened.counts.effects == 2
    closed = runs(AFTER, store="outage")[Mode.DURABLE]
    assert [e for e in closed.events if e.attempt == 1 and e.is_business_effect] == []
    assert [e.attempt for e in closed.events if e.is_business_effect] == [2]
    assert closed.counts.effects == 1


# ---------------------------------------------------------------------------------------------
# Every delivery spent


def test_a_crash_before_dispatch_on_every_delivery_debits_nothing_until_one_more_delivery() -> None:
    plan = parse_plan("1:before-dispatch,2:before-dispatch,3:before-dispatch")
    spent = Scenario(plan=plan)
    assert SettingsDemo(SINGLE_FAULT).scenario() == spent
    for mode in SEED_MODES:
        result = simulate(spent.model_copy(update={"mode": mode}))
        assert (result.counts.attempts, result.counts.effects) == (3, 0)
        assert result.status is Status.NEVER_APPLIED
    assert [(r.change, r.result.counts.effects) for r in restorations(spent)] == [
        ("--deliveries 4", 1)
    ]
    more = simulate(spent.model_copy(update={"deliveries": 4}))
    assert (more.counts.effects, more.outcome) == (1, Outcome.EXACTLY_ONCE)
    # A plan, not a setting: the lesson's field for it is named "Fault plan".
    assert assumptions_lesson.PLAN_LABEL.startswith("**Fault plan**")
