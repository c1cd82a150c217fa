"""The publishing supply chain: every download pinned in exports/artifacts.lock and checked on
every build, cache hits included; the Pages workflow's actions pinned by commit.

Each corruption is made in a copy of the download cache, never in the real one, and stops
`build_mirror` (no marimo export needed) in one line that names the file and says what to do.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "exports"))

from artifacts import LOCK, Downloads, Lock, digest, load_lock, save_lock  # noqa: E402
from build import SITE_MARKER, build_site  # noqa: E402
from pyodide_mirror import (  # noqa: E402
    CACHE,
    CORE_DIR,
    CORE_READ,
    TARBALL,
    build_mirror,
    locked_wheel,
    mirror_inputs,
    read_pins,
    slim_wheel,
)
from relock import relock  # noqa: E402

from tests.browser.wheel_files import assert_record_lists_the_wheel, rewrite_wheel  # noqa: E402

WORKFLOWS = ROOT / ".github" / "workflows"
USES = re.compile(r"^\s*(?:-\s+)?uses:\s*(?P<action>\S+)(?P<rest>.*)$", re.MULTILINE)


@pytest.fixture(scope="session")
def warm_cache(npm: str) -> Path:
    """The real download cache, complete and checked against the lock (it downloads what it
    lacks). Tests read it and copy it; none alters it."""
    mirror_inputs(CACHE)
    return CACHE


@pytest.fixture
def cache(warm_cache: Path, tmp_path: Path) -> Path:
    """A copy of the download cache, for one test to corrupt."""
    copy = tmp_path / "cache"
    # Not the compiled wheels the build keeps (bytecode.py): no corruption test reaches them.
    shutil.copytree(warm_cache, copy, ignore=shutil.ignore_patterns("pyodide-mirror", "bytecode"))
    return copy


def locked(prefix: str) -> str:
    """The one file of the committed lock whose cache path starts with ``prefix``."""
    (name,) = [name for name in load_lock().pins if name.startswith(prefix)]
    return name


def refused(cache: Path, out: Path, lock: Path = LOCK) -> str:
    """The one line a mirror build from ``cache`` stops with; it must write no mirror."""
    with pytest.raises(SystemExit) as stop:
        build_mirror(out, cache, lock)
    message = str(stop.value.code)
    assert "\n" not in message and "Traceback" not in message
    assert not out.exists()
    return message


def truncate(path: Path) -> bytes:
    """Cut a file to half its length, as an interrupted download leaves it; return the rest."""
    data = path.read_bytes()[: path.stat().st_size // 2]
    path.write_bytes(data)
    return data


def edit_wheel(path: Path, member: str) -> None:
    """Rewrite one file inside a wheel: still a valid zip (and wheel), with other bytes."""
    rewrite_wheel(path, lambda name, data: data + b"\nEDITED = True\n" if name == member else data)


def assert_clear_the_cache(message: str, cache: Path, name: str) -> None:
    assert message.startswith(f"{cache / name}: "), message
    assert f"clear the download cache with `rm -rf {cache}`" in message, message


@pytest.mark.parametrize("core_file", CORE_READ)
def test_a_truncated_core_file_stops_the_build(cache: Path, tmp_path: Path, core_file: str) -> None:
    name = f"{CORE_DIR}/{core_file}"
    left = truncate(cache / name)
    message = refused(cache, tmp_path / "mirror")
    assert_clear_the_cache(message, cache, name)
    assert "sha256" in message and "artifacts.lock" in message
    # Not repaired behind the person's back: the poisoned file is still there to be noticed.
    assert (cache / name).read_bytes() == left


def test_a_missing_core_file_stops_the_build(cache: Path, tmp_path: Path) -> None:
    name = f"{CORE_DIR}/pyodide.asm.wasm"
    (cache / name).unlink()
    message = refused(cache, tmp_path / "mirror")
    assert_clear_the_cache(message, cache, name)
    assert "missing" in message


def test_an_edited_but_valid_pydantic_wheel_stops_the_build(cache: Path, tmp_path: Path) -> None:
    name = locked("wheels/pydantic-")
    edit_wheel(cache / name, "pydantic/version.py")
    with zipfile.ZipFile(cache / name) as zf:
        assert zf.testzip() is None  # a valid zip: only its sha256 gives it away
    message = refused(cache, tmp_path / "mirror")
    assert_clear_the_cache(message, cache, name)


@pytest.mark.parametrize("unpacked", [True, False], ids=["unpacked", "not-unpacked"])
def test_a_truncated_npm_tarball_stops_the_build(
    cache: Path, tmp_path: Path, unpacked: bool
) -> None:
    # Checked even when its unpacked folder is there and the build reads nothing from it.
    truncate(cache / TARBALL)
    if not unpacked:
        shutil.rmtree(cache / CORE_DIR)
    message = refused(cache, tmp_path / "mirror")
    assert_clear_the_cache(message, cache, TARBALL)
    assert (cache / CORE_DIR).exists() == unpacked  # a tarball that fails is never unpacked


@pytest.mark.parametrize("prefix", ["wheels/pydantic_core-", "wheels/micropip-", "binary/pyyaml-"])
def test_a_truncated_wheel_stops_the_build(cache: Path, tmp_path: Path, prefix: str) -> None:
    name = locked(prefix)
    truncate(cache / name)
    message = refused(cache, tmp_path / "mirror")
    assert_clear_the_cache(message, cache, name)


def test_a_tarball_that_cannot_be_unpacked_stops_the_build(cache: Path, tmp_path: Path) -> None:
    # Pinned as it is (as if the lock had been made from it), so only unpacking can fail.
    truncate(cache / TARBALL)
    shutil.rmtree(cache / CORE_DIR)
    lock = tmp_path / "artifacts.lock"
    save_lock(lock, {**load_lock().pins, TARBALL: digest(cache / TARBALL)})
    message = refused(cache, tmp_path / "mirror", lock)
    assert_clear_the_cache(message, cache, TARBALL)
    assert "cannot be unpacked" in message


def test_a_missing_lock_stops_the_build(cache: Path, tmp_path: Path) -> None:
    lock = tmp_path / "artifacts.lock"
    message = refused(cache, tmp_path / "mirror", lock)
    assert message == (
        f"{lock} is missing: restore it (git checkout -- {lock}) "
        "or pin fresh downloads (make relock)"
    )


def test_a_malformed_lock_stops_the_build(cache: Path, tmp_path: Path) -> None:
    lock = tmp_path / "artifacts.lock"
    lock.write_text(LOCK.read_text(encoding="utf-8") + "not a pin\n", encoding="utf-8")
    message = refused(cache, tmp_path / "mirror", lock)
    assert message.startswith(
        f"{lock}:{len(LOCK.read_text(encoding='utf-8').splitlines()) + 1}: not one "
    )


@pytest.mark.parametrize(
    ("prefix", "says"),
    [
        (f"{CORE_DIR}/pyodide.asm.wasm", "pyodide.asm.wasm: {lock} pins no sha256 for it"),
        (TARBALL, "pyodide-314.0.0.tgz: {lock} pins no sha256 for it"),
        ("wheels/pydantic-", "{lock} pins 0 wheels of pydantic==2.14.4"),
    ],
)
def test_a_file_the_lock_does_not_pin_stops_the_build(
    cache: Path, tmp_path: Path, prefix: str, says: str
) -> None:
    lock = tmp_path / "artifacts.lock"
    save_lock(lock, {k: v for k, v in load_lock().pins.items() if not k.startswith(prefix)})
    message = refused(cache, tmp_path / "mirror", lock)
    assert says.format(lock=lock) in message
    assert message.endswith("pin fresh downloads with `make relock`")


def test_a_download_is_checked_as_it_arrives(tmp_path: Path) -> None:
    lock = Lock(tmp_path / "artifacts.lock", {"wheels/x-1-py3-none-any.whl": "0" * 64})
    downloads = Downloads(tmp_path / "cache", lock)
    target = downloads.cache / "wheels" / "x-1-py3-none-any.whl"

    def download() -> None:
        target.parent.mkdir(parents=True)
        target.write_bytes(b"other bytes")

    with pytest.raises(SystemExit, match=r"downloaded just now with sha256 .* registry served"):
        downloads.fetch("wheels/x-1-py3-none-any.whl", download)
    target.unlink()
    with pytest.raises(SystemExit, match="the download left no such file"):
        downloads.fetch("wheels/x-1-py3-none-any.whl", lambda: None)
    with pytest.raises(SystemExit, match="pins no sha256"):
        downloads.fetch("wheels/y-1-py3-none-any.whl", pytest.fail)


def test_a_poisoned_cache_stops_make_export_before_it_touches_the_site(
    cache: Path, tmp_path: Path
) -> None:
    truncate(cache / CORE_DIR / "python_stdlib.zip")
    fresh, previous = tmp_path / "fresh", tmp_path / "previous"
    previous.mkdir()
    (previous / SITE_MARKER).write_text("built by exports/build.py\n", encoding="utf-8")
    (previous / "index.html").write_text("the last good site", encoding="utf-8")
    for out in (fresh, previous):
        with pytest.raises(SystemExit, match=r"python_stdlib\.zip: sha256 .*`rm -rf "):
            build_site(out, cache, log=lambda _line: None)
    assert not fresh.exists()
    assert (previous / "index.html").read_text(encoding="utf-8") == "the last good site"


def test_the_committed_lock_pins_exactly_the_core_and_every_pinned_wheel() -> None:
    lock = load_lock()
    assert CORE_READ == (
        "pyodide.mjs",
        "pyodide.asm.mjs",
        "pyodide.asm.wasm",
        "python_stdlib.zip",
        "pyodide-lock.json",
    )
    core = [TARBALL, *(f"{CORE_DIR}/{name}" for name in CORE_READ)]
    wheels = [locked_wheel(lock, pin) for pin in read_pins()]
    assert sorted(lock.pins) == sorted(core + wheels)
    # pyyaml is pinned as downloaded (the Linux wheel), not as the pure wheel built from it.
    assert [name for name in wheels if "pyyaml" in name] == [locked("binary/pyyaml-")]
    assert "manylinux" in locked("binary/pyyaml-")


def test_a_malformed_pin_stops_the_build(tmp_path: Path) -> None:
    pins = tmp_path / "pyodide-wheels.txt"
    pins.write_text("# pins\npydantic==2.14.4\npydantic-core>=2.50 wasm\n", encoding="utf-8")
    with pytest.raises(SystemExit) as stop:
        read_pins(pins)
    assert stop.value.code == f"{pins}:3: not `name==version [wasm|purify|slim]`"


def test_a_slim_pin_needs_what_its_package_leaves_out(tmp_path: Path) -> None:
    pins = tmp_path / "pyodide-wheels.txt"
    pins.write_text("jedi==0.20.1 slim\npygments==2.21.0 slim\n", encoding="utf-8")
    with pytest.raises(SystemExit) as stop:
        read_pins(pins)
    assert stop.value.code == (
        f"{pins}:2: `slim` needs what pygments leaves out "
        "(SLIM_AWAY in pyodide_mirror.py knows jedi)"
    )


def test_the_slim_jedi_wheel_is_the_pinned_one_without_its_stubs(
    warm_cache: Path, tmp_path: Path
) -> None:
    """The slim wheel (before its bytecode, test_bytecode.py) is the pinned one less
    ``jedi/third_party/``: every other entry the same bytes, a RECORD whose every line names a
    file of the wheel, with its own hash, and a jedi that imports (from the wheel alone)."""
    (pin,) = [pin for pin in read_pins() if pin.name == "jedi"]
    assert pin.kind == "slim"
    pinned = zipfile.ZipFile(warm_cache / locked_wheel(load_lock(), pin))
    slim = zipfile.ZipFile(slim_wheel(pin, Path(pinned.filename or ""), tmp_path / "slim"))
    names = slim.namelist()
    stubs = [n for n in pinned.namelist() if n.startswith("jedi/third_party/")]
    assert len(stubs) > 5000  # the stubs a page never reads: most of the wheel
    assert names == [n for n in pinned.namelist() if n not in stubs]
    assert_record_lists_the_wheel(slim)
    for name in names:
        if not name.endswith("/RECORD"):
            assert slim.read(name) == pinned.read(name), name
    unpacked = tmp_path / "jedi"
    slim.extractall(unpacked)
    probe = "import jedi, jedi.api; print(jedi.__version__, jedi.__file__)"
    shown = subprocess.run(
        [sys.executable, "-c", f"import sys; sys.path.insert(0, {str(unpacked)!r}); {probe}"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    assert shown == [pin.version, str(unpacked / "jedi" / "__init__.py")]


def test_relocking_the_cache_gives_the_committed_lock(warm_cache: Path, tmp_path: Path) -> None:
    save_lock(tmp_path / "artifacts.lock", relock(warm_cache))
    assert (tmp_path / "artifacts.lock").read_bytes() == LOCK.read_bytes()


@pytest.mark.parametrize(
    ("prefix", "says"),
    [(TARBALL, "not a usable npm tarball"), ("wheels/pydantic-", "not a valid wheel")],
)
def test_relock_refuses_a_broken_download(cache: Path, prefix: str, says: str) -> None:
    name = locked(prefix)
    truncate(cache / name)
    with pytest.raises(SystemExit) as stop:
        relock(cache)
    message = str(stop.value.code)
    assert message.startswith(f"{cache / name}: {says}") and "\n" not in message


def test_every_action_is_pinned_by_commit() -> None:
    """Every `uses:` of another repository names a full commit, its version in a comment: a
    tag can be moved to other code, a commit cannot."""
    uses = [
        (workflow.name, match)
        for workflow in sorted(WORKFLOWS.glob("*.y*ml"))
        for match in USES.finditer(workflow.read_text(encoding="utf-8"))
    ]
    assert uses
    for workflow, match in uses:
        action, _, ref = match["action"].partition("@")
        if action.startswith("./"):
            continue  # an action of this repository, pinned by the checkout itself
        assert re.fullmatch(r"[0-9a-f]{40}", ref), f"{workflow}: {match[0].strip()}"
        assert re.fullmatch(r"\s+# v\d+(\.\d+)*", match["rest"]), f"{workflow}: {action}"
