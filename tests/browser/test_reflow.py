"""Reflow (WCAG 1.4.10, AA; axe does not check it): at 320 CSS px, a phone or a 1280 px window
zoomed to 400%, every page the site and `make serve` publish reads down, never sideways as well.
The page itself never scrolls sideways; a box inside it may, only for what needs two dimensions
(a table, a code block, a chart), which the criterion exempts. And text spacing (WCAG 1.4.12,
AA): with a reader's style spacing lines, letters, words and paragraphs as the criterion sets
them, no text is cut off (``clipped_when_spaced``).

``sideways`` is the check, itself checked here on pages written by hand; the site's rules are
``exports/a11y/reflow.css``. Here: the course home and every snapshot (both checks), and the
rules on a row as marimo writes one; every served lesson is checked at the end of its keyboard
walk (test_keyboard.py), with its answer revealed, then at 320 px with each fold open; the
presenter view, built and served, fills a narrow window with its slide. Wider than 40rem the
rules do not apply: lesson 1's snapshot keeps its runtimes side by side at 1280 px, and the
presenter view's slides stay 16:9.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "exports"))

from a11y import REFLOW  # noqa: E402
from lessons import Lesson, discover  # noqa: E402

from tests.browser.test_course_server import Server, server  # noqa: E402, F401 (a fixture)
from tests.browser.test_lessons import LOAD_MS  # noqa: E402

pytestmark = pytest.mark.browser

NARROW = {"width": 320, "height": 640}
"""WCAG 1.4.10's width: 320 CSS px."""
WIDE = {"width": 1280, "height": 900}
TWO_DIMENSIONAL = "table, pre, svg, canvas"
"""What may scroll sideways in its own box: tables, code blocks and charts (inline SVG, or a
canvas vega-embed draws)."""

FLAT = """  // Every element, shadow roots included (marimo draws controls and outputs in them).
  const flat = (root) =>
    [...root.querySelectorAll("*")].flatMap((el) =>
      el.shadowRoot ? [el, ...flat(el.shadowRoot)] : [el]);"""
"""What both checks begin with: ``flat(root)``, every element under ``root``, shadow roots
included."""

SIDEWAYS = (
    """(twoD) => {
"""
    + FLAT
    + """
  const name = (el) =>
    el.tagName.toLowerCase() + (el.id ? "#" + el.id : "") +
    (typeof el.className === "string" && el.className.trim()
      ? "." + el.className.trim().split(/\\s+/).slice(0, 2).join(".") : "");
  const wider = (el) => el.scrollWidth > el.clientWidth + 1;
  // The page's own scrollers: the document, and the box marimo scrolls its app in.
  const pages = [document.scrollingElement, document.getElementById("App")].filter(Boolean);
  const found = pages.filter(wider)
    .map((el) => `${name(el)}: ${el.scrollWidth} px in ${el.clientWidth}`);
  for (const box of flat(document)) {
    const overflow = getComputedStyle(box).overflowX;
    if (pages.includes(box) || !wider(box) || !["auto", "scroll"].includes(overflow)) continue;
    if (box.matches(twoD)) continue;
    // How far right the box's tables, code blocks and charts reach, in its scrolled content:
    // what scrolls sideways must be theirs (text wider than the box is not).
    const left = box.getBoundingClientRect().left + box.clientLeft - box.scrollLeft;
    const reach = Math.max(0, ...flat(box).filter((el) => el.matches(twoD)).map((el) => {
      const rect = el.getBoundingClientRect();
      return rect.left - left + Math.max(rect.width, el.scrollWidth || 0);
    }));
    if (box.scrollWidth > reach + 1) {
      found.push(`${name(box)}: ${box.scrollWidth} px in ${box.clientWidth}, ` +
        `its tables, code and charts ${Math.round(reach)}`);
    }
  }
  return found;
}"""
)


