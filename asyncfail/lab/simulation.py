"""Running the lab: a scenario in, a result document out.

``execute`` is the whole model (the channel and its scheduler, ``lab.channel``): it delivers the
operation until a delivery is acknowledged or parked, or the delivery budget is spent, turning
crashes and pauses into facts and keeping the clock. It knows runtimes only through their
``deliver`` generators and faults only through the plan.
"""

from functools import lru_cache
from typing import Final

from asyncfail.lab import channel
from asyncfail.lab.channel import Execution
from asyncfail.lab.events import Event
from asyncfail.lab.faults import Fault, FaultPlan
from asyncfail.lab.results import LabResult
from asyncfail.lab.scenario import SEED_MODES, Mode, Scenario
from asyncfail.lab.settings import DEFAULT_SETTINGS, LabSettings

__all__ = [
    "Execution",
    "execute",
    "result_of",
    "run_plan",
    "simulate",
    "simulate_all",
    "simulate_each_mode",
]


def run_plan(
    mode: Mode, plan: FaultPlan, deliveries: int, settings: LabSettings = DEFAULT_SETTINGS
) -> tuple[Event, ...]:
    """Execute one run and return its trace (``execute``)."""
    return execute(mode, plan, deliveries, settings).events


def execute(
    mode: Mode,
    plan: FaultPlan,
    deliveries: int,
    settings: LabSettings = DEFAULT_SETTINGS,
    delays: tuple[int, ...] | None = None,
) -> Execution:
    """Execute one run: its trace and the injections that struck (``channel``'s rules: the
    channel delivers until a delivery is acknowledged or parked or the budget is spent; a
    crash, ``ProcessCrashed`` at its point, ends a delivery unacknowledged). ``delays``, in
    milliseconds, replaces the schedule's redelivery delays."""
    return channel.execute(mode, plan, deliveries, settings, delays)


SIMULATED: Final = 256
"""How many scenarios ``simulate`` keeps the result of (the most recently asked)."""


@lru_cache(maxsize=SIMULATED)
def simulate(scenario: Scenario) -> LabResult:
    """Run one scenario: its named fault or its plan, under one runtime and settings.

    The model is deterministic and a scenario and its result are frozen, so a scenario asked
    again (a lesson's control set back, the same run in several cells, ``restorations`` trying
    the same changes) gets the same result object back without running again: a lesson's
    recompute in the browser, where Python runs several times slower, skips every run it made
    before. Equal scenarios (pydantic compares every field) share one result."""
    return result_of(
        scenario,
        run_plan(scenario.mode, scenario.fault_plan, scenario.deliveries, scenario.settings),
    )


def result_of(scenario: Scenario, events: tuple[Event, ...]) -> LabResult:
    """The result document of ``scenario``'s run, given its trace."""
    return LabResult(
        fault=scenario.fault,
        plan=scenario.fault_plan.injections,
        mode=scenario.mode,
        deliveries=scenario.deliveries,
        settings=scenario.settings,
        events=events,
    )


def simulate_each_mode(scenario: Scenario) -> dict[Mode, LabResult]:
    """``scenario``'s fault and settings under both of the seed's runtimes, naive first (its
    own mode is ignored): what a lesson sets side by side."""
    return {mode: simulate(scenario.model_copy(update={"mode": mode})) for mode in SEED_MODES}


def simulate_all(
    deliveries: int = Scenario().deliveries, settings: LabSettings = DEFAULT_SETTINGS
) -> tuple[LabResult, ...]:
    """Every named fault under both of the seed's runtimes, faults in declaration order, naive
    first."""
    return tuple(
        simulate(Scenario(fault=fault, mode=mode, deliveries=deliveries, settings=settings))
        for fault in Fault
        for mode in SEED_MODES
    )
