"""Lesson 1, the Async Failure Lab: it runs headless, with its defaults and with substituted
controls, and shows the model; its check; its last section, "Does the model tell the truth?",
the table the build recorded (a fresh run is compared with it in
tests/reference/test_verify.py) and the live run a served lesson offers."""

import io
import re
import subprocess
import sys
from types import SimpleNamespace
from typing import Any

import marimo as mo
import pytest

from asyncfail import Fault, Mode, Scenario, simulate
from asyncfail.charts.sequence_drawing import sequence_view
from asyncfail.charts.timeline import narrate
from asyncfail.cli.main import main
from asyncfail.course.lesson01_async_failure_lab import verification
from asyncfail.course.lesson01_async_failure_lab.verified import VERIFIED_JSON
from asyncfail.ground.quiz import Question
from asyncfail.lab.scenario import SEED_FAULT
from asyncfail.lab.settings import KeyStability
from asyncfail.reference.verification import matrix
from tests.cli_support import ROOT
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
    visible_text,
)

STEM = "01_async_failure_lab"
nb = load_notebook(STEM)


# What the lesson makes together in one cell (`predict_then_reveal`), substituted together.
FAULT_RUNS = ("results", "revealed")


def run(**controls: object) -> tuple[str, dict[str, Any]]:
    """The lesson with ``controls`` substituted; one of ``FAULT_RUNS`` may be given alone, the
    others then come as the lesson makes them under the other controls given."""
    if set(FAULT_RUNS) & set(controls) and not set(FAULT_RUNS) <= set(controls):
        _, made = run_lesson(nb, **{k: v for k, v in controls.items() if k not in FAULT_RUNS})
        controls = {name: made[name] for name in FAULT_RUNS} | controls
    return run_lesson(nb, **controls)


def steps_at(steps: dict[Fault, int]) -> object:
    """The lesson's step sliders (one per fault, each to its fault's longest trace) with the
    given faults' moved to the given steps."""
    sliders = {}
    for f in Fault:
        longest = max(len(simulate(Scenario(fault=f, mode=m)).events) for m in RUNTIMES)
        sliders[f.value] = mo.ui.slider(1, longest, value=steps.get(f, longest))
    return mo.ui.dictionary(sliders)


def committed(guess: object, fault: Fault = Fault.CRASH_AFTER_EFFECT) -> dict[str, object]:
    """The lesson's forms (one per fault) with ``guess`` committed in ``fault``'s alone."""
    return {f.value: SimpleNamespace(value=guess if f is fault else None) for f in Fault}


def test_defaults_show_question_and_assumptions_but_hide_counts_until_predicted(
    lessons: Lessons,
) -> None:
    page, defs = lessons.run(STEM)
    text = visible_text(page)
    assert "The debit succeeds. The worker crashes before recording the result." in text
    for assumption in simulate(Scenario()).assumptions:
        assert assumption in text
    assert defs["revealed"] is False
    assert "Commit a guess" in text
    assert sequence_drawings(page) == [], "no trace before the learner predicts or skips"
    assert defs["fault"].value == "crash-after-effect"  # type: ignore[attr-defined]


def answer_words(results: dict[Mode, Any]) -> set[str]:
    """What the reveal would say of ``results``: each runtime's status, outcome and count of
    debits, in figures and in words."""
    words: set[str] = set()
    for result in results.values():
        effects = result.counts.effects
        words |= {result.status.value, result.outcome.value, f"{NUMBERS[effects]} debit"}
        words.add(f"{effects} debit" + ("" if effects == 1 else "s"))
    return words


NUMBERS = ("no", "one", "two", "three", "four")


def said(words: str, page: str) -> bool:
    """Whether ``page`` (markup and hidden panels included) says ``words``, as words (a
    "duplicate" outcome is not "deduplicate")."""
    return re.search(rf"\b{re.escape(words)}\b", unescape_nested(page), re.IGNORECASE) is not None


def test_nothing_on_the_page_gives_the_answer_before_the_guess(lessons: Lessons) -> None:
    # Read the whole default page, panels and collapsed accordions included: none of the
    # reveal's words until the learner commits; all of them once they have.
    page, defs = lessons.run(STEM)
    words = answer_words(defs["results"])
    assert {"Duplicate debit", "Recovered by operation key", "2 debits"} <= words
    assert [w for w in words if said(w, page)] == []
    after, _ = run(skip_prediction=mo.ui.switch(value=True))  # as a committed guess
    assert {w for w in words if w in visible_text(after)} >= {
        "Duplicate debit",
        "Recovered by operation key",
    }
    assert "only the naive loop turns them into two debits" in visible_text(after)
    assert "JSON printed by" in visible_text(after)


