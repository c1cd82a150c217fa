"""Lesson 7, "Take the replay-readiness checklist to your own design"
(``notebooks/07_readiness_checklist.py``): its controls, with their defaults, and the team's
design the learner assesses by hand before the checklist answers.

The questions themselves are the checklist's (``handoff.design.QUESTIONS``), so the lesson asks
exactly what the report answers; what the team's design fails is the checklist's own answer
(``readiness.report.assess``), never written here.
"""

from typing import Any, Final

from asyncfail.course import reveal
from asyncfail.document.markdown import md_table, md_text
from asyncfail.document.markup import Table
from asyncfail.ground.durations import MAX_DURATION_TEXT, TimeUnit
from asyncfail.ground.prose import counted
from asyncfail.readiness.checks import CHECKS
from asyncfail.readiness.design import QUESTIONS, Answer, design_from_answers
from asyncfail.readiness.report import ReadinessReport, answer_text, assess
from asyncfail.readiness.verdict import STATUS_LABELS, CheckStatus, heading

DEFAULT_ANSWER: Final = Answer.UNKNOWN
DEFAULT_UNIT: Final = TimeUnit.HOURS
UNIT_LABEL: Final = "unit"
DURATION_PLACEHOLDERS: Final[dict[str, str]] = {"retention": "e.g. 24", "replay_window": "e.g. 72"}


def answer_control(mo: Any, question: str, snapshot: bool) -> Any:
    """A yes / no / unknown question of the checklist (``QUESTIONS[question]``), starting at
    ``DEFAULT_ANSWER``; inert in a snapshot (``mo`` is marimo, handed in by the lesson)."""
    return mo.ui.radio(
        options=[a.value for a in Answer],
        value=DEFAULT_ANSWER.value,
        inline=True,
        label=QUESTIONS[question],
        disabled=snapshot,
    )


def amount_control(mo: Any, question: str, snapshot: bool) -> Any:
    """The amount of a duration question (``retention``, ``replay_window``), as typed, up to
    ``MAX_DURATION_TEXT`` characters."""
    return mo.ui.text(
        placeholder=DURATION_PLACEHOLDERS[question],
        max_length=MAX_DURATION_TEXT,
        label=QUESTIONS[question],
        disabled=snapshot,
    )


def unit_control(mo: Any, snapshot: bool) -> Any:
    """The unit beside a duration's amount, starting at ``DEFAULT_UNIT``."""
    return mo.ui.dropdown(
        options=[u.value for u in TimeUnit],
        value=DEFAULT_UNIT.value,
        label=UNIT_LABEL,
        disabled=snapshot,
    )


# ---------------------------------------------------------------------------------------------
# Predict first: a team's design, assessed by the learner before the checklist answers.

TEAM_ANSWERS: Final[dict[str, object]] = {
    "key_across_attempts": "yes",
    "key_scope": "attempt",
    "unknown_outcome_separate": "yes",
    "lookup_by_key": "yes",
    "retention": ("72", "hours"),
    "replay_window": ("24", "hours"),
    "fingerprint_compared": "yes",
    "pause_owner": "the on-call engineer",
    "replay_approver": "the payments lead",
    "state_verifier": "the finance team",
}
"""The team's design, as the lesson's form takes answers: the instructor guide's worked design
(docs/teaching.md) with one change, a key that identifies the delivery attempt although the
team carries it across every attempt. Every answer is given, so the checklist decides each
check."""

TEAM_HEADER: Final = ("Question", "The team's answer")
PREDICT_PROMPT: Final = "**Predict first.** Which checks does it **not meet**? Tick each, or none."
COMMIT_LABEL: Final = "Compare with the checklist"
UNMET_TITLE: Final = "Checks not met"
"""How the comparison of the learner's choice with the checklist's is titled."""


