"""Demonstrations in the lessons that change the lab's settings and fault plans: Break the
assumptions (a starting point and the controls set otherwise) and Explore every failure (a row
of the explorer's matrix, and its exercise).

Each demo reads its scenario from the controls with the lesson's own functions
(``assumptions_lesson.scenario_from_controls``, ``explore_lesson.exercise_settings``), names
the controls as the lesson labels them, and runs the model or the explorer for what it shows.
"""

from dataclasses import dataclass
from typing import ClassVar, Final

from asyncfail.course import assumptions_lesson, explore_lesson
from asyncfail.course.demos import BLANK, SEPARATOR, control_name, joined_parts
from asyncfail.explore.explorer import Exploration, InvariantReport, explore
from asyncfail.explore.invariants import Invariant
from asyncfail.ground.prose import counted, quoted
from asyncfail.handoff.markup import Code, Inline, Rich
from asyncfail.lab.events import Event
from asyncfail.lab.faults import FaultPlan, plan_text
from asyncfail.lab.restore import restorations
from asyncfail.lab.results import LabResult
from asyncfail.lab.scenario import Mode, Scenario, option
from asyncfail.lab.settings import LabSettings
from asyncfail.lab.simulation import simulate_each_mode


def _setting(name: str) -> Inline:
    """A setting's control, by the CLI option its label starts with: ``--key``."""
    return Code(option(name))


@dataclass(frozen=True, slots=True)
class SettingsDemo:
    """Break the assumptions: a starting point of the lesson, some controls set otherwise, and
    both runtimes' runs.

    ``start`` is the number of the assumption whose starting point the lesson starts from
    (``assumptions_lesson.STARTS``), or None for the seed's assumptions. ``changes`` are the
    controls set otherwise, each as the control takes it: the fault or a setting's choice by
    its value (``("key", "stable")``), the retention or the redelivery delay by its text in
    seconds (``("retention", "120.001")``; an empty retention keeps records for the whole run),
    the fault plan by its text, the delivery budget by its number. With ``restore``, the demo
    also shows the single changes that restore the durable runtime's promise
    (``lab.restore.restorations``), as the lesson's callout lists them.

    Rule: the scenario is the one the lesson's own ``scenario_from_controls`` reads from those
    controls; a demo naming a control the lesson lacks, or a value it cannot read, is refused.
    """

    lesson: ClassVar[str] = "02_break_the_assumptions"
    TEXTS: ClassVar[tuple[str, ...]] = ("retention", "redelivery_delay", "plan", "deliveries")
    """The controls a learner types into (every other is a choice)."""

    start: int | None
    changes: tuple[tuple[str, str], ...] = ()
    restore: bool = False

    def __post_init__(self) -> None:
        self.scenario()

    def start_label(self) -> str:
        """The starting point as the lesson's dropdown offers it."""
        words = assumptions_lesson
        if self.start is None:
            return words.SEED_START
        points = [d for d in words.STARTS if d.assumption == self.start]
        if not points:
            raise ValueError(f"the lesson has no starting point for assumption {self.start}")
        return words.start_label(points[0])

    def scenario(self) -> Scenario:
        words = assumptions_lesson
        start = words.start_options()[self.start_label()]
        choices = words.choices_of(start)
        texts = {
            "retention": words.seconds_of(start.settings.retention),
            "redelivery_delay": words.seconds_of(start.settings.redelivery_delay),
            "plan": words.plan_of(start),
            "deliveries": str(start.deliveries),
        }
        for name, value in self.changes:
            if name in texts:
                texts[name] = value
            elif name in choices:
                choices[name] = value
            else:
                raise ValueError(f"{name!r} is not a control of the lesson")
        if not texts["deliveries"].isdigit():
            raise ValueError(f"a demo's controls must all be readable: {texts['deliveries']!r}")
        scenario, errors = words.scenario_from_controls(
            choices,
            int(texts["deliveries"]),
            texts["retention"],
            texts["redelivery_delay"],
            texts["plan"],
        )
        if errors:
            raise ValueError(f"a demo's controls must all be readable: {errors}")
        return scenario

    def results(self) -> dict[Mode, LabResult]:
        return simulate_each_mode(self.scenario())

    def setting(self) -> Rich:
        """The starting point, then each control set otherwise: a setting by its CLI option,
        as its label starts, the others by their label's name."""
        words = assumptions_lesson
        names = {
            "fault": words.FAULT_LABEL,
            "plan": control_name(words.PLAN_LABEL),
            "deliveries": control_name(words.DELIVERIES_LABEL),
        }
        items: list[Rich] = [(f"{control_name(words.START_LABEL)}: {self.start_label()}",)]
        for name, value in self.changes:
            control: Inline = names[name] if name in names else _setting(name)
            items.append((control, f": {value or BLANK}"))
        return joined_parts(items)

    def shows(self) -> Rich:
        """Each runtime's delivery attempts, business effects and status, as the lesson shows
        them; with ``restore``, the changes that restore the durable runtime's promise."""
        figures = []
        for mode, result in self.results().items():
            counts = result.counts
            figures.append(
                f"{mode.value}: {counted(counts.attempts, 'delivery attempt')}, "
                f"{counted(counts.effects, 'business effect')}, {quoted(result.status)}"
            )
        line: Rich = (SEPARATOR.join(figures),)
        found = restorations(self.scenario()) if self.restore else ()
        if not found:
            return line
        restored = [
            (Code(r.change), f" ({counted(r.result.counts.effects, 'debit')}, {r.result.outcome})")
            for r in found
        ]
        # The lesson's table heads this column "Restored by".
        return (*line, f". {assumptions_lesson.TABLE_HEADER[-1]}: ", *joined_parts(restored))


