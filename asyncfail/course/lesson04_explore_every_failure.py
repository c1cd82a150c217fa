"""Lesson 4, "Explore every failure" (``notebooks/04_explore_every_failure.py``): the settings
its matrix compares, its exercise's start, answer and checking, and the texts it derives from
explorations.

The matrix runs the explorer (``asyncfail.explore``) for each row of ``ROWS``; the exercise runs
it for the learner's own settings. Nothing here states a result: every count, counterexample and
verdict is the explorer's.
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from asyncfail.course.prediction import read_guess
from asyncfail.document.markdown import md_table, md_text
from asyncfail.document.markup import Rich, Table
from asyncfail.explore.explorer import Exploration, InvariantReport, explore
from asyncfail.explore.invariants import REASONS, RULES, Invariant
from asyncfail.explore.plans import MAX_FAULTS
from asyncfail.ground.durations import duration_error, parse_duration
from asyncfail.ground.prose import counted, echoed
from asyncfail.lab.faults import FaultPlan, plan_text
from asyncfail.lab.scenario import DEFAULT_DELIVERIES, MAX_DELIVERIES, Mode, Scenario
from asyncfail.lab.settings import LabSettings


@dataclass(frozen=True, slots=True)
class Row:
    """One row of the matrix: a runtime and its settings."""

    title: str
    mode: Mode
    settings: LabSettings


ROWS: Final[tuple[Row, ...]] = (
    Row("naive loop", Mode.NAIVE, LabSettings()),
    Row("durable, the seed's assumptions", Mode.DURABLE, LabSettings()),
    Row("durable, a key per attempt", Mode.DURABLE, LabSettings(key="per-attempt")),
    Row(
        "durable, records kept 30 s, redeliveries 60 s apart",
        Mode.DURABLE,
        LabSettings(retention="30", redelivery_delay="60"),
    ),
    Row("durable, record written apart", Mode.DURABLE, LabSettings(record="separate")),
    Row(
        "durable, failing open when a lookup fails",
        Mode.DURABLE,
        LabSettings(on_lookup_outage="fail-open"),
    ),
    Row(
        "durable, failing open when the journal fails",
        Mode.DURABLE,
        LabSettings(on_store_outage="fail-open"),
    ),
    Row(
        "durable, failing open, but the receiver deduplicates",
        Mode.DURABLE,
        LabSettings(receiver="dedupe", on_lookup_outage="fail-open", on_store_outage="fail-open"),
    ),
)
"""The runtime settings the matrix compares, each breaking one assumption (or none)."""

DEFAULT_MAX_FAULTS: Final = 2
DEFAULT_DELIVERIES_SHOWN: Final = DEFAULT_DELIVERIES
DEFAULT_ROW: Final = 2
"""The row the counterexample view starts on: the key per attempt."""

MATRIX_CAPTION: Final = (
    "Each cell: the plans that break the invariant, of the plans whose injections all struck "
    "({explored} explored per row, counting those that never fired)."
)
HOLDS: Final = "✓ none"
BROKEN: Final = "✗ {violations} of {reachable}"

NO_COUNTEREXAMPLE: Final = (
    "No plan of up to {faults} breaks **{invariant}** here: the explorer ran {explored} plans "
    "({reachable} of them fired every injection, in {distinct} different runs)."
)
COUNTEREXAMPLE_TEXT: Final = (
    "**{invariant}** is broken by {violations}. The smallest is **{plan}**: {effects}, "
    "*{status}*. Replay it in a terminal:"
)

EXERCISE_FAULTS: Final = 2
EXERCISE_SETTINGS: Final = ("key", "receiver", "record", "on_lookup_outage", "on_store_outage")
"""The choice settings the exercise offers, beside the runtime, the budget and the retention."""
EXERCISE_START: Final[dict[str, str | int]] = {
    "mode": Mode.NAIVE.value,
    "deliveries": 2,
    "key": "per-attempt",
    "receiver": "lookup-only",
    "record": "separate",
    "on_lookup_outage": "fail-open",
    "on_store_outage": "fail-open",
    "retention": "30",
}
"""Where the exercise's controls start: every choice one the explorer will refuse."""
EXERCISE_FORM: Final = "\n\n".join("{" + name + "}" for name in EXERCISE_START)
"""The exercise form's layout: one control per line, in ``EXERCISE_START``'s order."""
PASSED: Final = (
    "**Right.** No plan of up to {faults} faults breaks any invariant: the explorer ran "
    "{explored} plans ({reachable} fired every injection)."
)
FAILED: Final = "**Not yet.** {invariant} is broken by {violations}; the smallest is {plan}."
DELIVERIES_ERROR: Final = (
    "Delivery budget: {given} is not a whole number from 1 to {most}; the explorer used {used}"
)
ANSWER_TEXT: Final = (
    "The durable runtime with a budget of at least {deliveries} deliveries, a stable key, an "
    "atomic record kept for the whole run, and failing closed on both outages. A "
    "deduplicating receiver does no harm. The explorer, just now: {verdict}"
)
ANSWER_MODE: Final = Mode.DURABLE
ANSWER_DELIVERIES: Final = EXERCISE_FAULTS + 1
ANSWER_SETTINGS: Final = LabSettings()
"""The answer the lesson reveals after an attempt; it is checked live, never asserted."""


