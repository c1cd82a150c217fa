"""The delivery channel and the scheduler: who runs when, on the run's virtual clock.

One run is a set of deliveries of the operation to workers. The scheduler keeps an agenda of
what happens next (a delivery, a paused worker resuming, a lease running out), ordered by
virtual time and, at one instant, by the order it was put on the agenda; it runs one worker at a
time, step by step, until the worker ends its delivery or pauses. Steps take no time, so two
workers' steps interleave only where one of them pauses.

Rules of the channel:

- The first delivery is at 0. When the delivery the channel is waiting on ends without an
  acknowledgement (a crash, a release), the next one comes after the schedule's delay for it,
  from that moment; when none is left in the budget, the channel records ``DeliveryAbandoned``.
- A delivery handed to a worker holds its lease while now < start + ``lease``. With two
  workers, when a lease runs out and the other worker is idle, the channel records
  ``LeaseExpired`` and hands the operation on at once, as the next delivery; the paused worker
  keeps running when it resumes, and nothing it does later ends or renews the channel's wait.
- An acknowledged or parked delivery ends the channel's wait for good; workers still paused
  finish what they were doing.
- A request stalled at the receiver (``pause-in-request``) for longer than ``client_timeout``
  times out for its worker at the timeout (``TimeoutObserved`` there, after it resumes); the
  receiver finishes the request when the stall ends, whatever the worker did meanwhile: a late
  commit. A stall no longer than the timeout is waited out.
- With ``replay_after`` set, an operator replays an abandoned delivery by hand that long after
  the channel gave up (``DeliveryReplayed``): one more delivery, the last, numbered the attempt
  after the budget's last. A replay that ends without an acknowledgement is abandoned again
  (a second ``DeliveryAbandoned``): nothing comes after it.
"""

import heapq
from dataclasses import dataclass, field
from typing import Final

from asyncfail.ground.durations import Duration
from asyncfail.lab.actors import DurableStore, Receiver
from asyncfail.lab.checkpoint import CheckpointRuntime
from asyncfail.lab.delivery import Delivery
from asyncfail.lab.events import Event, EventKind
from asyncfail.lab.faults import FaultPlan, FaultPoint
from asyncfail.lab.runtimes import DurableRuntime, Ending, NaiveRuntime, Runtime, Steps
from asyncfail.lab.scenario import Mode
from asyncfail.lab.schedules import redelivery_delays
from asyncfail.lab.settings import LabSettings
from asyncfail.lab.trace import TraceRecorder

RUNTIMES: Final[dict[Mode, Runtime]] = {
    Mode.NAIVE: NaiveRuntime(),
    Mode.DURABLE: DurableRuntime(),
    Mode.CHECKPOINT: CheckpointRuntime(),
}


@dataclass(frozen=True, slots=True)
class Execution:
    """One run's trace, and the injections of its plan that struck (an injection at a point
    the run never reached, or in a delivery that never came, did not)."""

    events: tuple[Event, ...]
    fired: frozenset[tuple[int, FaultPoint]]
    delays_used: int = 0
    """How many of the redelivery delays the run waited on (the first ``delays_used``)."""
    replayed: bool = False
    """Whether an operator's replay came (the run waited on ``replay_after``)."""

    def all_fired(self, plan: FaultPlan) -> bool:
        """Whether every injection of ``plan`` struck in this run."""
        return all((i.attempt, i.point) in self.fired for i in plan.injections)


@dataclass(slots=True)
class Worker:
    """One worker: the delivery it is running, if any, and where its steps stand."""

    number: int
    delivery: Delivery | None = None
    steps: Steps | None = None


@dataclass(frozen=True, slots=True)
class Deliver:
    """The channel hands the operation to an idle worker."""


@dataclass(frozen=True, slots=True)
class Replay:
    """An operator replays the abandoned delivery."""


@dataclass(frozen=True, slots=True)
class Resume:
    """A paused worker resumes."""

    worker: Worker


@dataclass(frozen=True, slots=True)
class LateCommit:
    """A request the worker gave up on (its client timed out) finishes at the receiver."""

    delivery: Delivery
    worker: int


@dataclass(frozen=True, slots=True)
class LeaseCheck:
    """A delivery's lease runs out now, if it is still being worked on."""

    delivery: Delivery


Action = Deliver | Replay | Resume | LeaseCheck | LateCommit


