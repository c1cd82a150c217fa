"""Lesson "Break the assumptions" runs headless with substituted controls and shows the model:
both runtimes, the traces against time, what the run breaks and what restores it."""

import io
import json
import re
from types import SimpleNamespace
from typing import Any

import marimo as mo
import pytest

from asyncfail import Fault, Mode, Scenario, simulate
from asyncfail.charts.sequence_drawing import sequence_view
from asyncfail.charts.specs import time_timeline_spec
from asyncfail.cli.main import main
from asyncfail.course import controls as setting_controls
from asyncfail.course import lesson02_break_the_assumptions as lesson02
from asyncfail.ground.prose import counted
from asyncfail.ground.quiz import Question
from asyncfail.lab.faults import describe_fault
from asyncfail.lab.restore import restorations
from asyncfail.lab.scenario import command_line
from asyncfail.lab.settings import LabSettings
from tests.course.conftest import Lessons
from tests.notebook_support import (
    RUNTIMES,
    cells_rerun_by,
    load_notebook,
    made_after_the_start,
    run_lesson,
    sequence_drawings,
    stats,
    unescape_nested,
    vega_specs,
    visible_text,
)

STEM = "02_break_the_assumptions"
nb = load_notebook(STEM)
SKIP = mo.ui.switch(value=True)


def run(**controls: object) -> tuple[str, dict[str, Any]]:
    return run_lesson(nb, **controls)


def start(label: str) -> object:
    return mo.ui.dropdown(list(lesson02.start_options()), value=label)


def controls(
    scenario: Scenario,
    *,
    retention: str | None = None,
    delay: str | None = None,
    deliveries: object = ...,
    plan: str | None = None,
    **choices: str,
) -> dict[str, object]:
    """Every control of the settings cell, as a learner would leave them: the scenario's
    values, with the given ones changed (marimo substitutes a cell's definitions all at
    once)."""
    values = lesson02.choices_of(scenario) | choices
    settings = scenario.settings
    return {
        "choices": mo.ui.dictionary({k: mo.ui.text(value=v) for k, v in values.items()}),
        # A raw value stands in for a number field a learner emptied or typed into.
        "deliveries": (
            mo.ui.number(1, 10, value=scenario.deliveries)
            if deliveries is ...
            else SimpleNamespace(value=deliveries)
        ),
        "retention": mo.ui.text(
            value=lesson02.seconds_of(settings.retention) if retention is None else retention
        ),
        "delay": mo.ui.text(
            value=lesson02.seconds_of(settings.redelivery_delay) if delay is None else delay
        ),
        "plan": mo.ui.text(value=lesson02.plan_of(scenario) if plan is None else plan),
    }


def test_the_lesson_opens_on_the_expiring_record_and_asks_before_it_shows(
    lessons: Lessons,
) -> None:
    page, defs = lessons.run(STEM)
    assert defs["revealed"] is False and vega_specs(page) == [] and sequence_drawings(page) == []
    assert defs["scenario"] == Scenario(
        fault=Fault.CRASH_AFTER_EFFECT,
        settings=LabSettings(retention="60", redelivery_delay="60"),
    )
    assert "Commit a guess for each runtime" in visible_text(page)


def said(words: str, page: str) -> bool:
    """Whether ``page`` (markup and hidden panels included) says ``words``, as words."""
    found = re.search(rf"(?<![\w-]){re.escape(words)}(?![\w-])", unescape_nested(page), re.I)
    return found is not None


def test_nothing_on_the_page_gives_the_answer_before_the_guess(lessons: Lessons) -> None:
    # The reveal's words, from the model: each runtime's status, outcome and debits, and the
    # changes that restore the durable runtime's promise at the starting point.
    page, defs = lessons.run(STEM)
    words: set[str] = set()
    for result in defs["results"].values():
        effects = counted(result.counts.effects, "debit")
        words |= {result.status.value, result.outcome.value, effects}
    words |= {r.change for r in restorations(defs["scenario"])}
    assert {"Duplicate debit", "2 debits", "--retention 120.001"} <= words
    assert [w for w in words if said(w, page)] == []
    after, _ = run(skip_prediction=SKIP)
    assert [w for w in words if not said(w, after)] == []


