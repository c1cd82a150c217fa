"""Fixtures of the browser tests: a freshly built site, served on 127.0.0.1, and Chromium.

In CI (CI=true) a missing Chromium is an error; elsewhere the tests skip and say how to enable
them. Screenshots of what the tests saw go to tests/screenshots/ (gitignored).
"""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path
from types import TracebackType

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "exports"))

from browser import CHROMIUM_ARGS, LoopbackGuard, find_chromium  # noqa: E402
from build import BuildReport, build_site  # noqa: E402
from lessons import discover  # noqa: E402
from serve import serving  # noqa: E402

from tests.browser import site_build  # noqa: E402
from tests.browser.site_build import BASE_URL  # noqa: E402

SCREENSHOTS = ROOT / "tests" / "screenshots"
IN_CI = os.environ.get("CI", "").lower() == "true"


def require(ok: bool, message: str) -> None:
    """Skip on a developer machine, fail loudly in CI."""
    if ok:
        return
    if IN_CI:
        pytest.fail(f"{message} (CI=true: browser tests must run, not skip)", pytrace=False)
    pytest.skip(message)


class Checks:
    """The named checks of one page load that several tests used to make on loads of their own
    (a page load costs seconds of CPU): a failed check is kept with what it checked and what it
    saw, the visit goes on, and leaving the ``with`` block fails with every failed check, one a
    line. An error that stops the visit (a timeout) fails with the checks failed before it.

        with Checks("01_async_failure_lab") as check:
            check(box is not None, "the first screen holds the main control", box)
    """

    def __init__(self, subject: str) -> None:
        self.subject = subject
        self.failed: list[str] = []

    def __call__(self, ok: bool, check: str, seen: object = None) -> bool:
        """Keep ``check`` as failed unless ``ok``; ``seen`` says what the page showed."""
        if not ok:
            self.failed.append(check if seen is None else f"{check}; saw: {seen}")
        return ok

    def __enter__(self) -> Checks:
        return self

    def __exit__(
        self,
        _kind: type[BaseException] | None,
        error: BaseException | None,
        _trace: TracebackType | None,
    ) -> None:
        if not self.failed or (error is not None and not isinstance(error, Exception)):
            return  # all passed (an error propagates as it is), or pytest's skip or xfail
        lines = [f"{self.subject}: {len(self.failed)} check(s) failed", *self.failed]
        if error is not None:
            lines.append(f"and the visit stopped: {type(error).__name__}: {error}")
        raise AssertionError("\n- ".join(lines)) from error


# What every lesson's kernel loads once it is ready: the library and what it depends on
# (pyodide-lock.json; Pyodide's log on a lesson's page says "Loaded annotated-types, asyncfail,
# pydantic, pydantic-core, pyodide-http, typing-extensions, typing-inspection", pyodide-http
# being the trivial page's too).
PREFETCHED = [
    "annotated_types",
    "asyncfail",
    "pydantic",
    "pydantic_core",
    "typing_extensions",
    "typing_inspection",
]


@pytest.fixture(scope="session")
def chromium() -> str:
    path = find_chromium()
    require(
        path is not None,
        "Chromium not found: browser tests need Debian's package, enable them with "
        "`apt-get install chromium`",
    )
    assert path is not None
    return path


@pytest.fixture(scope="session")
def npm() -> str:
    path = shutil.which("npm")
    require(path is not None, "npm not found: the site's Pyodide mirror comes from npm")
    assert path is not None
    return path


@pytest.fixture(scope="session")
def built_site(
    npm: str,
    chromium: str,
    tmp_path_factory: pytest.TempPathFactory,
    request: pytest.FixtureRequest,
) -> BuildReport:
    """The site as `make export BASE_URL=...` builds it (Chromium draws the lessons' pictures),
    into a temporary folder: built in the background while other tests run (site_build.py),
    shared by every worker of the run."""
    reuse = os.environ.get("ASYNCFAIL_TEST_SITE")
    if reuse and not IN_CI:
        # A developer's loop: a site built before (`exports/build.py --out DIR --base-url
        # https://course.example/asyncfail/`), tested as it is. Never in CI.
        return BuildReport(Path(reuse), pages=discover())
    done = site_build.wait(request.config)
    if done is not None:
        out, seconds, source = done
        return BuildReport(out, pages=discover(), seconds=seconds, source=source)
    out = tmp_path_factory.mktemp("site") / "site"
    return build_site(out, log=lambda _msg: None, base=BASE_URL)


@pytest.fixture(scope="session")
def site_url(built_site: BuildReport) -> Iterator[str]:
    with serving(built_site.out) as url:
        yield url


# The tests' Chromium keeps WebAssembly on V8's first compiler (Liftoff) and never recompiles it
# with the optimizing one: the pages and their Python are the same, but each page boots
# Pyodide's 10 MB module cold (a fresh context per test), and the optimizing recompile of it
# cost a third of every boot here (lesson 1 live in 20 s, not 30 s, medians of 3). `make
# bench` keeps Chromium's defaults: it measures what readers get.
TEST_ARGS = [*CHROMIUM_ARGS, "--js-flags=--no-wasm-tier-up"]


@pytest.fixture(scope="session")
def browser(chromium: str):  # type: ignore[no-untyped-def]
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=chromium, headless=True, args=TEST_ARGS
        )
        yield browser
        browser.close()


@pytest.fixture
def guarded_page(browser):  # type: ignore[no-untyped-def]
    """A page in a fresh context whose every request is checked: only loopback may pass."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    guard = LoopbackGuard()
    guard.install(context)
    page = context.new_page()
    page.set_default_timeout(30_000)
    yield page, guard
    context.close()


@pytest.fixture(scope="session")
def screenshots() -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS
