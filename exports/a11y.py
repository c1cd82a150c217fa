"""What every marimo page of the site gets for WCAG 2.2 AA, where marimo's export leaves it out.

axe-core (tests/browser/test_a11y.py) finds on marimo 0.25.2's exported pages, and this module
fixes in the page the build writes:

- no main landmark, so every cell is content outside landmarks (``landmark-one-main``,
  ``region``): marimo's ``<div id="root">`` becomes the page's main landmark;
- icon-only controls without a name: marimo's app menu button and its toasts' close button
  (``button-name``, critical), vega-embed's chart actions ``<summary>`` (``summary-name``):
  ``a11y/a11y.js``, first in the head, names them as they appear, in shadow roots too (the
  exported HTML does not hold them: marimo's React draws them); the same script makes the
  presenter view's slide container focusable (``scrollable-region-focusable``);
- radio groups and tab lists the keyboard could not move in (WCAG 2.1.1: Radix's roving focus
  fails in marimo's shadow roots, so the arrows did nothing and Tab stopped on the last item,
  showing a tab list's last tab): the same script enters a group at its current item and moves
  it with the arrows (``tests/browser/test_keyboard.py``);
- radio groups all named "Radio Group" (WCAG 4.1.2; axe cannot see it: the name exists, it is
  only wrong): marimo's label points its ``for`` at an id nothing has, so the same script names
  each group by that label (``aria-labelledby``), and a screen reader announces the question;
- number fields named as HTML or generically (WCAG 4.1.2): marimo writes a labelled field's
  name as its label's HTML ("<span class=...>Delivery budget...") and names an unlabelled one
  "Number input", as every lesson's guess is; the same script names the first by its label's
  text and a guess's field by the words before it in the prompt ("Naive runtime");
- tab lists with no name (WCAG 4.1.2, 1.3.1): a screen reader said "tab list" and nothing of
  which; the same script names each by the heading just before it in its cell's output
  ("The traces");
- "made with marimo" below 4.5:1 contrast (``color-contrast``), focus not always visible, motion
  regardless of ``prefers-reduced-motion``: ``a11y/a11y.css``;
- pages that scrolled sideways at 320 CSS px (WCAG 1.4.10, reflow; axe does not check it):
  marimo's rows of outputs kept their columns side by side, a dropdown was as wide as its
  longest choice and a chart wider than the window widened the page; ``a11y/reflow.css``, on a
  narrow window, wraps the rows, fits the dropdown and scrolls the chart in its own box
  (``tests/browser/test_reflow.py``);
- states that vanished in a contrast theme (forced colours, which paint every background in the
  theme's colour): marimo draws a switch's thumb, a slider's track and the chosen tab with
  backgrounds alone; ``a11y/a11y.css`` draws them in the theme's own colours
  (``tests/browser/test_forced_colours.py``; the library paints its drawings on their own
  ground).

The style goes in every shadow root too (the naming script adopts it), so the focus ring, the
reduced motion, the reflow and the contrast theme's states reach marimo's controls and the
outputs it draws in them.

What stays upstream (reported to marimo and vega-embed, not patched here): the elements
themselves; this names them after marimo draws them. The lessons' own headings and texts are
the notebooks'. The names are words of the site (``asyncfail.course.site``).

The course server (``make serve``, ``course_server.py``) answers marimo's pages itself: its
``AccessiblePages`` middleware gives each the same fixes as it leaves the server.
"""

from __future__ import annotations

import html
from collections.abc import Awaitable, Callable, MutableMapping
from pathlib import Path
from typing import Any

from asyncfail.course import site

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]

HERE = Path(__file__).resolve().parent / "a11y"
ROOT_TAG = '<div id="root">'
REFLOW = HERE / "reflow.css"
"""Reflow at 320 CSS px (WCAG 1.4.10): the rules every marimo page and every snapshot
(``document.py``) carry."""
STYLES = ("a11y.css", REFLOW.name)
"""The page's style, in order: one ``<style>``, which the naming script also gives every shadow
root (marimo draws its controls and some outputs in them)."""


def head_additions() -> str:
    """The style and the naming script, for the top of a page's ``<head>``."""
    style = "".join((HERE / name).read_text(encoding="utf-8") for name in STYLES)
    script = (HERE / "a11y.js").read_text(encoding="utf-8")
    words = {
        "chart-actions": site.CHART_ACTIONS_NAME,
        "menu": site.MENU_BUTTON_NAME,
        "close": site.CLOSE_BUTTON_NAME,
        "button": site.OTHER_BUTTON_NAME,
    }
    data = " ".join(
        f'data-{key}="{html.escape(value, quote=True)}"' for key, value in words.items()
    )
    return f"<style>\n{style}</style>\n<script {data}>\n{script}</script>\n"


def accessible(page: str, name: str) -> str:
    """``page`` (a marimo page) with its root as the main landmark and the head additions."""
    for tag in ("<head>", ROOT_TAG):
        if page.count(tag) != 1:
            raise SystemExit(f"export: {name}: the marimo page has no single {tag}")
    page = page.replace(ROOT_TAG, '<div id="root" role="main">')
    return page.replace("<head>", f"<head>\n{head_additions()}", 1)


class AccessiblePages:
    """An ASGI middleware for the course server (``make serve``): every marimo page it answers
    (HTML holding marimo's ``<div id="root">``) gets what ``accessible`` gives the built site's
    pages, so a served lesson and a published one carry the same fixes. Other responses (the
    home, which is the site's own HTML, marimo's assets, the API, websockets, a HEAD request)
    pass untouched; a changed page loses its ``etag`` (it no longer names these bytes)."""

    def __init__(self, app: App) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope.get("method") != "GET":
            await self.app(scope, receive, send)
            return
        start: Message | None = None
        body: list[bytes] = []

        async def collect(message: Message) -> None:
            nonlocal start
            if message["type"] == "http.response.start":
                headers = dict(message.get("headers") or [])
                if not headers.get(b"content-type", b"").startswith(b"text/html") or (
                    b"content-encoding" in headers
                ):
                    await send(message)
                    return
                start = message
                return
            if start is None or message["type"] != "http.response.body":
                await send(message)
                return
            body.append(message.get("body", b""))
            if message.get("more_body", False):
                return
            page = b"".join(body)
            text = page.decode("utf-8", errors="replace")
            if text.count(ROOT_TAG) == 1 and text.count("<head>") == 1:
                page = accessible(text, scope["path"]).encode("utf-8")
                drop = {b"content-length", b"etag"}
                kept = [(k, v) for k, v in start.get("headers") or [] if k.lower() not in drop]
                start = {**start, "headers": [*kept, (b"content-length", b"%d" % len(page))]}
            await send(start)
            await send({"type": "http.response.body", "body": page})

        await self.app(scope, receive, collect)
