"""The published site in headless Chromium, offline, as a reader sees it.

Every request a page makes is routed: loopback, data: and blob: pass, anything else is aborted
and fails the test. Screenshots land in tests/screenshots/.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "exports"))

from build import BuildReport  # noqa: E402
from lessons import PRESENTED, Lesson, discover  # noqa: E402
from preview import FRAME  # noqa: E402

from asyncfail import Fault, Mode  # noqa: E402
from asyncfail.course import site  # noqa: E402
from asyncfail.course.catalog import COURSE_LINE, COURSE_QUESTION, COURSE_TITLE  # noqa: E402
from asyncfail.course.site import PageKind, page_title  # noqa: E402
from asyncfail.lab.faults import describe_fault  # noqa: E402
from asyncfail.lab.scenario import SEED_FAULT, SEED_MODES  # noqa: E402
from tests.browser.axe import known_issues, summary, violations  # noqa: E402
from tests.browser.conftest import BASE_URL, PREFETCHED  # noqa: E402
from tests.browser.keys import settle  # noqa: E402
from tests.browser.quiet import Quiet  # noqa: E402
from tests.browser.test_forced_colours import (  # noqa: E402
    DARK_THEME,
    MOVED,
    faint_drawn_text,
    looks,
)
from tests.browser.test_hover import LESSON as HOVERED  # noqa: E402
from tests.browser.test_hover import hovered  # noqa: E402

pytestmark = pytest.mark.browser

LESSONS = discover()
# Lesson 1's skip switch, as notebooks/01_async_failure_lab.py labels it.
SKIP_LABEL = "Skip predicting: show the counts and the traces for every fault"
PAGES = LESSONS
LAB = next(lesson for lesson in LESSONS if lesson.slug == "01_async_failure_lab")
# The lesson's default fault first, then every other in declaration order.
FAULTS = [SEED_FAULT, *(f for f in Fault if f is not SEED_FAULT)]
# The key result a reader must see on a static snapshot (the page's default controls). Every
# snapshot must show its title; add a lesson's key result here when the lesson lands.
KEY_RESULTS = {
    "01_async_failure_lab": ["Duplicate debit", "Recovered by operation key"],
    "02_break_the_assumptions": ["Duplicate debit", "What restores the durable runtime"],
    "03_idempotency_contract": ["Same intent reused its retained result"],
    "04_explore_every_failure": ["Replay it in a terminal"],
    "05_two_workers": ["Duplicate debit", "Both workers, message by message, then against time"],
    "06_record_lifetime": ["Records must live at least"],
    "07_readiness_checklist": ["The checklist's answer for the team's design"],
    "08_review_handoff": ["The evidence, message by message", "Read the whole handoff"],
    "09_what_does_your_engine_do": ["Duplicate debit", "Every case agrees with the model."],
}
# What a reader does on an interactive page before its key result shows (lesson 1 asks for a
# prediction first; switching on "skip predicting" reveals the counts and the timelines).
REVEAL = {
    "01_async_failure_lab": "Skip predicting",
    "02_break_the_assumptions": "Skip predicting",
    "03_idempotency_contract": "Skip predicting",
    "04_explore_every_failure": "Skip predicting",
    "05_two_workers": "Skip predicting",
    "06_record_lifetime": "Skip predicting",
    "07_readiness_checklist": "Skip predicting",
    "08_review_handoff": "Skip drafting",
    "09_what_does_your_engine_do": "Skip predicting",
}
# Folds a page makes when a reader opens them (course.page.fold), by their label, with words
# their content shows: made by the kernel at that moment, from what the cell left for it.
MADE_WHEN_OPENED = {
    "01_async_failure_lab": [
        ("Run the verification yourself", "a browser cannot start processes"),
    ],
    "02_break_the_assumptions": [
        ("The five assumptions, and what breaks them", "and what restores it, follows the runs"),
    ],
    "09_what_does_your_engine_do": [("Run DBOS yourself", "The table is recorded by")],
}
# Lessons whose snapshot, at its starting values, draws no chart (lesson 3 charts the retention
# of a design only once the learner has described one).
NO_CHART_AT_FIRST = {"07_readiness_checklist"}
# An interactive page says it is live once its preview has made way for the live app.
LIVE = 'html[data-lesson-state="live"]'
PREVIEW = "#lesson-preview"
# Whether the page's kernel said its first run was over as preview.js listens for it (marimo's
# message in its worker's envelope, as test_preview_swap.py's stand-in kernel speaks): the
# preview then makes way at once instead of after a quiet moment.
HEARD_RUN_OVER = """window.__kernelRunOver = false;
window.Worker = class extends window.Worker {
  constructor(...args) {
    super(...args);
    this.addEventListener("message", (event) => {
      const message = event.data?.data?.payload?.message;
      if (typeof message === "string" && message.startsWith('{"op": "completed-run"'))
        window.__kernelRunOver = true;
    });
  }
};"""
# The wheels the page itself fetched (preview.js fetches what its kernel will load while marimo
# starts), seen by an observer: the page's own timeline keeps only its first 250 entries.
PAGE_WHEELS = """window.__pageWheels = [];
new PerformanceObserver((list) => {
  for (const entry of list.getEntries())
    if (entry.initiatorType === "fetch" && entry.name.endsWith(".whl"))
      window.__pageWheels.push(entry.name);
}).observe({ type: "resource", buffered: true });"""
# The kernel workers the page itself created (marimo's page script is given the one started
# early, exports/early_start.py, so it creates none), whether the first came once the preview
# frame had loaded (this hears the frame's load before the early start does, which starts the
# worker then) and every `bootstrap` sent to a worker (marimo's page script sends one: a first
# one before it is the early start's).
KERNEL_STARTS = """window.__kernelWorkers = [];
window.__bootstraps = [];
window.__previewLoaded = false;
window.__workerAfterPreview = null;
document.addEventListener("load", (event) => {
  if (event.target.matches?.(PREVIEW_FRAME)) window.__previewLoaded = true;
}, true);
window.Worker = class extends window.Worker {
  constructor(url, options) {
    super(url, options);
    window.__kernelWorkers.push([String(url), options && options.name]);
    window.__workerAfterPreview ??= window.__previewLoaded;
  }
};
const post = Worker.prototype.postMessage;
Worker.prototype.postMessage = function (message, ...rest) {
  if (message?.data?.id === "bootstrap") window.__bootstraps.push(JSON.stringify(message));
  return post.call(this, message, ...rest);
};""".replace("PREVIEW_FRAME", json.dumps(FRAME))
# Lesson 1's description of its default fault: the same in the snapshot and the live page.
FAULT_TEXT = describe_fault(SEED_FAULT)


def test_every_page_has_a_key_result_to_check() -> None:
    # A new lesson must say what a reader must see, or its pages would go unchecked.
    assert set(KEY_RESULTS) == {page.slug for page in PAGES}


SEQUENCE_VIEW = "svg.sequence-view"
"""A sequence view: the library's own SVG (charts/sequence_drawing.py), in every page alike."""
DRAWN = f"{SEQUENCE_VIEW}, svg.heatmap-view"
"""A chart the library draws as SVG (a sequence view, a retention heatmap)."""
CHART = f".vega-embed canvas, .vega-embed svg, {DRAWN}"
# How long a WebAssembly page may take to boot or recompute before the test reads it anyway.
BOOT_WAIT_S = 180
RECOMPUTE_WAIT_S = 60


