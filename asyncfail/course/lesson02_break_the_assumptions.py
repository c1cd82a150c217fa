"""Lesson 2, "Break the assumptions" (``notebooks/02_break_the_assumptions.py``): its starting
points, its controls' defaults and parsing, and the tables and callouts it derives from runs.

Each of the seed's five assumptions has a starting point (``STARTS``): a fault and the settings
that break that assumption, chosen so the durable runtime's promise fails. What the run gives,
and which single change restores the promise, the lesson asks the model (``simulate``,
``restorations``); nothing here states a result.
"""

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Final

from pydantic import ValidationError

from asyncfail.course.prediction import read_guess
from asyncfail.document.markdown import md_table, md_text
from asyncfail.document.markup import Code, Inline, Rich, Table
from asyncfail.ground.durations import Duration, duration_error, parse_duration
from asyncfail.ground.prose import counted, echoed
from asyncfail.ground.seed import ASSUMPTIONS
from asyncfail.lab.assumptions import (
    BREAKS,
    LOOKUP_AND_STORE,
    NOT_MODELED,
    RETAINED_ATOMIC,
    SINGLE_FAULT,
    STABLE_KEY,
)
from asyncfail.lab.faults import PLAN_ACCEPTED, Fault, parse_plan, plan_text
from asyncfail.lab.reading import Outcome
from asyncfail.lab.restore import Restoration, restorations
from asyncfail.lab.results import LabResult
from asyncfail.lab.scenario import (
    DEFAULT_DELIVERIES,
    MAX_DELIVERIES,
    Scenario,
    option_value,
)
from asyncfail.lab.schedules import Schedule
from asyncfail.lab.settings import LabSettings
from asyncfail.lab.simulation import simulate


@dataclass(frozen=True, slots=True)
class StartingPoint:
    """A starting point: one assumption broken, and the run that shows it."""

    assumption: int
    """The assumption's number, from 1, in the seed's order."""
    title: str
    scenario: Scenario


STARTS: Final[tuple[StartingPoint, ...]] = (
    StartingPoint(
        SINGLE_FAULT,
        "a crash before dispatch on every delivery",
        Scenario(plan=parse_plan("1:before-dispatch,2:before-dispatch,3:before-dispatch")),
    ),
    StartingPoint(
        STABLE_KEY,
        "a new key on every delivery",
        Scenario(fault=Fault.CRASH_AFTER_EFFECT, settings=LabSettings(key="per-attempt")),
    ),
    StartingPoint(
        RETAINED_ATOMIC,
        "a record written apart from its debit",
        Scenario(fault=Fault.RECEIVER_CRASH_BEFORE_RECORD, settings=LabSettings(record="separate")),
    ),
    StartingPoint(
        LOOKUP_AND_STORE,
        "a lookup service that is down, and a runtime that fails open",
        Scenario(
            fault=Fault.CRASH_AFTER_EFFECT,
            settings=LabSettings(lookup="outage", on_lookup_outage="fail-open"),
        ),
    ),
    StartingPoint(
        NOT_MODELED,
        "a record that expires exactly when the redelivery comes",
        Scenario(
            fault=Fault.CRASH_AFTER_EFFECT,
            settings=LabSettings(retention="60", redelivery_delay="60"),
        ),
    ),
)
"""One starting point per assumption, in the seed's order. The first, a single fault, is broken
by a fault plan rather than a setting: with the seed's other assumptions no plan makes the
durable runtime debit twice (the explorer checks every plan), but one that crashes every
delivery leaves nothing applied."""

SEED_START: Final = "the seed's assumptions, every one kept"
DEFAULT_START: Final = NOT_MODELED
"""The starting point the lesson opens on: the expiring record, whose retention the timeline
draws."""


def start_label(demo: StartingPoint) -> str:
    """A starting point as the lesson offers it: ``2. a new key on every delivery``."""
    return f"{demo.assumption}. {demo.title}"


def start_options() -> dict[str, Scenario]:
    """The starting points by label: every demo, then the seed's own scenario."""
    return {start_label(d): d.scenario for d in STARTS} | {SEED_START: Scenario()}


