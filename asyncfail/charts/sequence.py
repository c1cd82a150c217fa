"""A trace as a sequence diagram: who sends what to whom, in step order, as plain data.

Actors are lanes (channel, the worker or each worker, store, receiver); each message is an arrow
from its sender's lane to its recipient's, one row per arrow, top to bottom, as Maelstrom's
``messages.svg`` and Lamport's diagrams draw a run. A lost message stops halfway; a crash, a
timeout or another fact that sends nothing sits on its actor's lane. The rows are derived from
the trace alone (``sequence_rows``), so the diagram can never disagree with the counts.
"""

from enum import StrEnum
from typing import Final, Literal, TypedDict

from asyncfail.charts.lanes import lane_name, lanes_of
from asyncfail.charts.timeline import StepState, clamp_step, marker_of, state_of
from asyncfail.ground.durations import human
from asyncfail.ground.prose import counted, joined
from asyncfail.lab.events import Event, EventKind
from asyncfail.lab.faults import FaultPoint
from asyncfail.lab.results import LabResult


class Role(StrEnum):
    """Who sends or receives a message; ``WORKER`` is the lane of the worker whose step it is."""

    CHANNEL = "channel"
    WORKER = "worker"
    STORE = "store"
    RECEIVER = "receiver"


Hop = tuple[Role, Role, str]
"""One arrow of an event: sender, recipient, label. Sender = recipient: a fact on one lane."""

C, W, S, R = Role.CHANNEL, Role.WORKER, Role.STORE, Role.RECEIVER

HOPS: Final[dict[EventKind, tuple[Hop, ...]]] = {
    EventKind.TOOL_CALLED: ((W, R, "debit request"),),
    EventKind.TOOL_CALLED_AGAIN: ((W, R, "debit request again"),),
    EventKind.DISPATCH_INTENT_RECORDED: ((W, S, "record intent"), (W, R, "debit request")),
    EventKind.DEBIT_APPLIED: ((R, W, "debited; reply"),),
    EventKind.DEBIT_APPLIED_AGAIN: ((R, W, "debited again; reply"),),
    EventKind.PROCESS_CRASHED: ((W, W, "worker crashes"),),
    EventKind.TIMEOUT_OBSERVED: ((W, W, "times out"),),
    EventKind.RUN_REPLAYED: ((W, W, "replays its run"),),
    EventKind.OPERATION_LOOKUP_FOUND: ((W, R, "lookup by key"), (R, W, "found: already debited")),
    EventKind.OPERATION_LOOKUP_MISSING: ((W, R, "lookup by key"), (R, W, "not found")),
    EventKind.OPERATION_LOOKUP_FAILED: ((W, R, "lookup by key"),),
    EventKind.TOOL_RESULT_RECORDED: ((W, S, "record result"),),
    EventKind.TOOL_RESULT_REPLAYED: ((S, W, "recorded result"),),
    EventKind.DELIVERY_ABANDONED: ((C, C, "gives up"),),
    EventKind.RECORD_EXPIRED: ((R, R, "record expires"),),
    EventKind.REQUEST_DEDUPLICATED: ((R, W, "stored result, no debit"),),
    EventKind.RECEIVER_CRASHED: ((R, R, "receiver crashes"),),
    EventKind.OPERATION_PARKED: ((W, W, "parked for an operator"),),
    EventKind.STORE_WRITE_FAILED: ((W, S, "journal write"),),
    EventKind.LEASE_EXPIRED: ((C, C, "lease expires"),),
    EventKind.WORKER_PAUSED: ((W, W, "stalls"),),
    EventKind.WORKER_RESUMED: ((W, W, "resumes"),),
    EventKind.OPERATION_CLAIMED: ((W, S, "claim"),),
    EventKind.CLAIM_HELD: ((S, W, "claim held by another"),),
    EventKind.CLAIM_LOST: ((S, W, "claim lost"),),
    EventKind.REQUEST_IN_PROGRESS: ((R, W, "refused: in progress"),),
    EventKind.REQUEST_FENCED: ((R, W, "refused: stale token"),),
    EventKind.DELIVERY_REPLAYED: ((C, C, "operator replays"),),
    EventKind.WORKFLOW_FAILED: ((W, S, "record step error: workflow fails"),),
}
"""The arrows each event kind draws, in order: one table, so every kind has exactly one
drawing (a test checks it covers ``EventKind``). A request, a lookup or a journal write goes from
the worker; an answer comes back to it; a journal event of the durable runtime is a message
between the worker and its store."""

ALWAYS_LOST: Final = frozenset({EventKind.OPERATION_LOOKUP_FAILED, EventKind.STORE_WRITE_FAILED})
"""Events whose message never gets an answer: the lookup service or the store is down."""

DELIVERY: Final = "delivery"
"""The ``kind`` of a row that is a delivery by the channel rather than an event of the trace."""

Fate = Literal["delivered", "lost", "local"]


class SequenceRow(TypedDict):
    """One arrow (or one fact on a lane) of a sequence diagram."""

    row: int
    step: int | None
    step_label: str
    attempt: int
    kind: str
    marker: str | None
    sender: str
    recipient: str
    from_x: int
    to_x: int
    head_x: float
    label_x: float
    point_x: int | None
    message: str
    fate: Fate
    at_text: str
    description: str
    state: StepState


def worker_lane(event: Event) -> str:
    """The lane of the worker whose step ``event`` is: ``worker``, or ``worker 2`` in a run
    with two workers (whatever the event's own actor: a journal write is the worker's too)."""
    return "worker" if event.worker is None else f"worker {event.worker}"


