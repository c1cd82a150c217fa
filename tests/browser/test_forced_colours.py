"""Contrast themes (Windows' high contrast, "forced colours" to a browser): the reader's theme
paints the page in its few colours, backgrounds included, and what a page drew with its own
colours alone can vanish. WCAG 2.2 AA still holds there (text 4.5:1, 1.4.3; a control's state
seen, 1.4.11; colour never the only carrier, 1.4.1). In Chromium's emulation of a dark theme:

- every drawing's text reads at 4.5:1 or more against the drawing as painted: the library
  paints each on its own ground (``asyncfail.charts.look.GROUND``). Without it, lesson 1's
  sequence views drew their text near black on the theme's black (1.3:1). Every snapshot, and
  lesson 1 as `make serve` serves it;
- a control's state shows without its colours: a switch on and off, and a chosen tab, differ in
  shape (``pixels.shape``), and a slider's track is drawn along its length. marimo draws them
  with backgrounds, which the theme repaints; ``exports/a11y/a11y.css`` draws them in the
  theme's own colours. Lessons 1 (a switch, a slider) and 2 (tabs) as `make serve` serves them,
  in the dark theme and then in a light one (``LIGHT_THEME``: without the style, there too the
  switch changed by 26 pixels, the slider drew 5 of its 129 columns and the tabs none; with it,
  93 pixels, every column, 7,470 pixels); the built pages carry the same style: lesson 1's
  WebAssembly page, and every lesson's drawings there, are checked in test_site.py.

Each check is itself checked on pages written by hand.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from asyncfail import Fault, Scenario, simulate
from asyncfail.charts.look import GROUND
from asyncfail.charts.sequence_drawing import sequence_drawing
from tests.browser.keys import settle
from tests.browser.pixels import decode, ground, shape
from tests.browser.test_course_server import Server, server  # noqa: F401 (the fixture)
from tests.browser.test_lessons import LOAD_MS
from tests.browser.test_reflow import LESSONS, WIDE, opened, window
from tests.contrast import contrast, parse_colour

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "exports"))

from a11y import HERE
from lessons import Lesson

pytestmark = pytest.mark.browser

DARK_THEME = {"forced_colors": "active", "color_scheme": "dark", "reduced_motion": "reduce"}
"""A dark contrast theme, as Chromium emulates one; motion off, so a control is seen at rest."""
LIGHT_THEME = DARK_THEME | {"color_scheme": "light"}
"""A light one: dark text on a light ground, like Windows' "Desert"."""
DRAWINGS = "svg.sequence-view, svg.heatmap-view"
"""The library's drawings (``asyncfail.charts.drawing.svg_root``)."""
TEXT_FILLS = """(svg) => [...svg.querySelectorAll("text")]
  .filter((t) => t.textContent.trim() && !t.closest("[opacity]"))
  .map((t) => [t.textContent.trim(), getComputedStyle(t).fill])"""
"""A drawing's texts and the colour each is painted in, but a row faded on purpose (one still
to come while a lesson steps through a run)."""
NOT_FOCUSED = """() => {
  let active = document.activeElement;
  while (active && active.shadowRoot && active.shadowRoot.activeElement)
    active = active.shadowRoot.activeElement;
  if (active && active.blur) active.blur();
}"""
MOVED = 50
"""Pixels that must change place between two states for them to differ in shape. Measured in
the theme: a switch drawn in backgrounds alone, whose outline only changes colour, 14 (the
written one) and 26 (lesson 1's, anti-aliasing the outline's two colours); with the site's
style, whose thumb moves, 854 (the written one)."""


def faint_drawn_text(page: Any) -> list[str]:
    """Each shown drawing's text under 4.5:1 against the drawing's ground as painted (the
    colour most of its screenshot is): ``'debit request' 1.3:1 on (0, 0, 0)``."""
    found = []
    drawings = page.locator(DRAWINGS).filter(visible=True)
    for index in range(drawings.count()):
        drawing = drawings.nth(index)
        drawing.scroll_into_view_if_needed()
        base = ground(decode(drawing.screenshot(animations="disabled")))
        for words, fill in drawing.evaluate(TEXT_FILLS):
            ratio = contrast(parse_colour(fill), base)
            if ratio < 4.5:
                found.append(f"{words!r} {ratio:.1f}:1 on {base}")
    return found


def looks(page: Any, locator: Any) -> frozenset[tuple[int, int]]:
    """The shape of what ``locator`` shows, at rest: no pointer over it, no focus in it."""
    page.mouse.move(0, 0)
    page.evaluate(NOT_FOCUSED)
    locator.scroll_into_view_if_needed()
    page.wait_for_timeout(200)
    return shape(decode(locator.screenshot(animations="disabled")))


@contextmanager
def dark_theme(browser: Any, body: str, style: str = "") -> Iterator[Any]:
    """A page of ``body`` (and ``style``) in the dark contrast theme."""
    with window(browser, WIDE) as page:
        page.emulate_media(**DARK_THEME)
        page.set_content(
            f"<!DOCTYPE html><html><head><style>{style}</style></head>"
            f'<body style="margin: 1rem">{body}</body></html>'
        )
        yield page


