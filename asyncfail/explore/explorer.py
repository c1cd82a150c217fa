"""The explorer: run every fault plan up to ``max_faults`` injections and report, for each
invariant, how many plans break it and the smallest plan that does.

Rules. A plan whose injections did not all strike (a point the run never reached, such as a
lookup in the naive loop, or a delivery that never came) ran exactly as the plan of the
injections that did strike: it is counted as explored and as unreachable, and it is not counted
again as a violation. The minimal counterexample of an invariant is the violating plan with the
fewest injections, then the fewest events, then the first in canonical order (``plan_order``):
deterministic, and a real run of the model.
"""

import math
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Final

from pydantic import BaseModel, ConfigDict, Field

from asyncfail.explore.invariants import RULES, Invariant, broken_by
from asyncfail.explore.plans import (
    MAX_FAULTS,
    injection_sets_up_to,
    injection_space,
    plan_order,
    plans_up_to,
)
from asyncfail.lab.events import Event
from asyncfail.lab.faults import FaultPlan, Injection
from asyncfail.lab.reading import Counts, Outcome, Status
from asyncfail.lab.results import LabResult
from asyncfail.lab.scenario import DEFAULT_DELIVERIES, MAX_DELIVERIES, Mode, Scenario, command_line
from asyncfail.lab.settings import DEFAULT_SETTINGS, LabSettings
from asyncfail.lab.simulation import execute, result_of


@dataclass(frozen=True, slots=True)
class PlanRun:
    """One plan, its run, whether all its injections struck, and the invariants it broke."""

    plan: FaultPlan
    result: LabResult
    reachable: bool
    broken: tuple[Invariant, ...]


def run_plan(mode: Mode, settings: LabSettings, deliveries: int, plan: FaultPlan) -> PlanRun:
    """One plan, run."""
    scenario = Scenario(plan=plan, mode=mode, deliveries=deliveries, settings=settings)
    execution = execute(mode, plan, deliveries, settings)
    result = result_of(scenario, execution.events)
    return PlanRun(plan, result, execution.all_fired(plan), broken_by(result))


def plan_runs(
    mode: Mode, settings: LabSettings, deliveries: int, max_faults: int
) -> Iterator[PlanRun]:
    """Every plan of up to ``max_faults`` injections, run, in enumeration order."""
    for plan in plans_up_to(injection_space(settings, deliveries), max_faults):
        yield run_plan(mode, settings, deliveries, plan)


def surely_unreachable(
    injections: tuple[Injection, ...], reachable_smaller: Mapping[frozenset[Injection], int]
) -> bool:
    """Whether the plan of ``injections`` cannot have every one strike, known without running it.

    ``reachable_smaller`` maps each plan of one injection fewer whose injections all struck to
    the last delivery attempt its run made. Rule: ``plan`` can be reachable only if, for some
    injection of it, the plan without that injection is reachable and its run made that
    injection's attempt. Why: if every injection strikes, take the one that strikes last. Until
    it does, the run is the run of the plan without it (the plan is consulted only where an
    injection would strike), so that smaller plan is reachable, and its run made the delivery
    attempt in which the last injection strikes. A plan of one injection has the empty plan
    below it, which is always reachable."""
    if len(injections) < 2:
        return False
    whole = frozenset(injections)
    return not any(
        injection.attempt <= reachable_smaller.get(whole - {injection}, 0)
        for injection in injections
    )


def last_attempt(events: tuple[Event, ...]) -> int:
    """The last delivery attempt a run made (0 if none)."""
    return max((e.attempt for e in events if e.attempt is not None), default=0)


class Counterexample(BaseModel):
    """The smallest plan that breaks an invariant, and its run as ``asyncfail lab`` prints it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    plan: tuple[Injection, ...]
    command: str = Field(description="The `asyncfail lab` command that replays this run.")
    counts: Counts
    outcome: Outcome
    status: Status
    events: tuple[Event, ...]


class InvariantReport(BaseModel):
    """One invariant over every plan explored."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: Invariant
    rule: str
    violations: int = Field(ge=0, description="Reachable plans whose run breaks it.")
    counterexample: Counterexample | None


