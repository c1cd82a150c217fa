"""Lesson 9, "What does your engine do?" (``notebooks/09_what_does_your_engine_do.py``): the
seed's crash under three ways of running the debit, in the model and in a real engine (DBOS).

The three runs (``RUNS``) are the checkpoint runtime with no key (a plain engine step), the
checkpoint runtime with the stable step key at a deduplicating receiver, and the course's
durable runtime, each under ``crash-after-effect``; the model runs them (``model_runs``), the
learner predicts each one's debits (``prediction_form``, judged by ``course.prediction``), and
the DBOS rows of the same cases come from the table ``make engine-record`` wrote
(``ground.engine_verified``), or from a live run (``engines.live``, which only the notebook
imports, after its button is pressed; this module never does).
"""

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from asyncfail.course.prediction import GUESS_RANGE, PredictionCheck, read_guess
from asyncfail.course.reveal import DEFAULT_GUESS
from asyncfail.ground.engine_verified import ENGINE_VERIFIED_JSON
from asyncfail.ground.inconclusive import inconclusive_cases
from asyncfail.ground.prose import counted
from asyncfail.lab.faults import Fault
from asyncfail.lab.results import LabResult
from asyncfail.lab.scenario import Mode, Scenario
from asyncfail.lab.settings import KeyStability, LabSettings, ReceiverContract
from asyncfail.lab.simulation import simulate

FAULT: Final = Fault.CRASH_AFTER_EFFECT
"""The seed's crash: the debit happened, the worker died before anything recorded it."""


@dataclass(frozen=True, slots=True)
class EngineRun:
    """One way of running the debit: its form field, its name, and its settings."""

    field: str
    """The prediction form's field (a Python name)."""
    name: str
    mode: Mode
    key: KeyStability
    receiver: ReceiverContract

    def scenario(self) -> Scenario:
        """The model's run of it under the seed's crash."""
        settings = LabSettings(key=self.key, receiver=self.receiver)
        return Scenario(fault=FAULT, mode=self.mode, settings=settings)

    def case(self) -> dict[str, str]:
        """Its case as a verification document writes one (the record is atomic)."""
        return {
            "fault": FAULT.value,
            "mode": self.mode.value,
            "key": self.key.value,
            "record": "atomic",
            "receiver": self.receiver.value,
        }


RUNS: Final = (
    EngineRun(
        "plain",
        "Plain engine step",
        Mode.CHECKPOINT,
        KeyStability.NONE,
        ReceiverContract.LOOKUP_ONLY,
    ),
    EngineRun(
        "keyed",
        "Step with a key at a deduplicating receiver",
        Mode.CHECKPOINT,
        KeyStability.STABLE,
        ReceiverContract.DEDUPE,
    ),
    EngineRun(
        "durable",
        "The course's durable pattern",
        Mode.DURABLE,
        KeyStability.STABLE,
        ReceiverContract.LOOKUP_ONLY,
    ),
)
"""The three runs the lesson sets side by side, in the order it asks about them."""


def model_runs() -> dict[str, LabResult]:
    """Each run's model result, by its form field."""
    return {run.field: simulate(run.scenario()) for run in RUNS}


def prediction_form(mo: Any, prompt: str, label: str) -> Any:
    """The prediction form: ``prompt`` (Markdown) with a ``{plain}``, ``{keyed}`` and
    ``{durable}`` number field each (a whole number in ``GUESS_RANGE``, starting at the
    course's ``DEFAULT_GUESS``), committed at once by a button labelled ``label``."""
    low, high = GUESS_RANGE

    def field() -> Any:
        return mo.ui.number(start=low, stop=high, step=1, value=DEFAULT_GUESS)

    fields = {run.field: field() for run in RUNS}
    return mo.md(prompt).batch(**fields).form(submit_button_label=label, bordered=True)


