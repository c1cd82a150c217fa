"""The lesson on the replay-readiness checklist: every word the lesson shows, and its defaults.

The questions themselves are the checklist's (``handoff.design.QUESTIONS``), so the lesson asks
exactly what the report answers.
"""

from typing import Any, Final

from asyncfail.ground.durations import TimeUnit
from asyncfail.readiness.design import QUESTIONS, Answer

INTRO: Final = """\
The lab's durable runtime was safe **under its assumptions**: one key carried across every
delivery attempt, an unknown outcome kept apart from a failure, a lookup by key at the effect
boundary, records retained for the whole replay window, and people who own the replay. Describe
your own design below and the checklist tells you which of the sample handoff's recommendations
it meets, in your own terms, running your retention and replay window through the idempotency
contract experiment.

Answer what you know; leave the rest as *unknown* (a blank duration is unknown too). Your
answers stay in this page's memory: nothing is written to the address bar or sent anywhere, and
the report downloads as a file made in your browser.
"""

DEFAULT_ANSWER: Final = Answer.UNKNOWN
DEFAULT_UNIT: Final = TimeUnit.HOURS
UNIT_LABEL: Final = "unit"
DURATION_PLACEHOLDERS: Final[dict[str, str]] = {"retention": "e.g. 24", "replay_window": "e.g. 72"}
OWNER_PLACEHOLDER: Final = "a role or a team"

DESIGN_TITLE: Final = "## Your design"
OWNERS_TITLE: Final = "**Who owns recovery?**"
REPORT_TITLE: Final = "## Your readiness report"
INPUT_ERROR: Final = "Not read; treated as unknown."
REPORT_DOWNLOAD: Final = ("Download the report (Markdown)", "replay-readiness.md")
"""The download button's label and the file's name."""

RETENTION_CHART_TEXT: Final = (
    "### Your retention against your replay window\n\n"
    "The ring is a replay as late as your longest replay window, against your retention; below "
    "the dashed diagonal the record is still there."
)
RETENTION_CHART_TITLE: Final = "Your retention and replay window"
RETENTION_CHART_MISSING: Final = (
    "*Give both the retention and the longest replay window to see whether a late replay can "
    "become a second debit.*"
)


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
    """The amount of a duration question (``retention``, ``replay_window``), as typed."""
    return mo.ui.text(
        placeholder=DURATION_PLACEHOLDERS[question], label=QUESTIONS[question], disabled=snapshot
    )


def unit_control(mo: Any, snapshot: bool) -> Any:
    """The unit beside a duration's amount, starting at ``DEFAULT_UNIT``."""
    return mo.ui.dropdown(
        options=[u.value for u in TimeUnit],
        value=DEFAULT_UNIT.value,
        label=UNIT_LABEL,
        disabled=snapshot,
    )
