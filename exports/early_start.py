"""A lesson's interactive page starts marimo's kernel worker early (``early_start/``).

marimo's page script creates the web worker that runs Pyodide, and sends it ``bootstrap``, only
once the script and its 300-odd modules have loaded and run, 1.5-2 s into the page; the worker
waits until then. The build puts a small script first in each lesson's ``<head>`` that creates
the same worker, once the preview's frame has loaded (the page's first content; at once on a
page without one), and sends it the same request; marimo's page script is then given that
worker when it creates its own (``early_start.js`` says how). The bench's trivial page is
exported without it: it is the stock marimo page the lessons are measured against.

What the script must say as marimo says it is read from marimo's own frontend assets at build
time: the worker's script (the one asset the page script names ``worker-*.js``), and the words
of marimo's transport, each of which must be in those assets, or the build stops in one line
instead of shipping a page that starts Python twice.
"""

from __future__ import annotations

import html
import re
from importlib.metadata import version
from pathlib import Path

HERE = Path(__file__).resolve().parent / "early_start"

WORKER_NAME = "marimo"
"""The name marimo gives its kernel worker (``{name: ...}``, without a custom controller)."""
ENVELOPE = "[transport-id]"
"""The key under which marimo's transport names itself in every message it posts."""
TRANSPORT = "marimo-transport"
"""The transport's name, in the page's and the worker's assets alike."""
# Texts of marimo's minified assets that the script relies on: the page script posts its
# messages under ENVELOPE; the worker listens on TRANSPORT and boots on its first `bootstrap`.
PAGE_TEXTS = (f"`{ENVELOPE}`", f"`{TRANSPORT}`", f"return`{WORKER_NAME}${{")
WORKER_TEXTS = (f"transportId:`{TRANSPORT}`", "addMessageListener(`bootstrap`")
KERNEL_SCRIPT = re.compile(r"new URL\(`(worker-[\w-]+\.js)`,import\.meta\.url\)")
"""How marimo's page script names its kernel worker's script (not the save worker's)."""


def kernel_script(assets: Path) -> str:
    """The file name of marimo's kernel worker in ``assets`` (a copy of marimo's frontend):
    the one ``worker-*.js`` the page script creates its worker from, in an asset that also
    holds every text of ``PAGE_TEXTS``, the worker's own holding ``WORKER_TEXTS``."""
    folder = assets / "assets"
    named = {
        (match.group(1), path.name)
        for path in sorted(folder.glob("*.js"))
        for match in KERNEL_SCRIPT.finditer(path.read_text(encoding="utf-8"))
    }
    if len(named) != 1:
        found = ", ".join(sorted(f"{script} in {page}" for script, page in named)) or "none"
        raise SystemExit(f"export: marimo's page script names no single kernel worker: {found}")
    ((script, page),) = named
    page_text = (folder / page).read_text(encoding="utf-8")
    worker = folder / script
    worker_text = worker.read_text(encoding="utf-8") if worker.is_file() else ""
    missing = [text for text in PAGE_TEXTS if text not in page_text]
    missing += [text for text in WORKER_TEXTS if text not in worker_text]
    if missing:
        raise SystemExit(
            f"export: marimo's kernel worker ({script}) is not started as this build knows: "
            f"{', '.join(missing)} not found"
        )
    return script


def with_early_start(
    page: str, name: str, kernel: str, mirror: dict[str, str], after: str = ""
) -> str:
    """``page`` (a marimo WebAssembly page) with the script first in its ``<head>``, after a
    preload of the worker's script.

    ``kernel`` is the worker's script, relative to the page; ``mirror`` the three addresses
    marimo reads from ``<marimo-wasm>`` (``pyodide-index-url``, ``pyodide-lockfile-url``,
    ``pypi-index-url``), as the page's element holds them. With ``after`` (a CSS selector of a
    frame), the worker is started once that frame has loaded, not at once."""
    if page.count("<head>") != 1:
        raise SystemExit(f"export: {name}: the WebAssembly page has no single <head>")
    notes = {
        "kernel": kernel,
        "name": WORKER_NAME,
        "envelope": ENVELOPE,
        "transport": TRANSPORT,
        "version": version("marimo"),
        **mirror,
        **({"after": after} if after else {}),
    }
    data = " ".join(f'data-{key}="{html.escape(text, quote=True)}"' for key, text in notes.items())
    script = (HERE / "early_start.js").read_text(encoding="utf-8")
    # The worker's script is asked for by the page's parser, first and at high priority: a
    # worker's own request for it comes last (Chromium's lowest priority), and over HTTP/1.1 it
    # waited behind marimo's 170-odd module preloads for some 1.3 s; the worker's request is
    # then answered from the cache.
    preload = f'<link rel="preload" href="{html.escape(kernel, quote=True)}" as="script">'
    return page.replace("<head>", f"<head>\n{preload}\n<script {data}>\n{script}</script>", 1)
