"""Every lesson exports to static HTML with no cell raising (marimo exits 1 if one does)."""

import subprocess
import sys
from pathlib import Path

import pytest

from tests.notebook_support import NOTEBOOKS

LESSONS = sorted(NOTEBOOKS.glob("[0-9][0-9]_*.py"))


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
