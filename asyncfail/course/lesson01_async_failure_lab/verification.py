"""Lesson 1's last section, "Does the model tell the truth?": the verification table the
build recorded (``verified.py`` beside this module, written by ``make verify-record``), its
verdict and rows as the lesson shows them, and where a live run may be offered.

Every page shows the recorded table and the command that runs it. Only a lesson served by
CPython from a checkout can start processes (``can_run_live``): there a button runs the
matrix live, through ``asyncfail.reference.live``, which this module never imports.
"""

import json
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from asyncfail.course import page
from asyncfail.course.lesson01_async_failure_lab.verified import VERIFIED_JSON

# The live policy is shared with lesson 9 (``course.live``); named here as it always was.
from asyncfail.course.live import LIVE_VERIFY_META as LIVE_VERIFY_META
from asyncfail.course.live import LiveChance as LiveChance
from asyncfail.course.live import LiveVerify as LiveVerify
from asyncfail.course.live import can_run_live as can_run_live
from asyncfail.course.live import live_chance
from asyncfail.ground.prose import counted

RECORDED: Final = (
    "**{verdict}** Recorded on {date} on {platform}: {cases}, each delivered up to {deliveries}."
)
AGREES: Final = "Every case agrees with the model."
DISAGREES: Final = "{count} disagree with the model: {names}."

COMMAND: Final = """\
```sh
.venv/bin/asyncfail verify --format text
```
"""

LIVE: Final = (
    "This page shows the table the build recorded: a browser cannot start processes. To run "
    "it live from a checkout (after `make test` or `make lab` created `.venv`; well under a "
    "minute):\n\n" + COMMAND
)

LIVE_SERVED: Final = (
    "This page is served by Python from a checkout, so it can start processes: the button "
    "below runs every case again, here and now, on real processes (well under a minute). The "
    "same run from a terminal:\n\n" + COMMAND
)

LIVE_OFF: Final = (
    "This page is served for a class, and the person serving it has turned live runs off "
    "(`make serve VERIFY=on` turns them on): the table above is the recorded one. To run it "
    "yourself from a checkout (after `make test` or `make lab` created `.venv`; well under a "
    "minute):\n\n" + COMMAND
)
RUNNING: Final = "Running {cases} on real processes"
JUST_RUN: Final = (
    "**{verdict}** Run just now on {platform}: {cases}, each delivered up to {deliveries}."
)

TABLE_PAGE: Final = 16
"""Rows per page of a verification's table: one fault's cases (2 runtimes x 2 keys x 2 records
x 2 receivers), so each page of the default matrix is one fault."""

COLUMNS: Final = {
    "case": "Case (fault, runtime, key, record, receiver)",
    "agrees": "Agrees",
    "model": "Model: attempts · effects · calls · lookups · outcome",
    "real": "Real: attempts · effects · calls · lookups · outcome",
    "workers": "How the real workers ended",
}
"""The table's column labels, by the field each shows (the verdict beside the case, where a
narrow page still shows it)."""


@dataclass(frozen=True, slots=True)
class RecordedVerification:
    """A verification as the section shows it: when (None: just now) and where, and its rows
    as JSON objects."""

    date: str | None
    platform: str
    deliveries: int
    rows: tuple[dict[str, Any], ...]
    disagreements: tuple[str, ...]


def from_document(document: Mapping[str, Any], date: str | None) -> RecordedVerification:
    """A verification's JSON document (``asyncfail verify --format json``, with the platform
    it ran on) as the section shows it; ``date`` is None for a run just now."""
    return RecordedVerification(
        date=date,
        platform=document["platform"],
        deliveries=document["deliveries"],
        rows=tuple(document["rows"]),
        disagreements=tuple(document["disagreements"]),
    )


def recorded() -> RecordedVerification:
    """The verification ``make verify-record`` wrote into ``verified.py`` beside this module."""
    document = json.loads(VERIFIED_JSON)
    return from_document(document, date=document["recorded"])


