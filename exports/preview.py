"""An interactive page shows its lesson at once, then goes live when Python is ready.

marimo's WebAssembly page shows only "Loading" until Pyodide has booted and every cell has run
(about 10 s). ``marimo export html-wasm --execute``, which would embed the outputs, cannot run
offline here, so the build makes the equivalent: this module adds to the WebAssembly page a
frame showing a static page of the same notebook, a note that the live lesson is starting
(``asyncfail.course.site``), and the script (``preview/preview.js``) that removes both once the
live app has drawn an output for every cell the static page has one for. The framed page is
made for the frame (``frame_page``: not for search, with ``preview/frame.js``, which makes its
controls inert and posts the reader's place). A lesson's page shows its snapshot so made,
``preview.html``, in a sandboxed frame: an opaque origin, which Chromium draws in a process of
its own, so drawing the preview does not slow the live app starting underneath (lesson 1 went
live sooner in 8 of 8 rounds, exports/README.md); the build gives the page the snapshot's
output ids (``data-outputs``), which it cannot read from such a frame. The presenter view shows
``start.html``, its slides as they start (the static export without ``--snapshot``, revealing
nothing before the class has predicted): marimo's frontend draws it from the site's assets, so
its frame stays same-origin, and the page reads its outputs from it.
Nothing of this reaches the network or the URL; the live app underneath is the one a reader
(and every test) interacts with.
"""

from __future__ import annotations

import html
from pathlib import Path

from asyncfail.course import site

HERE = Path(__file__).resolve().parent / "preview"
START_PAGE = "start.html"
PREVIEW_PAGE = "preview.html"


STOP_AFTER_S = 90
"""After this long without going live, the note says the lesson has not started, what to do,
and links the snapshot (the page keeps trying: if it goes live later, it still swaps)."""
SLOW_AFTER_S = 30
"""After this long, the note says the start is slower than usual."""
RUNTIME_FILES = ("pyodide.asm.wasm", "pyodide.asm.mjs", "python_stdlib.zip", "pyodide-lock.json")
"""The core files of the site's Pyodide mirror: without any of them Python cannot start, and
the page says so at once (the script asks the mirror for each with a HEAD request)."""


def overlay(
    source: str, snapshot: str, worker: str = "", outputs: tuple[str, ...] | None = None
) -> str:
    """The frame showing ``source`` and its note, with the other notes the script may show in
    its place: plain words, what to do, and a link to ``snapshot`` (the lesson's static page,
    relative to this page) in every note that says the lesson cannot go live. ``worker`` is the
    site's service worker (``offline.py``), which the page registers. Given ``outputs`` (the
    ids of ``source``'s outputs), the frame is sandboxed (scripts only: an opaque origin, which
    the page cannot read, so it is given the ids)."""
    attr = lambda value: html.escape(value, quote=True)  # noqa: E731
    link = attr(snapshot)
    notes = {
        "slow": attr(site.SLOW_NOTE),
        "stopped": site.STOPPED_NOTE_HTML.format(seconds=STOP_AFTER_S, snapshot=link),
        "file": site.FILE_NOTE_HTML.format(snapshot=link),
        "missing": site.MISSING_RUNTIME_NOTE_HTML.format(file="{file}", snapshot=link),
        "no-webassembly": site.NO_WEBASSEMBLY_NOTE_HTML.format(snapshot=link),
    }
    if outputs is not None:
        notes["outputs"] = " ".join(outputs)
    data = " ".join(f'data-{name}="{attr(note)}"' for name, note in notes.items())
    sandbox = ' sandbox="allow-scripts"' if outputs is not None else ""
    return (
        f'<div id="lesson-preview" {data} data-slow-after="{SLOW_AFTER_S}" '
        f'data-stop-after="{STOP_AFTER_S}" data-runtime="{attr(" ".join(RUNTIME_FILES))}" '
        f'data-sw="{attr(worker)}">'
        f'<p role="status">{attr(site.STARTING_NOTE)}</p>'
        f'<iframe{sandbox} src="{attr(source)}" '
        f'title="{attr(site.PREVIEW_FRAME_TITLE)}"></iframe></div>'
    )


def with_preview(
    page: str,
    name: str,
    source: str,
    snapshot: str,
    worker: str = "",
    outputs: tuple[str, ...] | None = None,
) -> str:
    """``page`` (a marimo WebAssembly page) with the preview of ``source`` (a static page in the
    same folder, made by ``frame_page``): its style in the head, the frame first in the body,
    the script last. ``snapshot`` is the link every failure note gives; ``outputs`` as
    ``overlay`` takes them."""
    style = (HERE / "preview.css").read_text(encoding="utf-8")
    script = (HERE / "preview.js").read_text(encoding="utf-8")
    for tag in ("</head>", "<body>", "</body>"):
        if page.count(tag) != 1:
            raise SystemExit(f"export: {name}: the WebAssembly page has no single {tag}")
    page = page.replace("</head>", f"<style>\n{style}</style>\n</head>")
    page = page.replace("<body>", f"<body>\n{overlay(source, snapshot, worker, outputs)}")
    return page.replace("</body>", f"<script>\n{script}</script>\n</body>")


def frame_page(text: str) -> str:
    """A static page made for the preview's frame: marked as not for search, with the frame's
    script (``preview/frame.js``) last in its body."""
    script = (HERE / "frame.js").read_text(encoding="utf-8")
    for tag in ("<head>", "</body>"):
        if text.count(tag) != 1:
            raise SystemExit(f"export: the preview's page has no single {tag}")
    marker = '<meta name="robots" content="noindex">'
    text = text.replace("<head>", f"<head>\n{marker}", 1)
    return text.replace("</body>", f"<script>\n{script}</script>\n</body>")
