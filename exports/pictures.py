"""Each lesson's picture: the first screen of its static snapshot (the 1280 x 800 window the
browser tests call a lesson's first screen), as Chromium draws it; and the home's picture of
the sequence view, the SVG the library draws for the lessons.

The course home shows them, the home's social preview uses the first, and ``make picture``
copies lesson 1's into ``docs/images/`` for the README. The lessons' pictures are made by the
build, never by hand, with Debian's Chromium through Playwright (``browser.py``), offline like
every browser test: the build stops in one line when Chromium or Playwright is missing. The
sequence view's picture needs no browser (``draw_sequence``): every build writes it, with
``--no-pictures`` too.
"""

from __future__ import annotations

import importlib.util
import threading
import time
from collections.abc import Sequence
from pathlib import Path

from home import PICTURE_SIZE, SEQUENCE_CAPTION, SequencePicture
from lessons import Lesson
from serve import serving

from asyncfail.charts.sequence_drawing import sequence_view
from asyncfail.course.catalog import LESSONS
from asyncfail.lab.scenario import SEED_FAULT, Mode, Scenario
from asyncfail.lab.simulation import simulate_each_mode

PICTURE = "picture.png"
SEQUENCE = "sequence.svg"
"""The sequence view's picture, at the site's root."""
# Drawn at one device pixel per CSS pixel: the picture is the first screen, as a learner's
# 1280 x 800 window shows it.
SCALE = 1.0
LOAD_TIMEOUT_MS = 60_000
# The page is drawn when its text has not changed for this long (charts and fonts included).
QUIET_S = 1.0


def settle(page, deadline: float) -> None:  # type: ignore[no-untyped-def]
    """Wait until the page's text and drawn charts stop changing, or ``deadline`` passes."""
    probe = "() => document.body.innerText + document.querySelectorAll('.marks').length"
    last, since = None, time.monotonic()
    while time.monotonic() < deadline:
        now = page.evaluate(probe)
        if now != last:
            last, since = now, time.monotonic()
        elif time.monotonic() - since >= QUIET_S:
            return
        page.wait_for_timeout(200)


def picture(browser, url: str, site: Path, lesson: Lesson, error: type) -> Path:  # type: ignore[no-untyped-def]
    """Screenshot the top of ``lesson``'s static snapshot once it is drawn, offline."""
    from browser import LoopbackGuard

    width, height = (round(side / SCALE) for side in PICTURE_SIZE)
    context = browser.new_context(
        viewport={"width": width, "height": height}, device_scale_factor=SCALE
    )
    guard = LoopbackGuard()
    guard.install(context)
    page = context.new_page()
    target = site / lesson.site_dir / PICTURE
    try:
        page.goto(f"{url}{lesson.site_dir}/static.html")
        title = page.get_by_text(lesson.title, exact=True).filter(visible=True).first
        title.wait_for(timeout=LOAD_TIMEOUT_MS)
        page.evaluate("() => document.fonts.ready")
        settle(page, time.monotonic() + LOAD_TIMEOUT_MS / 1000)
        page.screenshot(path=str(target))
    except error as failure:
        first = str(failure).strip().splitlines()[0]
        raise SystemExit(f"export: {lesson.slug}: no picture of its snapshot: {first}") from None
    finally:
        context.close()
    if guard.blocked:
        raise SystemExit(f"export: {lesson.slug}'s snapshot reached outside: {guard.blocked[0]}")
    return target


def require_chromium() -> str:
    """Debian's Chromium, or one line saying how to get it."""
    from browser import find_chromium

    chromium = find_chromium()
    if chromium is None:
        raise SystemExit(
            "export: the lesson pictures need Chromium: `apt-get install chromium` "
            "(or set CHROMIUM to a Chromium binary)"
        )
    return chromium


def draw(site: Path, lessons: Sequence[Lesson], chromium: str) -> list[Path]:
    """Launch Chromium and take every lesson's picture, in the calling thread."""
    from browser import launch
    from playwright.sync_api import Error, sync_playwright

    with serving(site) as url, sync_playwright() as playwright:
        try:
            browser = launch(playwright, chromium)
        except Error as error:
            first = str(error).strip().splitlines()[0]
            raise SystemExit(f"export: Chromium ({chromium}) did not start: {first}") from None
        written = [picture(browser, url, site, lesson, Error) for lesson in lessons]
        browser.close()
    return written


def take_pictures(site: Path, lessons: Sequence[Lesson]) -> list[Path]:
    """Write ``picture.png`` into each lesson's folder of ``site``; return their paths.

    The work runs in a thread of its own: Playwright's synchronous API allows one driver per
    thread, and the build may run inside a program that already drives one (the browser tests).
    """
    # Checked here, not imported at the top, so that a build without Playwright stops in one
    # line.
    if importlib.util.find_spec("playwright") is None:
        raise SystemExit(
            "export: the lesson pictures need Playwright: install the project's dev extra "
            "(`make export` does)"
        )
    chromium = require_chromium()
    outcome: list[list[Path] | BaseException] = []

    def work() -> None:
        try:
            outcome.append(draw(site, lessons, chromium))
        except BaseException as error:  # handed over to the build's thread below
            outcome.append(error)

    worker = threading.Thread(target=work, name="lesson-pictures")
    worker.start()
    worker.join()
    if isinstance(outcome[0], BaseException):
        raise outcome[0]
    return outcome[0]


def draw_sequence(site: Path) -> SequencePicture:
    """Write the sequence view of lesson 1's seed case under the naive loop (the run that
    debits twice) into ``site/SEQUENCE``: the drawing the lessons show, as an SVG file. Its
    text alternative is the drawing's own description, its caption says which run it is."""
    result = simulate_each_mode(Scenario(fault=SEED_FAULT))[Mode.NAIVE]
    drawing, _ = sequence_view(result)
    (site / SEQUENCE).write_text(drawing.svg, encoding="utf-8")
    caption = SEQUENCE_CAPTION.format(
        lesson=LESSONS[0].title,
        mode=result.mode.value,
        fault=SEED_FAULT.value,
        status=result.status.value,
    )
    return SequencePicture(SEQUENCE, drawing.width, drawing.height, drawing.description, caption)
