"""Every page the site and `make serve` publish against axe-core (WCAG 2.2 AA and axe's best
practices, any impact); what a reader who cannot start the live lesson is told; the keyboard
alone (every served lesson's controls reached with focus drawn; test_keyboard.py finishes every
served lesson, test_lessons.py lesson 1 in its WebAssembly page); a refused input announced.
Reflow at 320 px (WCAG 1.4.10) is test_reflow.py's.
Each served lesson is loaded once, for axe and then its tab walk.

axe-core is pinned in tests/browser/package-lock.json (`make pytest` installs it). The site's own
fixes for what marimo and vega-embed leave out are exports/a11y.py's (the built pages, and the
course server's pages through its AccessiblePages); the site's interactive pages are checked
once live, in test_site.py's boot test (one boot per page serves both).
"""

from __future__ import annotations

import re
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
from tests.browser.conftest import Checks, require  # noqa: E402
from tests.browser.keys import FOCUS_DRAWN, settle  # noqa: E402
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


TINY_TARGETS = (
    '<main><h1>Targets</h1><button style="width: 12px; height: 12px; padding: 0">a</button>'
    '<button style="width: 12px; height: 12px; padding: 0">b</button></main>'
)
"""Two 12 px buttons side by side: under WCAG 2.5.8's 24 px, and closer than 24 px apart."""


def test_axe_checks_target_size_which_it_ships_switched_off(guarded_page: Any) -> None:
    page, _guard = guarded_page
    page.set_content(f'<!DOCTYPE html><html lang="en"><title>t</title><body>{TINY_TARGETS}')
    assert {v["id"] for v in violations(page)} == {"target-size"}


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


def test_the_starting_ring_turns_unless_the_reader_asks_for_reduced_motion(
    browser: Any, site_url: str
) -> None:
    """One load of lesson 1's page, while it starts: the ring turns for a reader who did not ask
    otherwise, and stops once the reader asks for reduced motion (the media query is read again
    when the preference changes: the page need not reload)."""
    context = browser.new_context(reduced_motion="no-preference")
    try:
        page = context.new_page()
        page.goto(f"{site_url}{LAB.site_dir}/")
        note = page.locator("#lesson-preview > p")
        expect(note).to_be_visible()
        spin = "el => getComputedStyle(el, '::before').animationName"
        assert note.evaluate(spin) == "lesson-preview-turn", "turns with no preference"
        page.emulate_media(reduced_motion="reduce")
        assert note.evaluate(spin) == "none", "stops once reduced motion is asked for"
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


# Every page `make serve` publishes but the lessons (each lesson's axe check is made with its tab
# walk, on the same load, below): the home and each presenter view.
SERVED = [
    ("home", ""),
    *(
        (f"{lesson.slug}/{PRESENTER_DIR}", f"{lesson.site_dir}/{PRESENTER_DIR}/")
        for lesson in LESSONS
        if lesson.slug in PRESENTED
    ),
]
SERVED_RUN_S = 120  # a served lesson runs its cells on a busy two-core machine


def served_axe(page: Any, slug: str) -> list[dict[str, Any]]:
    """The violations axe finds on a served page as it stands, but the lesson's own content
    issues: those are tolerated, not required (a live lesson's first screen may not show the
    cell that has one yet)."""
    known = known_issues(slug.split("/")[0], live=True)
    return [v for v in violations(page) if v["id"] not in known]


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
        page.locator(".reveal .slides > section").first.wait_for(
            state="attached", timeout=SERVED_RUN_S * 1000
        )
        # A presenter starts from the title slide (lesson 1 once opened on its verification
        # slide under load: test_presenter.py has the cause, and checks the fix).
        expect(page.get_by_role("heading", level=1).first).to_be_visible(
            timeout=SERVED_RUN_S * 1000
        )
    settle(page)
    found = served_axe(page, slug)
    assert found == [], summary(found)
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
    page.get_by_role("switch", name="More settings").click(timeout=120_000)
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
def test_a_served_lesson_passes_axe_then_tab_reaches_every_control_with_its_focus_drawn(
    guarded_page: Any,
    server: Server,  # noqa: F811 (the imported fixture)
    lesson: Lesson,
) -> None:
    """One load of a lesson as `make serve` serves it (marimo answers it: exports/a11y.py's
    AccessiblePages gives it the built pages' fixes), as a learner first sees it, before
    predicting. First axe, on the untouched page (nothing below has run: no focus moved, no
    attribute set). Then the keyboard alone reaches every control the lesson shows on its first
    screen (a radio group once: arrows move inside it), each with a visible focus indicator
    (WCAG 2.1.1, 2.4.7); Tab only moves the focus, so the walk cannot change what axe saw.
    Lesson 1's switch is named by its label; every radio group by its label, every number field
    in words (lesson 2's folded settings opened, after the walk). Finishing every lesson by
    keyboard is test_keyboard.py's. Each check is named when it fails (``Checks``)."""
    page, guard = guarded_page
    page.goto(f"{server.url}{lesson.site_dir}/")
    expect(page.get_by_role("main")).to_have_count(1, timeout=SERVED_RUN_S * 1000)
    expect(page.get_by_role("heading", level=1).first).to_be_visible(timeout=SERVED_RUN_S * 1000)
    settle(page)
    with Checks(lesson.slug) as check:
        found = served_axe(page, lesson.slug)
        check(found == [], "no axe violation", "\n" + summary(found))
        if lesson.slug == LAB.slug:
            switch_named_by_its_label(check, page)
        radio_groups_named_by_their_labels(check, page)
        controls_named_in_words(check, page, lesson.slug)
        tab_walk(check, page)
        if lesson.slug == "02_break_the_assumptions":
            # Its settings, behind a switch, hold labelled fields (a number, texts): shown, each is
            # named by its label's text too. After the walk, which reads the first screen.
            page.get_by_role("switch", name="More settings").click()
            expect(page.get_by_label("Delivery budget").first).to_be_visible()
            controls_named_in_words(check, page, lesson.slug)
        check(guard.blocked == [], "no request beyond loopback", guard.blocked)