def invariants_text() -> str:
    """The three invariants, each with its rule (a Markdown list)."""
    return "\n".join(f"- **{i.value}**: {md_text(RULES[i])}" for i in Invariant)


def reasons_text() -> str:
    """Why each invariant matters (a Markdown list), folded under the rules so the prediction
    stays on the lesson's first screen."""
    return "\n".join(f"- **{i.value}**: {md_text(REASONS[i])}" for i in Invariant)


def budget_of(value: object) -> int:
    """The matrix's delivery budget from its number field: the default when it is not a whole
    number in range (the field itself keeps it in range)."""
    budget = read_guess(value)
    return budget if budget is not None and 1 <= budget <= MAX_DELIVERIES else DEFAULT_DELIVERIES


def row_labels() -> list[str]:
    """The rows as the counterexample view offers them."""
    return [row.title for row in ROWS]


def reachable(exploration: Exploration) -> int:
    """The plans whose injections all struck."""
    return exploration.explored - exploration.unreachable


def cell(report: InvariantReport, exploration: Exploration) -> str:
    """One cell of the matrix: ``✓ none`` or ``✗ 12 of 41``."""
    if report.violations == 0:
        return HOLDS
    return BROKEN.format(violations=report.violations, reachable=reachable(exploration))


def matrix_text(explorations: Mapping[str, Exploration]) -> str:
    """The matrix (Markdown): a row per runtime setting, a column per invariant."""
    rows: list[tuple[Rich, ...]] = [
        (
            (title,),
            *(((cell(report, found),)) for report in found.invariants),
        )
        for title, found in explorations.items()
    ]
    table = Table(header=("Runtime and settings", *(i.value for i in Invariant)), rows=tuple(rows))
    first = next(iter(explorations.values()))
    caption = MATRIX_CAPTION.format(explored=first.explored)
    return f"{md_table(table, left=True)}\n\n*{caption}*"


MATRIX_RUNS: Final = 400
"""The most plans a row of the matrix runs at any setting its controls offer: the explorer runs
only the plans whose injections all strike (``asyncfail.explore.explorer``), and on these rows
those stop growing past three deliveries, since three faults spoil three deliveries at most
(some 230 to 350 a row at three faults). So every setting is explored in full, with no cap:
the heaviest, three faults over nine deliveries (161,800 plans a row, about 2,300 run over the
eight rows), recomputes in about 0.3 s on two busy cores (``make bench``: the lesson's worst
setting) and in about 1.5 s in the browser's WebAssembly page. A test checks every setting
against this bound."""

PREDICTED: Final = Invariant.AT_MOST_ONCE
"""The invariant the lesson's prediction asks about, at the controls' starting values."""


def keeping_rows(explorations: Mapping[str, Exploration], invariant: Invariant) -> list[str]:
    """The rows (titles, in the matrix's order) under which no plan explored breaks
    ``invariant``: the answer to the lesson's prediction, read from the explorer."""
    return [
        title
        for title, found in explorations.items()
        if all(r.violations == 0 for r in found.invariants if r.name is invariant)
    ]


def starting_scope_text() -> str:
    """The starting scope in words: "up to 2 faults per plan over 3 deliveries"."""
    return (
        f"up to {counted(DEFAULT_MAX_FAULTS, 'fault')} per plan over "
        f"{counted(DEFAULT_DELIVERIES_SHOWN, 'delivery')}"
    )


