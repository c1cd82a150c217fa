"""Serve the course (``make serve``): a course home at ``/``, every lesson live, lesson 1's
presenter view; Python runs on this server.

The home lists the lessons in course order with their titles, minutes and summaries from the
catalog (``home.py``, as on the published site, without its pictures and snapshots). Each lesson
is a marimo app in run mode at the path it has on the published site (``/lessons/NN_name/``),
made with ``marimo.create_asgi_app()`` from a copy of its notebook titled as the course writes
it; the presenter view (``/lessons/01_async_failure_lab/present/``) is a copy of lesson 1 in
marimo's slides layout (``copies.py``). The copies live in a temporary folder for as long as
the server runs.

Needs only the ``course`` extra (marimo, which brings Starlette and uvicorn) and the library.
No token, and nothing opens a browser. On 127.0.0.1 (the default) only this computer can reach
it; with ``--host 0.0.0.0`` anyone on the network can open the lessons, and every visitor's
lesson runs its Python on this computer. For a class (``class_guard.py``): marimo's home
endpoints are hidden, at most ``--max-sessions`` lessons are open at once and a closed page's
session ends after ``--session-ttl`` seconds, and lesson 1's live verification (one at a time
for the whole server, ``asyncfail.reference.live``) is offered only when ``--live-verify on``,
the default on a loopback address alone.
"""

from __future__ import annotations

import argparse
import contextlib
import ipaddress
import shutil
import sys
import tempfile
from collections.abc import AsyncIterator, Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import marimo
import uvicorn
from a11y import AccessiblePages
from class_guard import ClassGuard
from copies import write_copy
from home import HomeLinks, home_page
from lessons import PRESENTED, PRESENTER_DIR, Lesson, discover
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.routing import Mount, Route

from asyncfail.course.lesson01_async_failure_lab.verification import LiveVerify
from asyncfail.course.site import PageKind, page_title


def lesson_apps(lessons: list[Lesson], folder: Path) -> dict[str, Path]:
    """Site path -> the notebook copy served there: every lesson, and the presenter views."""
    apps: dict[str, Path] = {}
    for lesson in lessons:
        assert lesson.info is not None, lesson.slug  # discover() gives every lesson its entry
        live = page_title(lesson.info, PageKind.LIVE)
        apps[f"/{lesson.site_dir}"] = write_copy(lesson.path, folder / "live", live)
        if lesson.slug in PRESENTED:
            title = page_title(lesson.info, PageKind.PRESENTER)
            copy = write_copy(lesson.path, folder / "presenter", title, slides=True)
            apps[f"/{lesson.site_dir}/{PRESENTER_DIR}"] = copy
    return apps


async def close_sessions(lessons_app: object) -> None:
    """Close every lesson's sessions, as `marimo run` does when it stops.

    Starlette runs no lifespan of a mounted app, so marimo's own shutdown of its session
    managers never runs here; without it a learner's kernel thread outlives the server, and
    Ctrl-C leaves the process waiting for it. Each app of ``create_asgi_app()`` holds its
    session manager in ``state.session_manager``.
    """
    routes = lessons_app.routes if isinstance(lessons_app, Starlette) else []
    for route in routes:
        if isinstance(route, Mount) and isinstance(route.app, Starlette):
            manager = getattr(route.app.state, "session_manager", None)
            if manager is not None:
                await manager.shutdown()


SESSION_TTL = 60
"""Seconds a lesson's session outlives its closed page (marimo's default is 120): long enough
for a reconnect on a flaky class network, short enough that pages opened and left do not pile
up threads."""
MAX_SESSIONS = 60
"""Lessons open at once: a class of 30, each with two tabs."""


