"""The course server's ``AccessiblePages`` (exports/a11y.py): a marimo page it answers leaves
with the built pages' accessibility fixes; everything else leaves as the app wrote it."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "exports"))

from a11y import ROOT_TAG, AccessiblePages, accessible  # noqa: E402

from tests.serve.apart import run_apart  # noqa: E402

MARIMO_PAGE = f"<html><head><title>x</title></head><body>{ROOT_TAG}</div></body></html>"


def answer(body: bytes, content_type: bytes, method: str = "GET", chunks: int = 1) -> Any:
    """What AccessiblePages sends for an app answering ``body`` (in ``chunks`` parts)."""

    async def app(scope: Any, receive: Any, send: Any) -> None:
        headers = [(b"content-type", content_type), (b"etag", b'"abc"'),
                   (b"content-length", str(len(body)).encode())]  # fmt: skip
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        size = -(-len(body) // chunks)
        parts = [body[i : i + size] for i in range(0, len(body), size)] or [b""]
        for i, part in enumerate(parts):
            await send({"type": "http.response.body", "body": part,
                        "more_body": i < len(parts) - 1})  # fmt: skip

    sent: list[dict[str, Any]] = []

    async def send(message: Any) -> None:
        sent.append(dict(message))

    async def receive() -> Any:
        return {"type": "http.request"}

    scope = {"type": "http", "method": method, "path": "/lessons/x/"}
    run_apart(AccessiblePages(app)(scope, receive, send))
    start = sent[0]
    body_out = b"".join(m.get("body", b"") for m in sent[1:])
    return dict(start["headers"]), [k for k, _v in start["headers"]], body_out


def test_a_marimo_page_gets_the_built_pages_fixes_and_a_true_length() -> None:
    headers, names, body = answer(MARIMO_PAGE.encode(), b"text/html; charset=utf-8", chunks=3)
    assert body == accessible(MARIMO_PAGE, "x").encode()
    assert b'<div id="root" role="main">' in body
    assert headers[b"content-length"] == str(len(body)).encode()
    assert names.count(b"content-length") == 1
    assert b"etag" not in headers  # it named the bytes marimo wrote, not these


def test_everything_else_leaves_as_written() -> None:
    for body, kind, method in [
        (b"<html><head></head><body><main>home</main></body></html>", b"text/html", "GET"),
        (b"console.log(1)", b"text/javascript", "GET"),
        (MARIMO_PAGE.encode(), b"text/html", "HEAD"),
    ]:
        headers, _names, out = answer(body, kind, method)
        assert out == body and headers[b"etag"] == b'"abc"', (kind, method)
