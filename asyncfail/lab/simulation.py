"""The interpreter: the delivery channel driving a runtime against the simulated actors.

``run_plan`` is the whole model: it delivers the operation until a delivery is acknowledged or
parked, or the delivery budget is spent, turning crashes into facts and keeping the clock. It
knows runtimes only through their ``deliver`` generators and faults only through the plan.
"""

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


def run_plan(
    mode: Mode, plan: FaultPlan, deliveries: int, settings: LabSettings = DEFAULT_SETTINGS
) -> tuple[Event, ...]:
    """Execute one run and return its trace.

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
    times = delivery_times(settings.schedule, settings.redelivery_delay, deliveries)
    for attempt, at in enumerate(times, start=1):
        trace.attempt, trace.now = attempt, at
        delivery = Delivery(attempt, plan, settings, trace, receiver, store)
        ended = drive(runtime.deliver(delivery), delivery)
        if isinstance(ended, FaultPoint):
            trace.emit(EventKind.PROCESS_CRASHED, point=ended)
        elif ended is not Ending.RELEASED:
            break
    else:
        trace.emit(EventKind.DELIVERY_ABANDONED)
    return trace.events()


def simulate(scenario: Scenario) -> LabResult:
    """Run one named fault under one runtime and settings."""
    events = run_plan(
        scenario.mode, FaultPlan.for_fault(scenario.fault), scenario.deliveries, scenario.settings
    )
    return LabResult(
        fault=scenario.fault,
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
