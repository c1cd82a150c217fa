"""The site's copy of marimo's frontend assets (``_marimo/``): the one change made to it."""

from __future__ import annotations

from pathlib import Path

# marimo's frontend gives up on a request to its Python worker after 20 s (`maxRequestTime:2e4`
# in the asset that starts the worker): on a slow machine Pyodide takes longer to connect, and
# every page logs an uncaught "RPC request timed out." although it goes live. The site's copy
# waits for as long as it takes; the preview says when it is late (preview.STOP_AFTER_S).
RPC_TIMEOUT = "maxRequestTime:2e4"
RPC_NO_TIMEOUT = "maxRequestTime:1/0"


def patch_rpc_timeout(assets: Path) -> None:
    """Lift marimo's 20 s limit on its worker's requests, in the site's copy of its assets.

    Exactly one asset must hold it once (a marimo release that moves it stops the build)."""
    holders = [
        p
        for p in sorted((assets / "assets").glob("*.js"))
        if RPC_TIMEOUT in p.read_text(encoding="utf-8")
    ]
    texts = [p.read_text(encoding="utf-8") for p in holders]
    if len(holders) != 1 or texts[0].count(RPC_TIMEOUT) != 1:
        names = ", ".join(p.name for p in holders) or "none"
        raise SystemExit(
            f"export: marimo's worker timeout ({RPC_TIMEOUT}) is not in one asset once: {names}"
        )
    holders[0].write_text(texts[0].replace(RPC_TIMEOUT, RPC_NO_TIMEOUT), encoding="utf-8")
