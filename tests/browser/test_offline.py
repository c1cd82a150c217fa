"""Offline on the second visit: a reader who opened a lesson once opens it again with the
network off (the site's service worker, exports/offline.py). Both visits are timed to "live"
and reported (the figures, not a pass mark: `make bench` measures; tests never time)."""

from __future__ import annotations

import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "exports"))

from build import BuildReport  # noqa: E402
from lessons import discover  # noqa: E402
from serve import serving  # noqa: E402

pytestmark = pytest.mark.browser

LAB = discover()[0]
LIVE = 'html[data-lesson-state="live"]'
KEPT = 'html[data-offline="kept"]'
# Bounds of each phase: a Pyodide boot on a busy two-core machine takes minutes, not seconds.
BOOT_WAIT_S = 300
KEEP_WAIT_S = 180
# What the page and its service worker say when a phase runs out of time.
STATE = """async () => {
  const root = document.documentElement;
  const note = document.querySelector('#lesson-preview > p');
  const reg = navigator.serviceWorker && await navigator.serviceWorker.getRegistration();
  return { lesson: root.dataset.lessonState || null, offline: root.dataset.offline || null,
           note: note ? note.innerText : null,
           controlled: Boolean(navigator.serviceWorker && navigator.serviceWorker.controller),
           worker: reg ? { active: reg.active && reg.active.state,
                           installing: reg.installing && reg.installing.state,
                           waiting: reg.waiting && reg.waiting.state } : null,
           caches: await Promise.all((await caches.keys()).map(async (name) =>
             [name, (await (await caches.open(name)).keys()).length])) };
}"""

# The test's own count of what a page loads (a performance observer gets every entry; the
# page's timeline keeps the first 250), and which of those same-site files no cache holds.
COUNT_LOADED = """window.__loaded = new Set();
new PerformanceObserver((list) => list.getEntries().forEach((e) => window.__loaded.add(e.name)))
  .observe({ type: "resource", buffered: true });"""
NOT_KEPT = """async () => {
  const missing = [];
  for (const url of window.__loaded) {
    if (new URL(url).origin === location.origin && !(await caches.match(url))) missing.push(url);
  }
  return missing;
}"""


def not_kept(page: Any) -> list[str]:
    return list(page.evaluate(NOT_KEPT))


class Phases:
    """Each phase's time, and a bounded wait that says on failure which phase ran out, after
    how long, what came before, and what the page and its service worker were doing."""

    def __init__(self) -> None:
        self.times: dict[str, float] = {}
        self.errors: list[str] = []

    def watch(self, page: Any) -> Any:
        page.on("console", lambda m: m.type == "error" and self.errors.append(m.text))
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        return page

    def wait(self, name: str, page: Any, selector: str, seconds: float, since: float) -> None:
        try:
            page.wait_for_selector(selector, state="attached", timeout=seconds * 1000)
        except PlaywrightTimeout:
            try:
                state = page.evaluate(STATE)
            except PlaywrightError as error:
                state = f"(page state unreadable: {error})"
            pytest.fail(
                f"{name}: {selector} not reached within {seconds} s; phases before: "
                f"{self.times}; page: {state}; console errors: {self.errors[-5:]}",
                pytrace=False,
            )
        self.times[name] = round(time.monotonic() - since, 1)


def test_a_lesson_opened_once_opens_again_with_the_network_off(
    browser: Any, built_site: BuildReport, record_property: Any
) -> None:
    # No request routing here: Playwright does not route what a service worker answers. The
    # browser still cannot reach beyond loopback (browser.py's resolver rules).
    context = browser.new_context(service_workers="allow")
    context.add_init_script(COUNT_LOADED)
    phases = Phases()
    try:
        with serving(built_site.out) as url:
            lesson = f"{url}{LAB.site_dir}/"
            page = phases.watch(context.new_page())
            started = time.monotonic()
            page.goto(lesson)
            phases.wait("first visit live", page, LIVE, BOOT_WAIT_S, started)
            expect(page.get_by_role("heading", name=LAB.title).first).to_be_attached()
            phases.wait("site kept", page, KEPT, KEEP_WAIT_S, started)
            # Every file the page loaded is kept, by its own count (a lesson loads some 310
            # files, more than the 250 a page's timeline holds), those it loads once live too.
            missing = not_kept(page)
            while missing and time.monotonic() - started < BOOT_WAIT_S + KEEP_WAIT_S:
                page.wait_for_timeout(500)
                missing = not_kept(page)
            assert missing == [], f"loaded, not kept: {missing[:5]} ({len(missing)} in all)"
            # Pyodide's core, fetched again, is answered from the worker's cache (where Chromium
            # keeps the compiled WebAssembly beside it).
            core = f"{url}pyodide/pyodide.asm.wasm"
            assert answered(context, page, core) == ("cache-storage", None)
        # The server is gone: nothing answers at that address any more.
        with pytest.raises((urllib.error.URLError, ConnectionError)):
            urllib.request.urlopen(lesson, timeout=5)
        second_page = phases.watch(context.new_page())
        # Offline, no file fails to load. (The preview's HEAD requests for Pyodide's core
        # files, never answered from the cache, fail offline, as they should.)
        failed: list[str] = []
        second_page.on("requestfailed", lambda r: r.method == "GET" and failed.append(r.url))
        started = time.monotonic()
        second_page.goto(lesson)
        phases.wait("second visit live, offline", second_page, LIVE, BOOT_WAIT_S, started)
        # The live lesson computes offline: its first result is drawn.
        expect(second_page.get_by_role("heading", name=LAB.title).first).to_be_attached()
        assert failed == [], f"not kept, failed offline: {failed[:5]} ({len(failed)} in all)"
        for name, seconds in phases.times.items():
            record_property(name, seconds)
        print(f"lesson 1, seconds: {phases.times}")
    finally:
        context.close()


