"""Content shown on hover (WCAG 2.2, 1.4.13): a tooltip a page draws itself must be dismissible
without moving the pointer, and hoverable. vega-embed draws a chart's tooltips with
vega-tooltip, a box that follows the pointer and that Escape does not close; the lessons' charts
leave them to the browser instead (``asyncfail.charts.specs.BROWSER_TOOLTIPS``), which the
criterion exempts: hovering a mark sets its text as the chart's ``title``.

Checked on every kind of Vega chart the lessons draw, as `make serve` serves them: lesson 6's
risk curve and replay histogram, lesson 4's trace timeline, and lesson 2's runs against time
(in its "Against time" tab; lesson 5 draws the same kind). The pointer is swept over each chart
until it meets a mark, which must say what it is in the chart's title; lesson 6's WebAssembly
page is swept the same way in test_site.py. Before the change, a sweep of lesson 6's risk curve,
every 2% of it, showed vega-tooltip's box at 167 of its 2,401 places, and left no ``title``;
this test failed at the first.
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

MARK_SAYS = "Estimate: records kept "
"""How Vega's own handler writes a risk-curve point's tooltip (its field's title, a colon, its
text: ``asyncfail.charts.risk_builders``)."""
LESSON = "06_record_lifetime"
"""The lesson whose WebAssembly page test_site.py sweeps too (its first chart, ``hovered``'s
default)."""
CHARTS = {
    LESSON: (None, (MARK_SAYS, "Replays: ")),
    "04_explore_every_failure": (None, ("Step: ",)),
    "02_break_the_assumptions": ("Against time", ("Delivery: ", "Delivery: ")),
}
"""Per lesson: the tab that shows its charts (None: on the page), and what the first mark a
sweep meets in each of its Vega charts says first, in the page's order (each chart's field
titles: ``asyncfail.charts.builders`` and ``risk_builders``)."""
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


def hovered(page: Any, index: int = 0, says: str = MARK_SAYS) -> None:
    """The page's Vega chart ``index`` swept by the pointer, row by row, up to the row where it
    met a mark: no tooltip box was shown, the marks met said what they are in the chart's title,
    beginning with ``says`` (by default, as a risk-curve point does), and the title went once
    the pointer left."""
    chart = page.locator(".vega-embed").nth(index)
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
    assert all(title.startswith(says) for title in met), met
    page.mouse.move(0, 0)
    assert chart.evaluate(UNDER_POINTER)["titles"] == [], "the title stays once the pointer left"


@pytest.mark.parametrize("stem", list(CHARTS))
def test_a_charts_tooltip_is_the_browsers_and_no_box_follows_the_pointer(
    guarded_page: Any,
    server: Server,  # noqa: F811 (the imported fixture)
    stem: str,
) -> None:
    page, guard = guarded_page
    tab, says = CHARTS[stem]
    served(page, server.url, stem).click()
    settle(page)
    if tab is not None:
        page.get_by_role("tab", name=tab).first.click()
    charts = page.locator(".vega-embed")
    expect(charts.locator("canvas").nth(len(says) - 1)).to_be_visible(timeout=LOAD_MS)
    settle(page)
    assert charts.count() == len(says)
    for index, first in enumerate(says):
        hovered(page, index, first)
    assert guard.blocked == []
