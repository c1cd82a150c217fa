"""The instructor guide: current on disk, built from the catalog and the checks without copying
them, and true of the model.

Every claim the guide's prose makes about what a setting shows is checked here against a fresh
run of the model, with the expected figures written out by hand (an oracle independent of the
demos, which print whatever the model says).
"""

import ast
import inspect
import re
from itertools import pairwise
from types import ModuleType

import marimo as mo
import pytest

from asyncfail import Fault, Mode, Scenario, simulate
from asyncfail.contract.experiment import ContractScenario, evaluate
from asyncfail.contract.profiles import PROFILES
from asyncfail.contract.rules import Disposition, Finding, RecordState
from asyncfail.contract.sweep import sweep_retention
from asyncfail.contract.terms import ContractProfile, KeyScope, PayloadPolicy
from asyncfail.course import (
    assumptions_lesson,
    assumptions_teaching,
    catalog,
    contract_teaching,
    demos,
    explore_teaching,
    guide,
    handoff_teaching,
    lab_teaching,
    questions,
    readiness_teaching,
    records_teaching,
    setting_demos,
    teaching,
    timed_demos,
    workers_lesson,
    workers_teaching,
)
from asyncfail.course.demos import WORKED_DESIGN, LabDemo, ReadinessDemo
from asyncfail.course.setting_demos import SettingsDemo
from asyncfail.course.timed_demos import RiskDemo, WorkersDemo
from asyncfail.ground.durations import MAX_SECONDS, Duration
from asyncfail.ground.retention import BoundaryConvention
from asyncfail.ground.seed import ASSUMPTIONS, Boundary, HandoffSection, Priority
from asyncfail.ground.seed import RecommendationId as Rec
from asyncfail.handoff.checks import CHECKS
from asyncfail.handoff.design import QUESTIONS, design_from_answers
from asyncfail.handoff.markdown import md_rich
from asyncfail.handoff.markup import Code
from asyncfail.handoff.report import assess
from asyncfail.handoff.review import build_review
from asyncfail.handoff.verdict import CheckStatus
from asyncfail.lab.events import TOOL_CALL_KINDS, EventKind
from asyncfail.lab.reading import (
    Order,
    Outcome,
    ResultRecord,
    Route,
    Status,
    failure_event,
    order_of,
    recovery_of,
    result_record_of,
)
from asyncfail.lab.results import LabResult
from asyncfail.lab.scenario import SEED_MODES
from asyncfail.lab.schedules import delivery_times
from asyncfail.lab.settings import DEFAULT_SETTINGS, LabSettings
from tests.golden.regenerate import TEACHING_GUIDE
from tests.markup_support import markdown_engines, parse_html
from tests.notebook_support import load_notebook, run_lesson, stats, vega_specs, visible_text

PLAN_MODULES = (
    lab_teaching,
    assumptions_teaching,
    contract_teaching,
    explore_teaching,
    workers_teaching,
    records_teaching,
    readiness_teaching,
    handoff_teaching,
)
PROSE_MODULES = (teaching, demos, setting_demos, timed_demos, guide, *PLAN_MODULES)


def lab(fault: Fault, mode: Mode, deliveries: int = 3, **settings: object) -> LabResult:
    chosen = LabSettings.model_validate(settings)
    return simulate(Scenario(fault=fault, mode=mode, deliveries=deliveries, settings=chosen))


def contract(**fields: object):  # type: ignore[no-untyped-def]
    return evaluate(ContractScenario.model_validate(fields))


def hours(n: int) -> Duration:
    return Duration.of_seconds(n * 3600)


def readiness(**changes: object):  # type: ignore[no-untyped-def]
    design, errors = design_from_answers(dict(WORKED_DESIGN) | changes)
    assert errors == ()
    return assess(design)


# ---------------------------------------------------------------------------------------------
# The file on disk, and what the guide is built from


def test_docs_teaching_md_is_what_the_library_generates() -> None:
    on_disk = TEACHING_GUIDE.read_text(encoding="utf-8")
    assert on_disk == guide.guide_markdown(), "docs/teaching.md is stale: run `make golden`"


