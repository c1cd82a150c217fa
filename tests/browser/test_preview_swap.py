"""When the preview makes way for the live app (exports/preview/preview.js), on a small page of
its own: a stand-in for marimo's app (outputs the test draws) and for its kernel (a worker that
speaks as marimo's does when asked). The real lesson is checked booting in test_site.py."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "exports"))

from preview import RUNTIME_FILES, with_preview  # noqa: E402
from serve import serving  # noqa: E402

pytestmark = pytest.mark.browser

LIVE = 'html[data-lesson-state="live"]'
SNAPSHOT = """<!doctype html><html lang="en"><head><title>Snapshot</title></head><body>
<h1>A lesson</h1><div id="output-a">a</div><div id="output-b">b</div></body></html>"""
# The page marimo exports, reduced to what the preview reads: its mirror, its app (drawn by the
# test) and its kernel's worker, started by a module script as marimo's page starts it (after
# every classic script, the preview's included). The native Worker is kept to compare.
PAGE = """<!doctype html><html lang="en"><head><title>Live</title>
<script>window.NativeWorker = window.Worker;</script></head><body>
<marimo-wasm data-pyodide-index-url="../pyodide/" hidden></marimo-wasm>
<div id="App"></div>
<script type="module">window.kernel = new Worker("kernel.js");</script>
</body></html>"""
# marimo 0.25.2's kernel messages as its worker posts them to the page (seen on a lesson's
# page); test_site.py checks that a real lesson's kernel still says its run is over this way.
# Asked "say:TEXT", it says TEXT as marimo's worker tells the page what it loads.
KERNEL = """onmessage = (event) => postMessage({
  "[transport-id]": "marimo-transport",
  data: event.data.startsWith("say:")
    ? { type: "message", id: "initializingMessage", payload: { message: event.data.slice(4) } }
    : { type: "message", id: "kernelMessage",
        payload: { message: `{"op": "${event.data}", "data": {"op": "${event.data}"}}` } },
});"""
# The packages the stand-in page's kernel would load: one in the mirror, one beside it.
PREFETCH = ("one.whl", "../wheels/lib.whl")
# Every wheel the page itself fetched, as the page's timeline saw them.
FETCHED = """() => performance.getEntriesByType("resource")
  .filter((entry) => entry.initiatorType === "fetch" && entry.name.endsWith(".whl"))
  .map((entry) => entry.name)"""
DRAW = """(ids) => {
  const app = document.getElementById("App");
  app.dataset.connectionState = "OPEN";
  for (const id of ids) {
    const output = document.createElement("div");
    output.id = `output-${id}`;
    output.textContent = id;
    app.append(output);
  }
}"""
# The app keeps changing, so it is never quiet for the preview's moment (200 ms).
BUSY = """() => { let tick = 0;
  setInterval(() => (document.getElementById("App").dataset.tick = ++tick), 20); }"""
SETTLE_S = 2  # preview.js: every output drawn, the app still changing: shown after this long
STATE = "document.documentElement.dataset.lessonState"


@contextmanager
def preview_page(browser: Any, tmp_path: Path) -> Iterator[Any]:
    """The small page, served, loaded in a fresh context."""
    site = tmp_path / "site"
    (site / "pyodide").mkdir(parents=True)
    for name in RUNTIME_FILES:
        (site / "pyodide" / name).write_text("present", encoding="utf-8")
    for name in PREFETCH:
        (site / "pyodide" / name).parent.mkdir(parents=True, exist_ok=True)
        (site / "pyodide" / name).write_bytes(b"a wheel")
    lesson = site / "lesson"
    lesson.mkdir()
    (lesson / "static.html").write_text(SNAPSHOT, encoding="utf-8")
    (lesson / "kernel.js").write_text(KERNEL, encoding="utf-8")
    page_text = with_preview(PAGE, "test", "static.html", "static.html", prefetch=PREFETCH)
    (lesson / "index.html").write_text(page_text, encoding="utf-8")
    context = browser.new_context()
    try:
        with serving(site) as url:
            page = context.new_page()
            page.goto(f"{url}lesson/")
            page.frame_locator("#lesson-preview iframe").locator("#output-b").wait_for()
            page.wait_for_function("() => window.kernel !== undefined")
            yield page
    finally:
        context.close()


def test_the_kernels_word_that_its_run_is_over_ends_the_wait_at_once(
    browser: Any, tmp_path: Path
) -> None:
    """Every output drawn and the kernel's run over, the preview goes, though the app is never
    quiet (waiting for quiet, it would have stayed for SETTLE_S); the page's workers are
    marimo's own again."""
    with preview_page(browser, tmp_path) as page:
        page.evaluate(BUSY)
        page.evaluate(DRAW, ["a", "b"])
        page.evaluate("() => kernel.postMessage('completed-run')")
        page.wait_for_selector(LIVE, state="attached", timeout=SETTLE_S * 1000 * 3 // 4)
        assert page.locator("#lesson-preview").count() == 0
        assert page.evaluate("() => window.Worker === window.NativeWorker")


def test_the_kernels_word_waits_for_every_output_the_preview_shows(
    browser: Any, tmp_path: Path
) -> None:
    """The run said to be over while an output the preview shows is not drawn yet (and the app
    never quiet), the preview stays; the output drawn, it goes. Other messages say nothing."""
    with preview_page(browser, tmp_path) as page:
        page.evaluate(BUSY)
        page.evaluate(DRAW, ["a"])
        page.evaluate("() => kernel.postMessage('cell-op')")
        page.evaluate("() => kernel.postMessage('completed-run')")
        # Longer than SETTLE_S: nothing but the missing output holds the preview.
        page.wait_for_timeout(SETTLE_S * 1000 + 500)
        assert page.evaluate(STATE) == "starting"
        page.evaluate(DRAW, ["b"])
        page.wait_for_selector(LIVE, state="attached", timeout=SETTLE_S * 1000 * 3 // 4)


def test_without_the_kernels_word_a_quiet_moment_still_ends_the_wait(
    browser: Any, tmp_path: Path
) -> None:
    """A kernel that never says its run is over (a marimo that speaks otherwise): every output
    drawn and the app quiet, the preview goes as it did before it listened."""
    with preview_page(browser, tmp_path) as page:
        page.evaluate("() => kernel.postMessage('cell-op')")
        page.evaluate(DRAW, ["a", "b"])
        page.wait_for_selector(LIVE, state="attached", timeout=10_000)
        assert page.locator("#lesson-preview").count() == 0


def test_the_packages_are_fetched_once_marimo_loads_the_notebook(
    browser: Any, tmp_path: Path
) -> None:
    """While marimo's worker loads marimo, the page asks for nothing (the link is Pyodide's and
    marimo's); once it says it loads the notebook, the page fetches each package its kernel will
    load, once, however often it says so."""
    with preview_page(browser, tmp_path) as page:
        page.evaluate("() => kernel.postMessage('say:Loading marimo...')")
        page.wait_for_timeout(500)
        assert page.evaluate(FETCHED) == []
        for _ in range(2):
            page.evaluate("() => kernel.postMessage('say:Loading notebook and dependencies...')")
        page.wait_for_function(f"() => ({FETCHED})().length >= {len(PREFETCH)}")
        page.wait_for_timeout(500)
        origin = page.url.removesuffix("lesson/")
        assert sorted(page.evaluate(FETCHED)) == [
            f"{origin}pyodide/one.whl",
            f"{origin}wheels/lib.whl",
        ]
