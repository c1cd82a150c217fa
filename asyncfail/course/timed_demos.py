"""Demonstrations in the lessons about time: Two workers, one debit (a stall against a lease,
the safeguards, the explorer's verdict) and How long must records live? (seeded trials of
replay delays against a retention).

Each demo reads its scenario or its risk question from the controls with the lesson's own
functions (``workers_lesson.scenario_from_controls``, ``record_lesson.read_controls``), names
the controls as the lesson labels them, and runs the model, the explorer or the risk wing for
what it shows, in the lesson's own words.
"""

from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache
from typing import ClassVar, Final

from asyncfail.charts.lanes import lane_name
from asyncfail.course import assumptions_lesson, record_lesson, workers_lesson
from asyncfail.course.demos import BLANK, SEPARATOR, control_name, joined_parts
from asyncfail.ground.prose import counted, quoted
from asyncfail.handoff.markup import Code, Rich
from asyncfail.lab.events import Event
from asyncfail.lab.faults import Fault
from asyncfail.lab.results import LabResult
from asyncfail.lab.scenario import Mode, Scenario, option
from asyncfail.lab.simulation import simulate_each_mode
from asyncfail.risk.inputs import Jitter, RiskInputs, command_line
from asyncfail.risk.report import RiskRun, assess
from asyncfail.risk.sentences import OUTCOME_LABELS, estimate_sentence, exact_sentence


def _plain(markdown: str) -> str:
    """One of a lesson's sentences without its bold and italic marks."""
    return markdown.replace("**", "").replace("*", "")


# ---------------------------------------------------------------------------------------------
# Two workers, one debit


@dataclass(frozen=True, slots=True)
class WorkersDemo:
    """Two workers, one debit: the lesson's controls with ``changes`` made, and both runtimes'
    runs; with ``explorer``, the explorer's verdict on the safeguards instead.

    ``changes`` are the controls set otherwise, each as the control takes it: the stall by its
    point (``("stall", "pause-before-dispatch")``), the pause and the lease by their text in
    seconds, a safeguard (``claim``, ``receiver``, ``fencing``) by its value.

    Rule: the scenario is the one the lesson's ``scenario_from_controls`` reads from those
    controls; a demo naming a control the lesson lacks, or a value it cannot read, is refused.
    """

    lesson: ClassVar[str] = "05_two_workers"
    TEXTS: ClassVar[tuple[str, ...]] = ("pause", "lease")

    changes: tuple[tuple[str, str], ...] = ()
    explorer: bool = False
    modes: tuple[Mode, ...] = (Mode.NAIVE, Mode.DURABLE)

    def __post_init__(self) -> None:
        self.scenario()

    def controls(self) -> tuple[str, dict[str, str], dict[str, str]]:
        """The stall, the duration texts and the safeguards the controls hold."""
        words = workers_lesson
        stall = words.DEFAULT_STALL.value
        texts = {"pause": str(words.PAUSE_TEXT), "lease": str(words.LEASE_TEXT)}
        safeguards = {n: assumptions_lesson.choice_options(n)[0] for n in words.SAFEGUARDS}
        for name, value in self.changes:
            if name == "stall":
                if value not in {p.value for p in words.STALLS}:
                    raise ValueError(f"the lesson offers no stall {value!r}")
                stall = value
            elif name in texts:
                texts[name] = value
            elif name in safeguards:
                if value not in assumptions_lesson.choice_options(name):
                    raise ValueError(f"{value!r} is not a choice of {name!r}")
                safeguards[name] = value
            else:
                raise ValueError(f"{name!r} is not a control of the lesson")
        return stall, texts, safeguards

    def scenario(self) -> Scenario:
        stall, texts, safeguards = self.controls()
        scenario, errors = workers_lesson.scenario_from_controls(
            stall, texts["pause"], texts["lease"], safeguards
        )
        if errors:
            raise ValueError(f"a demo's controls must all be readable: {errors}")
        return scenario

    def results(self) -> dict[Mode, LabResult]:
        return simulate_each_mode(self.scenario())

    def setting(self) -> Rich:
        """The stall (unless the demo is the explorer's, which does not depend on it), then
        each control set otherwise: a setting by its CLI option, as its label starts."""
        items: list[Rich] = []
        stall = dict(self.changes).get("stall", workers_lesson.DEFAULT_STALL.value)
        if not self.explorer:
            items.append((f"{control_name(workers_lesson.STALL_LABEL)}: ", Code(stall)))
        for name, value in self.changes:
            if name != "stall":
                items.append((Code(option(name)), f": {value or BLANK}"))
        if not items:
            items.append((WORKERS_START,))
        if self.explorer:
            items.append((f"then read {quoted(_plain(workers_lesson.EXPLORER_TITLE[3:]))}",))
        return joined_parts(items)

    def shows(self) -> Rich:
        """Each runtime's delivery attempts, business effects and status, as the lesson shows
        them; with ``explorer``, its verdict and the command that replays the smallest
        counterexample."""
        if self.explorer:
            text, _, command = workers_lesson.verdict(
                workers_lesson.explored(self.scenario().settings)
            )
            plain = _plain(text)
            return (plain,) if command is None else (plain, " ", Code(command))
        figures = []
        for mode, result in self.results().items():
            if mode not in self.modes:
                continue
            counts = result.counts
            figures.append(
                f"{mode.value}: {counted(counts.attempts, 'delivery attempt')}, "
                f"{counted(counts.effects, 'business effect')}, {quoted(result.status)}"
            )
        return (SEPARATOR.join(figures),)