def judge(
    guesses: Mapping[str, object], results: Mapping[str, LabResult]
) -> tuple[PredictionCheck, ...]:
    """One check per run, in ``RUNS``' order: the guess (read by ``read_guess``) against the
    model's business effects, named as the lesson names the run."""
    return tuple(
        PredictionCheck(
            mode=run.mode,
            guess=read_guess(guesses.get(run.field)),
            effects=results[run.field].counts.effects,
            name=run.name,
        )
        for run in RUNS
    )


# ---------------------------------------------------------------------------------------------
# The real engine's rows


@dataclass(frozen=True, slots=True)
class EngineTable:
    """A DBOS verification as the lesson shows it: when (None: just now), with which DBOS
    version, where, and its rows as JSON objects."""

    date: str | None
    engine: str
    version: str
    platform: str
    deliveries: int
    rows: tuple[dict[str, Any], ...]
    disagreements: tuple[str, ...]
    inconclusive: tuple[str, ...] = ()
    """Cases whose every real run had a call go unanswered with nothing to explain it."""


def from_document(document: Mapping[str, Any], date: str | None) -> EngineTable:
    """A verification document (``asyncfail verify --engine dbos --format json`` with the
    platform, as ``engines.live.run`` returns it) as the lesson shows it."""
    return EngineTable(
        date=date,
        engine=document["engine"],
        version=document["version"],
        platform=document["platform"],
        deliveries=document["deliveries"],
        rows=tuple(document["rows"]),
        disagreements=tuple(document["disagreements"]),
        inconclusive=tuple(document.get("inconclusive", ())),
    )


def recorded() -> EngineTable:
    """The table ``make engine-record`` wrote into ``ground/engine_verified.py``."""
    document = json.loads(ENGINE_VERIFIED_JSON)
    return from_document(document, date=document["recorded"])


def row_of(table: EngineTable, run: EngineRun) -> dict[str, Any] | None:
    """The table's row of ``run``'s case, or None when the table lacks it (a live run that
    was narrowed)."""
    return next((row for row in table.rows if row["case"] == run.case()), None)


RECORDED: Final = (
    "**{verdict}** Recorded on {date} with DBOS {version} on {platform}: {cases}, each "
    "delivered up to {deliveries}."
)
JUST_RUN: Final = (
    "**{verdict}** Run just now with DBOS {version} on {platform}: {cases}, each delivered up "
    "to {deliveries}."
)
AGREES: Final = "Every case agrees with the model."
DISAGREES: Final = "{count} disagree with the model: {names}."
NONE_DISAGREES: Final = "No case disagrees with the model."
RUNNING: Final = "Running {cases} on DBOS"


def summary(table: EngineTable) -> str:
    """The verdict, when (or "just now"), with which DBOS and where it ran, and how many cases."""
    names, unsure = table.disagreements, table.inconclusive
    if names:
        verdict = DISAGREES.format(count=len(names), names="; ".join(names))
    else:
        verdict = NONE_DISAGREES if unsure else AGREES
    if unsure:
        verdict += f" {inconclusive_cases(unsure)}."
    figures = {
        "verdict": verdict,
        "version": table.version,
        "platform": table.platform,
        "cases": counted(len(table.rows), "case"),
        "deliveries": counted(table.deliveries, "time"),
    }
    if table.date is None:
        return JUST_RUN.format(**figures)
    return RECORDED.format(date=table.date, **figures)


def verdict_kind(table: EngineTable) -> str:
    """The verdict's callout kind: danger when a case disagrees, warn when one was
    inconclusive, else success."""
    return "danger" if table.disagreements else "warn" if table.inconclusive else "success"


def running(cases: int) -> str:
    """The live run's progress bar title."""
    return RUNNING.format(cases=counted(cases, "case"))


COLUMNS: Final = {
    "case": "Case (fault, runtime, key, receiver)",
    "agrees": "Agrees",
    "model": "Model: attempts · effects · outcome",
    "real": "DBOS: attempts · effects · outcome",
    "workflows": "DBOS's workflow record",
    "steps": "DBOS's recorded steps",
    "note": "By design",
}
"""The table's column labels, by the field each shows."""
TABLE_PAGE: Final = 6
"""Rows per page: one fault's cases (checkpoint: 2 keys x 2 receivers; durable: 2 keys)."""