def cli_lab(fault: Fault, mode: Mode) -> dict[str, Any]:
    """What `asyncfail lab --fault F --mode M` prints, as JSON."""
    argv = [sys.executable, "-m", "asyncfail", "lab", "--fault", fault, "--mode", mode]
    out = subprocess.run(argv, check=True, capture_output=True, text=True, cwd=ROOT).stdout
    return dict(json.loads(out))


def read_lab_json(page: Page) -> dict[str, Any]:
    """The JSON documents lesson 1 shows under "JSON printed by `asyncfail lab`", by runtime:
    each accordion item is opened and its code block parsed (None where it does not parse)."""
    shown: dict[str, Any] = {}
    # The JSON sits in the folded section "The same run in a terminal": open it once.
    terminal = page.get_by_text("The same run in a terminal")
    json_headers = page.get_by_text("JSON printed by asyncfail lab")
    if terminal.count() and not (json_headers.count() and json_headers.first.is_visible()):
        terminal.first.click()
        page.wait_for_timeout(200)
    for mode in SEED_MODES:
        header = page.get_by_text(f"JSON printed by asyncfail lab ({mode.value})")
        if not header.count():
            continue
        block = page.locator("pre", has_text='"fault"').filter(has_text=f'"{mode.value}"')
        if not block.count():
            header.first.click()
            page.wait_for_timeout(200)
        try:
            shown[mode.value] = json.loads(block.first.inner_text(timeout=1000))
        except Exception:  # not rendered yet, or half rendered
            shown[mode.value] = None
    return shown


