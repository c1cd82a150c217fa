"""Bytecode in the wheels every lesson page unpacks and in Pyodide's standard library, so Pyodide
imports modules instead of compiling them at every start.

Python compiles a module's source to bytecode when it first imports it and caches the result
in ``__pycache__``; in a page, Pyodide's file system is new at every visit, so every visit
compiled marimo, pydantic and the library afresh (in WebAssembly, seconds).

The rule: every module of a wheel of ``BYTECODE`` is compiled to unchecked-hash bytecode (PEP
552: no timestamp, never checked against a source; a page's files never change under it) by
the page's own Python, Pyodide's core run by Node (``bytecode.mjs``), so its magic number is
the one the page checks; the same wheels give the same bytes. The bytecode goes in the source's
place, as Pyodide ships its own packages (half the weight: sources and bytecode both made the
site 60.1 MB, over its 60 MB), the library's wheel too: a page unpacks every file of a wheel
before it imports one (Pyodide's ``unpack_buffer``), and the library's 139 sources were half its
files. Each module is compiled under the name the page imports it by, so a traceback into any
of them, the library's included, names its file and line, without the line's text. A wheel of
``SOURCE_ONLY`` leaves the modules its pattern matches as they were: its plugins, hundreds of
modules of which a page imports a few, whose bytecode would only weigh. A module without
bytecode (in no wheel of ``BYTECODE``, or left by ``SOURCE_ONLY``) is compiled at import, as
before: slower, never wrong.

The standard library (``compile_stdlib``): Pyodide's ``python_stdlib.zip`` holds its modules'
sources and no bytecode, so every page compiled the 230-odd modules marimo imports at every
visit. The site's copy holds each module's bytecode in its source's place, by the same rule.

What it gains and costs, measured: exports/README.md ("Pyodide compiles every module", and
"Pyodide compiles its standard library").
"""

from __future__ import annotations

import hashlib
import os
import shutil
from pathlib import Path
from typing import Final

from packaging.utils import canonicalize_name
from wheels import run

SCRIPT: Final = Path(__file__).resolve().parent / "bytecode.mjs"
STDLIB: Final = "python_stdlib.zip"
"""Pyodide's standard library, in its core folder and in the mirror: one zip it imports from."""
BYTECODE: Final = frozenset(
    {
        # What a page imports at start (every lesson's notebook run in Node's Pyodide: 944
        # modules, 551 of them marimo's): the distributions with most of their modules used,
        # and pygments without its plugins (``SOURCE_ONLY``). Not docutils, tomlkit,
        # python-multipart or itsdangerous (none imported): their bytecode would only weigh.
        "annotated-types",
        "asyncfail",
        "jedi",
        "markdown",
        "marimo-base",
        "micropip",
        "msgspec",
        "narwhals",
        "packaging",
        "parso",
        "pydantic",
        "pydantic-core",
        "pygments",
        "pymdown-extensions",
        "pyodide-http",
        "pyyaml",
        "typing-extensions",
        "typing-inspection",
    }
)


SOURCE_ONLY: Final = {
    "pygments": r"pygments/(lexers|styles)/(?!__init__\.py$|_mapping\.py$)[^/]+\.py",
}
"""Per distribution, the modules (a pattern of their paths in the wheel, matched whole) left as
source. pygments: its lexers and styles (308 of its 343 modules, each imported only for its own
language or style), but the two each folder looks them up by. marimo's Markdown renderer
imports 13 of its modules to build its converter, with no code block yet: compiled at every
visit, they took the first rendering of a lesson's text 131 ms under Node's Pyodide, and 73 ms
from bytecode (2026-12-06). Compiling every module instead made the wheel 2.06 MB against 1.25
MB; leaving the plugins, the 35 others weigh 98 kB more than their sources."""


def distribution(wheel: Path) -> str:
    """A wheel's distribution name, canonical (``marimo_base-0.25.2-...`` -> ``marimo-base``)."""
    return canonicalize_name(wheel.name.split("-")[0])


BYTECODE_CACHE: Final = "bytecode"
"""Where, in the download cache, compiled wheels are kept: ``<key>-<sha256>.whl``, the key a
digest of everything the compilation reads (``compilation_key``), the sha256 the file's own.
Compiling took Node some twenty seconds of a build (54 s against 35 s); a wheel compiled once
is copied after that."""


def compiler_digest(core: Path) -> bytes:
    """A digest of what compiles: the script and Pyodide's core (its runtime and library)."""
    digest = hashlib.sha256()
    for path in (SCRIPT, core / "pyodide.asm.wasm", core / STDLIB):
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.digest()


