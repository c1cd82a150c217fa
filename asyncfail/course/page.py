"""What every lesson page has around its content, written once: whether the page is the static
snapshot, the objectives it opens with, a chart with its text summary and table, a check for
understanding and retrieval of an earlier lesson, and a learner's input refused. Predict, then
reveal, is ``course/reveal.py``'s.

Each helper takes the ``marimo`` module as its first argument (the library never imports
marimo), so the lessons lay their pages out the same way without repeating themselves. A
lesson's own words (its prompts, its headings) are the lesson's: it hands them in.
"""

from collections.abc import Callable, Sequence
from typing import Any, Final

from asyncfail.charts.drawing import Drawing
from asyncfail.charts.specs import VegaLite
from asyncfail.course.catalog import LessonInfo
from asyncfail.document.html_page import html_text
from asyncfail.document.markdown import md_text
from asyncfail.ground.quiz import Question

SNAPSHOT_FLAG: Final = "snapshot"
"""The argument that makes a lesson its static snapshot:
``marimo export html notebooks/<lesson>.py -- --snapshot`` (the published static page)."""
OBJECTIVES_TITLE: Final = "**After this lesson you will be able to:**"
SNAPSHOT_BANNER: Final = (
    "**This is a static snapshot**: the results below are computed once, with the lesson's "
    "starting values, and its controls do nothing. [Open the interactive lesson](./) to change "
    "them (it runs Python in your browser)."
)
TABLE_LABEL: Final = "Show the chart as a table"
CHECK_LABEL: Final = "**Check:** {prompt}"
"""How every lesson introduces its check for understanding."""
SNAPSHOT_ANSWER: Final = "**Answer:** {answer}\n\n{explanation}"
"""How a snapshot shows a check's answer, since it cannot take one."""
MARKDOWN_MIME: Final = "text/markdown"


def is_snapshot(mo: Any) -> bool:
    """Whether the page is the published static snapshot (``SNAPSHOT_FLAG`` given after
    ``--``). A snapshot shows the results and the check's answers, since it cannot take a
    prediction; served or edited, a lesson asks first."""
    return SNAPSHOT_FLAG in mo.cli_args()


LESSON_HEADING: Final = (
    '<h2 style="position: absolute; width: 1px; height: 1px; overflow: hidden; '
    'clip: rect(0 0 0 0); white-space: nowrap">The lesson</h2>'
)
"""A heading for screen readers only, under the objectives: the page's folds (marimo draws an
accordion's label as an ``h3``) then follow an ``h2``, as heading order asks, even where the
first screen has no room for a visible one."""


def heading(mo: Any, info: LessonInfo, snapshot: bool) -> Any:
    """The lesson's title, the snapshot banner when it is one, and what the learner will be
    able to do, in one paragraph (a list of three took a fifth of the first screen, which
    must hold the lesson's main control and its result)."""
    outcomes = "; ".join(info.outcomes)
    parts = [mo.md(f"# {info.title}")]
    if snapshot:
        parts.append(mo.callout(mo.md(SNAPSHOT_BANNER), kind="info"))
    parts.append(mo.md(f"{OBJECTIVES_TITLE} {outcomes}.{LESSON_HEADING}"))
    return mo.vstack(parts)


TABLE_FITS: Final = {"contain": "inline-size", "width": "100%"}
"""The style of a chart's table fold: as wide as its column and no wider. Without it, a table
with long rows widened its runtime's panel past the column, and the next panel's chart was
drawn over the table's own buttons (lesson 5: a focused "Columns" hidden, WCAG 2.4.11)."""


def on_open(mo: Any, build: Callable[[], Any]) -> Any:
    """What ``build()`` makes, made when a reader opens the fold or tab holding it: in a live
    page, the first time it shows (``mo.lazy``), so a recompute redraws what is on screen and
    not what nobody opened. Where nothing can call back into Python it is made at once: a
    snapshot, and a lesson run as a script (``app.run()``, outside marimo's kernel)."""
    if is_snapshot(mo) or not mo.running_in_notebook():
        return build()
    return mo.lazy(build)


def fold(mo: Any, label: str, build: Callable[[], Any]) -> Any:
    """A fold labelled ``label`` (Markdown) whose content ``build()`` makes when a reader opens
    it (``on_open``)."""
    return mo.accordion({label: on_open(mo, build)})