@dataclass(slots=True)
class Run:
    """The state of one run while the scheduler drives it."""

    mode: Mode
    plan: FaultPlan
    settings: LabSettings
    delays: tuple[int, ...]
    trace: TraceRecorder = field(default_factory=TraceRecorder)
    agenda: list[tuple[int, int, Action]] = field(default_factory=list)
    order: int = 0
    attempts: int = 0
    done: bool = False
    replayed: bool = False
    delays_used: int = 0
    waiting_on: Delivery | None = None
    fired: set[tuple[int, FaultPoint]] = field(default_factory=set)
    workers: list[Worker] = field(default_factory=list)
    receiver: Receiver = field(init=False)
    store: DurableStore = field(init=False)

    def __post_init__(self) -> None:
        self.receiver = Receiver(self.trace, self.settings)
        self.store = DurableStore(self.trace, self.settings)
        self.workers = [Worker(n) for n in range(1, self.settings.workers + 1)]

    # -- the agenda ----------------------------------------------------------------------------

    def at(self, millis: int, action: Action) -> None:
        """Put ``action`` on the agenda at ``millis``, after whatever is there at that instant."""
        heapq.heappush(self.agenda, (millis, self.order, action))
        self.order += 1

    def run(self) -> Execution:
        self.at(0, Deliver())
        while self.agenda:
            millis, _, action = heapq.heappop(self.agenda)
            self.trace.now = Duration(millis)
            match action:
                case Deliver():
                    self.deliver()
                case Replay():
                    self.trace.attempt, self.trace.worker = self.attempts + 1, None
                    self.trace.emit(EventKind.DELIVERY_REPLAYED)
                    self.deliver()
                case Resume(worker=worker):
                    self.focus(worker)
                    self.trace.emit(EventKind.WORKER_RESUMED)
                    self.advance(worker, resuming=True)
                case LeaseCheck(delivery=delivery):
                    self.lease_runs_out(delivery)
                case LateCommit(delivery=delivery, worker=number):
                    self.trace.attempt = delivery.attempt
                    self.trace.worker = number if len(self.workers) > 1 else None
                    delivery.commit_late()
        return Execution(
            self.trace.events(), frozenset(self.fired), self.delays_used, self.replayed
        )

    # -- the channel -----------------------------------------------------------------------------

    def deliver(self) -> None:
        if self.done:
            return
        worker = next(w for w in self.workers if w.delivery is None)
        self.attempts += 1
        delivery = Delivery(
            self.attempts,
            self.plan,
            self.settings,
            self.trace,
            self.receiver,
            self.store,
            self.fired,
            worker=worker.number,
        )
        worker.delivery, worker.steps = delivery, RUNTIMES[self.mode].deliver(delivery)
        self.waiting_on = delivery
        if len(self.workers) > 1:
            self.at(self.trace.now.millis + self.settings.lease.millis, LeaseCheck(delivery))
        self.focus(worker)
        self.advance(worker, resuming=False)

    def lease_runs_out(self, delivery: Delivery) -> None:
        """Hand the operation on if the delivery is still being worked on, the channel still
        waits on it, another worker is idle and the budget allows another delivery."""
        busy = any(w.delivery is delivery for w in self.workers)
        idle = any(w.delivery is None for w in self.workers)
        if self.done or not busy or not idle or self.waiting_on is not delivery:
            return
        if self.attempts > len(self.delays):
            return
        self.trace.attempt, self.trace.worker = delivery.attempt, None
        self.trace.emit(EventKind.LEASE_EXPIRED)
        delivery.superseded = True
        self.deliver()

    def ended(self, worker: Worker, ending: Ending | None) -> None:
        """A worker's delivery is over (``None``: it crashed); the channel decides what next."""
        delivery = worker.delivery
        assert delivery is not None
        worker.delivery = worker.steps = None
        if delivery.superseded or self.waiting_on is not delivery:
            return
        if ending in (Ending.ACKNOWLEDGED, Ending.PARKED):
            self.done = True
            return
        if self.attempts > len(self.delays) or self.replayed:
            # The channel gives up on the budget's last delivery and, just as much, on a replay
            # that failed: the replay is one more delivery, not a promise that it succeeded.
            self.trace.worker = None  # the channel's fact, not a worker's step
            self.trace.emit(EventKind.DELIVERY_ABANDONED)
            replay = self.settings.replay_after
            if replay is not None and not self.replayed:
                self.replayed = True
                self.at(self.trace.now.millis + replay.millis, Replay())
            return
        delay = self.delays[self.attempts - 1]
        self.delays_used = max(self.delays_used, self.attempts)
        self.at(self.trace.now.millis + delay, Deliver())

    # -- the workers -----------------------------------------------------------------------------

    def focus(self, worker: Worker) -> None:
        """Attribute what happens next to ``worker`` and its delivery."""
        assert worker.delivery is not None
        self.trace.attempt = worker.delivery.attempt
        self.trace.worker = worker.number if len(self.workers) > 1 else None

    def advance(self, worker: Worker, *, resuming: bool) -> None:
        """Run ``worker``'s steps until its delivery ends or it pauses. At each point it
        reaches the plan may crash it (the steps are dropped, never resumed: its memory is
        gone) or pause it (the steps wait on the agenda)."""
        steps, delivery = worker.steps, worker.delivery
        assert steps is not None and delivery is not None
        try:
            point = steps.send(None) if resuming else next(steps)
            while True:
                if delivery.crashes_at(point):
                    steps.close()
                    self.trace.emit(EventKind.PROCESS_CRASHED, point=point)
                    self.ended(worker, None)
                    return
                if delivery.pauses_at(point):
                    self.trace.emit(EventKind.WORKER_PAUSED, point=point)
                    now, wait = self.trace.now.millis, self.settings.pause.millis
                    timeout = self.settings.client_timeout.millis
                    if point is FaultPoint.PAUSE_IN_REQUEST and wait > timeout:
                        # A stall longer than the client timeout: the worker gives up at the
                        # timeout; the request runs on and ends when the stall does.
                        delivery.timed_out = True
                        self.at(now + wait, LateCommit(delivery, worker.number))
                        wait = timeout
                    self.at(now + wait, Resume(worker))
                    return
                point = steps.send(None)
        except StopIteration as end:
            ending: Ending = end.value
            self.ended(worker, ending)


def execute(
    mode: Mode,
    plan: FaultPlan,
    deliveries: int,
    settings: LabSettings,
    delays: tuple[int, ...] | None = None,
) -> Execution:
    """Run the operation through the channel: ``deliveries`` bounds the deliveries, and the
    schedule's own limit may bound them further. ``delays`` (milliseconds before each
    redelivery) replaces the schedule's, as a risk trial draws them with jitter."""
    if delays is None:
        scheduled = redelivery_delays(settings.schedule, settings.redelivery_delay, deliveries)
        delays = tuple(d.millis for d in scheduled)
    return Run(mode, plan, settings, delays).run()
