"""The page parts every lesson shares (``asyncfail.course.page``): predict-then-reveal asked,
judged and revealed the same way in every lesson that uses it; and a static snapshot that says
it is one, shows its controls disabled, and answers its check."""

import builtins
import re
from types import SimpleNamespace
from typing import Any

import marimo as mo
import pytest

from asyncfail import Fault, Mode, Scenario
from asyncfail.course import page, prediction, reveal
from asyncfail.course.page import SNAPSHOT_BANNER
from asyncfail.ground.quiz import Question
from asyncfail.lab.simulation import simulate_each_mode
from tests.course.conftest import Lessons
from tests.notebook_support import (
    NOTEBOOKS,
    load_notebook,
    run_lesson,
    stats,
    unescape_nested,
    visible_text,
)

STEMS = [p.stem for p in sorted(NOTEBOOKS.glob("[0-9][0-9]_*.py"))]
# The lessons that predict the effect counts of both runtimes, with the component.
PREDICTING = ["01_async_failure_lab", "02_break_the_assumptions", "05_two_workers"]
SEED = simulate_each_mode(Scenario(fault=Fault.CRASH_AFTER_EFFECT))  # naive 2, durable 1
WAITING = "Commit a guess to see the runs."


def shown(element: object) -> str:
    return visible_text(element.text)  # type: ignore[attr-defined]


# --- predict, then reveal ----------------------------------------------------------------------


def test_the_form_has_a_field_per_runtime_starting_at_the_default_guess() -> None:
    form = reveal.prediction_form(mo, "Naive: {naive} Durable: {durable}")
    markup = unescape_nested(form.text)
    assert markup.count("<marimo-number") == 2
    assert markup.count(f"data-initial-value='{reveal.DEFAULT_GUESS}'") == 2
    assert reveal.COMMIT_LABEL in markup
    assert form.value is None, "nothing is committed until the button is pressed"


def test_a_form_per_choice_each_asking_its_own_question_in_the_choices_order() -> None:
    forms = reveal.prediction_forms(mo, {c: f"{c}: {{naive}} {{durable}}" for c in ("b", "a")})
    assert list(forms.elements) == ["b", "a"]
    for choice, form in forms.elements.items():
        assert visible_text(form.text).startswith(f"{choice}:")
        assert unescape_nested(form.text).count("<marimo-number") == 2
        assert form.value is None
    assert forms.value == {"b": None, "a": None}, "nothing committed in any"


@pytest.mark.parametrize(
    ("committed", "skipped", "snapshot", "revealed"),
    [
        (None, False, False, False),
        ({"naive": 1, "durable": 1}, False, False, True),
        (None, True, False, True),
        (None, False, True, True),
    ],
)
def test_the_results_are_revealed_by_a_guess_a_skip_or_a_snapshot(
    committed: object, skipped: bool, snapshot: bool, revealed: bool
) -> None:
    prediction = SimpleNamespace(value=committed)
    skip = mo.ui.switch(value=skipped)
    found, view = reveal.ask(mo, prediction, skip, snapshot)
    assert found is revealed
    assert (reveal.SNAPSHOT_NOTE.strip("*")[:40] in shown(view)) is snapshot


def test_a_snapshot_can_say_nothing_in_place_of_the_form() -> None:
    _, view = reveal.ask(mo, SimpleNamespace(value=None), mo.ui.switch(), True, note="")
    assert view.text == mo.md("").text


def test_until_revealed_only_the_waiting_callout_shows() -> None:
    view = reveal.reveal(mo, False, WAITING, SEED, None)
    assert WAITING in shown(view) and "neutral" in view.text and stats(view.text) == []


def test_the_reveal_shows_each_runtimes_counts_and_judges_each_guess() -> None:
    view = reveal.reveal(mo, True, WAITING, SEED, {"naive": 1, "durable": 1}, figures=True)
    text = shown(view)
    # Naive first: 2 attempts and 2 debits; durable: 2 attempts, 1 debit (hand-counted).
    assert stats(view.text) == [
        ("Delivery attempts", "2"),
        ("Business effects", "2"),
        ("Delivery attempts", "2"),
        ("Business effects", "1"),
    ]
    assert text.index("naive runtime") < text.index("durable runtime")
    assert "Tool calls 2 · lookups 0 · outcome duplicate" in text
    assert "Tool calls 1 · lookups 1 · outcome exactly-once" in text
    assert "naive: you guessed 1; the model applied 2 business effects (more" in text
    assert "durable: right, 1 business effect." in text
    assert WAITING not in text
    # The panels, then the feedback.
    assert text.index("durable runtime") < text.index("you guessed")