def test_the_sequence_view_comes_first_and_the_time_view_below_it() -> None:
    page, defs = run(skip_prediction=SKIP)
    sequences = [sequence_view(defs["results"][m], width=380)[0] for m in RUNTIMES]
    times = [time_timeline_spec(defs["results"][m], width=380) for m in RUNTIMES]
    assert sequence_drawings(page) == [unescape_nested(s.svg) for s in sequences]
    assert [s["title"] for s in vega_specs(page)] == [s["title"] for s in times]
    flat = unescape_nested(page)
    assert flat.rindex('class="sequence-view"') < flat.index("application/vnd.vegalite")
    text = visible_text(page)
    assert "stacked" not in text
    assert text.index("Message by message") < text.index("Against time")


def test_the_table_names_each_assumption_its_breaker_and_the_models_counts() -> None:
    # The whole table follows the runs, after the guess; the one above them stops before the
    # answers.
    first, text = visible_text(run(skip_prediction=SKIP)[0]).split(
        "The five assumptions, run by the model"
    )
    assert "with a new key on every delivery" in first and "debits, duplicate" not in first
    # Worked by hand: crashing every delivery before dispatch applies nothing and the channel
    # gives up (lost); each other starting point debits twice under the durable runtime.
    expected = {1: "0 debits, lost", 2: "2 debits, duplicate", 3: "2 debits, duplicate",
                4: "2 debits, duplicate", 5: "2 debits, duplicate"}  # fmt: skip
    for demo in lesson02.STARTS:
        assert f"with {demo.title} {expected[demo.assumption]}" in text
    assert "several injections in one run (a fault plan)" in text
    # Only a fourth delivery outlasts three crashes; no setting does.
    row_1 = text.split("1. One virtual debit")[1].split("2. The durable case")[0]
    assert row_1.endswith("0 debits, lost --deliveries 4 ")
    # The expiring record is restored by a retention past the third delivery (0, 60, 120 s,
    # so 120.001 s under the seed's convention) or by the lenient convention; never by a
    # deduplicating receiver, which needs the same record.
    row = text.split("5. Outages of the lookup service")[1].split("What to notice")[0]
    assert "--retention 120.001" in row and "--boundary retained-at-boundary" in row
    assert "--receiver dedupe" not in row


@pytest.mark.parametrize("demo", lesson02.STARTS, ids=lambda d: str(d.assumption))
def test_each_starting_point_sets_every_control_and_runs_both_runtimes(
    demo: lesson02.StartingPoint,
) -> None:
    page, defs = run(start=start(lesson02.start_label(demo)), skip_prediction=SKIP)
    assert defs["scenario"] == demo.scenario
    expected = {m: simulate(demo.scenario.model_copy(update={"mode": m})) for m in RUNTIMES}
    assert defs["results"] == expected
    assert [v for _, v in stats(page)] == [
        str(x) for m in RUNTIMES for x in (expected[m].counts.attempts, expected[m].counts.effects)
    ]
    assert sequence_drawings(page) == [
        unescape_nested(sequence_view(expected[m], width=380)[0].svg) for m in RUNTIMES
    ]
    assert [s["datasets"] for s in vega_specs(page)] == [
        time_timeline_spec(expected[m], width=380)["datasets"] for m in RUNTIMES
    ]
    text = visible_text(page)
    assert f"{demo.assumption}. " in text.split("Assumptions this run breaks:")[1]
    assert "What restores the durable runtime's promise" in text


def test_the_restore_callout_lists_what_the_model_finds() -> None:
    label = lesson02.start_label(lesson02.STARTS[3])  # lookups down, failing open
    text = visible_text(run(start=start(label), skip_prediction=SKIP)[0])
    callout = text.split("What restores the durable runtime's promise")[1]
    # Hand-derived: dedupe saves it (1 debit), lookups back save it, failing closed parks it.
    assert "--receiver dedupe : 1 debit, exactly-once" in callout
    assert "--lookup available : 1 debit, exactly-once" in callout
    assert "--on-lookup-outage fail-closed : 1 debit, parked" in callout


def test_the_seeds_assumptions_keep_the_promise_and_break_nothing() -> None:
    text = visible_text(run(start=start(lesson02.SEED_START), skip_prediction=SKIP)[0])
    assert "This run keeps every assumption of the seed." in text
    assert "The durable runtime keeps its promise here: Recovered by operation key." in text


def test_a_changed_control_reruns_the_model() -> None:
    _, defs = run(**controls(lesson02.STARTS[1].scenario, key="stable"), skip_prediction=SKIP)
    assert defs["results"][Mode.DURABLE].counts.effects == 1


