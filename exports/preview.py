"""An interactive page shows its lesson at once, then goes live when Python is ready.

marimo's WebAssembly page shows only "Loading" until Pyodide has booted and every cell has run
(about 10 s). ``marimo export html-wasm --execute``, which would embed the outputs, cannot run
offline here, so the build makes the equivalent: this module adds to the WebAssembly page a
frame showing a static page of the same notebook, a note that the live lesson is starting
(``asyncfail.course.site``), and the script (``preview/preview.js``) that removes both once the
live app has drawn an output for every cell the static page has one for. A lesson's page shows
its static snapshot (``static.html``, already published: no byte more for the site); the
presenter view, which has no snapshot, shows ``start.html``, its slides as they start (the
static export without ``--snapshot``, revealing nothing before the class has predicted).
Nothing of this reaches another host or the URL; the live app underneath is the one a reader
(and every test) interacts with.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from pathlib import Path

from asyncfail.course import site

HERE = Path(__file__).resolve().parent / "preview"
START_PAGE = "start.html"
FRAME = "#lesson-preview > iframe"
"""The frame showing the static page, as a CSS selector: a lesson's page starts Python once it
has loaded (``early_start.py``), so the worker's downloads come after the page's first content."""


STOP_AFTER_S = 90
"""After this long without going live, the note says the lesson has not started, what to do,
and links the snapshot (the page keeps trying: if it goes live later, it still swaps)."""
SLOW_AFTER_S = 30
"""After this long, the note says the start is slower than usual."""
RUNTIME_FILES = ("pyodide.asm.wasm", "pyodide.asm.mjs", "python_stdlib.zip", "pyodide-lock.json")
"""The core files of the site's Pyodide mirror: without any of them Python cannot start, and
the page says so at once (the script asks the mirror for each with a HEAD request)."""


def overlay(source: str, snapshot: str, worker: str = "", prefetch: Sequence[str] = ()) -> str:
    """The frame showing ``source`` and its note, with the other notes the script may show in
    its place: plain words, what to do, and a link to ``snapshot`` (the lesson's static page,
    relative to this page) in every note that says the lesson cannot go live. ``worker`` is the
    site's service worker (``offline.py``), which the page registers. ``prefetch`` is the files
    of the mirror (relative to it) that the page's kernel will load once it is ready, which the
    script fetches while marimo starts (``build.prefetched``)."""
    attr = lambda value: html.escape(value, quote=True)  # noqa: E731
    link = attr(snapshot)
    notes = {
        "slow": attr(site.SLOW_NOTE),
        "stopped": site.STOPPED_NOTE_HTML.format(seconds=STOP_AFTER_S, snapshot=link),
        "file": site.FILE_NOTE_HTML.format(snapshot=link),
        "missing": site.MISSING_RUNTIME_NOTE_HTML.format(file="{file}", snapshot=link),
        "no-webassembly": site.NO_WEBASSEMBLY_NOTE_HTML.format(snapshot=link),
    }
    data = " ".join(f'data-{name}="{attr(note)}"' for name, note in notes.items())
    return (
        f'<div id="lesson-preview" {data} data-slow-after="{SLOW_AFTER_S}" '
        f'data-stop-after="{STOP_AFTER_S}" data-runtime="{attr(" ".join(RUNTIME_FILES))}" '
        f'data-sw="{attr(worker)}" data-prefetch="{attr(" ".join(prefetch))}">'
        f'<p role="status">{attr(site.STARTING_NOTE)}</p>'
        f'<iframe src="{attr(source)}" title="{attr(site.PREVIEW_FRAME_TITLE)}"></iframe></div>'
    )


def with_preview(
    page: str,
    name: str,
    source: str,
    snapshot: str,
    worker: str = "",
    prefetch: Sequence[str] = (),
) -> str:
    """``page`` (a marimo WebAssembly page) with the preview of ``source`` (a static page in the
    same folder): its style in the head, the frame first in the body, the script last.
    ``snapshot`` is the link every failure note gives; ``worker`` and ``prefetch`` as for
    ``overlay``."""
    style = (HERE / "preview.css").read_text(encoding="utf-8")
    script = (HERE / "preview.js").read_text(encoding="utf-8")
    for tag in ("</head>", "<body>", "</body>"):
        if page.count(tag) != 1:
            raise SystemExit(f"export: {name}: the WebAssembly page has no single {tag}")
    page = page.replace("</head>", f"<style>\n{style}</style>\n</head>")
    page = page.replace("<body>", f"<body>\n{overlay(source, snapshot, worker, prefetch)}")
    return page.replace("</body>", f"<script>\n{script}</script>\n</body>")


def start_page(text: str) -> str:
    """The exported starting state, marked as a page for the frame only (not for search)."""
    marker = '<meta name="robots" content="noindex">'
    return text.replace("<head>", f"<head>\n{marker}", 1)
