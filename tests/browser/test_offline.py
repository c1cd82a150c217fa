"""Offline on the second visit: a reader who opened a lesson once opens it again with the
network off (the site's service worker, exports/offline.py). Both visits are timed to "live"
and reported (the figures, not a pass mark: `make bench` measures; tests never time)."""

from __future__ import annotations

import sys
import time
import urllib.error
import urllib.request
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
            # Pyodide's core, fetched again, is answered from the worker's cache (where Chromium
            # keeps the compiled WebAssembly beside it).
            core = f"{url}pyodide/pyodide.asm.wasm"
            assert answered_from(context, page, core) == "cache-storage"
        # The server is gone: nothing answers at that address any more.
        with pytest.raises((urllib.error.URLError, ConnectionError)):
            urllib.request.urlopen(lesson, timeout=5)
        second_page = phases.watch(context.new_page())
        started = time.monotonic()
        second_page.goto(lesson)
        phases.wait("second visit live, offline", second_page, LIVE, BOOT_WAIT_S, started)
        # The live lesson computes offline: its first result is drawn.
        expect(second_page.get_by_role("heading", name=LAB.title).first).to_be_attached()
        for name, seconds in phases.times.items():
            record_property(name, seconds)
        print(f"lesson 1, seconds: {phases.times}")
    finally:
        context.close()


WORKER_PAGE = """<!doctype html><title>worker</title>
<script>navigator.serviceWorker.register("../../sw.js");</script>"""
KEPT_IN_CACHE = """async (url) => {
  for (const name of await caches.keys()) {
    if (await (await caches.open(name)).match(url)) return true;
  }
  return false;
}"""


def test_a_file_not_yet_kept_is_kept_and_only_webassembly_waits_for_the_cache(
    browser: Any, tmp_path: Path
) -> None:
    """The worker's rule for a file it has not kept (sw.js, ``cacheFirst``): WebAssembly is
    written to the cache and answered from it (Chromium keeps the compiled module beside it);
    anything else is answered with the network's response as it arrives, kept meanwhile, and
    answered from the cache the next time."""
    from offline import write_service_worker

    site = tiny_site(tmp_path)
    (site / "lessons/01_x/worker.html").write_text(WORKER_PAGE, encoding="utf-8")
    (site / "pyodide/other.wasm").write_bytes(b"\0asm\1\0\0\0")
    (site / "pyodide/script.js").write_text("// a script", encoding="utf-8")
    write_service_worker(site, "pyodide", "wheels")
    context = browser.new_context(service_workers="allow")
    try:
        with serving(site) as url:
            page = context.new_page()
            page.goto(f"{url}lessons/01_x/worker.html")
            # The worker claims the page once active (sw.js, "activate").
            page.wait_for_function(
                "() => navigator.serviceWorker.controller !== null", polling=100, timeout=30_000
            )
            # Neither file is kept yet: no page has posted the worker what to keep.
            assert answered_from(context, page, f"{url}pyodide/other.wasm") == "cache-storage"
            script = f"{url}pyodide/script.js"
            assert answered_from(context, page, script) == "network"
            page.wait_for_function(KEPT_IN_CACHE, arg=script, polling=100, timeout=10_000)
            assert answered_from(context, page, script) == "cache-storage"
    finally:
        context.close()


def answered_from(context: Any, page: Any, url: str) -> str | None:
    """Where the service worker's answer to a fetch of ``url`` by ``page`` came from, as
    Chromium's DevTools protocol names it (``serviceWorkerResponseSource``: ``network``,
    ``cache-storage``, ...)."""
    session = context.new_cdp_session(page)
    sources: list[str | None] = []

    def received(event: dict[str, Any]) -> None:
        response = event["response"]
        if response["url"] == url:
            sources.append(response.get("serviceWorkerResponseSource"))

    session.on("Network.responseReceived", received)
    session.send("Network.enable")
    page.evaluate("async (url) => { await (await fetch(url)).arrayBuffer(); }", url)
    deadline = time.monotonic() + 10
    while not sources and time.monotonic() < deadline:
        page.wait_for_timeout(50)  # the protocol's event may arrive after the page's answer
    session.detach()
    return sources[0] if sources else None


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
