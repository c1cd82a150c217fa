"""What a timeline against time draws besides its events: where its axis ends, a rule per
delivery, and bands for how long things last (a record retained, a lease held, a worker
paused), all read from the trace and the run's settings.
"""

from enum import StrEnum
from typing import Final, TypedDict

from asyncfail.charts.lanes import lane_name, lanes_of
from asyncfail.ground.durations import Duration, human
from asyncfail.ground.prose import capitalised, counted, joined
from asyncfail.ground.retention import counts_until
from asyncfail.lab.events import Actor, EventKind
from asyncfail.lab.reading import record_writes
from asyncfail.lab.results import LabResult


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


def _record_windows(result: LabResult) -> list[tuple[str, Duration, Duration | None, str]]:
    """Each idempotency record the trace wrote (``record_writes``): its key, when it was
    written, when its retention runs out (None: never), and the sentence that says so."""
    retention, boundary = result.settings.retention, result.settings.boundary
    windows = []
    for write in record_writes(result.events):
        assert write.key is not None  # record_writes holds keyed debits only
        start = write.at
        end = None if retention is None else start + retention
        until = "until the end of the run" if end is None else counts_until(end, boundary)
        text = f"record for {write.key}, written at {human(start)}, counts {until}"
        windows.append((write.key, start, end, text))
    return windows


def record_spans(result: LabResult) -> list[RecordSpan]:
    """The receiver's records over time, from the trace and the run's retention: each counts
    from its write until its retention runs out."""
    return [
        RecordSpan(
            key=key,
            from_seconds=float(start.seconds),
            to_seconds=None if end is None else float(end.seconds),
            text=text,
        )
        for key, start, end, text in _record_windows(result)
    ]


class BandKind(StrEnum):
    """What a band on a lane stands for."""

    RETENTION = "record retained"
    LEASE = "lease held"
    PAUSE = "paused"


BAND_HEIGHT: Final = 0.45
"""How far a band reaches above and below its lane's centre, in lanes. A record's band fills
its lane; on a worker's lane a lease takes the upper half and a pause the lower, so both show
when they overlap."""

_HALVES: Final[dict[str, tuple[float, float]]] = {
    "retention": (-BAND_HEIGHT, BAND_HEIGHT),
    "lease": (-BAND_HEIGHT, 0.0),
    "pause": (0.0, BAND_HEIGHT),
}


class Band(TypedDict):
    """A stretch of time on one lane."""

    kind: str
    y0: float
    y1: float
    from_seconds: float
    to_seconds: float | None
    text: str


def _band(kind: BandKind, lane: int, start: Duration, end: Duration | None, text: str) -> Band:
    low, high = _HALVES[kind.name.lower()]
    return Band(
        kind=kind.value,
        y0=lane + low,
        y1=lane + high,
        from_seconds=float(start.seconds),
        to_seconds=None if end is None else float(end.seconds),
        text=text,
    )


def lease_bands(result: LabResult) -> list[Band]:
    """With two workers, each delivery's lease on its worker's lane: from the delivery's start
    for one ``lease`` (it held while now < start + lease)."""
    lanes, lease = lanes_of(result), result.settings.lease
    starts: dict[int, tuple[Duration, str]] = {}
    for e in result.events:
        if e.worker is not None and e.attempt not in starts:
            starts[e.attempt] = (e.at, f"worker {e.worker}")
    return [
        _band(
            BandKind.LEASE,
            lanes.index(lane),
            start,
            start + lease,
            f"delivery {attempt} to {lane}: its lease holds from {human(start)} until just "
            f"before {human(start + lease)}",
        )
        for attempt, (start, lane) in starts.items()
    ]


def pause_bands(result: LabResult) -> list[Band]:
    """Each pause on its worker's lane, from ``WorkerPaused`` to the same worker's
    ``WorkerResumed``."""
    lanes = lanes_of(result)
    open_: dict[str, Duration] = {}
    found = []
    for e in result.events:
        lane = lane_name(e) if e.actor is Actor.WORKER else ""
        if e.kind is EventKind.WORKER_PAUSED:
            open_[lane] = e.at
        elif e.kind is EventKind.WORKER_RESUMED and lane in open_:
            start = open_.pop(lane)
            text = f"{lane} paused from {human(start)} to {human(e.at)}"
            found.append(_band(BandKind.PAUSE, lanes.index(lane), start, e.at, text))
    return found


def bands(result: LabResult) -> list[Band]:
    """Every band of a run's timeline against time: records, then leases, then pauses."""
    receiver = lanes_of(result).index(Actor.RECEIVER.value)
    records = [
        _band(BandKind.RETENTION, receiver, start, end, text)
        for _, start, end, text in _record_windows(result)
    ]
    return records + lease_bands(result) + pause_bands(result)


def band_kinds_present(drawn: list[Band]) -> list[str]:
    """The kinds of band a chart draws, in ``BandKind`` order: its legend lists these and no
    other (a naive run's chart, which holds no lease or pause, does not name them)."""
    used = {b["kind"] for b in drawn}
    return [k.value for k in BandKind if k.value in used]


class Expiry(TypedDict):
    """The instant a record stops counting, drawn as a break across its band."""

    at_seconds: float
    y0: float
    y1: float
    text: str


def expiries(result: LabResult) -> list[Expiry]:
    """Where each record's retention runs out inside the run's axis: a visible break in the
    receiver's lane, so a record written at the instant the previous one expires reads as a
    second record, not as one band across both (the first counts until just before that
    instant, under the default boundary convention)."""
    receiver = lanes_of(result).index(Actor.RECEIVER.value)
    end = time_end(result)
    return [
        Expiry(
            at_seconds=float(expiry.seconds),
            y0=receiver - BAND_HEIGHT,
            y1=receiver + BAND_HEIGHT,
            text=f"record for {key} expires at {human(expiry)}",
        )
        for key, _, expiry, _ in _record_windows(result)
        if expiry is not None and expiry <= end
    ]


def describe_records(result: LabResult) -> str:
    """One short sentence on the receiver's records for a chart's text alternative: how many,
    and until when each counts (``record_spans`` says more); empty when the run wrote none."""
    windows = _record_windows(result)
    if not windows:
        return ""
    boundary = result.settings.boundary
    ends = [
        "until the end of the run" if end is None else counts_until(end, boundary)
        for _, _, end, _ in windows
    ]
    return f"{capitalised(counted(len(windows), 'idempotency record'))}, counting {joined(ends)}."
