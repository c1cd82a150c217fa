"""Lesson 1's "Does the model tell the truth?": the table the build recorded, laid out from the
library's words, after what to notice and before the check; and the recorded document itself
(a fresh run is compared with it in tests/reference/test_verify.py)."""

import re
import subprocess
import sys

import pytest

from asyncfail.course import truth_lesson
from asyncfail.course.verified import VERIFIED_JSON
from asyncfail.lab.faults import Fault
from asyncfail.lab.settings import KeyStability
from asyncfail.reference.verification import matrix
from tests.cli_support import ROOT
from tests.notebook_support import load_notebook, run_lesson, unescape_nested, visible_text

nb = load_notebook("01_async_failure_lab")


def test_the_section_shows_the_recorded_verdict_date_platform_and_command() -> None:
    page, _ = run_lesson(nb)
    text = visible_text(page)
    found = truth_lesson.recorded()
    title = truth_lesson.TITLE.removeprefix("## ")
    assert title in text
    assert visible_text(truth_lesson.summary(found).replace("**", "")) in text
    assert found.date in text and found.platform in text
    assert ".venv/bin/asyncfail verify --format text" in text
    # Last section of the lesson: after what to notice, before the check for understanding.
    assert text.index("What to notice") < text.index(title) < text.index("Check:")


def test_the_table_has_a_row_per_recorded_case_under_the_librarys_labels() -> None:
    page, _ = run_lesson(nb)
    markup = unescape_nested(page)
    found = truth_lesson.recorded()
    assert re.search(rf"data-total-rows='{len(found.rows)}'", markup)
    rows = truth_lesson.table_rows(found)
    assert len(rows) == len(found.rows) == 112
    assert list(rows[0]) == list(truth_lesson.COLUMNS.values())
    assert rows[0][truth_lesson.COLUMNS["case"]] == "none naive stable atomic lookup-only"
    for label in truth_lesson.COLUMNS.values():
        assert label in markup


def test_the_recorded_document_names_when_where_and_what_ran() -> None:
    assert VERIFIED_JSON.lstrip().startswith("{")
    found = truth_lesson.recorded()
    assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", found.date)
    assert "Python 3." in found.platform
    assert {row["case"]["fault"] for row in found.rows} == {f.value for f in Fault}
    assert truth_lesson.verdict_kind(found) == ("danger" if found.disagreements else "success")


def test_a_disagreement_would_be_said_first_and_named() -> None:
    found = truth_lesson.recorded()
    broken = truth_lesson.RecordedVerification(
        found.date, found.platform, found.deliveries, found.rows, ("a b c d e",)
    )
    assert truth_lesson.summary(broken).startswith("**1 disagree with the model: a b c d e.**")
    assert truth_lesson.verdict_kind(broken) == "danger"


class Pressed:
    """A run button, pressed (what `mo.ui.run_button().value` is once clicked)."""

    value = True


def test_only_a_served_lesson_on_a_platform_with_processes_offers_a_live_run() -> None:
    # Served (an HTTP request) and able to start processes: the only case with a button.
    assert truth_lesson.can_run_live(served=True, platform="linux")
    assert truth_lesson.can_run_live(served=True, platform="darwin")
    assert not truth_lesson.can_run_live(served=True, platform="emscripten")  # WebAssembly
    assert not truth_lesson.can_run_live(served=False, platform="linux")  # an export, a test
    assert not truth_lesson.can_run_live(served=False, platform="emscripten")


def test_a_lesson_run_without_a_server_shows_the_command_and_no_button() -> None:
    page, defs = run_lesson(nb)
    text = visible_text(page)
    assert defs["live_run"] is None
    assert truth_lesson.RUN_LABEL not in text
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
    page, _ = run_lesson(nb, live_run=Pressed())
    text = visible_text(page)
    platform = live.this_platform()
    assert f"{truth_lesson.AGREES} Run just now on {platform}: 4 cases" in text
    assert "This page is served by Python" in text
    # The recorded table (every case) and the one just run (these four).
    totals = re.findall(r"data-total-rows='(\d+)'", unescape_nested(page))
    assert totals == [str(len(truth_lesson.recorded().rows)), str(len(cases))] == ["112", "4"]
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


def test_each_page_of_the_recorded_table_is_one_fault() -> None:
    rows = truth_lesson.table_rows(truth_lesson.recorded())
    label, size = truth_lesson.COLUMNS["case"], truth_lesson.TABLE_PAGE
    pages = [rows[start : start + size] for start in range(0, len(rows), size)]
    assert [len(page) for page in pages] == [size] * len(Fault)
    for page, fault in zip(pages, Fault, strict=True):
        assert {row[label].split()[0] for row in page} == {fault.value}
    assert re.search(rf"data-page-size='{size}'", unescape_nested(run_lesson(nb)[0]))