def test_one_plan_per_lesson_in_course_order_each_a_full_class() -> None:
    assert [p.stem for p in guide.PLANS] == [info.stem for info in catalog.LESSONS]
    for plan in guide.PLANS:
        assert sum(s.minutes for s in plan.segments) == teaching.CLASS_MINUTES == 50
        assert plan.reveals and plan.misconceptions


def test_a_plan_that_does_not_fill_the_class_is_refused() -> None:
    plan = lab_teaching.PLAN
    with pytest.raises(ValueError, match="50"):
        teaching.LessonPlan(plan.stem, plan.segments[1:], (), (), plan.check)


CHECKS_IN_ORDER = (
    questions.LAB_QUESTION,
    questions.ASSUMPTIONS_QUESTION,
    questions.CONTRACT_QUESTION,
    questions.EXPLORE_QUESTION,
    questions.WORKERS_QUESTION,
    questions.RECORDS_QUESTION,
    questions.READINESS_QUESTION,
    questions.HANDOFF_QUESTION,
)


def test_each_lesson_has_its_own_check_from_questions_py() -> None:
    for plan, question in zip(guide.PLANS, CHECKS_IN_ORDER, strict=True):
        assert plan.check is question


def test_the_guide_shows_every_check_with_its_answer_and_explanation() -> None:
    text = guide.guide_markdown()
    for plan in guide.PLANS:
        question = plan.check
        for sentence in (question.prompt, question.answer, question.explanation, *question.options):
            assert md_rich(guide.inline(sentence)) in text


def test_the_guide_shows_each_lessons_title_minutes_and_outcomes_from_the_catalog() -> None:
    text = guide.guide_markdown()
    for number, info in enumerate(catalog.LESSONS, start=1):
        assert f"## Lesson {number} · {info.title}" in text
        assert f"about {info.minutes} minutes" in text
        for outcome in info.outcomes:
            assert f"- {md_rich((outcome,))}" in text


def _string_constants(module: ModuleType) -> list[str]:
    """Every string in a module's code, its docstrings left out (they are not the guide's
    text: a docstring may name a lesson by its title or its place)."""
    tree = ast.parse(inspect.getsource(module))
    docstrings = {
        id(n.value)
        for n in ast.walk(tree)
        if isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant)
    }
    return [
        n.value
        for n in ast.walk(tree)
        if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docstrings
    ]


def test_no_sentence_of_the_catalog_or_the_checks_is_copied_into_the_guides_modules() -> None:
    owned = [
        catalog.COURSE_LINE,
        *(text for info in catalog.LESSONS for text in (info.title, info.summary, *info.outcomes)),
        *(
            text
            for q in CHECKS_IN_ORDER
            for text in (q.prompt, q.answer, q.explanation, *q.options)
        ),
    ]
    for module in PROSE_MODULES:
        for constant in _string_constants(module):
            for sentence in owned:
                assert sentence not in constant, (module.__name__, sentence)


def test_a_lesson_is_named_by_its_place_in_the_catalog() -> None:
    assert teaching.lesson_name("01_async_failure_lab") == "Lesson 1"
    assert teaching.lesson_ref("02_break_the_assumptions") == "lesson 2"
    assert teaching.lesson_name("08_review_handoff") == "Lesson 8"
    assert teaching.lesson_ref("04_explore_every_failure") == "lesson 4"
    assert teaching.lesson_name("05_two_workers") == "Lesson 5"
    assert teaching.lesson_ref("06_record_lifetime") == "lesson 6"
    with pytest.raises(ValueError):
        teaching.lesson_name("02_idempotency_contract")


def test_no_lesson_number_is_typed_into_the_guides_prose() -> None:
    typed = re.compile(r"\b[Ll]essons? \d")
    for module in PROSE_MODULES:
        for constant in _string_constants(module):
            assert not typed.search(constant), (module.__name__, constant)


def test_each_plan_and_its_reveals_are_of_one_lesson() -> None:
    # Reveals are shown without a lesson column: each is set in the plan's own lesson.
    for plan in guide.PLANS:
        for reveal in plan.reveals:
            assert {d.lesson for d in reveal.demos} == {plan.stem}, reveal.before