DEFAULT_START_LABEL: Final = start_label(next(d for d in STARTS if d.assumption == DEFAULT_START))

TABLE_HEADER: Final = (
    "Assumption",
    "Broken by",
    "A run that breaks it",
    "Durable runtime",
    "Restored by",
)

GROUPS: Final[dict[str, tuple[str, ...]]] = {
    "key": ("key", "receiver"),
    "record": ("record",),
    "outage": ("lookup", "on_lookup_outage", "store", "on_store_outage"),
    "clock": ("schedule", "redelivery_delay", "retention", "boundary"),
}
"""Which settings each group holds, in the order they appear."""
DELIVERIES_ERROR: Final = (
    "Delivery budget: {given} is not a whole number from 1 to {most}; the lesson uses the "
    "default of {default} meanwhile"
)
PLAN_ERROR: Final = "Fault plan: {reason}; give {accepted}. The fault above is run meanwhile"
BROKEN_TITLE: Final = "**Assumptions this run breaks:**"
NONE_BROKEN: Final = "**This run keeps every assumption of the seed.**"
RESTORE_TITLE: Final = "**What restores the durable runtime's promise**"
RESTORE_LINE: Final = "- `{option}`: {effects}, {outcome} ({status})"
ALREADY_SAFE: Final = "The durable runtime keeps its promise here: {status}."
PARKED_NOTE: Final = (
    " Parked is safe but not live: the debit happened at most once, and an operator must find "
    "out whether it did."
)
NO_SINGLE_CHANGE: Final = (
    "No single setting restores it: more than one assumption is broken. Restore them one at a "
    "time and watch the counts."
)


def choices_of(scenario: Scenario) -> dict[str, str]:
    """Where each choice control starts for ``scenario``: its value as the CLI writes it."""
    settings = scenario.settings
    # A plan replaces the fault: the fault control then rests on "none".
    choices = {"fault": (scenario.fault or Fault.NONE).value}
    for names in GROUPS.values():
        for name in names:
            value = getattr(settings, name)
            if not isinstance(value, Duration | None):
                choices[name] = str(value)
    return choices


def plan_of(scenario: Scenario) -> str:
    """A starting point's plan as its text field starts: empty when it names a fault."""
    return "" if scenario.plan is None else plan_text(scenario.plan)


def seconds_of(value: Duration | None) -> str:
    """A duration as its text field starts: ``60``; a record kept for the whole run is empty."""
    return "" if value is None else option_value(value)


def scenario_from_controls(
    choices: Mapping[str, str],
    deliveries: object,
    retention_text: str,
    delay_text: str,
    plan: str = "",
) -> tuple[Scenario, tuple[str, ...]]:
    """The scenario the controls describe, and a line for each input that cannot be read, which
    is then left at the seed's value: a duration (``duration_error``), a delivery budget that
    is not a whole number from 1 to ``MAX_DELIVERIES``, or a plan that cannot be read or falls
    outside the budget (the fault control is then run instead). An empty retention keeps the
    record for the whole run; the delay is read only for the fixed schedule; a plan, when
    given, replaces the fault."""
    errors: list[str] = []
    budget = read_guess(deliveries)
    if budget is None or not 1 <= budget <= MAX_DELIVERIES:
        errors.append(
            DELIVERIES_ERROR.format(
                given=echoed(str(deliveries)), most=MAX_DELIVERIES, default=DEFAULT_DELIVERIES
            )
        )
        budget = DEFAULT_DELIVERIES
    durations: dict[str, Duration | None] = {"retention": None}
    if retention_text.strip():
        try:
            durations["retention"] = parse_duration(retention_text)
        except ValueError as error:
            errors.append(duration_error("Retention", retention_text, str(error)))
    if choices.get("schedule", Schedule.FIXED.value) == Schedule.FIXED.value:
        try:
            durations["redelivery_delay"] = parse_duration(delay_text)
        except ValueError as error:
            errors.append(duration_error("Redelivery delay", delay_text, str(error)))
    knobs = {k: v for k, v in choices.items() if k != "fault"} | durations
    settings = LabSettings.model_validate(knobs)
    scenario = Scenario(fault=Fault(choices["fault"]), deliveries=budget, settings=settings)
    if plan.strip():
        reason = ""
        try:
            scenario = Scenario(plan=parse_plan(plan), deliveries=budget, settings=settings)
        except ValidationError as error:  # the plan reaches past the budget
            reason = str(error.errors()[0]["msg"]).removeprefix("Value error, ")
        except ValueError as error:  # the plan cannot be read
            reason = str(error)
        if reason:
            errors.append(PLAN_ERROR.format(reason=reason, accepted=PLAN_ACCEPTED))
    return scenario, tuple(errors)


