"""Every page the site and `make serve` publish against axe-core (WCAG 2.2 AA and axe's best
practices, any impact); what a reader who cannot start the live lesson is told; the keyboard
alone (lesson 1 finished in its WebAssembly page, every served lesson's controls reached with
focus drawn; test_keyboard.py finishes every served lesson); a refused input announced.

axe-core is pinned in tests/browser/package-lock.json (`make pytest` installs it). The site's own
fixes for what marimo and vega-embed leave out are exports/a11y.py's (the built pages, and the
course server's pages through its AccessiblePages); the site's interactive pages are checked
once live, in test_site.py's boot test (one boot per page serves both).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "exports"))

from build import BuildReport  # noqa: E402
from lessons import PRESENTED, PRESENTER_DIR, Lesson, discover  # noqa: E402
from preview import RUNTIME_FILES  # noqa: E402

from asyncfail.course.lesson02_break_the_assumptions import PLAN_ERROR  # noqa: E402
from asyncfail.lab.faults import PLAN_ACCEPTED  # noqa: E402
from tests.browser.axe import AXE_JS, known_issues, summary, violations  # noqa: E402
from tests.browser.conftest import require  # noqa: E402
from tests.browser.keys import (  # noqa: E402
    FOCUS_DRAWN,
    Focused,
    settle,
    tab_to,
    tab_to_radio_of,
)
from tests.browser.test_course_server import Server, server  # noqa: E402, F401 (a fixture)

pytestmark = pytest.mark.browser

LESSONS = discover()
LAB = LESSONS[0]


@pytest.fixture(scope="module", autouse=True)
def axe_installed() -> None:
    require(AXE_JS.is_file(), f"axe-core not installed: run `make pytest` (npm ci) ({AXE_JS})")


def check(page: Any, slug: str = "", live: bool = False) -> None:
    """No axe violation on the page but its lesson's listed issues (which must occur)."""
    found = violations(page)
    known = known_issues(slug, live)
    rules = {v["id"] for v in found}
    assert [v for v in found if v["id"] not in known] == [], summary(found)
    assert known <= rules, f"{slug}: {known - rules} fixed in the lesson: take it off the list"


def test_course_home_has_no_axe_violation(guarded_page: Any, site_url: str) -> None:
    page, guard = guarded_page
    page.goto(site_url)
    check(page)
    assert guard.blocked == []


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.slug)
def test_static_snapshot_has_no_axe_violation(
    guarded_page: Any, site_url: str, lesson: Lesson
) -> None:
    page, guard = guarded_page
    page.goto(f"{site_url}{lesson.site_dir}/static.html")
    expect(page.get_by_role("main")).to_be_visible()
    expect(page.get_by_text(lesson.title).filter(visible=True).first).to_be_visible()
    page.wait_for_timeout(1000)  # charts and callouts finish drawing
    check(page, lesson.slug)
    assert guard.blocked == []


# The focused element (inside shadow roots too), and its outline's style and width.
FOCUS_RING = """() => {
  let el = document.activeElement;
  while (el && el.shadowRoot && el.shadowRoot.activeElement) el = el.shadowRoot.activeElement;
  const s = getComputedStyle(el);
  return [el.tagName, s.outlineStyle, parseFloat(s.outlineWidth)];
}"""


def test_focus_is_visible_on_the_home_and_a_snapshot(guarded_page: Any, site_url: str) -> None:
    """Tabbing lands on a control whose focus ring is drawn (WCAG 2.4.7)."""
    page, _guard = guarded_page
    for url in (site_url, f"{site_url}{LAB.site_dir}/static.html"):
        page.goto(url)
        expect(page.get_by_text(LAB.title).filter(visible=True).first).to_be_visible()
        page.keyboard.press("Tab")
        ring = page.evaluate(FOCUS_RING)
        assert ring[0] != "BODY" and ring[1] != "none" and ring[2] >= 2, (url, ring)


