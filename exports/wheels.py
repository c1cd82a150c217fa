"""Wheels the site build makes itself, each by a real build backend (setuptools, through uv).

Rules for every wheel built here:

- it is built from a temporary copy of its project, so the checkout gets no ``build/`` or
  ``*.egg-info``;
- by the venv's own setuptools, without build isolation and offline: nothing is downloaded,
  and the backend is the same in every build;
- with a fixed ``SOURCE_DATE_EPOCH`` and one file mode for every source, so two builds give
  byte-identical wheels.

A failing tool (or a missing one) ends the build in one line, after the tool's own output.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LIBRARY_PACKAGE = "asyncfail"
# What setuptools reads to build the library's wheel, besides the package itself.
LIBRARY_FILES = ("pyproject.toml", "README.md")
# Zip entries carry this date (1980-01-01, the earliest a zip can hold) instead of the clock.
SOURCE_DATE_EPOCH = "315532800"


def run(argv: list[str], cwd: Path | None = None, env: dict[str, str] | None = None) -> None:
    """Run a tool; if it fails or is missing, show its output and stop the build in one line."""
    try:
        result = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True)
    except OSError as error:
        raise SystemExit(f"cannot run {argv[0]}: {error.strerror or error}") from None
    if result.returncode != 0:
        sys.stderr.write(result.stdout + result.stderr)
        raise SystemExit(f"command failed ({result.returncode}): {' '.join(argv)}")


def uv_bin() -> str:
    """The venv's uv (the ``uv`` package of the dev extra, which marimo's exporter needs too)."""
    try:
        from uv import find_uv_bin

        return str(find_uv_bin())
    except (ImportError, FileNotFoundError):
        raise SystemExit("uv not found: install the dev extra (make export does)") from None


def write_project(folder: Path, files: dict[str, bytes]) -> None:
    """Write a project's files, all with mode 0644: a wheel records each file's mode."""
    for name, data in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        path.chmod(0o644)


def build_wheel(project: Path, out: Path) -> Path:
    """Build the wheel of the project in ``project`` into the empty folder ``out``; return it.

    The backend writes ``build/`` and ``*.egg-info`` into ``project``: pass a temporary copy.
    """
    argv = [uv_bin(), "build", "--wheel", "--no-build-isolation", "--offline", "--no-config"]
    argv += ["--quiet", "--no-create-gitignore", "--python", sys.executable]
    env = {**os.environ, "SOURCE_DATE_EPOCH": SOURCE_DATE_EPOCH}
    run([*argv, "--out-dir", str(out), str(project)], env=env)
    built = sorted(out.glob("*.whl"))
    if len(built) != 1:
        raise SystemExit(f"building {project.name} left {len(built)} wheels in {out}, not one")
    return built[0]


def library_files(root: Path = ROOT) -> dict[str, bytes]:
    """The library's project as setuptools reads it: metadata, readme, package (no caches)."""
    files = {name: (root / name).read_bytes() for name in LIBRARY_FILES}
    for path in sorted((root / LIBRARY_PACKAGE).rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts:
            files[path.relative_to(root).as_posix()] = path.read_bytes()
    return files


def library_wheel(out: Path, root: Path = ROOT) -> Path:
    """The asyncfail wheel every WebAssembly page installs, built from ``pyproject.toml``.

    It declares the library's dependencies (pydantic), so Pyodide installs them with it.
    """
    with tempfile.TemporaryDirectory() as tmp:
        project = Path(tmp) / LIBRARY_PACKAGE
        write_project(project, library_files(root))
        return build_wheel(project, out)