@dataclass(frozen=True, slots=True)
class TimeTraceDemo:
    """Break the assumptions: the events of one delivery attempt in one runtime's trace against
    time, under a ``SettingsDemo``'s controls."""

    lesson: ClassVar[str] = SettingsDemo.lesson

    demo: SettingsDemo
    mode: Mode
    attempt: int

    def events(self) -> tuple[Event, ...]:
        result = self.demo.results()[self.mode]
        return tuple(e for e in result.events if e.attempt == self.attempt)

    def setting(self) -> Rich:
        return (*self.demo.setting(), "; the traces")

    def shows(self) -> Rich:
        """The attempt's time (its events all happen at one instant) and its events in order."""
        events = self.events()
        kinds = [(Code(e.kind.value),) for e in events]
        head = f"{self.mode.value}, delivery attempt {self.attempt} at {events[0].at}: "
        return (head, *joined_parts(kinds, ", "))


def _plain(markdown: str) -> str:
    """One of the lesson's sentences without its bold marks."""
    return markdown.replace("**", "")


@dataclass(frozen=True, slots=True)
class ExploreDemo:
    """Explore every failure: one row of the matrix (``explore_lesson.ROWS``, by index), and
    with an ``invariant``, its smallest counterexample as the lesson's view shows it.

    Rule: the setting names the row and the invariant, then the faults per plan and the
    delivery budget only when they differ from where the lesson starts them.
    """

    lesson: ClassVar[str] = "04_explore_every_failure"

    row: int
    invariant: Invariant | None = None
    max_faults: int = explore_lesson.DEFAULT_MAX_FAULTS
    deliveries: int = explore_lesson.DEFAULT_DELIVERIES_SHOWN

    def exploration(self) -> Exploration:
        row = explore_lesson.ROWS[self.row]
        return explore_lesson.explore_row(row, self.deliveries, self.max_faults)

    def report(self, invariant: Invariant) -> InvariantReport:
        return next(r for r in self.exploration().invariants if r.name is invariant)

    def setting(self) -> Rich:
        words = explore_lesson
        items = [(control_name(words.ROW_LABEL), words.ROWS[self.row].title)]
        if self.invariant is not None:
            items.append((control_name(words.INVARIANT_LABEL), self.invariant.value))
        if self.max_faults != words.DEFAULT_MAX_FAULTS:
            items.append((control_name(words.MAX_FAULTS_LABEL), str(self.max_faults)))
        if self.deliveries != words.DEFAULT_DELIVERIES_SHOWN:
            items.append((control_name(words.DELIVERIES_LABEL), str(self.deliveries)))
        return (SEPARATOR.join(f"{name}: {value}" for name, value in items),)

    def shows(self) -> Rich:
        """The row's cells as the matrix shows them; with an invariant, its smallest
        counterexample and the command that replays it, or the lesson's words for none."""
        found = self.exploration()
        cells = SEPARATOR.join(
            f"{r.name.value}: {explore_lesson.cell(r, found)}" for r in found.invariants
        )
        if self.invariant is None:
            return (cells,)
        example = self.report(self.invariant).counterexample
        if example is None:
            text, _ = explore_lesson.counterexample_text(found, self.invariant)
            return (f"{cells}. {_plain(text)}",)
        plan = plan_text(FaultPlan(injections=example.plan))
        effects = counted(example.counts.effects, "business effect")
        return (
            f"{cells}. Smallest: ",
            Code(plan),
            f", {effects}, {quoted(example.status)}; replayed by ",
            Code(example.command),
        )


EXERCISE_START: Final = "The exercise's form as it starts"
"""A demo of the exercise with every answer where the lesson starts it."""


@dataclass(frozen=True, slots=True)
class ExerciseDemo:
    """Explore every failure: the exercise's form (``explore_lesson.EXERCISE_START``) with
    ``changes`` made, each answer as its control takes it, checked by the explorer.

    Rule: the runtime, budget and settings are what the lesson's ``exercise_settings`` reads
    from the answers; a demo naming an answer the form lacks, or one it cannot read, is
    refused.
    """

    lesson: ClassVar[str] = ExploreDemo.lesson

    changes: tuple[tuple[str, str], ...] = ()

    def __post_init__(self) -> None:
        unknown = {name for name, _ in self.changes} - set(explore_lesson.EXERCISE_START)
        if unknown:
            raise ValueError(f"not an answer of the exercise: {sorted(unknown)}")
        errors = self.read()[3]
        if errors:
            raise ValueError(f"a demo's answers must all be readable: {errors}")

    def answers(self) -> dict[str, object]:
        answers: dict[str, object] = dict(explore_lesson.EXERCISE_START)
        return answers | {n: int(v) if n == "deliveries" else v for n, v in self.changes}

    def read(self) -> tuple[Mode, int, LabSettings, list[str]]:
        """The runtime, budget and settings the lesson reads, and its lines for what it cannot."""
        return explore_lesson.exercise_settings(self.answers())

    def exploration(self) -> Exploration:
        mode, deliveries, settings, _ = self.read()
        return explore(mode, settings, deliveries, explore_lesson.EXERCISE_FAULTS)

    def setting(self) -> Rich:
        words = explore_lesson
        names: dict[str, Inline] = {
            "mode": control_name(words.RUNTIME_LABEL),
            "deliveries": control_name(words.DELIVERIES_LABEL),
        }
        items: list[Rich] = [(EXERCISE_START,)]
        for name, value in self.changes:
            items.append((names.get(name, _setting(name)), f": {value or BLANK}"))
        return (*joined_parts(items), f"; then {quoted(words.CHECK_LABEL)}")

    def shows(self) -> Rich:
        """The lesson's verdict on the answers."""
        return (_plain(explore_lesson.verdict(self.exploration())[1]),)
