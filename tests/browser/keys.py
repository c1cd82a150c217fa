"""The keyboard in the browser tests: where the focus is and whether it is drawn, Tab until a
control is reached, a radio chosen with the arrows, and waiting for a page to settle.

Shared by test_a11y.py, test_keyboard.py and test_site.py (test_lessons.py keeps its own
``settle``, which reads hidden text too).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

FOCUS_DRAWN = """
  let el = document.activeElement;
  while (el && el.shadowRoot && el.shadowRoot.activeElement) el = el.shadowRoot.activeElement;
  if (!el || el === document.body) return null;
  const s = getComputedStyle(el);
  const drawn = (s.outlineStyle !== "none" && parseFloat(s.outlineWidth) > 0)
    || (s.boxShadow && s.boxShadow !== "none");
"""
"""The start of a script's body: ``el``, the element with the keyboard's focus (inside shadow
roots too; the script returns null when the page itself has it), and ``drawn``, whether a
focus indicator is drawn on it (an outline or a ring, WCAG 2.4.7)."""

FOCUSED = (
    "() => {"
    + FOCUS_DRAWN
    + """
  // Not entirely hidden (WCAG 2.4.11): a point of the middle line of its part inside the
  // window where nothing else is drawn over it (a wide table cell scrolled into view shows its
  // start; a button at the window's edge shows a strip).
  const r = el.getBoundingClientRect();
  const left = Math.max(r.left, 0), right = Math.min(r.right, innerWidth);
  const y = (Math.max(r.top, 0) + Math.min(r.bottom, innerHeight)) / 2;
  const shown = right > left && Math.min(r.bottom, innerHeight) > Math.max(r.top, 0)
    && [0.05, 0.25, 0.5, 0.75, 0.95].some((at) => {
      const hit = el.getRootNode().elementFromPoint(left + at * (right - left), y);
      return Boolean(hit && (hit === el || el.contains(hit) || hit.contains(el)));
    });
  return { tag: el.tagName, role: el.getAttribute("role") || "", type: el.type || "",
           value: (typeof el.value === "string" ? el.value : el.getAttribute("value")) || "",
           text: (el.innerText || "").trim(),
           label: el.getAttribute("aria-label") || "",
           checked: el.getAttribute("aria-checked") || el.getAttribute("aria-selected") || "",
           expanded: el.getAttribute("aria-expanded") || "",
           popup: el.getAttribute("aria-haspopup") || "", drawn: Boolean(drawn), shown };
}"""
)
"""The element that has the keyboard's focus (inside shadow roots too): what it is (tag, role,
type), its value (a box's as typed), text and name, whether it is checked (a tab: selected),
expanded (a fold) or opens a popup, and whether a focus indicator is drawn (an outline or a
ring, WCAG 2.4.7); ``None`` when the page itself has it."""

GROUP = """() => {
  let el = document.activeElement;
  while (el && el.shadowRoot && el.shadowRoot.activeElement) el = el.shadowRoot.activeElement;
  const group = el && el.closest && el.closest('[role="radiogroup"]');
  return group
    ? [...group.querySelectorAll('[role="radio"]')].map((r) => r.getAttribute("value") || "")
    : [];
}"""
"""The values of the radios in the focused radio's group, in order (empty off a group)."""

MAX_TABS = 400
"""Presses before a control counts as unreachable: a lesson has well under 100 tab stops, and
the search may go round the page more than once."""

SCROLL_POLLS = 30
"""How many times (every 100 ms) Tab waits for a focused element out of sight to come into it:
a container that scrolls smoothly brings it there over a few hundred milliseconds, and over
more than one second while every core runs another browser (seen once in lesson 1's walk with
the whole browser suite on two workers; alone, it passed every time)."""

SETTLE_WITHIN_S = 120.0
"""How long a page may keep changing: a served lesson runs its cells on a busy two-core
machine."""

Focused = dict[str, Any]


def focused(page: Any) -> Focused | None:
    """What has the focus now (``FOCUSED``)."""
    found = page.evaluate(FOCUSED)
    return dict(found) if found else None


def focus_settles(page: Any, wanted: Callable[[Focused], bool], within_s: float = 10.0) -> Focused:
    """What has the focus once it is ``wanted``: a popup moves the focus a moment after the key
    that opens or closes it. Fails with where the focus is after ``within_s``."""
    deadline = time.monotonic() + within_s
    while True:
        now = focused(page)
        if now is not None and wanted(now):
            return now
        if time.monotonic() > deadline:
            raise AssertionError(f"the focus is on {now} after {within_s} s")
        page.wait_for_timeout(100)


def tab_to(
    page: Any, wanted: Callable[[Focused], bool], seen: list[Focused], key: str = "Tab"
) -> Focused:
    """Press Tab (or ``key``) until the focused element is ``wanted`` (a predicate); every
    element reached on the way goes to ``seen``."""
    for _ in range(MAX_TABS):
        page.keyboard.press(key)
        now = focused(page)
        for _wait in range(SCROLL_POLLS):  # a smooth scroll brings it into view
            if not now or now["shown"]:
                break
            page.wait_for_timeout(100)
            now = focused(page)
        if now:
            seen.append(now)
            if wanted(now):
                return now
    raise AssertionError(f"not reached by {key} in {MAX_TABS} presses; reached: {seen[-8:]}")


def tab_to_radio_of(page: Any, option: str, seen: list[Focused]) -> Focused:
    """Tab to the radio group that offers ``option``, then move to it with ArrowDown (which
    checks it, as a radio group does): the radio, focused and checked."""
    tab_to(page, lambda f: f["role"] == "radio" and option in page.evaluate(GROUP), seen)
    count = len(page.evaluate(GROUP))
    for _ in range(count):
        now = focused(page)
        assert now is not None, "the focus left the radio group"
        seen.append(now)
        if now["value"] == option:
            page.keyboard.press("Space")  # checks it if no arrow did (the first option)
            return now
        page.keyboard.press("ArrowDown")
    raise AssertionError(f"ArrowDown did not reach {option!r} in its group; at {seen[-3:]}")


LAYOUT = """() => [Math.max(...[...document.querySelectorAll("*")].map((e) => e.scrollHeight)),
  document.querySelectorAll(
    ".vega-embed svg, .vega-embed canvas, svg.sequence-view, svg.heatmap-view").length,
  ...[...document.querySelectorAll(".vega-embed")].map((e) => e.getBoundingClientRect().height)]
  .join(",")"""
"""The page's layout in a few numbers: the height of what scrolls (marimo scrolls a box inside
the window; a fold grows to its height over a transition), how many charts are drawn and how
tall each is (a chart draws after its cell's text is there, and pushes what follows down)."""


def settle(page: Any, quiet_s: float = 2.0, within_s: float = SETTLE_WITHIN_S) -> None:
    """Wait until the page's visible text and its layout (``LAYOUT``) have not changed for
    ``quiet_s`` (its cells have run, its charts are drawn); fail if they still change after
    ``within_s``."""
    deadline = time.monotonic() + within_s
    last, since = "", time.monotonic()
    while time.monotonic() < deadline:
        text = page.locator("body").inner_text() + "\n" + str(page.evaluate(LAYOUT))
        if text != last:
            last, since = text, time.monotonic()
        elif time.monotonic() - since >= quiet_s:
            return
        page.wait_for_timeout(250)
    raise AssertionError(f"{page.url} still changing after {within_s} s")
