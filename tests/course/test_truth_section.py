"""Lesson 1's "Does the model tell the truth?": the table the build recorded, laid out from the
library's words, after what to notice and before the check; and the recorded document itself
(a fresh run is compared with it in tests/reference/test_verify.py)."""

import re

from asyncfail.course import truth_lesson
from asyncfail.course.verified import VERIFIED_JSON
from asyncfail.lab.faults import Fault
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