def test_the_reveal_without_a_guess_judges_nothing_and_places_extras() -> None:
    view = reveal.reveal(
        mo,
        True,
        WAITING,
        SEED,
        None,
        extra=lambda result: [mo.md(f"extra for {result.mode.value}")],
        above=[mo.md("ABOVE")],
        below=[mo.md("BELOW")],
    )
    text = shown(view)
    assert "guessed" not in text and "right," not in text and "Tool calls" not in text
    assert text.startswith("ABOVE") and text.endswith("BELOW")
    assert text.index("extra for naive") < text.index("durable runtime")


def test_feedback_can_come_before_the_panels() -> None:
    guess = {"naive": 2, "durable": 2}
    text = shown(reveal.reveal(mo, True, WAITING, SEED, guess, feedback_first=True))
    assert text.index("naive: right, 2 business effects.") < text.index("naive runtime")


def test_a_guess_that_is_not_a_count_gets_a_warning_not_a_verdict() -> None:
    view = reveal.reveal(mo, True, WAITING, SEED, {"naive": 2.5})
    assert "naive: no guess to judge" in shown(view)
    assert "data-kind='\"warn\"'" in unescape_nested(view.text)


@pytest.mark.parametrize("stem", PREDICTING)
def test_every_predicting_lesson_asks_with_the_component(stem: str, lessons: Lessons) -> None:
    page_html, defs = lessons.run(stem)
    assert defs["revealed"] is False
    # One form, or one per choice (lessons 1 and 2: ``mo.ui.dictionary``), each the component.
    forms = defs["predictions"].elements.values() if "predictions" in defs else [defs["prediction"]]
    for form in forms:
        assert reveal.COMMIT_LABEL in unescape_nested(form.text)
        assert form.value is None
    assert stats(page_html) == [], "no counts before a guess or a skip"
    assert list(defs["results"])[:2] == [Mode.NAIVE, Mode.DURABLE]


# --- what waits for the guess without reading a control -------------------------------------

# The lessons whose cells further down wait for the guess through the state (keep_revealed).
KEEPING = ["01_async_failure_lab", "02_break_the_assumptions", "03_idempotency_contract"]


def test_the_state_is_set_only_when_the_reveal_changes() -> None:
    # marimo reruns the readers of a state on each call of its setter: a call that would not
    # change the value must not be made. Checked against a state that records every call.
    held = [False]
    calls: list[bool] = []

    def set_revealed(value: bool) -> None:
        calls.append(value)
        held[0] = value

    for revealed in (False, True, True, True, False, False, True):
        reveal.keep_revealed(revealed, lambda: held[0], set_revealed)
        assert held[0] is revealed
    assert calls == [True, False, True]


@pytest.mark.parametrize("stem", KEEPING)
def test_the_state_is_read_only_below_the_cell_that_sets_it(stem: str) -> None:
    # Run as a script (``app.run()``, every lesson test), marimo reruns nothing on a state's
    # change: the readers see the new value only if they run after the setter. marimo runs
    # the ready cell that comes first in the file (dataflow order, ties broken by the file's
    # order). So when every cell the setter does not feed reads only cells above it, whatever
    # is above the setter runs before anything below it becomes the first ready cell, and a
    # reader below the setter runs after it.
    module = load_notebook(stem)
    module.app._maybe_initialize()
    graph = module.app._graph
    order = list(graph.cells)
    (setter,) = [cid for cid in order if "reveal.keep_revealed(" in graph.cells[cid].code]
    readers = [
        order.index(cid)
        for cid in order
        if "get_revealed()" in graph.cells[cid].code and cid != setter
    ]
    assert readers and min(readers) > order.index(setter), readers
    fed = graph.descendants(setter)
    defined: set[str] = set()
    for cid in order:
        cell = graph.cells[cid]
        if cid not in fed:
            assert cell.refs <= defined | set(dir(builtins)), (cell.code[:60], cell.refs)
        defined |= cell.defs


@pytest.mark.parametrize("stem", KEEPING)
def test_what_waits_for_the_guess_shows_once_revealed_in_a_script_run(
    stem: str, lessons: Lessons
) -> None:
    asked = visible_text(lessons.run(stem)[0])
    told = visible_text(run_lesson(load_notebook(stem), skip_prediction=mo.ui.switch(True))[0])
    waiting = re.findall(r"What to notice shows once you commit your \w+\.", asked)
    assert len(waiting) == 1 and waiting[0] not in told
    assert "What to notice" in told and len(told) > len(asked)


# --- static snapshots -------------------------------------------------------------------------

# Not shown in a snapshot at all: the check's radio (its answer is shown instead) and the
# prediction forms (a note says the snapshot skips them).
NOT_SHOWN = {"understanding", "prediction", "predictions"}