DRAWING = sequence_drawing(simulate(Scenario(fault=Fault.CRASH_AFTER_EFFECT))).svg
GROUNDLESS = DRAWING.replace('<rect width="', '<rect data-was-ground="', 1)
"""The same drawing without its ground (the rect, unsized, is not drawn)."""
# A switch as marimo draws one (Radix): the track and the thumb are backgrounds alone.
SWITCH = (
    '<div style="padding: 6px; display: inline-block"><button role="switch" aria-checked="{on}" '
    'style="display: inline-flex; width: 44px; height: 24px; border: 2px solid transparent; '
    'border-radius: 12px; background: {track}; padding: 0"><span style="display: block; '
    "width: 20px; height: 20px; border-radius: 10px; background: #ffffff; "
    'transform: translateX({at}px)"></span></button></div>'
)
SWITCH_OFF = SWITCH.format(on="false", track="#e2e8f0", at=0)
SWITCH_ON = SWITCH.format(on="true", track="#0f172a", at=20)


def test_the_library_drawing_reads_in_a_dark_theme_and_without_its_ground_does_not(
    browser: Any,
) -> None:
    assert GROUNDLESS != DRAWING and f'fill="{GROUND}"' in DRAWING
    with dark_theme(browser, DRAWING) as page:
        assert faint_drawn_text(page) == []
    with dark_theme(browser, GROUNDLESS) as page:
        faint = faint_drawn_text(page)
        assert faint and all(line.endswith("on (0, 0, 0)") for line in faint), faint


def test_a_switch_drawn_in_backgrounds_alone_looks_the_same_on_and_off_in_the_theme(
    browser: Any,
) -> None:
    with dark_theme(browser, SWITCH_OFF) as page:
        off = looks(page, page.locator("div").first)
    with dark_theme(browser, SWITCH_ON) as page:
        on = looks(page, page.locator("div").first)
    assert len(off ^ on) < MOVED, "the check would see a difference the reader cannot"
    assert off, "the switch's outline is drawn"


def test_the_sites_style_shows_a_switchs_state_by_its_thumb_in_the_theme(browser: Any) -> None:
    style = (HERE / "a11y.css").read_text(encoding="utf-8")
    with dark_theme(browser, SWITCH_OFF, style) as page:
        off = looks(page, page.locator("div").first)
    with dark_theme(browser, SWITCH_ON, style) as page:
        on = looks(page, page.locator("div").first)
    assert len(off ^ on) >= MOVED


@pytest.mark.parametrize("lesson", LESSONS, ids=[lesson.slug for lesson in LESSONS])
def test_every_snapshots_drawings_read_in_a_dark_theme(
    browser: Any, site_url: str, lesson: Any
) -> None:
    with opened(browser, f"{site_url}{lesson.site_dir}/static.html", WIDE, **DARK_THEME) as page:
        assert faint_drawn_text(page) == []


def served(page: Any, url: str, stem: str) -> Any:
    """Lesson ``stem`` as `make serve` at ``url`` serves it, its cells run: its "Skip
    predicting" switch."""
    page.goto(f"{url}lessons/{stem}/")
    switch = page.get_by_role("switch", name="Skip predicting").first
    expect(switch).to_be_visible(timeout=LOAD_MS)
    settle(page)
    return switch


def served_in_dark_theme(page: Any, url: str, lesson: Lesson) -> Any:
    """``served``, then in the dark theme."""
    switch = served(page, url, lesson.path.stem)
    page.emulate_media(**DARK_THEME)
    return switch


def switched(page: Any, switch: Any) -> None:
    """``switch`` clicked, and the cells it reruns run."""
    switch.click()
    settle(page)


def slider_drawn(page: Any) -> None:
    """The step slider, at its last step: its track runs the whole length, not only its
    thumb."""
    slider = page.get_by_role("slider").first.locator("xpath=../..")
    drawn = looks(page, slider)
    width = int(slider.bounding_box()["width"])
    columns = {x for x, _y in drawn}
    assert len(columns) >= 0.9 * width, f"{len(columns)} of {width} columns drawn"


def test_lesson_1_served_shows_its_switch_slider_and_drawings_in_a_dark_and_a_light_theme(
    guarded_page: Any,
    server: Server,  # noqa: F811 (the imported fixture)
) -> None:
    page, guard = guarded_page
    switch = served_in_dark_theme(page, server.url, LESSONS[0])
    row = switch.locator("xpath=..")
    off = looks(page, row)
    switched(page, switch)
    on = looks(page, row)
    assert len(off ^ on) >= MOVED, "the switch looks the same on and off"
    assert faint_drawn_text(page) == []
    slider_drawn(page)
    # The light theme, from where the page is now: the switch on, then off.
    page.emulate_media(**LIGHT_THEME)
    assert faint_drawn_text(page) == []
    slider_drawn(page)
    on = looks(page, row)
    switched(page, switch)
    assert len(looks(page, row) ^ on) >= MOVED, "the switch looks the same on and off (light)"
    assert guard.blocked == []


def test_lesson_2_served_shows_the_chosen_tab_in_a_dark_and_a_light_theme(
    guarded_page: Any,
    server: Server,  # noqa: F811 (the imported fixture)
) -> None:
    page, guard = guarded_page
    switched(page, served_in_dark_theme(page, server.url, LESSONS[1]))
    tabs = page.get_by_role("tablist").first
    for theme, other in ((DARK_THEME, 1), (LIGHT_THEME, 0)):
        page.emulate_media(**theme)
        first = looks(page, tabs)
        tabs.get_by_role("tab").nth(other).click()
        settle(page)
        second = looks(page, tabs)
        assert len(first ^ second) >= MOVED, f"the chosen tab looks like the others ({theme})"
    assert guard.blocked == []
