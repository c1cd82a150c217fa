"""The lessons the site publishes: every ``notebooks/NN_*.py``, in order.

What a learner reads about a lesson (its title, summary, minutes and outcomes) comes from the
course catalog (``asyncfail/course/catalog.py``), matched by the notebook's file name: a lesson
notebook the catalog does not list, or a catalog lesson without its notebook, stops the build.
"""

from __future__ import annotations

import ast
import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from asyncfail.course.catalog import LESSONS, LessonInfo

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
LIBRARY = "asyncfail"
LESSON_FILE = re.compile(r"^(\d\d)_[A-Za-z0-9_]+\.py$")
# The lessons that also get a presenter view (marimo's slides layout, for a projector), and
# the folder it takes inside the lesson's: lessons/01_async_failure_lab/present/.
PRESENTED = frozenset({"01_async_failure_lab"})
PRESENTER_DIR = "present"


@dataclass(frozen=True)
class Lesson:
    """One notebook to publish, and where its pages go inside the site."""

    path: Path  # the notebook to export (the lesson's, or a build-time copy of it)
    slug: str
    number: str  # "01"
    title: str
    summary: str
    site_dir: str  # folder of its pages, relative to the site root
    info: LessonInfo | None = None  # its catalog entry (None for a page outside the course)

    @property
    def depth(self) -> int:
        return self.site_dir.count("/") + 1


def discover(notebooks: Path = NOTEBOOKS, catalog: Sequence[LessonInfo] = LESSONS) -> list[Lesson]:
    """Every ``NN_*.py`` notebook in file-name order (NN is two digits), as the catalog
    describes it. The catalog and the notebooks must name the same lessons in the same order
    (a lesson's number is its place in both)."""
    paths = [path for path in sorted(notebooks.glob("*.py")) if LESSON_FILE.match(path.name)]
    listed = {info.stem: info for info in catalog}
    missing = [path.name for path in paths if path.stem not in listed]
    if missing:
        raise SystemExit(
            f"export: {', '.join(missing)} not in the course catalog: add each lesson to "
            "LESSONS in asyncfail/course/catalog.py"
        )
    found = {path.stem for path in paths}
    absent = [info.stem for info in catalog if info.stem not in found]
    if absent:
        raise SystemExit(
            f"export: the course catalog lists {', '.join(absent)}, but {notebooks} has no "
            "such notebook"
        )
    order = [info.stem for info in catalog]
    if [path.stem for path in paths] != order:
        raise SystemExit(
            f"export: the course catalog's order ({', '.join(order)}) is not the notebooks' "
            "file-name order"
        )
    return [
        Lesson(
            path,
            path.stem,
            path.stem[:2],
            listed[path.stem].title,
            listed[path.stem].summary,
            f"lessons/{path.stem}",
            listed[path.stem],
        )
        for path in paths
    ]


def _imports_of(tree: ast.AST) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
            # `from asyncfail import charts` names a module too
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


def top_level_imports(path: Path) -> set[str]:
    """The top-level names a notebook's cells import (``asyncfail`` for ``from asyncfail.lab
    import x``), as Pyodide's ``loadPackagesFromImports`` reads a page's code to choose the
    packages it loads."""
    return {name.split(".")[0] for name in _imports_of(ast.parse(path.read_text(encoding="utf-8")))}


def _loaded_imports(statements: list[ast.stmt]) -> set[str]:
    """What importing a module imports: its statements' imports, but none under
    ``if TYPE_CHECKING:`` (they never run) or inside a function (it runs when called; the house
    rules allow that only for what no page calls, such as ``RiskRun.to_pandas``)."""
    names: set[str] = set()
    for node in statements:
        if isinstance(node, ast.Import | ast.ImportFrom):
            names |= _imports_of(node)
        elif isinstance(node, ast.If):
            checking = ast.unparse(node.test) == "TYPE_CHECKING"
            names |= _loaded_imports(node.orelse if checking else node.body + node.orelse)
        elif isinstance(node, ast.Try):
            handlers = [s for h in node.handlers for s in h.body]
            names |= _loaded_imports(node.body + handlers + node.orelse + node.finalbody)
        elif isinstance(node, ast.ClassDef | ast.With):
            names |= _loaded_imports(node.body)
    return names


def third_party_imports(path: Path, root: Path = ROOT) -> set[str]:
    """Top-level packages a notebook needs beyond the standard library and asyncfail.

    Every import in the notebook counts (its cells are functions); then it follows the asyncfail
    modules imported, since what importing them imports must resolve in the browser too
    (``asyncfail.charts.specs`` needs altair): ``_loaded_imports``.
    """
    seen: set[Path] = set()
    found: set[str] = set()
    todo = [path]
    while todo:
        current = todo.pop()
        if current in seen:
            continue
        seen.add(current)
        tree = ast.parse(current.read_text(encoding="utf-8"))
        names = _imports_of(tree) if current == path else _loaded_imports(tree.body)
        for name in names:
            top = name.split(".")[0]
            if top != LIBRARY:
                if top not in sys.stdlib_module_names:
                    found.add(top)
                continue
            module = root.joinpath(*name.split("."))
            for candidate in (module.with_suffix(".py"), module / "__init__.py"):
                if candidate.is_file():
                    todo.append(candidate)
    return found
