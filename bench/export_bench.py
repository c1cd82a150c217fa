"""Benchmarks of the published site (`make bench`): medians and ratios, never pass/fail.

- build time of the whole site, its total size and the size of the asyncfail wheel it ships;
- lesson 1's interactive page, from navigation to
  - first content: the lesson's title drawn in the page's preview (its static snapshot, shown
    while Python starts; exports/preview.py);
  - interactive: the live app has replaced the preview and shows its first result, the
    prediction form a learner acts on (the lesson asks first: its counts wait for the guess);
  each as a ratio to a trivial marimo WebAssembly page served from the same site in the same
  browser run, whose first output is both its first content and the moment it is interactive
  (goals: first content well under 1x, the point of the preview; interactive within 1.2x, the
  library, its wheel and the preview must add little to start-up).
Each moment is the page's own time of the first frame that shows it (ms since navigation); the
harness only asks the page for it every 200 ms (Playwright's locator waits walk the document on
every frame and slowed the pages they waited on), and its own reading is printed beside. Each
load runs in a fresh browser context (cold cache); the two pages alternate so machine noise hits
both alike. Needs Debian's Chromium (`apt-get install chromium`), as the build does.

Then, per lesson, its static snapshot (the document, exports/document.py): first contentful
paint and requests, from a local server, cold (goal: under 0.5 s, a handful of requests); and
lesson 1 opened twice in one browser context, the second time with the server gone (offline,
from the site's service worker) and the first page closed: seconds to live, each visit, medians
of `BENCH_OFFLINE_RUNS=N` pairs (default 3). `BENCH_RUNS=N` sets the runs (default 5).

Last, per lesson, in its WebAssembly page (issue 24, "Quick to answer"), the lesson exported
once more with a probe dropdown and a cell echoing it added at its end: time to interactive
(navigation to the page's last change once every cell has drawn) as a ratio to the trivial page
timed the same way, loaded alternately with the lesson's loads (goal <= 1.2x; the medians' ratio,
and each load's against the trivial load beside it); and, on the same page, the recompute after
the lesson's first dropdown outside a form changes, as a ratio to the probe's trivial update
(goal <= 3x), each timed from the change to the page's last change (the page then quiet for
1.5 s), and where that time goes, as medians in ms: until the kernel's first message (the change
travelling to marimo's kernel in its worker), from it to the kernel's last (Python running the
cells), and after it (the page drawing); and the median of each load's first change of the
control on its own (the first pick of a choice), and each load's own ratio (its spread); then
where the lesson's start went beside the trivial page's, from the kernel's first message of each
kind (``Start``: to the kernel ready, the packages and setup, marimo compiling the cells, the first
run, the drawing after it; medians in ms), and what of it is the lesson's own (``own_start``: the
parts after the kernel is ready, less the trivial page's), as ms and as a ratio to the trivial page.
`BENCH_LESSON_RUNS=N` page loads per lesson (default 3: a median of three sets one slow load
aside, where a median of two is their mean), four changes of each per load.
Lesson 1's line is read again with the site served as over a slow link (`slow_link.py`: one
bucket of `BENCH_LINK_MBPS` megabits a second, default 20, shared by every connection, and 20 ms
before each response), first visits, `BENCH_LINK_RUNS` loads of each page (default 3; 0 skips it).
First of all, per lesson, its kernel's start under Node (`kernel_start.mjs`, no browser): marimo's
own Pyodide session on the site's Pyodide, every wheel unpacked before, from instantiating the
notebook to the kernel's `completed-run` message, against the trivial notebook's, alternating,
`BENCH_KERNEL_RUNS=N` each (default 3; 0 skips it): medians, the difference (the lesson's own
work in the kernel, without the page's drawing, the packages' loading or the browser's noise)
and the part marimo spends rendering the Markdown-only cells. Needs Node, as the build does.
`--site DIR` measures a site built before; `--speed-only` prints only the per-lesson page
figures, `--kernel-only` only the kernel starts, `--lesson 06` (repeatable, with either) only
that lesson's; `--offline-only` only the two visits.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "exports"))

from browser import LoopbackGuard, find_chromium, launch  # noqa: E402
from build import BuildReport, build_site, export_wasm  # noqa: E402
from bytecode import node_or_stop  # noqa: E402
from lessons import Lesson, discover  # noqa: E402
from serve import serving  # noqa: E402
from slow_link import serving_slowly  # noqa: E402

from asyncfail.course.reveal import COMMIT_LABEL  # noqa: E402

RUNS = int(os.environ.get("BENCH_RUNS", "5"))
SPEED_RUNS = int(os.environ.get("BENCH_LESSON_RUNS", "3"))  # page loads per lesson
SPEED_REPEATS = 4  # changes of each control per load
OFFLINE_RUNS = int(os.environ.get("BENCH_OFFLINE_RUNS", "3"))  # first and second visit pairs
LINK_MBPS = float(os.environ.get("BENCH_LINK_MBPS", "20"))  # lesson 1's line over a slow link
LINK_RUNS = int(os.environ.get("BENCH_LINK_RUNS", "3"))  # its loads of each page (0: none)
KERNEL_RUNS = int(os.environ.get("BENCH_KERNEL_RUNS", "3"))  # kernel starts of each notebook
KERNEL_SCRIPT = Path(__file__).resolve().parent / "kernel_start.mjs"
TRIVIAL = '''"""Trivial page