@pytest.mark.parametrize(
    ("retention", "delay", "deliveries", "message"),
    [
        ("abc", "60", ..., "Retention: 'abc' is not a number"),
        ("60", "-1", ..., "Redelivery delay: '-1'"),
        ("60", "60", None, "Delivery budget: 'None' is not a whole number from 1 to"),
        ("60", "60", 2.5, "Delivery budget: '2.5' is not a whole number"),
    ],
)
def test_unreadable_inputs_get_one_inline_line_and_the_seeds_value(
    retention: str, delay: str, deliveries: object, message: str
) -> None:
    demo = lesson02.STARTS[4].scenario
    page, defs = run(
        **controls(demo, retention=retention, delay=delay, deliveries=deliveries),
        skip_prediction=SKIP,
    )
    assert message in visible_text(page)
    assert "Traceback" not in page and defs["results"]


def test_a_named_schedule_leaves_the_delay_unread() -> None:
    choices = lesson02.choices_of(lesson02.STARTS[4].scenario) | {"schedule": "temporal"}
    scenario, errors = lesson02.scenario_from_controls(choices, 3, "60", "not read")
    assert errors == () and scenario.settings.schedule == "temporal"
    page, _ = run(
        **controls(lesson02.STARTS[4].scenario, delay="x", schedule="temporal"),
        skip_prediction=SKIP,
    )
    text = visible_text(page)
    assert "The temporal schedule has its own delays: the redelivery delay is not read." in text
    assert "Redelivery delay" not in text, "the unread delay is not parsed either"


def test_the_settings_say_what_the_chosen_fault_does() -> None:
    for fault in (Fault.REQUEST_LOST, Fault.CRASH_AFTER_RECORD):
        text = visible_text(run(**controls(Scenario(), fault=fault.value))[0])
        assert f"The fault, {fault.value} : {describe_fault(fault)}" in text
    # With the settings off, the runs are the starting point's and no setting is described.
    assert "The fault, " not in visible_text(run()[0])


def test_the_commands_print_the_runs_shown() -> None:
    page, defs = run(skip_prediction=SKIP)
    text = visible_text(page)
    for mode in RUNTIMES:
        scenario = defs["scenario"].model_copy(update={"mode": mode})
        command = command_line(scenario)
        assert command in text
        out = io.StringIO()
        assert main(command.split()[1:], stdout=out) == 0
        assert json.loads(out.getvalue()) == defs["results"][mode].model_dump(mode="json")


def test_the_checks_answer_is_the_only_option_the_model_bears_out(lessons: Lessons) -> None:
    question: Question = lessons.run(STEM)[1]["question"]
    # The question's setting: records kept 60 s, redeliveries 60 s apart, crash after effect.
    base = {"retention": "60", "redelivery_delay": "60"}
    options = dict(
        zip(
            question.options,
            (
                {"receiver": "dedupe"},
                {"retention": "180"},
                {"on_lookup_outage": "fail-closed"},
                {"key": "per-attempt"},
            ),
            strict=True,
        )
    )
    effects = {
        option: simulate(
            Scenario(
                fault=Fault.CRASH_AFTER_EFFECT,
                settings=LabSettings.model_validate(base | change),
            )
        ).counts.effects
        for option, change in options.items()
    }
    assert [o for o, n in effects.items() if n == 1] == [question.answer]
    answer = mo.ui.radio(list(question.options), value=question.answer)
    page, _ = run(understanding=answer, skip_prediction=SKIP)
    assert "Right." in visible_text(page)


def test_every_choice_control_offers_the_settings_closed_set() -> None:
    for names in lesson02.GROUPS.values():
        for name in names:
            if name in {"retention", "redelivery_delay"}:
                continue
            kind = LabSettings.model_fields[name].annotation
            assert setting_controls.choice_options(name) == [m.value for m in kind]  # type: ignore[union-attr]


def test_a_plan_replaces_the_fault_and_a_bad_one_says_why() -> None:
    page, defs = run(
        **controls(lesson02.STARTS[1].scenario, plan="1:after-effect,2:lookup"),
        skip_prediction=SKIP,
    )
    assert defs["scenario"].fault is None
    assert defs["results"][Mode.DURABLE].outcome.value == "parked"
    page, defs = run(**controls(lesson02.STARTS[1].scenario, plan="4:lookup"), skip_prediction=SKIP)
    assert "Fault plan: injection 4:lookup is past the delivery budget of 3" in visible_text(page)
    assert defs["scenario"].fault is Fault.CRASH_AFTER_EFFECT


