"""Whether lesson 1 offers a live verification, and what it says: the platform, the server,
and the switch of the person serving (lesson 1's ``verification.live_chance``)."""

from collections.abc import Callable
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

import pytest

from asyncfail.course import page
from asyncfail.course.lesson01_async_failure_lab import verification as truth
from asyncfail.course.lesson01_async_failure_lab.verification import LIVE_VERIFY_META, LiveChance


@dataclass
class Request:
    """What ``mo.app_meta().request`` holds, as far as the lesson reads it."""

    meta: dict[str, object] = field(default_factory=dict)


# (request, platform) -> what the lesson may offer; written out by hand from the rule.
CASES = [
    (None, "linux", LiveChance.NO_PROCESSES),  # an export, a test
    (None, "emscripten", LiveChance.NO_PROCESSES),
    (Request(), "emscripten", LiveChance.NO_PROCESSES),  # the WebAssembly page
    (Request({LIVE_VERIFY_META: "on"}), "emscripten", LiveChance.NO_PROCESSES),
    (Request(), "linux", LiveChance.CAN_RUN),  # `marimo run` on one's own notebook
    (Request({"other": "x"}), "darwin", LiveChance.CAN_RUN),
    (Request({LIVE_VERIFY_META: "on"}), "linux", LiveChance.CAN_RUN),  # make serve, on
    (Request({LIVE_VERIFY_META: "off"}), "linux", LiveChance.TURNED_OFF),  # make serve, off
    (Request({LIVE_VERIFY_META: "ON"}), "linux", LiveChance.TURNED_OFF),  # only "on" is on
    (Request({LIVE_VERIFY_META: ""}), "linux", LiveChance.TURNED_OFF),
]


@pytest.mark.parametrize(("request_", "platform", "expected"), CASES)
def test_what_the_lesson_may_offer(
    request_: Request | None, platform: str, expected: LiveChance
) -> None:
    assert truth.live_chance(request_, platform) is expected


def test_each_chance_has_its_own_words() -> None:
    off = Request({LIVE_VERIFY_META: "off"})
    texts = {
        LiveChance.CAN_RUN: truth.live_text(True, Request()),
        LiveChance.TURNED_OFF: truth.live_text(False, off, "linux"),
        LiveChance.NO_PROCESSES: truth.live_text(False, None),
    }
    assert len(set(texts.values())) == len(LiveChance)
    assert "turned live runs off" in texts[LiveChance.TURNED_OFF]
    assert "`make serve VERIFY=on`" in texts[LiveChance.TURNED_OFF]
    assert texts[LiveChance.CAN_RUN] == truth.LIVE_SERVED
    assert texts[LiveChance.NO_PROCESSES] == truth.LIVE
    assert truth.live_text(False, off, "emscripten") == truth.LIVE, "no processes says so first"
    for text in texts.values():
        assert truth.COMMAND in text, "every page says how to run it from a terminal"


def test_lessons_1_and_9_share_one_policy() -> None:
    # One rule, written once (course/live.py): lesson 1's names are the shared ones, so the
    # class server's switch means the same to both lessons.
    from asyncfail.course import live

    assert truth.live_chance is live.live_chance
    assert LIVE_VERIFY_META == live.LIVE_VERIFY_META and LiveChance is live.LiveChance


def page_parts(snapshot: bool = False) -> Any:
    """A stand-in for marimo as a lesson's kernel runs it: each part says what it is."""
    return SimpleNamespace(
        md=lambda text: ("md", text),
        accordion=lambda items: ("fold", items),
        lazy=lambda build: ("made when opened", build),
        running_in_notebook=lambda: True,
        cli_args=lambda: [page.SNAPSHOT_FLAG] if snapshot else [],
    )


def test_the_text_shows_with_the_button_and_is_folded_without_it() -> None:
    mo = page_parts()
    off = Request({LIVE_VERIFY_META: "off"})
    assert truth.live_view(mo, True, Request(), "linux") == ("md", truth.LIVE_SERVED)
    # Served by CPython with the switch off: folded, made at once (it costs nothing there).
    assert truth.live_view(mo, False, off, "linux") == (
        "fold",
        {truth.LIVE_FOLD: ("md", truth.LIVE_OFF)},
    )
    # No process can start (the WebAssembly page): folded, its text made when it is opened.
    kind, items = truth.live_view(mo, False, Request(), "emscripten")
    (made,) = items.values()
    assert (kind, list(items), made[0]) == ("fold", [truth.LIVE_FOLD], "made when opened")
    build: Callable[[], object] = made[1]
    assert build() == ("md", truth.LIVE)


def test_a_snapshot_holds_the_folded_text_itself() -> None:
    # A snapshot cannot call back into Python: the fold's text is in it from the start.
    view = truth.live_view(page_parts(snapshot=True), False, None, "linux")
    assert view == ("fold", {truth.LIVE_FOLD: ("md", truth.LIVE)})