The baseline of the start-up benchmark: marimo alone, one output.
"""

import marimo

app = marimo.App()


@app.cell
def _():
    import marimo as mo

    return (mo,)


@app.cell
def _(mo):
    mo.Html("<p data-bench-ready>ready</p>")
    return


if __name__ == "__main__":
    app.run()
'''
TIMEOUT_MS = 300_000
POLL_MS = 200  # how often the harness asks a loading page whether it has shown what it waits for


# Installed in each page of lesson 1's line before it loads: the page's own time (ms since
# navigation) of the first frame that shows what a reader waits for. The trivial page: its
# output. The lesson: the preview's title (first content), then the page live with the
# prediction form's button (interactive). The harness only asks the page for these marks, every
# POLL_MS: Playwright's locator waits walk the page's whole document, shadow roots included, on
# every frame, and slowed the page they waited on (the trivial page by 0.65 s, the lesson by
# 0.43 s, medians of 8 loads each way, exports/README.md).
SHOWN = """window.__benchShown = {};
(() => {
  const shown = window.__benchShown;
  const mark = (name, found) => name in shown || !found() || (shown[name] = performance.now());
  const hasButton = (root, label) =>
    [...root.querySelectorAll("button")].some((b) => b.textContent.includes(label)) ||
    [...root.querySelectorAll("*")].some((el) => el.shadowRoot && hasButton(el.shadowRoot, label));
  const frame = () => {
    const preview = document.querySelector("#lesson-preview iframe");
    const doc = preview && preview.contentDocument;
    const heading = doc && doc.querySelector("h1");
    mark("ready", () => document.querySelector("[data-bench-ready]"));
    mark("first", () => heading && heading.textContent.includes(TITLE));
    mark("live", () =>
      document.documentElement.dataset.lessonState === "live" && hasButton(document, LABEL));
    if (!("ready" in shown || "live" in shown)) requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
})();"""


def load(browser, url: str, title: str | None) -> tuple[float, float, float]:  # type: ignore[no-untyped-def]
    """Seconds from navigation to (first content, interactive), in a fresh context, as the page
    timed them (``SHOWN``), and to interactive as the harness's check saw it (by POLL_MS)."""
    context = browser.new_context()
    guard = LoopbackGuard()
    guard.install(context)
    context.add_init_script(
        SHOWN.replace("TITLE", json.dumps(title or "")).replace("LABEL", json.dumps(COMMIT_LABEL))
    )
    page = context.new_page()
    start = time.perf_counter()
    page.goto(url)
    # The trivial page's first content and interactive are one moment: its one cell's output.
    wanted = "'ready' in __benchShown" if title is None else "'first' in __benchShown"
    page.wait_for_function(
        f"() => {wanted} && ('ready' in __benchShown || 'live' in __benchShown)",
        timeout=TIMEOUT_MS,
        polling=POLL_MS,
    )
    seen = time.perf_counter() - start
    shown = page.evaluate("__benchShown")
    context.close()
    if guard.blocked:
        raise SystemExit(f"{url} made third-party requests: {guard.blocked[:3]}")
    if title is None:
        return shown["ready"] / 1000, shown["ready"] / 1000, seen
    return shown["first"] / 1000, shown["live"] / 1000, seen


def report_line(label: str, lab: list[float], trivial: list[float], goal: str) -> None:
    lab_s, trivial_s = statistics.median(lab), statistics.median(trivial)
    print(
        f"export: lesson 1 {label:<13} median {lab_s:6.2f} s, trivial page {trivial_s:6.2f} s: "
        f"{lab_s / trivial_s:5.2f}x ({goal}; {len(lab)} runs)"
    )


FIRST_PAINT = """() => new Promise((done) => {
  const find = () => performance.getEntriesByName("first-contentful-paint")[0];
  if (find()) return done(find().startTime / 1000);
  new PerformanceObserver(() => find() && done(find().startTime / 1000))
    .observe({ type: "paint", buffered: true });
})"""


def link_report(site: Path, mbps: float, runs: int) -> None:
    """Lesson 1's published page and the trivial page, first visits over a slow link
    (``slow_link``), alternating: the same moments as on the loopback server, medians."""
    from playwright.sync_api import sync_playwright

    samples: dict[str, list[tuple[float, float, float]]] = {"trivial": [], "lab": []}
    lab = discover()[0]
    with serving_slowly(site, mbps) as url, sync_playwright() as playwright:
        browser = launch(playwright, find_chromium())
        pages = {
            "trivial": (f"{url}bench/trivial/", None),
            "lab": (f"{url}{lab.site_dir}/", lab.title),
        }
        for run in range(runs):
            for name in ["trivial", "lab"] if run % 2 == 0 else ["lab", "trivial"]:
                samples[name].append(load(browser, *pages[name]))
        browser.close()
    baseline = [first for first, _, _ in samples["trivial"]]
    for label, index in (("first content", 0), ("interactive", 1)):
        lab_s = statistics.median(sample[index] for sample in samples["lab"])
        trivial_s = statistics.median(baseline)
        print(
            f"export: lesson 1 {label} over {mbps:g} Mbps median {lab_s:6.2f} s, trivial page "
            f"{trivial_s:6.2f} s: {lab_s / trivial_s:5.2f}x (first visits; {runs} runs)",
            flush=True,
        )


def snapshot_figures(browser, url: str) -> tuple[float, int]:  # type: ignore[no-untyped-def]
    """A snapshot's first contentful paint (s) and its request count, in a fresh context."""
    context = browser.new_context()
    requests: list[str] = []
    context.on("request", lambda request: requests.append(request.url))
    page = context.new_page()
    page.goto(url)
    paint = float(page.evaluate(FIRST_PAINT))
    context.close()
    return paint, len(requests)


def offline_second_visit(browser, site: Path, lesson: Lesson) -> tuple[float, float]:  # type: ignore[no-untyped-def]
    """Seconds to live: lesson opened online, then again with the server gone, in one fresh
    context (the service worker and its cache are the context's). The first page is closed
    once the worker has kept it, as a reader's second visit comes after the first (left open,
    its Pyodide may still be compiling its hot code with the optimising compiler, seconds of CPU
    on another thread; measured, it moved the ratio by about 0.01, exports/README.md)."""
    context = browser.new_context()
    live = 'html[data-lesson-state="live"]'

    def visit(url: str):  # type: ignore[no-untyped-def]
        page = context.new_page()
        start = time.perf_counter()
        page.goto(url)
        page.wait_for_selector(live, state="attached", timeout=TIMEOUT_MS)
        return page, time.perf_counter() - start

    with serving(site) as url:
        target = f"{url}{lesson.site_dir}/"
        page, first = visit(target)
        page.wait_for_selector('html[data-offline="kept"]', state="attached", timeout=TIMEOUT_MS)
        page.close()
    _, second = visit(target)
    context.close()
    return first, second


def offline_report(chromium: str, site: Path, lesson: Lesson, runs: int) -> None:
    """``runs`` first and second visits (``offline_second_visit``), each pair in its own
    context of one browser: the medians, their ratio and the pairs' own ratios (one pair moves
    by about 10 % on this machine, as much as the difference it measures)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = launch(playwright, chromium)
        pairs = [offline_second_visit(browser, site, lesson) for _ in range(runs)]
        browser.close()
    first = statistics.median(pair[0] for pair in pairs)
    second = statistics.median(pair[1] for pair in pairs)
    each = ", ".join(f"{b / a:4.2f}x" for a, b in pairs)
    print(
        f"export: lesson 1 live, first visit {first:6.2f} s; second visit offline "
        f"{second:6.2f} s ({second / first:4.2f}x; goal < 1x; medians of {runs} pairs: {each})"
    )


# --- Per lesson, in the WebAssembly page: a control's recompute vs a trivial cell's update ----
# Each lesson is exported once more with two cells added at its end: a probe dropdown and a cell
# that echoes it (the trivial update). In one page load: time to interactive (the page live),
# then, alternating, the probe's update and the lesson's first dropdown's recompute, each timed
# from the change to the last change of the page (a MutationObserver; the page quiet for
# QUIET_MS after it). Lessons with a "Skip predicting" switch have it switched on first, so the
# dropdown recomputes what it shows (not only a waiting note).
# The probe's dropdown has no label: marimo renders a control's label as Markdown, and the site's
# memo of rendered Markdown (asyncfail/course/prerendered.py) holds the lessons' own texts only,
# so a label here made each probe page build the Markdown converter in its first run (lesson 1:
# 186 ms under Node, exports/README.md), work that neither the lesson's published page nor the
# trivial page does. It is found by its wrapper instead (PROBE).
PROBE_CELLS = """

@app.cell
def _():
    import marimo as _mo

    bench_probe = _mo.ui.dropdown(["a", "b", "c"], value="a")
    _mo.Html(f"<div data-bench-probe>{bench_probe}</div>")
    return (bench_probe,)


@app.cell
def _(bench_probe):
    import marimo as _mo

    _mo.Html(f"<p data-bench-echo>{bench_probe.value}</p>")
    return

"""
QUIET_MS = 1500
# Installed in every page before it loads: the time (ms since navigation) of its last change.
WATCH = """window.__benchLast = 0;
document.addEventListener("DOMContentLoaded", () => {
  window.__benchLast = performance.now();
  new MutationObserver(() => (window.__benchLast = performance.now())).observe(document.body,
    { subtree: true, childList: true, characterData: true, attributes: true });
});
// The time of every message the page's workers send (marimo's kernel runs in one): where a
// recompute's time goes, before the kernel answers, in Python, and drawing after its last word.
window.__benchMessages = [];
// The time the page receives each change (a select's composed input event, captured before the
// page's own handlers): a change is timed from there, so the driver's own latency (Playwright's
// checks and round trips before it dispatches the event) counts in neither of two updates.
window.__benchInputs = [];
window.addEventListener("input", () => window.__benchInputs.push(performance.now()), true);
// The first time the kernel says each of BOOT (its messages begin '{"op": "NAME"'): where a
// page's start goes (``Start``).
window.__benchBoot = {};
const BOOT = ["kernel-ready", "notebook-document-transaction", "cell-op", "completed-run"];
const BenchWorker = window.Worker;
window.Worker = function (...args) {
  const worker = new BenchWorker(...args);
  worker.addEventListener("message", (event) => {
    const now = performance.now();
    window.__benchMessages.push(now);
    const message = event.data && event.data.data && event.data.data.payload;
    const text = message && typeof message.message === "string" ? message.message : "";
    const op = text.startsWith('{"op": "') ? text.slice(8, text.indexOf('"', 8)) : "";
    if (BOOT.includes(op) && !(op in window.__benchBoot)) window.__benchBoot[op] = now;
  });
  return worker;
};
window.Worker.prototype = BenchWorker.prototype;"""
QUIET = f"() => performance.now() - window.__benchLast >= {QUIET_MS}"
# After a change made since ``start``: the page's last change, the kernel's first and its last
# message, each in ms after the page received the change (its first input event since
# ``start``); null if no input event came.
MESSAGES = """start => {
  const origin = window.__benchInputs.find((t) => t >= start);
  if (origin === undefined) return null;
  const times = window.__benchMessages.filter((t) => t >= origin);
  const last = window.__benchLast - origin;
  if (!times.length) return [last, last, last];
  return [last, times[0] - origin, times[times.length - 1] - origin];
}"""


class Update(NamedTuple):
    """One change's update, in ms from the moment the page received it (its input event): the
    page's last change (``total``); the kernel's first and last message (``answer``,
    ``spoken``): before ``answer`` the change travels to the kernel, until ``spoken`` Python
    runs the cells, after it the page draws."""

    total: float
    answer: float
    spoken: float


class Start(NamedTuple):
    """Where one load's start went, in ms, from the kernel's first message of each kind
    (``WATCH``): navigation to the kernel ready (``ready``: Pyodide and marimo started, the
    notebook read); then to marimo's first word on the notebook's cells (``setup``: the
    packages the notebook imports loaded, the kernel asked to run); then to the first cell's
    status (``compile``: marimo compiles every cell and renders the Markdown-only ones); then to
    the run's end (``run``: every cell, marimo's work between them included); then to the page's
    last change (``drawing``: the outputs drawn after the kernel's last word; 0 when drawn
    before it)."""

    ready: float
    setup: float
    compile: float
    run: float
    drawing: float


def start_of(page, live_s: float) -> Start:  # type: ignore[no-untyped-def]
    """``Start`` of the page just booted, which went live ``live_s`` s after navigation."""
    boot = page.evaluate("window.__benchBoot")
    missing = [
        op
        for op in ("kernel-ready", "notebook-document-transaction", "cell-op", "completed-run")
        if op not in boot
    ]
    if missing:
        raise SystemExit(f"{page.url}: marimo's kernel never said {', '.join(missing)}")
    ready, document = boot["kernel-ready"], boot["notebook-document-transaction"]
    cell, over = boot["cell-op"], boot["completed-run"]
    return Start(
        ready, document - ready, cell - document, over - cell, max(live_s * 1000 - over, 0)
    )


def starts(lesson: list[Start], trivial: list[Start]) -> str:
    """Medians of each part of ``Start``, the lesson's, then the trivial page's."""
    return ", ".join(
        f"{name} {statistics.median(getattr(s, name) for s in lesson):.0f} "
        f"({statistics.median(getattr(s, name) for s in trivial):.0f})"
        for name in Start._fields
    )


def own_start(lesson: list[Start], trivial: list[Start]) -> float:
    """The ms a lesson's start takes over the trivial page's once marimo's kernel is ready (the
    medians of ``setup``, ``compile``, ``run`` and ``drawing``, the lesson's less the trivial
    page's). Until the kernel is ready both pages run the same code but for reading the notebook
    (Pyodide and marimo starting: lesson 1's bare page 5.71 s and 5.75 s, the trivial page 5.69 s
    and 5.76 s, medians of two runs of 6 and 8 rounds alternating, exports/README.md), yet three
    loads of each set that part of the two apart by up to 0.7 s on a busy machine; what follows
    is the lesson's own."""
    after = ("setup", "compile", "run", "drawing")
    return sum(
        statistics.median(getattr(s, name) for s in lesson)
        - statistics.median(getattr(s, name) for s in trivial)
        for name in after
    )