def controls(defs: dict[str, object]) -> dict[str, str]:
    """Every UI element a lesson shows, by name, as rendered (a dictionary of elements with its
    elements' markup unescaped)."""
    return {
        name: unescape_nested(value.text)  # type: ignore[attr-defined]
        for name, value in defs.items()
        if name not in NOT_SHOWN and "<marimo-ui-element" in str(getattr(value, "text", ""))
    }


@pytest.mark.parametrize("stem", STEMS)
def test_a_snapshot_is_labelled_disabled_and_answered(stem: str, lessons: Lessons) -> None:
    page_html, defs = lessons.run(stem, snapshot=True)
    text = visible_text(page_html)
    assert visible_text(SNAPSHOT_BANNER.replace("**", "")).split(":")[0] in text
    found = controls(defs)
    assert found, "every lesson has controls"
    for name, html in found.items():
        assert "data-disabled='true'" in html and "data-disabled='false'" not in html, name
    question = defs["question"]
    assert isinstance(question, Question)
    assert question.answer in text and question.explanation in text


@pytest.mark.parametrize("stem", STEMS)
def test_a_live_lesson_has_live_controls_and_no_banner(stem: str, lessons: Lessons) -> None:
    page_html, defs = lessons.run(stem)
    assert "This is a static snapshot" not in visible_text(page_html)
    for name, html in controls(defs).items():
        assert "data-disabled='false'" in html and "data-disabled='true'" not in html, name


@pytest.mark.parametrize(
    ("guess", "expected"),
    [
        ("It applies: a second debit.", ("**Right:** It applies: a second debit.", True)),
        (
            "It reuses: no second debit.",
            (
                "**You chose:** It reuses: no second debit. **The model:** It applies: a "
                "second debit.",
                False,
            ),
        ),
        (None, (prediction.CHOICE_NONE, None)),
        ("", (prediction.CHOICE_NONE, None)),
        (3, (prediction.CHOICE_NONE, None)),
    ],
)
def test_a_committed_choice_is_judged_against_the_models_answer(
    guess: object, expected: tuple[str, bool | None]
) -> None:
    assert prediction.choice_feedback(guess, "It applies: a second debit.") == expected


def test_a_draft_set_is_compared_with_the_models_in_the_models_order() -> None:
    expected = ["b", "a"]
    assert prediction.set_feedback("P0", ["a", "b"], expected) == (
        "**P0: right.** \n- b\n- a",
        True,
    )
    text, right = prediction.set_feedback("P0", ["a", "c"], expected)
    assert right is False
    assert text == (
        "**P0.** The model's: \n- b\n- a\n\nYou left out: \n- b\n\nThe model does not choose: \n- c"
    )
    for nothing in ([], None, "a", [3]):
        assert prediction.set_feedback("P0", nothing, expected) == (
            "**P0: nothing chosen.** The model's: \n- b\n- a",
            None,
        )


# Lessons 2 to 8 open with retrieval practice (lesson 9, written apart, is not held to it here).
RECALLING = [stem for stem in STEMS if "02" <= stem[:2] <= "08"]


def plain(markdown: str) -> str:
    """Markdown as the page shows it, for finding it in ``visible_text``."""
    return visible_text(markdown.replace("**", "").replace("`", ""))


@pytest.mark.parametrize("stem", RECALLING)
def test_a_lesson_opens_with_a_question_on_an_earlier_one(stem: str, lessons: Lessons) -> None:
    page_html, defs = lessons.run(stem)
    recall: Question = defs["recall"]
    earlier = int(defs["earlier"].removeprefix("lesson "))
    assert 1 <= earlier < int(stem[:2]), "a lesson the learner has done"
    text = visible_text(page_html)
    label = plain(page.RECALL_LABEL.format(earlier=defs["earlier"], prompt=recall.prompt))
    # Right after what the lesson promises, before any of its own words.
    objectives = text.split(label)[0].split("After this lesson you will be able to:")[1]
    assert len(objectives) < 600, "nothing but the objectives between them"
    assert plain(recall.explanation) not in text, "no feedback before an answer"
    snapshot, _ = lessons.run(stem, snapshot=True)
    assert f"Answer: {plain(recall.answer)} {plain(recall.explanation)}" in visible_text(snapshot)


@pytest.mark.parametrize("stem", RECALLING[:2])
def test_answering_the_recall_question_says_right_or_not_with_why(
    stem: str, lessons: Lessons
) -> None:
    recall: Question = lessons.run(stem)[1]["recall"]
    wrong = next(o for o in recall.options if o != recall.answer)
    for choice, verdict in ((recall.answer, "Right."), (wrong, "Not quite.")):
        chosen = mo.ui.radio(list(recall.options), value=choice)
        page_html, _ = run_lesson(lessons.notebook(stem), remembered=chosen)
        assert f"{verdict} {plain(recall.explanation)}" in visible_text(page_html)


