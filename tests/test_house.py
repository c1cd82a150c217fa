"""The layout is the architecture: wing import rules, no import loops, small modules, no start-up
tricks, a browser-safe model, and a lesson in one place (its notebook and at most one module or
folder named after it).

The rules are written here independently of DESIGN.md's map; a test below checks that the map
names the same wings and floors.
"""

import ast
import re
import subprocess
import sys
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest

import asyncfail

LIBRARY = Path(asyncfail.__file__).parent
ROOT = LIBRARY.parent
NOTEBOOKS = ROOT / "notebooks"

# What each wing may import from asyncfail (itself always).
MAY_IMPORT: dict[str, set[str]] = {
    "ground": set(),
    "lab": {"ground"},
    "contract": {"ground"},
    "document": {"ground"},
    "review": {"ground", "lab", "document"},
    "readiness": {"ground", "contract", "document"},
    "charts": {"ground", "lab", "contract"},
    "explore": {"ground", "lab"},
    "risk": {"ground", "lab"},
    "reference": {"ground", "lab"},
    "engines": {"ground", "lab", "reference"},
    "course": {
        "ground",
        "lab",
        "contract",
        "document",
        "review",
        "readiness",
        "charts",
        "explore",
        "risk",
    },
    "cli": {
        "ground",
        "lab",
        "contract",
        "document",
        "review",
        "readiness",
        "charts",
        "explore",
        "risk",
        "reference",
        "engines",
    },
}
# The reference implementation runs real processes, sockets and databases: only the CLI, which
# runs it on request, may reach it, and nothing a lesson or the model imports.
REAL_PARTS = "reference"
REACHES_REAL_PARTS = {"cli", "engines"}
# Real engines (DBOS) run their own applications in their own processes: only the CLI reaches
# the wing, and no module of the library imports an engine's package (its script does).
ENGINES = "engines"
REACHES_ENGINES = {"cli"}
ENGINE_PACKAGES = {"dbos"}
# The package root re-exports the lab's public API; `python -m asyncfail` runs the CLI.
ROOT_MODULES: dict[str, set[str]] = {"asyncfail": {"ground", "lab"}, "asyncfail.__main__": {"cli"}}
# The model may not touch the process: no threads, processes, files, network, clock or RNG. The
# CLI and the reference implementation (the real parts the model is checked against) may.
TOUCH_THE_PROCESS = {"cli", REAL_PARTS, ENGINES}
NOT_IN_THE_MODEL = {
    "threading",
    "subprocess",
    "socket",
    "multiprocessing",
    "asyncio",
    "random",
    "time",
    "datetime",
    "uuid",
    "urllib",
    "http",
    "os",
    "pathlib",
    "shutil",
    "tempfile",
    "importlib",
}
MAX_LINES = 420
# The files the library reads are its own package data (the charts' templates, inside every
# wheel; the Markdown the site's build rendered, inside the site's wheel), through
# importlib.resources, which reads a folder, a zip or a wheel alike.
READS_PACKAGE_DATA = {
    "asyncfail.charts.templates": "importlib.resources",
    "asyncfail.course.prerendered": "importlib.resources",
}


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@cache
def modules() -> dict[str, Path]:
    # Read once per session: every rule below walks the same files (a copy is not needed,
    # nothing changes them while the tests run).
    return {module_name(p): p for p in sorted(LIBRARY.rglob("*.py"))}


def wing_of(name: str) -> str | None:
    parts = name.split(".")
    return parts[1] if len(parts) > 2 or (len(parts) == 2 and parts[1] in MAY_IMPORT) else None