def sideways_boxes(page: Any) -> list[str]:
    """What ``sideways`` finds, each by its box alone (``html``, ``div``, ...)."""
    return [found.split(":")[0] for found in sideways(page)]


def sideways(page: Any) -> list[str]:
    """What scrolls sideways on ``page`` that should not: the page itself (the document, and
    marimo's app box), or a box whose overflowing content is not a table, a code block or a chart
    (nor holds one). Empty when the page reflows."""
    return list(page.evaluate(SIDEWAYS, TWO_DIMENSIONAL))


TEXT_SPACING = (
    "* { line-height: 1.5 !important; letter-spacing: 0.12em !important; "
    "word-spacing: 0.16em !important; } p { margin-bottom: 2em !important; }"
)
"""WCAG 1.4.12's spacing (AA): a reader's style may set it on every element, and no content may
be lost."""
CUT_WHEN_SPACED = (
    """async (css) => {
"""
    + FLAT
    + """
  const roots = (root) => [root, ...[...root.querySelectorAll("*")]
    .flatMap((el) => (el.shadowRoot ? roots(el.shadowRoot) : []))];
  // An element whose own text its box cuts off: the box hides what overflows it, or ends it
  // with an ellipsis. A 1 px box is hidden on purpose (a heading only a screen reader reads).
  const cut = () => flat(document).filter((el) => {
    const rect = el.getBoundingClientRect();
    const own = [...el.childNodes]
      .some((n) => n.nodeType === Node.TEXT_NODE && n.textContent.trim());
    if (!own || rect.width <= 1 || rect.height <= 1) return false;
    const style = getComputedStyle(el);
    const hides = (overflow) => overflow === "hidden" || overflow === "clip";
    const wide = el.scrollWidth > el.clientWidth + 1;
    const tall = el.scrollHeight > el.clientHeight + 1;
    return ((hides(style.overflowX) || style.textOverflow === "ellipsis") && wide) ||
      (hides(style.overflowY) && tall);
  });
  const frame = () => new Promise((done) => requestAnimationFrame(() => done()));
  const before = new Set(cut());
  // The reader's style, on the document and in every shadow root, then taken off again.
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(css);
  const all = roots(document);
  for (const root of all) root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
  await frame();
  const lost = cut().filter((el) => !before.has(el));
  for (const root of all) {
    root.adoptedStyleSheets = root.adoptedStyleSheets.filter((s) => s !== sheet);
  }
  return lost.map((el) => `${el.tagName.toLowerCase()} "${el.textContent.trim().slice(0, 40)}"`);
}"""
)


def clipped_when_spaced(page: Any) -> list[str]:
    """The text ``page`` cuts off once a reader's style sets WCAG 1.4.12's spacing and did not
    before (a box too small for it that hides what overflows, or ends it with an ellipsis: a
    table cell marimo ends so whatever the spacing is not the criterion's); the style is taken
    off again. Empty when the spacing loses nothing."""
    return list(page.evaluate(CUT_WHEN_SPACED, TEXT_SPACING))


RUNTIMES = ("naive", "durable")
# A row as marimo 0.25.2 writes one (mo.hstack with equal widths, gap 2): two columns, each a
# heading over a row of two counts, every count at least 8rem wide (the snapshot's .stat).
COUNT = '<div style="min-width: 8rem; border: 1px solid">Business effects <b>2</b></div>'
COLUMN = (
    '<div style="flex: 1;display: flex;min-width: 0;min-height: 0">'
    '<div style="display: flex;flex: 1;flex-direction: column"><h3>{name}</h3>'
    '<div style="display: flex;flex: 1;flex-direction: row;flex-wrap: nowrap;gap: 0.5rem">'
    f"{COUNT}{COUNT}</div></div></div>"
)
ROW = (
    '<div style="display: flex;flex: 1;flex-direction: row;justify-content: space-between;'
    'align-items: flex-start;flex-wrap: nowrap;gap: 2rem">'
    + COLUMN.format(name="naive")
    + COLUMN.format(name="durable")
    + "</div>"
)
WIDE_TABLE = (
    '<div style="overflow-x: auto"><table><tr>'
    + "".join(f"<td>cell&nbsp;number&nbsp;{i}</td>" for i in range(12))
    + "</tr></table></div>"
)
WIDE_TEXT = (
    '<div style="overflow-x: auto"><p style="white-space: nowrap">' + "word " * 80 + "</p></div>"
)
SELECT = (
    "<label>Worker 1 stalls <select><option>"
    + "pause-before-dispatch " * 8
    + "</option></select></label>"
)