class Exploration(BaseModel):
    """Every plan of up to ``max_faults`` injections for one runtime, budget and settings."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    mode: Mode
    deliveries: int = Field(ge=1, le=MAX_DELIVERIES)
    settings: LabSettings
    max_faults: int = Field(ge=0, le=MAX_FAULTS)
    explored: int = Field(description="Plans run.")
    unreachable: int = Field(
        description="Plans with an injection that never struck (run, but not counted twice)."
    )
    distinct_runs: int = Field(description="Different traces among the reachable plans.")
    interleavings: int = Field(
        description="Different orders in which the workers' steps ran among the reachable "
        "plans (``interleaving``); 1 with one worker."
    )
    invariants: tuple[InvariantReport, ...]


def interleaving(events: tuple[Event, ...]) -> tuple[int, ...]:
    """The order in which workers took turns in a run: the worker of each event that has one,
    repeats in a row collapsed (``(1, 2, 1)``: worker 1, then 2, then 1 again)."""
    turns: list[int] = []
    for e in events:
        if e.worker is not None and (not turns or turns[-1] != e.worker):
            turns.append(e.worker)
    return tuple(turns)


def _counterexample(run: PlanRun) -> Counterexample:
    result = run.result
    scenario = Scenario(
        plan=run.plan, mode=result.mode, deliveries=result.deliveries, settings=result.settings
    )
    return Counterexample(
        plan=run.plan.injections,
        command=command_line(scenario),
        counts=result.counts,
        outcome=result.outcome,
        status=result.status,
        events=result.events,
    )


def _smaller(a: PlanRun, b: PlanRun | None) -> bool:
    """Whether ``a`` comes before ``b`` as a counterexample (fewest injections, then fewest
    events, then canonical order)."""
    if b is None:
        return True
    key_a = (len(a.plan.injections), len(a.result.events), plan_order(a.plan))
    key_b = (len(b.plan.injections), len(b.result.events), plan_order(b.plan))
    return key_a < key_b


class TraceBook:
    """The distinct traces seen, each held as a short tuple of numbers, not as its events.

    Every distinct event gets a number the first time it is seen; a trace is the tuple of its
    events' numbers, so two traces are the same exactly when their tuples are. Memory grows
    with the distinct events and a few bytes per event of each distinct trace, where holding
    the traces themselves kept every run's events alive (hundreds of MB for tens of thousands
    of plans)."""

    def __init__(self) -> None:
        self._numbers: dict[Event, int] = {}
        self._traces: set[tuple[int, ...]] = set()

    def add(self, events: tuple[Event, ...]) -> None:
        numbers = self._numbers
        self._traces.add(tuple(numbers.setdefault(e, len(numbers)) for e in events))

    def __len__(self) -> int:
        return len(self._traces)


PROGRESS_EVERY: Final = 100
"""How many plans pass between two progress reports."""


def plans_to_explore(settings: LabSettings, deliveries: int, max_faults: int) -> int:
    """How many plans ``explore`` runs: every set of up to ``max_faults`` injections."""
    space = len(injection_space(settings, deliveries))
    return sum(math.comb(space, size) for size in range(max_faults + 1))


def explore(
    mode: Mode = Mode.DURABLE,
    settings: LabSettings = DEFAULT_SETTINGS,
    deliveries: int = DEFAULT_DELIVERIES,
    max_faults: int = 2,
    progress: Callable[[int, int], object] | None = None,
) -> Exploration:
    """Run every plan and report each invariant (rules in this module's docstring).
    ``progress(done, total)`` hears how many plans have run, every ``PROGRESS_EVERY`` plans and
    at the end. Only what the report needs is kept while the plans run (``TraceBook``)."""
    total = plans_to_explore(settings, deliveries, max_faults) if progress else 0
    explored = unreachable = 0
    traces = TraceBook()
    orders: set[tuple[int, ...]] = set()
    violations = dict.fromkeys(Invariant, 0)
    smallest: dict[Invariant, PlanRun | None] = dict.fromkeys(Invariant)
    # Plans come by size: the reachable plans of the size below, and of this size so far.
    below: dict[frozenset[Injection], int] = {}
    current: dict[frozenset[Injection], int] = {}
    size = 0
    for injections in injection_sets_up_to(injection_space(settings, deliveries), max_faults):
        explored += 1
        if progress is not None and (explored % PROGRESS_EVERY == 0 or explored == total):
            progress(explored, total)
        if len(injections) != size:
            below, current, size = current, {}, len(injections)
        if surely_unreachable(injections, below):
            unreachable += 1  # its run is a smaller plan's, counted there
            continue
        plan = FaultPlan(injections=injections)
        execution = execute(mode, plan, deliveries, settings)
        if not execution.all_fired(plan):
            unreachable += 1  # its run is a smaller plan's: no need to read it
            continue
        current[frozenset(injections)] = last_attempt(execution.events)
        scenario = Scenario(plan=plan, mode=mode, deliveries=deliveries, settings=settings)
        result = result_of(scenario, execution.events)
        run = PlanRun(plan, result, True, broken_by(result))
        traces.add(run.result.events)
        orders.add(interleaving(run.result.events))
        for invariant in run.broken:
            violations[invariant] += 1
            if _smaller(run, smallest[invariant]):
                smallest[invariant] = run
    reports = tuple(
        InvariantReport(
            name=invariant,
            rule=RULES[invariant],
            violations=violations[invariant],
            counterexample=None
            if (found := smallest[invariant]) is None
            else _counterexample(found),
        )
        for invariant in Invariant
    )
    return Exploration(
        mode=mode,
        deliveries=deliveries,
        settings=settings,
        max_faults=max_faults,
        explored=explored,
        unreachable=unreachable,
        distinct_runs=len(traces),
        interleavings=len(orders),
        invariants=reports,
    )
