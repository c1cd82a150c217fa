"""Demonstrations: settings an instructor makes in a lesson, and what the model shows under them.

The instructor guide (``course.guide``) tells an instructor what to set before a reveal, or to
answer a misconception, and what the room will then see. A demo names its settings in the
lesson's own words (control labels and option texts are read from the lesson modules and the
wings) and runs the model for what it shows, so no figure in the guide is typed in by hand.

This module holds the demos of the lab, the contract, the checklist and the handoff, and the
words every demo shares; ``setting_demos`` holds those of the lessons that change the lab's
settings and plans. ``teaching.Demo`` is every kind.
"""

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar, Final

from asyncfail.contract.experiment import ContractResult, ContractScenario, evaluate
from asyncfail.contract.requests import SECOND_WORDS
from asyncfail.contract.terms import (
    BOUNDARY_WORDS,
    DISPOSITION_LABEL,
    EFFECTS_LABEL,
    POLICY_WORDS,
    RECORD_LABEL,
    SCOPE_WORDS,
    KeyScope,
)
from asyncfail.course import contract_lesson, handoff_lesson, lab_lesson
from asyncfail.ground.prose import counted, quoted
from asyncfail.ground.seed import Boundary
from asyncfail.handoff.design import QUESTIONS, design_from_answers
from asyncfail.handoff.markup import Code, Inline, Rich
from asyncfail.handoff.report import ReadinessReport, assess
from asyncfail.handoff.review import build_review
from asyncfail.handoff.verdict import STATUS_LABELS, CheckId, CheckStatus
from asyncfail.lab.events import EventKind
from asyncfail.lab.faults import Fault
from asyncfail.lab.results import LabResult
from asyncfail.lab.scenario import DEFAULT_DELIVERIES, Mode, Scenario, command_line
from asyncfail.lab.simulation import simulate

SEPARATOR: Final = "; "
"""Between two settings, or two runtimes' figures, on one line."""
BLANK: Final = "(left blank)"
"""A free-text answer or field with nothing in it."""


def control_name(label: str) -> str:
    """A lesson control's name: the bold part of its label (``**Contract profile**: how ...``
    is ``Contract profile``); without one, what comes before its first colon (``Delivery
    budget: how often ...``), or else the whole label."""
    parts = label.split("**")
    return parts[1] if len(parts) >= 3 else label.split(": ")[0]


def joined_parts(items: Sequence[Rich], separator: str = SEPARATOR) -> Rich:
    """Runs of inline parts on one line, ``separator`` between them."""
    out: list[Inline] = []
    for i, item in enumerate(items):
        out.extend((separator, *item) if i else item)
    return tuple(out)


@dataclass(frozen=True, slots=True)
class LabDemo:
    """The Async Failure Lab: one fault, under the runtimes named (both by default).

    Rule: the lesson has no control for ``deliveries``, so a demo with another delivery budget
    than the lesson's is set in a terminal, with the command the lesson itself prints.
    """

    lesson: ClassVar[str] = "01_async_failure_lab"

    fault: Fault
    deliveries: int = DEFAULT_DELIVERIES
    modes: tuple[Mode, ...] = (Mode.NAIVE, Mode.DURABLE)

    def scenario(self, mode: Mode) -> Scenario:
        return Scenario(fault=self.fault, mode=mode, deliveries=self.deliveries)

    def result(self, mode: Mode) -> LabResult:
        return simulate(self.scenario(mode))

    def setting(self) -> Rich:
        if self.deliveries == DEFAULT_DELIVERIES:
            return (f"{lab_lesson.FAULT_LABEL}: ", Code(self.fault.value))
        commands = [(Code(command_line(self.scenario(mode))),) for mode in self.modes]
        return ("In a terminal: ", *joined_parts(commands))

    def shows(self) -> Rich:
        """Each runtime's four figures and its status, as the lesson shows them."""
        figures = []
        for mode in self.modes:
            result = self.result(mode)
            counts = result.counts
            figures.append(
                f"{mode.value}: {counted(counts.attempts, 'delivery attempt')}, "
                f"{counted(counts.effects, 'business effect')}, "
                f"{counted(counts.tool_calls, 'tool call')}, {counted(counts.lookups, 'lookup')}, "
                f"{quoted(result.status)}"
            )
        return (SEPARATOR.join(figures),)


@dataclass(frozen=True, slots=True)
class TraceDemo:
    """The Async Failure Lab: the events of one delivery attempt in one runtime's trace, in
    order."""

    lesson: ClassVar[str] = "01_async_failure_lab"

    fault: Fault
    mode: Mode
    attempt: int

    def events(self) -> tuple[EventKind, ...]:
        result = simulate(Scenario(fault=self.fault, mode=self.mode))
        return tuple(e.kind for e in result.events if e.attempt == self.attempt)

    def setting(self) -> Rich:
        return (f"{lab_lesson.FAULT_LABEL}: ", Code(self.fault.value), "; the traces")

    def shows(self) -> Rich:
        events = [(Code(kind.value),) for kind in self.events()]
        return (
            f"{self.mode.value}, delivery attempt {self.attempt}: ",
            *joined_parts(events, ", "),
        )