@contextmanager
def window(browser: Any, viewport: dict[str, int]) -> Iterator[Any]:
    """A page in a fresh context of ``viewport``'s size, closed after."""
    context = browser.new_context(viewport=viewport)
    try:
        yield context.new_page()
    finally:
        context.close()


@contextmanager
def opened(browser: Any, url: str, viewport: dict[str, int], **media: str) -> Iterator[Any]:
    """``url`` in a fresh ``window`` of ``viewport``'s size, its main landmark shown; ``media``
    (``page.emulate_media``'s) emulated before it loads."""
    with window(browser, viewport) as page:
        if media:
            page.emulate_media(**media)
        page.goto(url)
        expect(page.get_by_role("main")).to_be_visible()
        yield page


@contextmanager
def hand_page(browser: Any, body: str, viewport: dict[str, int], rules: bool) -> Iterator[Any]:
    """A page of ``body``, with the site's reflow rules or without."""
    with window(browser, viewport) as page:
        style = f"<style>{REFLOW.read_text(encoding='utf-8')}</style>" if rules else ""
        page.set_content(f"<!DOCTYPE html><html><head>{style}</head><body>{body}</body></html>")
        yield page


def test_the_check_finds_a_row_that_scrolls_the_page_sideways(browser: Any) -> None:
    with hand_page(browser, ROW, NARROW, rules=False) as page:
        assert sideways_boxes(page) == ["html"]


def test_the_check_lets_a_table_scroll_in_its_box_but_not_text(browser: Any) -> None:
    with hand_page(browser, WIDE_TABLE + WIDE_TEXT, NARROW, rules=False) as page:
        assert sideways_boxes(page) == ["div"]


def test_the_check_finds_a_select_as_wide_as_its_longest_choice(browser: Any) -> None:
    with hand_page(browser, SELECT, NARROW, rules=False) as page:
        assert sideways_boxes(page) == ["html"]


def test_the_sites_rules_wrap_marimos_rows_and_fit_a_select_at_320_px(browser: Any) -> None:
    with hand_page(browser, ROW + SELECT, NARROW, rules=True) as page:
        assert sideways(page) == []
        naive, durable = (page.get_by_role("heading", name=n).bounding_box() for n in RUNTIMES)
        assert naive and durable and durable["y"] > naive["y"], "the columns take a line each"


def test_the_rules_leave_a_wide_window_as_marimo_draws_it(browser: Any) -> None:
    with hand_page(browser, ROW, WIDE, rules=True) as page:
        naive, durable = (page.get_by_role("heading", name=n).bounding_box() for n in RUNTIMES)
        assert naive and durable and durable["y"] == naive["y"] and durable["x"] > naive["x"]


SHORT_BOX = (
    '<div style="font-family: monospace; width: 20ch; white-space: nowrap; overflow: hidden">'
    "{}</div>"
)
"""A box 20 characters wide that hides what overflows it: 18 fit, less the criterion's letter
spacing (0.12em a character, a monospace character about 0.6em: 18 need some 21.6ch)."""
FITS = "debit then a crash"
LONGER = "debit then a crash, then a retry"


