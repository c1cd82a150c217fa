"""The instructor guide (``docs/teaching.md``) is written by hand; its claims are examples.

Every Python session in it (``>>>`` lines in ```` ```pycon ```` blocks) runs against fresh runs
of the model, one lesson at a time (after the guide's introduction, which defines the worked
design), with the helpers of ``tests/docs/examples.py``. The class plans are checked for what
a plan promises: segments that fill a class, in order.
"""

import doctest
import itertools
import re
from pathlib import Path

import pytest

from tests.docs import examples

ROOT = Path(__file__).resolve().parents[2]
GUIDE = ROOT / "docs" / "teaching.md"
TEXT = GUIDE.read_text(encoding="utf-8")
CLASS_MINUTES = 50
LESSON_HEADING = re.compile(r"^## Lesson (\d+) · ", re.MULTILINE)


def intro_and_lessons(text: str) -> tuple[str, dict[int, str]]:
    """The guide before its first lesson, and each lesson's sections joined, by number."""
    starts = [(m.start(), int(m.group(1))) for m in LESSON_HEADING.finditer(text)]
    lessons: dict[int, str] = {}
    for (start, number), (end, _) in zip(starts, [*starts[1:], (len(text), 0)], strict=True):
        lessons[number] = lessons.get(number, "") + text[start:end]
    return text[: starts[0][0]], lessons


INTRO, LESSONS = intro_and_lessons(TEXT)


def unfenced(text: str) -> str:
    """``text`` with its code fences blanked, so an example's output ends where its block does
    (line numbers stay the guide's)."""
    return re.sub(r"^```.*$", "", text, flags=re.MULTILINE)


def run_examples(text: str, name: str) -> tuple[int, str]:
    """Run the guide's introduction, then ``text``, as one session; return the failures and
    doctest's report of them."""
    globs = {n: getattr(examples, n) for n in examples.__all__}
    parser = doctest.DocTestParser()
    report: list[str] = []
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    failed = 0
    for part, source in (("introduction", INTRO), (name, text)):
        test = parser.get_doctest(unfenced(source), globs, part, str(GUIDE), 0)
        failed += runner.run(test, out=report.append, clear_globs=False).failed
        globs = test.globs  # a DocTest copies what it is given: carry the session on
    return failed, "".join(report)


def test_the_guide_has_a_lesson_for_each_notebook_and_examples_in_each() -> None:
    notebooks = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.py"))
    assert sorted(LESSONS) == list(range(1, len(notebooks) + 1))
    for number, text in LESSONS.items():
        assert ">>> " in text, f"lesson {number} makes no claim an example checks"


@pytest.mark.parametrize("number", sorted(LESSONS))
def test_every_example_in_a_lesson_holds_on_a_fresh_run(number: int) -> None:
    failed, report = run_examples(LESSONS[number], f"lesson {number}")
    assert failed == 0, report


def test_a_wrong_figure_fails() -> None:
    # The same checker on a copy of lesson 1 with one figure changed must fail.
    text = LESSONS[1]
    right, changed = "1 business effect, 1 tool call", "2 business effects, 1 tool call"
    wrong = text.replace(right, changed, 1)
    assert wrong != text
    failed, report = run_examples(wrong, "lesson 1, one figure wrong")
    assert failed == 1, report


def test_every_class_plan_fills_a_class_with_segments_in_order() -> None:
    plans = re.findall(r"### Class plan\n\n((?:\|.*\n)+)", TEXT)
    assert len(plans) == len(LESSONS)
    for table in plans:
        rows = [row.split(" | ")[0].strip("| ") for row in table.splitlines()[2:]]
        spans = [tuple(int(x) for x in row.split("\u2013")) for row in rows]
        assert spans[0][0] == 0 and spans[-1][1] == CLASS_MINUTES, spans
        assert all(a[1] == b[0] for a, b in itertools.pairwise(spans)), spans
        assert all(end > start for start, end in spans), spans


def test_the_glance_table_names_notebooks_that_exist() -> None:
    named = re.findall(r"`(notebooks/[^`]+\.py)`", TEXT.split("## Lesson 1 ·")[0])
    assert named, "the course at a glance names no notebook"
    for path in named:
        assert (ROOT / path).exists(), path


def test_every_check_in_the_guide_is_a_lessons_check_with_its_answer() -> None:
    from asyncfail.course.catalog import LESSONS as CATALOG
    from tests.notebook_support import lesson_question

    # Each lesson writes its check in its notebook (its ``check_question`` cell).
    known = {q.prompt: q for q in (lesson_question(info.stem) for info in CATALOG)}
    sections = re.findall(r"^## Lesson \d+ · Check for understanding\n\n(.*?)(?=^## |\Z)", TEXT,
                          re.MULTILINE | re.DOTALL)  # fmt: skip
    assert len(sections) == len(LESSONS)
    for section in sections:
        prompt, rest = section.split("\n\n", 1)
        assert prompt in known, prompt
        question = known[prompt]
        options = re.findall(r"^- (.*)$", rest, re.MULTILINE)
        marked = f"**{question.answer}** (the answer)"
        assert options == [marked if o == question.answer else o for o in question.options]
        assert f"**Answer:** {question.answer}\n" in rest
        assert f"**Why:** {question.explanation}\n" in rest