def team_report() -> ReadinessReport:
    """The checklist's report on the team's design (``TEAM_ANSWERS``)."""
    design, errors = design_from_answers(dict(TEAM_ANSWERS))
    if errors:  # The team's answers are the library's own: a failure here is a defect.
        raise ValueError("; ".join(errors))
    return assess(design)


def team_table(report: ReadinessReport) -> str:
    """The team's design as a Markdown table, a row per question in the order the checklist
    asks them, each answer as the report's design table says it."""
    rows = tuple(
        ((question,), (answer_text(getattr(report.design, field)),))
        for field, question in QUESTIONS.items()
    )
    return md_table(Table(header=TEAM_HEADER, rows=rows), left=True)


def check_options() -> list[str]:
    """Every check's title, offered in alphabetical order so the report's order gives nothing
    away."""
    return sorted(heading(check)[1] for check in CHECKS)


def unmet_titles(report: ReadinessReport) -> list[str]:
    """The titles of the checks ``report`` does not meet, in report order: the answer to the
    prediction."""
    return [c.title for c in report.checks if c.status is CheckStatus.UNMET]


def prediction_form(mo: Any, snapshot: bool) -> Any:
    """The prediction: a checkbox per check (``check_options``, all six in sight, none
    ticked) under ``PREDICT_PROMPT`` and a button that commits them. Its value is ``None``
    until committed (so ``reveal.ask`` reads it), then a tick per check, by the names ``check0``
    to ``check5`` (``chosen`` reads them)."""
    boxes = {
        f"check{i}": mo.ui.checkbox(label=title, disabled=snapshot)
        for i, title in enumerate(check_options())
    }
    template = "\n\n".join([PREDICT_PROMPT, *(f"{{{name}}}" for name in boxes)])
    return mo.md(template).batch(**boxes).form(submit_button_label=COMMIT_LABEL, bordered=True)


def chosen(value: object) -> list[str] | None:
    """The checks a committed ``prediction_form`` ticks, in ``check_options``' order; ``None``
    before it is committed."""
    if value is None:
        return None
    ticks = value if isinstance(value, dict) else {}
    return [title for i, title in enumerate(check_options()) if ticks.get(f"check{i}") is True]


ANSWER_HEADING: Final = "## The checklist's answer for the team's design"
UNMET_LINE: Final = "**{status} · {priority} · {title}**\n\n{reason}"
REST_LINE: Final = "The other {rest} are met."


def team_answer(mo: Any, report: ReadinessReport, chosen: object) -> Any:
    """The checklist's answer on the team's design: the learner's ``chosen`` titles compared
    with the checks not met (``reveal.set_callout``; nothing to compare while ``chosen`` is
    ``None``, as in a snapshot), then each check not met with its reason, and how many the
    design meets."""
    unmet = [c for c in report.checks if c.status is CheckStatus.UNMET]
    compared = (
        [reveal.set_callout(mo, UNMET_TITLE, chosen, unmet_titles(report))]
        if chosen is not None
        else []
    )
    reasons = [
        mo.callout(
            mo.md(
                UNMET_LINE.format(
                    status=STATUS_LABELS[c.status],
                    priority=c.priority.value if c.priority else "Contract",
                    title=md_text(c.title),
                    reason=md_text(c.reason),
                )
            ),
            kind="danger",
        )
        for c in unmet
    ]
    rest = report.tally()[CheckStatus.MET]
    return mo.vstack(
        [
            *compared,
            mo.md(ANSWER_HEADING),
            *reasons,
            mo.md(REST_LINE.format(rest=counted(rest, "check"))),
        ]
    )


STATUS_HEADER: Final = ("Check", "Your design")


def status_table(report: ReadinessReport) -> str:
    """Each check of ``report`` and its status, as a Markdown table: the report's verdicts in
    sight while the whole report stays folded."""
    rows = tuple(((c.title,), (STATUS_LABELS[c.status],)) for c in report.checks)
    return md_table(Table(header=STATUS_HEADER, rows=rows), left=True)
