"""`make serve` for a class, over HTTP and websockets as a visitor reaches it (no browser): marimo's
home endpoints are hidden, lesson 1 obeys the live-verification switch, and no more lessons are
open at once than the limit. The guard's rules are also checked in-process, on a stand-in app.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import websockets

from asyncfail.course.catalog import LESSONS
from asyncfail.course.lesson01_async_failure_lab import verification as truth_lesson
from asyncfail.course.lesson01_async_failure_lab.verification import LIVE_VERIFY_META, LiveVerify

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "exports"))

from class_guard import ClassGuard  # noqa: E402
from course_server import default_live_verify, is_loopback  # noqa: E402

from tests.serve.apart import run_apart  # noqa: E402
from tests.server_support import answering, free_port  # noqa: E402

START_S = 90
MAX_SESSIONS = 2


def status_of(url: str, method: str = "GET") -> tuple[int, str]:
    request = urllib.request.Request(url, method=method, data=b"{}" if method == "POST" else None)
    request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, response.read().decode("utf-8")
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode("utf-8")


@dataclass
class Server:
    port: int
    process: subprocess.Popen[str]

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def ws(self, lesson: str, session: str) -> str:
        return f"ws://127.0.0.1:{self.port}/lessons/{lesson}/ws?session_id={session}"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """The course server as `make serve HOST=... VERIFY=off` starts it, with a limit of two."""
    port = free_port()
    argv = ["--host", "127.0.0.1", "--port", str(port), "--live-verify", "off"]
    process = subprocess.Popen(
        [sys.executable, str(ROOT / "exports" / "course_server.py"), *argv,
         "--max-sessions", str(MAX_SESSIONS), "--session-ttl", "5"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "TMPDIR": str(tmp_path_factory.mktemp("server-tmp"))},
    )  # fmt: skip
    found = Server(port, process)
    answering(process, found.url("/"), "the course server", START_S)
    yield found
    process.terminate()
    process.communicate(timeout=30)


LESSON_DIRS = [f"lessons/{lesson.stem}" for lesson in LESSONS]
FIRST = LESSONS[0].stem


@pytest.mark.parametrize("endpoint", ["workspace_files", "running_notebooks", "recent_files"])
def test_marimos_home_endpoints_are_hidden_under_every_lesson(
    server: Server, endpoint: str
) -> None:
    for where in ["", *(f"/{d}" for d in LESSON_DIRS)]:
        for method in ("GET", "POST"):
            code, body = status_of(server.url(f"{where}/api/home/{endpoint}"), method)
            assert (code, body) == (404, "Not Found"), (where, method)
            assert "asyncfail-course-" not in body


def test_the_lessons_themselves_are_still_served(server: Server) -> None:
    assert status_of(server.url("/"))[0] == 200
    for where in LESSON_DIRS:
        assert status_of(server.url(f"/{where}/"))[0] == 200, where


async def lesson_text(url: str, until: str, seconds: float = 60) -> str:
    """What a lesson's session sends over its websocket, until ``until`` appears."""
    text = ""
    async with websockets.connect(url, max_size=None) as socket_:
        deadline = time.monotonic() + seconds
        while until not in text and time.monotonic() < deadline:
            try:
                message = await asyncio.wait_for(socket_.recv(), timeout=5)
            except TimeoutError:
                continue
            text += message if isinstance(message, str) else message.decode("utf-8", "replace")
    return text


def test_lesson_1_says_live_runs_are_off_and_offers_no_button(server: Server) -> None:
    words = "the person serving it has turned live runs off"
    assert words in truth_lesson.LIVE_OFF
    text = run_apart(lesson_text(server.ws(FIRST, "s-off"), words))
    assert words in text
    assert "Run the verification here" not in text  # the button, as lesson 1 labels it
    assert "This page is served by Python from a checkout" not in text


def test_no_more_lessons_are_open_at_once_than_the_limit(server: Server) -> None:
    async def visit() -> list[str]:
        seen = []
        opened = [await websockets.connect(server.ws(FIRST, f"s-{n}")) for n in range(2)]
        try:
            await websockets.connect(server.ws(FIRST, "s-third"))
            seen.append("third opened")
        except websockets.InvalidStatus as refused:
            seen.append(f"third refused {refused.response.status_code}")
        await opened[0].close()
        await asyncio.sleep(0.5)
        fourth = await websockets.connect(server.ws(FIRST, "s-fourth"))
        seen.append("fourth opened")
        await fourth.close()
        await opened[1].close()
        return seen

    assert run_apart(visit()) == ["third refused 403", "fourth opened"]


# --- the guard's rules, in-process ------------------------------------------------------------


class StandIn:
    """An ASGI app that records every scope it is given and accepts every websocket."""

    def __init__(self) -> None:
        self.scopes: list[dict[str, Any]] = []

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        self.scopes.append(dict(scope))
        if scope["type"] == "websocket":
            await send({"type": "websocket.accept"})
            await receive()  # held open until the test lets go


def call(guard: ClassGuard, scope: dict[str, Any]) -> list[dict[str, Any]]:
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return {"type": "websocket.disconnect"}

    async def send(message: Any) -> None:
        sent.append(message)

    run_apart(guard(scope, receive, send))
    return sent


@pytest.mark.parametrize("switch", list(LiveVerify))
def test_every_request_carries_the_switch_whatever_it_came_with(switch: LiveVerify) -> None:
    app = StandIn()
    guard = ClassGuard(app, live_verify=switch, max_sessions=1)
    forged = {LIVE_VERIFY_META: "on" if switch is LiveVerify.OFF else "off", "kept": 1}
    for kind, path in (("http", "/lessons/x/"), ("websocket", "/lessons/x/ws")):
        call(guard, {"type": kind, "path": path, "meta": forged})
    assert [s["meta"] for s in app.scopes] == [{LIVE_VERIFY_META: switch.value, "kept": 1}] * 2


@pytest.mark.parametrize(
    ("path", "hidden"),
    [
        ("/api/home/workspace_files", True),
        ("/lessons/01/api/home/workspace_files", True),
        ("/lessons/01/api/home", True),
        ("/lessons/01/api/homework", False),
        ("/lessons/01/api/kernel/run", False),
        ("/lessons/01/", False),
    ],
)
def test_what_is_hidden(path: str, hidden: bool) -> None:
    app = StandIn()
    sent = call(
        ClassGuard(app, live_verify=LiveVerify.ON, max_sessions=1), {"type": "http", "path": path}
    )
    assert (app.scopes == []) is hidden
    if hidden:
        assert sent[0]["status"] == 404


@pytest.mark.parametrize(
    ("host", "loopback"),
    [
        ("127.0.0.1", True),
        ("127.1.2.3", True),
        ("::1", True),
        ("localhost", True),
        ("0.0.0.0", False),
        ("::", False),
        ("192.168.1.20", False),
        ("example.org", False),
        ("", False),
    ],
)
def test_live_runs_are_on_by_default_only_on_a_loopback_host(host: str, loopback: bool) -> None:
    assert is_loopback(host) is loopback
    assert default_live_verify(host) is (LiveVerify.ON if loopback else LiveVerify.OFF)
