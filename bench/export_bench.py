"""Benchmarks of the published site (`make bench`): medians and ratios, never pass/fail.

- build time of the whole site, its total size and the size of the asyncfail wheel it ships;
- lesson 1's interactive page, from navigation to
  - first content: the lesson's title drawn in the page's preview (its static snapshot, shown
    while Python starts; exports/preview.py);
  - interactive: the live app has replaced the preview and shows its first result (the JSON
    `asyncfail lab` prints, computed in the browser);
  each as a ratio to a trivial marimo WebAssembly page served from the same site in the same
  browser run, whose first output is both its first content and the moment it is interactive
  (goals: first content well under 1x, the point of the preview; interactive within 1.2x, the
  library, its wheel and the preview must add little to start-up).
Each load runs in a fresh browser context (cold cache); the two pages alternate so machine noise
hits both alike. Needs Debian's Chromium (`apt-get install chromium`), as the build does.

Then, per lesson, its static snapshot (the document, exports/document.py): first contentful
paint and requests, from a local server, cold (goal: under 0.5 s, a handful of requests); and
lesson 1 opened twice in one browser, the second time with the server gone (offline, from the
site's service worker): seconds to live, each visit. `BENCH_RUNS=N` sets the runs (default 5).
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "exports"))

from browser import LoopbackGuard, find_chromium, launch  # noqa: E402
from build import build_site, export_wasm  # noqa: E402
from lessons import Lesson  # noqa: E402
from serve import serving  # noqa: E402

RUNS = int(os.environ.get("BENCH_RUNS", "5"))
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


def lab_seconds(page, title: str, start: float) -> tuple[float, float]:  # type: ignore[no-untyped-def]
    """The preview's title, then the live app's first result."""
    preview = page.frame_locator("#lesson-preview iframe")
    preview.get_by_role("heading", name=title).wait_for(timeout=TIMEOUT_MS)
    first = time.perf_counter() - start
    page.wait_for_selector('html[data-lesson-state="live"]', state="attached", timeout=TIMEOUT_MS)
    page.locator("text=JSON printed by").first.wait_for(timeout=TIMEOUT_MS)
    return first, time.perf_counter() - start


def load(browser, url: str, title: str | None) -> tuple[float, float]:  # type: ignore[no-untyped-def]
    """Seconds from navigation to (first content, interactive), in a fresh context."""
    context = browser.new_context()
    guard = LoopbackGuard()
    guard.install(context)
    page = context.new_page()
    start = time.perf_counter()
    page.goto(url)
    if title is None:
        # First content and interactive are one moment: the output of its one cell.
        page.locator("[data-bench-ready]").first.wait_for(timeout=TIMEOUT_MS)
        first = interactive = time.perf_counter() - start
    else:
        first, interactive = lab_seconds(page, title, start)
    context.close()
    if guard.blocked:
        raise SystemExit(f"{url} made third-party requests: {guard.blocked[:3]}")
    return first, interactive


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
    """Seconds to live: lesson opened online, then again with the server gone."""
    context = browser.new_context()
    live = 'html[data-lesson-state="live"]'

    def visit(url: str) -> float:
        page = context.new_page()
        start = time.perf_counter()
        page.goto(url)
        page.wait_for_selector(live, state="attached", timeout=TIMEOUT_MS)
        seconds = time.perf_counter() - start
        return seconds

    with serving(site) as url:
        target = f"{url}{lesson.site_dir}/"
        first = visit(target)
        context.pages[-1].wait_for_selector(
            'html[data-offline="kept"]', state="attached", timeout=TIMEOUT_MS
        )
    second = visit(target)
    context.close()
    return first, second


def main() -> None:
    chromium = find_chromium()
    with tempfile.TemporaryDirectory() as tmp:
        site = Path(tmp) / "site"
        start = time.perf_counter()
        report = build_site(site, log=lambda _msg: None, pictures=chromium is not None)
        build_s = time.perf_counter() - start
        size = sum(p.stat().st_size for p in site.rglob("*") if p.is_file())
        wheels = sorted(site.glob("wheels/asyncfail-*.whl"))
        print(f"export: site build ({len(report.pages)} pages)      {build_s:8.1f} s")
        print(f"export: site total size                {size / 1e6:8.1f} MB  (goal < 60 MB)")
        for wheel in wheels:
            print(f"export: asyncfail wheel                {wheel.stat().st_size / 1e3:8.1f} kB")

        notebook = Path(tmp) / "trivial_wasm.py"
        notebook.write_text(TRIVIAL, encoding="utf-8")
        trivial = Lesson(notebook, "trivial", "", "Trivial page", "", "bench/trivial")
        (site / trivial.site_dir).mkdir(parents=True)
        export_wasm(trivial, site / trivial.site_dir, wheels[0])

        if chromium is None:
            print("export: WebAssembly start-up skipped (apt-get install chromium to measure)")
            return
        from playwright.sync_api import sync_playwright

        samples: dict[str, list[tuple[float, float]]] = {"trivial": [], "lab": []}
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
        lab_first, lab_live = (list(column) for column in zip(*samples["lab"], strict=True))
        baseline = [first for first, _ in samples["trivial"]]
        report_line("first content", lab_first, baseline, "goal well under 1x")
        report_line("interactive", lab_live, baseline, "goal <= 1.2x")

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
        with sync_playwright() as playwright:
            browser = launch(playwright, chromium)
            first, second = offline_second_visit(browser, site, report.pages[0])
            browser.close()
        print(
            f"export: lesson 1 live, first visit {first:6.2f} s; second visit offline "
            f"{second:6.2f} s ({second / first:4.2f}x)"
        )


if __name__ == "__main__":
    main()