@pytest.mark.parametrize("fault", list(Fault))
def test_each_fault_shows_the_librarys_counts_status_and_traces(fault: Fault) -> None:
    page, defs = run(
        fault=mo.ui.dropdown([f.value for f in Fault], value=fault.value),
        skip_prediction=mo.ui.switch(value=True),
    )
    text = visible_text(page)
    expected = {m: simulate(Scenario(fault=fault, mode=m)) for m in RUNTIMES}
    assert defs["results"] == expected
    for result in expected.values():
        assert result.status.value in text
        assert f"Tool calls {result.counts.tool_calls} · lookups {result.counts.lookups}" in text
        assert f"outcome {result.outcome.value}" in text
    # The sequence view is the trace's view: one per runtime, message by message, drawn at
    # the step shown (every event of the trace is a row of it: test_sequence_drawing.py).
    step = defs["steps"].value[fault.value]
    assert sequence_drawings(page) == [
        unescape_nested(sequence_view(expected[m], step, width=380)[0].svg) for m in RUNTIMES
    ]
    for mode in RUNTIMES:
        assert f"{mode.value} runtime: {fault.value}, message by message" in text
        assert sequence_view(expected[mode])[0].description in text


def test_seed_case_counts_are_displayed_as_stats() -> None:
    page, _ = run(skip_prediction=mo.ui.switch(value=True))
    # Naive first, then durable: the seed's 2 attempts / 2 effects and 2 attempts / 1 effect.
    assert stats(page) == [
        ("Delivery attempts", "2"),
        ("Business effects", "2"),
        ("Delivery attempts", "2"),
        ("Business effects", "1"),
    ]


def test_stepping_moves_narration_and_highlight() -> None:
    page, defs = run(skip_prediction=mo.ui.switch(value=True), steps=steps_at({SEED_FAULT: 3}))
    naive = defs["results"][Mode.NAIVE]  # type: ignore[index]
    assert visible_text(narrate(naive, 3)) in visible_text(page)
    assert "Step 3 of 5, delivery attempt 1, worker: The worker process crashes" in visible_text(
        page
    )
    # Step 3 is current; the rows before it past, those after it future. The naive run under
    # crash-after-effect, by hand: delivery 1, steps 1, 2, 3, delivery 2, steps 4, 5.
    states = re.findall(r'data-state="(\w+)"', sequence_drawings(page)[0])
    assert states == ["past", "past", "past", "current", "future", "future", "future"]


def test_committed_prediction_is_judged_against_the_model() -> None:
    guess = {"naive": 1, "durable": 1}
    view, defs = run(predictions=committed(guess))  # the seed's: naive 2 debits, durable 1
    assert defs["revealed"] is True
    text = visible_text(view)
    assert "naive: you guessed 1; the model applied 2 business effects" in text
    assert "durable: right, 1 business effect." in text


def test_skipping_lasts_across_faults_while_each_fault_has_its_own_prediction(
    lessons: Lessons,
) -> None:
    # Neither the skip switch nor the forms are built from the fault: a learner who skips
    # keeps skipping as they try other faults, and a new fault shows its own form, made once,
    # asking about it by name.
    nb.app._maybe_initialize()  # marimo builds the graph at the first run: none may have run
    graph = nb.app._graph
    for name in ("skip_prediction", "predictions"):
        (cell,) = [c for c in graph.cells.values() if name in c.defs]
        assert "fault" not in cell.refs, name
    _, first = lessons.run(STEM)
    _, second = run(fault=mo.ui.dropdown([f.value for f in Fault], value="none"))
    skips = [visible_text(run["skip_prediction"].text) for run in (first, second)]  # type: ignore[attr-defined]
    assert skips[0] == skips[1] and "crash-after-effect" not in skips[0]
    forms = first["predictions"]
    assert list(forms.elements) == [f.value for f in Fault]  # type: ignore[attr-defined]
    for fault, form in forms.elements.items():  # type: ignore[attr-defined]
        assert f"Under <strong>{fault}</strong>" in unescape_nested(form.text)


