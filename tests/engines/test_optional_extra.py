"""``dbos`` is optional: only the extra ``asyncfail[engines]`` (part of ``dev``) names it, and the
WebAssembly pages can never install it.

Read from the project's own files. A page installs the asyncfail wheel, built from
``pyproject.toml`` with the dependencies it declares (``exports/wheels.py``), and Pyodide
packages from the site's own mirror (``exports/pyodide-wheels.txt``); neither may reach DBOS.
That no page imports it is ``tests/course/test_lesson_09_*`` (the export's path) and
``tests/test_house.py`` (the library and the lessons, in a fresh interpreter).
"""

import re
import tomllib
from pathlib import Path

from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[2]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
ENGINE_PACKAGES = {"dbos"}


def names(requirements: list[str]) -> set[str]:
    return {Requirement(r).name.lower() for r in requirements}


def test_dbos_is_named_by_the_engines_extra_alone() -> None:
    assert not names(PROJECT["dependencies"]) & ENGINE_PACKAGES, "the library requires DBOS"
    extras = PROJECT["optional-dependencies"]
    assert names(extras["engines"]) == ENGINE_PACKAGES
    assert "asyncfail[engines]" in extras["dev"], "the development install runs the matrix"
    for name, requirements in extras.items():
        if name not in {"engines", "dev"}:
            assert not names(requirements) & ENGINE_PACKAGES, f"the {name} extra names DBOS"


def test_the_sites_package_mirror_holds_no_engine() -> None:
    lines = (ROOT / "exports" / "pyodide-wheels.txt").read_text(encoding="utf-8").splitlines()
    pinned = {
        re.split(r"[=<>! ]", line.strip(), maxsplit=1)[0].lower()
        for line in lines
        if line.strip() and not line.startswith("#")
    }
    assert "pydantic" in pinned, "the mirror's list was read"
    assert not pinned & ENGINE_PACKAGES