def compilation_key(compiler: bytes, wheel: Path, source_only: str = "") -> str:
    """A digest of what compiling ``wheel`` (or the standard library's zip) reads: its bytes,
    which modules it leaves as source (``SOURCE_ONLY``), and what compiles it
    (``compiler_digest``)."""
    digest = hashlib.sha256(compiler)
    digest.update(source_only.encode())
    digest.update(hashlib.sha256(wheel.read_bytes()).digest())
    return digest.hexdigest()[:32]


def kept_compilation(cache: Path, key: str, suffix: str = ".whl") -> Path | None:
    """The file (a wheel, or a ``suffix`` one) compiled before under ``key``, if its bytes are
    still those it was kept with."""
    for path in sorted(cache.glob(f"{key}-*{suffix}")):
        if path.stem.removeprefix(f"{key}-") == hashlib.sha256(path.read_bytes()).hexdigest():
            return path
    return None


def keep_compilation(cache: Path, key: str, wheel: Path) -> None:
    """Keep the compiled ``wheel`` (or zip: its suffix is kept) under ``key`` (written beside,
    then renamed into place, so a build never reads half of one)."""
    cache.mkdir(parents=True, exist_ok=True)
    name = f"{key}-{hashlib.sha256(wheel.read_bytes()).hexdigest()}{wheel.suffix}"
    part = cache / f"{name}.{os.getpid()}.part"
    shutil.copyfile(wheel, part)
    os.replace(part, cache / name)


def add_bytecode(core: Path, wheels: list[Path], cache: Path | None = None) -> list[Path]:
    """Rewrite each wheel of ``BYTECODE`` among ``wheels`` in place with its modules' bytecode,
    compiled by Pyodide's ``core`` (a folder with ``pyodide.mjs``), in their sources' place
    but those ``SOURCE_ONLY`` leaves; return the ones rewritten. With a ``cache`` folder, a
    wheel compiled before is copied from it, and a new one kept in it. Without Node (and a
    wheel to compile) the build stops in one line."""
    chosen = [wheel for wheel in wheels if distribution(wheel) in BYTECODE]
    left = {wheel: SOURCE_ONLY.get(distribution(wheel), "") for wheel in chosen}
    compiler = compiler_digest(core)  # once: the core is 12 MB to read
    keys = {wheel: compilation_key(compiler, wheel, left[wheel]) for wheel in chosen}
    todo = []
    for wheel in chosen:
        kept = kept_compilation(cache, keys[wheel]) if cache is not None else None
        if kept is None:
            todo.append(wheel)
        else:
            shutil.copyfile(kept, wheel)
    if not todo:
        return chosen
    arguments = [str(SCRIPT), str(core)]
    for wheel in todo:
        arguments += ["--source-only", left[wheel]] if left[wheel] else []
        arguments.append(str(wheel))
    run([node_or_stop(), *arguments])
    for wheel in todo:
        wheel.chmod(0o644)  # as the mirror's other files: Node's Pyodide writes it 0666
    if cache is not None:
        for wheel in todo:
            keep_compilation(cache, keys[wheel], wheel)
    return chosen


def node_or_stop() -> str:
    """Node, which runs Pyodide's core to compile; without it the build stops in one line."""
    node = shutil.which("node")
    if node is None:
        raise SystemExit(
            "node not found: the site's wheels and standard library are compiled by Pyodide "
            "under Node (install Node.js; npm brings it)"
        )
    return node


def compile_stdlib(core: Path, out: Path, cache: Path | None = None) -> None:
    """Write ``core``'s standard library to ``out`` with every module ``m.py`` replaced by its
    unchecked-hash bytecode ``m.pyc``, compiled by ``core``'s own Python under the name it
    imports the module by; every other file as it was. With a ``cache`` folder, a zip compiled
    before is copied from it, and a new one kept in it. Without Node the build stops in one
    line, ``out`` untouched."""
    key = compilation_key(compiler_digest(core), core / STDLIB)
    kept = kept_compilation(cache, key, ".zip") if cache is not None else None
    if kept is not None:
        shutil.copyfile(kept, out)
        return
    run([node_or_stop(), str(SCRIPT), str(core), "--stdlib", str(core / STDLIB), str(out)])
    out.chmod(0o644)  # as the core's other files: Node's Pyodide writes it 0666
    if cache is not None:
        keep_compilation(cache, key, out)
