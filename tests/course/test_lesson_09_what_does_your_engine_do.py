"""Lesson 9, "What does your engine do?": it runs headless; it asks before it shows; the learner's
three guesses are judged against the model; the DBOS rows it shows are the table
``make engine-record`` recorded (``ground/engine_verified.py``, read here on its own); a lesson
run without a server offers no live run and loads neither the engines nor DBOS; a pressed run
shows its result or one inline message; the snapshot shows everything, labelled."""

import json
import re
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import marimo as mo
import pytest

from asyncfail.charts.sequence_drawing import sequence_view
from asyncfail.cli.verdicts import verdict_lines
from asyncfail.course import lesson09_what_does_your_engine_do as engine_lesson
from asyncfail.course import live as live_policy
from asyncfail.ground.engine_verified import ENGINE_VERIFIED_JSON
from asyncfail.ground.quiz import Question
from asyncfail.lab.faults import Fault
from asyncfail.lab.scenario import Mode, Scenario
from asyncfail.lab.settings import KeyStability, LabSettings, ReceiverContract
from asyncfail.lab.simulation import simulate
from tests.cli_support import ROOT
from tests.course.conftest import Lessons
from tests.notebook_support import (
    load_notebook,
    run_lesson,
    sequence_drawings,
    stats,
    unescape_nested,
    vega_specs,
    visible_text,
)

STEM = "09_what_does_your_engine_do"
nb = load_notebook(STEM)
DOCUMENT: dict[str, Any] = json.loads(ENGINE_VERIFIED_JSON)

# The seed's crash under each run, written out by hand from issue 22 and DESIGN.md ("the
# runtimes and their promises"): a plain step debits twice, a step with the stable key at a
# deduplicating receiver once, the durable pattern once. (field, name, mode, key, receiver,
# debits)
EXPECTED = [
    ("plain", "Plain engine step", "checkpoint", "none", "lookup-only", 2),
    (
        "keyed",
        "Step with a key at a deduplicating receiver",
        "checkpoint",
        "stable",
        "dedupe",
        1,
    ),
    ("durable", "The course's durable pattern", "durable", "stable", "lookup-only", 1),
]


def recorded_row(mode: str, key: str, receiver: str) -> dict[str, Any]:
    """The recorded row of the seed's crash under these settings, read from the document."""
    (row,) = [
        r
        for r in DOCUMENT["rows"]
        if r["case"]
        == {
            "fault": "crash-after-effect",
            "mode": mode,
            "key": key,
            "record": "atomic",
            "receiver": receiver,
        }
    ]
    return row


def test_the_three_runs_are_the_model_under_the_seeds_crash() -> None:
    runs = engine_lesson.model_runs()
    assert [r.field for r in engine_lesson.RUNS] == [e[0] for e in EXPECTED]
    for field, name, mode, key, receiver, debits in EXPECTED:
        settings = LabSettings(key=KeyStability(key), receiver=ReceiverContract(receiver))
        scenario = Scenario(fault=Fault.CRASH_AFTER_EFFECT, mode=Mode(mode), settings=settings)
        assert runs[field] == simulate(scenario)
        assert runs[field].counts.effects == debits, name


def test_defaults_ask_before_they_show(lessons: Lessons) -> None:
    page, defs = lessons.run(STEM)
    text = visible_text(page)
    assert defs["revealed"] is False
    assert "Commit my guesses" in unescape_nested(page)
    assert "Plain engine step:" in text and "The course's durable pattern:" in text
    # Nothing of the answer before a guess: no figure, no trace, no status, no DBOS row, no
    # verdict.
    assert stats(page) == []
    assert vega_specs(page) == [] and sequence_drawings(page) == []
    for word in ("Duplicate debit", "Deduplicated by the receiver", "Recovered by operation key"):
        assert word not in text
    assert "Where the pattern stops protecting you" not in text
    assert engine_lesson.AGREES not in text
    assert "Commit a guess for each of the three runs" in text


