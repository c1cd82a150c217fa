"""What every lesson page has around its content: the objectives it opens with, the banner of a
static snapshot, a chart with its text summary and table, and a check for understanding.

Each helper takes the ``marimo`` module as its first argument (the library never imports
marimo), so the lessons lay their pages out the same way without repeating themselves.
"""

from collections.abc import Sequence
from typing import Any, Final

from asyncfail.charts.specs import VegaLite
from asyncfail.course.catalog import LessonInfo
from asyncfail.document.html_page import html_text
from asyncfail.ground.quiz import Question

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


def heading(mo: Any, info: LessonInfo, snapshot: bool) -> Any:
    """The lesson's title, the snapshot banner when it is one, and what the learner will be
    able to do."""
    outcomes = "\n".join(f"- {outcome}" for outcome in info.outcomes)
    parts = [mo.md(f"# {info.title}")]
    if snapshot:
        parts.append(mo.callout(mo.md(SNAPSHOT_BANNER), kind="info"))
    parts.append(mo.md(f"{OBJECTIVES_TITLE}\n\n{outcomes}"))
    return mo.vstack(parts)


def chart(
    mo: Any, spec: dict[str, Any], table: Sequence[dict[str, object]], caption: str = ""
) -> Any:
    """A chart, then ``caption`` (Markdown) if any, its text description (marimo draws charts
    on a canvas, which screen readers cannot read), and its data behind a "show as a table"
    switch. Charts set side by side start at the same height, whatever their captions."""
    return mo.vstack(
        [
            VegaLite(spec),
            *([mo.md(caption)] if caption else []),
            mo.md(f"<small>{html_text(str(spec.get('description', '')))}</small>"),
            mo.accordion(
                {
                    TABLE_LABEL: mo.ui.table(
                        list(table),
                        selection=None,
                        show_column_summaries=False,
                        page_size=10,
                    )
                }
            ),
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