WORKERS_START: Final = "The lesson's controls as they start"
"""A demo of a lesson with every control where it starts."""


@dataclass(frozen=True, slots=True)
class WorkersTraceDemo:
    """Two workers, one debit: one runtime's timeline under a ``WorkersDemo``'s controls, as
    the lesson's lanes hold it (``channel``, ``worker 1``, ``worker 2``, ``store``,
    ``receiver``)."""

    lesson: ClassVar[str] = WorkersDemo.lesson

    demo: WorkersDemo
    mode: Mode

    def events(self) -> tuple[Event, ...]:
        return self.demo.results()[self.mode].events

    def steps(self) -> list[tuple[str, str, tuple[Event, ...]]]:
        """The events in order, grouped while the time and the lane stay the same."""
        groups: list[tuple[str, str, tuple[Event, ...]]] = []
        for e in self.events():
            at, lane = str(e.at), lane_name(e)
            if groups and groups[-1][:2] == (at, lane):
                groups[-1] = (at, lane, (*groups[-1][2], e))
            else:
                groups.append((at, lane, (e,)))
        return groups

    def setting(self) -> Rich:
        return (*self.demo.setting(), "; the timeline")

    def shows(self) -> Rich:
        """The runtime, then each group as ``30 s, worker 2: `ToolCalledAgain`, ...``."""
        parts: list[Rich] = []
        for at, lane, events in self.steps():
            kinds = [(Code(e.kind.value),) for e in events]
            parts.append((f"{at}, {lane}: ", *joined_parts(kinds, ", ")))
        return (f"{self.mode.value}: ", *joined_parts(parts))


# ---------------------------------------------------------------------------------------------
# How long must records live?


class RiskView(StrEnum):
    """What a risk demo shows of the lesson's report."""

    DUPLICATE = "duplicate"
    """The duplicate risk at the chosen retention, with its interval."""
    REQUIRED = "required"
    """The retention the target requires, and whether the trials show it with confidence."""
    DEFAULTS = "defaults"
    """Each real system's default retention against the target (the prediction's verdict)."""
    EXACT = "exact"
    """The exact answer, where the model has one."""


RISK_START: Final = "The lesson's controls as they start"
RISK_TEXTS: Final[dict[str, str]] = {
    "retention": record_lesson.RETENTION_LABEL,
    "crash": record_lesson.CRASH_LABEL,
    "replay": record_lesson.REPLAY_LABEL,
    "spread": record_lesson.SPREAD_LABEL,
}
"""The lesson's text fields, by the name its controls give them, to their labels."""
RISK_CHOICES: Final[dict[str, str]] = {
    "deliveries": record_lesson.DELIVERIES_LABEL,
    "jitter": record_lesson.JITTER_LABEL,
    "target": record_lesson.TARGET_LABEL,
    "trials": record_lesson.TRIALS_LABEL,
    "seed": record_lesson.SEED_LABEL,
}
"""The lesson's other controls, to their labels."""


@lru_cache(maxsize=32)
def assessed(inputs: RiskInputs) -> RiskRun:
    """The risk wing's run of ``inputs`` (cached: a guide asks the same question often)."""
    return assess(inputs)


