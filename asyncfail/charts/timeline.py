"""A trace laid out for a timeline: lanes, markers, step state and narration, as plain data.

Charts (``asyncfail.charts.specs``) and lessons draw from these rows; tests read them without
altair.
"""

from collections import Counter
from enum import StrEnum
from typing import Final, Literal, TypedDict

from asyncfail.ground.durations import Duration, human
from asyncfail.ground.prose import counted, plural
from asyncfail.ground.retention import counts_until
from asyncfail.lab.events import LOOKUP_KINDS, Actor, Event, EventKind
from asyncfail.lab.reading import record_writes
from asyncfail.lab.results import LabResult

LANES: Final[tuple[Actor, ...]] = (Actor.CHANNEL, Actor.WORKER, Actor.STORE, Actor.RECEIVER)
"""Timeline lanes, top to bottom: the path a delivery takes from channel to receiver."""


class Marker(StrEnum):
    """How an event is drawn. Business effects and crashes must stand out from the rest."""

    BUSINESS_EFFECT = "business effect"
    CRASH = "crash"
    TIMEOUT = "timeout"
    LOOKUP = "lookup"
    DELIVERY_FACT = "delivery fact"


def marker_of(event: Event) -> Marker:
    """Business effects first (the ledger changed), then crashes, timeouts, lookups."""
    if event.is_business_effect:
        return Marker.BUSINESS_EFFECT
    if event.kind in {EventKind.PROCESS_CRASHED, EventKind.RECEIVER_CRASHED}:
        return Marker.CRASH
    if event.kind is EventKind.TIMEOUT_OBSERVED:
        return Marker.TIMEOUT
    if event.kind in LOOKUP_KINDS:
        return Marker.LOOKUP
    return Marker.DELIVERY_FACT


StepState = Literal["past", "current", "future"]


class TimelineRow(TypedDict):
    """One event as a chart or table row."""

    runtime: str
    seq: int
    attempt: int
    actor: str
    lane: int
    kind: str
    layer: str
    marker: str
    description: str
    state: StepState
    at_seconds: int | float
    at_text: str
    lane_y: float


def clamp_step(result: LabResult, step: int | None) -> int:
    """The step actually shown: ``None`` means the whole trace; steps beyond it show its end."""
    last = len(result.events)
    return last if step is None else max(1, min(step, last))


def state_of(seq: int, shown: int | None) -> StepState:
    """An event's state at step ``shown``: the shown event is current, earlier ones past, later
    ones future; with no step (``None``) every event is past, so nothing is highlighted."""
    if shown is None or seq < shown:
        return "past"
    return "current" if seq == shown else "future"


def timeline_rows(result: LabResult, step: int | None = None) -> list[TimelineRow]:
    """One row per event; with ``step`` set, events after it are ``future`` and it is current;
    without, the whole trace is past (a timeline with no step slider highlights nothing)."""
    shown = None if step is None else clamp_step(result, step)
    return [
        TimelineRow(
            runtime=result.mode.value,
            seq=e.seq,
            attempt=e.attempt,
            actor=e.actor.value,
            lane=LANES.index(e.actor),
            kind=e.kind.value,
            layer=e.layer.value,
            marker=marker_of(e).value,
            description=e.description,
            state=state_of(e.seq, shown),
            at_seconds=e.at.json_number,
            at_text=human(e.at),
            lane_y=y,
        )
        for e, y in zip(result.events, lane_positions(result), strict=True)
    ]


STACK: Final = 0.22
"""How far apart (in lanes) events of one lane that happened at the same instant are drawn."""


def lane_positions(result: LabResult) -> list[float]:
    """Where each event sits across the lanes of the timeline against time: at its lane's
    index, and when several events of one lane happened at the same instant (steps within a
    delivery take no time), stacked ``STACK`` apart around it in sequence order, top first, so
    none hides another."""
    groups = Counter((e.actor, e.at.millis) for e in result.events)
    seen: Counter[tuple[Actor, int]] = Counter()
    positions = []
    for e in result.events:
        group = (e.actor, e.at.millis)
        positions.append(LANES.index(e.actor) + STACK * (seen[group] - (groups[group] - 1) / 2))
        seen[group] += 1
    return positions


def time_end(result: LabResult) -> Duration:
    """Where a time axis of the run ends: a quarter of the run past its last event (one second
    past, for a run that takes no time), so the last delivery's marks stand clear of the edge."""
    last = max((e.at.millis for e in result.events), default=0)
    return Duration(last + (last // 4 or 1000))


class DeliveryMark(TypedDict):
    """When one delivery attempt began, for a rule on the time axis."""

    attempt: int
    at_seconds: float
    label: str
    text: str


def delivery_marks(result: LabResult) -> list[DeliveryMark]:
    """One mark per delivery attempt in the trace, at the time of its first event."""
    first: dict[int, Duration] = {}
    for e in result.events:
        first.setdefault(e.attempt, e.at)
    return [
        DeliveryMark(
            attempt=a,
            at_seconds=float(t.seconds),
            label=f"delivery {a}",
            text=f"delivery {a} at {human(t)}",
        )
        for a, t in first.items()
    ]


class RecordSpan(TypedDict):
    """How long one idempotency record counts: from its write to its expiry (None: the whole
    run)."""

    key: str
    from_seconds: float
    to_seconds: float | None
    text: str


def record_spans(result: LabResult) -> list[RecordSpan]:
    """The receiver's records over time, from the trace (``record_writes``) and the run's
    retention: each counts from its write until its retention runs out."""
    retention, boundary = result.settings.retention, result.settings.boundary
    spans = []
    for write in record_writes(result.events):
        assert write.key is not None  # record_writes holds keyed debits only
        start = write.at
        end = None if retention is None else start + retention
        until = "until the end of the run" if end is None else counts_until(end, boundary)
        spans.append(
            RecordSpan(
                key=write.key,
                from_seconds=float(start.seconds),
                to_seconds=None if end is None else float(end.seconds),
                text=f"record for {write.key}, written at {human(start)}, counts {until}",
            )
        )
    return spans


def narrate(result: LabResult, step: int) -> str:
    """One sentence for one step of a trace: where we are, who acts, and what happens."""
    shown = clamp_step(result, step)
    event = result.events[shown - 1]
    return (
        f"Step {shown} of {len(result.events)}, delivery attempt {event.attempt}, "
        f"{event.actor.value}: {event.description}"
    )


def describe_timeline(result: LabResult) -> str:
    """A text description of a timeline chart, for screen readers and static pages."""
    c = result.counts
    marked = {
        marker: [str(e.seq) for e in result.events if marker_of(e) is marker]
        for marker in (Marker.BUSINESS_EFFECT, Marker.CRASH, Marker.TIMEOUT)
    }
    notes = "; ".join(
        f"{marker.value} at {plural(len(seqs), 'step')} {', '.join(seqs)}"
        for marker, seqs in marked.items()
        if seqs
    )
    sequence = ", ".join(f"{e.seq} {e.kind.value} ({e.actor.value})" for e in result.events)
    return (
        f"Timeline of the {result.mode.value} runtime under {result.subject}: "
        f"{counted(len(result.events), 'event')} over {counted(c.attempts, 'delivery attempt')}, "
        f"{counted(c.effects, 'business effect')}"
        + (f" ({notes})" if notes else "")
        + f". Events in order: {sequence}."
    )