def split(updates: list[Update]) -> str:
    """Medians of where an update's time goes: to the kernel, in it, drawing after it."""
    answer = statistics.median(u.answer for u in updates)
    python = statistics.median(u.spoken - u.answer for u in updates)
    # The kernel's last word (its idle status) may come after the page's last change: then the
    # page had nothing left to draw.
    drawing = statistics.median(max(u.total - u.spoken, 0) for u in updates)
    return f"{answer:.0f}/{python:.0f}/{drawing:.0f}"


def probe_copy(lesson: Lesson, folder: Path, extra: str = "", site_dir: str = "") -> Lesson:
    """``lesson`` exported with the probe cells added, then ``extra`` cells (a copy, as the
    build makes its copies), at ``site_dir`` in the site (``bench/<slug>`` by default)."""
    from copies import write_copy

    assert lesson.info is not None
    copy = write_copy(lesson.path, folder / lesson.slug, lesson.title)
    text = copy.read_text(encoding="utf-8")
    marker = '\nif __name__ == "__main__":'
    if text.count(marker) != 1:
        raise SystemExit(f"{lesson.slug}: no single `if __name__ == '__main__':`")
    copy.write_text(text.replace(marker, PROBE_CELLS + extra + marker), encoding="utf-8")
    return Lesson(
        copy, lesson.slug, lesson.number, lesson.title, "", site_dir or f"bench/{lesson.slug}"
    )


