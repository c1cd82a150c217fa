"""Pin fresh downloads of every artifact in ``artifacts.lock`` (``make relock``).

Run it after changing a pin (``pyodide-wheels.txt``, or ``PYODIDE_VERSION`` with marimo). It
downloads every artifact afresh into a temporary folder, never reading ``exports/.cache/`` (a
corrupted or altered cache must not be pinned), checks that each is usable (the tarball is the
pinned Pyodide and holds every core file the build reads; each wheel is a valid zip of its pin),
writes the lock and prints what changed: review that like any change of dependency. A build
never runs this; it only checks the cache against the lock.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import tarfile
import tempfile
import zipfile
import zlib
from pathlib import Path
from typing import IO

sys.path.insert(0, str(Path(__file__).resolve().parent))

from artifacts import LOCK, digest, load_lock, save_lock, shown
from pyodide_mirror import (
    CORE_DIR,
    CORE_READ,
    PYODIDE_VERSION,
    TARBALL,
    Pin,
    pack_tarball,
    pip_download,
    read_pins,
    wheel_name_matches,
    wheel_source,
)

# What a broken tarball or wheel raises when it is read.
UNREADABLE = (tarfile.TarError, zipfile.BadZipFile, EOFError, zlib.error, OSError)


def member(tar: tarfile.TarFile, name: str) -> IO[bytes]:
    """A regular file of the npm package (its files sit under ``package/``)."""
    stream = tar.extractfile(f"package/{name}")
    if stream is None:
        raise KeyError(f"package/{name} is not a file")
    return stream


def core_pins(cache: Path) -> dict[str, str]:
    """The sha256 of the tarball, and of each core file the build reads, taken from the tarball
    itself (not from an unpacked folder)."""
    tarball = cache / TARBALL
    if not tarball.exists():
        pack_tarball(tarball.parent)
    pins = {TARBALL: digest(tarball)}
    try:
        with tarfile.open(tarball) as tar:
            version = json.load(member(tar, "package.json"))["version"]
            if version != PYODIDE_VERSION:
                raise ValueError(f"it holds pyodide {version}")
            for name in CORE_READ:
                sha = hashlib.file_digest(member(tar, name), "sha256").hexdigest()
                pins[f"{CORE_DIR}/{name}"] = sha
    except (*UNREADABLE, KeyError, ValueError) as error:
        reason = " ".join(str(error).split())
        raise SystemExit(
            f"{shown(tarball)}: not a usable npm tarball of pyodide {PYODIDE_VERSION} ({reason})"
        ) from None
    return pins


def wheel_pin(pin: Pin, cache: Path) -> tuple[str, str]:
    """The cache path and sha256 of the pin's wheel, downloaded unless ``cache`` holds it."""
    folder = cache / wheel_source(pin)[0]
    if not any(wheel_name_matches(p, pin) for p in folder.glob("*.whl")):
        pip_download(pin, folder)
    found = [p for p in sorted(folder.glob("*.whl")) if wheel_name_matches(p, pin)]
    if len(found) != 1:
        raise SystemExit(f"{shown(folder)}: {len(found)} wheels of {pin.name}=={pin.version}")
    wheel = found[0]
    try:
        with zipfile.ZipFile(wheel) as zf:
            corrupt = zf.testzip()
    except UNREADABLE as error:
        raise SystemExit(f"{shown(wheel)}: not a valid wheel ({error})") from None
    if corrupt is not None:
        raise SystemExit(f"{shown(wheel)}: not a valid wheel ({corrupt} is corrupt)")
    return wheel.relative_to(cache).as_posix(), digest(wheel)


def relock(cache: Path) -> dict[str, str]:
    """The lock's pins: every artifact in ``cache``, downloaded into it where it is missing."""
    pins = core_pins(cache)
    pins.update(wheel_pin(pin, cache) for pin in read_pins())
    return pins


def changes(before: dict[str, str], after: dict[str, str]) -> list[str]:
    """One line per file the relock added (+), removed (-) or whose sha256 changed (~)."""
    lines = []
    for name in sorted(before.keys() | after.keys()):
        if name not in before:
            lines.append(f"+ {name}")
        elif name not in after:
            lines.append(f"- {name}")
        elif before[name] != after[name]:
            lines.append(f"~ {name}")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lock", type=Path, default=LOCK, help="the lock file to (re)write")
    lock = parser.parse_args().lock
    try:
        before = load_lock(lock).pins
    except SystemExit:
        before = {}  # missing or malformed: every file is new
    with tempfile.TemporaryDirectory() as tmp:
        after = relock(Path(tmp))
    save_lock(lock, after)
    print("\n".join(changes(before, after) or ["no change"]))
    print(f"relock: {len(after)} files pinned in {shown(lock)}")


if __name__ == "__main__":
    main()