def wait_for_lab(page: Page, expected: dict[str, Any], seconds: float) -> dict[str, Any]:
    """Poll the page until it shows ``expected`` or ``seconds`` pass; return what it shows."""
    deadline = time.monotonic() + seconds
    shown: dict[str, Any] = {}
    while time.monotonic() < deadline:
        shown = read_lab_json(page)
        if shown == expected:
            break
        page.wait_for_timeout(250)
    return shown


def chart_count(built_site: BuildReport, lesson: Lesson) -> int:
    """How many charts the snapshot holds (drawn at build time): the page must show each."""
    text = (built_site.out / lesson.site_dir / "static.html").read_text(encoding="utf-8")
    return len(
        re.findall(
            r'<figure\b[^>]*\bclass="chart"|<svg\b[^>]*\bclass="(?:sequence|heatmap)-view"', text
        )
    )


WAITING = re.compile(r"shows once you commit your (?:guess|prediction)")
"""What a lesson says in place of what waits for the guess (what to notice, the recorded
table, the JSON): a snapshot, which cannot take a guess, never says it."""


def test_a_snapshot_shows_what_waits_for_the_guess(built_site: BuildReport) -> None:
    # The cells that read the reveal through a state (course/reveal.py's keep_revealed) show it
    # in the published page too, whatever order the export ran the cells in.
    for lesson in built_site.pages:
        text = (built_site.out / lesson.site_dir / "static.html").read_text(encoding="utf-8")
        assert WAITING.findall(text) == [], lesson.slug
        if "## What to notice" in lesson.path.read_text(encoding="utf-8"):
            assert "What to notice" in text, lesson.slug


# A snapshot's chart: a Vega-Lite chart drawn as inline SVG (or a picture when the SVG would be
# too large), or the library's own SVG (a sequence view, a heatmap) as every page shows it.
SNAPSHOT_CHART = f"figure.chart > svg, figure.chart > img, {DRAWN}"


def assert_charts_drawn(page: Page, expected: int, drawn: str) -> None:
    """Every chart is drawn, at a sane size (a failed Vega view leaves no canvas or svg, and an
    unclipped outlier can blow a view up to tens of thousands of pixels). ``drawn`` selects a
    drawn chart."""
    charts = page.locator(drawn)
    expect(charts).to_have_count(expected)
    for index in range(expected):
        box = charts.nth(index).bounding_box()
        assert box is not None and 50 < box["height"] < 2000, (index, box)


def shot(page: Page, screenshots: Any, name: str) -> None:
    """The whole page: marimo scrolls inside the app, so grow the viewport to the content."""
    size = page.viewport_size or {"width": 1280, "height": 900}
    height = page.evaluate(
        "() => Math.max(...[...document.querySelectorAll('*')].map(e => e.scrollHeight))"
    )
    page.set_viewport_size({"width": size["width"], "height": min(max(height, 600), 8000)})
    page.screenshot(path=str(screenshots / f"{name}.png"))
    page.set_viewport_size(size)


def visible_text(page: Page, text: str) -> Any:
    return page.get_by_text(text).filter(visible=True).first


