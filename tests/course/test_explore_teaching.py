"""The instructor guide's plan for Explore every failure: every claim true of the explorer, and
every demo the view the lesson itself shows.

The expected cells and counterexamples are written out by hand from the lab's rules (which
faults can make which runtime debit twice), independently of the demos, which print whatever
the explorer says; the demos' settings are checked by running the lesson headless.
"""

import io
import json
import re
from types import SimpleNamespace

import marimo as mo
import pytest

from asyncfail import Fault, FaultPoint, Mode, Scenario, simulate
from asyncfail.cli.main import main
from asyncfail.course import explore_lesson, explore_teaching, questions
from asyncfail.course.setting_demos import ExerciseDemo, ExploreDemo
from asyncfail.course.workers_teaching import SEED_VERDICT
from asyncfail.explore.explorer import explore, plan_runs
from asyncfail.explore.invariants import ADMITS_NOT_KNOWING, Invariant
from asyncfail.explore.plans import injection_space
from asyncfail.lab.faults import FaultPlan, parse_plan, plan_text
from asyncfail.lab.reading import Status
from asyncfail.lab.scenario import SEED_MODES
from asyncfail.lab.settings import LabSettings
from tests.notebook_support import load_notebook, run_lesson, visible_text

PLAN = explore_teaching.PLAN
ONCE, LOSS, TRUTH = Invariant
ROWS = explore_lesson.ROWS


def demos() -> list[object]:
    return [d for r in PLAN.reveals for d in r.demos] + [
        d for m in PLAN.misconceptions for d in m.demos
    ]


def smallest(row: int, invariant: Invariant, **bounds: int) -> str | None:
    found = ExploreDemo(row, invariant, **bounds).report(invariant).counterexample
    return None if found is None else plan_text(FaultPlan(injections=found.plan))


def breaking_plans(row: int, invariant: Invariant) -> set[str]:
    r = ROWS[row]
    return {
        plan_text(run.plan)
        for run in plan_runs(r.mode, r.settings, 3, 2)
        if run.reachable and invariant in run.broken
    }


def test_the_plan_fills_a_class_and_ends_on_the_lessons_check() -> None:
    assert PLAN.stem == "04_explore_every_failure"
    assert sum(s.minutes for s in PLAN.segments) == 50
    assert PLAN.check is questions.EXPLORE_QUESTION
    # The rows the plan names by index are the ones its prose says.
    assert ROWS[explore_teaching.SEED].title == "durable, the seed's assumptions"
    assert ROWS[explore_teaching.KEY_PER_ATTEMPT].settings == LabSettings(key="per-attempt")
    assert ROWS[explore_teaching.LOOKUP_OPEN].settings == LabSettings(on_lookup_outage="fail-open")
    assert ROWS[explore_teaching.JOURNAL_OPEN].settings == LabSettings(on_store_outage="fail-open")


# ---------------------------------------------------------------------------------------------
# The lesson in class


def test_the_lesson_shows_the_matrix_at_once_and_opens_its_view_on_the_key_per_attempt() -> None:
    page, defs = run_lesson(load_notebook(ExploreDemo.lesson))
    assert "prediction" not in defs and set(defs["explorations"]) == {r.title for r in ROWS}
    assert "Which settings break which invariant" in visible_text(page)
    assert defs["row"].value == "durable, a key per attempt"  # type: ignore[attr-defined]
    assert defs["invariant"].value == ONCE.value  # type: ignore[attr-defined]
    assert "Runtime and settings" in explore_lesson.ROW_LABEL


def test_every_explore_demo_is_the_view_the_lesson_shows_for_its_controls() -> None:
    nb = load_notebook(ExploreDemo.lesson)
    found = [d for d in demos() if isinstance(d, ExploreDemo)]
    assert len(found) >= 10
    for demo in found:
        title = ROWS[demo.row].title
        invariant = demo.invariant or ONCE
        page, defs = run_lesson(
            nb,
            max_faults=mo.ui.slider(0, 3, value=demo.max_faults),
            deliveries=mo.ui.number(1, 9, value=demo.deliveries),
            row=mo.ui.dropdown(explore_lesson.row_labels(), value=title),
            invariant=mo.ui.radio([i.value for i in Invariant], value=invariant.value),
        )
        assert defs["explorations"][title] == demo.exploration(), demo
        example = demo.report(invariant).counterexample
        if example is not None:  # highlighted as code: spans split it, so compare unspaced
            assert example.command.replace(" ", "") in visible_text(page).replace(" ", "")


def test_a_counterexamples_command_replays_it() -> None:
    example = ExploreDemo(explore_teaching.LOOKUP_OPEN, ONCE).report(ONCE).counterexample
    assert example is not None
    out = io.StringIO()
    assert main(example.command.split()[1:], stdout=out) == 0
    assert json.loads(out.getvalue())["counts"]["effects"] == 2


def test_one_more_hint_after_each_failed_check_and_the_answer_once_checked() -> None:
    hints = explore_lesson.HINTS
    for failed in range(len(hints) + 2):
        lines = explore_lesson.hints_text(failed).splitlines()
        assert len([line for line in lines if re.match(r"\d+\. ", line)]) == min(failed, len(hints))
    nb = load_notebook(ExploreDemo.lesson)
    page, _ = run_lesson(nb)
    assert explore_lesson.ANSWER_LABEL not in visible_text(page)
    checked = SimpleNamespace(value=dict(explore_lesson.EXERCISE_START))
    page, _ = run_lesson(nb, exercise=checked)
    assert explore_lesson.ANSWER_LABEL in visible_text(page)


