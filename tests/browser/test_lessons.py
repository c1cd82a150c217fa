"""Every lesson in Chromium, as a learner meets it (issue 23's "Done when"): nothing of the
answer before the guess, the first screen holds the main control and its result, no console
warning once the learner has guessed and changed the main control, and the page stays under
about 3,000 px at 1280 px wide.

The lessons are served by CPython (the course server, `make serve`: `marimo run` of each
notebook, live in seconds); lesson 1 is also checked in its WebAssembly page of the built site,
to show the same holds there, and finished there by the keyboard alone.

A page load costs seconds of CPU (Pyodide's boot, tens), so each page is loaded once: every
check above is made on the same visit, in the order a learner goes, and a failed one is named
and the visit goes on (``Checks``), so one run still reports each check that fails.

Rules, stated once:

- **The answer** of a lesson is defined from the library, never from the page's prose: the
  statuses and debits of the runs the lesson makes, the contract's finding, the checks the
  checklist does not meet, and so on (``ANSWERS``). Before the guess, the page's text (hidden
  parts included: collapsed panels, shadow roots, every attribute, aria labels, titles and the
  JSON marimo keeps in them) holds none of its words; after the guess it holds them, which
  shows the words are ones the page would say.
- **The first screen** is the 1280 x 800 viewport before any scrolling. It must hold the
  lesson's main control and its result, both wholly inside it. In a lesson that asks before it
  tells, the result before the guess is the question's commit button: the learner can answer
  without scrolling, and the answer shows right under it.
- **No console warning**: no message of type warning or error, and no uncaught page error,
  from loading the lesson through the guess to a change of the main control. Chromium's note
  that one of marimo's own preloaded stylesheet images was not used within a few seconds is
  left out: it says how fast a busy machine paints marimo's frame, nothing a lesson prints.
"""

from __future__ import annotations

import html
import re
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from browser import LoopbackGuard  # exports/, on the path in conftest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, expect

from asyncfail.contract.experiment import ContractScenario, evaluate
from asyncfail.course import (
    controls,
    reveal,  # the predict-then-reveal words
)
from asyncfail.course import lesson02_break_the_assumptions as lesson02
from asyncfail.course import lesson04_explore_every_failure as lesson04
from asyncfail.course import lesson05_two_workers as lesson05
from asyncfail.course import lesson06_record_lifetime as lesson06
from asyncfail.course import lesson07_readiness_checklist as lesson07
from asyncfail.course import lesson09_what_does_your_engine_do as lesson09
from asyncfail.course.catalog import LESSONS
from asyncfail.ground.durations import human
from asyncfail.ground.prose import chance, counted
from asyncfail.lab.faults import Fault
from asyncfail.lab.restore import restorations
from asyncfail.lab.results import LabResult
from asyncfail.lab.scenario import SEED_FAULT, Scenario
from asyncfail.lab.simulation import simulate_each_mode
from asyncfail.readiness.verdict import STATUS_LABELS, CheckStatus
from asyncfail.review.handoff import build_review
from asyncfail.risk.report import REAL_RETENTIONS, assess
from tests.browser import keys
from tests.browser.conftest import Checks
from tests.browser.keys import Focused, tab_to, tab_to_radio_of
from tests.browser.test_course_server import Server, server  # noqa: F401 (the fixture)
from tests.notebook_support import lesson_question

pytestmark = pytest.mark.browser

VIEWPORT = {"width": 1280, "height": 800}
HEIGHT_LIMIT = 3_000
"""The issue's "under about 3,000 px at 1280 px wide", after the guess."""
LOAD_MS = 120_000  # a served lesson runs its cells first: seconds, more on a busy machine
REVEAL_S = 60
FIND_MS = 10_000  # an element the settled page lacks is missing, not late
QUIET_S = 1.5
UNRELATED = re.compile(r"was preloaded using link preload but not used within a few seconds")