def is_loopback(host: str) -> bool:
    """Whether ``host`` is reachable from this computer alone: ``localhost`` or a loopback
    address (127.0.0.0/8, ::1). Any other name or address, ``0.0.0.0`` included, is not."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def default_live_verify(host: str) -> LiveVerify:
    """Live verification is on by default only where no one else can reach the server."""
    return LiveVerify.ON if is_loopback(host) else LiveVerify.OFF


def course_app(
    folder: Path,
    cleanup: Callable[[], None] = lambda: None,
    *,
    live_verify: LiveVerify = LiveVerify.ON,
    max_sessions: int = MAX_SESSIONS,
    session_ttl: int = SESSION_TTL,
) -> ClassGuard:
    """The course as one ASGI app, guarded for a class (``ClassGuard``), each marimo page with
    the site's accessibility fixes (``a11y.AccessiblePages``). Lesson copies are
    written into ``folder``; ``cleanup`` runs when the server shuts down."""
    lessons = discover()
    apps = lesson_apps(lessons, folder)
    builder = marimo.create_asgi_app(quiet=True, session_ttl=session_ttl)
    for path, notebook in apps.items():
        builder = builder.with_app(path=path, root=str(notebook))
    lessons_app = builder.build()
    links = HomeLinks(
        served=True,
        presenters={
            lesson.slug: f"{lesson.site_dir}/{PRESENTER_DIR}/"
            for lesson in lessons
            if lesson.slug in PRESENTED
        },
    )
    home = home_page(lessons, links)

    async def show_home(_request: Request) -> Response:
        return HTMLResponse(home)

    def to_folder(path: str) -> Route:
        # marimo's own redirect for a path without its final slash is relative, which breaks
        # for nested paths (/lessons/x -> /lessons/lessons/x/): redirect to the absolute path.
        async def redirect(_request: Request) -> Response:
            return RedirectResponse(f"{path}/", status_code=308)

        return Route(path, redirect)

    routes = [
        Route("/", show_home),
        *(to_folder(path) for path in apps),
        Mount("/", app=lessons_app),
    ]

    @contextlib.asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[None]:
        try:
            yield
        finally:
            await close_sessions(lessons_app)
            # uvicorn re-raises a SIGTERM or SIGINT once it has shut down, so code after
            # uvicorn.run() may never run: clean up here, as the server stops.
            cleanup()

    course = Starlette(routes=routes, lifespan=lifespan)
    pages = AccessiblePages(course)
    return ClassGuard(pages, live_verify=live_verify, max_sessions=max_sessions)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on")
    parser.add_argument("--port", type=int, default=2718, help="port to listen on")
    parser.add_argument(
        "--live-verify",
        choices=["", *(v.value for v in LiveVerify)],
        default="",
        help="whether lesson 1 offers to run the verification on real processes here (default: "
        "on for a loopback host, off otherwise; empty: the default)",
    )
    parser.add_argument(
        "--max-sessions",
        type=int,
        default=MAX_SESSIONS,
        help=f"lessons open at once (default: {MAX_SESSIONS})",
    )
    parser.add_argument(
        "--session-ttl",
        type=int,
        default=SESSION_TTL,
        help=f"seconds a closed page's session lives on (default: {SESSION_TTL})",
    )
    args = parser.parse_args()
    if args.max_sessions < 1 or args.session_ttl < 1:
        parser.error("--max-sessions and --session-ttl must be at least 1")
    live = LiveVerify(args.live_verify) if args.live_verify else default_live_verify(args.host)
    folder = Path(tempfile.mkdtemp(prefix="asyncfail-course-"))

    def cleanup() -> None:
        shutil.rmtree(folder, ignore_errors=True)

    try:
        app = course_app(
            folder,
            cleanup,
            live_verify=live,
            max_sessions=args.max_sessions,
            session_ttl=args.session_ttl,
        )
        print(f"The course: http://{args.host}:{args.port}/ (Ctrl-C to stop)", flush=True)
        print(
            f"Live verification in lesson 1: {live.value}; at most {args.max_sessions} lessons "
            "open at once",
            flush=True,
        )
        uvicorn.run(app, host=args.host, port=args.port, log_level="warning")
    finally:
        cleanup()


if __name__ == "__main__":
    main()
