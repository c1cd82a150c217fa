"""Learner text never becomes markup: every text box of every lesson, fed hostile payloads, is
echoed as text (its refusal, its report) and the rendered page holds no live tag, event
handler, script link or remote resource made of it; a box over its length limit is refused
inline.

The page is read back with an HTML parser, into the HTML that marimo nests in its elements'
attributes (a callout's ``data-html``), so markup hidden one level down is found too.
"""

import ast
import json
from collections.abc import Callable, Iterator
from functools import cache
from html.parser import HTMLParser
from types import SimpleNamespace
from typing import Any

import marimo as mo
import pytest

from asyncfail.course import lesson02_break_the_assumptions as lesson02
from asyncfail.course import lesson06_record_lifetime as lesson06
from asyncfail.course import page as course_page
from asyncfail.ground.durations import MAX_DURATION_TEXT
from asyncfail.lab.faults import MAX_PLAN_TEXT
from asyncfail.lab.scenario import Scenario
from asyncfail.readiness.design import MAX_TEXT
from asyncfail.risk.inputs import MAX_NUMBER_TEXT
from tests.course.conftest import Lessons
from tests.notebook_support import NOTEBOOKS, load_notebook, run_lesson

PAYLOADS = (
    "<img src=x onerror=alert(1)>",
    "<style>body{display:none}</style>",
    "[x](javascript:alert(1))",
    "![](http://example.com/x.png)",
    "<script>alert(1)</script>",
)
"""What an adversarial learner types: an event handler, a style sheet, a script link, a remote
image and a script element (issue 21, "Learner text")."""

DANGEROUS_TAGS = frozenset(
    {"script", "style", "img", "iframe", "object", "embed", "link", "meta", "base", "form"}
)
DATA_ATTRIBUTES = frozenset({"data-initial-value", "data-value", "data-options", "data-data"})
"""marimo's attributes that hold an element's value as data (a text box's text), never shown as
HTML; every other attribute holding markup (``data-html``, ``data-label``) is shown as HTML."""
URL_ATTRIBUTES = frozenset({"href", "src", "srcset", "action", "formaction", "xlink:href"})


class _Markup(HTMLParser):
    """Every element and attribute of a page, nested HTML in attribute values included."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.elements: list[tuple[str, list[tuple[str, str]]]] = []
        self.nested: list[str] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        pairs = [(name, value or "") for name, value in attrs]
        self.elements.append((tag, pairs))
        for name, value in pairs:
            if name not in DATA_ATTRIBUTES:
                self.nested += [html for html in _decoded(value) if "<" in html]

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def _decoded(value: str) -> list[str]:
    """An attribute's HTML: marimo writes it as a JSON string, or a list of them."""
    try:
        decoded = json.loads(value)
    except ValueError:
        return [value]
    items = decoded if isinstance(decoded, list) else [decoded]
    return [item for item in items if isinstance(item, str)]


def _parsed(page: str) -> Iterator[_Markup]:
    """The page and every HTML nested in its attributes, each parsed."""
    pending = [page]
    while pending:
        parser = _Markup()
        parser.feed(pending.pop())
        parser.close()
        pending += parser.nested
        yield parser


def live_markup(page: str) -> list[str]:
    """What in ``page`` would run, restyle the page or fetch from elsewhere: script, style,
    image and embedding elements, ``on*`` event handlers, ``javascript:`` URLs and URLs to
    another host."""
    found: list[str] = []
    for parser in _parsed(page):
        for tag, attrs in parser.elements:
            if tag in DANGEROUS_TAGS:
                found.append(f"<{tag}>")
            for name, value in attrs:
                url = "".join(value.split()).lower()
                if name.startswith("on"):
                    found.append(f"{tag} {name}=")
                elif name in URL_ATTRIBUTES and (
                    url.startswith("javascript:") or (tag != "a" and url.startswith(("http", "//")))
                ):
                    found.append(f"{tag} {name}={value}")
    return found


def page_text(page: str) -> str:
    """The page's text, nested HTML included, as a reader sees it."""
    return " ".join(" ".join(p.text) for p in _parsed(page))