def wait_until_live(page: Page) -> None:
    """Wait until the live app has replaced the page's preview: from then on, every locator
    and every interaction reaches the live app (before, it is hidden under the preview)."""
    page.wait_for_selector(LIVE, state="attached", timeout=BOOT_WAIT_S * 1000)
    expect(page.locator(PREVIEW)).to_have_count(0)


def test_course_home_shows_the_course_and_every_lesson_in_order(
    guarded_page: Any, site_url: str, screenshots: Any
) -> None:
    page, guard = guarded_page
    page.goto(site_url)
    expect(page.locator("h1")).to_have_text(COURSE_TITLE)
    assert page.title() == site.HOME_PAGE_TITLE
    expect(page.locator(".question")).to_have_text(COURSE_QUESTION)
    expect(page.get_by_text(COURSE_LINE, exact=True)).to_be_visible()
    outcomes = [o for lesson in LESSONS if lesson.info for o in lesson.info.outcomes]
    assert page.locator("ul.outcomes li").all_inner_texts() == outcomes
    listed = page.locator("ol.lessons li[data-lesson]")
    assert listed.evaluate_all("els => els.map(e => e.dataset.lesson)") == [
        lesson.slug for lesson in LESSONS
    ]
    for lesson in PAGES:
        assert lesson.info is not None
        item = page.locator(f'li[data-lesson="{lesson.slug}"]')
        expect(item.locator("h3")).to_contain_text(lesson.title)
        expect(item).to_contain_text(site.LESSON_MINUTES.format(minutes=lesson.info.minutes))
        expect(item).to_contain_text(lesson.info.summary)
        hrefs = [f"{lesson.site_dir}/", f"{lesson.site_dir}/static.html"]
        if lesson.slug in PRESENTED:
            hrefs.append(f"{lesson.site_dir}/present/")
        assert item.locator("a").evaluate_all("els => els.map(e => e.getAttribute('href'))") == (
            hrefs
        )
        for href in hrefs:
            assert page.request.get(site_url + href).status == 200, href
        picture = item.locator("img")
        # Pictures load lazily: the later lessons' only once they are scrolled to.
        picture.scroll_into_view_if_needed()
        expect(picture).to_be_visible()
        loaded = "img => img.complete || new Promise(done => img.addEventListener('load', done))"
        picture.evaluate(loaded)
        assert picture.evaluate("img => img.naturalWidth") == 1280
    social = page.locator('meta[property="og:image"]').get_attribute("content")
    assert social == f"{BASE_URL}{LAB.site_dir}/picture.png"
    assert page.request.get(site_url + social.removeprefix(BASE_URL)).status == 200
    shot(page, screenshots, "home")
    assert page.url == site_url
    assert guard.blocked == []


@pytest.mark.parametrize("lesson", PAGES, ids=lambda lesson: lesson.slug)
def test_static_snapshot_shows_the_key_result(
    guarded_page: Any, site_url: str, lesson: Lesson
) -> None:
    page, guard = guarded_page
    page.goto(f"{site_url}{lesson.site_dir}/static.html")
    for text in KEY_RESULTS[lesson.slug]:
        expect(visible_text(page, text)).to_be_visible()
    assert guard.blocked == []


@pytest.mark.parametrize("lesson", PAGES, ids=lambda lesson: lesson.slug)
def test_static_snapshot_renders_offline(
    guarded_page: Any, site_url: str, built_site: BuildReport, screenshots: Any, lesson: Lesson
) -> None:
    page, guard = guarded_page
    url = f"{site_url}{lesson.site_dir}/static.html"
    page.goto(url)
    try:
        expect(visible_text(page, lesson.title)).to_be_visible()
        assert page.title() == page_title(lesson.info, PageKind.SNAPSHOT)  # type: ignore[arg-type]
        expected = chart_count(built_site, lesson)
        assert (expected == 0) == (lesson.slug in NO_CHART_AT_FIRST), expected
        assert_charts_drawn(page, expected, SNAPSHOT_CHART)
    finally:
        shot(page, screenshots, f"static-{lesson.slug}")
    # A snapshot does not recompute, but touching its controls must not write into the URL (a
    # snapshot's controls are disabled: test_snapshots.py; any left enabled are touched here).
    selects = page.locator("select:enabled")
    if selects.count():
        options = selects.first.locator("option").all_inner_texts()
        selects.first.select_option(label=options[-1])
    page.mouse.wheel(0, 2000)
    assert page.url == url
    assert guard.blocked == []