def test_the_guide_cites_only_the_systems_the_notes_give_facts_for() -> None:
    text = guide.guide_markdown()
    # Restate and Temporal Cloud: lesson 6's real defaults (risk/report.py's REAL_RETENTIONS).
    for cited in ("Temporal", "Stripe", "Powertools", "Brandur Leach", "IETF", "Maelstrom",
                  "Martin Kleppmann", "Restate", "Temporal Cloud"):  # fmt: skip
        assert cited in text
    for other in ("Dapr", "DBOS", "Inngest", "Azure", "Step Functions", "Kafka",
                  "SQS", "FoundationDB", "TigerBeetle", "DSLabs"):  # fmt: skip
        assert other not in text


def test_the_guide_renders_as_the_document_it_describes() -> None:
    html = markdown_engines(guide.guide_markdown())["python-markdown"]
    root, errors = parse_html(html)
    assert errors == []
    assert len(root.find_all("h2")) == 2 + 4 * len(guide.PLANS)
    # Each check's options stay one list of their own (a list right after it would merge).
    option_lists = [
        ul
        for ul in root.find_all("ul")
        if any("(the answer)" in li.text() for li in ul.find_all("li"))
    ]
    assert [len(ul.find_all("li")) for ul in option_lists] == [
        len(p.check.options) for p in guide.PLANS
    ]


def test_inline_code_needs_paired_backticks() -> None:
    assert guide.inline("a `b` c") == ("a ", Code("b"), " c")
    with pytest.raises(ValueError, match="unpaired"):
        guide.inline("a `b c")


def test_every_demo_runs_and_names_a_lesson_of_the_course() -> None:
    stems = {info.stem for info in catalog.LESSONS}
    for plan in guide.PLANS:
        for demo in [d for r in plan.reveals for d in r.demos] + [
            d for m in plan.misconceptions for d in m.demos
        ]:
            assert demo.lesson in stems
            assert demo.setting() and demo.shows()


def test_a_readiness_demo_with_an_unreadable_answer_is_refused() -> None:
    with pytest.raises(ValueError, match="readable"):
        ReadinessDemo(Rec.RETENTION_COVERS_REPLAY, (("retention", ("a day", "hours")),))


# ---------------------------------------------------------------------------------------------
# Lesson 1, the lab: what the plan, the reveals and the misconceptions say it shows


def test_seed_case_counts_and_the_durable_runtime_calls_the_tool_once() -> None:
    naive, durable = (
        lab(Fault.CRASH_AFTER_EFFECT, Mode.NAIVE),
        lab(Fault.CRASH_AFTER_EFFECT, Mode.DURABLE),
    )
    assert (naive.counts.attempts, naive.counts.effects, naive.counts.tool_calls) == (2, 2, 2)
    assert (durable.counts.attempts, durable.counts.effects, durable.counts.tool_calls) == (2, 1, 1)
    assert durable.counts.lookups == 1
    # "stopping at the crash and at the durable runtime's lookup": both are in the traces.
    for result in (naive, durable):
        assert EventKind.PROCESS_CRASHED in {e.kind for e in result.events}
    assert EventKind.OPERATION_LOOKUP_FOUND in {e.kind for e in durable.events}


def test_seed_case_second_attempt_events() -> None:
    def second(mode: Mode) -> list[EventKind]:
        return [e.kind for e in lab(Fault.CRASH_AFTER_EFFECT, mode).events if e.attempt == 2]

    assert second(Mode.NAIVE) == [EventKind.TOOL_CALLED_AGAIN, EventKind.DEBIT_APPLIED_AGAIN]
    assert second(Mode.DURABLE) == [
        EventKind.RUN_REPLAYED,
        EventKind.OPERATION_LOOKUP_FOUND,
        EventKind.TOOL_RESULT_RECORDED,
    ]


def test_request_lost_and_response_lost_look_the_same_from_inside_the_worker() -> None:
    for fault in (Fault.REQUEST_LOST, Fault.RESPONSE_LOST):
        for mode in SEED_MODES:
            failure = failure_event(lab(fault, mode).events)
            assert failure is not None
            assert (failure.kind, failure.attempt) == (EventKind.TIMEOUT_OBSERVED, 1)
    # Under request-lost no debit has happened at the timeout; under response-lost it has.
    for mode in SEED_MODES:
        assert order_of(lab(Fault.REQUEST_LOST, mode).events) is Order.FAULT_FIRST
        assert order_of(lab(Fault.RESPONSE_LOST, mode).events) is Order.EFFECT_FIRST


