"""The interpreter: the delivery channel driving a runtime against the simulated actors.

``run_plan`` is the whole model: it delivers the operation until a delivery is acknowledged or
parked, or the delivery budget is spent, turning crashes into facts and keeping the clock. It
knows runtimes only through their ``deliver`` generators and faults only through the plan.
"""

from dataclasses import dataclass
from typing import Final

from asyncfail.lab.actors import DurableStore, Receiver
from asyncfail.lab.delivery import Delivery
from asyncfail.lab.events import Event, EventKind
from asyncfail.lab.faults import Fault, FaultPlan, FaultPoint
from asyncfail.lab.results import LabResult
from asyncfail.lab.runtimes import DurableRuntime, Ending, NaiveRuntime, Runtime, Steps
from asyncfail.lab.scenario import Mode, Scenario
from asyncfail.lab.schedules import delivery_times
from asyncfail.lab.settings import DEFAULT_SETTINGS, LabSettings
from asyncfail.lab.trace import TraceRecorder

RUNTIMES: Final[dict[Mode, Runtime]] = {Mode.NAIVE: NaiveRuntime(), Mode.DURABLE: DurableRuntime()}


def drive(steps: Steps, delivery: Delivery) -> Ending | FaultPoint:
    """Run one delivery to its end: how it ended, or the point where the plan crashed it (the
    generator is then dropped, never resumed: the worker's memory is gone with it)."""
    try:
        point = next(steps)
        while not delivery.crashes_at(point):
            point = steps.send(None)
    except StopIteration as end:
        ending: Ending = end.value
        return ending
    steps.close()
    return point


@dataclass(frozen=True, slots=True)
class Execution:
    """One run's trace, and the injections of its plan that struck (an injection at a point
    the run never reached, or in a delivery that never came, did not)."""

    events: tuple[Event, ...]
    fired: frozenset[tuple[int, FaultPoint]]

    def all_fired(self, plan: FaultPlan) -> bool:
        """Whether every injection of ``plan`` struck in this run."""
        return all((i.attempt, i.point) in self.fired for i in plan.injections)


def run_plan(
    mode: Mode, plan: FaultPlan, deliveries: int, settings: LabSettings = DEFAULT_SETTINGS
) -> tuple[Event, ...]:
    """Execute one run and return its trace (``execute``)."""
    return execute(mode, plan, deliveries, settings).events


def execute(
    mode: Mode, plan: FaultPlan, deliveries: int, settings: LabSettings = DEFAULT_SETTINGS
) -> Execution:
    """Execute one run: its trace and the injections that struck.

    The channel delivers attempt 1, 2, ... at the times its schedule gives (the first at 0;
    time passes only between deliveries), up to ``deliveries`` or the schedule's own limit. A
    crash ends a delivery unacknowledged (``ProcessCrashed``, at its point); a released
    delivery is redelivered too; an acknowledged or parked one ends the run. When the budget is
    spent without either, the channel records ``DeliveryAbandoned``.
    """
    trace = TraceRecorder()
    receiver = Receiver(trace, settings)
    store = DurableStore(trace, settings)
    runtime = RUNTIMES[mode]
    fired: set[tuple[int, FaultPoint]] = set()
    times = delivery_times(settings.schedule, settings.redelivery_delay, deliveries)
    for attempt, at in enumerate(times, start=1):
        trace.attempt, trace.now = attempt, at
        delivery = Delivery(attempt, plan, settings, trace, receiver, store, fired)
        ended = drive(runtime.deliver(delivery), delivery)
        if isinstance(ended, FaultPoint):
            trace.emit(EventKind.PROCESS_CRASHED, point=ended)
        elif ended is not Ending.RELEASED:
            break
    else:
        trace.emit(EventKind.DELIVERY_ABANDONED)
    return Execution(trace.events(), frozenset(fired))


def simulate(scenario: Scenario) -> LabResult:
    """Run one scenario: its named fault or its plan, under one runtime and settings."""
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


def simulate_all(
    deliveries: int = Scenario().deliveries, settings: LabSettings = DEFAULT_SETTINGS
) -> tuple[LabResult, ...]:
    """Every named fault under both runtimes, faults in declaration order, naive first."""
    return tuple(
        simulate(Scenario(fault=fault, mode=mode, deliveries=deliveries, settings=settings))
        for fault in Fault
        for mode in Mode
    )