def settle_ms(page, act) -> float:  # type: ignore[no-untyped-def]
    """Milliseconds from ``act()`` to the page's last change (then quiet for QUIET_MS)."""
    page.wait_for_function(QUIET, timeout=TIMEOUT_MS)
    start = float(page.evaluate("performance.now()"))
    act()
    page.wait_for_timeout(100)
    page.wait_for_function(QUIET, timeout=TIMEOUT_MS, polling=100)
    return float(page.evaluate("window.__benchLast")) - start


LABEL = "el => ((el.labels && el.labels[0] && el.labels[0].innerText) || el.id).trim()"
PROBE = "[data-bench-probe] select"
"""The probe's dropdown (``PROBE_CELLS``), inside its wrapper's control's shadow root."""
IN_PROBE = """el => {
  for (let node = el; node; node = node.parentElement ?? node.getRootNode().host)
    if (node.matches?.("[data-bench-probe]")) return true;
  return false;
}"""
"""Whether an element is inside the probe's wrapper, across the shadow roots between them."""


def change(page, select) -> Update:  # type: ignore[no-untyped-def]
    """How long the page takes to redraw after ``select`` takes another option, timed from the
    moment the page receives the change, and where the time goes (``Update``). Timed from
    before Playwright's ``select_option`` instead, both a trivial cell's and a lesson's update
    carried the driver's own 50-90 ms, which made their ratio look smaller than a reader's."""
    page.wait_for_function(QUIET, timeout=TIMEOUT_MS)
    start = float(page.evaluate("performance.now()"))
    settle_ms(page, lambda: select.select_option(other_option(select)))
    said = page.evaluate(MESSAGES, start)
    if said is None:
        label = select.evaluate(LABEL)
        raise SystemExit(f"{page.url}: changing {label!r} dispatched no input event")
    return Update(*(float(ms) for ms in said))


