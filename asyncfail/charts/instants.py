"""The events of a timeline against time, one mark per lane and instant.

Steps within one delivery take no time, so several events of one lane often share an instant.
The view over time is about clocks, leases and retention (the order of the steps is the
sequence view's, ``charts.sequence``): it draws each such group as one mark at its exact time,
labelled with its steps, rather than a column of numbered dots.
"""

from typing import TypedDict

from asyncfail.charts.lanes import lane_name, lanes_of
from asyncfail.charts.timeline import Marker, StepState, clamp_step, marker_of, state_of
from asyncfail.ground.durations import human
from asyncfail.lab.events import Event
from asyncfail.lab.results import LabResult


class InstantRow(TypedDict):
    """The events of one lane at one instant, as one mark."""

    runtime: str
    lane_y: int
    lane_name: str
    at_seconds: int | float
    at_text: str
    attempt: int
    marker: str
    state: StepState
    steps: str
    kinds: str
    description: str


def step_list(seqs: list[int]) -> str:
    """Step numbers as a label: ``4``, ``1, 3``, and a run of three or more as a range ``1-3``
    (``1-3, 5``)."""
    parts: list[str] = []
    start = prev = seqs[0]
    for seq in [*seqs[1:], None]:
        if seq is not None and seq == prev + 1:
            prev = seq
            continue
        if prev - start >= 2:
            parts.append(f"{start}-{prev}")
        else:
            parts.extend(str(n) for n in range(start, prev + 1))
        if seq is not None:
            start = prev = seq
    return ", ".join(parts)


def _group_state(seqs: list[int], shown: int | None) -> StepState:
    """A group is current when it holds the shown step, future when all of it comes later."""
    states = {state_of(seq, shown) for seq in seqs}
    if "current" in states:
        return "current"
    return "future" if states == {"future"} else "past"


def instant_rows(result: LabResult, step: int | None = None) -> list[InstantRow]:
    """One row per lane and instant, in order of its first step. Its marker is the group's
    first in ``Marker`` order (a business effect outranks a crash, a crash a timeout...), its
    label the group's steps, its tooltip every event of the group."""
    shown = None if step is None else clamp_step(result, step)
    lanes = lanes_of(result)
    groups: dict[tuple[str, int], list[Event]] = {}
    for event in result.events:
        groups.setdefault((lane_name(event), event.at.millis), []).append(event)
    order = list(Marker)
    rows = []
    for (lane, _), events in groups.items():
        seqs = [e.seq for e in events]
        first = events[0]
        rows.append(
            InstantRow(
                runtime=result.mode.value,
                lane_y=lanes.index(lane),
                lane_name=lane,
                at_seconds=first.at.json_number,
                at_text=human(first.at),
                attempt=first.attempt,
                marker=min((marker_of(e) for e in events), key=order.index).value,
                state=_group_state(seqs, shown),
                steps=step_list(seqs),
                kinds=", ".join(e.kind.value for e in events),
                description=" ".join(f"({e.seq}) {e.description}" for e in events),
            )
        )
    return rows


def instant_markers(rows: list[InstantRow]) -> list[str]:
    """The markers the rows draw, in ``Marker`` order: the legend of the view over time lists
    these (a lookup that shares its instant with a debit is drawn as the debit)."""
    used = {row["marker"] for row in rows}
    return [m.value for m in Marker if m.value in used]