def _lost(event: Event, sender: Role, recipient: Role, after: Event | None) -> bool:
    """Rule: a message from the worker to the receiver is lost when the next event of the same
    delivery is a timeout struck at ``request``; an answer from the receiver is lost when it is
    a timeout struck at ``response``; a failed lookup or journal write is always lost. (A
    crash does not lose a message: it stops its actor after the message arrived.)"""
    if event.kind in ALWAYS_LOST:
        return True
    if after is None or after.kind is not EventKind.TIMEOUT_OBSERVED:
        return False
    if (sender, recipient) == (W, R):
        return after.point is FaultPoint.REQUEST
    return sender is R and after.point is FaultPoint.RESPONSE


def _next_in_delivery(events: tuple[Event, ...], index: int) -> Event | None:
    """The event after ``events[index]`` in the same delivery attempt, if any."""
    attempt = events[index].attempt
    return next((e for e in events[index + 1 :] if e.attempt == attempt), None)


def sequence_rows(result: LabResult, step: int | None = None) -> list[SequenceRow]:
    """The rows of a run's sequence diagram, top to bottom.

    Each delivery attempt opens with an arrow from the channel to the worker that receives it
    (``delivery 2, at 30 s``); then each event draws the arrows of ``HOPS``, in trace order.
    A lost arrow (``_lost``) ends halfway (``head_x``); a fact on one lane has ``fate`` local.
    ``marker`` is the event's timeline marker on its first row (crash, business effect...),
    drawn on the event's own lane (``point_x``: the receiver for a debit, the store for a
    journal record), None on a delivery row and on an event's further rows.

    With ``step`` set, the rows of that event are ``current``, earlier ones ``past`` and later
    ones ``future`` (``timeline.state_of``); a delivery row is past once its delivery's first
    event is shown. Without, every row is past.
    """
    shown = None if step is None else clamp_step(result, step)
    lanes = lanes_of(result)
    events = result.events
    rows: list[SequenceRow] = []
    opened: set[int] = set()

    def add(
        seq: int | None,
        event: Event,
        hop: Hop,
        kind: str,
        n: int,
        marker: str | None,
        fate: Fate,
        description: str,
    ) -> None:
        sender, recipient, message = hop
        state = state_of(event.seq, shown)
        names = {r: worker_lane(event) if r is W else r.value for r in (sender, recipient)}
        from_x, to_x = lanes.index(names[sender]), lanes.index(names[recipient])
        head_x = (from_x + to_x) / 2 if fate == "lost" else float(to_x)
        rows.append(
            SequenceRow(
                row=len(rows),
                step=seq,
                step_label="" if seq is None or n > 0 else str(seq),
                attempt=event.attempt,
                kind=kind,
                marker=marker,
                sender=names[sender],
                recipient=names[recipient],
                from_x=from_x,
                to_x=to_x,
                head_x=head_x,
                label_x=(from_x + head_x) / 2,
                point_x=None if marker is None else lanes.index(lane_name(event)),
                message=message,
                fate=fate,
                at_text=human(event.at),
                description=description,
                # A delivery row is done once its first event is shown.
                state="past" if seq is None and state == "current" else state,
            )
        )

    for index, event in enumerate(events):
        if event.attempt not in opened:
            opened.add(event.attempt)
            at = human(event.at)
            add(
                None,
                event,
                (C, W, f"delivery {event.attempt}, at {at}"),
                DELIVERY,
                0,
                None,
                "delivered",
                f"The channel delivers the operation (delivery {event.attempt}, at {at}).",
            )
        after = _next_in_delivery(events, index)
        for n, hop in enumerate(HOPS[event.kind]):
            sender, recipient, _ = hop
            fate: Fate = (
                "local"
                if sender is recipient
                else "lost"
                if _lost(event, sender, recipient, after)
                else "delivered"
            )
            marker = marker_of(event).value if n == 0 else None
            add(event.seq, event, hop, event.kind.value, n, marker, fate, event.description)
    return rows


SEQUENCE_COLUMNS: Final = ("step", "from", "to", "message", "what happens")


def sequence_table(
    result: LabResult, rows: list[SequenceRow] | None = None
) -> list[dict[str, object]]:
    """The diagram as a table, one row per arrow: the text alternative a screen reader or a
    learner asks for. A lost message says so; a fact on one lane has no recipient. ``rows``
    are the run's ``sequence_rows`` when a drawing made them already (at any step: the table
    does not read a row's state)."""
    table: list[dict[str, object]] = []
    for row in sequence_rows(result) if rows is None else rows:
        local = row["fate"] == "local"
        message = row["message"] + (" (lost)" if row["fate"] == "lost" else "")
        values = (
            "" if row["step"] is None else row["step"],
            row["sender"],
            "" if local else row["recipient"],
            message,
            row["description"],
        )
        table.append(dict(zip(SEQUENCE_COLUMNS, values, strict=True)))
    return table


def describe_sequence(result: LabResult, rows: list[SequenceRow] | None = None) -> str:
    """One short sentence for the diagram (its title's text alternative): the runtime, the
    fault, how many messages, which were lost, and the effects. The whole story is in
    ``sequence_table``; ``rows`` as it takes them."""
    rows = sequence_rows(result) if rows is None else rows
    arrows = [r for r in rows if r["fate"] != "local"]
    lost = [r["message"] for r in arrows if r["fate"] == "lost"]
    c = result.counts
    gone = f" ({len(lost)} lost: {joined(lost)})" if lost else ""
    return (
        f"Sequence diagram of the {result.mode.value} runtime under {result.subject}: "
        f"{counted(len(arrows), 'message')} over {counted(c.attempts, 'delivery')}"
        f"{gone}; {counted(c.effects, 'debit')} applied."
    )
