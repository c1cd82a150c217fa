"""Build the site's own Pyodide mirror, so WebAssembly pages boot with no third-party request.

The core comes from the npm package ``pyodide`` (the exact version marimo's frontend expects),
the wheels from the package index as pinned in ``pyodide-wheels.txt`` (pyyaml's pure-Python
wheel is built here by setuptools); ``pyodide-lock.json`` is generated from the wheels by the
``pyodide-lock`` package (each wheel's sha256, import names and dependencies). Downloads are
cached in ``exports/.cache/`` and pinned in ``artifacts.lock``: every build checks every file it
reads from the cache against its pinned sha256 before it writes anything (see ``artifacts.py``).
The mirror itself is a pure function of those files.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import shutil
import sys
import tarfile
import tempfile
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from artifacts import LOCK, RELOCK, Downloads, Lock, load_lock, shown
from bytecode import BYTECODE_CACHE, STDLIB, add_bytecode, compile_stdlib
from packaging.utils import canonicalize_name
from wheels import build_wheel, run, write_project

if TYPE_CHECKING:
    from pyodide_lock import PyodideLockSpec

HERE = Path(__file__).resolve().parent
CACHE = HERE / ".cache"
PINS = HERE / "pyodide-wheels.txt"

# marimo 0.25.2's worker loads exactly this Pyodide; a newer 314.0.x refuses (version mismatch).
PYODIDE_VERSION = "314.0.0"
# What the worker loads from the core: the module, the runtime, the standard library.
CORE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip")
# The core's own lock, whose info block heads the mirror's pyodide-lock.json.
STOCK_LOCK = "pyodide-lock.json"
# Paths in the cache: the npm tarball, and the folder it is unpacked into. Every file the build
# reads from that folder is pinned in artifacts.lock.
TARBALL = f"npm/pyodide-{PYODIDE_VERSION}.tgz"
CORE_DIR = f"npm/pyodide-{PYODIDE_VERSION}"
CORE_READ = (*CORE_FILES, STOCK_LOCK)
WASM_PLATFORM = ["--platform", "pyemscripten_2026_0_wasm32", "--python-version", "3.14"]
WASM_PLATFORM += ["--implementation", "cp", "--abi", "cp314"]
# The project setuptools builds the pure pyyaml wheel from (with the release's yaml/*.py).
PURE_PROJECT = """\
[build-system]
requires = ["setuptools>=77"]
build-backend = "setuptools.build_meta"

[project]
name = "{name}"
version = "{version}"
description = "YAML parser and emitter for Python (the release's pure-Python modules)"
license = "MIT"
license-files = ["LICENSE"]

[tool.setuptools]
packages = ["yaml"]
"""


# What a `slim` pin's wheel leaves out, by package: files no lesson page ever reads.
SLIM_AWAY: dict[str, tuple[str, ...]] = {
    # jedi's bundled stubs (typeshed, django-stubs): 5,536 of its 5,626 files, which jedi reads
    # only to infer types for code completion, in an editor. A lesson page runs in marimo's run
    # mode, which has no editor; marimo's kernel imports jedi all the same (for a side effect on
    # the recursion limit), so Pyodide unpacked all of them at every start: 1.5 s of a page's
    # 7 s of package loading, measured in Node.
    "jedi": ("jedi/third_party/",),
}


@dataclass(frozen=True)
class Pin:
    name: str
    version: str
    kind: str  # "pure", "wasm", "purify" or "slim"


def read_pins(path: Path = PINS) -> list[Pin]:
    """The pins, one ``name==version [wasm|purify|slim]`` a line; a malformed line stops the
    build, as does a ``slim`` pin of a package ``SLIM_AWAY`` says nothing of."""
    pins = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        match = re.fullmatch(r"([A-Za-z0-9._-]+)==(\S+)(?:\s+(wasm|purify|slim))?", line)
        if match is None:
            raise SystemExit(f"{shown(path)}:{number}: not `name==version [wasm|purify|slim]`")
        name, version, kind = match.groups()
        pin = Pin(canonicalize_name(name), version, kind or "pure")
        if pin.kind == "slim" and pin.name not in SLIM_AWAY:
            known = ", ".join(sorted(SLIM_AWAY))
            raise SystemExit(
                f"{shown(path)}:{number}: `slim` needs what {pin.name} leaves out "
                f"(SLIM_AWAY in {Path(__file__).name} knows {known})"
            )
        pins.append(pin)
    return pins


def pack_tarball(npm: Path) -> None:
    """Download the npm tarball of Pyodide's core into ``npm`` (a cache miss)."""
    npm.mkdir(parents=True, exist_ok=True)
    run(["npm", "pack", f"pyodide@{PYODIDE_VERSION}", "--silent"], cwd=npm)