@pytest.mark.parametrize("lesson", PAGES, ids=lambda lesson: lesson.slug)
def test_static_snapshot_is_a_document_read_without_javascript(
    browser: Any, site_url: str, built_site: BuildReport, lesson: Lesson
) -> None:
    """JavaScript off, over http and from file://: the lesson's text, key results and charts
    are there, in one request (the page itself: charts are inline)."""
    context = browser.new_context(java_script_enabled=False)
    path = built_site.out / lesson.site_dir / "static.html"
    pages = [f"{site_url}{lesson.site_dir}/static.html", path.as_uri()]
    requests: list[str] = []
    context.route("**/*", lambda route: requests.append(route.request.url) or route.continue_())
    try:
        page = context.new_page()
        for url in pages:
            page.goto(url)
            expect(page.get_by_role("heading", name=lesson.title).first).to_be_visible()
            expect(page.get_by_role("main")).to_be_visible()
            for text in KEY_RESULTS[lesson.slug]:
                expect(visible_text(page, text)).to_be_visible()
            assert_charts_drawn(page, chart_count(built_site, lesson), SNAPSHOT_CHART)
        # What was requested: the two pages, nothing else.
        assert requests == pages
    finally:
        context.close()


def the_preview_shows_at_once_then_the_live_app_in_its_place(page: Page, screenshots: Any) -> None:
    """Lesson 1's page from its load (to call before it is live): the preview (the lesson's
    snapshot, with a note) shows while Python starts in the browser; the live app replaces it,
    at the same address and the same place in the lesson, once it has rendered."""
    preview = page.frame_locator(f"{PREVIEW} iframe")
    expect(preview.get_by_role("heading", name=LAB.title)).to_be_visible()
    # Seen while the live app was still starting, hidden underneath.
    state = page.locator("html").get_attribute("data-lesson-state")
    assert state == "starting", f"the preview shows at once, while Python starts: {state}"
    expect(page.locator(f"{PREVIEW} p")).to_have_text(site.STARTING_NOTE)
    expect(visible_text(page, SKIP_LABEL)).to_have_count(0)
    shot(page, screenshots, "wasm-preview-01_async_failure_lab")
    # A reader scrolls the preview to the fault's description; the live lesson opens there,
    # though the snapshot above it is taller (its banner) and below it shows results.
    cell = "el => el.closest('[id^=\"output-\"]')"
    preview.get_by_text(FAULT_TEXT).evaluate(f"el => ({cell})(el).scrollIntoView()")
    wait_until_live(page)
    top = page.locator("#App").evaluate("app => app.getBoundingClientRect().top")
    where = page.get_by_text(FAULT_TEXT).evaluate(f"el => ({cell})(el).getBoundingClientRect().top")
    # Or as near as the live page can scroll: asking first, it is shorter below that place.
    bottom = page.locator("#App").evaluate(
        "app => app.scrollHeight - app.clientHeight - app.scrollTop <= 1"
    )
    assert abs(where - top) <= 2 or (where > top and bottom), (
        f"the live app opens where the preview was read: {where}, {top}"
    )
    expect(page.get_by_role("heading", name=LAB.title)).to_be_attached()
    expect(visible_text(page, SKIP_LABEL)).to_be_visible()
    page.screenshot(path=str(screenshots / "wasm-live-01_async_failure_lab.png"))