def live_text(offered: bool, request: object | None = None, platform: str = sys.platform) -> str:
    """What the section says about running the verification itself: ``offered``, whether the
    lesson shows the run button; if not, the session's ``request`` tells a server that turned
    live runs off (``live_chance``) from a page that cannot start processes."""
    if offered:
        return LIVE_SERVED
    return LIVE_OFF if live_chance(request, platform) is LiveChance.TURNED_OFF else LIVE


LIVE_FOLD: Final = "**Run the verification yourself**"
"""The fold's label where the lesson shows no run button (``live_view``)."""


def live_view(
    mo: Any, offered: bool, request: object | None = None, platform: str = sys.platform
) -> Any:
    """What the section shows about running the verification itself (``live_text``): the
    text, where the lesson offers the run (``offered``: its button follows); else the text in a
    fold labelled ``LIVE_FOLD``. Where no process can start (the WebAssembly page, an export:
    ``LiveChance.NO_PROCESSES``) the fold's text is made when it is opened (``page.fold``):
    made at once, its highlighted command cost the WebAssembly page's start 62 ms (Pygments
    finding its lexer), for a fold most readers leave shut. Served by CPython with live runs
    off it is made at once, as it costs nothing there, and the session says the switch is off
    from its first run."""
    text = live_text(offered, request, platform)
    if offered:
        return mo.md(text)
    if live_chance(request, platform) is LiveChance.NO_PROCESSES:
        return page.fold(mo, LIVE_FOLD, lambda: mo.md(text))
    return mo.accordion({LIVE_FOLD: mo.md(text)})


def running(cases: int) -> str:
    """The progress bar's title."""
    return RUNNING.format(cases=counted(cases, "case"))


def summary(found: RecordedVerification) -> str:
    """The verdict, when (or "just now") and where it ran, and how many cases it ran."""
    names = found.disagreements
    verdict = DISAGREES.format(count=len(names), names="; ".join(names)) if names else AGREES
    figures = {
        "verdict": verdict,
        "platform": found.platform,
        "cases": counted(len(found.rows), "case"),
        "deliveries": counted(found.deliveries, "time"),
    }
    if found.date is None:
        return JUST_RUN.format(**figures)
    return RECORDED.format(date=found.date, **figures)


def _figures(figures: dict[str, Any]) -> str:
    return " · ".join(
        str(figures[name]) for name in ("attempts", "effects", "tool_calls", "lookups", "outcome")
    )


def table_rows(found: RecordedVerification) -> list[dict[str, object]]:
    """One row per case, under ``COLUMNS``' labels."""
    return [
        {
            COLUMNS["case"]: " ".join(row["case"].values()),
            COLUMNS["agrees"]: "yes" if row["agrees"] else "NO",
            COLUMNS["model"]: _figures(row["model"]),
            COLUMNS["real"]: _figures(row["real"]),
            COLUMNS["workers"]: " ".join(row["real"]["workers"]),
        }
        for row in found.rows
    ]


def verdict_kind(found: RecordedVerification) -> str:
    """The callout kind of the verdict: success when every case agrees, danger otherwise."""
    return "danger" if found.disagreements else "success"


CASES_LABEL: Final = "**Every case, the model's figures beside the real ones**"
"""The fold that holds a verification's table."""


def verdict_view(mo: Any, found: RecordedVerification) -> Any:
    """A verification as the section lays it out: the verdict, then its table (``mo`` is
    marimo, handed in by the lesson), made when its fold opens (``page.on_open``)."""

    def table() -> Any:
        return mo.ui.table(
            table_rows(found), selection=None, show_column_summaries=False, page_size=TABLE_PAGE
        )

    # Folded: the verdict says whether every case agrees; the cases are there to open. Made
    # when opened: the section is redrawn on each of the lesson's changes, the table is long.
    cases = page.fold(mo, CASES_LABEL, table)
    return mo.vstack([mo.callout(mo.md(summary(found)), kind=verdict_kind(found)), cases])
