"""The interpreter: the delivery channel driving a runtime against the simulated actors.

``run_plan`` is the whole model: it delivers the operation until a delivery is acknowledged or
the delivery budget is spent, turning crashes into facts. It knows runtimes only through their
``deliver`` method and faults only through the plan.
"""

from typing import Final

from asyncfail.lab.actors import DurableStore, Receiver
from asyncfail.lab.delivery import Delivery, WorkerCrashed
from asyncfail.lab.events import Event, EventKind
from asyncfail.lab.faults import Fault, FaultPlan
from asyncfail.lab.results import LabResult
from asyncfail.lab.runtimes import DurableRuntime, Ending, NaiveRuntime, Runtime
from asyncfail.lab.scenario import Mode, Scenario
from asyncfail.lab.trace import TraceRecorder

RUNTIMES: Final[dict[Mode, Runtime]] = {Mode.NAIVE: NaiveRuntime(), Mode.DURABLE: DurableRuntime()}


def run_plan(mode: Mode, plan: FaultPlan, deliveries: int) -> tuple[Event, ...]:
    """Execute one run and return its trace.

    The channel delivers attempt 1, 2, ... up to ``deliveries``. A crash ends a delivery
    unacknowledged (``ProcessCrashed``); a released delivery is redelivered too. When the budget
    is spent without an acknowledgement the channel records ``DeliveryAbandoned``.
    """
    trace = TraceRecorder()
    receiver = Receiver(trace)
    store = DurableStore(trace)
    runtime = RUNTIMES[mode]
    for attempt in range(1, deliveries + 1):
        trace.attempt = attempt
        delivery = Delivery(attempt, plan, trace, receiver, store)
        try:
            ending = runtime.deliver(delivery)
        except WorkerCrashed as crash:
            trace.emit(EventKind.PROCESS_CRASHED, point=crash.point)
            continue
        if ending is Ending.ACKNOWLEDGED:
            break
    else:
        trace.emit(EventKind.DELIVERY_ABANDONED)
    return trace.events()


def simulate(scenario: Scenario) -> LabResult:
    """Run one named fault under one runtime."""
    events = run_plan(scenario.mode, FaultPlan.for_fault(scenario.fault), scenario.deliveries)
    return LabResult(
        fault=scenario.fault, mode=scenario.mode, deliveries=scenario.deliveries, events=events
    )


def simulate_all(deliveries: int = Scenario().deliveries) -> tuple[LabResult, ...]:
    """Every named fault under both runtimes, faults in declaration order, naive first."""
    return tuple(
        simulate(Scenario(fault=fault, mode=mode, deliveries=deliveries))
        for fault in Fault
        for mode in Mode
    )