def every_fault_prints_what_the_cli_prints(page: Page, screenshots: Any) -> None:
    """Lesson 1, live, its results shown (skip predicting): for every fault, the JSON it shows
    for each runtime, computed by the library in WebAssembly, is the document `asyncfail lab`
    prints for that fault."""
    dropdown = page.locator("select").first
    for fault in FAULTS:
        dropdown.select_option(label=fault.value)  # the fault shown already: nothing changes
        expected = {mode.value: cli_lab(fault, mode) for mode in SEED_MODES}
        shown = wait_for_lab(page, expected, RECOMPUTE_WAIT_S)
        shot(page, screenshots, f"wasm-lab-{fault.value}")
        assert shown == expected, f"lesson 1's JSON for {fault} is not `asyncfail lab`'s"


@pytest.mark.parametrize("lesson", PAGES, ids=lambda lesson: lesson.slug)
def test_offline_wasm_page_boots_without_errors(
    guarded_page: Any, site_url: str, screenshots: Any, lesson: Lesson
) -> None:
    """Every page boots from the site's own mirror (the build refuses a page whose imports the
    mirror cannot hold, such as altair or pandas), shows its key results, recomputes, passes
    axe live and does nothing a normal load must not do. A boot costs tens of seconds of CPU, so
    lesson 1's also carries the checks that need its page booting or live: the preview at once,
    then the live app in its place (before the checks above), and every fault's JSON the CLI's
    (after them, once axe has read the page)."""
    page, guard = guarded_page
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if '"type":"exception"' in m.text else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    # And nothing a normal load must not do (a failed request, a console error): the site's
    # every interactive page is checked here, where it boots anyway.
    quiet = Quiet(page)
    page.add_init_script(HEARD_RUN_OVER)
    page.add_init_script(PAGE_WHEELS)
    page.add_init_script(KERNEL_STARTS)
    url = f"{site_url}{lesson.site_dir}/"
    page.goto(url)
    try:
        if lesson.slug == LAB.slug:
            the_preview_shows_at_once_then_the_live_app_in_its_place(page, screenshots)
        wait_until_live(page)
        # One kernel worker, started before marimo's page script ran (which then sent its own
        # `bootstrap`, the second), asked to boot as marimo asks it.
        workers = page.evaluate("window.__kernelWorkers")
        assert [(script.rsplit("/", 1)[-1].split("-")[0], name) for script, name in workers] == [
            ("worker", "marimo")
        ], workers
        bootstraps = page.evaluate("window.__bootstraps")
        if page.evaluate("window.__workerAfterPreview"):
            early, marimo_own = bootstraps
            assert early == marimo_own
        else:
            # marimo's page script created its worker before the preview frame had loaded (a
            # loaded machine): then nothing starts early, as early_start.js says, and marimo's
            # own request is the only one.
            assert len(bootstraps) == 1, bootstraps
        assert page.evaluate("window.__kernelRunOver"), (
            "the kernel's end of run, as preview.js hears it"
        )
        wheels = page.evaluate("window.__pageWheels")
        assert sorted(w.rsplit("/", 1)[-1].split("-")[0] for w in wheels) == PREFETCHED, (
            "the packages its kernel loads, fetched by the page while marimo starts"
        )
        expect(visible_text(page, lesson.title)).to_be_visible(timeout=BOOT_WAIT_S * 1000)
        assert page.title() == page_title(lesson.info)  # type: ignore[arg-type]
        if lesson.slug in REVEAL:
            # The skip switch by its name (lesson 2's "More settings" is a switch too).
            switch = page.get_by_role("switch", name=REVEAL[lesson.slug]).first
            expect(switch).to_be_visible(timeout=BOOT_WAIT_S * 1000)
            expect(visible_text(page, REVEAL[lesson.slug])).to_be_visible()
            switch.click()
            if lesson.slug not in NO_CHART_AT_FIRST:
                # The first drawn on screen: a sequence view is SVG from the start, and the
                # page may hold hidden ones (a tab not shown, the preview it replaced).
                drawn = page.locator(CHART).filter(visible=True).first
                expect(drawn).to_be_visible(timeout=RECOMPUTE_WAIT_S * 1000)
        for text in KEY_RESULTS.get(lesson.slug, []):
            expect(visible_text(page, text)).to_be_visible(timeout=BOOT_WAIT_S * 1000)
        settle(page, quiet_s=3.0, within_s=RECOMPUTE_WAIT_S)
        # Change a control and let the page recompute: nothing may land in the URL.
        selects = page.locator("select")
        if selects.count():
            options = selects.first.locator("option").all_inner_texts()
            selects.first.select_option(label=options[-1])
            settle(page, quiet_s=3.0, within_s=RECOMPUTE_WAIT_S)
        found = violations(page)
        for label, text in MADE_WHEN_OPENED.get(lesson.slug, []):
            page.get_by_text(label).last.click()
            expect(visible_text(page, text)).to_be_visible(timeout=RECOMPUTE_WAIT_S * 1000)
        if lesson.slug == LAB.slug:
            every_fault_prints_what_the_cli_prints(page, screenshots)
    finally:
        shot(page, screenshots, f"wasm-{lesson.slug}")
    # axe on the live page, as test_a11y.py checks the static ones (its lesson content issues).
    known = known_issues(lesson.slug, live=True)
    assert [v for v in found if v["id"] not in known] == [], summary(found)
    assert known <= {v["id"] for v in found}, f"{known} fixed: take it off tests/browser/axe.py"
    # In a dark contrast theme (test_forced_colours.py), as `make serve`'s pages: the drawings
    # keep their text, and lesson 1's skip switch shows its state by its thumb.
    page.emulate_media(**DARK_THEME)
    assert faint_drawn_text(page) == []
    if lesson.slug == LAB.slug:
        switch = page.get_by_role("switch", name=REVEAL[lesson.slug]).first
        on = looks(page, switch.locator("xpath=.."))
        switch.click()
        expect(switch).not_to_be_checked()
        settle(page)
        assert len(on ^ looks(page, switch.locator("xpath=.."))) >= MOVED, "switch on = off"
    # A chart's tooltip is the browser's (test_hover.py, which sweeps the served lesson).
    if lesson.slug == HOVERED:
        hovered(page)
    assert errors == []
    quiet.idle()
    quiet.check()
    assert page.url == url
    assert guard.blocked == []