# ---------------------------------------------------------------------------------------------
# The answer of each lesson, from the library.


def runs_words(results: Iterator[LabResult]) -> set[str]:
    """What a reveal says of runs: each one's status and its debits."""
    return {w for r in results for w in (r.status.value, counted(r.counts.effects, "debit"))}


def answer_01() -> set[str]:
    return runs_words(iter(simulate_each_mode(Scenario(fault=SEED_FAULT)).values()))


def answer_02() -> set[str]:
    scenario = lesson02.start_options()[lesson02.DEFAULT_START_LABEL]
    words = runs_words(iter(simulate_each_mode(scenario).values()))
    return words | {r.change for r in restorations(scenario)}


def answer_03() -> set[str]:
    result = evaluate(ContractScenario())
    return {result.finding.value, result.boundary_rule}


def answer_04() -> set[str]:
    # The explorer's verdicts on the naive loop, which breaks: the matrix's broken cells.
    row = lesson04.ROWS[0]
    found = lesson04.explore_row(
        row, lesson04.DEFAULT_DELIVERIES_SHOWN, lesson04.DEFAULT_MAX_FAULTS
    )
    cells = {lesson04.cell(report, found) for report in found.invariants}
    return {c for c in cells if c != lesson04.HOLDS}


def answer_05() -> set[str]:
    safeguards = {name: controls.choice_options(name)[0] for name in lesson05.SAFEGUARDS}
    settings, _ = lesson05.settings_from_controls(
        str(lesson05.PAUSE_TEXT), str(lesson05.LEASE_TEXT), safeguards
    )
    scenario = lesson05.stalled(lesson05.DEFAULT_STALL.value, settings)
    return runs_words(iter(simulate_each_mode(scenario).values()))


def answer_06() -> set[str]:
    inputs, _ = lesson06.read_controls(
        lesson06.CONTROL_TEXTS,
        lesson06.DEFAULT_DELIVERIES,
        "none",
        lesson06.BROWSER_TRIALS,
        0,
    )
    run = assess(lesson06.aimed(inputs, lesson06.DEFAULT_TARGET))
    words = {f"{name}'s {human(retention)}" for name, retention in REAL_RETENTIONS}
    return words | {chance(run.report.duplicate.probability)}


def answer_07() -> set[str]:
    unmet = [c for c in lesson07.team_report().checks if c.status is CheckStatus.UNMET]
    return {c.reason for c in unmet} | {STATUS_LABELS[CheckStatus.UNMET]}


def answer_08() -> set[str]:
    return {build_review(Fault(SEED_FAULT.value)).summary()}


def answer_09() -> set[str]:
    return runs_words(iter(lesson09.model_runs().values()))


# ---------------------------------------------------------------------------------------------
# How a learner answers and changes each lesson.


def choose(option: str) -> Callable[[Page], None]:
    """Pick ``option`` of a radio before committing."""
    return lambda page: page.get_by_role("radio", name=option).click()


def tick(option: str) -> Callable[[Page], None]:
    """Tick the checkbox ``option`` before committing."""
    return lambda page: page.get_by_label(option).click()


def select(label: str, index: int) -> Callable[[Page], None]:
    """Choose the ``index``-th option of the dropdown labelled ``label``."""
    return lambda page: page.get_by_label(label).select_option(index=index)


def fill(label: str, text: str) -> Callable[[Page], None]:
    def act(page: Page) -> None:
        box = page.get_by_label(label)
        box.fill(text)
        box.press("Enter")

    return act


def slide(label: str) -> Callable[[Page], None]:
    """Move the slider labelled ``label`` one step down, by the keyboard."""
    return lambda page: page.get_by_role("slider", name=label).press("ArrowLeft")


def open_and_fill(section: str, label: str, text: str) -> Callable[[Page], None]:
    def act(page: Page) -> None:
        page.get_by_role("button", name=section).click()
        fill(label, text)(page)

    return act


def nothing(page: Page) -> None:
    """Commit the guess as the form starts (a number per runtime starts at 1)."""


@dataclass(frozen=True)
class Case:
    """One lesson as the tests meet it: its main control (a label), its result before the
    guess (a button's name), how a learner guesses and commits, how they then change the main
    control, and the answer's words."""

    stem: str
    control: str
    result: str
    answer: Callable[[], set[str]]
    guess: Callable[[Page], None]
    change: Callable[[Page], None]
    role: str = "label"
    """How the control is found: by its label, or (``button``) a button's name."""
    asked_again: str = ""
    """What the page says once the change asks for a guess again, in a part that waits for the
    guess and reads no control (``reveal.keep_revealed``): it hides again in the run that follows
    the change, so the next guess comes before its answer."""


CASES: tuple[Case, ...] = (
    Case(
        "01_async_failure_lab",
        "Fault injected into the first delivery",
        "Commit my guess",
        answer_01,
        nothing,
        select("Fault injected into the first delivery", 4),
        asked_again="What to notice shows once you commit your guess.",
    ),
    Case(
        "02_break_the_assumptions",
        "Start from: a broken assumption, or none",
        "Commit my guess",
        answer_02,
        nothing,
        select("Start from: a broken assumption, or none", 0),
        asked_again="What to notice shows once you commit your guess.",
    ),
    Case(
        "03_idempotency_contract",
        "Contract profile: how a rejected reuse is reported",
        "Commit my guess",
        answer_03,
        choose("It applies request 2: a second debit."),
        select("Contract profile: how a rejected reuse is reported", 1),
        asked_again="What to notice shows once you commit your prediction.",
    ),
    Case(
        "04_explore_every_failure",
        "Choose every row you expect to hold",
        "Commit my guess",
        answer_04,
        nothing,
        slide("Faults per plan: at most"),
        role="button",
    ),
    Case(
        "05_two_workers",
        "Worker 1 stalls",
        "Commit my guess",
        answer_05,
        nothing,
        select("Worker 1 stalls", 0),
    ),
    Case(
        "06_record_lifetime",
        "Median replay delay (seconds): operators replay dead letters this late",
        "Commit my prediction",
        answer_06,
        choose(lesson06.prediction_options()[0]),
        fill("Median replay delay (seconds): operators replay dead letters this late", "3600"),
    ),
    Case(
        "07_readiness_checklist",
        lesson07.check_options()[0],
        lesson07.COMMIT_LABEL,
        answer_07,
        tick(lesson07.check_options()[0]),
        open_and_fill(
            "3. How long records live, and how late replays come",
            "How long are deduplication records retained?",
            "24",
        ),
    ),
    Case(
        "08_review_handoff",
        "Select...",
        "Compare my draft",
        answer_08,
        nothing,
        select("Fault the handoff reviews", 4),
        role="button",
    ),
    Case(
        "09_what_does_your_engine_do",
        # Its guesses are the question: the first field, named by the words before it.
        "Plain engine step",
        "Commit my guesses",
        answer_09,
        nothing,
        select("Which run's trace", 1),
    ),
)
"""Every lesson, in course order (``test_every_lesson_has_a_case`` keeps it so)."""


def cases() -> list[Any]:
    """Every case, named by its lesson's number."""
    return [pytest.param(case, id=case.stem[:2]) for case in CASES]


def test_every_lesson_has_a_case() -> None:
    assert [c.stem for c in CASES] == [info.stem for info in LESSONS]


# ---------------------------------------------------------------------------------------------
# Reading the page.

_EVERYTHING = """() => {
  const parts = [];
  const walk = (root) => {
    // Text node by text node: an element's textContent runs its children's text together
    // (a table's "naive loop" and "✗ 35 of 52" would read "naive loop✗ 35 of 52").
    const texts = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = texts.nextNode(); node; node = texts.nextNode()) parts.push(node.nodeValue);
    for (const el of root.querySelectorAll('*')) {
      for (const a of el.attributes) parts.push(a.value);
      if (el.shadowRoot) walk(el.shadowRoot);
    }
  };
  walk(document);
  return parts.join('\\n');
}"""


