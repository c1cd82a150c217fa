"""Every lesson finished by the keyboard alone (issue 24, WCAG 2.1.1 and 2.4.7), served by
CPython as `make serve` serves it.

From the top of the page, with Tab, Shift+Tab, Space, Enter, the arrows and typing (one click
on the page's corner puts the focus in the page, not in the address bar), a learner:

1. makes the lesson's guess in its own widget (a number per runtime, a radio, a checkbox, a
   multiselect's options) and commits it with the lesson's commit button;
2. sees the reveal: words of the lesson's answer, absent from the whole page before the guess
   (hidden parts included), appear. The answers and the commit buttons are
   test_lessons.py's ``CASES``, derived from the library, not copied here. Where the reveal
   shows a run in two tabs (lessons 2 and 5), Tab enters them at the first and ArrowRight
   shows the other; Enter opens a fold (the first closed one Tab reaches);
3. reaches the lesson's check for understanding, chooses its right answer with the arrows and
   is told "Right." with why (``Question.feedback``);

and every element focused on the way has its focus drawn (an outline or a ring). Then the
finished lesson loses no text with WCAG's text spacing (1.4.12), and reflows at 320 px, with
each fold open in turn (1.4.10; both test_reflow.py's checks).

Lesson 1's WebAssembly page is finished the same way in test_a11y.py.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from asyncfail.course import lesson06_record_lifetime as lesson06
from tests.browser.keys import (
    Focused,
    focus_settles,
    focused,
    settle,
    tab_to,
    tab_to_radio_of,
)
from tests.browser.test_course_server import Server, server  # noqa: F401 (the fixture)
from tests.browser.test_lessons import (
    CASES,
    LOAD_MS,
    Case,
    everything,
    said,
    wait_for_words,
)
from tests.browser.test_reflow import NARROW, clipped_when_spaced, sideways
from tests.notebook_support import lesson_question

pytestmark = pytest.mark.browser


Step = Callable[[Any, list[Focused]], None]
"""One keyboard action of a guess: the page, and the list every focused element goes to."""


def number(text: str, name: str = "Naive runtime") -> Step:
    """Tab to the number box named ``name`` (a number per runtime, or per engine, named by the
    words before it in the prompt: exports/a11y/a11y.js), type ``text`` over its value."""

    def act(page: Any, seen: list[Focused]) -> None:
        tab_to(page, lambda f: f["tag"] == "INPUT" and f["label"] == name, seen)
        page.keyboard.press("Control+A")
        page.keyboard.type(text)
        now = focused(page)
        assert now is not None and now["value"] == text, now

    return act


def radio(option: str) -> Step:
    """Tab to the radio group that offers ``option`` and choose it with the arrows."""

    def act(page: Any, seen: list[Focused]) -> None:
        tab_to_radio_of(page, option, seen)
        now = focused(page)
        assert now is not None and now["checked"] == "true", now

    return act


def tick(page: Any, seen: list[Focused]) -> None:
    """Tab to the first checkbox and tick it with Space."""
    tab_to(page, lambda f: f["role"] == "checkbox", seen)
    page.keyboard.press("Space")
    now = focused(page)
    assert now is not None and now["checked"] == "true", now


EMPTY_MULTISELECT = "Select..."
"""What marimo's multiselect button says while nothing is chosen."""


def pick(page: Any, seen: list[Focused]) -> None:
    """Tab to the next empty multiselect, open it with Enter, choose its highlighted (first)
    option with Enter and close it with Escape: the button then names the choice."""
    tab_to(page, lambda f: f["tag"] == "BUTTON" and f["text"] == EMPTY_MULTISELECT, seen)
    page.keyboard.press("Enter")
    choices = page.get_by_role("listbox")  # its popup (a native select's options are not one)
    expect(choices).to_have_count(1)
    seen.append(focus_settles(page, lambda f: f["role"] == "combobox"))
    page.keyboard.press("Enter")
    page.keyboard.press("Escape")
    expect(choices).to_have_count(0)
    now = focus_settles(page, lambda f: f["tag"] == "BUTTON")
    assert now["text"] not in ("", EMPTY_MULTISELECT), now


GUESSES: dict[str, tuple[Step, ...]] = {
    "01_async_failure_lab": (number("2"),),
    "02_break_the_assumptions": (number("2"),),
    "03_idempotency_contract": (radio("It applies request 2: a second debit."),),
    "04_explore_every_failure": (pick,),
    "05_two_workers": (number("2"),),
    "06_record_lifetime": (radio(lesson06.prediction_options()[1]),),
    "07_readiness_checklist": (tick,),
    "08_review_handoff": (pick, pick),  # the draft: a P0 and what must hold before a replay
    "09_what_does_your_engine_do": (number("2", "Plain engine step"),),
}
"""How each lesson's guess is made by keyboard, in its own widget."""


VIEWS: dict[str, tuple[str, str]] = {
    "02_break_the_assumptions": ("Message by message", "Against time"),
    "05_two_workers": ("Message by message", "Against time"),
}
"""The lessons whose reveal shows a run in two tabs (``mo.ui.tabs``): the first, then the other."""
TAB_LISTS: dict[str, list[str]] = {
    "02_break_the_assumptions": ["The traces"],
    "05_two_workers": ["naive runtime", "durable runtime"],
}
"""Each tab list's name, in page order: the heading just before it (marimo leaves it none; the
site's naming script, exports/a11y/a11y.js, names it, so a screen reader says which it is)."""