@dataclass(frozen=True, slots=True)
class ContractDemo:
    """The idempotency contract: one run of the contract experiment.

    Rule: the setting names the profile, then every control whose value differs from where
    the lesson starts it once that profile is chosen (``contract_lesson.controls_for``, the
    lesson's default second request and delay), in the lesson's own words.
    """

    lesson: ClassVar[str] = "03_idempotency_contract"

    scenario: ContractScenario

    @classmethod
    def of(cls, **fields: object) -> "ContractDemo":
        """The demo of ``ContractScenario(**fields)``, validated: ``of(scope="attempt")``."""
        return cls(ContractScenario.model_validate(fields))

    def result(self) -> ContractResult:
        return evaluate(self.scenario)

    def setting(self) -> Rich:
        words = contract_lesson
        start = words.controls_for(self.scenario.profile)
        settings = self.scenario.settings
        defaults = words.DEFAULTS
        items = [
            (control_name(words.PROFILE_LABEL), words.profile_label(self.scenario.profile)),
        ]
        changed = (
            (settings.scope != start.scope, words.SCOPE_LABEL, SCOPE_WORDS[settings.scope]),
            (
                self.scenario.second != defaults.second,
                words.SECOND_LABEL,
                SECOND_WORDS[self.scenario.second],
            ),
            (settings.policy != start.policy, words.POLICY_LABEL, POLICY_WORDS[settings.policy]),
            (
                settings.boundary != start.boundary,
                words.BOUNDARY_LABEL,
                BOUNDARY_WORDS[settings.boundary],
            ),
            (
                settings.retention != start.retention,
                words.RETENTION_LABEL,
                str(settings.retention.json_number),
            ),
            (
                self.scenario.delay_seconds != defaults.delay_seconds,
                words.DELAY_LABEL,
                str(self.scenario.delay_seconds.json_number),
            ),
        )
        items += [(control_name(label), value) for differs, label, value in changed if differs]
        return (SEPARATOR.join(f"{name}: {value}" for name, value in items),)

    def shows(self) -> Rich:
        """The record, the disposition and the total effects as the lesson labels them, then
        the finding."""
        result = self.result()
        figures = (
            (RECORD_LABEL, result.record.value),
            (DISPOSITION_LABEL, result.disposition.value),
            (EFFECTS_LABEL, str(result.effects)),
        )
        line = SEPARATOR.join(f"{label}: {value}" for label, value in figures)
        return (f"{line}. {result.finding.value}",)


WORKED_DESIGN: Final[tuple[tuple[str, object], ...]] = (
    ("key_across_attempts", "yes"),
    ("key_scope", KeyScope.TENANT_OPERATION.value),
    ("unknown_outcome_separate", "yes"),
    ("lookup_by_key", "yes"),
    ("retention", ("72", "hours")),
    ("replay_window", ("24", "hours")),
    ("fingerprint_compared", "yes"),
    ("pause_owner", "the on-call engineer"),
    ("replay_approver", "the payments lead"),
    ("state_verifier", "the finance team"),
)
"""The readiness checklist's worked design, as its form gives it (``design_from_answers``):
every question answered, records kept three times as long as the longest replay window."""


@dataclass(frozen=True, slots=True)
class ReadinessDemo:
    """The readiness checklist: a design described in it, and the status of one of its checks.

    The design is the worked design (``WORKED_DESIGN``), or with ``worked=False`` a blank form
    as the lesson starts, with ``changes`` applied: answers as the form gives them. Rule: every
    answer must be readable, or the demo is refused.
    """

    lesson: ClassVar[str] = "07_readiness_checklist"

    check: CheckId
    changes: tuple[tuple[str, object], ...] = ()
    worked: bool = True

    def __post_init__(self) -> None:
        _, errors = design_from_answers(self.answers())
        if errors:
            raise ValueError(f"a demo's answers must all be readable: {errors}")

    def answers(self) -> dict[str, object]:
        return (dict(WORKED_DESIGN) if self.worked else {}) | dict(self.changes)

    def report(self) -> ReadinessReport:
        design, _ = design_from_answers(self.answers())
        return assess(design)

    def setting(self) -> Rich:
        start = "The worked design" if self.worked else "Every answer unknown, as the lesson starts"
        if not self.changes:
            return (start,)
        changes = SEPARATOR.join(f"{QUESTIONS[f]} {answer_text(raw)}" for f, raw in self.changes)
        return (f"{start}, with: {changes}",)

    def shows(self) -> Rich:
        """The report's tally, then the status and title of the one check."""
        report = self.report()
        tally = report.tally()
        check = report.check(self.check)
        counts = ", ".join(f"{tally[s]} {STATUS_LABELS[s].lower()}" for s in CheckStatus)
        verdict = f"{STATUS_LABELS[check.status]}: {check.title}"
        return (f"{counts} of {len(report.checks)} checks. {verdict}",)


def answer_text(raw: object) -> str:
    """An answer as the form gives it, in words: ``24 hours``, a key scope, ``yes``, or
    ``BLANK`` for empty text."""
    if raw == "":
        return BLANK
    if isinstance(raw, tuple):
        amount, unit = raw
        return f"{amount} {unit}"
    if isinstance(raw, str) and raw in {s.value for s in KeyScope}:
        return SCOPE_WORDS[KeyScope(raw)]
    return str(raw)


@dataclass(frozen=True, slots=True)
class ReviewDemo:
    """The review handoff: the handoff for one fault, and one row of its failure map, or (with
    no boundary) its evidence summary."""

    lesson: ClassVar[str] = "08_review_handoff"

    fault: Fault
    boundary: Boundary | None = None

    def setting(self) -> Rich:
        return (f"{handoff_lesson.FAULT_LABEL}: ", Code(self.fault.value))

    def shows(self) -> Rich:
        review = build_review(self.fault)
        if self.boundary is None:
            return (f"Evidence summary: {review.summary()}",)
        return (f"Failure map, {self.boundary.value}: {review.boundary_evidence(self.boundary)}",)