def unpack(downloads: Downloads) -> Path:
    """The core folder of the cache, unpacked from the (checked) tarball if it is not there.

    It is unpacked beside its place and renamed into it, so a half-unpacked folder never looks
    like a done one; the files the build reads from it are checked all the same.
    """
    tarball, core = downloads.cache / TARBALL, downloads.cache / CORE_DIR
    if core.is_dir():
        return core
    with tempfile.TemporaryDirectory(dir=core.parent) as tmp:
        try:
            with tarfile.open(tarball) as tar:
                tar.extractall(tmp, filter="data")
            (Path(tmp) / "package").rename(core)
        except (tarfile.TarError, EOFError, zlib.error, OSError) as error:
            reason = " ".join(str(error).split())
            raise downloads.broken(TARBALL, f"cannot be unpacked ({reason})") from None
    return core


def fetch_core(downloads: Downloads) -> Path:
    """Pyodide's core folder: the npm tarball and every file read from it, each checked."""
    downloads.fetch(TARBALL, lambda: pack_tarball(downloads.cache / "npm"))
    core = unpack(downloads)
    for name in CORE_READ:
        downloads.check(f"{CORE_DIR}/{name}")
    return core


def wheel_name_matches(path: Path, pin: Pin) -> bool:
    dist, version = path.name.split("-")[:2]
    return canonicalize_name(dist) == pin.name and version == pin.version


def wheel_source(pin: Pin) -> tuple[str, list[str]]:
    """The cache folder of a pin's download and pip's platform options for it."""
    if pin.kind == "purify":
        # The Linux wheel carries the same pure modules as the sdist's lib/ plus a C speed-up;
        # taking them from it avoids building the sdist's metadata (minutes on this machine).
        return "binary", ["--platform", "manylinux_2_17_x86_64", "--python-version", "3.14"]
    return "wheels", WASM_PLATFORM if pin.kind == "wasm" else ["--python-version", "3.14"]


