"""Offline on the second visit: the site's service worker (``offline/sw.js``), written last.

Every interactive page registers ``sw.js`` at the site's root (``preview/preview.js``), and once
live posts it what the page loaded, then what it loads later; the worker keeps those and
``KEEP`` (what the page's Python worker loaded, which the page cannot see: Pyodide's core and
lock, the mirror's wheels and index, the library's wheel), so the lesson opens again with the
network off. Where the browser has static routes, the files kept are then answered by the
browser from the cache without the worker. ``VERSION`` is a digest of every other file of the
site: a rebuilt site is a new cache, and the old one goes.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent / "offline"
SERVICE_WORKER = "sw.js"


def site_version(out: Path, content: Callable[[Path], bytes] = Path.read_bytes) -> str:
    """A digest of every file of the site at ``out`` (names and ``content``) but the worker
    itself. The build's ``content`` leaves out what differs between two builds of the same
    checkout (marimo's random UI ids, the pictures' anti-aliasing): the same checkout gives the
    same worker, byte for byte."""
    digest = hashlib.sha256()
    for path in sorted(p for p in out.rglob("*") if p.is_file()):
        name = path.relative_to(out).as_posix()
        if name != SERVICE_WORKER:
            digest.update(name.encode() + b"\0" + hashlib.sha256(content(path)).digest())
    return digest.hexdigest()[:16]


def kept_files(out: Path, mirror: str, wheels: str) -> list[str]:
    """What every interactive page's Python worker loads, relative to the site's root."""
    paths = [f"{mirror}/{p.name}" for p in sorted((out / mirror).iterdir()) if p.is_file()]
    paths += [f"{mirror}/simple/{p.name}/" for p in sorted((out / mirror / "simple").iterdir())]
    paths += [f"{wheels}/{p.name}" for p in sorted((out / wheels).glob("*.whl"))]
    return ["./", *paths]


def write_service_worker(
    out: Path, mirror: str, wheels: str, content: Callable[[Path], bytes] = Path.read_bytes
) -> Path:
    """``sw.js`` at the root of the site at ``out`` (after every other file is written);
    ``content`` as for ``site_version``."""
    text = (HERE / SERVICE_WORKER).read_text(encoding="utf-8")
    for marker in ("__VERSION__", "__KEEP__"):
        if text.count(marker) != 1:
            raise SystemExit(f"export: {SERVICE_WORKER} has no single {marker}")
    text = text.replace("__VERSION__", site_version(out, content))
    text = text.replace("__KEEP__", json.dumps(kept_files(out, mirror, wheels)))
    target = out / SERVICE_WORKER
    target.write_text(text, encoding="utf-8")
    return target
