"""Every lesson keeps its inputs in page memory: no URL state, files, network or downloads
beyond what the lesson offers explicitly."""

import ast
from pathlib import Path

import pytest

from tests.notebook_support import NOTEBOOKS

LESSONS = sorted(NOTEBOOKS.glob("[0-9][0-9]_*.py"))
ALLOWED_IMPORTS = {"marimo", "asyncfail"}
FORBIDDEN_ATTRIBUTES = {"query_params", "open", "urlopen", "fetch"}


def test_there_are_lessons() -> None:
    assert len(LESSONS) >= 2


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