WORKER_PAGE = """<!doctype html><title>worker</title>
<script>navigator.serviceWorker.register("../../{worker}");</script>"""
# The site's worker as a browser without static routes runs it (Firefox and Safari today).
NO_ROUTES = 'delete InstallEvent.prototype.addRoutes;\nimportScripts("sw.js");\n'
KEPT_IN_CACHE = "async (url) => Boolean(await caches.match(url))"  # in any of the site's caches
# A page posts a file for the worker to keep, and waits for the worker's answer (its version).
POST_AND_WAIT = """(url) => new Promise((resolve) => {
  navigator.serviceWorker.addEventListener("message", (event) => {
    if (event.data && event.data.kept) resolve(event.data.kept);
  });
  navigator.serviceWorker.controller.postMessage({ keep: [url] });
})"""


def worker_site(tmp_path: Path, worker: str) -> Path:
    """A small site with the real worker, a page that registers ``worker``, a WebAssembly file
    and a script that no page has posted the worker to keep."""
    from offline import write_service_worker

    site = tiny_site(tmp_path)
    (site / "lessons/01_x/worker.html").write_text(WORKER_PAGE.format(worker=worker))
    (site / "pyodide/other.wasm").write_bytes(b"\0asm\1\0\0\0")
    (site / "pyodide/script.js").write_text("// a script", encoding="utf-8")
    write_service_worker(site, "pyodide", "wheels")
    (site / "no-routes.js").write_text(NO_ROUTES, encoding="utf-8")
    return site


@contextmanager
def controlled_page(browser: Any, site: Path) -> Iterator[tuple[Any, Any, str]]:
    """A fresh context's page of ``site`` (served), once the worker it registers controls it:
    the context, the page and the site's address."""
    context = browser.new_context(service_workers="allow")
    try:
        with serving(site) as url:
            page = context.new_page()
            page.goto(f"{url}lessons/01_x/worker.html")
            # The worker claims the page once active (sw.js, "activate").
            page.wait_for_function(
                "() => navigator.serviceWorker.controller !== null", polling=100, timeout=30_000
            )
            yield context, page, url
    finally:
        context.close()


def test_files_but_pages_and_webassembly_bypass_the_worker_and_come_from_its_cache_once_posted(
    browser: Any, tmp_path: Path
) -> None:
    """With static routes (sw.js, "install"), the browser answers a file other than a page or
    WebAssembly itself: from the worker's cache once a page has posted it, from the network
    before, never through the worker. WebAssembly never kept is written to the cache by the
    worker and answered from it (Chromium keeps the compiled module beside it); a page is the
    worker's, from the network first."""
    with controlled_page(browser, worker_site(tmp_path, "sw.js")) as (context, page, url):
        assert answered(context, page, f"{url}pyodide/other.wasm") == ("cache-storage", None)
        assert answered(context, page, f"{url}lessons/01_x/") == ("network", None)
        script = f"{url}pyodide/script.js"
        assert answered(context, page, script) == (None, "network")
        assert not page.evaluate(KEPT_IN_CACHE, script)
        # Posted, and kept once the worker says so (as a page learns it, preview.js): looked up
        # by the route while the worker was still writing the rest of KEEP, a file already in
        # the cache was fetched from the network in 5 of 12 runs here.
        version = page.evaluate(POST_AND_WAIT, script)
        assert page.evaluate("caches.keys()") == [f"asyncfail-{version}"]
        assert page.evaluate(KEPT_IN_CACHE, script)
        assert answered(context, page, script) == ("cache-storage", "cache")