def test_the_checker_sees_each_payload_as_live_markdown() -> None:
    # The oracle: each payload, put in Markdown unescaped, is caught; escaped, it is not.
    for payload in PAYLOADS:
        raw = mo.callout(mo.md(f"Plan: {payload!r} is not a plan"), kind="warn").text
        assert live_markup(raw), payload
        escaped = course_page.errors(mo, [f"Plan: {payload!r} is not a plan"]).text
        assert live_markup(escaped) == [], payload
        assert repr(payload) in page_text(escaped)


def test_errors_escapes_every_line_and_keeps_the_lead() -> None:
    view = course_page.errors(mo, ["a <b>", "c *d*"], lead="**Not read.**", kind="danger")
    text = page_text(view.text)
    assert "a <b>" in text and "c *d*" in text and text.count("Not read.") == 2
    assert "<strong>Not read.</strong>" in "".join(nested_html(view.text))
    assert live_markup(view.text) == []
    assert course_page.errors(mo, []).text == mo.md("").text


def nested_html(page: str) -> list[str]:
    """The HTML nested in ``page``'s attributes, at every depth."""
    return [html for parser in _parsed(page) for html in parser.nested]


# ---------------------------------------------------------------------------------------------
# Every text box of every lesson. Each entry substitutes a lesson's text boxes (with the other
# definitions of their cells, which marimo substitutes all at once), each set to the text
# ``text(name)`` gives, and says how often the page must echo one text (as text, never markup).

Text = Callable[[str], str]


def _lesson02(text: Text) -> dict[str, object]:
    choices = lesson02.choices_of(Scenario())
    return {
        "choices": mo.ui.dictionary({k: mo.ui.text(value=v) for k, v in choices.items()}),
        "deliveries": mo.ui.number(1, 10, value=3),
        "retention": mo.ui.text(value=text("retention")),
        "delay": mo.ui.text(value=text("delay")),
        "plan": mo.ui.text(value=text("plan")),
    }


@cache
def _lesson03_made() -> dict[str, Any]:
    # The retention is a knob, made with the others and the prediction forms for every
    # profile (``knob_sets``); the delay with the second request. Each is substituted with
    # what is made with it, as the lesson makes them.
    _, made = run_lesson(load_notebook("03_idempotency_contract"))
    together = ("knob_sets", "predictions", "outcome_words", "second")
    return {name: made[name] for name in together}


def _lesson03(text: Text) -> dict[str, object]:
    made = _lesson03_made()
    delay = mo.ui.text(value=text("delay"))
    retention = text("retention")  # the same text under every profile
    sets = made["knob_sets"]
    knobs = mo.ui.dictionary(
        {
            p: mo.ui.dictionary(
                {
                    name: mo.ui.text(value=retention) if name == "retention" else knob
                    for name, knob in sets[p].items()
                }
            )
            for p in sets.value
        }
    )
    return made | {
        "knob_sets": knobs,
        "delay": delay,
        "second_request_row": mo.hstack([made["second"], delay]),
    }


def _lesson04(text: Text) -> dict[str, object]:
    answers = {
        "mode": "durable",
        "deliveries": 3,
        "key": "stable",
        "receiver": "lookup-only",
        "record": "atomic",
        "on_lookup_outage": "fail-closed",
        "on_store_outage": "fail-closed",
        "retention": text("retention"),
    }
    return {
        "exercise": SimpleNamespace(value=answers),
        "get_attempts": lambda: 1,
        "set_attempts": lambda _: None,
    }


def _lesson05(text: Text) -> dict[str, object]:
    return {
        "stall": mo.ui.dropdown({"pause-in-request": "pause-in-request"}, value="pause-in-request"),
        "pause": mo.ui.text(value=text("pause")),
        "lease": mo.ui.text(value=text("lease")),
        "safeguards": mo.ui.dictionary(
            {
                name: mo.ui.dropdown({value: value}, value=value)
                for name, value in (
                    ("claim", "none"),
                    ("receiver", "lookup-only"),
                    ("fencing", "none"),
                )
            }
        ),
    }


