"""The lessons' Markdown rendered once, as the site is built, into the site's library wheel.

Each lesson's first run, and its warm-up after it, is made in the page's own Python
(``prerender.mjs``: Pyodide's core from the site's mirror, with the mirror's wheels and the
library's, run by Node), and every text marimo's renderer was given is kept with the HTML it
gave. The memo, one JSON object for all the lessons, goes into the library's wheel as
``asyncfail/course/prerendered_markdown.json``, with the entry point that has the page's kernel
read it as it instantiates the notebook (the rule, and what it saves:
``asyncfail/course/prerendered.py``). Its bytes are the same at every build: the runs are
deterministic and the keys sorted.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import subprocess
import sys
import zipfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Final

from bytecode import keep_compilation, kept_compilation, node_or_stop

from asyncfail.course.prerendered import ENTRY_POINT, ENTRY_POINT_GROUP, KEPT_ASIDE, MEMO

SCRIPT: Final = Path(__file__).with_name("prerender.mjs")
MEMO_PATH: Final = f"asyncfail/course/{MEMO}"
"""Where the memo goes in the library's wheel: beside the module that reads it."""
PRERENDER_CACHE: Final = "prerendered"
"""Where, in the download cache, memos are kept: ``<key>-<sha256>.json``, the key a digest of
everything the runs read (``memo_key``). The runs took Node some 11 s of a build (41.1 s
against 30.3 s)."""
JOBS: Final = max(1, min(4, os.cpu_count() or 1))
"""Lessons run at once: one Node process each, one per core, at most four."""
RUN_LIMIT_S: Final = 300
"""A first run not over by then stops the build (one takes 3-4 s): a lesson whose run never
ends would otherwise hang it."""


def memo_key(core: Path, library: Path, notebooks: list[Path]) -> str:
    """A digest of what the runs read: the script, Pyodide's core (runtime, standard library,
    the mirror's wheels), the library's wheel and the notebooks, each with its name."""
    digest = hashlib.sha256()
    inputs = [SCRIPT, core / "pyodide.asm.wasm", core / "python_stdlib.zip"]
    inputs += [*sorted(core.glob("*.whl")), library, *notebooks]
    for path in inputs:
        digest.update(path.name.encode() + b"\0" + hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()[:32]


def first_run(core: Path, library: Path, notebook: Path) -> dict[str, str]:
    """Every text ``notebook``'s first run and warm-up render, with its HTML
    (``prerender.mjs``); a run that fails stops the build in one line, with Node's output, and
    so does one that does not end (``RUN_LIMIT_S``)."""
    argv = [node_or_stop(), str(SCRIPT), str(core), str(library), str(notebook)]
    try:
        result = subprocess.run(
            argv, capture_output=True, text=True, encoding="utf-8", timeout=RUN_LIMIT_S
        )
    except subprocess.TimeoutExpired:
        raise SystemExit(
            f"export: the first run of {notebook.name} under Node did not end in {RUN_LIMIT_S} s"
        ) from None
    try:
        rendered = json.loads(result.stdout) if result.returncode == 0 else None
    except ValueError:
        rendered = None
    if not isinstance(rendered, dict):
        sys.stderr.write(result.stdout[-4000:] + result.stderr[-4000:])
        raise SystemExit(f"export: the first run of {notebook.name} under Node failed")
    return rendered


def merged(runs: list[dict[str, str]]) -> bytes:
    """The memo of ``runs``: every text with its HTML, but those whose HTML holds an image
    (``KEPT_ASIDE``); keys sorted. Two runs that render one text differently stop the build:
    the renderer would not be a function of its text."""
    memo: dict[str, str] = {}
    for rendered in runs:
        for text, html in rendered.items():
            if memo.setdefault(text, html) != html:
                raise SystemExit(f"export: two lessons render one Markdown text apart: {text!r}")
    kept = {text: html for text, html in memo.items() if KEPT_ASIDE not in html}
    return json.dumps(kept, sort_keys=True, ensure_ascii=False).encode("utf-8")


def record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}\n"


def with_entry_point(listed: str) -> str:
    """A wheel's ``entry_points.txt`` text ``listed`` with the library's kernel lifespan
    (``ENTRY_POINT`` in ``ENTRY_POINT_GROUP``) after what it lists; as it was if it has it."""
    section = f"[{ENTRY_POINT_GROUP}]\n{ENTRY_POINT}\n"
    if section in listed:
        return listed
    return (listed.rstrip("\n") + "\n\n" if listed.strip() else "") + section


def add_to_wheel(wheel: Path, name: str, data: bytes) -> None:
    """Rewrite ``wheel`` with ``data`` as ``name`` (dated as its first entry, mode 0644) and
    the library's kernel lifespan among its entry points (``with_entry_point``), every other
    entry as it was, and RECORD listing them all; written beside, then renamed."""
    with zipfile.ZipFile(wheel) as source:
        entries = [(info, source.read(info)) for info in source.infolist()]
    info_dir = {i.filename.split("/")[0] for i, _ in entries if ".dist-info/" in i.filename}
    if len(info_dir) != 1:
        raise SystemExit(f"export: {wheel.name} has no single .dist-info folder")
    (folder,) = info_dir
    record, points = f"{folder}/RECORD", f"{folder}/entry_points.txt"
    by_name = {info.filename: (info, d) for info, d in entries}
    if record not in by_name:
        raise SystemExit(f"export: {wheel.name} has no RECORD")
    dated = entries[0][0].date_time
    listed = by_name[points][1].decode("utf-8") if points in by_name else ""
    changed = {name: data, points: with_entry_point(listed).encode("utf-8")}
    files = [(i, changed.pop(i.filename, d)) for i, d in entries if i.filename != record]
    for added, added_data in changed.items():  # those the wheel did not hold
        info = zipfile.ZipInfo(added, date_time=dated)
        info.external_attr = 0o644 << 16
        files.append((info, added_data))
    lines = "".join(record_line(info.filename, d) for info, d in files)
    files.append((by_name[record][0], (lines + f"{record},,\n").encode()))
    part = wheel.with_name(f"{wheel.name}.{os.getpid()}.part")
    with zipfile.ZipFile(part, "w") as target:
        for info, d in files:
            info.compress_type = zipfile.ZIP_DEFLATED
            target.writestr(info, d)
    os.replace(part, wheel)


def prerender(core: Path, library: Path, notebooks: list[Path], cache: Path | None = None) -> int:
    """Put the memo of ``notebooks``' first runs into ``library`` (the site's copy of the
    library's wheel, whose modules ``core``, the site's Pyodide mirror, runs), with the entry
    point that installs it; return how many texts it holds. With a ``cache`` folder, a memo
    made before from the same inputs is read from it, and a new one kept in it."""
    key = memo_key(core, library, notebooks)
    kept = kept_compilation(cache, key, ".json") if cache is not None else None
    if kept is not None:
        memo = kept.read_bytes()
    else:
        with ThreadPoolExecutor(max_workers=JOBS, thread_name_prefix="prerender") as pool:
            memo = merged(list(pool.map(lambda nb: first_run(core, library, nb), notebooks)))
        if cache is not None:
            made = cache / f"{key}.json"
            cache.mkdir(parents=True, exist_ok=True)
            made.write_bytes(memo)
            keep_compilation(cache, key, made)
            made.unlink()
    add_to_wheel(library, MEMO_PATH, memo)
    return len(json.loads(memo))