def test_the_first_screen_has_one_control_and_the_rest_is_behind_more_settings(
    lessons: Lessons,
) -> None:
    page = unescape_nested(lessons.run(STEM)[0])
    start = page.rindex("<marimo-ui-element", 0, page.index("Start from"))
    first = page[start:].split("Predict first")[0]
    assert first.count("<marimo-dropdown") == 1, "the starting point, alone"
    assert "More settings" in first and "<marimo-switch" in first
    for control in ("Fault injected into the first delivery", "Delivery budget", "Fault plan"):
        assert control not in page
    # Switched on, every setting shows, at the starting point's values, before the question.
    shown = unescape_nested(run(more=mo.ui.switch(value=True))[0])
    settings = shown[shown.index("Start from") :].split("Predict first")[0]
    for control in ("Fault injected into the first delivery", "Delivery budget", "Fault plan"):
        assert control in settings
    assert settings.count("<marimo-dropdown") == 1 + sum(
        name in lesson02.choices_of(Scenario())
        for names in lesson02.GROUPS.values()
        for name in names
    )


def test_the_switch_on_runs_the_starting_point_until_a_setting_changes() -> None:
    # The settings start at the starting point's values: switching them on changes no run.
    for demo in lesson02.STARTS:
        label = lesson02.start_label(demo)
        _, off = run(start=start(label), skip_prediction=SKIP)
        _, on = run(start=start(label), more=mo.ui.switch(value=True), skip_prediction=SKIP)
        assert off["scenario"] == on["scenario"] == demo.scenario
        assert off["choices"] is None and on["choices"].value == lesson02.choices_of(demo.scenario)


def test_the_assumptions_table_is_run_once_and_shown_again(monkeypatch: pytest.MonkeyPatch) -> None:
    # The lesson shows it again on each change of its starting point: the runs it holds are
    # the course's fixed starting points, so a second showing runs nothing and says the same.
    lesson02.assumption_table.cache_clear()
    first = lesson02.assumption_table(True), lesson02.assumption_table(False)

    def no_run(*_: object) -> None:
        raise AssertionError("the table ran the model again")

    monkeypatch.setattr(lesson02, "simulate", no_run)
    monkeypatch.setattr(lesson02, "restorations", no_run)
    assert (lesson02.assumption_table(True), lesson02.assumption_table(False)) == first
    assert "0 debits, lost" in first[0] and "0 debits, lost" not in first[1]


def test_each_starting_point_asks_with_a_form_of_its_own_made_once(lessons: Lessons) -> None:
    # One form per starting point, named in its question, made by a cell no control re-runs:
    # a guess committed for one starting point reveals that one alone.
    _, defs = lessons.run(STEM)
    forms = defs["predictions"].elements  # type: ignore[attr-defined]
    assert list(forms) == list(lesson02.start_options())
    for label, form in forms.items():
        assert f"Starting from <em>{label}</em>" in unescape_nested(form.text)
    nb.app._maybe_initialize()  # marimo builds the graph at the first run: none may have run
    (made,) = [c for c in nb.app._graph.cells.values() if "predictions" in c.defs]
    assert made.refs <= {"lesson02", "mo", "reveal"}
    answered, other = lesson02.DEFAULT_START_LABEL, lesson02.SEED_START
    guesses = {label: SimpleNamespace(value=None) for label in forms}
    guesses[answered] = SimpleNamespace(value={"naive": 1, "durable": 1})
    for shown, revealed in ((answered, True), (other, False)):
        page, defs = run(start=start(shown), predictions=guesses)
        assert defs["revealed"] is revealed, shown
        assert ("you guessed" in visible_text(page) or "right," in visible_text(page)) is revealed


