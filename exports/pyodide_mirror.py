"""Build the site's own Pyodide mirror, so WebAssembly pages boot with no third-party request.

The core comes from the npm package ``pyodide`` (the exact version marimo's frontend expects),
the wheels from the package index as pinned in ``pyodide-wheels.txt``; a ``pyodide-lock.json``
is generated with each wheel's sha256, import names and dependencies. Downloads are cached in
``exports/.cache/``; the mirror itself is a pure function of those files.
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import sys
import tarfile
import tempfile
import zipfile
from dataclasses import dataclass
from email.parser import Parser
from pathlib import Path

from packaging.markers import default_environment
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from wheels import build_wheel, run, write_project

HERE = Path(__file__).resolve().parent
CACHE = HERE / ".cache"
PINS = HERE / "pyodide-wheels.txt"

# marimo 0.25.2's worker loads exactly this Pyodide; a newer 314.0.x refuses (version mismatch).
PYODIDE_VERSION = "314.0.0"
# What the worker loads from the core: the module, the runtime, the standard library.
CORE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip")
WASM_PLATFORM = ["--platform", "pyemscripten_2026_0_wasm32", "--python-version", "3.14"]
WASM_PLATFORM += ["--implementation", "cp", "--abi", "cp314"]
# Requirement markers are judged as Pyodide would: CPython 3.14 on Emscripten.
BROWSER_ENV = {
    **default_environment(),
    "sys_platform": "emscripten",
    "platform_system": "Emscripten",
    "platform_machine": "wasm32",
    "os_name": "posix",
    "python_version": "3.14",
    "python_full_version": "3.14.0",
    "implementation_name": "cpython",
    "platform_python_implementation": "CPython",
    "extra": "",
}
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


@dataclass(frozen=True)
class Pin:
    name: str
    version: str
    kind: str  # "pure", "wasm" or "purify"


def read_pins(path: Path = PINS) -> list[Pin]:
    pins = []
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        spec, *flags = line.split()
        name, version = spec.split("==")
        pins.append(Pin(canonicalize_name(name), version, flags[0] if flags else "pure"))
    return pins


def fetch_core(cache: Path) -> Path:
    """The npm tarball of Pyodide's core, packed once into the cache and unpacked beside it."""
    npm = cache / "npm"
    tarball = npm / f"pyodide-{PYODIDE_VERSION}.tgz"
    if not tarball.exists():
        npm.mkdir(parents=True, exist_ok=True)
        run(["npm", "pack", f"pyodide@{PYODIDE_VERSION}", "--silent"], cwd=npm)
    core = npm / f"pyodide-{PYODIDE_VERSION}"
    if not (core / "package.json").exists():
        with tarfile.open(tarball) as tar:
            tar.extractall(npm / "unpack", filter="data")
        shutil.rmtree(core, ignore_errors=True)
        (npm / "unpack" / "package").rename(core)
        shutil.rmtree(npm / "unpack")
    found = json.loads((core / "package.json").read_text(encoding="utf-8"))["version"]
    if found != PYODIDE_VERSION:
        raise SystemExit(f"npm gave pyodide {found}, need exactly {PYODIDE_VERSION}")
    return core


def wheel_name_matches(path: Path, pin: Pin) -> bool:
    dist, version = path.name.split("-")[:2]
    return canonicalize_name(dist) == pin.name and version == pin.version


def cached_wheel(pin: Pin, folder: Path) -> Path | None:
    return next((p for p in sorted(folder.glob("*.whl")) if wheel_name_matches(p, pin)), None)