def _lesson06(text: Text) -> dict[str, object]:
    return {
        "texts": mo.ui.dictionary(
            {name: mo.ui.text(value=text(name)) for name in lesson06.CONTROL_TEXTS}
        ),
        "deliveries": mo.ui.number(1, 9, value=lesson06.DEFAULT_DELIVERIES),
        "jitter": mo.ui.dropdown(["none"], value="none"),
        "target": mo.ui.dropdown(list(lesson06.TARGETS), value=lesson06.DEFAULT_TARGET),
        "trials": mo.ui.dropdown({"1": 1}, value="1"),
        "seed": mo.ui.number(0, 10, value=0),
    }


OWNERS = ("pause_owner", "replay_approver", "state_verifier")


def _lesson07(text: Text) -> dict[str, object]:
    # Predicting skipped: the owners are echoed in the report, which waits for the guess.
    boxes = ("retention_amount", "window_amount", *OWNERS)
    return {name: mo.ui.text(value=text(name)) for name in boxes} | {
        "skip_prediction": mo.ui.switch(value=True)
    }


Boxes = Callable[[Text], dict[str, object]]
LESSON_BOXES: dict[str, tuple[Boxes, int]] = {
    "02_break_the_assumptions": (_lesson02, 2),  # the plan echoes only the part it cannot read
    "03_idempotency_contract": (_lesson03, 2),
    "04_explore_every_failure": (_lesson04, 1),
    "05_two_workers": (_lesson05, 2),
    "06_record_lifetime": (_lesson06, 4),
    "07_readiness_checklist": (_lesson07, 2 + len(OWNERS)),
}
"""Each lesson with text boxes: its boxes, and how many of them echo a hostile text (each box
refuses it, or, for the owners of lesson 7, the report quotes it)."""
BOX_NAMES: dict[str, frozenset[str]] = {
    "02_break_the_assumptions": frozenset({"retention", "delay", "plan"}),
    "03_idempotency_contract": frozenset({"retention", "delay"}),
    "04_explore_every_failure": frozenset({"retention"}),
    "05_two_workers": frozenset({"pause", "lease"}),
    "06_record_lifetime": frozenset(lesson06.CONTROL_TEXTS),
    "07_readiness_checklist": frozenset({"amount", *OWNERS}),
}
"""The text boxes each lesson's source makes, by the name they are bound to (a key of a
dictionary of boxes, or the function that makes them): what ``LESSON_BOXES`` must cover."""


def _text_boxes(source: str) -> set[str]:
    """The names the ``mo.ui.text`` and ``mo.ui.text_area`` calls of a source are bound to:
    an assignment's target, a keyword argument, a dictionary key or the enclosing function."""
    tree = ast.parse(source)
    found: set[str] = set()

    def is_box(node: ast.AST) -> bool:
        return (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in {"text", "text_area"}
            and ast.unparse(node.func.value) == "mo.ui"
        )

    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and is_box(node.value):
            found |= {ast.unparse(t) for t in node.targets}
        elif isinstance(node, ast.keyword) and node.arg and is_box(node.value):
            found.add(node.arg)
        elif isinstance(node, ast.Dict):
            found |= {
                str(k.value)
                for k, v in zip(node.keys, node.values, strict=True)
                if isinstance(k, ast.Constant) and is_box(v)
            }
        elif isinstance(node, ast.FunctionDef) and any(
            isinstance(r, ast.Return) and r.value and is_box(r.value) for r in node.body
        ):
            found.add(node.name.removesuffix("_control"))
    return found


def test_every_text_box_of_every_lesson_is_fed_the_payloads() -> None:
    # A lesson that gains a text box fails here until it is in LESSON_BOXES.
    course = NOTEBOOKS.parent / "asyncfail" / "course"
    for notebook in sorted(NOTEBOOKS.glob("[0-9][0-9]_*.py")):
        stem = notebook.stem
        modules = [*course.glob(f"lesson{stem[:2]}_*.py"), *course.glob(f"lesson{stem[:2]}_*/*.py")]
        sources = [notebook.read_text(), *(m.read_text() for m in modules)]
        boxes = set().union(*(_text_boxes(s) for s in sources))
        assert boxes == set(BOX_NAMES.get(stem, ())), stem
        assert (stem in LESSON_BOXES) is bool(boxes), stem