def test_the_spacing_check_finds_text_a_box_cuts_once_spaced(browser: Any) -> None:
    with hand_page(browser, SHORT_BOX.format(FITS), WIDE, rules=False) as page:
        assert clipped_when_spaced(page) == [f'div "{FITS}"']
        assert clipped_when_spaced(page) == [f'div "{FITS}"'], "the style came off"


def test_the_spacing_check_leaves_text_cut_before_the_spacing(browser: Any) -> None:
    with hand_page(browser, SHORT_BOX.format(LONGER), WIDE, rules=False) as page:
        assert clipped_when_spaced(page) == []


def test_the_spacing_check_passes_text_that_may_grow(browser: Any) -> None:
    with hand_page(browser, f"<p>{LONGER}</p>", WIDE, rules=False) as page:
        assert clipped_when_spaced(page) == []


LESSONS = discover()
PAGES = [("home", ""), *((lesson.slug, f"{lesson.site_dir}/static.html") for lesson in LESSONS)]


@pytest.mark.parametrize(("name", "path"), PAGES, ids=[name for name, _path in PAGES])
def test_the_home_and_every_snapshot_reflow_at_320_px(
    browser: Any, site_url: str, name: str, path: str
) -> None:
    with opened(browser, f"{site_url}{path}", NARROW) as page:
        page.wait_for_timeout(500)  # charts and callouts finish drawing
        assert sideways(page) == [], name


@pytest.mark.parametrize(("name", "path"), PAGES, ids=[name for name, _path in PAGES])
def test_the_home_and_every_snapshot_lose_no_text_with_wcag_spacing(
    browser: Any, site_url: str, name: str, path: str
) -> None:
    with opened(browser, f"{site_url}{path}", WIDE) as page:
        assert clipped_when_spaced(page) == [], name


def test_lesson_1s_snapshot_keeps_its_runtimes_side_by_side_in_a_wide_window(
    browser: Any, site_url: str
) -> None:
    lab: Lesson = LESSONS[0]
    for viewport, beside in ((WIDE, True), (NARROW, False)):
        with window(browser, viewport) as page:
            page.goto(f"{site_url}{lab.site_dir}/static.html")
            heads = [page.locator(f"h3#{n}-runtime").bounding_box() for n in RUNTIMES]
            naive, durable = heads
            assert naive and durable, heads
            assert (durable["y"] == naive["y"]) is beside, (viewport, heads)


DECK = ".reveal.mo-slides-theme"
"""The presenter view's deck: marimo's slides layout, drawn by reveal.js."""


def deck(page: Any, url: str) -> dict[str, float]:
    """The box of the deck at ``url``, once it shows a slide. Whichever: the deck's size is the
    same for all (once, in a loaded full run, the served view opened on its last slide, a cause
    test_presenter.py has since found and checks)."""
    page.goto(url)
    slides = page.locator(DECK).first
    expect(slides).to_be_visible(timeout=LOAD_MS)
    expect(slides.locator("section.present").first).to_be_visible(timeout=LOAD_MS)
    page.wait_for_timeout(500)  # marimo sizes the deck from what it measured
    box = slides.bounding_box()
    assert box is not None
    return box


def test_the_presenter_view_fills_a_narrow_window_and_keeps_its_slides_16_9_in_a_wide_one(
    browser: Any,
    site_url: str,
    server: Server,  # noqa: F811 (the imported fixture)
) -> None:
    # As marimo draws it, a slide at 320 px was a 291x164 px letterbox (a quarter of the window).
    path = f"lessons/{LESSONS[0].path.stem}/present/"
    for url in (f"{site_url}{path}start.html", f"{server.url}{path}"):
        with window(browser, NARROW) as page:
            box = deck(page, url)
            assert box["height"] >= 0.85 * NARROW["height"], (url, box)
            assert sideways(page) == [], url
        with window(browser, WIDE) as page:
            box = deck(page, url)
            assert abs(box["width"] / box["height"] - 16 / 9) < 0.02, (url, box)
