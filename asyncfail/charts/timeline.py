"""A trace laid out for a timeline: lanes, markers, step state and narration, as plain data.

Charts (``asyncfail.charts.specs``) and lessons draw from these rows; tests read them without
altair.
"""

from enum import StrEnum
from typing import Final, Literal, TypedDict

from asyncfail.charts.lanes import LANES, lane_name
from asyncfail.ground.durations import human
from asyncfail.ground.prose import counted, plural
from asyncfail.lab.events import LOOKUP_KINDS, Event, EventKind
from asyncfail.lab.results import LabResult


class Marker(StrEnum):
    """How an event is drawn. Business effects and crashes must stand out from the rest."""

    BUSINESS_EFFECT = "business effect"
    CRASH = "crash"
    TIMEOUT = "timeout"
    LOOKUP = "lookup"
    PAUSE = "pause"
    REFUSED = "refused by a safeguard"
    DELIVERY_FACT = "delivery fact"


REFUSALS: Final = frozenset(
    {
        EventKind.REQUEST_IN_PROGRESS,
        EventKind.REQUEST_FENCED,
        EventKind.CLAIM_LOST,
        EventKind.CLAIM_HELD,
    }
)
"""Events of a safeguard against a concurrent worker turning one away."""


def marker_of(event: Event) -> Marker:
    """Business effects first (the ledger changed), then crashes, timeouts, lookups, pauses and
    refusals by a safeguard."""
    if event.is_business_effect:
        return Marker.BUSINESS_EFFECT
    if event.kind in {EventKind.PROCESS_CRASHED, EventKind.RECEIVER_CRASHED}:
        return Marker.CRASH
    if event.kind is EventKind.TIMEOUT_OBSERVED:
        return Marker.TIMEOUT
    if event.kind in LOOKUP_KINDS:
        return Marker.LOOKUP
    if event.kind is EventKind.WORKER_PAUSED:
        return Marker.PAUSE
    if event.kind in REFUSALS:
        return Marker.REFUSED
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
    lane_name: str
    worker: int | None


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
            lane_name=lane_name(e),
            worker=e.worker,
        )
        for e in result.events
    ]


def narrate(result: LabResult, step: int) -> str:
    """One sentence for one step of a trace: where we are, who acts, and what happens."""
    shown = clamp_step(result, step)
    event = result.events[shown - 1]
    return (
        f"Step {shown} of {len(result.events)}, delivery attempt {event.attempt}, "
        f"{event.actor.value}: {event.description}"
    )


def describe_timeline(result: LabResult) -> str:
    """A chart's text alternative in one sentence, for screen readers and static pages: the
    runtime, the fault, the events, the deliveries and the effects, and the steps of the
    effects, crashes and timeouts. Every event is in the chart's table (``tables``)."""
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
    return (
        f"Timeline of the {result.mode.value} runtime under {result.subject}: "
        f"{counted(len(result.events), 'event')} over {counted(c.attempts, 'delivery attempt')}, "
        f"{counted(c.effects, 'business effect')}" + (f" ({notes})" if notes else "") + "."
    )


def markers_present(result: LabResult) -> list[str]:
    """The markers a run's timeline uses, in ``Marker`` order (its legend lists these)."""
    used = {marker_of(e) for e in result.events}
    return [m.value for m in Marker if m in used]