def test_reduced_motion_stops_the_starting_ring(browser: Any, site_url: str) -> None:
    context = browser.new_context(reduced_motion="reduce")
    try:
        page = context.new_page()
        page.goto(f"{site_url}{LAB.site_dir}/")
        note = page.locator("#lesson-preview > p")
        expect(note).to_be_visible()
        spin = "el => getComputedStyle(el, '::before').animationName"
        assert note.evaluate(spin) == "none"
    finally:
        context.close()


def test_the_starting_ring_turns_for_readers_who_did_not_ask_otherwise(
    browser: Any, site_url: str
) -> None:
    context = browser.new_context(reduced_motion="no-preference")
    try:
        page = context.new_page()
        page.goto(f"{site_url}{LAB.site_dir}/")
        spin = "el => getComputedStyle(el, '::before').animationName"
        assert page.locator("#lesson-preview > p").evaluate(spin) == "lesson-preview-turn"
    finally:
        context.close()


@pytest.mark.parametrize("missing", ["pyodide.asm.wasm", "python_stdlib.zip"])
def test_a_page_whose_runtime_is_missing_says_so_and_links_the_snapshot(
    guarded_page: Any, site_url: str, missing: str
) -> None:
    # The site as published without one of Python's files (the server answers 404).
    assert missing in RUNTIME_FILES
    page, guard = guarded_page
    page.route(f"**/pyodide/{missing}", lambda route: route.fulfill(status=404, body=""))
    page.goto(f"{site_url}{LAB.site_dir}/")
    page.wait_for_selector('html[data-lesson-state="failed"]', state="attached", timeout=30_000)
    note = page.locator("#lesson-preview > p[role=status]")
    expect(note).to_contain_text("cannot start")
    expect(note).to_contain_text(missing)
    link = note.get_by_role("link", name="read the static snapshot")
    expect(link).to_have_attribute("href", "static.html")
    link.click()
    expect(page).to_have_url(f"{site_url}{LAB.site_dir}/static.html")
    assert guard.blocked == []


def test_presenter_view_that_cannot_start_links_its_lessons_snapshot(
    guarded_page: Any, site_url: str
) -> None:
    page, _guard = guarded_page
    page.route("**/pyodide/pyodide.asm.wasm", lambda route: route.fulfill(status=404, body=""))
    page.goto(f"{site_url}{LAB.site_dir}/present/")
    page.wait_for_selector('html[data-lesson-state="failed"]', state="attached", timeout=30_000)
    link = page.locator("#lesson-preview > p").get_by_role("link")
    expect(link).to_have_attribute("href", "../static.html")
    assert page.request.get(f"{site_url}{LAB.site_dir}/static.html").status == 200


def test_a_page_opened_from_a_file_says_it_needs_a_server(
    browser: Any, built_site: BuildReport
) -> None:
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto((built_site.out / LAB.site_dir / "index.html").as_uri())
        page.wait_for_selector('html[data-lesson-state="failed"]', state="attached")
        note = page.locator("#lesson-preview > p")
        expect(note).to_contain_text("cannot start from a file")
        expect(note.get_by_role("link")).to_have_attribute("href", "static.html")
    finally:
        context.close()


