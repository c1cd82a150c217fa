"""Content shown on hover (WCAG 2.2, 1.4.13): a tooltip a page draws itself must be dismissible
without moving the pointer, and hoverable. vega-embed draws a chart's tooltips with
vega-tooltip, a box that follows the pointer and that Escape does not close; the lessons' charts
leave them to the browser instead (``asyncfail.charts.specs.BROWSER_TOOLTIPS``), which the
criterion exempts: hovering a mark sets its text as the chart's ``title``.

Checked on lesson 6 as `make serve` serves it (its risk curve's points say "Estimate: ..."):
the pointer is swept over the chart until it meets a mark; its WebAssembly page is swept the
same way in test_site.py. Before the change, a sweep of the whole chart, every 2% of it, showed
vega-tooltip's box at 167 of its 2,401 places, and left no ``title``; this test failed at the
first.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.keys import settle
from tests.browser.test_course_server import Server, server  # noqa: F401 (the fixture)
from tests.browser.test_forced_colours import served
from tests.browser.test_lessons import LOAD_MS
from tests.browser.test_reflow import FLAT

pytestmark = pytest.mark.browser

LESSON = "06_record_lifetime"
MARK_SAYS = "Estimate: records kept "
"""How Vega's own handler writes a risk-curve point's tooltip (its field's title, a colon, its
text: ``asyncfail.charts.risk_builders``)."""
STEPS = 30
"""Places per row and per column of the sweep: one every 3.3% of the chart."""
UNDER_POINTER = (
    """(chart) => {
"""
    + FLAT
    + """
  const boxes = flat(document).filter((node) => node.classList.contains("vg-tooltip"));
  const shown = boxes.filter((box) => getComputedStyle(box).visibility !== "hidden"
    && box.classList.contains("visible"));
  const titled = [chart, ...chart.querySelectorAll("*")]
    .map((node) => node.getAttribute("title") || "")
    .filter((title) => title && !title.startsWith("Click to view"));
  return {boxes: shown.map((box) => box.innerText), titles: titled};
}"""
)
"""What the page shows for the mark under the pointer: vega-tooltip's boxes shown, and the
titles in the chart (but its actions menu's own)."""


def hovered(page: Any) -> None:
    """The page's first Vega chart swept by the pointer, row by row, up to the row where it met
    a mark: no tooltip box was shown, the marks met said what they are in the chart's title, as
    a risk-curve point does, and the title went once the pointer left."""
    chart = page.locator(".vega-embed").first
    chart.scroll_into_view_if_needed()
    box = chart.locator("canvas").bounding_box()
    assert box is not None
    met: list[str] = []
    for row in range(1, STEPS):
        for column in range(1, STEPS):
            page.mouse.move(
                box["x"] + box["width"] * column / STEPS, box["y"] + box["height"] * row / STEPS
            )
            shown = chart.evaluate(UNDER_POINTER)
            assert shown["boxes"] == [], f"a tooltip box follows the pointer: {shown['boxes']}"
            met.extend(shown["titles"])
        if met:
            break
    assert met, "no mark of the chart said what it is on hover"
    assert all(title.startswith(MARK_SAYS) for title in met), met
    page.mouse.move(0, 0)
    assert chart.evaluate(UNDER_POINTER)["titles"] == [], "the title stays once the pointer left"


def test_a_charts_tooltip_is_the_browsers_and_no_box_follows_the_pointer(
    guarded_page: Any,
    server: Server,  # noqa: F811 (the imported fixture)
) -> None:
    page, guard = guarded_page
    served(page, server.url, LESSON).click()
    expect(page.locator(".vega-embed canvas").first).to_be_visible(timeout=LOAD_MS)
    settle(page)
    hovered(page)
    assert guard.blocked == []
