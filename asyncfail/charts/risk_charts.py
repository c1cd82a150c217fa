"""The risk lesson's charts as plain data: the duplicate risk against retention, and the replay
delays against the retention line. Drawn from numbers the caller passes (the risk wing sits
beside this one, so it is not imported here)."""

import math
from collections.abc import Sequence
from typing import Final, TypedDict

from asyncfail.ground.durations import Duration, approx, human
from asyncfail.ground.prose import chance, counted, percent

AXIS_TICKS: Final[tuple[int, ...]] = (1, 60, 3600, 86_400, 2_592_000)
"""Where the time axes tick, in seconds: 1 s, 1 min, 1 h, 1 d, 30 d."""

RISK_FLOOR: Final = 1e-6
"""The lowest risk the log axis shows; a risk of zero is drawn there, and said in words."""


class CurveRow(TypedDict):
    """The duplicate risk at one retention."""

    retention_s: float
    retention_text: str
    p: float
    low: float
    high: float
    text: str


class Mark(TypedDict):
    """A real system's default retention, or the chosen one."""

    retention_s: float
    label: str
    text: str


class Bin(TypedDict):
    """How many replay delays fell in one log-spaced bin."""

    from_s: float
    to_s: float
    count: int
    text: str


def curve_rows(points: Sequence[tuple[int, float, float, float]]) -> list[CurveRow]:
    """(retention ms, probability, low, high) as chart rows, risks floored at ``RISK_FLOOR``
    so the log axis can draw a zero."""
    rows = []
    for millis, p, low, high in points:
        text = approx(Duration(millis))
        rows.append(
            CurveRow(
                retention_s=millis / 1000,
                retention_text=text,
                p=max(p, RISK_FLOOR),
                low=max(low, RISK_FLOOR),
                high=max(high, RISK_FLOOR),
                text=f"records kept {text}: duplicate risk {chance(p)}, 95 % interval "
                f"{percent(low)} to {percent(high)}",
            )
        )
    return rows


def marks(defaults: Sequence[tuple[str, int]]) -> list[Mark]:
    """Real systems' default retentions (name, ms) as rules on the axis; systems with the same
    default share one rule and one label (``Stripe, Restate``)."""
    names: dict[int, list[str]] = {}
    for name, millis in defaults:
        names.setdefault(millis, []).append(name)
    return [
        Mark(
            retention_s=millis / 1000,
            label=", ".join(group),
            text=f"{', '.join(group)}: {human(Duration(millis))} by default",
        )
        for millis, group in names.items()
    ]


def _millis(seconds: float) -> Duration:
    return Duration(round(seconds * 1000))


BINS: Final = 36
"""How many log-spaced bins the replay histogram has, from 1 s to 30 days."""


def histogram(delays_ms: Sequence[int]) -> list[Bin]:
    """Replay delays counted in ``BINS`` log-spaced bins from 1 s to 30 days (shorter ones in
    the first, none are longer)."""
    low, high = 1.0, 2_592_000.0
    ratio = (high / low) ** (1 / BINS)
    edges = [low * ratio**i for i in range(BINS + 1)]
    counts = [0] * BINS
    for ms in delays_ms:
        seconds = max(ms / 1000, low)
        index = min(BINS - 1, int(math.log(seconds / low) / math.log(ratio)))
        counts[index] += 1
    return [
        Bin(
            from_s=edges[i],
            to_s=edges[i + 1],
            count=counts[i],
            text=f"{counted(counts[i], 'replay')} between {approx(_millis(edges[i]))} and "
            f"{approx(_millis(edges[i + 1]))}",
        )
        for i in range(BINS)
    ]