def test_response_lost_naive_debits_twice_in_one_attempt_retrying_at_once() -> None:
    naive = lab(Fault.RESPONSE_LOST, Mode.NAIVE)
    assert (naive.counts.attempts, naive.counts.effects) == (1, 2)
    assert naive.outcome is Outcome.DUPLICATE
    again = [e for e in naive.events if e.kind is EventKind.TOOL_CALLED_AGAIN]
    assert [e.attempt for e in again] == [1]
    durable = lab(Fault.RESPONSE_LOST, Mode.DURABLE)
    assert durable.counts.effects == 1
    assert durable.status is Status.RECOVERED_BY_KEY
    assert lab(Fault.REQUEST_LOST, Mode.NAIVE).counts.effects == 1


def test_time_passes_only_between_deliveries_so_the_naive_retry_is_at_the_same_instant() -> None:
    times = delivery_times(DEFAULT_SETTINGS.schedule, DEFAULT_SETTINGS.redelivery_delay, 3)
    assert times == (Duration(0), Duration.of_seconds(30), Duration.of_seconds(60))
    for fault in Fault:
        for mode in SEED_MODES:
            for event in lab(fault, mode).events:
                assert event.at == times[event.attempt - 1]
    naive = lab(Fault.RESPONSE_LOST, Mode.NAIVE).events
    calls = [e for e in naive if e.kind in {EventKind.TOOL_CALLED, EventKind.TOOL_CALLED_AGAIN}]
    assert [(e.attempt, e.at) for e in calls] == [(1, Duration(0)), (1, Duration(0))]


def test_speed_matters_only_against_the_record() -> None:
    # Records kept 60 s: a redelivery at 60 s finds the record expired, at 30 s or 0 s it
    # finds it; the naive loop looks nothing up and debits twice at every delay.
    for delay, durable in ((60, 2), (30, 1), (0, 1)):
        settings = {"retention": "60", "redelivery_delay": str(delay)}
        assert lab(Fault.CRASH_AFTER_EFFECT, Mode.DURABLE, **settings).counts.effects == durable
        assert lab(Fault.CRASH_AFTER_EFFECT, Mode.NAIVE, **settings).counts.effects == 2
    assert (assumptions_teaching.KEPT, assumptions_teaching.APART) == ("60", "60")
    assert assumptions_teaching.SOONER == "30"


def test_crash_after_record_memory_is_not_a_record() -> None:
    naive = lab(Fault.CRASH_AFTER_RECORD, Mode.NAIVE)
    assert (naive.counts.attempts, naive.counts.effects) == (2, 2)
    durable = lab(Fault.CRASH_AFTER_RECORD, Mode.DURABLE)
    first = [e.kind for e in durable.events if e.attempt == 1]
    assert first.index(EventKind.TOOL_RESULT_RECORDED) < first.index(EventKind.PROCESS_CRASHED)
    second = [e.kind for e in durable.events if e.attempt == 2]
    assert second == [EventKind.RUN_REPLAYED, EventKind.TOOL_RESULT_REPLAYED]
    assert not set(second) & TOOL_CALL_KINDS
    assert (durable.counts.effects, durable.status) == (1, Status.RECOVERED_FROM_STORE)


def test_the_durable_runtime_with_a_single_delivery() -> None:
    after = lab(Fault.CRASH_AFTER_EFFECT, Mode.DURABLE, deliveries=1)
    assert (after.counts.effects, after.outcome) == (1, Outcome.UNKNOWN)
    before = lab(Fault.CRASH_BEFORE_DISPATCH, Mode.DURABLE, deliveries=1)
    assert (before.counts.effects, before.outcome) == (0, Outcome.LOST)