def test_lesson_1_is_finished_with_the_keyboard_alone(guarded_page: Any, site_url: str) -> None:
    """Predict (type a guess, commit it), see the revealed counts, answer the check: keys only,
    each control reached by Tab showing where the focus is (WCAG 2.1.1, 2.4.7). The WebAssembly
    page; test_keyboard.py finishes every lesson the same way, served by CPython."""
    from asyncfail.course import page as lab_lesson  # the predict-then-reveal words
    from tests.notebook_support import lesson_question

    LAB_QUESTION = lesson_question("01_async_failure_lab")

    page, guard = guarded_page
    page.goto(f"{site_url}{LAB.site_dir}/")
    page.wait_for_selector('html[data-lesson-state="live"]', state="attached", timeout=180_000)
    page.get_by_text(lab_lesson.COMMIT_LABEL).first.wait_for(timeout=60_000)
    page.locator("body").click(position={"x": 1, "y": 1})  # start from the page, not the URL bar
    seen: list[Focused] = []
    # Predict: the first number of the prediction form, typed over; then commit the guess.
    tab_to(page, lambda f: f["tag"] == "INPUT" and f["type"] in {"text", "number"}, seen)
    page.keyboard.press("Control+A")
    page.keyboard.type("2")
    tab_to(page, lambda f: f["tag"] == "BUTTON" and f["text"] == lab_lesson.COMMIT_LABEL, seen)
    page.keyboard.press("Enter")
    # Reveal: the counts of both runtimes show once the guess is committed.
    expect(page.get_by_text(lab_lesson.EFFECTS_LABEL).first).to_be_visible(timeout=60_000)
    settle(page)  # its charts drawn: a control focused before would move down out of sight
    # Check: Tab reaches the check's radio group; the arrows choose its right answer, and the
    # feedback says so.
    tab_to_radio_of(page, LAB_QUESTION.answer, seen)
    feedback = LAB_QUESTION.feedback(LAB_QUESTION.answer)
    expect(page.get_by_text(feedback).first).to_be_visible(timeout=60_000)
    unseen = [f for f in seen if not f["drawn"]]
    assert unseen == [], f"focus not drawn on {unseen[:5]}"
    hidden = [f for f in seen if not f["shown"]]
    assert hidden == [], f"focus obscured or out of the window on {hidden[:5]}"
    assert guard.blocked == []


# Every page `make serve` publishes: the home, each lesson live, each presenter view.
SERVED = [
    ("home", ""),
    *((lesson.slug, f"{lesson.site_dir}/") for lesson in LESSONS),
    *(
        (f"{lesson.slug}/{PRESENTER_DIR}", f"{lesson.site_dir}/{PRESENTER_DIR}/")
        for lesson in LESSONS
        if lesson.slug in PRESENTED
    ),
]
SERVED_RUN_S = 120  # a served lesson runs its cells on a busy two-core machine


@pytest.mark.parametrize(("slug", "path"), SERVED, ids=[slug for slug, _path in SERVED])
def test_served_page_has_no_axe_violation(
    guarded_page: Any,
    server: Server,  # noqa: F811 (the imported fixture)
    slug: str,
    path: str,
) -> None:
    """`make serve`'s pages (marimo answers the lessons: exports/a11y.py's AccessiblePages
    gives each the built pages' fixes) as a learner first sees them, before predicting."""
    page, guard = guarded_page
    page.goto(f"{server.url}{path}")
    expect(page.get_by_role("main")).to_have_count(1, timeout=SERVED_RUN_S * 1000)
    if slug != "home":
        expect(page.get_by_role("heading", level=1).first).to_be_visible(
            timeout=SERVED_RUN_S * 1000
        )
    settle(page)
    found = violations(page)
    # The lesson's own content issues are tolerated, not required: a live lesson's first
    # screen may not show the cell that has one yet.
    known = known_issues(slug.split("/")[0], live=True)
    assert [v for v in found if v["id"] not in known] == [], summary(found)
    assert guard.blocked == []


def test_a_refused_input_is_announced_and_says_what_is_accepted(
    guarded_page: Any,
    server: Server,  # noqa: F811 (the imported fixture)
) -> None:
    """Lesson 2, served as `make serve` serves it: a plan it cannot read is refused in an
    element of role alert (announced as it appears, WCAG 4.1.3 and 3.3.1) that names what the
    box accepts."""
    lesson = "02_break_the_assumptions"
    page, guard = guarded_page
    page.goto(f"{server.url}lessons/{lesson}/")
    page.get_by_text("More settings").first.click(timeout=120_000)
    box = page.get_by_placeholder("e.g. 1:after-effect,2:lookup")
    box.scroll_into_view_if_needed()
    box.fill("sometimes")
    box.press("Enter")
    alert = page.get_by_role("alert").filter(has_text=PLAN_ERROR.split(":")[0])
    expect(alert).to_have_count(1, timeout=60_000)
    expect(alert).to_contain_text("sometimes")
    expect(alert).to_contain_text(PLAN_ACCEPTED)
    # The accessibility tree Chromium gives a screen reader holds it as an alert.
    assert "alert" in str(alert.aria_snapshot())
    assert guard.blocked == []