def restoration_text(restoration: Restoration) -> str:
    """One change and the durable run it gives: ``--key stable: 1 debit, exactly-once (...)``."""
    result = restoration.result
    return RESTORE_LINE.format(
        option=restoration.change,
        effects=counted(result.counts.effects, "debit"),
        outcome=result.outcome.value,
        status=result.status.value,
    )


def restore_text(scenario: Scenario, durable: LabResult) -> str:
    """The "what restores it" callout (Markdown): each single setting change under which the
    durable runtime keeps its promise, from ``restorations``; or that it keeps it already."""
    found = restorations(scenario)
    if not found:
        if durable.outcome in {Outcome.EXACTLY_ONCE, Outcome.PARKED}:
            safe = ALREADY_SAFE.format(status=durable.status.value)
            return safe + (PARKED_NOTE if durable.outcome is Outcome.PARKED else "")
        return NO_SINGLE_CHANGE
    lines = "\n".join(restoration_text(r) for r in found)
    return f"{RESTORE_TITLE}\n\n{lines}"


def broken_text(result: LabResult) -> str:
    """The assumptions a run breaks (Markdown), each with the settings that break it."""
    if not result.broken_assumptions:
        return NONE_BROKEN
    items = "\n".join(
        f"- **{b.assumption}.** {md_text(b.text)} *Broken by {md_text('; '.join(b.by))}.*"
        for b in result.broken_assumptions
    )
    return f"{BROKEN_TITLE}\n\n{items}"


ANSWER_COLUMNS: Final = 2
"""The table's last columns, the durable runtime's debits and what restores it: the answers a
learner predicts, so the lesson shows them only after the guess."""


@cache
def assumption_table(answers: bool = True) -> str:
    """The five assumptions (Markdown table): what breaks each, the starting point that shows
    it, and with ``answers`` how many debits the durable runtime makes there and the single
    changes that restore its promise, all run through the model. Without ``answers`` the
    table stops before those two columns (``ANSWER_COLUMNS``).

    Made once per value of ``answers``: it reads nothing but the course's fixed starting points,
    and the lesson shows it again on each change of its starting point (the reveal re-runs)."""
    demos = {d.assumption: d for d in STARTS}
    rows: list[tuple[Rich, ...]] = []
    for number, text in enumerate(ASSUMPTIONS, start=1):
        demo = demos.get(number)
        run: Rich = ()
        durable: Rich = ()
        restored: list[Inline] = []
        if demo is not None:
            result = simulate(demo.scenario)
            run = (Code(result.subject), f" with {demo.title}")
            durable = (f"{counted(result.counts.effects, 'debit')}, {result.outcome.value}",)
            # The changes are tried only for the column that shows them.
            for r in restorations(demo.scenario) if answers else ():
                restored += ["; "] if restored else []
                restored.append(Code(r.change))
        rows.append(((f"{number}. {text}",), (BREAKS[number],), run, durable, tuple(restored)))
    if not answers:
        header = TABLE_HEADER[:-ANSWER_COLUMNS]
        rows = [row[:-ANSWER_COLUMNS] for row in rows]
        return md_table(Table(header=header, rows=tuple(rows)), left=True)
    return md_table(Table(header=TABLE_HEADER, rows=tuple(rows)), left=True)
