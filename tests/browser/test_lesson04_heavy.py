"""Lesson 4 in the WebAssembly page: it asks before it shows the matrix (issue 23), and at its
heavy setting (issue 24), three faults per plan, ten times the plans, a progress bar counts the
rows while the controls stay on screen and usable, and a change made meanwhile wins once the run
ends."""

from __future__ import annotations

import time
from typing import Any

import pytest
from lessons import discover  # exports/, on the path in conftest
from playwright.sync_api import Page, expect

from tests.browser.test_site import BOOT_WAIT_S, shot, visible_text, wait_until_live

pytestmark = pytest.mark.browser

SLUG = "04_explore_every_failure"
PROGRESS = "Exploring every plan"
# The matrix's caption, as lesson04.MATRIX_CAPTION words it, for each scope over 3 deliveries.
EXPLORED = {2: "562 explored per row", 3: "6018 explored per row"}
HEAVY_WAIT_S = 300
# The first element of a tag whose title or label holds some words.
FIND = """(tag, words) => [...document.querySelectorAll(tag)].find(
    (el) => (el.dataset.title || el.dataset.label || "").includes(words))"""
# Installed before a change: three faults now take about a second in the page, so the bar may come
# and go between two polls of the test. The page itself notes, at each change of its document,
# whether the bar is there and, if it is, whether the two controls on screen before the change
# (the same elements: their cell never re-runs) are still in the page and laid out.
WATCH_RUN = (
    """(progress) => {
  const find = """
    + FIND
    + """;
  const controls = [
    find("marimo-slider", "Faults per plan"), find("marimo-number", "Delivery budget")];
  const state = { bars: 0, without: 0, controls: controls.filter(Boolean).length };
  window.__heavyRun = state;
  // marimo draws a control in its element's shadow root (the element itself has no box).
  const shown = (el) => el.isConnected
    && Boolean(el.shadowRoot.querySelector("[role=slider], input")?.checkVisibility());
  new MutationObserver(() => {
    if (!find("marimo-progress", progress)) return;
    state.bars += 1;
    if (!controls.every((el) => el && shown(el))) state.without += 1;
  }).observe(document.body, { subtree: true, childList: true, attributes: true });
}"""
)


def controls_visible(page: Page) -> bool:
    """Both of the matrix's controls are on screen."""
    slider = page.get_by_role("slider").first
    budget = visible_text(page, "Delivery budget")
    return slider.is_visible() and budget.is_visible()


def test_three_faults_keep_the_controls_on_screen_and_the_newest_value_wins(
    guarded_page: Any, site_url: str, screenshots: Any
) -> None:
    page, guard = guarded_page
    (lesson,) = [entry for entry in discover() if entry.slug == SLUG]
    page.goto(f"{site_url}{lesson.site_dir}/")
    try:
        wait_until_live(page)
        switch = page.get_by_role("switch").first
        expect(switch).to_be_visible(timeout=BOOT_WAIT_S * 1000)
        # Before the guess the live page asks, and shows nothing of the matrix.
        expect(visible_text(page, "Predict first.")).to_be_visible()
        before = page.locator("body").inner_text()
        for answer in ("✓ none", "explored per row", "Faults per plan", "The smallest is"):
            assert answer not in before, answer
        switch.click()
        expect(visible_text(page, EXPLORED[2])).to_be_visible(timeout=BOOT_WAIT_S * 1000)
        slider = page.get_by_role("slider").first
        slider.focus()
        page.evaluate(WATCH_RUN, PROGRESS)
        assert page.evaluate("window.__heavyRun.controls") == 2
        started = time.monotonic()
        slider.press("ArrowRight")  # 2 -> 3 faults per plan
        # While the rows are explored, the bar counts them and both controls stay.
        expect(visible_text(page, EXPLORED[3])).to_be_visible(timeout=HEAVY_WAIT_S * 1000)
        heavy_s = time.monotonic() - started
        run = page.evaluate("window.__heavyRun")
        assert run["bars"] >= 1, "no progress bar while the matrix computed"
        assert run["without"] == 0, "a control vanished while the matrix computed"
        assert controls_visible(page)
        # Changed mid-run: back to 3 faults from 2 while 3 are computing; the newest value wins.
        slider.press("ArrowLeft")
        expect(visible_text(page, EXPLORED[2])).to_be_visible(timeout=HEAVY_WAIT_S * 1000)
        page.evaluate(WATCH_RUN, PROGRESS)
        slider.press("ArrowRight")
        # The page's own watcher, not a poll: under the parallel suite's load a frame can come
        # late enough that the bar came and went between two polls (one run waited 60 s so).
        page.wait_for_function("() => window.__heavyRun.bars > 0", timeout=60_000)
        assert controls_visible(page)
        slider.press("ArrowLeft")  # while 3 faults run
        expect(visible_text(page, EXPLORED[2])).to_be_visible(timeout=HEAVY_WAIT_S * 1000)
        page.wait_for_timeout(1000)
        assert not visible_text(page, PROGRESS).is_visible()
        expect(visible_text(page, EXPLORED[2])).to_be_visible()
        assert page.evaluate("window.__heavyRun.without") == 0
        print(f"lesson 4, three faults in the WebAssembly page: {heavy_s:.1f} s")
    finally:
        shot(page, screenshots, "wasm-04-heavy")
    assert guard.blocked == []