def test_the_promise_rests_on_the_assumptions_lesson_2_breaks() -> None:
    # A key per delivery attempt, and a record that expires as the redelivery comes: two
    # debits under the durable runtime.
    assert lab(Fault.CRASH_AFTER_EFFECT, Mode.DURABLE, key="per-attempt").counts.effects == 2
    expiring = {"retention": "60", "redelivery_delay": "60"}
    assert lab(Fault.CRASH_AFTER_EFFECT, Mode.DURABLE, **expiring).counts.effects == 2


def test_lesson_1_has_no_control_for_the_delivery_budget() -> None:
    _, defs = run_lesson(load_notebook(LabDemo.lesson))
    controls = {
        name
        for name, value in defs.items()
        if "<marimo-ui-element" in str(getattr(value, "text", ""))
    }
    assert controls == {"fault", "prediction", "skip_prediction", "step", "understanding"}


def test_lesson_2_starts_not_skipping_and_hides_its_runs_but_not_its_table() -> None:
    page, defs = run_lesson(load_notebook(SettingsDemo.lesson))
    assert defs["skip_prediction"].value is False  # type: ignore[attr-defined]
    assert defs["revealed"] is False
    assert stats(page) == [] and vega_specs(page) == []
    # The table of assumptions gives each starting point's durable count all the same.
    assert "2 debits, duplicate" in visible_text(page)


def test_lessons_5_and_6_show_nothing_before_a_guess_and_share_lesson_2s_switch() -> None:
    assert assumptions_lesson.SKIP_LABEL == workers_lesson.SKIP_LABEL
    for stem in (WorkersDemo.lesson, RiskDemo.lesson):
        page, defs = run_lesson(load_notebook(stem))
        assert defs["skip_prediction"].value is False, stem  # type: ignore[attr-defined]
        assert defs["revealed"] is False, stem
        assert stats(page) == [] and vega_specs(page) == [], stem


def test_the_last_assumption_leaves_out_what_lessons_5_and_6_model() -> None:
    last = ASSUMPTIONS[-1]
    assert "concurrency" in last and "timing distributions" in last
    # With a second worker no crash is needed for the durable runtime to debit twice.
    stalled = workers_teaching.STALLED_DURABLE.results()[Mode.DURABLE]
    assert stalled.counts.effects == 2
    assert EventKind.PROCESS_CRASHED not in {e.kind for e in stalled.events}


def test_lesson_1_asks_for_a_new_guess_after_every_fault_switch_and_starts_not_skipping() -> None:
    nb = load_notebook("01_async_failure_lab")
    _, defs = run_lesson(nb)
    assert defs["skip_prediction"].value is False  # type: ignore[attr-defined]
    for fault in (Fault.REQUEST_LOST, Fault.RESPONSE_LOST, Fault.CRASH_AFTER_RECORD):
        _, defs = run_lesson(nb, fault=mo.ui.dropdown([f.value for f in Fault], value=fault.value))
        assert defs["revealed"] is False


# ---------------------------------------------------------------------------------------------
# Lesson 3, the idempotency contract (lesson 2's claims: test_assumptions_teaching.py)


def test_a_key_per_attempt_is_applied_twice_at_every_delay_and_retention() -> None:
    axis = tuple(Duration.of_seconds(s) for s in (0, 1, 60, 3599, 3600, 3601, 86_400, MAX_SECONDS))
    for boundary in BoundaryConvention:
        sweep = sweep_retention(
            ContractScenario(scope=KeyScope.ATTEMPT, boundary=boundary), axis, axis
        )
        assert set(sweep.record) == {RecordState.NEVER_STORED}
        assert set(sweep.effects) == {2}
        assert set(sweep.finding) == {Finding.APPLIED_TWICE_KEY_PER_ATTEMPT}
    for delay in (0, 60):
        assert contract(scope="attempt", delay_seconds=Duration.of_seconds(delay)).effects == 2


