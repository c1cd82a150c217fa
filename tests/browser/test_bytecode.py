"""The wheels every page unpacks carry their modules' bytecode (exports/bytecode.py), compiled
by Pyodide's own Python: the page imports it instead of compiling, and two builds give the same
bytes. Read back with zipfile, and imported by Pyodide under Node."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "exports"))

import bytecode  # noqa: E402
from bytecode import BYTECODE, add_bytecode, distribution  # noqa: E402
from pyodide_mirror import CACHE, CORE_DIR  # noqa: E402
from wheels import library_wheel  # noqa: E402

from tests.browser.wheel_files import (  # noqa: E402
    assert_record_lists_the_wheel,
    record_rows,
)

CORE = CACHE / CORE_DIR
# Where the page's Python installs a wheel's modules.
INSTALLED = "/lib/python3.14/site-packages"


@pytest.fixture(scope="module")
def library(npm: str, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The asyncfail wheel as setuptools builds it, without bytecode."""
    del npm  # Node comes with it: the build compiles under Node
    return library_wheel(tmp_path_factory.mktemp("library"))


def compiled(wheel: Path, folder: Path, cache: Path | None = None) -> Path:
    """A copy of ``wheel`` in ``folder``, with its bytecode added (by a Node process of its own
    unless ``cache`` holds it)."""
    folder.mkdir(parents=True)
    copy = Path(shutil.copy(wheel, folder / wheel.name))
    assert add_bytecode(CORE, [copy], cache) == [copy]
    return copy