def test_without_static_routes_the_worker_answers_and_keeps_every_file_as_it_passes(
    browser: Any, tmp_path: Path
) -> None:
    """The same worker where the browser has no static routes (sw.js, ``cacheFirst``):
    WebAssembly as above; any other file never kept is answered with the network's response as
    it arrives, kept meanwhile, and answered from the cache the next time."""
    with controlled_page(browser, worker_site(tmp_path, "no-routes.js")) as (context, page, url):
        assert answered(context, page, f"{url}pyodide/other.wasm") == ("cache-storage", None)
        script = f"{url}pyodide/script.js"
        assert answered(context, page, script) == ("network", None)
        page.wait_for_function(KEPT_IN_CACHE, arg=script, polling=100, timeout=10_000)
        assert answered(context, page, script) == ("cache-storage", None)


def answered(context: Any, page: Any, url: str) -> tuple[str | None, str | None]:
    """Who answered a fetch of ``url`` by ``page``, as Chromium's DevTools protocol names it:
    the service worker's source (``serviceWorkerResponseSource``: ``network``,
    ``cache-storage``; None when the worker did not answer) and, for a request a static route
    took, where the browser found it (``serviceWorkerRouterInfo.actualSourceType``)."""
    session = context.new_cdp_session(page)
    sources: list[tuple[str | None, str | None]] = []

    def received(event: dict[str, Any]) -> None:
        response = event["response"]
        if response["url"] == url:
            worker = (
                response.get("serviceWorkerResponseSource")
                if response.get("fromServiceWorker")
                else None
            )
            route = response.get("serviceWorkerRouterInfo", {}).get("actualSourceType")
            sources.append((worker, route))

    session.on("Network.responseReceived", received)
    session.send("Network.enable")
    page.evaluate("async (url) => { await (await fetch(url)).arrayBuffer(); }", url)
    deadline = time.monotonic() + 10
    while not sources and time.monotonic() < deadline:
        page.wait_for_timeout(50)  # the protocol's event may arrive after the page's answer
    session.detach()
    return sources[0] if sources else (None, None)


def tiny_site(root: Path) -> Path:
    for name, text in {
        "index.html": "home",
        "pyodide/pyodide.asm.wasm": "core",
        "pyodide/pydantic-2-py3-none-any.whl": "w",
        "pyodide/simple/pydantic/index.html": "idx",
        "wheels/asyncfail-1-py3-none-any.whl": "lib",
        "lessons/01_x/index.html": "page",
    }.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    return root


def test_the_worker_keeps_what_pythons_worker_loads_and_names_the_build(tmp_path: Path) -> None:
    from offline import write_service_worker

    site = tiny_site(tmp_path)
    text = write_service_worker(site, "pyodide", "wheels").read_text(encoding="utf-8")
    assert "__VERSION__" not in text and "__KEEP__" not in text
    keep = (
        'const KEEP = ["./", "pyodide/pydantic-2-py3-none-any.whl", "pyodide/pyodide.asm.wasm", '
        '"pyodide/simple/pydantic/", "wheels/asyncfail-1-py3-none-any.whl"];'
    )
    assert keep in text


def test_a_rebuilt_site_is_a_new_version_and_the_worker_itself_does_not_count(
    tmp_path: Path,
) -> None:
    from offline import site_version, write_service_worker

    site = tiny_site(tmp_path)
    before = site_version(site)
    write_service_worker(site, "pyodide", "wheels")
    assert site_version(site) == before
    (site / "lessons/01_x/index.html").write_text("page, rebuilt", encoding="utf-8")
    assert site_version(site) != before
    (site / "lessons/01_x/index.html").write_text("page", encoding="utf-8")
    (site / "lessons/01_x/extra.html").write_text("", encoding="utf-8")
    assert site_version(site) != before


def test_what_two_builds_may_differ_in_does_not_change_the_version(tmp_path: Path) -> None:
    from build import reproducible_content
    from offline import site_version

    site = tiny_site(tmp_path)
    page = site / "lessons/01_x/index.html"
    page.write_text("<x random-id='00000000-0000-0000-0000-000000000000'>", encoding="utf-8")
    before = site_version(site, reproducible_content)
    page.write_text("<x random-id='11111111-2222-3333-4444-555555555555'>", encoding="utf-8")
    assert site_version(site, reproducible_content) == before
    assert site_version(site) != site_version(site, reproducible_content)
    page.write_text("<x random-id='11111111-2222-3333-4444-555555555555'>!", encoding="utf-8")
    assert site_version(site, reproducible_content) != before