def pip_download(pin: Pin, folder: Path) -> None:
    """Download the pinned wheel into ``folder`` from the package index."""
    folder.mkdir(parents=True, exist_ok=True)
    pip = [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps"]
    pip += ["--only-binary=:all:", *wheel_source(pin)[1], "-d", str(folder)]
    run([*pip, f"{pin.name}=={pin.version}"])


def locked_wheel(lock: Lock, pin: Pin) -> str:
    """The cache path of the pin's wheel as the lock names it: exactly one, or stop the build."""
    folder = wheel_source(pin)[0]
    found = [name for name in lock.names(folder) if wheel_name_matches(Path(name), pin)]
    if len(found) != 1:
        raise SystemExit(
            f"{shown(lock.path)} pins {len(found)} wheels of {pin.name}=={pin.version} "
            f"({PINS.name}) in {folder}/, not one: after changing a pin, pin fresh downloads "
            f"with `{RELOCK}`"
        )
    return found[0]


def fetch_wheel(pin: Pin, downloads: Downloads) -> Path:
    """One pinned wheel, checked; for a ``purify`` pin, its Linux wheel."""
    name = locked_wheel(downloads.lock, pin)
    return downloads.fetch(name, lambda: pip_download(pin, (downloads.cache / name).parent))


def purify_wheel(pin: Pin, binary: Path, out: Path) -> Path:
    """A pure-Python wheel of pyyaml, built by setuptools from the ``yaml/*.py`` modules (and
    the licence) of its Linux wheel ``binary``, into the empty folder ``out``.

    The libyaml binding stays out: ``yaml/__init__.py`` falls back to the pure loaders when
    the C module is absent.
    """
    files: dict[str, bytes] = {}
    with zipfile.ZipFile(binary) as zf:
        for name in zf.namelist():
            if re.fullmatch(r"yaml/[^/]+\.py", name):
                files[name] = zf.read(name)
            elif re.fullmatch(r"[^/]+\.dist-info/licenses/LICENSE", name):
                files["LICENSE"] = zf.read(name)
    if "yaml/__init__.py" not in files or "LICENSE" not in files:
        raise SystemExit(f"{binary.name} has no yaml package or no LICENSE")
    files["pyproject.toml"] = PURE_PROJECT.format(name=pin.name, version=pin.version).encode()
    with tempfile.TemporaryDirectory() as tmp:
        project = Path(tmp) / pin.name
        write_project(project, files)
        return build_wheel(project, out)


def slim_wheel(pin: Pin, wheel: Path, out: Path) -> Path:
    """``wheel`` without the files under ``SLIM_AWAY[pin.name]``, as ``out/<its name>``.

    Every other entry is copied as it is (name, date, mode, bytes), in its order, and the
    wheel's RECORD lists exactly what is left, so the result is a valid wheel and the same
    bytes in every build.
    """
    away = SLIM_AWAY[pin.name]
    with zipfile.ZipFile(wheel) as source:
        kept = [info for info in source.infolist() if not info.filename.startswith(away)]
        entries = [(info, source.read(info)) for info in kept]
    out.mkdir(parents=True, exist_ok=True)
    slim = out / wheel.name
    with zipfile.ZipFile(slim, "w", zipfile.ZIP_DEFLATED) as target:
        for info, data in entries:
            if info.filename.endswith(".dist-info/RECORD"):
                lines = data.decode("utf-8").splitlines(keepends=True)
                data = "".join(line for line in lines if not line.startswith(away)).encode()
            info.compress_type = zipfile.ZIP_DEFLATED
            target.writestr(info, data)
    return slim


def lock_package() -> Any:
    """The ``pyodide-lock`` package (its ``utils`` imported), which makes and edits the lock;
    without it (the dev extra not installed) the build stops in one line."""
    try:
        import pyodide_lock
        import pyodide_lock.utils  # read below as an attribute of the package
    except ImportError:
        raise SystemExit("pyodide-lock missing: install the dev extra (make export does)") from None
    return pyodide_lock


def lock_spec(info: dict[str, Any], wheels: list[Path], mirror: Path) -> PyodideLockSpec:
    """The lock of ``wheels`` (all in ``mirror``), made by ``pyodide-lock`` from the wheels.

    ``info`` is the info block of the core's own lock. Dependencies are the wheels'
    Requires-Dist as Pyodide judges their markers (CPython 3.14 on Emscripten); every one must
    be a wheel of the mirror.
    """
    tools = lock_package()
    # Pyodide 314's lock info has no `version` (Pyodide checks only abi_version), and
    # pyodide-lock requires one.
    info_spec = tools.InfoSpec(**{"version": PYODIDE_VERSION, **info})
    binary = [w for w in wheels if not w.name.endswith("-none-any.whl")]
    pure = [w for w in wheels if w not in binary]
    # pyodide-lock 0.1.2 expects a binary wheel tagged `{platform}_{arch}` of the lock
    # (emscripten_5_0_3_wasm32), but Pyodide 314 installs pyemscripten_{abi}_wasm32 wheels. So
    # the binary wheels are added first under that platform, their dependencies checked by
    # require_dependencies; then the pure wheels, under the lock's real platform. (Markers of
    # the binary wheels' requirements see sys_platform "pyemscripten": the pinned msgspec and
    # pydantic-core have no such markers.)
    tagged = info_spec.model_copy(update={"platform": f"pyemscripten_{info_spec.abi_version}"})
    spec = tools.PyodideLockSpec(info=tagged, packages={})
    spec = tools.utils.add_wheels_to_spec(spec, binary, mirror, ignore_missing_dependencies=True)
    spec = tools.PyodideLockSpec(info=info_spec, packages=spec.packages)
    spec = tools.utils.add_wheels_to_spec(spec, pure, mirror)
    spec.check_wheel_filenames()
    return spec


def require_dependencies(spec: PyodideLockSpec) -> None:
    """Stop the build if a package of the lock depends on one the mirror does not ship."""
    missing = sorted(
        f"{name} needs {dependency}"
        for name, package in spec.packages.items()
        for dependency in package.depends
        if dependency not in spec.packages
    )
    if missing:
        raise SystemExit(f"{'; '.join(missing)} in the browser: pin them in {PINS.name}")


def mirror_lock(core: Path, wheels: list[Path], mirror: Path) -> PyodideLockSpec:
    """The lock of the mirror: the core's info block, one entry per wheel. ``pyodide-lock``
    reads each package's import names from its sources: made before bytecode replaces them."""
    stock = json.loads((core / STOCK_LOCK).read_text(encoding="utf-8"))
    try:
        spec = lock_spec(stock["info"], wheels, mirror)
    except (RuntimeError, ValueError) as error:
        # pyodide-lock reports a dependency missing from the wheels, or a wheel it cannot use.
        raise SystemExit(f"pyodide-lock: {' '.join(str(error).split())}") from None
    require_dependencies(spec)
    return spec


def shipped_digests(wheels: list[Path]) -> dict[str, str]:
    """Each wheel's file name with the sha256 of its bytes as shipped (after its bytecode)."""
    return {wheel.name: hashlib.sha256(wheel.read_bytes()).hexdigest() for wheel in wheels}


def write_lock(spec: PyodideLockSpec, mirror: Path, digests: dict[str, str]) -> None:
    """``pyodide-lock.json`` of the mirror, each package with the sha256 of its wheel as shipped
    (``digests``: Pyodide checks it before it unpacks one)."""
    for package in spec.packages.values():
        package.sha256 = digests[package.file_name]
    spec.to_json(mirror / "pyodide-lock.json", indent=1)


@dataclass(frozen=True)
class MirrorInputs:
    """Every download the mirror is made from, each checked against the lock."""

    core: Path
    pins: list[Pin]
    wheels: dict[str, Path]  # pin name -> its downloaded wheel
    cache: Path  # the download cache they are in (which keeps compiled wheels too)


def mirror_inputs(cache: Path = CACHE, lock: Path = LOCK) -> MirrorInputs:
    """Fetch what the cache lacks and check every file against the lock; write nothing else."""
    downloads = Downloads(cache, load_lock(lock))
    pins = read_pins()
    core = fetch_core(downloads)
    wheels = {pin.name: fetch_wheel(pin, downloads) for pin in pins}
    return MirrorInputs(core, pins, wheels, cache)


def write_mirror(out: Path, inputs: MirrorInputs) -> Path:
    """Write the mirror (core files, wheels, pyodide-lock.json) into ``out``; return it.

    What the build makes (pyyaml's pure wheel, the slim ones, the bytecode of the wheels of
    ``bytecode.BYTECODE`` and of the standard library, and ``pyodide-lock.json``) is not pinned:
    it is made reproducibly from the checked downloads.
    """
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    for name in CORE_FILES:
        if name != STDLIB:
            shutil.copyfile(inputs.core / name, out / name)
    compile_stdlib(inputs.core, out / STDLIB, inputs.cache / BYTECODE_CACHE)
    wheels = []
    with tempfile.TemporaryDirectory() as tmp:
        for pin in inputs.pins:
            wheel = inputs.wheels[pin.name]
            if pin.kind == "purify":
                wheel = purify_wheel(pin, wheel, Path(tmp) / pin.name)
            elif pin.kind == "slim":
                wheel = slim_wheel(pin, wheel, Path(tmp) / pin.name)
            wheels.append(out / wheel.name)
            shutil.copyfile(wheel, wheels[-1])
    spec = mirror_lock(inputs.core, wheels, out)
    add_bytecode(inputs.core, wheels, inputs.cache / BYTECODE_CACHE)
    digests = shipped_digests(wheels)  # once: the lock and the index both name them
    write_lock(spec, out, digests)
    write_simple_index(out, wheels, digests)
    return out


def add_library(mirror: Path, wheel: Path, built: Path) -> None:
    """Name ``wheel`` (the library's as shipped, in a folder beside ``mirror``) in the mirror's
    lock, with its dependencies as Pyodide judges them, so a page loads it as it loads Pyodide's
    packages.

    A page first loads, all at once, the packages of the lock its notebook imports (Pyodide's
    ``loadPackagesFromImports``), then installs with micropip whatever its header requires and
    is still missing. Outside the lock, the library came second: micropip was imported, fetched
    the wheel, read its requirements, then loaded pydantic and the rest. In the lock, ``from
    asyncfail import ...`` loads them in the first batch and micropip is never imported
    (measured in exports/README.md, "The library in the lock").

    The entry is read from ``built``, the same wheel as setuptools built it (its name, metadata
    and modules): ``pyodide-lock`` finds a wheel's import names by its ``.py`` files, and the
    shipped wheel holds bytecode in their place (``bytecode.py``). Its sha256 is the shipped
    wheel's, which is what a page checks.
    """
    if built.name != wheel.name:
        raise SystemExit(f"export: {built.name} is not the wheel shipped as {wheel.name}")
    tools = lock_package()
    lock = mirror / "pyodide-lock.json"
    spec = tools.PyodideLockSpec.from_json(lock)
    # The file name relative to the lock, as Pyodide resolves it: ../wheels/asyncfail-....whl.
    relative = f"../{wheel.parent.name}/"
    spec = tools.utils.add_wheels_to_spec(spec, [built], base_path=built.parent, base_url=relative)
    (entry,) = [p for p in spec.packages.values() if p.file_name == relative + wheel.name]
    tools.utils.update_package_sha256(entry, wheel)
    require_dependencies(spec)
    spec.to_json(lock, indent=1)


def write_simple_index(out: Path, wheels: list[Path], digests: dict[str, str]) -> None:
    """A package index (PEP 503) of the mirror's wheels at ``simple/<name>/``.

    Each page points its ``data-pypi-index-url``, ``simple/{package_name}/``, here, so that a
    package missing from the mirror fails instead of reaching out; and micropip asks that index
    before the lock file for every requirement it resolves, so without these pages a page that
    used micropip began with a 404 (every page did, for asyncfail's pydantic, until the library
    joined the lock: ``add_library``). ``digests``: ``shipped_digests`` of ``wheels``.
    """
    for wheel in wheels:
        project = canonicalize_name(wheel.name.split("-")[0])
        folder = out / "simple" / project
        folder.mkdir(parents=True, exist_ok=True)
        link = f'<a href="../../{wheel.name}#sha256={digests[wheel.name]}">{wheel.name}</a>'
        (folder / "index.html").write_text(
            f"<!DOCTYPE html>\n<html><body>\n{link}\n</body></html>\n", encoding="utf-8"
        )


def build_mirror(out: Path, cache: Path = CACHE, lock: Path = LOCK) -> Path:
    """The mirror in ``out``, from the downloads in ``cache`` once all match ``lock``."""
    return write_mirror(out, mirror_inputs(cache, lock))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    default = CACHE / "pyodide-mirror"
    parser.add_argument("out", nargs="?", type=Path, default=default, help="mirror folder")
    print(f"pyodide mirror: {build_mirror(parser.parse_args().out)}")


if __name__ == "__main__":
    main()
