"""The layout is the architecture: wing import rules, no import loops, small modules, no start-up
tricks, a browser-safe model, and lessons that write no words of their own.

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
# The one file the model reads is its own package data (the charts' templates, inside every
# wheel), through importlib.resources, which reads a folder, a zip or a wheel alike.
READS_PACKAGE_DATA = {"asyncfail.charts.templates": "importlib.resources"}


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
# Lessons lay out the library's words; they write none of their own

LESSONS = sorted(NOTEBOOKS.glob("[0-9][0-9]_*.py"))
# Two words in a row: prose, a label or a sentence, which belongs in asyncfail.course.
PROSE = re.compile(r"[A-Za-z]{2,}[ ,:;]+[A-Za-z]{2,}")
VISIBLE_KEYWORDS = {"label", "placeholder", "caption", "submit_button_label", "value", "options"}


def cell_functions(tree: ast.Module) -> Iterator[ast.FunctionDef]:
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            yield node


def literal_text(node: ast.expr) -> str:
    """The text a literal writes itself (the constant parts of an f-string), else ''."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(literal_text(v) for v in node.values)
    return ""


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda p: p.stem)
def test_a_lesson_writes_no_prose_of_its_own(lesson: Path) -> None:
    tree = ast.parse(lesson.read_text(encoding="utf-8"))
    found = [
        text
        for cell in cell_functions(tree)
        for node in ast.walk(cell)
        if isinstance(node, ast.Constant | ast.JoinedStr)
        and PROSE.search(text := literal_text(node))
    ]
    assert found == []


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda p: p.stem)
def test_a_lessons_controls_take_labels_options_and_defaults_from_the_library(
    lesson: Path,
) -> None:
    tree = ast.parse(lesson.read_text(encoding="utf-8"))
    written = []
    for cell in cell_functions(tree):
        for call in (n for n in ast.walk(cell) if isinstance(n, ast.Call)):
            for keyword in call.keywords:
                if keyword.arg not in VISIBLE_KEYWORDS:
                    continue
                values = [keyword.value]
                if isinstance(keyword.value, ast.List | ast.Tuple | ast.Dict):
                    values = [v for v in ast.walk(keyword.value) if isinstance(v, ast.expr)]
                written += [
                    f"{keyword.arg}={literal_text(v)!r}"
                    for v in values
                    if re.search("[A-Za-z]", literal_text(v))
                ]
    assert written == []


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