def current_slide(page: Page) -> Any:
    return page.locator(".reveal .slides > section.present")


def test_presenter_view_shows_lesson_1_as_slides(
    guarded_page: Any, site_url: str, screenshots: Any
) -> None:
    """The title slide first; the presenter reaches the slide that asks and reveals the
    results there (skip predicting): the counts and the two event traces, drawn on it."""
    page, guard = guarded_page
    assert {LAB.slug} == PRESENTED, "a new presenter view needs this test's checks too"
    quiet = Quiet(page)  # the presenter view's normal load, as every lesson's above
    url = f"{site_url}{LAB.site_dir}/present/"
    page.goto(url)
    wait_until_live(page)
    assert page.title() == page_title(LAB.info, PageKind.PRESENTER)  # type: ignore[arg-type]
    expect(current_slide(page).get_by_role("heading", name=LAB.title)).to_be_visible()
    page.screenshot(path=str(screenshots / "present-title.png"))  # a slide fills the window
    following = page.locator(".reveal .controls .navigate-right")
    for _ in range(len(page.locator(".reveal .slides > section").all())):
        switch = current_slide(page).get_by_role("switch")
        if switch.count() and not switch.first.is_checked():
            switch.first.click()
            expect(switch.first).to_be_checked()
            # A fault's question, counts and traces are one cell, so one slide.
            expect(current_slide(page).locator(SEQUENCE_VIEW)).to_have_count(2)
        charts = current_slide(page).locator(SEQUENCE_VIEW)
        if charts.count():
            break
        following.click()
        page.wait_for_timeout(500)  # reveal.js moves to the next slide
    expect(current_slide(page).locator(SEQUENCE_VIEW)).to_have_count(2)
    page.screenshot(path=str(screenshots / "present-traces.png"))
    found = violations(page)
    known = known_issues(LAB.slug, live=True)
    assert [v for v in found if v["id"] not in known] == [], summary(found)
    quiet.idle()
    quiet.check()
    assert page.url == url
    assert guard.blocked == []
