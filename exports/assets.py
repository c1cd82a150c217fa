"""The site's copy of marimo's frontend assets (``_marimo/``): the two changes made to it.

Each change replaces one exact text that must be in exactly one asset, once: a marimo release
that moves or rewrites it stops the build in one line instead of shipping an unpatched page.
"""

from __future__ import annotations

from pathlib import Path

# marimo's frontend gives up on a request to its Python worker after 20 s (`maxRequestTime:2e4`
# in the asset that starts the worker): on a slow machine Pyodide takes longer to connect, and
# every page logs an uncaught "RPC request timed out." although it goes live. The site's copy
# waits for as long as it takes; the preview says when it is late (preview.STOP_AFTER_S).
RPC_TIMEOUT = "maxRequestTime:2e4"
RPC_NO_TIMEOUT = "maxRequestTime:1/0"

# marimo's frontend swaps the page's icon while cells run (inline images) and back to its idle
# icon 3 s after they end: `./favicon.ico`, relative to the page, so every interactive page
# asked its own folder (lessons/NN_name/favicon.ico) and logged a 404. The site ships the icon
# once, in `_marimo/` beside the assets, where the page's `<link rel="icon">` already points:
# the idle icon is resolved against the asset's own URL (an ES module), whatever the page's
# depth.
IDLE_ICON = "idle:`./favicon.ico`"
SITE_ICON = "idle:new URL(`../favicon.ico`,import.meta.url).href"


def replace_once(assets: Path, old: str, new: str, what: str) -> None:
    """Replace ``old`` by ``new`` in the one asset of ``assets/assets/*.js`` that holds it.

    Exactly one asset must hold it, once; otherwise the build stops, naming ``what``."""
    holders = [
        p for p in sorted((assets / "assets").glob("*.js")) if old in p.read_text(encoding="utf-8")
    ]
    texts = [p.read_text(encoding="utf-8") for p in holders]
    if len(holders) != 1 or texts[0].count(old) != 1:
        names = ", ".join(p.name for p in holders) or "none"
        raise SystemExit(f"export: {what} ({old}) is not in one asset once: {names}")
    holders[0].write_text(texts[0].replace(old, new), encoding="utf-8")


def patch_rpc_timeout(assets: Path) -> None:
    """Lift marimo's 20 s limit on its worker's requests, in the site's copy of its assets."""
    replace_once(assets, RPC_TIMEOUT, RPC_NO_TIMEOUT, "marimo's worker timeout")


def patch_idle_icon(assets: Path) -> None:
    """Point marimo's idle icon at the one the site ships (``_marimo/favicon.ico``)."""
    if not (assets / "favicon.ico").is_file():
        raise SystemExit(f"export: {assets / 'favicon.ico'} is missing: marimo's idle icon")
    replace_once(assets, IDLE_ICON, SITE_ICON, "marimo's idle icon")