# Every control a served lesson shows on its first screen, in the page and in shadow roots:
# marked with data-kb (its index) and listed as [index, group, description]. A radio group is
# one stop for the keyboard (arrows move inside it): its radios share a group. A control taken
# out of the tab order on purpose (tabindex -1: a number box's stepper buttons) is not one.
CONTROLS = """() => {
  const found = [];
  const visible = (el) => { const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== "hidden"; };
  const walk = (scope) => {
    for (const el of scope.querySelectorAll("*")) {
      if (el.shadowRoot) walk(el.shadowRoot);
      const role = el.getAttribute("role") || "";
      const control = el.matches("input:not([type=hidden]), select, textarea, button, summary")
        || ["switch", "radio", "checkbox", "slider", "combobox"].includes(role);
      if (!control || el.disabled || el.closest("[inert], [aria-hidden=true]") || !visible(el))
        continue;
      const group = el.closest("[role=radiogroup]") || (el.type === "radio" && el.name) || null;
      // Out of the tab order on purpose (a number box's stepper buttons: its arrows do that),
      // unless a radio, whose group holds one tab stop.
      if (el.tabIndex < 0 && !group) continue;
      el.dataset.kb = String(found.length);
      const groupId = group ? (typeof group === "string" ? group : (group.dataset.kbGroup ??=
        "g" + found.length)) : "c" + found.length;
      found.push([found.length, groupId,
        `${el.tagName} ${role} ${el.getAttribute("aria-label") || el.innerText || ""}`.trim()]);
    }
  };
  walk(document);
  return found;
}"""
FOCUSED_KB = (
    "() => {" + FOCUS_DRAWN + "return [el.dataset.kb ?? null, Boolean(drawn), el.tagName]; }"
)


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.slug)
def test_every_control_of_a_served_lesson_is_reached_by_tab_with_its_focus_drawn(
    guarded_page: Any,
    server: Server,  # noqa: F811 (the imported fixture)
    lesson: Lesson,
) -> None:
    """The keyboard alone reaches every control a lesson shows on its first screen (a radio
    group once: arrows move inside it), each with a visible focus indicator (WCAG 2.1.1, 2.4.7).
    Finishing every lesson by keyboard is test_keyboard.py's."""
    page, guard = guarded_page
    page.goto(f"{server.url}{lesson.site_dir}/")
    expect(page.get_by_role("heading", level=1).first).to_be_visible(timeout=SERVED_RUN_S * 1000)
    settle(page)
    controls = page.evaluate(CONTROLS)
    assert controls, "no control on the first screen"
    groups = {group: description for _index, group, description in controls}
    group_of = {str(index): group for index, group, _description in controls}
    page.locator("body").click(position={"x": 1, "y": 1})
    reached: set[str] = set()
    undrawn: list[str] = []
    for _ in range(3 * len(controls) + 40):
        page.keyboard.press("Tab")
        focused = page.evaluate(FOCUSED_KB)
        if not focused or focused[0] is None:
            continue
        group = group_of[focused[0]]
        if group in reached:
            if reached == set(groups):
                break
            continue
        reached.add(group)
        if not focused[1]:
            undrawn.append(f"{focused[2]}: {groups[group]}")
    missed = [groups[group] for group in groups if group not in reached]
    assert missed == [], f"not reached by Tab: {missed}"
    assert undrawn == [], f"focus not drawn on: {undrawn}"
    assert guard.blocked == []


def test_a_served_switch_is_named_by_its_label(
    guarded_page: Any,
    server: Server,  # noqa: F811 (the imported fixture)
) -> None:
    """marimo's switch is a button named by the <label for> beside it; the site's naming script
    (exports/a11y/a11y.js) leaves it that name instead of a generic one (WCAG 4.1.2)."""
    page, guard = guarded_page
    page.goto(f"{server.url}{LAB.site_dir}/")
    switch = page.get_by_role("switch", name="Skip predicting")
    expect(switch).to_have_count(1, timeout=SERVED_RUN_S * 1000)
    assert switch.get_attribute("aria-label") is None
    assert guard.blocked == []