# --- a learner's input, refused ----------------------------------------------------------------


def test_a_refused_input_is_an_alert_that_holds_every_line() -> None:
    """Announced to a screen reader as it appears (WCAG 4.1.3): the callout sits in one element
    of role alert; no refusal, no alert (an empty alert would still be announced by some)."""
    view = page.errors(mo, ["Retention: 'x' is not a duration", "Plan: 'y' is not a plan"])
    assert view.text.startswith('<div role="alert">') and view.text.count('role="alert"') == 1
    said = visible_text(view.text)
    assert "Retention: 'x' is not a duration" in said and "Plan: 'y' is not a plan" in said
    assert 'role="alert"' not in page.errors(mo, []).text


# --- made when opened ---------------------------------------------------------------------------


def kernel(snapshot: bool, in_kernel: bool) -> SimpleNamespace:
    """marimo as a lesson sees it: in a kernel or a script run, a snapshot or not; ``lazy``
    records what it was handed and builds nothing."""
    handed: list[object] = []
    return SimpleNamespace(
        cli_args=lambda: [page.SNAPSHOT_FLAG] if snapshot else [],
        running_in_notebook=lambda: in_kernel,
        lazy=lambda build: handed.append(build) or ("lazy", build),
        handed=handed,
    )


@pytest.mark.parametrize(
    ("snapshot", "in_kernel", "deferred"),
    [(False, True, True), (True, True, False), (False, False, False), (True, False, False)],
    ids=["live page", "snapshot", "script run", "snapshot script"],
)
def test_a_fold_is_made_when_opened_only_where_python_can_be_called_back(
    snapshot: bool, in_kernel: bool, deferred: bool
) -> None:
    made: list[str] = []

    def build() -> str:
        made.append("built")
        return "content"

    fake = kernel(snapshot, in_kernel)
    got = page.on_open(fake, build)
    if deferred:
        assert got == ("lazy", build) and made == [] and fake.handed == [build]
    else:
        assert got == "content" and made == ["built"] and fake.handed == []


@pytest.mark.parametrize("snapshot", [False, True], ids=["live page", "snapshot"])
def test_a_charts_rows_are_made_when_its_table_is_opened(snapshot: bool) -> None:
    # A lesson may hand `chart` what makes the rows (a heatmap's cost more than its chart):
    # in a live page nothing is made until the fold opens; in a snapshot, at once.
    made: list[int] = []

    def rows() -> list[dict[str, object]]:
        made.append(1)
        return [{"delay": "60 s", "finding": "reused"}]

    handed: list[Any] = []
    fake = SimpleNamespace(
        vstack=mo.vstack, md=mo.md, accordion=mo.accordion, ui=mo.ui,
        cli_args=lambda: [page.SNAPSHOT_FLAG] if snapshot else [],
        running_in_notebook=lambda: True,
        lazy=lambda build: handed.append(build) or mo.md("(opens)"),
    )  # fmt: skip
    view = page.chart(fake, {"description": "A heatmap."}, rows)
    if snapshot:
        assert made == [1] and handed == [] and "reused" in unescape_nested(view.text)
        return
    assert made == [] and len(handed) == 1 and "reused" not in unescape_nested(view.text)
    table = handed[0]()
    assert made == [1] and "reused" in unescape_nested(table.text)


def test_a_runtime_panel_is_made_once_per_run_and_one_with_a_chart_each_time() -> None:
    naive, durable = simulate_each_mode(Scenario(fault=Fault.CRASH_AFTER_EFFECT)).values()
    panel = reveal.runtime_panel(mo, naive)
    # The panel says the run's own figures and status, and is the same object when that run
    # is shown again; another run, or the figures line, is another panel.
    assert f"{naive.counts.attempts}" in panel.text and naive.status.value in panel.text
    assert reveal.runtime_panel(mo, naive) is panel
    assert reveal.runtime_panel(mo, durable) is not panel
    assert durable.status.value in reveal.runtime_panel(mo, durable).text
    with_figures = reveal.runtime_panel(mo, naive, figures=True)
    assert with_figures is not panel and f"{naive.counts.lookups}" in with_figures.text
    # With extra (a chart whose table fold is a control), made each time, extra inside.
    chart = mo.md("the chart")
    once, twice = (reveal.runtime_panel(mo, naive, extra=[chart]) for _ in range(2))
    assert once is not twice and "the chart" in once.text
