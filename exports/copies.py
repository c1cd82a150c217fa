"""Copies of a lesson notebook made at build or serve time, never committed: the same cells under
another ``marimo.App(...)`` configuration.

marimo takes a page's ``<title>`` from ``app_title`` and its layout from ``layout_file``, so every
published or served page is made from a copy whose ``app_title`` is the page's title as the
course writes it (``asyncfail.course.site.page_title``, from the catalog), and the presenter
view from a copy that also names marimo's slides layout. The notebooks keep one hand-written
version of each lesson.

A copy lives in a folder of its own, with a ``pyproject.toml`` whose ``[tool.marimo.runtime]``
puts the checkout on the Python path: marimo's WebAssembly export then finds ``asyncfail`` as
local code and ships it, as it does for the notebooks themselves.
"""

from __future__ import annotations

import ast
import json
import threading
from pathlib import Path

from lessons import ROOT

SLIDES_LAYOUT = {"type": "slides", "data": {}}
PROJECT_CONFIG = """\
# Written by exports/copies.py for a build-time copy of a lesson: not the project's file.
[tool.marimo.runtime]
reactive_tests = false
pythonpath = [{root}]
"""
# One parse at a time: CPython 3.11 keeps the AST constructor's recursion depth for the whole
# interpreter, not per thread (python/cpython#106905): a garbage collection running Python in
# one thread's ``ast.parse`` while another thread parses makes a parse fail with "AST
# constructor recursion depth mismatch". The build makes its copies in threads, one per lesson.
PARSING = threading.Lock()


def app_call(tree: ast.Module, name: str) -> ast.Call:
    """The module-level ``app = marimo.App(...)`` call; the one a marimo notebook has."""
    for node in tree.body:
        if (
            isinstance(node, ast.Assign)
            and [ast.unparse(t) for t in node.targets] == ["app"]
            and isinstance(node.value, ast.Call)
            and ast.unparse(node.value.func) == "marimo.App"
        ):
            return node.value
    raise SystemExit(f"export: {name} has no module-level `app = marimo.App(...)`")


def configured(source: str, name: str, changes: dict[str, str]) -> str:
    """``source`` with its ``marimo.App(...)`` keywords updated by ``changes``.

    Every keyword the notebook sets must be a literal (marimo's own file format writes them so),
    and no positional argument is allowed: the call is written anew from those values.
    """
    with PARSING:
        tree = ast.parse(source)
    call = app_call(tree, name)
    if call.args:
        raise SystemExit(f"export: {name}: marimo.App(...) takes positional arguments")
    keywords: dict[str, object] = {}
    for keyword in call.keywords:
        try:
            keywords[str(keyword.arg)] = ast.literal_eval(keyword.value)
        except ValueError:
            raise SystemExit(
                f"export: {name}: marimo.App({keyword.arg}=...) is not a literal"
            ) from None
    keywords.update(changes)
    arguments = ", ".join(f"{key}={value!r}" for key, value in keywords.items())
    lines = source.splitlines(keepends=True)
    start, end = call.lineno - 1, call.end_lineno or call.lineno
    before = lines[start][: call.col_offset]
    after = lines[end - 1][call.end_col_offset :]
    return "".join([*lines[:start], f"{before}marimo.App({arguments}){after}", *lines[end:]])


def write_copy(notebook: Path, folder: Path, title: str, slides: bool = False) -> Path:
    """A copy of ``notebook`` (same file name) in ``folder``, titled ``title``; with ``slides``,
    in marimo's slides layout. Returns the copy's path."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "pyproject.toml").write_text(
        PROJECT_CONFIG.format(root=json.dumps(str(ROOT))), encoding="utf-8"
    )
    changes = {"app_title": title}
    if slides:
        layout = Path("layouts") / f"{notebook.stem}.slides.json"
        (folder / layout).parent.mkdir(exist_ok=True)
        (folder / layout).write_text(json.dumps(SLIDES_LAYOUT) + "\n", encoding="utf-8")
        changes["layout_file"] = layout.as_posix()
    source = notebook.read_text(encoding="utf-8")
    copy = folder / notebook.name
    copy.write_text(configured(source, notebook.name, changes), encoding="utf-8")
    return copy