def test_a_fault_picked_the_first_time_renders_and_runs_only_what_the_start_made(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # warmup.warm: the page's start makes every fault's runs and texts, so the first pick of a
    # fault answers as quickly as a return to it. Showing any fault then runs no model and
    # renders no text the start did not, but the terminal fold's commands and JSON, which the
    # page makes when the fold opens (a lesson run as a script makes its folds at once).
    faults = [{"fault": SimpleNamespace(value=f.value)} for f in Fault]
    shown = {"skip_prediction": SimpleNamespace(value=True)}
    rendered, simulated = made_after_the_start(monkeypatch, run, faults, **shown)
    assert simulated == 0
    assert rendered and all(t.startswith(("```sh\n", "```json\n")) for t in rendered), rendered
    # Without the start's work (a snapshot shows one fault, and skips it), each other fault
    # renders its own description when it is shown. Its runs were made at the start all the
    # same: each fault's step slider reaches the fault's longest trace.
    rendered, simulated = made_after_the_start(monkeypatch, run, faults, **shown, snapshot=True)
    described = {f for f in Fault if [t for t in rendered if t.startswith(f"**{f.value}**: ")]}
    assert described == set(Fault) - {SEED_FAULT}
    assert simulated == 0


@pytest.mark.parametrize(
    ("answered", "shown", "revealed"),
    [
        (Fault.CRASH_AFTER_EFFECT, Fault.CRASH_AFTER_EFFECT, True),
        (Fault.CRASH_AFTER_EFFECT, Fault.NONE, False),
        (Fault.NONE, Fault.NONE, True),
        (Fault.NONE, Fault.CRASH_AFTER_EFFECT, False),
    ],
)
def test_a_committed_guess_answers_its_own_fault_only(
    answered: Fault, shown: Fault, revealed: bool
) -> None:
    guess = {"naive": 2, "durable": 1}
    page, defs = run(
        fault=mo.ui.dropdown([f.value for f in Fault], value=shown.value),
        predictions=committed(guess, answered),
    )
    text = visible_text(page)
    assert defs["revealed"] is revealed
    assert ("Commit a guess of the business effects" in text) is not revealed
    assert ("you guessed" in text or "right," in text) is revealed
    assert (len(sequence_drawings(page)) == 2) is revealed, "no trace before this fault's guess"


def test_cli_command_and_json_match_the_cli() -> None:
    page, _ = run(
        fault=mo.ui.dropdown([f.value for f in Fault], value="response-lost"),
        skip_prediction=mo.ui.switch(value=True),
    )
    text = visible_text(page)
    for mode in RUNTIMES:
        argv = ["lab", "--fault", "response-lost", "--mode", mode.value]
        assert "asyncfail " + " ".join(argv) in text
        out = io.StringIO()
        assert main(argv, stdout=out) == 0
        # Syntax highlighting splits the JSON into spans: compare without whitespace.
        assert "".join(out.getvalue().split()) in "".join(text.split())


def test_check_question_feedback(lessons: Lessons) -> None:
    question: Question = lessons.run(STEM)[1]["question"]
    assert "durable runtime's second attempt" in question.prompt
    skip = mo.ui.switch(value=True)
    answer = mo.ui.radio(list(question.options), value=question.answer)
    page, _ = run(understanding=answer, skip_prediction=skip)
    assert "Right." in visible_text(page)
    wrong = question.options[0]
    page, _ = run(
        understanding=mo.ui.radio(list(question.options), value=wrong), skip_prediction=skip
    )
    assert "Not quite." in visible_text(page)


def test_the_checks_answer_is_what_the_model_does() -> None:
    # The answer: the durable runtime looks the key up before calling again, and debits once.
    durable = simulate(Scenario(fault=Fault.CRASH_AFTER_EFFECT, mode=Mode.DURABLE))
    naive = simulate(Scenario(fault=Fault.CRASH_AFTER_EFFECT, mode=Mode.NAIVE))
    assert (durable.counts.lookups, durable.counts.effects) == (1, 1)
    assert (naive.counts.lookups, naive.counts.effects) == (0, 2)


def test_a_static_snapshot_shows_the_results_without_the_prediction_step(
    lessons: Lessons,
) -> None:
    # `marimo export html ... -- --snapshot` sets this; a snapshot cannot take a prediction.
    page, defs = lessons.run(STEM, snapshot=True)
    assert defs["revealed"] is True
    assert ("Business effects", "2") in stats(page)
    assert "Static snapshot: the counts are shown without the prediction step." in visible_text(
        page
    )
    assert len(sequence_drawings(page)) == 2


@pytest.mark.parametrize(
    "guesses",
    [
        {"naive": None, "durable": None},
        {"naive": 2.5, "durable": -1},
        {"naive": "x", "durable": 99},
    ],
)
def test_a_committed_guess_that_is_not_a_count_is_explained_not_judged(
    guesses: dict[str, object],
) -> None:
    view, _ = run(predictions=committed(guesses))
    text = visible_text(view)
    for mode in RUNTIMES:
        assert f"{mode.value}: no guess to judge; enter a whole number" in text
    assert ("Business effects", "2") in stats(view), "the counts still show"


# --- Does the model tell the truth? ---------------------------------------------------------


def test_the_section_shows_the_recorded_verdict_date_platform_and_command(
    lessons: Lessons,
) -> None:
    page, _ = lessons.run(STEM, snapshot=True)  # the recorded table shows once revealed
    text = visible_text(page)
    found = verification.recorded()
    title = "Does the model tell the truth?"
    assert title in text
    assert visible_text(verification.summary(found).replace("**", "")) in text
    assert found.date in text and found.platform in text
    assert ".venv/bin/asyncfail verify --format text" in text
    # Last section of the lesson: after what to notice, before the check for understanding.
    assert text.index("What to notice") < text.index(title) < text.index("Check:")


def test_the_table_has_a_row_per_recorded_case_under_the_librarys_labels(
    lessons: Lessons,
) -> None:
    page, _ = lessons.run(STEM, snapshot=True)  # the recorded table shows once revealed
    markup = unescape_nested(page)
    found = verification.recorded()
    assert re.search(rf"data-total-rows='{len(found.rows)}'", markup)
    rows = verification.table_rows(found)
    assert len(rows) == len(found.rows) == 112
    assert list(rows[0]) == list(verification.COLUMNS.values())
    assert rows[0][verification.COLUMNS["case"]] == "none naive stable atomic lookup-only"
    for label in verification.COLUMNS.values():
        assert label in markup


def test_the_recorded_document_names_when_where_and_what_ran() -> None:
    assert VERIFIED_JSON.lstrip().startswith("{")
    found = verification.recorded()
    assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", found.date)
    assert "Python 3." in found.platform
    assert {row["case"]["fault"] for row in found.rows} == {f.value for f in Fault}
    assert verification.verdict_kind(found) == ("danger" if found.disagreements else "success")


def test_a_disagreement_would_be_said_first_and_named() -> None:
    found = verification.recorded()
    broken = verification.RecordedVerification(
        found.date, found.platform, found.deliveries, found.rows, ("a b c d e",)
    )
    assert verification.summary(broken).startswith("**1 disagree with the model: a b c d e.**")
    assert verification.verdict_kind(broken) == "danger"


class Pressed:
    """A run button, pressed (what `mo.ui.run_button().value` is once clicked)."""

    value = True


def test_only_a_served_lesson_on_a_platform_with_processes_offers_a_live_run() -> None:
    # Served (an HTTP request) and able to start processes: the only case with a button.
    assert verification.can_run_live(served=True, platform="linux")
    assert verification.can_run_live(served=True, platform="darwin")
    assert not verification.can_run_live(served=True, platform="emscripten")  # WebAssembly
    assert not verification.can_run_live(served=False, platform="linux")  # an export, a test
    assert not verification.can_run_live(served=False, platform="emscripten")


def test_a_lesson_run_without_a_server_shows_the_command_and_no_button(lessons: Lessons) -> None:
    page, defs = lessons.run(STEM)
    text = visible_text(page)
    assert defs["live_run"] is None
    assert "Run the verification here" not in text
    assert "This page shows the table the build recorded: a browser cannot start processes." in text
    assert "This page is served by Python" not in text


def test_exporting_the_lesson_never_loads_the_reference_implementation() -> None:
    # Apart: this test process may have loaded it for other tests. The export's path is this
    # (the notebook run once, without a server); the browser's never has a button either.
    code = (
        "import sys; from tests.notebook_support import load_notebook, run_lesson; "
        "run_lesson(load_notebook('01_async_failure_lab')); "
        "print(sorted(m for m in sys.modules if m.startswith('asyncfail.reference')))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert done.stdout.strip().splitlines()[-1] == "[]", done.stderr


def test_pressing_run_runs_the_reference_and_shows_the_result_just_now(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from asyncfail.reference import live

    cases = matrix(faults=[Fault.CRASH_AFTER_EFFECT], keys=[KeyStability.STABLE])[::2]
    monkeypatch.setattr(live, "default_cases", lambda: cases)
    page, _ = run_lesson(nb, live_run=Pressed(), skip_prediction=mo.ui.switch(value=True))
    text = visible_text(page)
    platform = live.this_platform()
    assert f"{verification.AGREES} Run just now on {platform}: 4 cases" in text
    assert "This page is served by Python" in text
    # The recorded table (every case) and the one just run (these four).
    # (The last two tables: the traces' tables, revealed, come before.)
    totals = re.findall(r"data-total-rows='(\d+)'", unescape_nested(page))[-2:]
    assert totals == [str(len(verification.recorded().rows)), str(len(cases))] == ["112", "4"]
    # After the section's words and before what the section says to notice.
    assert text.index("Run just now") < text.index("What the table shows")


def test_a_reference_that_cannot_run_is_one_inline_message(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from asyncfail.reference import live

    def broken(progress: object) -> object:
        raise live.ReferenceFailure("the receiver did not start: no such interpreter")

    monkeypatch.setattr(live, "run", broken)
    page, _ = run_lesson(nb, live_run=Pressed())
    text = visible_text(page)
    assert "The reference implementation could not run here." in text
    assert "the receiver did not start: no such interpreter" in text
    assert "Traceback" not in text


def test_each_page_of_the_recorded_table_is_one_fault(lessons: Lessons) -> None:
    rows = verification.table_rows(verification.recorded())
    label, size = verification.COLUMNS["case"], verification.TABLE_PAGE
    pages = [rows[start : start + size] for start in range(0, len(rows), size)]
    assert [len(page) for page in pages] == [size] * len(Fault)
    for page, fault in zip(pages, Fault, strict=True):
        assert {row[label].split()[0] for row in page} == {fault.value}
    assert re.search(
        rf"data-page-size='{size}'", unescape_nested(lessons.run(STEM, snapshot=True)[0])
    )


def test_a_fault_re_runs_one_cell_and_the_cells_waiting_for_the_guess_only_when_it_changes() -> (
    None
):
    # Each cell a change re-runs costs marimo's machinery 15-30 ms in the WebAssembly page
    # (exports/README.md): everything a fault shows (its description, its question, the counts
    # its answer shows, the traces and the same run in a terminal) is one cell. The prediction
    # forms and the step sliders, one per fault, are made once, by cells the fault never
    # re-runs.
    rerun = cells_rerun_by(nb, "fault")
    assert len(rerun) == 1, rerun
    (asked,) = rerun
    assert "fault_runs(fault.value)" in asked and "mo.ui.slider(" not in asked
    assert "reveal.prediction_form(" not in asked and "predictions[fault.value]" in asked
    # The dropdown shows from its own cell, which its change never re-runs: inside the
    # description's Markdown, its HTML was rendered as Markdown again on every change.
    assert "{fault}" not in asked
    assert "counts(revealed, results, _form.value)" in asked
    assert "reveal.keep_revealed(revealed, get_revealed, set_revealed)" in asked
    assert "trace_panel(r, steps.value[fault.value])" in asked and "command_lines(" in asked
    # What to notice, the recorded table and the check wait for the guess and read no control:
    # they read the state, which only keep_revealed sets, never ``revealed``.
    waiting = [c for c in cells_rerun_by(nb, "get_revealed") if "get_revealed()" in c]
    assert len(waiting) == 3 and not set(waiting) & set(rerun), waiting
    assert [c for c in waiting if "What to notice" in c]
    assert [c for c in waiting if "verification.recorded()" in c]
    assert [c for c in waiting if "page.check(" in c]
    assert cells_rerun_by(nb, "revealed") == []
    assert cells_rerun_by(nb, "steps") == [asked]


def test_each_fault_has_its_step_slider_to_its_longest_trace_and_keeps_its_step(
    lessons: Lessons,
) -> None:
    _, defs = lessons.run(STEM)
    for fault in Fault:
        step = defs["steps"][fault.value]
        longest = max(len(simulate(Scenario(fault=fault, mode=m)).events) for m in RUNTIMES)
        assert (step.start, step.stop, step.value) == (1, longest, longest), fault
    # A step stays with the fault it was taken in: another fault shows its traces whole.
    moved = steps_at({Fault.CRASH_AFTER_EFFECT: 2})
    for fault, step in ((Fault.CRASH_AFTER_EFFECT, 2), (Fault.RESPONSE_LOST, 5)):
        page, _ = run(
            fault=mo.ui.dropdown([f.value for f in Fault], value=fault.value),
            skip_prediction=mo.ui.switch(value=True),
            steps=moved,
        )
        assert f"Step {step} of 5, delivery attempt" in visible_text(page), fault