def everything(page: Page) -> str:
    """All the page's text, hidden or not: the document's and every shadow root's text and
    every attribute's value, with the escapes marimo writes into its JSON undone."""
    text = page.evaluate(_EVERYTHING)
    for _ in range(3):
        text = re.sub(r"\\u([0-9a-fA-F]{4})", lambda m: chr(int(m.group(1), 16)), text)
        text = html.unescape(text).replace('\\"', '"')
    return " ".join(text.split())


def said(words: str, text: str) -> bool:
    """Whether ``text`` says ``words`` as words (a "duplicate" is not "deduplicate")."""
    folded = " ".join(words.split())
    return re.search(rf"(?<![\w-]){re.escape(folded)}(?![\w-])", text) is not None


def settle(page: Page) -> None:
    """Wait until the page's text stops changing (cells run, charts drawn)."""
    last, since, deadline = None, time.monotonic(), time.monotonic() + REVEAL_S
    while time.monotonic() < deadline:
        now = page.evaluate(_EVERYTHING)
        if now != last:
            last, since = now, time.monotonic()
        elif time.monotonic() - since >= QUIET_S:
            return
        page.wait_for_timeout(250)


def height(page: Page) -> int:
    """How tall the lesson is: marimo scrolls its app in ``#App``, not the document."""
    return int(page.evaluate("() => document.getElementById('App').scrollHeight"))


def control(page: Page, case: Case) -> Any:
    if case.role == "button":
        return page.get_by_role("button", name=case.control).first
    return page.get_by_label(case.control).first


@dataclass
class Visit:
    page: Page
    console: list[str]
    blocked: list[str]
    """Requests aborted for leaving loopback (a guarded visit only)."""


@pytest.fixture
def visit(browser: Any) -> Iterator[Callable[..., Visit]]:
    """Open a lesson at 1280 x 800 and collect its console's warnings and errors; a guarded
    visit also lets only loopback requests pass (``LoopbackGuard``: every request goes through
    the test's Python, so a served lesson's many requests are not routed)."""
    contexts = []

    def open_(url: str, guarded: bool = False) -> Visit:
        context = browser.new_context(viewport=VIEWPORT)
        contexts.append(context)
        guard = LoopbackGuard()
        if guarded:
            guard.install(context)
        page = context.new_page()
        page.set_default_timeout(30_000)
        said_: list[str] = []
        page.on(
            "console",
            lambda m: (
                said_.append(f"{m.type}: {m.text}")
                if m.type in ("warning", "error") and not UNRELATED.search(m.text)
                else None
            ),
        )
        page.on("pageerror", lambda e: said_.append(f"pageerror: {e}"))
        page.goto(url)
        return Visit(page, said_, guard.blocked)

    yield open_
    for context in contexts:
        context.close()


def open_lesson(visit: Callable[[str], Visit], url: str, case: Case) -> Visit:
    seen = visit(url)
    expect(seen.page.get_by_role("button", name=case.result)).to_be_visible(timeout=LOAD_MS)
    settle(seen.page)
    return seen


def lesson_url(server: Server, case: Case) -> str:  # noqa: F811
    return f"{server.url}lessons/{case.stem}/"


def commit(page: Page, case: Case) -> None:
    case.guess(page)
    page.get_by_role("button", name=case.result).click()


def wait_for_words(page: Page, words: set[str]) -> str:
    """The page's text once it says one of ``words`` (the reveal came), or as it is when
    ``REVEAL_S`` ran out."""
    deadline = time.monotonic() + REVEAL_S
    while True:
        text = everything(page)
        if any(said(w, text) for w in words) or time.monotonic() > deadline:
            return text
        page.wait_for_timeout(500)