def switch_view(
    page: Any, views: tuple[str, str], tab_lists: list[str], seen: list[Focused]
) -> None:
    """Tab into the first tab list: it keeps its first tab; ArrowRight shows the other. Every
    tab list on the page is named, as ``tab_lists`` says."""
    first, other = views
    tab = tab_to(page, lambda f: f["role"] == "tab", seen)
    assert (tab["text"], tab["checked"]) == (first, "true"), tab
    lists = page.get_by_role("tablist")
    names = [lists.nth(i).get_attribute("aria-label") for i in range(lists.count())]
    assert names == tab_lists, names
    page.keyboard.press("ArrowRight")
    now = focused(page)
    assert now is not None and (now["text"], now["checked"]) == (other, "true"), now
    seen.append(now)
    # The other view is made when its tab opens (page.on_open): it grows in below the tabs,
    # and a control focused meanwhile would be pushed out of the window.
    settle(page, quiet_s=1.0)


def open_fold(page: Any, seen: list[Focused]) -> None:
    """Tab to the first closed fold (an accordion's title, not a popup's button) and open it
    with Enter: the focus stays on it, now expanded."""
    closed = tab_to(page, lambda f: f["expanded"] == "false" and not f["popup"], seen)
    page.keyboard.press("Enter")
    now = focus_settles(page, lambda f: f["expanded"] == "true")
    assert now["text"] == closed["text"], (closed, now)
    seen.append(now)
    # The fold grows to its height over a transition: a control inside it focused meanwhile is
    # scrolled to where it was, then pushed below the window as the fold goes on growing.
    settle(page, quiet_s=1.0)


OPENED = "data-test-opened"
FOLDS = f'button[aria-expanded="false"]:not([aria-haspopup]):not([{OPENED}]):visible'
"""A closed fold's title (an accordion's; a popup's button has ``aria-haspopup``) not opened
before."""
MAX_FOLDS = 40


def open_each_fold(page: Any) -> Iterator[str]:
    """Open each closed fold once, in page order, those that appear inside one opened as well,
    and give its title once it is open. One at a time: an accordion that keeps one item open
    closes it as it opens another. Opened by a click in the page's script: this is about what
    the fold shows, and marimo's badge, fixed at the window's corner, may lie over its title."""
    for _fold in range(MAX_FOLDS):
        closed = page.locator(FOLDS)
        if closed.count() == 0:
            return
        fold = closed.first.element_handle()
        fold.evaluate(f"(el) => {{ el.setAttribute('{OPENED}', ''); el.click(); }}")
        page.wait_for_function("(el) => el.getAttribute('aria-expanded') === 'true'", arg=fold)
        yield fold.inner_text()
    raise AssertionError(f"{page.url}: still a closed fold after opening {MAX_FOLDS}")


def test_every_lesson_has_a_keyboard_guess() -> None:
    assert list(GUESSES) == [case.stem for case in CASES]


@pytest.mark.parametrize("case", [pytest.param(c, id=c.stem[:2]) for c in CASES])
def test_a_lesson_is_finished_with_the_keyboard_alone(
    guarded_page: Any,
    server: Server,  # noqa: F811 (the imported fixture)
    case: Case,
) -> None:
    question = lesson_question(case.stem)
    words = case.answer()
    page, guard = guarded_page
    page.goto(f"{server.url}lessons/{case.stem}/")
    expect(page.get_by_role("button", name=case.result)).to_be_visible(timeout=LOAD_MS)
    settle(page)
    before = everything(page)
    assert [w for w in words if said(w, before)] == [], "the answer shows before the guess"
    page.locator("body").click(position={"x": 1, "y": 1})  # the page, not the address bar
    seen: list[Focused] = []
    # 1. Guess, in the lesson's own widget, and commit with its button.
    for step in GUESSES[case.stem]:
        step(page, seen)
    tab_to(page, lambda f: f["tag"] == "BUTTON" and f["text"] == case.result, seen)
    page.keyboard.press("Enter")
    # 2. The reveal: the answer's words appear.
    after = wait_for_words(page, words)
    assert [w for w in words if said(w, after)], "the reveal says the answer"
    settle(page)
    if case.stem in VIEWS:
        switch_view(page, VIEWS[case.stem], TAB_LISTS[case.stem], seen)
    open_fold(page, seen)
    # 3. The check: its right answer chosen with the arrows, and the feedback says so.
    tab_to_radio_of(page, question.answer, seen)
    expect(page.get_by_text(question.feedback(question.answer)).first).to_be_visible(
        timeout=LOAD_MS
    )
    undrawn = [f for f in seen if not f["drawn"]]
    assert undrawn == [], f"focus not drawn on {undrawn[:5]}"
    hidden = [f for f in seen if not f["shown"]]
    assert hidden == [], f"focus obscured or out of the window on {hidden[:5]}"
    # 4. The finished lesson with a reader's text spacing, then read on a phone
    # (test_reflow.py): at 320 px, then with each fold open in turn.
    assert clipped_when_spaced(page) == []
    page.set_viewport_size(NARROW)
    settle(page)
    assert sideways(page) == []
    for fold in open_each_fold(page):
        settle(page, quiet_s=0.5)
        assert sideways(page) == [], fold
    assert guard.blocked == []