def download(pin: Pin, folder: Path, platform: list[str]) -> Path:
    """The pinned wheel for ``platform``, from ``folder`` or else the package index into it."""
    folder.mkdir(parents=True, exist_ok=True)
    found = cached_wheel(pin, folder)
    if found is None:
        pip = [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps"]
        pip += ["--only-binary=:all:", *platform, "-d", str(folder)]
        run([*pip, f"{pin.name}=={pin.version}"])
        found = cached_wheel(pin, folder)
    if found is None:
        raise SystemExit(f"pip did not leave a wheel for {pin.name}=={pin.version}")
    return found


def fetch_wheel(pin: Pin, cache: Path) -> Path:
    """One pinned wheel from the package index, cached; for a ``purify`` pin, its Linux wheel."""
    if pin.kind == "purify":
        # The Linux wheel carries the same pure modules as the sdist's lib/ plus a C speed-up;
        # taking them from it avoids building the sdist's metadata (minutes on this machine).
        linux = ["--platform", "manylinux_2_17_x86_64", "--python-version", "3.14"]
        return download(pin, cache / "binary", linux)
    platform = WASM_PLATFORM if pin.kind == "wasm" else ["--python-version", "3.14"]
    return download(pin, cache / "wheels", platform)


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


def wheel_metadata(path: Path) -> tuple[str, list[Requirement], list[str]]:
    """A wheel's project name, requirements and top-level import names."""
    with zipfile.ZipFile(path) as zf:
        names = zf.namelist()
        meta_name = next(n for n in names if n.endswith(".dist-info/METADATA"))
        meta = Parser().parsestr(zf.read(meta_name).decode("utf-8"))
    imports = set()
    for name in names:
        top, _, rest = name.partition("/")
        if top.endswith((".dist-info", ".data")):
            continue
        if rest == "__init__.py":
            imports.add(top)
        elif not rest and top.endswith(".py"):
            imports.add(top.removesuffix(".py"))
        elif not rest and ".cpython-" in top and top.endswith(".so"):
            imports.add(top.split(".")[0])
    requires = [Requirement(r) for r in meta.get_all("Requires-Dist") or []]
    return meta["Name"], requires, sorted(imports)


def lock_entry(path: Path, pin: Pin, available: set[str]) -> dict[str, object]:
    _, requires, imports = wheel_metadata(path)
    depends = sorted(
        {
            canonicalize_name(r.name)
            for r in requires
            if r.marker is None or r.marker.evaluate(BROWSER_ENV)
        }
    )
    missing = [d for d in depends if d not in available]
    if missing:
        raise SystemExit(f"{pin.name} needs {missing} in the browser: pin them in {PINS.name}")
    return {
        "name": pin.name,
        "version": pin.version,
        "file_name": path.name,
        "install_dir": "site",
        "sha256": hashlib.sha256(path.read_bytes()).hexdigest(),
        "package_type": "package",
        "imports": imports,
        "depends": depends,
        "unvendored_tests": False,
    }


def build_mirror(out: Path, cache: Path = CACHE) -> Path:
    """Write the mirror (core files, wheels, pyodide-lock.json) into ``out``; return it."""
    core = fetch_core(cache)
    pins = read_pins()
    fetched = {pin.name: fetch_wheel(pin, cache) for pin in pins}
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    for name in CORE_FILES:
        shutil.copyfile(core / name, out / name)
    wheels = {}
    with tempfile.TemporaryDirectory() as tmp:
        for pin in pins:
            wheel = fetched[pin.name]
            if pin.kind == "purify":
                wheel = purify_wheel(pin, wheel, Path(tmp) / pin.name)
            wheels[pin.name] = out / wheel.name
            shutil.copyfile(wheel, wheels[pin.name])
    stock = json.loads((core / "pyodide-lock.json").read_text(encoding="utf-8"))
    packages = {}
    for pin in pins:
        packages[pin.name] = lock_entry(wheels[pin.name], pin, set(wheels))
    lock = {"info": stock["info"], "packages": dict(sorted(packages.items()))}
    (out / "pyodide-lock.json").write_text(
        json.dumps(lock, indent=1, sort_keys=True) + "\n", encoding="utf-8"
    )
    return out


if __name__ == "__main__":
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else CACHE / "pyodide-mirror"
    print(f"pyodide mirror: {build_mirror(target)}")