@pytest.mark.parametrize("payload", PAYLOADS)
@pytest.mark.parametrize("stem", list(LESSON_BOXES))
def test_a_hostile_text_in_every_box_is_echoed_as_text(
    lessons: Lessons, stem: str, payload: str
) -> None:
    boxes, echoes = LESSON_BOXES[stem]
    substituted = boxes(lambda _: payload)
    page, _ = run_lesson(lessons.notebook(stem), **substituted)
    # Nothing live beyond the lesson's own (lesson 7's report brings its style sheet), shown
    # as the substituted run shows it (revealed if it skips predicting).
    shown = {k: v for k, v in substituted.items() if k == "skip_prediction"}
    plain = run_lesson(lessons.notebook(stem), **shown)[0] if shown else lessons.run(stem)[0]
    assert live_markup(page) == live_markup(plain)
    # The text is there, as text: the test reached each box's echo.
    assert page_text(page).count(payload) >= echoes, page_text(page)


# ---------------------------------------------------------------------------------------------
# Every text box has the length limit of the parser it feeds, and past it is refused inline.

PLAN_BOX = (MAX_PLAN_TEXT, "characters is too long (4,000 at most)")
DURATION_BOX = (MAX_DURATION_TEXT, "characters long, too long for a duration (40 at most)")
NUMBER_BOX = (MAX_NUMBER_TEXT, "is too long (40 characters at most)")
OWNER_BOX = (MAX_TEXT, "characters; at most 10,000 are read")
LIMITS: dict[str, dict[str, tuple[int, str]]] = {
    "02_break_the_assumptions": {
        "retention": DURATION_BOX,
        "delay": DURATION_BOX,
        "plan": PLAN_BOX,
    },
    "03_idempotency_contract": {"retention": DURATION_BOX, "delay": DURATION_BOX},
    "04_explore_every_failure": {"retention": DURATION_BOX},
    "05_two_workers": {"pause": DURATION_BOX, "lease": DURATION_BOX},
    "06_record_lifetime": {
        "retention": DURATION_BOX,
        "crash": NUMBER_BOX,
        "replay": DURATION_BOX,
        "spread": NUMBER_BOX,
    },
    "07_readiness_checklist": {
        "retention_amount": DURATION_BOX,
        "window_amount": DURATION_BOX,
        **dict.fromkeys(OWNERS, OWNER_BOX),
    },
}
"""Each lesson's boxes: the library's limit on the text each takes, and what its refusal of a
longer text says."""


@pytest.mark.parametrize("stem", list(LESSON_BOXES))
def test_limits_cover_every_box(stem: str) -> None:
    # The boxes each lesson's entry fills are the boxes LIMITS names.
    asked: list[str] = []
    LESSON_BOXES[stem][0](lambda name: asked.append(name) or name)
    assert sorted(asked) == sorted(LIMITS.get(stem, {})), stem


@pytest.mark.parametrize("stem", list(LIMITS))
def test_every_text_box_stops_at_the_librarys_limit(lessons: Lessons, stem: str) -> None:
    # marimo writes a box's max_length as data-max-length: the page stops typing there. Lesson
    # 2 makes its boxes only with its settings switched on.
    shown = {"more": mo.ui.switch(value=True)} if stem == "02_break_the_assumptions" else {}
    page, _ = run_lesson(lessons.notebook(stem), **shown) if shown else lessons.run(stem)
    limits = [
        int(dict(attrs).get("data-max-length", "0"))
        for parser in _parsed(page)
        for tag, attrs in parser.elements
        if tag in {"marimo-text", "marimo-text-area"}
    ]
    assert sorted(limits) == sorted(limit for limit, _ in LIMITS[stem].values())


@pytest.mark.parametrize("stem", list(LIMITS))
def test_a_text_past_its_limit_is_refused_inline(lessons: Lessons, stem: str) -> None:
    # What the page's JavaScript sends past the box's limit is still refused, inline: zeros
    # and a one, which each parser would read as a number or a name if it read it at all.
    boxes, _ = LESSON_BOXES[stem]
    limits = LIMITS[stem]
    page, _ = run_lesson(lessons.notebook(stem), **boxes(lambda name: "0" * limits[name][0] + "1"))
    text = page_text(page)
    saids = [said for _, said in limits.values()]
    for name, (_, said) in limits.items():
        assert text.count(said) >= saids.count(said), name
    assert "Traceback" not in text
