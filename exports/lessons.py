"""The lessons the site publishes: every ``notebooks/NN_*.py``, in order.

A lesson's title and one-line summary come from the notebook's module docstring (first line,
second paragraph); a notebook without one falls back to its file name.
"""

from __future__ import annotations

import ast
import re
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
LIBRARY = "asyncfail"
LESSON_FILE = re.compile(r"^(\d\d)_[A-Za-z0-9_]+\.py$")


@dataclass(frozen=True)
class Lesson:
    """One notebook to publish, and where its pages go inside the site."""

    path: Path
    slug: str
    number: str  # "01"
    title: str
    summary: str
    site_dir: str  # folder of its pages, relative to the site root

    @property
    def depth(self) -> int:
        return self.site_dir.count("/") + 1


def title_and_summary(path: Path) -> tuple[str, str]:
    """The docstring's first line and its second paragraph on one line; else the file name."""
    docstring = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
    paragraphs = [p.strip() for p in re.split(r"\n\s*\n", docstring.strip()) if p.strip()]
    fallback = re.sub(r"^\d\d_", "", path.stem).replace("_", " ").capitalize()
    title = paragraphs[0].splitlines()[0].strip() if paragraphs else fallback
    summary = " ".join(paragraphs[1].split()) if len(paragraphs) > 1 else ""
    return title, summary


def discover(notebooks: Path = NOTEBOOKS) -> list[Lesson]:
    """Every ``NN_*.py`` notebook in file-name order (NN is two digits)."""
    lessons = []
    for path in sorted(notebooks.glob("*.py")):
        match = LESSON_FILE.match(path.name)
        if not match:
            continue
        title, summary = title_and_summary(path)
        lessons.append(
            Lesson(path, path.stem, match.group(1), title, summary, f"lessons/{path.stem}")
        )
    return lessons


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