def explore_row(row: Row, deliveries: int, max_faults: int) -> Exploration:
    """One row of the matrix: every plan of up to ``max_faults`` over ``deliveries``."""
    return explore(row.mode, row.settings, deliveries, max_faults)


def counterexample_text(exploration: Exploration, invariant: Invariant) -> tuple[str, str | None]:
    """What the view says about one cell (Markdown), and the command that replays its
    counterexample (None when there is none)."""
    report = next(r for r in exploration.invariants if r.name is invariant)
    found = report.counterexample
    if found is None:
        return (
            NO_COUNTEREXAMPLE.format(
                faults=counted(exploration.max_faults, "fault"),
                invariant=invariant.value,
                explored=exploration.explored,
                reachable=reachable(exploration),
                distinct=exploration.distinct_runs,
            ),
            None,
        )
    text = COUNTEREXAMPLE_TEXT.format(
        invariant=invariant.value,
        violations=counted(report.violations, "plan"),
        plan=plan_text(FaultPlan(injections=found.plan)),
        effects=counted(found.counts.effects, "business effect"),
        status=found.status.value,
    )
    return text, found.command


def counterexample_scenario(exploration: Exploration, invariant: Invariant) -> Scenario | None:
    """The run of one cell's counterexample, to draw with the lab's timeline."""
    report = next(r for r in exploration.invariants if r.name is invariant)
    if report.counterexample is None:
        return None
    return Scenario(
        plan=FaultPlan(injections=report.counterexample.plan),
        mode=exploration.mode,
        deliveries=exploration.deliveries,
        settings=exploration.settings,
    )


def exercise_settings(answers: Mapping[str, object]) -> tuple[Mode, int, LabSettings, list[str]]:
    """The runtime, budget and settings of an exercise attempt, and a line for each answer that
    cannot be read (the budget falls back to the default, the retention to the whole run)."""
    errors: list[str] = []
    deliveries = read_guess(answers.get("deliveries"))
    if deliveries is None or not 1 <= deliveries <= MAX_DELIVERIES:
        errors.append(
            DELIVERIES_ERROR.format(
                given=echoed(str(answers.get("deliveries"))),
                most=MAX_DELIVERIES,
                used=DEFAULT_DELIVERIES,
            )
        )
        deliveries = DEFAULT_DELIVERIES
    knobs: dict[str, object] = {name: answers[name] for name in EXERCISE_SETTINGS}
    text = str(answers.get("retention") or "")
    if text.strip():
        try:
            knobs["retention"] = parse_duration(text)
        except ValueError as error:
            errors.append(duration_error("Retention", text, str(error)))
    mode = Mode(str(answers["mode"]))
    return mode, deliveries, LabSettings.model_validate(knobs), errors


def verdict(exploration: Exploration) -> tuple[bool, str]:
    """Whether an exploration passes the exercise, and what the lesson says about it."""
    broken = [r for r in exploration.invariants if r.violations]
    if not broken:
        return True, PASSED.format(
            faults=exploration.max_faults,
            explored=exploration.explored,
            reachable=reachable(exploration),
        )
    first = broken[0]
    assert first.counterexample is not None  # a violation always has its smallest plan
    return False, FAILED.format(
        invariant=first.name.value,
        violations=counted(first.violations, "plan"),
        plan=plan_text(FaultPlan(injections=first.counterexample.plan)),
    )


def hints_text(hints: Sequence[str], failed_attempts: int) -> str:
    """The hints earned so far (a numbered Markdown list): one of ``hints`` per failed attempt,
    in order, never more than there are."""
    shown = hints[: max(0, min(failed_attempts, len(hints)))]
    return "\n".join(f"{n}. {hint}" for n, hint in enumerate(shown, start=1))


def answer_text() -> str:
    """The revealed answer, with the explorer's verdict on it, run now."""
    found = explore(ANSWER_MODE, ANSWER_SETTINGS, ANSWER_DELIVERIES, EXERCISE_FAULTS)
    _, said = verdict(found)
    return ANSWER_TEXT.format(deliveries=ANSWER_DELIVERIES, verdict=said.replace("**", ""))


MAX_FAULTS_RANGE: Final = (0, MAX_FAULTS)