def switch_named_by_its_label(check: Checks, page: Any) -> None:
    """marimo's switch is a button named by the <label for> beside it; the site's naming script
    (exports/a11y/a11y.js) leaves it that name instead of a generic one (WCAG 4.1.2)."""
    switch = page.get_by_role("switch", name="Skip predicting")
    count = switch.count()
    check(count == 1, "one switch named by its label, Skip predicting", f"{count} switches")
    if count == 1:
        label = switch.get_attribute("aria-label")
        check(label is None, "the switch keeps its label's name (no aria-label)", label)


def radio_groups_named_by_their_labels(check: Checks, page: Any) -> None:
    """marimo names every radio group "Radio Group" (its label's <label for> points at an id
    nothing has); the site's naming script (exports/a11y/a11y.js) names each by the label a
    learner sees above it, so a screen reader announces the question, not "Radio Group" (WCAG
    4.1.2)."""
    groups = page.get_by_role("radiogroup")
    shown = groups.count()
    generic = page.get_by_role("radiogroup", name="Radio Group", exact=True).count()
    named = page.get_by_role("radiogroup", name=re.compile(r"\w")).count()
    check(
        generic == 0 and named == shown,
        "every radio group named by its label",
        (f"{generic} of {shown} named 'Radio Group', {shown - named} unnamed"),
    )


ARIA_LABELS = """() => {
  const out = [];
  const walk = (root) => {
    for (const el of root.querySelectorAll("[aria-label]")) out.push(el.getAttribute("aria-label"));
    for (const el of root.querySelectorAll("*")) if (el.shadowRoot) walk(el.shadowRoot);
  };
  walk(document);
  return out;
}"""
GUESS_FIELDS = {
    "01_async_failure_lab": ("Naive runtime", "Durable runtime"),
    "02_break_the_assumptions": ("Naive runtime", "Durable runtime"),
    "05_two_workers": ("Naive runtime", "Durable runtime"),
    "09_what_does_your_engine_do": (
        "Plain engine step",
        "Step with a key at a deduplicating receiver",
        "The course's durable pattern",
    ),
}
"""The number fields of each lesson's guess, by the words before each in its prompt."""


def controls_named_in_words(check: Checks, page: Any, slug: str) -> None:
    """marimo writes a labelled control's aria-label as its label's HTML, and names a number
    field without a label "Number input"; the site's naming script names the first by its
    label's text and a guess's field by the words before it in the prompt (WCAG 4.1.2)."""
    labels = page.evaluate(ARIA_LABELS)
    markup = [label for label in labels if re.search(r"<[a-z]", label, flags=re.IGNORECASE)]
    check(markup == [], "no name written as HTML", markup[:3])
    generic = [label for label in labels if label.endswith("Number input")]
    check(generic == [], "no number field named 'Number input'", generic)
    for name in GUESS_FIELDS.get(slug, ()):
        found = page.get_by_label(name, exact=True).count()
        check(found == 1, f"the guess's field named {name!r}", f"{found} found")


def tab_walk(check: Checks, page: Any) -> None:
    """Tab from the page's top until every control of the first screen (``CONTROLS``) has had
    the focus: each must be reached, with its focus drawn."""
    controls = page.evaluate(CONTROLS)
    check(bool(controls), "a control on the first screen")
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
    check(missed == [], "every control reached by Tab", missed)
    check(undrawn == [], "focus drawn on every control reached", undrawn)