def chart(
    mo: Any,
    figure: dict[str, Any] | Drawing,
    table: Sequence[dict[str, object]] | Callable[[], Sequence[dict[str, object]]],
    caption: str = "",
) -> Any:
    """A chart (a Vega-Lite spec, or a ``Drawing`` the library made as SVG), then ``caption``
    (Markdown) if any, its text description (marimo draws Vega-Lite charts on a canvas, which
    screen readers cannot read), and its data as a table in a fold, built when the fold opens
    (in a snapshot, at once). ``table`` is the rows, or what makes them when the fold opens
    (where they cost more to make than the chart: a heatmap's). Charts set side by side start
    at the same height, whatever their captions."""

    description = (
        figure.description if isinstance(figure, Drawing) else str(figure.get("description", ""))
    )

    def as_table() -> Any:
        rows = list(table() if callable(table) else table)
        return mo.ui.table(rows, selection=None, show_column_summaries=False, page_size=10)

    return mo.vstack(
        [
            figure if isinstance(figure, Drawing) else VegaLite(figure),
            *([mo.md(caption)] if caption else []),
            mo.md(f"<small>{html_text(description)}</small>"),
            fold(mo, TABLE_LABEL, as_table).style(TABLE_FITS),
        ]
    )


def check_radio(mo: Any, question: Question) -> Any:
    """The radio a learner answers ``question`` with, under the check's label; ``check`` shows
    it with the feedback on its answer."""
    return mo.ui.radio(
        options=list(question.options), label=CHECK_LABEL.format(prompt=question.prompt)
    )


def check(mo: Any, question: Question, element: Any, snapshot: bool) -> Any:
    """A check for understanding: the radio ``element`` and the feedback on its answer; in a
    snapshot, which cannot take an answer, the question with its answer and explanation."""
    if snapshot:
        answer = SNAPSHOT_ANSWER.format(answer=question.answer, explanation=question.explanation)
        return mo.vstack([mo.md(CHECK_LABEL.format(prompt=question.prompt)), mo.md(answer)])
    feedback = question.feedback(element.value)
    callout = (
        mo.callout(mo.md(feedback), kind="success" if element.value == question.answer else "info")
        if feedback
        else mo.md("")
    )
    return mo.vstack([element, callout])


RECALL_LABEL: Final = "**Before you start, from {earlier}:** {prompt}"
"""How a lesson opens its retrieval question on an earlier lesson."""


def recall_radio(mo: Any, question: Question, earlier: str, snapshot: bool) -> Any:
    """The radio a learner answers a retrieval ``question`` on ``earlier`` (``"lesson 1"``)
    with, before the lesson's new material (inert in a snapshot)."""
    label = RECALL_LABEL.format(earlier=earlier, prompt=question.prompt)
    return mo.ui.radio(options=list(question.options), label=label, disabled=snapshot)


def recall(mo: Any, question: Question, element: Any, earlier: str, snapshot: bool) -> Any:
    """Retrieval practice: ``element`` (``recall_radio``) and the feedback on its answer,
    right or not with the explanation, as a check has; in a snapshot, which cannot take an
    answer, the question with its answer and explanation."""
    if snapshot:
        answer = SNAPSHOT_ANSWER.format(answer=question.answer, explanation=question.explanation)
        label = RECALL_LABEL.format(earlier=earlier, prompt=question.prompt)
        return mo.vstack([mo.md(label), mo.md(answer)])
    return check(mo, question, element, snapshot)


# A learner's input, refused. Every lesson echoes what it cannot read through here, so nothing
# a learner types ever reaches the page as markup.


def errors(mo: Any, lines: Sequence[str], *, kind: str = "warn", lead: str = "") -> Any:
    """The lines that refuse a learner's input, in one callout of ``kind``: each line escaped
    as plain text (``md_text``, the project's one escaping rule: a ``<script>``, a link or an
    image the learner typed shows as the characters typed), after ``lead`` (the lesson's own
    Markdown, such as what the lesson uses instead); an empty Markdown when there are none.

    The callout is an alert (``role="alert"``, WCAG 2.2 status messages 4.1.3 and error
    identification 3.3.1): a screen reader announces the refusal as it appears, without moving
    the focus from the box the learner is typing in."""
    if not lines:
        return mo.md("")
    said = "\n\n".join(" ".join(filter(None, (lead, md_text(line)))) for line in lines)
    return mo.Html(f'<div role="alert">{mo.callout(mo.md(said), kind=kind).text}</div>')