@dataclass(frozen=True, slots=True)
class RiskDemo:
    """How long must records live?: the lesson's controls with ``changes`` made, and the parts
    of its report named by ``views``.

    ``changes`` are the controls set otherwise, each as its text or its choice: a text field
    (``retention``, ``crash``, ``replay``, ``spread``) by its text, ``deliveries``,
    ``trials`` and ``seed`` by their number, ``jitter`` and ``target`` by their value. A
    ``fault`` injected into every trial's first delivery is beyond the lesson's controls: the
    demo is then set in a terminal, with the command the lesson itself prints, as a text report.

    Rule: the question is the one the lesson's ``read_controls`` reads from those controls; a
    demo naming a control the lesson lacks, or a value it would not take, is refused.
    """

    lesson: ClassVar[str] = "06_record_lifetime"

    changes: tuple[tuple[str, str], ...] = ()
    views: tuple[RiskView, ...] = (RiskView.DUPLICATE,)
    fault: Fault | None = None

    def __post_init__(self) -> None:
        self.inputs()

    def inputs(self) -> RiskInputs:
        words = record_lesson
        texts = dict(words.CONTROL_TEXTS)
        numbers = {
            "deliveries": words.DEFAULT_DELIVERIES,
            "trials": words.TRIAL_CHOICES[1],
            "seed": 0,
        }
        choices = {"jitter": Jitter.NONE.value, "target": words.DEFAULT_TARGET}
        for name, value in self.changes:
            if name in texts:
                texts[name] = value
            elif name in numbers and value.isdigit():
                numbers[name] = int(value)
            elif name in choices:
                choices[name] = value
            else:
                raise ValueError(f"{name!r} is not a control of the lesson, or {value!r} no number")
        offered = (
            choices["jitter"] in {j.value for j in Jitter}
            and choices["target"] in words.TARGETS
            and numbers["trials"] in words.TRIAL_CHOICES
            and 1 <= numbers["deliveries"] <= 9
        )
        if not offered:
            raise ValueError(f"the lesson offers no such choice: {self.changes}")
        inputs, errors = words.read_controls(
            texts,
            numbers["deliveries"],
            choices["jitter"],
            choices["target"],
            numbers["trials"],
            numbers["seed"],
        )
        if errors:
            raise ValueError(f"a demo's controls must all be readable: {errors}")
        return inputs if self.fault is None else inputs.model_copy(update={"fault": self.fault})

    def run(self) -> RiskRun:
        return assessed(self.inputs())

    def command(self) -> str:
        """The command a terminal demo runs: the lesson's own, as a report for the terminal."""
        return f"{command_line(self.inputs())} --format text"

    def setting(self) -> Rich:
        """The controls set otherwise, as the lesson labels them; or the terminal's command."""
        if self.fault is not None:
            return ("In a terminal: ", Code(self.command()))
        if not self.changes:
            return (RISK_START,)
        labels = RISK_TEXTS | RISK_CHOICES
        items = []
        for name, value in self.changes:
            shown = f"{int(value):,}" if name == "trials" else value
            items.append(f"{control_name(labels[name])}: {shown}")
        return (SEPARATOR.join(items),)

    def shows(self) -> Rich:
        """Each view in the lesson's words, or in a terminal's as its text report prints it
        (a ValueError for a view the report has not)."""
        if self.fault is not None:
            return (SEPARATOR.join(self.printed(v) for v in self.views),)
        return (" ".join(self.view(v) for v in self.views),)

    def view(self, view: RiskView) -> str:
        """One part of the report, as the lesson words it."""
        words, run = record_lesson, self.run()
        match view:
            case RiskView.DUPLICATE:
                return _plain(words.estimate_lines(run).split("\n\n")[0]) + "."
            case RiskView.DEFAULTS:
                said = words.judge(run, words.NONE_OF_THEM)[1]
                for sentence in (words.PREDICTION_RIGHT, words.PREDICTION_WRONG):
                    said = said.removeprefix(sentence.split("{answer}")[0])
                return f"{DEFAULTS_LEAD}: {said}"
            case RiskView.EXACT:
                raise ValueError("the lesson shows no exact answer: give the demo a fault")
        exact = words.EXACT.split(" (")[0]
        paragraphs = words.required_text(run).split("\n\n")
        return " ".join(_plain(p) for p in paragraphs if not p.startswith(exact))

    def printed(self, view: RiskView) -> str:
        """One part of the report as ``asyncfail risk --format text`` prints it, its columns'
        spaces folded."""
        report = self.run().report
        match view:
            case RiskView.DUPLICATE:
                label = dict(OUTCOME_LABELS)["duplicate"]
                return estimate_sentence(label, report.duplicate, report.trials).rstrip(".")
            case RiskView.EXACT if report.exact is not None:
                return exact_sentence(report.exact, report.duplicate).rstrip(".")
        raise ValueError(f"a terminal's report has no {view.value} line for {self.inputs()}")


DEFAULTS_LEAD: Final = "Real defaults"
"""What leads the real systems' defaults, as the lesson judges a prediction against them."""