# ---------------------------------------------------------------------------------------------
# The checks, each made in one place, on a page already open.


def first_screen(check: Checks, page: Page, case: Case) -> None:
    """The first screen (the viewport before any scrolling) holds the main control and its
    result, each wholly inside it."""
    for name, element in (
        ("the main control", control(page, case)),
        ("its result", page.get_by_role("button", name=case.result)),
    ):
        try:
            box = element.bounding_box(timeout=FIND_MS)
        except PlaywrightError as error:
            check(False, f"the first screen holds {name}", f"not found: {error.message}")
            continue
        check(box is not None, f"the first screen holds {name}", "no box: not drawn")
        if box is not None:
            inside = (
                box["y"] >= 0
                and box["y"] + box["height"] <= VIEWPORT["height"]
                and box["x"] >= 0
                and box["x"] + box["width"] <= VIEWPORT["width"]
            )
            check(inside, f"the first screen holds {name} wholly", box)


def nothing_of_the_answer(check: Checks, page: Page, words: set[str]) -> None:
    """Before the guess the page's text, hidden parts included, holds none of the answer."""
    before = everything(page)
    told = sorted(w for w in words if said(w, before))
    check(told == [], "no answer before the guess", told)


def the_answer_revealed(check: Checks, page: Page, words: set[str]) -> None:
    """After the guess the page says the answer (so its words are ones the page would say)."""
    after = wait_for_words(page, words)
    check(any(said(w, after) for w in words), "the reveal says the answer", sorted(words))


def asked_again(check: Checks, page: Page, case: Case) -> None:
    """After a change that asks for the guess again, the parts that wait for the guess hide
    again, those that read no control included (``Case.asked_again``); a guess committed in the
    new choice's form shows them again (each choice has a form of its own, made once)."""
    if case.asked_again:
        shown = page.get_by_text(case.asked_again).first
        try:
            shown.wait_for(state="visible", timeout=FIND_MS)
        except PlaywrightError:
            check(False, "the change asks again: what waits for the guess hides", case.asked_again)
            return
        commit(page, case)
        try:
            shown.wait_for(state="hidden", timeout=FIND_MS)
        except PlaywrightError:
            check(False, "a guess committed again answers the new choice", case.asked_again)


# ---------------------------------------------------------------------------------------------
# The test, served by CPython: one load per lesson.


HEIGHTS: dict[str, int] = {}
"""Each lesson's height after the guess, as measured (printed at the end with ``-s``)."""
TALL: dict[str, str] = {}
"""Lessons known to be taller than ``HEIGHT_LIMIT`` after the guess, and why."""


@pytest.mark.parametrize("case", cases())
def test_a_learner_meets_the_lesson_asked_first_then_told_and_it_stays_quiet(
    visit: Any,
    server: Server,  # noqa: F811
    case: Case,
) -> None:
    """The lesson as a learner goes through it, in one load: the first screen holds the main
    control and its result; nothing of the answer before the guess; the guess committed, the
    answer said; the height after the guess; the main control changed; and no console warning
    from the load to the change. Each check is named when it fails (``Checks``)."""
    words = case.answer()
    assert words, "an answer to look for"
    seen = open_lesson(visit, lesson_url(server, case), case)
    page = seen.page
    with Checks(case.stem) as check:
        page.wait_for_timeout(500)
        first_screen(check, page, case)
        nothing_of_the_answer(check, page, words)
        commit(page, case)
        the_answer_revealed(check, page, words)
        settle(page)
        tall = height(page)
        HEIGHTS[case.stem] = tall
        print(f"{case.stem}: {tall} px after the guess")
        case.change(page)
        settle(page)
        asked_again(check, page, case)
        check(seen.console == [], "no console warning from the load to the change", seen.console)
        if case.stem not in TALL:
            check(tall < HEIGHT_LIMIT, f"under {HEIGHT_LIMIT} px after the guess", f"{tall} px")
    if case.stem in TALL:
        pytest.xfail(f"{tall} px: {TALL[case.stem]}")