def test_a_starting_point_picked_the_first_time_renders_and_runs_only_what_the_start_made(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # warmup.warm: the page's start makes every starting point's runs and texts (the counts, the
    # broken assumptions, the sequence views, what restores the promise), so its first pick
    # answers as quickly as a return to it. What is left to make is what the page makes when
    # it is opened (a lesson run as a script makes it at once): the "Against time" tab's
    # timelines and the terminal fold's commands.
    starts = [{"start": SimpleNamespace(value=label)} for label in lesson02.start_options()]
    shown = {"skip_prediction": SimpleNamespace(value=True)}
    rendered, simulated = made_after_the_start(monkeypatch, run, starts, **shown)
    assert simulated == 0
    assert all(t.startswith(("```sh\n", "<small>Timeline of ")) for t in rendered), rendered
    # Without the start's work (a snapshot shows one starting point), each other one renders
    # what it breaks and what restores it, and runs its own runs.
    rendered, simulated = made_after_the_start(monkeypatch, run, starts, **shown, snapshot=True)
    assert simulated > 0
    assert [t for t in rendered if t.startswith("**What restores the durable runtime")]


def test_a_change_re_runs_few_cells_so_the_page_answers_soon() -> None:
    # Each cell a change re-runs costs marimo's machinery 15-30 ms in the WebAssembly page
    # (exports/README.md): a starting point makes the settings in one cell (none while they
    # are switched off), and the runs, the question and the answer show in one cell (counts,
    # traces, commands), the forms made once, one per starting point. The tables of
    # assumptions read no control.
    rerun = cells_rerun_by(nb, "start")
    assert len(rerun) == 2, rerun
    (made,) = [code for code in rerun if "mo.ui.dictionary(" in code]
    assert "if more.value else" in made and "reveal.prediction_form(" not in made
    (asked,) = [code for code in rerun if "reveal.ask(" in code]
    assert "simulate_each_mode(" in asked and "counts(revealed, results, _form.value)" in asked
    assert "reveal.keep_revealed(revealed, get_revealed, set_revealed)" in asked
    assert "predictions[start.value]" in asked
    assert not [c for c in rerun if "reveal.prediction_form(" in c]
    assert sorted(cells_rerun_by(nb, "more")) == sorted([made, asked])
    for control in ("choices", "deliveries", "retention", "delay", "plan", "predictions"):
        assert cells_rerun_by(nb, control) == [asked], control
    assert not [c for c in rerun if "assumption_table(" in c]
    # The answers' table, what to notice and the check wait for the guess and read no
    # control: they read the state, below the cell that sets it, and a change reruns none.
    waiting = [
        c for c in cells_rerun_by(nb, "get_revealed") if "get_revealed()" in c and c != asked
    ]
    assert len(waiting) == 3 and not set(waiting) & set(rerun), waiting
    for part in ("assumption_table()", "What to notice", "check("):
        assert [c for c in waiting if part in c], part


def test_the_table_without_answers_tries_no_change(monkeypatch: pytest.MonkeyPatch) -> None:
    # The column of changes that restore the promise is an answer: the table the first screen
    # folds stops before it, so it tries none of them; with answers, one try per starting point.
    tried: list[object] = []
    real = lesson02.restorations

    def counted_restorations(scenario: object) -> object:
        tried.append(scenario)
        return real(scenario)  # type: ignore[arg-type]

    monkeypatch.setattr(lesson02, "restorations", counted_restorations)
    lesson02.assumption_table.cache_clear()
    lesson02.assumption_table(answers=False)
    assert tried == []
    lesson02.assumption_table(answers=True)
    assert tried == [demo.scenario for demo in lesson02.STARTS]
    lesson02.assumption_table.cache_clear()


class _InAKernel:
    """marimo as its kernel shows itself to a lesson (``mo.running_in_notebook()``), whose
    ``mo.lazy`` keeps what it is handed, to make when a reader opens it."""

    def __init__(self) -> None:
        self.handed: list[Any] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(mo, name)

    def running_in_notebook(self) -> bool:
        return True

    def lazy(self, build: Any) -> Any:
        self.handed.append(build)
        return mo.md("(made when opened)")


@pytest.mark.parametrize("in_kernel", [True, False], ids=["live page", "script run"])
def test_the_folded_table_of_assumptions_is_made_when_opened(in_kernel: bool) -> None:
    # The first screen's table of the five assumptions is folded: in a live page it is made
    # when a reader opens the fold (its five runs are not the start's), and opened it is the
    # table without its answers; where nothing can call back (a script run, a snapshot), at once.
    header = "A run that breaks it"
    marimo = _InAKernel()
    lesson02.assumption_table.cache_clear()
    page, _ = run(**({"mo": marimo} if in_kernel else {}))
    if in_kernel:
        assert header not in page and "(made when opened)" in page
        made = [getattr(build(), "text", "") for build in marimo.handed]
        (opened,) = [text for text in made if header in text]
        assert "0 debits, lost" not in opened and "What each starting point gives" in opened
    else:
        assert header in page
    lesson02.assumption_table.cache_clear()