def test_a_key_without_the_tenant() -> None:
    leak = contract(profile="powertools", scope="operation", second="other-tenant")
    assert leak.finding is Finding.OTHER_TENANTS_RESULT
    rejected = contract(
        profile="powertools", scope="operation", second="other-tenant", policy="enforce"
    )
    assert rejected.finding is Finding.OTHER_TENANT_REJECTED
    assert (
        contract(scope="operation", second="other-tenant").finding is Finding.OTHER_TENANT_REJECTED
    )
    late = contract(profile="powertools", scope="operation", second="other-tenant",
                    delay_seconds=Duration.of_seconds(7200))  # fmt: skip
    assert (late.finding, late.correct) == (Finding.NEW_INTENT_APPLIED, True)


def test_a_longer_retention_lengthens_the_leak_to_another_tenant() -> None:
    axis = tuple(Duration.of_seconds(s) for s in (60, 600, 3600, 7200, 86_400))
    scenario = ContractScenario(profile="powertools", scope="operation", second="other-tenant")
    sweep = sweep_retention(scenario, axis, axis)
    n = len(axis)
    leaking = [
        {d for d in range(n) if sweep.finding[r * n + d] is Finding.OTHER_TENANTS_RESULT}
        for r in range(n)
    ]
    for shorter, longer in pairwise(leaking):
        assert shorter < longer or shorter == longer == set(range(n))


def test_fingerprints_powertools_ignores_by_default_and_the_others_reject() -> None:
    powertools = PROFILES[ContractProfile.POWERTOOLS]
    assert (powertools.policy.value, powertools.policy.fixed) == (PayloadPolicy.IGNORE, False)
    hidden = contract(profile="powertools", second="different-amount")
    assert (hidden.record, hidden.disposition) == (RecordState.RETAINED, Disposition.REUSED)
    assert hidden.finding is Finding.CONFLICT_HIDDEN
    checked = contract(profile="powertools", second="different-amount", policy="enforce")
    assert (checked.finding, checked.departures) == (Finding.CONFLICT_REJECTED, ())
    assert (
        contract(profile="stripe", second="different-amount").finding is Finding.CONFLICT_REJECTED
    )
    statuses = {p: PROFILES[p].conflict for p in ContractProfile}
    assert statuses[ContractProfile.IETF_DRAFT].status_code == 422
    assert statuses[ContractProfile.STRIPE].error == "idempotency_error"
    assert statuses[ContractProfile.BRANDUR_POSTGRES].status_code == 409


def test_brandur_leachs_design_scopes_keys_to_the_user() -> None:
    assert PROFILES[ContractProfile.BRANDUR_POSTGRES].scope.value is KeyScope.TENANT_OPERATION


def test_real_retentions_and_their_boundaries() -> None:
    assert teaching.retention_hours(ContractProfile.STRIPE) == 24
    assert teaching.retention_hours(ContractProfile.BRANDUR_POSTGRES) == 72
    with pytest.raises(ValueError, match="no retention"):
        teaching.retention_hours(ContractProfile.IETF_DRAFT)
    stripe = contract(profile="stripe", delay_seconds=hours(24))
    assert (stripe.record, stripe.effects) == (RecordState.EXPIRED, 2)
    brandur = contract(profile="brandur-postgres", delay_seconds=hours(72))
    assert (brandur.record, brandur.effects) == (RecordState.RETAINED, 1)
    for profile in (ContractProfile.POWERTOOLS, ContractProfile.BRANDUR_POSTGRES):
        assert PROFILES[profile].boundary.value is BoundaryConvention.RETAINED_AT_BOUNDARY


def test_the_retention_boundary() -> None:
    assert contract().effects == 1
    at = contract(delay_seconds=Duration.of_seconds(3600))
    assert (at.record, at.finding) == (RecordState.EXPIRED, Finding.APPLIED_TWICE_RECORD_EXPIRED)
    kept = contract(delay_seconds=Duration.of_seconds(3600), boundary="retained-at-boundary")
    assert (kept.record, kept.effects) == (RecordState.RETAINED, 1)
    longer = contract(
        delay_seconds=Duration.of_seconds(3600), retention_seconds=Duration.of_seconds(3601)
    )
    assert (longer.record, longer.effects) == (RecordState.RETAINED, 1)
    expired = contract(delay_seconds=Duration.of_seconds(7200))
    assert expired.finding is Finding.APPLIED_TWICE_RECORD_EXPIRED


def test_a_fixed_knob_set_otherwise_is_named_as_a_departure() -> None:
    assert contract(profile="stripe", policy="ignore").departures


