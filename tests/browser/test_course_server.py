"""`make serve`: the course server (exports/course_server.py) over http, as a class reaches it.

It is started as `make serve` starts it, on a free port of 127.0.0.1, and stopped with Ctrl-C's
signal; it must stop promptly, say nothing alarming, and leave no lesson copies behind.
"""

from __future__ import annotations

import html
import os
import re
import signal
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from asyncfail.course.catalog import COURSE_TITLE, LESSONS
from asyncfail.course.lesson01_async_failure_lab import verification as truth_lesson
from asyncfail.course.site import HOME_PAGE_TITLE, PageKind, page_title
from asyncfail.course.site import LIVE_LINK as LESSON_LINK
from tests.server_support import answering, free_port

ROOT = Path(__file__).resolve().parents[2]
SERVER = ROOT / "exports" / "course_server.py"
START_S = 60
STOP_S = 20
VERIFY_S = 180  # the whole matrix on real processes: well under a minute on two idle cores
# A served lesson runs its cells on the server, and each change reruns them there: seconds on a
# busy machine (5 s, the default wait, once saw one of two charts drawn).
SERVED_MS = 60_000


def get(url: str) -> tuple[int, str]:
    with urllib.request.urlopen(url, timeout=30) as response:
        return response.status, response.read().decode("utf-8")


def title(page: str) -> str:
    match = re.search(r"<title>([^<]*)</title>", page)
    assert match, page[:200]
    return html.unescape(match.group(1))


@dataclass
class Server:
    url: str
    process: subprocess.Popen[str]
    tmp: Path  # its TMPDIR, to see what it leaves behind


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """The course server on a free port, with a TMPDIR of its own."""
    port = free_port()
    tmp = tmp_path_factory.mktemp("server-tmp")
    process = subprocess.Popen(
        [sys.executable, str(SERVER), "--host", "127.0.0.1", "--port", str(port)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "TMPDIR": str(tmp)},
    )
    url = f"http://127.0.0.1:{port}/"
    answering(process, url, "the course server", START_S)
    yield Server(url, process, tmp)
    if process.poll() is None:
        process.kill()
        process.communicate()


def test_the_home_lists_every_lesson_in_order_with_its_live_link(
    server: Server,
) -> None:
    url = server.url
    status, page = get(url)
    assert status == 200
    assert title(page) == HOME_PAGE_TITLE
    assert f"<h1>{html.escape(COURSE_TITLE)}</h1>" in page
    assert re.findall(r'data-lesson="([^"]+)"', page) == [info.stem for info in LESSONS]
    links = re.findall(r'<a href="([^"]+)">', page)
    expected = [f"lessons/{info.stem}/" for info in LESSONS]
    expected.insert(1, f"lessons/{LESSONS[0].stem}/present/")
    assert links == expected
    for info in LESSONS:
        assert html.escape(info.title) in page
    assert "static.html" not in page  # served lessons are live; snapshots are the site's


@pytest.mark.parametrize(
    ("path", "kind"),
    [
        (f"lessons/{LESSONS[0].stem}/", PageKind.LIVE),
        (f"lessons/{LESSONS[1].stem}/", PageKind.LIVE),
        (f"lessons/{LESSONS[0].stem}/present/", PageKind.PRESENTER),
    ],
)
def test_a_lesson_is_served_live_under_the_courses_title(
    server: Server, path: str, kind: PageKind
) -> None:
    url = server.url
    info = next(info for info in LESSONS if f"/{info.stem}/" in f"/{path}")
    status, page = get(url + path)
    assert status == 200
    assert title(page) == page_title(info, kind)
    # Without its final slash, the address is redirected to the lesson (not elsewhere).
    status, again = get(url + path.rstrip("/"))
    assert status == 200 and title(again) == title(page)


@pytest.mark.browser
def test_a_served_lesson_runs_its_python_on_the_server(guarded_page: Any, server: Server) -> None:
    page, guard = guarded_page
    page.goto(server.url)
    page.get_by_role("link", name=LESSON_LINK).first.click()
    expect(page.get_by_role("heading", name=LESSONS[0].title)).to_be_visible(timeout=SERVED_MS)
    page.get_by_role("switch").first.click()  # skip predicting: the traces are drawn
    expect(page.locator("svg.sequence-view")).to_have_count(2, timeout=SERVED_MS)
    assert page.url == f"{server.url}lessons/{LESSONS[0].stem}/"
    assert guard.blocked == []


@pytest.mark.browser
def test_a_served_lesson_1_runs_the_verification_on_real_processes(
    guarded_page: Any, server: Server, screenshots: Any
) -> None:
    # Served by CPython, lesson 1 can start processes: its button runs the whole matrix, with a
    # progress bar, and shows the run's verdict beside the recorded one.
    page, guard = guarded_page
    page.goto(f"{server.url}lessons/{LESSONS[0].stem}/")
    button = page.get_by_role("button", name="Run the verification here")
    button.scroll_into_view_if_needed()
    expect(page.get_by_text("This page is served by Python", exact=False)).to_be_visible()
    button.click()
    done = page.get_by_text("Run just now on", exact=False)
    expect(done).to_be_visible(timeout=VERIFY_S * 1000)
    expect(done).to_contain_text(truth_lesson.AGREES)
    expect(done).to_contain_text(f"{len(truth_lesson.recorded().rows)} cases")
    done.scroll_into_view_if_needed()
    page.screenshot(path=screenshots / "served-lesson-1-verified.png")
    # Its table is made when its fold opens (page.on_open): opened, it holds the first case.
    first = truth_lesson.table_rows(truth_lesson.recorded())[0][truth_lesson.COLUMNS["case"]]
    page.get_by_text(truth_lesson.CASES_LABEL.strip("*")).last.click()
    expect(page.get_by_text(str(first), exact=True).first).to_be_visible(timeout=SERVED_MS)
    assert guard.blocked == []


def test_the_server_stops_cleanly_on_ctrl_c(server: Server) -> None:
    process = server.process
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=STOP_S)
    assert "Traceback" not in err, err
    assert "http://127.0.0.1:" in out
    assert process.returncode in (0, -signal.SIGINT), (process.returncode, err)
    assert list(server.tmp.iterdir()) == []  # the lesson copies are gone
