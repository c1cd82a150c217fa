"""The download lock (``artifacts.lock``): the sha256 of every file the site is made from.

The lock pins each downloaded file by its path in the download cache (``exports/.cache/``), in
the format of ``sha256sum``. Rules:

- every build hashes every pinned file it reads, cache hits included, before anything is copied
  into the site; a file whose sha256 is not the pinned one, a missing file and a file the lock
  does not pin each stop the build in one line that names the file and says what to do;
- a cached file that fails is never downloaded again behind the person's back: that would hide
  a poisoned cache. The line says how to clear the cache instead;
- a build never writes the lock: only ``make relock`` does (``relock.py``), from fresh downloads.
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
LOCK = HERE / "artifacts.lock"
RELOCK = "make relock"
LOCK_LINE = re.compile(r"([0-9a-f]{64})  (\S+)")
HEADER = """\
# The sha256 of every file the site build downloads, by its path in the download cache
# (exports/.cache/): Pyodide's npm tarball, the core files the build reads from it, and every
# wheel of exports/pyodide-wheels.txt as downloaded. Every build checks every file against it.
# Do not edit by hand. After changing a pin (or PYODIDE_VERSION), regenerate it from fresh
# downloads with `make relock` (python exports/relock.py).
# Check a cache by hand: cd exports/.cache && sha256sum -c ../artifacts.lock
"""


def shown(path: Path) -> str:
    """A path as a message shows it: relative to the checkout when it lies inside it."""
    return path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else str(path)


def digest(path: Path) -> str:
    """The sha256 of a file, read in chunks (the WebAssembly runtime alone is 10 MB)."""
    sha = hashlib.sha256()
    with path.open("rb") as stream:
        while chunk := stream.read(1 << 20):
            sha.update(chunk)
    return sha.hexdigest()


@dataclass(frozen=True)
class Lock:
    """The pinned sha256 of each file, keyed by its path in the cache (posix, relative)."""

    path: Path
    pins: dict[str, str]

    def names(self, folder: str) -> list[str]:
        """The pinned files directly inside ``folder`` of the cache."""
        return sorted(name for name in self.pins if name.rpartition("/")[0] == folder)


def load_lock(path: Path = LOCK) -> Lock:
    """The lock at ``path``; a missing or malformed lock stops the build in one line."""
    remedy = f"restore it (git checkout -- {shown(path)}) or pin fresh downloads ({RELOCK})"
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise SystemExit(f"{shown(path)} is missing: {remedy}") from None
    pins: dict[str, str] = {}
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        match = LOCK_LINE.fullmatch(line)
        if match is None or match[2] in pins:
            raise SystemExit(f"{shown(path)}:{number}: not one `sha256  path` line: {remedy}")
        pins[match[2]] = match[1]
    return Lock(path, pins)


def save_lock(path: Path, pins: dict[str, str]) -> None:
    """Write the lock, one ``sha256  path`` line per file in path order, in one rename."""
    lines = "".join(f"{pins[name]}  {name}\n" for name in sorted(pins))
    partial = path.with_name(path.name + ".partial")
    partial.write_text(HEADER + lines, encoding="utf-8")
    os.replace(partial, path)


@dataclass(frozen=True)
class Downloads:
    """The download cache, whose every file is checked against the lock when it is read."""

    cache: Path
    lock: Lock

    def broken(self, name: str, what: str) -> SystemExit:
        """The one line for a cached file that cannot be used: it names the file and says how
        to clear the cache (the next build downloads everything afresh and checks it again)."""
        return SystemExit(
            f"{shown(self.cache / name)}: {what}: clear the download cache with "
            f"`rm -rf {shown(self.cache)}` and build again"
        )

    def expected(self, name: str) -> str:
        """The pinned sha256 of ``name``; a file the lock does not pin stops the build."""
        if name not in self.lock.pins:
            raise SystemExit(
                f"{shown(self.cache / name)}: {shown(self.lock.path)} pins no sha256 for it: "
                f"after changing a pin, pin fresh downloads with `{RELOCK}`"
            )
        return self.lock.pins[name]

    def check(self, name: str, downloaded: bool = False) -> Path:
        """``cache/name``, once its sha256 is the pinned one; otherwise stop the build.

        ``downloaded``: the file was fetched by this build, so a mismatch means the registry
        served other bytes than it did when the lock was made (or the pin moved without a
        relock), not an old cache.
        """
        expected, path = self.expected(name), self.cache / name
        try:
            actual = digest(path)
        except FileNotFoundError:
            if downloaded:
                raise SystemExit(
                    f"{shown(path)}: the download left no such file (the registry offers "
                    f"another file for this pin now?): pin fresh downloads with `{RELOCK}`"
                ) from None
            raise self.broken(name, "missing from the cache") from None
        except OSError as error:
            raise self.broken(name, f"cannot be read ({error.strerror})") from None
        if actual == expected:
            return path
        mismatch = f"sha256 {actual[:16]}..., not the {expected[:16]}... that "
        mismatch += f"{shown(self.lock.path)} pins"
        if downloaded:
            # Clearing the cache will not help: the bytes come from the registry.
            raise SystemExit(
                f"{shown(path)}: downloaded just now with {mismatch}: the registry served "
                f"other bytes than when the lock was made; find out why before any relock "
                f"(`rm -rf {shown(path)}` clears the download)"
            )
        raise self.broken(name, f"{mismatch} (a truncated, edited or replaced download)")

    def fetch(self, name: str, download: Callable[[], None]) -> Path:
        """``cache/name``, downloaded by ``download`` on a cache miss, checked either way.

        A file the lock does not pin stops the build before anything is downloaded.
        """
        self.expected(name)
        downloaded = not (self.cache / name).exists()
        if downloaded:
            download()
        return self.check(name, downloaded)