# ---------------------------------------------------------------------------------------------
# The matrix, worked out by hand


def test_which_rows_break_which_invariant_with_two_faults_and_three_deliveries() -> None:
    # Only at-most-once is ever broken within these bounds; the seed's durable runtime and the
    # deduplicating receiver keep it, every other row has a plan that debits twice.
    expected = {
        0: {ONCE},
        1: set(),
        2: {ONCE},
        3: {ONCE},
        4: {ONCE},
        5: {ONCE},
        6: {ONCE},
        7: set(),
    }
    for row, broken in expected.items():
        found = ExploreDemo(row).exploration()
        assert {r.name for r in found.invariants if r.violations} == broken, ROWS[row].title


def test_the_smallest_counterexamples() -> None:
    # A key per attempt: the seed's crash after the debit is enough.
    assert smallest(explore_teaching.KEY_PER_ATTEMPT, ONCE) == "1:after-effect"
    # Failing open on lookups: a debit that happened unseen, then a lookup that fails.
    assert breaking_plans(explore_teaching.LOOKUP_OPEN, ONCE) == {
        "1:response,1:lookup",
        "1:after-effect,2:lookup",
    }
    assert smallest(explore_teaching.LOOKUP_OPEN, ONCE) == "1:response,1:lookup"
    assert smallest(explore_teaching.LOOKUP_OPEN, ONCE, max_faults=1) is None
    # Failing open on the journal: the outage and a crash after the debit, nothing else.
    assert breaking_plans(explore_teaching.JOURNAL_OPEN, ONCE) == {"1:journal-write,1:after-effect"}


def test_no_named_fault_alone_makes_failing_open_on_lookups_debit_twice() -> None:
    settings = LabSettings(on_lookup_outage="fail-open")
    for fault in Fault:
        result = simulate(Scenario(fault=fault, settings=settings))
        assert result.counts.effects <= 1, fault


def test_the_bounds_of_the_search() -> None:
    seed = explore_teaching.SEED
    assert smallest(seed, LOSS) is None
    assert smallest(seed, LOSS, max_faults=3) == (
        "1:before-dispatch,2:before-dispatch,3:before-dispatch"
    )
    assert smallest(seed, LOSS, deliveries=2) == "1:before-dispatch,2:before-dispatch"
    two = parse_plan("1:before-dispatch,2:before-dispatch")
    spent = simulate(Scenario(plan=two, deliveries=2))
    assert (spent.counts.effects, spent.status) == (0, Status.NEVER_APPLIED)
    assert Status.NEVER_APPLIED not in ADMITS_NOT_KNOWING
    assert {Status.UNKNOWN, Status.PARKED} == ADMITS_NOT_KNOWING
    # The search: every named fault point at every delivery, and nothing else.
    space = injection_space(LabSettings(), 3)
    assert {(i.attempt, i.point) for i in space} == {
        (attempt, point) for attempt in (1, 2, 3) for point in FaultPoint
    }


def test_every_row_has_one_worker_where_a_stall_only_delays() -> None:
    assert {row.settings.workers for row in ROWS} == {1}
    for point in (p for p in FaultPoint if p.value.startswith("pause-")):
        for mode in SEED_MODES:
            result = simulate(Scenario(plan=parse_plan(f"1:{point}"), mode=mode))
            assert (result.counts.attempts, result.counts.effects) == (1, 1), point
            assert result.status is Status.APPLIED_ONCE
    # With a second worker one stall before dispatch is the seed's smallest counterexample.
    example = SEED_VERDICT.scenario()
    assert example.settings == LabSettings(workers=2)
    found = explore(Mode.DURABLE, example.settings, 3, 2).invariants[0].counterexample
    assert found is not None and plan_text(FaultPlan(injections=found.plan)) == (
        "1:pause-before-dispatch"
    )
    assert found.counts.effects == 2


def test_the_checks_explanation_one_injection_for_each_setting_it_names() -> None:
    for settings in (
        LabSettings(key="per-attempt"),
        LabSettings(retention="30", redelivery_delay="60"),
        LabSettings(workers=2),
    ):
        found = explore(Mode.DURABLE, settings, 3, 2).invariants[0].counterexample
        assert found is not None and len(found.plan) == 1, settings
    explanation = questions.EXPLORE_QUESTION.explanation
    assert "a second worker" in explanation and "concurrency" not in explanation


def test_the_exercise_as_it_starts_and_with_a_durable_runtime() -> None:
    start = ExerciseDemo()
    assert start.read()[:2] == (Mode.NAIVE, 2)
    first = next(r for r in start.exploration().invariants if r.violations)
    assert first.name is ONCE and first.counterexample is not None
    assert plan_text(FaultPlan(injections=first.counterexample.plan)) == "1:response"
    durable = ExerciseDemo((("mode", "durable"),)).exploration()
    first = next(r for r in durable.invariants if r.violations)
    assert first.name is ONCE and first.counterexample is not None
    # The form's record is written apart from its debit: the receiver's crash is enough.
    assert plan_text(FaultPlan(injections=first.counterexample.plan)) == "1:receiver-before-record"


def test_an_exercise_demo_the_form_cannot_take_is_refused() -> None:
    with pytest.raises(ValueError, match="not an answer"):
        ExerciseDemo((("schedule", "temporal"),))
    with pytest.raises(ValueError, match="readable"):
        ExerciseDemo((("retention", "forever"),))


def test_the_answer_passes() -> None:
    found = explore(Mode.DURABLE, LabSettings(), 3, 2)
    assert all(r.violations == 0 for r in found.invariants)
