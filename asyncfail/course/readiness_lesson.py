"""The lesson on the replay-readiness checklist: every word the lesson shows, and its defaults.

The questions themselves are the checklist's (``handoff.design.QUESTIONS``), so the lesson asks
exactly what the report answers.
"""

from typing import Final

from asyncfail.ground.durations import TimeUnit
from asyncfail.handoff.design import Answer

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