@cache
def parsed(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"))


def imports_of(tree: ast.Module) -> Iterator[tuple[ast.stmt, str]]:
    """Every import statement in a module (nested ones too) and the module it names."""
    known = modules()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node, alias.name
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                sub = f"{node.module}.{alias.name}"
                yield node, sub if sub in known else node.module


@cache
def library_imports(path: Path) -> frozenset[str]:
    return frozenset(
        name for _, name in imports_of(parsed(path)) if name.split(".")[0] == "asyncfail"
    )


def test_every_module_belongs_to_a_wing_or_the_root() -> None:
    for name in modules():
        assert name in ROOT_MODULES or wing_of(name) in MAY_IMPORT, name


def test_each_wing_imports_only_the_floors_below_it() -> None:
    for name, path in modules().items():
        wing = wing_of(name)
        allowed = ROOT_MODULES[name] if name in ROOT_MODULES else MAY_IMPORT[wing] | {wing}  # type: ignore[index]
        for imported in library_imports(path):
            assert imported != "asyncfail", f"{name} imports the package root"
            assert wing_of(imported) in allowed, f"{name} may not import {imported}"


def reachable(name: str) -> set[str]:
    """Every library module ``name`` imports, directly or through others."""
    seen, todo = set(), [name]
    while todo:
        current = todo.pop()
        if current in seen:
            continue
        seen.add(current)
        todo += library_imports(modules()[current])
    return seen - {name}


def test_only_the_cli_reaches_the_reference_implementation() -> None:
    for name in modules():
        wing = wing_of(name)
        if wing in REACHES_REAL_PARTS | {REAL_PARTS} or name in ROOT_MODULES:
            continue
        reached = {n for n in reachable(name) if wing_of(n) == REAL_PARTS}
        assert not reached, f"{name} reaches {sorted(reached)}"


def test_the_lessons_library_loads_no_real_parts_and_no_subprocess() -> None:
    # Run apart: this test process has loaded everything already.
    course = sorted(n for n in modules() if wing_of(n) == "course")
    code = (
        f"import sys; import {', '.join(course)}; "
        "print(sorted(m for m in sys.modules if m == 'subprocess' or "
        f"m.startswith(('asyncfail.{REAL_PARTS}', 'asyncfail.{ENGINES}', 'dbos'))))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_only_the_cli_reaches_the_engines() -> None:
    for name in modules():
        wing = wing_of(name)
        if wing in REACHES_ENGINES | {ENGINES} or name in ROOT_MODULES:
            continue
        reached = {n for n in reachable(name) if wing_of(n) == ENGINES}
        assert not reached, f"{name} reaches {sorted(reached)}"


def test_no_library_module_imports_an_engines_package_but_its_application_script() -> None:
    scripts = {"asyncfail.engines.dbos_app"}
    for name, path in modules().items():
        roots = {imported.split(".")[0] for _, imported in imports_of(parsed(path))}
        if name not in scripts:
            assert not roots & ENGINE_PACKAGES, f"{name} imports {sorted(roots & ENGINE_PACKAGES)}"
    # and the whole library, the CLI's verify included, loads without the package
    library = sorted(n for n in modules() if n not in scripts and n != "asyncfail.__main__")
    code = (
        f"import sys; import {', '.join(library)}; "
        f"print(sorted(m for m in sys.modules if m.split('.')[0] in {sorted(ENGINE_PACKAGES)}))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_there_is_no_import_loop() -> None:
    graph = {name: library_imports(path) for name, path in modules().items()}
    # A module imports its parent packages first: an import of a parent from its own package's
    # __init__ (the loop `commands/__init__` once had) closes a cycle through these edges too.
    for name in graph:
        parts = name.split(".")
        graph[name] |= {".".join(parts[:i]) for i in range(2, len(parts))}
    done: set[str] = set()

    def visit(name: str, path: tuple[str, ...]) -> None:
        assert name not in path, " -> ".join((*path, name))
        if name in done:
            return
        for imported in sorted(graph.get(name, ())):
            visit(imported, (*path, name))
        done.add(name)

    for name in sorted(graph):
        visit(name, ())


def test_imports_sit_at_the_top_of_every_module_but_the_cli_dispatch() -> None:
    for name, path in modules().items():
        tree = parsed(path)
        top = {id(node) for node in tree.body}
        # Imports for type checking only never run.
        top |= {
            id(inner)
            for node in tree.body
            if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING"
            for inner in node.body
        }
        nested = [(n.lineno, imported) for n, imported in imports_of(tree) if id(n) not in top]
        assert nested == [], f"{name} imports inside a function (lines {nested})"


def test_nothing_in_the_library_imports_the_pandas_module() -> None:
    # ``risk.frames`` is for learners' own notebooks; a lesson that reached it would load pandas.
    for name, path in modules().items():
        assert "asyncfail.risk.frames" not in library_imports(path), name


def test_only_the_risk_wing_draws_randomness_and_only_from_a_seeded_generator() -> None:
    for name, path in modules().items():
        tree = parsed(path)
        imports_random = any(imported == "random" for _, imported in imports_of(tree))
        if wing_of(name) != "risk":
            continue
        uses = {
            n.attr
            for n in ast.walk(tree)
            if isinstance(n, ast.Attribute)
            and isinstance(n.value, ast.Name)
            and n.value.id == "random"
        }
        assert uses <= {"Random"}, f"{name} uses the global generator: {sorted(uses)}"
        assert not imports_random or uses, name


def test_no_module_changes_the_environment_or_reads_it() -> None:
    for name, path in modules().items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        attributes = {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
        assert not attributes & {"environ", "putenv", "setdefault_env"}, name


def test_the_model_uses_no_threads_processes_files_network_clock_or_rng() -> None:
    for name, path in modules().items():
        if wing_of(name) in TOUCH_THE_PROCESS or name == "asyncfail.__main__":
            continue
        imported_names = {imported for _, imported in imports_of(parsed(path))}
        imported_names.discard(READS_PACKAGE_DATA.get(name, ""))
        roots = {imported.split(".")[0] for imported in imported_names}
        # The risk wing draws from a seeded ``random.Random`` (checked below), never the global.
        forbidden = NOT_IN_THE_MODEL - ({"random"} if wing_of(name) == "risk" else set())
        assert not roots & forbidden, f"{name} imports {sorted(roots & forbidden)}"
        calls = {
            n.func.id
            for n in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
        }
        assert not calls & {"open", "print", "input", "exec", "eval"}, name


def test_modules_are_small() -> None:
    for name, path in modules().items():
        text = path.read_text(encoding="utf-8")
        assert len(text.splitlines()) <= MAX_LINES, f"{name} has {len(text.splitlines())} lines"


def test_every_module_says_what_it_holds() -> None:
    for name, path in modules().items():
        docstring = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8")))
        assert docstring, f"{name} has no module docstring"


def test_design_md_maps_the_same_wings() -> None:
    design = (ROOT / "DESIGN.md").read_text(encoding="utf-8")
    table = design.split("## The house", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| `(\w+)/` \| (\d) \|", table, re.MULTILINE)
    assert {wing for wing, _ in rows} == set(MAY_IMPORT)
    floor = {wing: int(level) for wing, level in rows}
    for wing, allowed in MAY_IMPORT.items():
        assert all(floor[below] < floor[wing] for below in allowed), wing


# ---------------------------------------------------------------------------------------------
# A lesson is one place: its notebook, whose Markdown cells hold its words, and at most one module
# or folder named after it for what it computes beyond the model

LESSONS = sorted(NOTEBOOKS.glob("[0-9][0-9]_*.py"))
COURSE = LIBRARY / "course"
# Two words in a row: prose, a label or a sentence.
PROSE = re.compile(r"[A-Za-z]{2,}[ ,:;]+[A-Za-z]{2,}")


def lesson_module_name(notebook: Path) -> str:
    """The one module or folder a lesson may have: ``notebooks/01_async_failure_lab.py`` ->
    ``lesson01_async_failure_lab`` (in ``asyncfail/course/``), so ``ls`` lists them in order."""
    return f"lesson{notebook.stem}"


def lesson_modules() -> dict[str, Path]:
    """The course's lesson modules and folders, by name."""
    return {p.stem: p for p in sorted(COURSE.glob("lesson*")) if p.name != "__pycache__"}


def lesson_of(module: str) -> str | None:
    """The lesson module (``lesson02_break_the_assumptions``) a library module belongs to."""
    parts = module.split(".")
    if len(parts) > 2 and parts[1] == "course" and parts[2].startswith("lesson"):
        return parts[2]
    return None


def test_each_lesson_module_is_named_after_its_notebook_in_lesson_order() -> None:
    names = {lesson_module_name(notebook) for notebook in LESSONS}
    found = lesson_modules()
    assert found, "no lesson modules"
    for name, path in found.items():
        assert name in names, f"{path.name} is named after no notebook ({sorted(names)})"
        assert path.suffix == ".py" or (path / "__init__.py").is_file(), path


def test_no_lesson_module_reads_another_lesson_or_is_read_by_a_shared_part() -> None:
    for name, path in modules().items():
        if wing_of(name) != "course":
            continue
        own = lesson_of(name)
        read = {lesson_of(m) for m in library_imports(path)} - {None, own}
        assert not read, f"{name} reads {sorted(read)}: move what they share to a shared part"  # type: ignore[type-var]


def notebook_imports(notebook: Path) -> set[str]:
    """The library modules a notebook imports (``from asyncfail.course import page`` names the
    module ``asyncfail.course.page``)."""
    return {
        imported
        for _, imported in imports_of(ast.parse(notebook.read_text(encoding="utf-8")))
        if imported.split(".")[0] == "asyncfail"
    }


# The runners a lesson served by CPython imports after its run button is pressed (lesson 1:
# the reference implementation; lesson 9: DBOS): the one engines module a notebook may name,
# and only in a cell that stops first (checked below); its own export test checks that a run
# without a server loads neither.
LIVE_RUNNERS = {"asyncfail.reference.live", "asyncfail.engines.live"}


def imports_out_of_place(notebook: Path) -> list[str]:
    """The library modules a notebook may not import: another lesson's module, the CLI, the
    engines (but their live runner), or anything outside the wings."""
    own = lesson_module_name(notebook)
    return sorted(
        imported
        for imported in notebook_imports(notebook)
        if lesson_of(imported) not in {None, own}
        or not (imported == "asyncfail" or wing_of(imported) in MAY_IMPORT)
        or (wing_of(imported) in REACHES_REAL_PARTS and imported not in LIVE_RUNNERS)
    )


def live_runners_imported_before_a_stop(notebook: Path) -> list[str]:
    """The live runners a notebook imports in a cell that does not call ``mo.stop`` before the
    import (so the export, the WebAssembly page and a test would load real parts)."""
    found = []
    for cell, _ in cells(ast.parse(notebook.read_text(encoding="utf-8"))):
        stopped = False
        for statement in cell.body:
            names = {imported for _, imported in imports_of(ast.Module([statement], []))}
            found += sorted(names & LIVE_RUNNERS) if not stopped else []
            calls = [n for n in ast.walk(statement) if isinstance(n, ast.Call)]
            stopped |= any(ast.unparse(c.func) == "mo.stop" for c in calls)
    return found


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda p: p.stem)
def test_a_notebook_imports_only_its_own_lesson_module_shared_parts_and_wings(
    lesson: Path,
) -> None:
    assert imports_out_of_place(lesson) == []
    assert live_runners_imported_before_a_stop(lesson) == []


def cells(tree: ast.Module) -> Iterator[tuple[ast.FunctionDef, bool]]:
    """Every cell of a notebook, and whether its code is hidden (``hide_code=True``)."""
    for node in tree.body:
        if not isinstance(node, ast.FunctionDef):
            continue
        hidden = any(
            isinstance(d, ast.Call)
            and any(
                k.arg == "hide_code" and isinstance(k.value, ast.Constant) and k.value.value
                for k in d.keywords
            )
            for d in node.decorator_list
        )
        yield node, hidden


def literal_text(node: ast.expr) -> str:
    """The text a literal writes itself (the constant parts of an f-string), else ''."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(literal_text(v) for v in node.values)
    return ""


def is_markdown_cell(cell: ast.FunctionDef) -> bool:
    """A cell that only shows the lesson's prose: ``mo.md(<text>)`` alone, then ``return``."""
    body = [s for s in cell.body if not isinstance(s, ast.Return)]
    if len(body) != 1 or not isinstance(body[0], ast.Expr):
        return False
    call = body[0].value
    return (
        isinstance(call, ast.Call)
        and ast.unparse(call.func) == "mo.md"
        and len(call.args) == 1
        and bool(PROSE.search(literal_text(call.args[0])))
    )


def markdown_cells(source: str) -> list[tuple[int, bool]]:
    """Each Markdown cell of a notebook's source: its line and whether its code is hidden."""
    return [
        (cell.lineno, hidden) for cell, hidden in cells(ast.parse(source)) if is_markdown_cell(cell)
    ]


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda p: p.stem)
def test_a_lesson_writes_its_words_in_hidden_markdown_cells(lesson: Path) -> None:
    found = markdown_cells(lesson.read_text(encoding="utf-8"))
    assert found, "a lesson says what it teaches in its own Markdown cells"
    shown = [line for line, hidden in found if not hidden]
    assert shown == [], f"Markdown cells at lines {shown} show their code: hide it"


def writes_prose(value: ast.expr) -> bool:
    """Whether a constant's value writes words of its own: a literal it holds is prose (a
    tuple of names, such as settings, is not)."""
    return any(PROSE.search(literal_text(v)) for v in ast.walk(value) if isinstance(v, ast.expr))


def words_read_only_by_notebooks(path: Path) -> list[str]:
    """The prose constants a lesson module defines and nothing in the library reads: the
    module's own code (outside the constant's definition) or another library module."""
    tree = parsed(path)
    constants = {
        target.id: node
        for node in tree.body
        if isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None
        for target in (node.targets if isinstance(node, ast.Assign) else [node.target])
        if isinstance(target, ast.Name) and writes_prose(node.value)
    }
    unread = []
    for name, definition in constants.items():
        inside = {id(n) for n in ast.walk(definition) if isinstance(n, ast.Name) and n.id == name}
        read_here = any(
            isinstance(n, ast.Name) and n.id == name and id(n) not in inside for n in ast.walk(tree)
        )
        read_elsewhere = any(
            re.search(rf"\b{name}\b", other.read_text(encoding="utf-8"))
            for other in LIBRARY.rglob("*.py")
            if other != path
        )
        if not (read_here or read_elsewhere):
            unread.append(name)
    return unread


def test_a_lesson_module_holds_no_words_only_its_notebook_reads() -> None:
    for name, path in lesson_modules().items():
        files = [path] if path.suffix == ".py" else sorted(path.rglob("*.py"))
        for file in files:
            unread = words_read_only_by_notebooks(file)
            assert unread == [], f"{file.name}: move {unread} into the notebook of {name}"


def test_the_lesson_rules_catch_what_they_forbid(tmp_path: Path) -> None:
    # The layout before issue 19, in miniature: each shape must be named.
    notebook = tmp_path / "05_two_workers.py"
    notebook.write_text(
        "import marimo\n"
        "app = marimo.App()\n"
        "@app.cell\n"
        "def _(mo):\n"
        '    mo.md("## What to notice and why")\n'
        "    return\n"
        "@app.cell\n"
        "def _():\n"
        "    from asyncfail.course import lesson02_break_the_assumptions, page\n"
        "    from asyncfail.cli import main\n"
        "    from asyncfail.engines import dbos_engine, live\n"
        "    return\n",
        encoding="utf-8",
    )
    assert markdown_cells(notebook.read_text(encoding="utf-8")) == [(4, False)]
    assert imports_out_of_place(notebook) == [
        "asyncfail.cli.main",
        "asyncfail.course.lesson02_break_the_assumptions",
        "asyncfail.engines.dbos_engine",
    ]
    assert live_runners_imported_before_a_stop(notebook) == ["asyncfail.engines.live"]
    module = tmp_path / "lesson05_two_workers.py"
    module.write_text(
        "from typing import Final\n"
        'INTRO_ONLY_A_NOTEBOOK_READS: Final = "A worker is slow, not dead."\n'
        'STALL_LINE: Final = "Worker {n} stalls"\n'
        'NAMES: Final = ("claim", "fencing")\n'
        "def stall(n: int) -> str:\n"
        "    return STALL_LINE.format(n=n)\n",
        encoding="utf-8",
    )
    assert words_read_only_by_notebooks(module) == ["INTRO_ONLY_A_NOTEBOOK_READS"]


def test_a_module_that_lists_its_names_lists_every_public_function_and_class() -> None:
    for name, path in modules().items():
        tree = parsed(path)
        listed = [
            node.value
            for node in tree.body
            if isinstance(node, ast.Assign)
            and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets)
        ]
        if not listed:
            continue
        names = set(ast.literal_eval(listed[0]))
        defined = {
            node.name
            for node in tree.body
            if isinstance(node, ast.FunctionDef | ast.ClassDef) and not node.name.startswith("_")
        }
        assert defined <= names, f"{name}.__all__ misses {sorted(defined - names)}"