@pytest.fixture(scope="module")
def library_compiled(library: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The library's wheel with its bytecode, compiled once for this module's tests, and the
    cache that keeps it (each Node process costs seconds)."""
    folder = tmp_path_factory.mktemp("compiled")
    return compiled(library, folder / "wheel", folder / "cache"), folder / "cache"


# What asyncfail imports besides itself, from the download cache (pydantic and its own).
NEEDS = ("pydantic-", "pydantic_core-", "annotated_types-", "typing_inspection-", "typing_ext")


def pyodide_evaluates(wheel: Path, code: str, library: bool = True) -> str:
    """What Pyodide (under Node) evaluates ``code`` to once ``wheel`` is unpacked (with what
    the ``library`` needs)."""
    needs = sorted(str(w) for w in (CACHE / "wheels").glob("*.whl") if w.name.startswith(NEEDS))
    assert len(needs) == len(NEEDS)
    needs = needs if library else []
    runner = wheel.parent / "imports.mjs"
    runner.write_text(
        f"""import {{ readFileSync }} from "node:fs";
import {{ loadPyodide }} from {json.dumps((CORE / "pyodide.mjs").as_uri())};
try {{
  const pyodide = await loadPyodide({{ indexURL: {json.dumps(str(CORE) + "/")} }});
  await pyodide.loadPackage({json.dumps(needs)}, {{ messageCallback: () => {{}} }});
  // Where a page's loadPackage installs a wheel.
  const installed = pyodide.runPython("import site; site.getsitepackages()[0]");
  const wheel = new Uint8Array(readFileSync({json.dumps(str(wheel))}));
  pyodide.unpackArchive(wheel, "wheel", {{ extractDir: installed }});
  console.log(`said: ${{pyodide.runPython({json.dumps(code)})}}`);
}} catch (error) {{
  console.log(`failed: ${{String(error.message).slice(-1500)}}`);
}}
""",
        encoding="utf-8",
    )
    node = shutil.which("node")
    assert node is not None
    done = subprocess.run([node, str(runner)], capture_output=True, text=True)
    said = [line for line in done.stdout.splitlines() if line.startswith("said: ")]
    assert said, done.stdout[-2000:]
    return said[-1].removeprefix("said: ")


def pyodide_imports(wheel: Path, module: str, attribute: str, library: bool = True) -> str:
    """What Pyodide (under Node) says of ``module.attribute`` once ``wheel`` is unpacked (with
    what the ``library`` needs)."""
    code = f"import {module}; repr(getattr({module}, '{attribute}', None))"
    return pyodide_evaluates(wheel, code, library)


def test_every_module_of_the_library_is_bytecode_in_its_place_listed_in_record(
    library: Path, library_compiled: tuple[Path, Path]
) -> None:
    """Each module ``m.py`` becomes ``m.pyc`` at the same place in the order (half the files a
    page unpacks), every other file the same bytes, RECORD lists each file with its own hash,
    and each pyc is a PEP 552 one, never checked against a source."""
    wheel = zipfile.ZipFile(library_compiled[0])
    before = zipfile.ZipFile(library)
    modules = [n for n in before.namelist() if n.endswith(".py")]
    assert len(modules) > 100
    assert wheel.namelist() == [n + "c" if n.endswith(".py") else n for n in before.namelist()]
    assert not [n for n in wheel.namelist() if n.endswith(".py") or "__pycache__" in n]
    for name in before.namelist():
        if not name.endswith((".py", "/RECORD")):
            assert wheel.read(name) == before.read(name), name
    assert_record_lists_the_wheel(wheel)
    for name in modules:
        header = wheel.read(name + "c")[:16]
        # PEP 552: flags 0b01, a hash-based pyc that is never checked against its source.
        assert int.from_bytes(header[4:8], "little") == 0b01, name


def test_a_third_party_wheel_ships_bytecode_in_place_of_its_sources(
    npm: str, tmp_path: Path
) -> None:
    """markdown (a wheel of BYTECODE): each module ``m.py`` becomes ``m.pyc``, every other
    file stays as it was, RECORD lists each file with its own hash, and Pyodide imports the
    package from the bytecode and runs it."""
    del npm
    (pinned,) = sorted((CACHE / "wheels").glob("markdown-*.whl"))
    assert distribution(pinned) in BYTECODE
    wheel = zipfile.ZipFile(compiled(pinned, tmp_path / "markdown"))
    before = zipfile.ZipFile(pinned)
    expected = [n + "c" if n.endswith(".py") else n for n in before.namelist()]
    assert wheel.namelist() == expected
    assert not [n for n in wheel.namelist() if n.endswith(".py")]
    for name in before.namelist():
        if not name.endswith((".py", "/RECORD")):
            assert wheel.read(name) == before.read(name), name
    (record,) = [n for n in wheel.namelist() if n.endswith(".dist-info/RECORD")]
    listed = [path for path, _, _ in record_rows(wheel)]
    assert listed == [n for n in expected if n != record] + [record]  # in the wheel's order
    assert_record_lists_the_wheel(wheel)
    shown = pyodide_imports(Path(wheel.filename or ""), "markdown", "__file__", library=False)
    assert shown.endswith("/markdown/__init__.pyc'"), shown


def test_two_compilations_in_two_processes_give_the_same_bytes(
    library: Path, library_compiled: tuple[Path, Path], tmp_path: Path
) -> None:
    again = compiled(library, tmp_path / "again")  # no cache: a Node process of its own
    assert again.read_bytes() == library_compiled[0].read_bytes()


def test_pyodide_imports_the_library_from_its_bytecode_and_a_traceback_names_its_file(
    library_compiled: tuple[Path, Path], tmp_path: Path
) -> None:
    """The page's Python imports each module of the library from its ``.pyc`` (no source
    beside it), runs it, and a traceback into it names the module's installed file, as it
    would from the source: each module is compiled under that name."""
    wheel = Path(shutil.copy(library_compiled[0], tmp_path / library_compiled[0].name))
    code = (
        "import traceback\n"
        "from asyncfail.ground import durations\n"
        "try:\n"
        "    durations.parse_amount('soon')\n"
        "except ValueError as error:\n"
        "    where = traceback.extract_tb(error.__traceback__)[-1]\n"
        "f'{durations.__file__} {where.filename}:{where.name} {durations.parse_amount(\"1.5\")}'"
    )
    assert pyodide_evaluates(wheel, code) == (
        f"{INSTALLED}/asyncfail/ground/durations.pyc "
        f"{INSTALLED}/asyncfail/ground/durations.py:parse_amount 1.5"
    )


def test_a_wheel_outside_the_rule_is_left_as_it_was(npm: str, tmp_path: Path) -> None:
    del npm
    (docutils,) = sorted((CACHE / "wheels").glob("docutils-*.whl"))
    assert distribution(docutils) not in BYTECODE
    copy = Path(shutil.copy(docutils, tmp_path / docutils.name))
    assert add_bytecode(CORE, [copy]) == []
    assert copy.read_bytes() == docutils.read_bytes()


# pygments' modules by hand: which SOURCE_ONLY leaves as source (its plugins: a lexer or a style
# each) and which it compiles (the rest, and the two modules each plugin folder is read by).
LEFT_AS_SOURCE = (
    "pygments/lexers/python.py",
    "pygments/lexers/shell.py",
    "pygments/lexers/_php_builtins.py",
    "pygments/styles/default.py",
    "pygments/styles/_mapping_extra.py",
)
COMPILED = (
    "pygments/__init__.py",
    "pygments/lexer.py",
    "pygments/lexers/__init__.py",
    "pygments/lexers/_mapping.py",
    "pygments/styles/__init__.py",
    "pygments/styles/_mapping.py",
    "pygments/formatters/html.py",
    "pygments/formatters/_mapping.py",
    "pygments/filters/__init__.py",
    "pygments/lexers.py",
    "other/pygments/lexers/python.py",
)


def test_pygments_plugins_are_the_modules_left_as_source() -> None:
    pattern = re.compile(bytecode.SOURCE_ONLY["pygments"])
    assert [path for path in LEFT_AS_SOURCE if not pattern.fullmatch(path)] == []
    assert [path for path in COMPILED if pattern.fullmatch(path)] == []


def test_pygments_ships_bytecode_but_for_its_plugins(npm: str, tmp_path: Path) -> None:
    """The pinned pygments: every module the pattern leaves stays source, byte for byte, every
    other one is bytecode in its place; Pyodide imports the plugin folders' own modules from
    bytecode and a lexer from its source."""
    del npm
    (pinned,) = sorted((CACHE / "wheels").glob("pygments-*.whl"))
    assert distribution(pinned) in BYTECODE
    wheel = zipfile.ZipFile(compiled(pinned, tmp_path / "pygments"))
    before = zipfile.ZipFile(pinned)
    pattern = re.compile(bytecode.SOURCE_ONLY["pygments"])
    modules = [n for n in before.namelist() if n.endswith(".py")]
    left = [n for n in modules if pattern.fullmatch(n)]
    assert 250 < len(left) < len(modules) - 30  # the plugins are most of it, not all of it
    expected = [
        n + "c" if n.endswith(".py") and not pattern.fullmatch(n) else n for n in before.namelist()
    ]
    assert wheel.namelist() == expected
    for name in left:
        assert wheel.read(name) == before.read(name), name
    path = Path(wheel.filename or "")
    assert oct(path.stat().st_mode & 0o777) == "0o644"
    assert_record_lists_the_wheel(wheel)
    shown = pyodide_imports(path, "pygments.lexers", "__file__", library=False)
    assert shown.endswith("/pygments/lexers/__init__.pyc'"), shown
    shown = pyodide_imports(path, "pygments.lexers.shell", "__file__", library=False)
    assert shown.endswith("/pygments/lexers/shell.py'"), shown


def test_without_node_the_build_stops_in_one_line(
    library: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    copy = Path(shutil.copy(library, tmp_path / library.name))
    monkeypatch.setattr(bytecode.shutil, "which", lambda _name: None)
    with pytest.raises(SystemExit) as stop:
        add_bytecode(CORE, [copy])
    assert str(stop.value.code).startswith("node not found: ")
    assert "\n" not in str(stop.value.code)
    assert copy.read_bytes() == library.read_bytes()


def test_a_wheel_compiled_once_is_copied_from_the_cache_unless_its_copy_was_altered(
    library: Path,
    library_compiled: tuple[Path, Path],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    cache = Path(shutil.copytree(library_compiled[1], tmp_path / "cache"))
    (kept,) = cache.glob("*.whl")
    assert kept.read_bytes() == library_compiled[0].read_bytes() != library.read_bytes()
    # Copied, not compiled: no Node needed, the same bytes.
    monkeypatch.setattr(bytecode.shutil, "which", lambda _name: None)
    again = compiled(library, tmp_path / "again", cache)
    assert again.read_bytes() == kept.read_bytes()
    # A kept wheel whose bytes changed is not used: it would be compiled again (here, no Node).
    kept.write_bytes(kept.read_bytes()[:-1])
    (tmp_path / "third").mkdir()
    third = Path(shutil.copy(library, tmp_path / "third" / library.name))
    with pytest.raises(SystemExit, match=r"^node not found: "):
        add_bytecode(CORE, [third], cache)
    # A wheel that leaves other modules as source compiles to another wheel: another key.
    compiler = bytecode.compiler_digest(CORE)
    other = bytecode.compilation_key(compiler, third)
    left = bytecode.compilation_key(compiler, third, source_only="a/.*")
    assert left not in {other, bytecode.compilation_key(compiler, third, "b/.*")}


@pytest.fixture(scope="module")
def stdlib_compiled(npm: str, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The core's standard library compiled once for this module's tests, and the cache that
    keeps it."""
    del npm
    folder = tmp_path_factory.mktemp("stdlib")
    out = folder / "site" / bytecode.STDLIB
    out.parent.mkdir()
    bytecode.compile_stdlib(CORE, out, folder / "cache")
    return out, folder / "cache"