# ---------------------------------------------------------------------------------------------
# The same in the WebAssembly page of the built site (lesson 1): Python runs in the browser.


WASM_KNOWN = frozenset(
    {
        # marimo's WebAssembly frontend, on a page that is not cross-origin isolated.
        "warning: Not running in a secure context; interrupts are not available.",
    }
)
"""What the WebAssembly page prints that no lesson does: the site's to silence (exports/),
listed so that anything else, a Vega warning above all, still fails the test."""
LIVE = 'html[data-lesson-state="live"]'
BOOT_MS = 180_000  # Pyodide boots in the page: 15-30 s on a busy two-core machine


def test_lesson_1_in_its_webassembly_page_asks_first_is_finished_by_keyboard_and_stays_quiet(
    visit: Any, site_url: str
) -> None:
    """Lesson 1 in the built site's WebAssembly page, one boot (Pyodide's boot is the costliest
    load of the suite). As served: the first screen holds the main control and its result, and
    nothing of the answer shows before the guess. By the keyboard alone (WCAG 2.1.1, 2.4.7):
    the guess typed and committed, the reveal, the check's radio chosen with the arrows, every
    stop reached by Tab with its focus drawn and in sight; the answer said. Then the main
    control changed, and nothing printed on the console but ``WASM_KNOWN``, no request beyond
    loopback. test_keyboard.py finishes every lesson by the keyboard, served by CPython."""
    question = lesson_question("01_async_failure_lab")
    case = CASES[0]
    words = case.answer()
    seen = visit(f"{site_url}lessons/{case.stem}/", guarded=True)
    page = seen.page
    page.wait_for_selector(LIVE, state="attached", timeout=BOOT_MS)
    expect(page.get_by_role("button", name=case.result)).to_be_visible(timeout=LOAD_MS)
    settle(page)
    with Checks(f"{case.stem}, WebAssembly page") as check:
        first_screen(check, page, case)
        nothing_of_the_answer(check, page, words)
        page.locator("body").click(position={"x": 1, "y": 1})  # from the page, not the URL bar
        stops: list[Focused] = []
        # Predict: the first number of the prediction form, typed over; then commit the guess.
        tab_to(page, lambda f: f["tag"] == "INPUT" and f["type"] in {"text", "number"}, stops)
        page.keyboard.press("Control+A")
        page.keyboard.type("2")
        tab_to(page, lambda f: f["tag"] == "BUTTON" and f["text"] == reveal.COMMIT_LABEL, stops)
        page.keyboard.press("Enter")
        # Reveal: the counts of both runtimes show once the guess is committed.
        expect(page.get_by_text(reveal.EFFECTS_LABEL).first).to_be_visible(timeout=60_000)
        the_answer_revealed(check, page, words)
        keys.settle(page)  # its charts drawn: a control focused before would move out of sight
        # Check: Tab reaches the check's radio group; the arrows choose its right answer, and
        # the feedback says so.
        tab_to_radio_of(page, question.answer, stops)
        feedback = question.feedback(question.answer)
        expect(page.get_by_text(feedback).first).to_be_visible(timeout=60_000)
        undrawn = [f for f in stops if not f["drawn"]]
        check(undrawn == [], "focus drawn on every stop", undrawn[:5])
        hidden = [f for f in stops if not f["shown"]]
        check(hidden == [], "focus never obscured or out of the window", hidden[:5])
        case.change(page)
        settle(page)
        asked_again(check, page, case)
        printed = [m for m in seen.console if m not in WASM_KNOWN]
        check(printed == [], "nothing on the console from the boot to the change", printed)
        check(seen.blocked == [], "no request beyond loopback", seen.blocked)