def _figures(figures: Mapping[str, Any]) -> str:
    return " · ".join(str(figures[name]) for name in ("attempts", "effects", "outcome"))


def row_verdict(row: Mapping[str, Any]) -> str:
    """A row's "Agrees" cell: yes, inconclusive (every try had an unplanned timeout), or NO."""
    if row["agrees"]:
        return "yes"
    return "inconclusive" if row.get("inconclusive") else "NO"


def table_rows(table: EngineTable) -> list[dict[str, object]]:
    """One row per case, under ``COLUMNS``' labels."""
    return [
        {
            COLUMNS["case"]: " ".join(
                row["case"][name] for name in ("fault", "mode", "key", "receiver")
            ),
            COLUMNS["agrees"]: row_verdict(row),
            COLUMNS["model"]: _figures(row["model"]),
            COLUMNS["real"]: _figures(row["real"]),
            COLUMNS["workflows"]: "; ".join(row["workflows"]),
            COLUMNS["steps"]: "; ".join(row["steps"]),
            COLUMNS["note"]: row["note"] or "",
        }
        for row in table.rows
    ]


MODEL_LINE: Final = "**Model**: {attempts}, **{effects}**, {status}"
DBOS_LINE: Final = "**DBOS**: {attempts}, **{effects}**; workflow {workflows}; steps {steps}"
NO_ROW: Final = "**DBOS**: this run has no row for this case"


def side_by_side(run: EngineRun, result: LabResult, table: EngineTable) -> tuple[str, str]:
    """What the model and DBOS did with ``run``: one line each (Markdown)."""
    counts = result.counts
    model = MODEL_LINE.format(
        attempts=counted(counts.attempts, "delivery attempt"),
        effects=counted(counts.effects, "debit"),
        status=result.status.value,
    )
    row = row_of(table, run)
    if row is None:
        return model, NO_ROW
    real = row["real"]
    engine = DBOS_LINE.format(
        attempts=counted(real["attempts"], "delivery attempt"),
        effects=counted(real["effects"], "debit"),
        workflows="; ".join(row["workflows"]),
        steps="; ".join(row["steps"]),
    )
    return model, engine


MODEL_DEBITS: Final = "Model: debits"
DBOS_DEBITS: Final = "DBOS: debits"


def run_column(mo: Any, run: EngineRun, result: LabResult, table: EngineTable) -> Any:
    """One run: its name, the model's debits and DBOS's as figures, then a line each."""
    model, engine = side_by_side(run, result, table)
    row = row_of(table, run)
    figures = [mo.stat(result.counts.effects, label=MODEL_DEBITS, bordered=True)]
    if row is not None:
        figures.append(mo.stat(row["real"]["effects"], label=DBOS_DEBITS, bordered=True))
    return mo.vstack(
        [
            mo.md(f"### {run.name}"),
            mo.hstack(figures, justify="start"),
            mo.md(model),
            mo.md(engine),
        ]
    )


CASES_LABEL: Final = "**Every case, the model beside DBOS**"
"""The fold that holds the table's every case."""


def engine_view(mo: Any, runs: Mapping[str, LabResult], table: EngineTable) -> Any:
    """The verdict (when, with which DBOS, where), the three runs side by side, then every
    case of the table, folded."""
    columns = [run_column(mo, run, runs[run.field], table) for run in RUNS]
    rows = mo.ui.table(
        table_rows(table), selection=None, show_column_summaries=False, page_size=TABLE_PAGE
    )
    # Folded: the three runs answer the question; every case is there to open.
    return mo.vstack(
        [
            mo.callout(mo.md(summary(table)), kind=verdict_kind(table)),
            mo.hstack(columns, widths="equal", gap=2, align="start"),
            mo.accordion({CASES_LABEL: rows}),
        ]
    )