def test_committed_guesses_are_judged_against_the_model() -> None:
    guesses = SimpleNamespace(value={"plain": 1, "keyed": 1, "durable": 2})
    view, _ = nb.comparison_panel.run(
        prediction=guesses,
        revealed=True,
        results=engine_lesson.model_runs(),
        table=engine_lesson.recorded(),
    )
    text = visible_text(view.text)
    assert (
        "Plain engine step: you guessed 1; the model applied 2 business effects "
        "(more than you expected)." in text
    )
    assert "Step with a key at a deduplicating receiver: right, 1 business effect." in text
    assert (
        "The course's durable pattern: you guessed 2; the model applied 1 business effect "
        "(fewer than you expected)." in text
    )


@pytest.mark.parametrize("guesses", [{}, {"plain": 2.5, "keyed": -1, "durable": "x"}])
def test_a_guess_that_is_not_a_count_is_explained_not_judged(guesses: dict[str, object]) -> None:
    view, _ = nb.comparison_panel.run(
        prediction=SimpleNamespace(value=guesses),
        revealed=True,
        results=engine_lesson.model_runs(),
        table=engine_lesson.recorded(),
    )
    text = visible_text(view.text)
    for _, name, *_rest in EXPECTED:
        assert f"{name}: no guess to judge; enter a whole number" in text
    assert ("Model: debits", "2") in stats(view.text), "the figures still show"


def test_each_run_shows_the_models_debits_beside_the_recorded_dbos_rows(
    lessons: Lessons,
) -> None:
    page, _ = run_lesson(nb, skip_prediction=mo.ui.switch(value=True))
    figures = []
    for _, _, mode, key, receiver, debits in EXPECTED:
        row = recorded_row(mode, key, receiver)
        figures += [("Model: debits", str(debits)), ("DBOS: debits", str(row["real"]["effects"]))]
    assert stats(page) == figures
    text = visible_text(page)
    assert "DBOS : 2 delivery attempts, 2 debits ; workflow SUCCESS, started 2 times" in text
    assert "steps 1 intent_step: output; 2 dispatch_step: output" in text
    # The recorded run agrees: DBOS debited as the model says, in all three.
    assert [f[1] for f in figures[::2]] == [f[1] for f in figures[1::2]]


@pytest.mark.parametrize("run", engine_lesson.RUNS, ids=lambda run: run.field)
def test_the_trace_is_the_chosen_runs_sequence_view(run: engine_lesson.EngineRun) -> None:
    options = {r.name: r.field for r in engine_lesson.RUNS}
    page, _ = run_lesson(
        nb,
        skip_prediction=mo.ui.switch(value=True),
        trace_choice=mo.ui.dropdown(options, value=run.name),
    )
    expected = simulate(run.scenario())
    drawing, _ = sequence_view(expected)
    assert sequence_drawings(page) == [unescape_nested(drawing.svg)]
    assert drawing.title == f"{run.mode.value} runtime: crash-after-effect, message by message"
    debits = "1 debit" if expected.counts.effects == 1 else f"{expected.counts.effects} debits"
    assert drawing.description.endswith(f"{debits} applied.")
    assert drawing.description in visible_text(page)


def test_the_table_is_the_recorded_one_with_its_date_version_and_platform(
    lessons: Lessons,
) -> None:
    page, _ = lessons.run(STEM, snapshot=True)
    text = visible_text(page)
    for field in ("recorded", "version", "platform"):
        assert DOCUMENT[field] in text, field
    assert f"Recorded on {DOCUMENT['recorded']} with DBOS {DOCUMENT['version']}" in text
    assert f"{len(DOCUMENT['rows'])} cases" in text
    markup = unescape_nested(page)
    assert re.search(rf"data-total-rows='{len(DOCUMENT['rows'])}'", markup)
    rows = engine_lesson.table_rows(engine_lesson.recorded())
    assert len(rows) == len(DOCUMENT["rows"]) == 42
    for shown, row in zip(rows, DOCUMENT["rows"], strict=True):
        case = row["case"]
        label = engine_lesson.COLUMNS
        assert shown[label["case"]] == " ".join(
            (case["fault"], case["mode"], case["key"], case["receiver"])
        )
        real = row["real"]
        assert shown[label["real"]] == f"{real['attempts']} · {real['effects']} · {real['outcome']}"
        assert shown[label["workflows"]] == "; ".join(row["workflows"])
    for label in engine_lesson.COLUMNS.values():
        assert label in markup


