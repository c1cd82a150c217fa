"""Package hygiene: the public names resolve, and the model stays browser-safe."""

import ast
from pathlib import Path

import asyncfail

LIBRARY = Path(asyncfail.__file__).parent
# The CLI layer may touch the process (argv, stdout, environment); the model may not.
CLI_LAYER = {"cli.py", "__main__.py"}
FORBIDDEN = {
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
}


def test_every_public_name_resolves() -> None:
    for name in asyncfail.__all__:
        assert getattr(asyncfail, name) is not None


def _imported_roots(path: Path) -> set[str]:
    roots = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            roots |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            roots.add(node.module.split(".")[0])
    return roots


def _model_modules() -> list[Path]:
    return [
        p
        for p in sorted(LIBRARY.rglob("*.py"))
        if p.name not in CLI_LAYER and "commands" not in p.parts
    ]


def test_model_modules_use_no_threads_processes_files_network_clock_or_rng() -> None:
    modules = _model_modules()
    assert len(modules) >= 8
    for path in modules:
        bad = _imported_roots(path) & FORBIDDEN
        assert not bad, f"{path.name} imports {sorted(bad)}"


def test_model_modules_never_open_files() -> None:
    for path in _model_modules():
        calls = [
            n.func.id
            for n in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
        ]
        assert "open" not in calls and "print" not in calls, path.name