def other_option(select) -> str:  # type: ignore[no-untyped-def]
    options = select.evaluate("el => [...el.options].map((o) => o.value)")
    current = select.evaluate("el => el.value")
    return str(next(value for value in options if value != current))


def booted(browser, url: str, ready: str):  # type: ignore[no-untyped-def]
    """A fresh context's page at ``url``, and the seconds from navigation to its last change
    once ``ready`` (the page's last cell's output) is there: every cell has drawn."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    guard = LoopbackGuard()
    guard.install(context)
    context.add_init_script(WATCH)
    page = context.new_page()
    page.goto(url)
    # Asked every POLL_MS, not by a locator wait, which walks the page's document every frame
    # (SHOWN): ``ready`` is a selector of the page's own document.
    page.wait_for_function(
        "(ready) => document.querySelector(ready) !== null",
        arg=ready,
        timeout=TIMEOUT_MS,
        polling=POLL_MS,
    )
    page.wait_for_function(QUIET, timeout=TIMEOUT_MS, polling=100)
    if guard.blocked:
        raise SystemExit(f"{url} made third-party requests: {guard.blocked[:3]}")
    return context, page, float(page.evaluate("window.__benchLast")) / 1000


def select_of(locator):  # type: ignore[no-untyped-def]
    """The ``<select>`` of a labelled dropdown (the label may name its wrapper)."""
    return (
        locator if locator.evaluate("el => el.tagName") == "SELECT" else locator.locator("select")
    )


def skip_predicting(page) -> None:  # type: ignore[no-untyped-def]
    """Switch "Skip predicting" on where the lesson has it, so its dropdown recomputes what it
    shows (not only a waiting note)."""
    skip = page.get_by_role("switch", name="Skip predicting")
    if skip.count():
        settle_ms(page, skip.first.click)


def lesson_dropdown(page, extra: tuple[str, ...] = ()):  # type: ignore[no-untyped-def]
    """The lesson's first visible dropdown outside a form (the one a recompute is timed on),
    none of the bench's own (the probe's, and those labelled as ``extra`` names); None if it has
    none."""
    selects = [
        select
        for select in page.locator("select:visible").all()
        if select.evaluate("el => !el.closest('marimo-form')")
        and not select.evaluate(IN_PROBE)
        and select.evaluate(LABEL) not in extra
    ]
    return selects[0] if selects else None


LessonLoad = tuple[float, Start, list[Update], list[Update], str]


def lesson_speed(browser, url: str, repeats: int) -> LessonLoad:  # type: ignore[no-untyped-def]
    """Seconds to interactive and where they went; the probe's and the lesson dropdown's update
    times (ms); its label."""
    context, page, live = booted(browser, url, "[data-bench-echo]")
    start = start_of(page, live)
    skip_predicting(page)
    probe_select = page.locator(PROBE)
    control = lesson_dropdown(page)
    label = control.evaluate(LABEL) if control is not None else ""
    trivial: list[Update] = []
    recompute: list[Update] = []
    for _ in range(repeats):
        trivial.append(change(page, probe_select))
        if control is not None:
            recompute.append(change(page, control))
    context.close()
    return live, start, trivial, recompute, label


def trivial_seconds(browser, url: str) -> tuple[float, Start]:  # type: ignore[no-untyped-def]
    """Seconds to interactive of the trivial page, in a fresh context (``booted``), and where
    they went."""
    context, page, seconds = booted(browser, f"{url}bench/trivial/", "[data-bench-ready]")
    start = start_of(page, seconds)
    context.close()
    return seconds, start


def speed_report(browser, url: str, probes: list[Lesson], runs: int, repeats: int) -> None:  # type: ignore[no-untyped-def]
    """Per lesson: interactive vs the trivial page (loaded alternately, same method), and the
    dropdown's recompute vs the probe's update on the same page; medians."""
    for lesson in probes:
        # The trivial page's loads beside this lesson's, alternating which comes first: the
        # lesson's interactive time is set against these, each load against its neighbour
        # (the machine's load drifts over a bench of half an hour; a median of every lesson's
        # trivial loads so far set a lesson's three loads against other minutes').
        trivial_live: list[float] = []
        lives: list[float] = []
        trivial_starts: list[Start] = []
        lesson_starts: list[Start] = []
        trivial: list[Update] = []
        recompute: list[Update] = []
        # Each load's first change of the control: the first pick of a choice, which may make
        # what a return to it finds made (course.warmup.warm makes it as the page starts).
        first: list[float] = []
        # Each load's recompute / trivial cell: how far one load's ratio strays from the median.
        per_load: list[float] = []
        label = ""
        for run in range(runs):
            if run % 2 == 0:
                trivial_s, trivial_start = trivial_seconds(browser, url)
                measured = lesson_speed(browser, f"{url}{lesson.site_dir}/", repeats)
            else:
                measured = lesson_speed(browser, f"{url}{lesson.site_dir}/", repeats)
                trivial_s, trivial_start = trivial_seconds(browser, url)
            trivial_live.append(trivial_s)
            trivial_starts.append(trivial_start)
            live, lesson_start, probe_ms, control_ms, label = measured
            lives.append(live)
            lesson_starts.append(lesson_start)
            trivial += probe_ms
            recompute += control_ms
            first += [control_ms[0].total] if control_ms else []
            if control_ms:
                per_load.append(
                    statistics.median(u.total for u in control_ms)
                    / statistics.median(u.total for u in probe_ms)
                )
        base = statistics.median(trivial_live)
        pairs = [live / trivial for live, trivial in zip(lives, trivial_live, strict=True)]
        line = (
            f"export: {lesson.slug:<28} interactive {statistics.median(lives):6.2f} s "
            f"({statistics.median(lives) / base:4.2f}x trivial {base:5.2f} s, goal <= 1.2x; "
            f"each load {', '.join(f'{ratio:.2f}x' for ratio in pairs)})"
        )
        if recompute:
            cell = statistics.median(u.total for u in trivial)
            control = statistics.median(u.total for u in recompute)
            line += (
                f"; recompute of '{label[:30]}' {control:6.0f} ms vs a trivial cell {cell:4.0f} "
                f"ms: {control / cell:5.2f}x (goal <= 3x; {len(recompute)} changes; the first "
                f"after the page is live {statistics.median(first):4.0f} ms; each load "
                f"{', '.join(f'{ratio:.2f}x' for ratio in per_load)}); "
                f"to the kernel/in Python/drawing {split(recompute)} vs {split(trivial)} ms"
            )
        else:
            line += "; no dropdown outside a form to change"
        print(line, flush=True)
        own = own_start(lesson_starts, trivial_starts)
        print(
            f"export: {lesson.slug:<28} its start, ms (the trivial page's): "
            f"{starts(lesson_starts, trivial_starts)}; its own {own:+.0f} ms once the kernel is "
            f"ready, {(base * 1000 + own) / (base * 1000):4.2f}x the trivial page's median",
            flush=True,
        )


def kernel_start(site: Path, notebook: Path) -> tuple[float, float]:
    """Milliseconds of ``notebook``'s kernel start under Node on ``site``'s Pyodide
    (``kernel_start.mjs``): instantiating to ``completed-run``, and of it the Markdown-only
    cells rendered."""
    done = subprocess.run(
        [node_or_stop(), str(KERNEL_SCRIPT), str(site), str(notebook)],
        capture_output=True,
        text=True,
        timeout=TIMEOUT_MS / 1000,
    )
    lines = done.stdout.strip().splitlines()
    if done.returncode != 0 or not lines:
        raise SystemExit(f"kernel_start.mjs {notebook.name}: {(done.stderr or done.stdout)[-800:]}")
    said = json.loads(lines[-1])
    return float(said["run_ms"]), float(said["markdown_ms"])


def kernel_report(site: Path, lessons: list[Lesson], tmp: Path, runs: int) -> None:
    """Per lesson, its kernel's start under Node against the trivial notebook's, alternating,
    ``runs`` each: medians, the lesson's own (the difference), the ratio, and the Markdown-only
    cells' part."""
    trivial = tmp / "trivial_kernel.py"
    trivial.write_text(TRIVIAL, encoding="utf-8")
    for lesson in lessons:
        mine: list[tuple[float, float]] = []
        base: list[tuple[float, float]] = []
        for run in range(runs):
            pair = [(base, trivial), (mine, lesson.path)]
            for samples, notebook in pair if run % 2 == 0 else pair[::-1]:
                samples.append(kernel_start(site, notebook))
        run_ms = statistics.median(ms for ms, _ in mine)
        base_ms = statistics.median(ms for ms, _ in base)
        markdown = statistics.median(md for _, md in mine)
        print(
            f"export: {lesson.slug:<28} kernel start under Node {run_ms:6.0f} ms (trivial notebook "
            f"{base_ms:4.0f} ms: its own {run_ms - base_ms:+5.0f} ms, {run_ms / base_ms:4.2f}x); "
            f"Markdown-only cells {markdown:3.0f} ms; {runs} runs each"
        )