def test_each_page_of_the_table_is_one_fault() -> None:
    rows = engine_lesson.table_rows(engine_lesson.recorded())
    size, label = engine_lesson.TABLE_PAGE, engine_lesson.COLUMNS["case"]
    pages = [rows[start : start + size] for start in range(0, len(rows), size)]
    assert [{row[label].split()[0] for row in page} for page in pages] == [{f.value} for f in Fault]


def test_a_disagreement_would_be_said_first_and_named() -> None:
    found = engine_lesson.recorded()
    broken = engine_lesson.EngineTable(
        None, found.engine, found.version, "here", 3, found.rows, ("a b c d e",)
    )
    said = engine_lesson.summary(broken)
    assert said.startswith("**1 disagree with the model: a b c d e.** Run just now with DBOS")
    assert engine_lesson.verdict_kind(broken) == "danger"


def test_an_inconclusive_case_is_said_apart_and_is_no_disagreement() -> None:
    found = engine_lesson.recorded()
    name = "request-lost checkpoint none atomic lookup-only"
    named = ("fault", "mode", "key", "record", "receiver")
    rows = tuple(
        row | {"inconclusive": True, "agrees": False}
        if " ".join(row["case"][field] for field in named) == name
        else row
        for row in found.rows
    )
    unsure = engine_lesson.EngineTable(
        None, found.engine, found.version, "here", 3, rows, (), (name,)
    )
    said = engine_lesson.summary(unsure)
    assert said.startswith(
        "**No case disagrees with the model. 1 inconclusive (a call timed out in every try "
        "with no injected fault to explain it; run again on a quieter machine): "
        f"{name}.** Run just now"
    )
    # The terminal names the same case in the same words (one sentence, one place).
    assert verdict_lines(len(rows), (), (name,))[-1] in said
    assert engine_lesson.verdict_kind(unsure) == "warn"
    verdicts = [row[engine_lesson.COLUMNS["agrees"]] for row in engine_lesson.table_rows(unsure)]
    assert verdicts.count("inconclusive") == 1 and verdicts.count("yes") == len(rows) - 1
    # A document from before the field (the recorded table) has no inconclusive case.
    assert found.inconclusive == ()


def test_a_static_snapshot_shows_everything_labelled(lessons: Lessons) -> None:
    page, defs = lessons.run(STEM, snapshot=True)
    text = visible_text(page)
    assert defs["revealed"] is True
    assert "This is a static snapshot" in text
    assert "Static snapshot: the counts are shown without the prediction step." in text
    assert len(stats(page)) == 6
    for title in ("The model and DBOS, side by side", "Where the pattern stops protecting you"):
        assert title in text
    question: Question = defs["question"]
    assert f"Answer: {question.answer}" in text


def test_a_lesson_run_without_a_server_offers_no_live_run(lessons: Lessons) -> None:
    page, defs = lessons.run(STEM)
    assert defs["live_run"] is None
    assert "Run DBOS here" not in visible_text(page)
    assert ".venv/bin/asyncfail verify --engine dbos --format text" in visible_text(page)


def test_a_served_lesson_offers_the_button_only_where_the_policy_allows() -> None:
    for chance in live_policy.LiveChance:
        stub = SimpleNamespace(
            LiveChance=live_policy.LiveChance, live_chance=lambda _request, c=chance: c
        )
        _, defs = nb.live_button.run(live=stub, revealed=True)
        offered = defs["live_run"] is not None
        assert offered is (chance is live_policy.LiveChance.CAN_RUN), chance
        # Never before the runs are revealed: DBOS's debits answer the prediction.
        _, defs = nb.live_button.run(live=stub, revealed=False)
        assert defs["live_run"] is None, chance


