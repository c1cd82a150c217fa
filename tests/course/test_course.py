"""The course as a whole: its lessons numbered and listed in order, each exported to static HTML
with no cell raising (marimo exits 1 if one does), and each keeping its inputs in page memory:
no URL state, files, network or downloads beyond what the lesson offers explicitly."""

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest

from asyncfail.ground.quiz import Question
from tests.course.conftest import Lessons
from tests.notebook_support import NOTEBOOKS, lesson_question

LESSONS = sorted(NOTEBOOKS.glob("[0-9][0-9]_*.py"))
ALLOWED_IMPORTS = {"marimo", "asyncfail"}
FORBIDDEN_ATTRIBUTES = {"query_params", "open", "urlopen", "fetch"}


def test_there_are_lessons() -> None:
    assert len(LESSONS) >= 2


def test_lessons_are_numbered_from_01_without_gaps() -> None:
    # A renamed or deleted lesson must not leave a hole that the site's order would show.
    assert LESSONS, "no lessons found"
    assert [int(p.stem[:2]) for p in LESSONS] == list(range(1, len(LESSONS) + 1))


def test_the_catalog_lists_every_notebook_in_order_and_the_readme_follows_it() -> None:
    from asyncfail.course.catalog import LESSONS as CATALOG
    from asyncfail.course.catalog import notebooks_readme

    assert [info.stem for info in CATALOG] == [p.stem for p in LESSONS]
    readme = (NOTEBOOKS / "README.md").read_text(encoding="utf-8")
    assert readme == notebooks_readme(), "notebooks/README.md is stale: run `make golden`"
    for n, path in enumerate(LESSONS, start=1):
        assert f"{n}. `{path.name}`" in readme


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda p: p.stem)
def test_static_html_export_runs_every_cell(lesson: Path, tmp_path: Path) -> None:
    out = tmp_path / f"{lesson.stem}.html"
    done = subprocess.run(
        [sys.executable, "-m", "marimo", "export", "html", str(lesson), "-o", str(out)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    title = lesson.read_text(encoding="utf-8").split("\n", 1)[0].strip('"')
    assert title in out.read_text(encoding="utf-8")


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda p: p.name)
def test_lesson_imports_only_marimo_and_the_library(lesson: Path) -> None:
    tree = ast.parse(lesson.read_text(encoding="utf-8"))
    roots = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            roots.add(node.module.split(".")[0])
    assert roots <= ALLOWED_IMPORTS, roots - ALLOWED_IMPORTS


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda p: p.name)
def test_lesson_never_reads_or_writes_url_state_files_or_network(lesson: Path) -> None:
    tree = ast.parse(lesson.read_text(encoding="utf-8"))
    used = {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
    used |= {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    assert not used & FORBIDDEN_ATTRIBUTES, used & FORBIDDEN_ATTRIBUTES


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda p: p.stem)
def test_each_lesson_writes_its_check_in_its_own_notebook(lesson: Path, lessons: Lessons) -> None:
    # Read alone (the guide's tests read it so) and in the running lesson: the same question.
    question = lesson_question(lesson.stem)
    assert isinstance(question, Question) and question.answer in question.options
    assert lessons.run(lesson.stem)[1]["question"] == question
    # Its prompt is in the notebook's source (string literals joined across lines).
    source = re.sub(r'"\s*\n\s*"', "", lesson.read_text(encoding="utf-8"))
    assert question.prompt in source


def test_no_two_lessons_ask_the_same_question() -> None:
    prompts = [lesson_question(p.stem).prompt for p in LESSONS]
    assert len(set(prompts)) == len(prompts)