def export_speed_pages(site: Path, lessons: list[Lesson], wheel: Path, tmp: Path) -> list[Lesson]:
    """The trivial page and each lesson's probe copy, exported into ``site/bench/``."""
    notebook = tmp / "trivial_wasm.py"
    notebook.write_text(TRIVIAL, encoding="utf-8")
    trivial = Lesson(notebook, "trivial", "", "Trivial page", "", "bench/trivial")
    (site / trivial.site_dir).mkdir(parents=True, exist_ok=True)
    # The trivial page is marimo's own: it starts its kernel worker as marimo does.
    export_wasm(trivial, site / trivial.site_dir, wheel, early=False)
    probes = [probe_copy(lesson, tmp / "probes") for lesson in lessons]
    for probe in probes:
        (site / probe.site_dir).mkdir(parents=True, exist_ok=True)
        export_wasm(probe, site / probe.site_dir, wheel)
    return probes


def site_lesson_chromium(
    parser: argparse.ArgumentParser, site: Path, number: str
) -> tuple[Path, Lesson, str]:
    """What a bench run by hand on one lesson needs (`page_profile.py`, `page_cpu.py`): the
    library's wheel of ``site`` (a site built before), the lesson numbered ``number``, and
    Chromium. A wrong option stops in one line naming what is accepted (exit 2); no Chromium,
    in one line saying how to install it."""
    wheels = sorted(site.glob("wheels/asyncfail-*.whl"))
    if not wheels:
        parser.error(f"--site {site}: no wheels/asyncfail-*.whl (build the site first)")
    known = {lesson.number: lesson for lesson in discover()}
    if number not in known:
        parser.error(f"--lesson {number}: not one of {', '.join(known)}")
    chromium = find_chromium()
    if chromium is None:
        raise SystemExit(f"{Path(parser.prog).stem}: needs Chromium (apt-get install chromium)")
    return wheels[0], known[number], chromium


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", type=Path, help="a site built before (its bench/ is rewritten)")
    parser.add_argument(
        "--speed-only", action="store_true", help="only the per-lesson WebAssembly speed ratios"
    )
    parser.add_argument(
        "--offline-only",
        action="store_true",
        help="only lesson 1's first and second (offline) visits",
    )
    parser.add_argument(
        "--kernel-only", action="store_true", help="only the per-lesson kernel starts under Node"
    )
    parser.add_argument(
        "--lesson",
        action="append",
        metavar="NN",
        help="with --speed-only or --kernel-only, only this lesson (its number, as 06; repeat)",
    )
    args = parser.parse_args()
    if sum((args.speed_only, args.offline_only, args.kernel_only)) > 1:
        parser.error("--speed-only, --offline-only and --kernel-only: choose one")
    if args.lesson and not (args.speed_only or args.kernel_only):
        parser.error(
            "--lesson needs --speed-only or --kernel-only (the other figures are lesson 1's and "
            "the site's)"
        )
    if LINK_RUNS > 0 and not LINK_MBPS > 0:
        parser.error(f"BENCH_LINK_MBPS={LINK_MBPS:g}: a positive number of megabits a second")
    chromium = find_chromium()
    with tempfile.TemporaryDirectory() as tmp:
        if args.site:
            site = args.site
            report = BuildReport(site, pages=discover())
        else:
            site = Path(tmp) / "site"
            start = time.perf_counter()
            report = build_site(site, log=lambda _msg: None, pictures=chromium is not None)
            build_s = time.perf_counter() - start
            size = sum(p.stat().st_size for p in site.rglob("*") if p.is_file())
            print(f"export: site build ({len(report.pages)} pages)      {build_s:8.1f} s")
            print(f"export: site total size                {size / 1e6:8.1f} MB  (goal < 60 MB)")
        wheels = sorted(site.glob("wheels/asyncfail-*.whl"))
        for wheel in wheels:
            print(f"export: asyncfail wheel                {wheel.stat().st_size / 1e3:8.1f} kB")
        if args.offline_only:
            if chromium is None:
                parser.error("--offline-only needs Chromium (apt-get install chromium)")
            offline_report(chromium, site, report.pages[0], OFFLINE_RUNS)
            return
        pages = report.pages
        if args.lesson:
            known = {lesson.number: lesson for lesson in report.pages}
            unknown = sorted(set(args.lesson) - set(known))
            if unknown:
                parser.error(f"--lesson {', '.join(unknown)}: not one of {', '.join(known)}")
            pages = [known[number] for number in sorted(set(args.lesson))]
        if not args.speed_only:
            if KERNEL_RUNS > 0:
                kernel_report(site, pages, Path(tmp), KERNEL_RUNS)
            if args.kernel_only:
                return
        probes = export_speed_pages(site, pages, wheels[0], Path(tmp))

        if chromium is None:
            print("export: WebAssembly start-up skipped (apt-get install chromium to measure)")
            return
        from playwright.sync_api import sync_playwright

        if args.speed_only:
            with serving(site) as url, sync_playwright() as playwright:
                browser = launch(playwright, chromium)
                speed_report(browser, url, probes, SPEED_RUNS, SPEED_REPEATS)
                browser.close()
            return

        samples: dict[str, list[tuple[float, float, float]]] = {"trivial": [], "lab": []}
        with serving(site) as url, sync_playwright() as playwright:
            browser = launch(playwright, chromium)
            lab = report.pages[0]
            pages = {
                "trivial": (f"{url}bench/trivial/", None),
                "lab": (f"{url}{lab.site_dir}/", lab.title),
            }
            for run in range(RUNS):
                order = ["trivial", "lab"] if run % 2 == 0 else ["lab", "trivial"]
                for name in order:
                    samples[name].append(load(browser, *pages[name]))
            browser.close()
        lab_first, lab_live, lab_seen = (
            list(column) for column in zip(*samples["lab"], strict=True)
        )
        baseline = [first for first, _, _ in samples["trivial"]]
        report_line("first content", lab_first, baseline, "goal well under 1x")
        report_line("interactive", lab_live, baseline, "goal <= 1.2x")
        seen = [seen for _, _, seen in samples["trivial"]]
        report_line("harness saw", lab_seen, seen, f"interactive by a check every {POLL_MS} ms")
        if LINK_RUNS > 0:
            link_report(site, LINK_MBPS, LINK_RUNS)

        with serving(site) as url, sync_playwright() as playwright:
            browser = launch(playwright, chromium)
            for lesson in report.pages:
                runs = [snapshot_figures(browser, f"{url}{lesson.site_dir}/static.html")]
                runs += [snapshot_figures(browser, f"{url}{lesson.site_dir}/static.html")]
                paint = statistics.median(r[0] for r in runs)
                print(
                    f"export: {lesson.slug:<26} snapshot first content {paint:5.2f} s, "
                    f"{runs[0][1]} request(s) (goal < 0.5 s, a handful)"
                )
            browser.close()
        offline_report(chromium, site, report.pages[0], OFFLINE_RUNS)
        with serving(site) as url, sync_playwright() as playwright:
            browser = launch(playwright, chromium)
            speed_report(browser, url, probes, SPEED_RUNS, SPEED_REPEATS)
            browser.close()


if __name__ == "__main__":
    main()