def test_the_standard_library_ships_each_module_as_bytecode_in_its_place(
    stdlib_compiled: tuple[Path, Path],
) -> None:
    """Read back: every ``m.py`` of Pyodide's zip is ``m.pyc`` at the same place in the order,
    every other file the same bytes, each a PEP 552 pyc never checked against a source."""
    before = zipfile.ZipFile(CORE / bytecode.STDLIB)
    after = zipfile.ZipFile(stdlib_compiled[0])
    modules = [n for n in before.namelist() if n.endswith(".py")]
    assert len(modules) > 500
    assert after.namelist() == [n + "c" if n.endswith(".py") else n for n in before.namelist()]
    for name in before.namelist():
        if not name.endswith(".py"):
            assert after.read(name) == before.read(name), name
    magics = {after.read(m + "c")[:4] for m in modules}
    assert len(magics) == 1  # one Python compiled them all
    for name in modules:
        assert int.from_bytes(after.read(name + "c")[4:8], "little") == 0b01, name
    assert oct(stdlib_compiled[0].stat().st_mode & 0o777) == "0o644"


def pyodide_says(stdlib: Path, code: str) -> str:
    """What Pyodide (under Node) started on ``stdlib`` evaluates ``code`` to."""
    runner = stdlib.parent / "stdlib.mjs"
    runner.write_text(
        f"""import {{ loadPyodide }} from {json.dumps((CORE / "pyodide.mjs").as_uri())};
const pyodide = await loadPyodide({{
  indexURL: {json.dumps(str(CORE) + "/")},
  stdLibURL: {json.dumps(str(stdlib))},
}});
console.log(`said: ${{pyodide.runPython({json.dumps(code)})}}`);
""",
        encoding="utf-8",
    )
    node = shutil.which("node")
    assert node is not None
    done = subprocess.run([node, str(runner)], capture_output=True, text=True)
    said = [line for line in done.stdout.splitlines() if line.startswith("said: ")]
    assert said, (done.stdout + done.stderr)[-2000:]
    return said[-1].removeprefix("said: ")