def test_exporting_the_lesson_never_loads_the_engines_dbos_or_the_reference() -> None:
    # Apart: this test process may have loaded them. The export's path is this (the notebook
    # run once, without a server); the WebAssembly page never has a button either.
    code = (
        "import sys; from tests.notebook_support import load_notebook, run_lesson; "
        f"run_lesson(load_notebook('{STEM}')); run_lesson(load_notebook('{STEM}'), "
        "snapshot=True); print(sorted(m for m in sys.modules if m.split('.')[0] == 'dbos' "
        "or m.startswith(('asyncfail.engines', 'asyncfail.reference'))))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert done.stdout.strip().splitlines()[-1] == "[]", done.stderr


class Pressed:
    """A run button, pressed (what `mo.ui.run_button().value` is once clicked)."""

    value = True


def test_pressing_run_shows_the_run_just_now(monkeypatch: pytest.MonkeyPatch) -> None:
    from asyncfail.engines import live

    # A stand-in for the minute-long DBOS matrix (tests/engines runs the real one): the
    # recorded document without its date, as live.run returns one, told of each case.
    told: list[tuple[int, int]] = []

    def run(progress: Any, engine: str = "dbos") -> dict[str, Any]:
        for done in range(1, 4):
            progress(done, 3)
            told.append((done, 3))
        return {k: v for k, v in DOCUMENT.items() if k != "recorded"} | {"platform": "here"}

    monkeypatch.setattr(live, "run", run)
    page, _ = run_lesson(nb, live_run=Pressed())
    text = visible_text(page)
    assert told == [(1, 3), (2, 3), (3, 3)]
    assert f"{engine_lesson.AGREES} Run just now with DBOS {DOCUMENT['version']} on here" in text
    assert text.index("Run DBOS yourself") < text.index("Run just now")


@pytest.mark.parametrize(
    ("failure", "said"),
    [
        ("unavailable", "the dbos engine needs the dbos package"),
        ("busy", "Another verification is running on this server (3 of 42 cases run"),
        ("failure", "the receiver did not start"),
    ],
)
def test_an_engine_that_cannot_run_is_one_inline_message(
    failure: str, said: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from asyncfail.engines import live

    errors = {
        "unavailable": live.EngineUnavailable("the dbos engine needs the dbos package"),
        "busy": live.Busy(12.0, 3, 42),
        "failure": live.ReferenceFailure("the receiver did not start"),
    }

    def broken(progress: Any, engine: str = "dbos") -> dict[str, Any]:
        raise errors[failure]

    monkeypatch.setattr(live, "run", broken)
    page, _ = run_lesson(nb, live_run=Pressed())
    text = visible_text(page)
    assert f"DBOS could not run here. {said}" in text
    assert "Traceback" not in text


def test_check_question_feedback_and_its_answer_is_what_the_model_does(
    lessons: Lessons,
) -> None:
    question: Question = lessons.run(STEM)[1]["question"]
    page, _ = run_lesson(nb, understanding=mo.ui.radio(list(question.options), question.answer))
    assert "Right." in visible_text(page)
    page, _ = run_lesson(nb, understanding=mo.ui.radio(list(question.options), question.options[0]))
    assert "Not quite." in visible_text(page)
    # The answer: the step runs again; a second debit unless the receiver deduplicates its key.
    runs = engine_lesson.model_runs()
    assert runs["plain"].counts.tool_calls == 2 and runs["plain"].counts.effects == 2
    assert runs["keyed"].counts.tool_calls == 2 and runs["keyed"].counts.effects == 1
    assert "runs the step again" in question.answer


def test_pressing_run_runs_dbos_for_real_and_shows_the_lessons_three_cases(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # The lesson's three cases on a real DBOS (the whole matrix is tests/engines'), under a lock
    # of this test's own, so another live run on the machine cannot make it busy.
    from asyncfail.engines import live
    from asyncfail.reference import live as reference_live
    from asyncfail.reference.verification import Case

    cases = tuple(Case.model_validate(run.case()) for run in engine_lesson.RUNS)
    monkeypatch.setattr(live, "default_cases", lambda engine="dbos": cases)
    monkeypatch.setattr(reference_live, "lock_path", lambda: tmp_path / "live.lock")
    page, _ = run_lesson(nb, live_run=Pressed())
    text = visible_text(page)
    assert f"{engine_lesson.AGREES} Run just now with DBOS {DOCUMENT['version']}" in text
    assert "3 cases" in text
    # Not revealed (no guess committed): only the run just now shows its figures, the model's
    # beside DBOS's, run by run.
    assert stats(page) == [
        ("Model: debits", "2"),
        ("DBOS: debits", "2"),
        ("Model: debits", "1"),
        ("DBOS: debits", "1"),
        ("Model: debits", "1"),
        ("DBOS: debits", "1"),
    ]
