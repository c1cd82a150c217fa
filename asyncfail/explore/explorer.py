"""The explorer: run every fault plan up to ``max_faults`` injections and report, for each
invariant, how many plans break it and the smallest plan that does.

Rules. A plan whose injections did not all strike (a point the run never reached, such as a
lookup in the naive loop, or a delivery that never came) ran exactly as the plan of the
injections that did strike: it is counted as explored and as unreachable, and it is not counted
again as a violation. The minimal counterexample of an invariant is the violating plan with the
fewest injections, then the fewest events, then the first in canonical order (``plan_order``):
deterministic, and a real run of the model.

How the reachable plans are found without running the others (``explore``): a plan is asked
at each point a run reaches, the first time each delivery reaches it, and nowhere else. Take a
reachable plan and the injection of it that struck last: until that one strikes, the run is the
run of the plan without it, so that smaller plan is reachable and its run asked about that
injection's point after its own last injection struck. Conversely, a reachable plan and a
point its run asks about after its last injection struck make a larger plan that is reachable
(the two runs agree until that point is asked, and there it strikes). So the reachable plans of
k + 1 injections are exactly the reachable plans of k injections, each with one point its run
asked about after its last strike, and each is found once (from the plan without its last
strike). Every other plan is unreachable, counted without a run.
"""

import math
from bisect import insort
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Final

from pydantic import BaseModel, Field

from asyncfail.explore.invariants import RULES, Invariant, broken_by, broken_in
from asyncfail.explore.plans import MAX_FAULTS, injection_space, plans_up_to
from asyncfail.ground.frozen import FROZEN
from asyncfail.lab.events import Event
from asyncfail.lab.faults import FaultPlan, FaultPoint, Injection
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


class _Probe(FaultPlan):
    """A plan that notes each (attempt, point) a run asks it about, in the order asked. A run
    asks its plan only where an injection could strike: the first time each delivery reaches
    each point (``lab.delivery``). Built by ``of_sorted`` only, never shown or compared."""

    asked: list[tuple[int, FaultPoint]] = Field(default_factory=list, exclude=True, repr=False)
    keys: frozenset[tuple[int, FaultPoint]] = Field(default=frozenset(), exclude=True, repr=False)

    @classmethod
    def of_sorted(cls, injections: tuple[Injection, ...]) -> "_Probe":
        # ``injections`` come in canonical order already (the space's), as a plan keeps them.
        keys = frozenset((i.attempt, i.point) for i in injections)
        return cls.model_construct(injections=injections, asked=[], keys=keys)

    def fires(self, attempt: int, point: FaultPoint) -> bool:
        key = (attempt, point)
        self.asked.append(key)
        return key in self.keys

    def asked_after_the_last_strike(self) -> list[tuple[int, FaultPoint]]:
        """The points the run asked about after the last of this plan's injections struck (all
        of them for the empty plan); call once the run is over and every injection struck."""
        asked = self.asked
        last = max((asked.index(key) for key in self.keys), default=-1)
        return asked[last + 1 :]


def rank(chosen: tuple[int, ...], n: int) -> int:
    """The place (from 0) of the sorted indices ``chosen`` among the subsets of their size of
    ``range(n)``, in the order ``itertools.combinations`` gives them."""
    k = len(chosen)
    return math.comb(n, k) - 1 - sum(math.comb(n - 1 - c, k - i) for i, c in enumerate(chosen))


class Counterexample(BaseModel):
    """The smallest plan that breaks an invariant, and its run as ``asyncfail lab`` prints it."""

    model_config = FROZEN

    plan: tuple[Injection, ...]
    command: str = Field(description="The `asyncfail lab` command that replays this run.")
    counts: Counts
    outcome: Outcome
    status: Status
    events: tuple[Event, ...]


class InvariantReport(BaseModel):
    """One invariant over every plan explored."""

    model_config = FROZEN

    name: Invariant
    rule: str
    violations: int = Field(ge=0, description="Reachable plans whose run breaks it.")
    counterexample: Counterexample | None


class Exploration(BaseModel):
    """Every plan of up to ``max_faults`` injections for one runtime, budget and settings."""

    model_config = FROZEN

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


def _plan_run(
    mode: Mode, settings: LabSettings, deliveries: int, probe: FaultPlan, events: tuple[Event, ...]
) -> PlanRun:
    """A reachable plan's run as ``run_plan`` gives it, from the trace already run."""
    plan = FaultPlan(injections=probe.injections)
    scenario = Scenario(plan=plan, mode=mode, deliveries=deliveries, settings=settings)
    result = result_of(scenario, events)
    return PlanRun(plan, result, True, broken_by(result))


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
    """Account for every plan and report each invariant (rules in this module's docstring): the
    reachable plans are run, size by size, each found from a smaller one; the others are
    counted unreachable unrun. ``progress(done, total)`` hears how many plans are done (run, or
    known unreachable), every ``PROGRESS_EVERY`` plans in canonical order, and at the end. Only
    what the report needs is kept while the plans run (``TraceBook``)."""
    space = injection_space(settings, deliveries)
    place = {(i.attempt, i.point): n for n, i in enumerate(space)}
    total = plans_to_explore(settings, deliveries, max_faults)
    told = PROGRESS_EVERY  # the next count progress hears

    def tell(done: int) -> None:
        nonlocal told
        while progress is not None and told <= done and told < total:
            progress(told, total)
            told += PROGRESS_EVERY

    reached = 0
    traces = TraceBook()
    orders: set[tuple[int, ...]] = set()
    violations = dict.fromkeys(Invariant, 0)
    smallest: dict[Invariant, PlanRun | None] = dict.fromkeys(Invariant)
    least: dict[Invariant, tuple[int, int, tuple[int, ...]]] = {}  # the smallest's rank
    level: list[tuple[int, ...]] = [()]  # the candidates of this size (indices into the space)
    below = 0  # the plans of the sizes done
    for size in range(max_faults + 1):
        larger_plans: set[tuple[int, ...]] = set()  # the candidates of the next size
        for chosen in sorted(level):
            tell(below + rank(chosen, len(space)))
            probe = _Probe.of_sorted(tuple(space[n] for n in chosen))
            execution = execute(mode, probe, deliveries, settings)
            if not execution.all_fired(probe):
                continue  # never, by the rule above; counted unreachable if it were
            reached += 1
            events = execution.events
            traces.add(events)
            orders.add(interleaving(events))
            for invariant in broken_in(events):
                violations[invariant] += 1
                rank_here = (size, len(events), chosen)  # canonical order is the space's
                if smallest[invariant] is None or rank_here < least[invariant]:
                    least[invariant] = rank_here
                    smallest[invariant] = _plan_run(mode, settings, deliveries, probe, events)
            if size < max_faults:
                for key in probe.asked_after_the_last_strike():
                    if (n := place.get(key)) is not None and n not in chosen:
                        larger = list(chosen)
                        insort(larger, n)
                        larger_plans.add(tuple(larger))
        below += math.comb(len(space), size)
        level = list(larger_plans)
    tell(total)
    if progress is not None:
        progress(total, total)
    explored = total
    unreachable = total - reached
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