def test_pyodide_imports_its_standard_library_from_the_bytecode(
    stdlib_compiled: tuple[Path, Path],
) -> None:
    """The page's Python starts on the compiled zip, imports from it the bytecode, and a
    traceback names the module's file as it would from the source."""
    code = (
        "import json.decoder, traceback\n"
        "try:\n"
        "    json.loads('{')\n"
        "except ValueError as error:\n"
        "    where = traceback.extract_tb(error.__traceback__)[-1].filename\n"
        "f'{json.decoder.__file__} {where} {json.dumps({\"b\": [1, 2]})}'"
    )
    assert pyodide_says(stdlib_compiled[0], code) == (
        '/lib/python314.zip/json/decoder.pyc /lib/python314.zip/json/decoder.py {"b": [1, 2]}'
    )


def test_the_standard_library_compiles_to_the_same_bytes_in_another_process(
    stdlib_compiled: tuple[Path, Path], tmp_path: Path
) -> None:
    again = tmp_path / bytecode.STDLIB
    bytecode.compile_stdlib(CORE, again)  # no cache: a Node process of its own
    assert again.read_bytes() == stdlib_compiled[0].read_bytes()


def test_the_compiled_standard_library_is_copied_from_the_cache_unless_altered(
    stdlib_compiled: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = Path(shutil.copytree(stdlib_compiled[1], tmp_path / "cache"))
    (kept,) = cache.glob("*.zip")
    monkeypatch.setattr(bytecode.shutil, "which", lambda _name: None)
    copy = tmp_path / bytecode.STDLIB
    bytecode.compile_stdlib(CORE, copy, cache)  # no Node needed: copied
    assert copy.read_bytes() == stdlib_compiled[0].read_bytes()
    # Its bytes changed, the kept zip is not used: compiled again, here without Node, so the
    # build stops in one line and leaves the file it would have written as it was.
    kept.write_bytes(kept.read_bytes()[:-1])
    other = tmp_path / "other" / bytecode.STDLIB
    other.parent.mkdir()
    other.write_bytes(b"as it was")
    with pytest.raises(SystemExit) as stop:
        bytecode.compile_stdlib(CORE, other, cache)
    assert str(stop.value.code).startswith("node not found: ")
    assert "\n" not in str(stop.value.code)
    assert other.read_bytes() == b"as it was"