# ---------------------------------------------------------------------------------------------
# Lesson 7, the readiness checklist


def test_the_blank_form_and_the_worked_design() -> None:
    blank = assess(design_from_answers({})[0])
    assert blank.tally() == {CheckStatus.MET: 0, CheckStatus.UNMET: 0, CheckStatus.UNKNOWN: 6}
    assert readiness().tally()[CheckStatus.MET] == 6


def test_a_retention_equal_to_the_replay_window_fails_one_check_and_a_second_more_meets_it() -> (
    None
):
    equal = readiness(retention=("24", "hours"))
    assert [c.id for c in equal.checks if c.status is not CheckStatus.MET] == [
        Rec.RETENTION_COVERS_REPLAY
    ]
    assert equal.check(Rec.RETENTION_COVERS_REPLAY).status is CheckStatus.UNMET
    assert readiness(retention=("86400", "seconds")).tally()[CheckStatus.UNMET] == 1
    assert readiness(retention=("86401", "seconds")).tally()[CheckStatus.MET] == 6
    # The checklist applies the seed's convention.
    (probe,) = equal.check(Rec.RETENTION_COVERS_REPLAY).probes
    assert probe.result.settings.boundary is BoundaryConvention.EXPIRED_AT_BOUNDARY
    # Stripe at exactly its retention; the other convention at exactly the same retention.
    day = hours(24)
    assert contract(profile="stripe", delay_seconds=day).record is RecordState.EXPIRED
    other = contract(delay_seconds=day, retention_seconds=day, boundary="retained-at-boundary")
    assert other.record is RecordState.RETAINED


def test_the_checklist_asks_for_a_retention_and_a_replay_window() -> None:
    assert {"retention", "replay_window"} <= set(QUESTIONS)


def test_a_key_scoped_to_the_attempt_fails_the_first_p0_check() -> None:
    first = next(iter(CHECKS))
    assert first is Rec.KEY_ACROSS_ATTEMPTS
    report = readiness(key_scope="attempt")
    assert report.check(first).status is CheckStatus.UNMET
    assert report.check(first).priority is Priority.P0


def test_the_recovery_owner_needs_names_and_a_lookup() -> None:
    owner = Rec.RECOVERY_OWNER
    assert readiness().check(owner).status is CheckStatus.MET
    nobody = {"pause_owner": "", "replay_approver": "", "state_verifier": ""}
    assert readiness(**nobody).check(owner).status is CheckStatus.UNKNOWN
    assert readiness(lookup_by_key="no").check(owner).status is CheckStatus.UNMET


# ---------------------------------------------------------------------------------------------
# Lesson 8, the review handoff


def test_the_handoffs_the_reveals_ask_about() -> None:
    seed = build_review(Fault.CRASH_AFTER_EFFECT)
    assert recovery_of(seed.naive.events) is Route.REPEATED
    assert recovery_of(seed.durable.events) is Route.FOUND_BY_KEY
    lost = build_review(Fault.RESPONSE_LOST)
    assert (lost.naive.counts.attempts, lost.naive.counts.effects) == (1, 2)
    for run in lost.runs:
        assert result_record_of(run.events) is ResultRecord.ABSENT_AT_TIMEOUT
    after_record = build_review(Fault.CRASH_AFTER_RECORD)
    assert result_record_of(after_record.durable.events) is ResultRecord.BEFORE_FAILURE
    assert result_record_of(after_record.naive.events) is not ResultRecord.BEFORE_FAILURE
    assert after_record.boundary_evidence(Boundary.RECORDED_RESULT).endswith("durable trace")


def test_a_failure_map_has_four_rows() -> None:
    assert len(Boundary) == 4


def test_the_handoff_states_the_labs_assumptions_and_what_it_cannot_decide() -> None:
    text = build_review(Fault.CRASH_AFTER_EFFECT).markdown()
    assert f"## {HandoffSection.CANNOT_DECIDE.value}" in text
    assert f"## {HandoffSection.ASSUMPTIONS.value}" in text
    for assumption in ASSUMPTIONS:
        assert md_rich((assumption,)) in text
