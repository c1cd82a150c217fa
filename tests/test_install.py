"""`make serve` installs only what serving the course needs; `make test` adds the rest.

Read from the project's own files: the Makefile's targets and the extras pyproject declares
(as the installed distribution's metadata states them).
"""

import re
import tomllib
from importlib.metadata import requires
from pathlib import Path

from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parent.parent
DEVELOPMENT_TOOLS = {"playwright", "mypy", "pytest", "hypothesis", "ruff", "uv", "pandas", "altair"}


def extra(name: str) -> set[str]:
    """The distributions an extra of asyncfail names, as its installed metadata says."""
    found = set()
    for line in requires("asyncfail") or []:
        requirement = Requirement(line)
        if requirement.marker is not None and requirement.marker.evaluate({"extra": name}):
            found.add(requirement.name.lower())
    return found


def recipe(target: str) -> tuple[list[str], str]:
    """A Makefile target's prerequisites and recipe."""
    text = (ROOT / "Makefile").read_text(encoding="utf-8")
    match = re.search(
        rf"^{re.escape(target)}:([^\n#]*)(?:##[^\n]*)?\n((?:\t[^\n]*\n)*)", text, re.M
    )
    assert match, target
    return match.group(1).split(), match.group(2)


def test_the_course_extra_holds_no_development_tool() -> None:
    course = extra("course")
    assert "marimo" in course
    assert not course & DEVELOPMENT_TOOLS, course & DEVELOPMENT_TOOLS
    assert extra("dev") >= {"asyncfail", "pytest", "mypy", "altair"}
    # Playwright comes with the `pictures` extra, which `dev` includes (and `make export` uses).
    assert "playwright" in extra("pictures")
    with (ROOT / "pyproject.toml").open("rb") as file:
        declared = tomllib.load(file)["project"]["optional-dependencies"]
    assert {Requirement(r).name for r in declared["course"]} == course


def test_make_serve_installs_the_course_extra_only() -> None:
    prerequisites, _ = recipe("serve")
    assert prerequisites == ["$(COURSE)"]
    _, install = recipe("$(COURSE)")
    assert "'.[course]'" in install and "dev" not in install
    test_prerequisites, _ = recipe("pytest")
    # The tests need the development install, axe-core for the accessibility checks and the
    # site's download cache, filled before any test reads it.
    assert test_prerequisites == ["$(STAMP)", "$(AXE)", "$(MIRROR)"]
    _, full = recipe("$(STAMP)")
    assert "'.[dev]'" in full
