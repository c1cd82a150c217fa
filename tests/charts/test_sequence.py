"""The sequence view's rows: messages between lanes derived from the trace, checked against
hand-derived diagrams of the seed's runs (its drawing: test_sequence_drawing.py)."""

import pytest

from asyncfail import Fault, Mode, Scenario, simulate
from asyncfail.charts.sequence import (
    DELIVERY,
    HOPS,
    SEQUENCE_COLUMNS,
    describe_sequence,
    sequence_rows,
    sequence_table,
)
from asyncfail.charts.timeline import Marker
from asyncfail.lab.events import EventKind
from asyncfail.lab.faults import FaultPoint, parse_plan
from asyncfail.lab.settings import LabSettings

# (step, from, to, message, fate): drawn by hand from the seed's traces (docs/seed and
# `asyncfail lab --format text`), not from the code.
D1 = (None, "channel", "worker", "delivery 1, at 0 s", "delivered")
D2 = (None, "channel", "worker", "delivery 2, at 30 s", "delivered")
EXPECTED = {
    (Fault.CRASH_AFTER_EFFECT, Mode.NAIVE): [
        D1,
        (1, "worker", "receiver", "debit request", "delivered"),
        (2, "receiver", "worker", "debited; reply", "delivered"),
        (3, "worker", "worker", "worker crashes", "local"),
        D2,
        (4, "worker", "receiver", "debit request again", "delivered"),
        (5, "receiver", "worker", "debited again; reply", "delivered"),
    ],
    (Fault.CRASH_AFTER_EFFECT, Mode.DURABLE): [
        D1,
        (1, "worker", "store", "record intent", "delivered"),
        (1, "worker", "receiver", "debit request", "delivered"),
        (2, "receiver", "worker", "debited; reply", "delivered"),
        (3, "worker", "worker", "worker crashes", "local"),
        D2,
        (4, "worker", "worker", "replays its run", "local"),
        (5, "worker", "receiver", "lookup by key", "delivered"),
        (5, "receiver", "worker", "found: already debited", "delivered"),
        (6, "worker", "store", "record result", "delivered"),
    ],
    (Fault.RESPONSE_LOST, Mode.NAIVE): [
        D1,
        (1, "worker", "receiver", "debit request", "delivered"),
        (2, "receiver", "worker", "debited; reply", "lost"),
        (3, "worker", "worker", "times out", "local"),
        (4, "worker", "receiver", "debit request again", "delivered"),
        (5, "receiver", "worker", "debited again; reply", "delivered"),
    ],
    (Fault.RESPONSE_LOST, Mode.DURABLE): [
        D1,
        (1, "worker", "store", "record intent", "delivered"),
        (1, "worker", "receiver", "debit request", "delivered"),
        (2, "receiver", "worker", "debited; reply", "lost"),
        (3, "worker", "worker", "times out", "local"),
        (4, "worker", "receiver", "lookup by key", "delivered"),
        (4, "receiver", "worker", "found: already debited", "delivered"),
        (5, "worker", "store", "record result", "delivered"),
    ],
    (Fault.REQUEST_LOST, Mode.NAIVE): [
        D1,
        (1, "worker", "receiver", "debit request", "lost"),
        (2, "worker", "worker", "times out", "local"),
        (3, "worker", "receiver", "debit request again", "delivered"),
        (4, "receiver", "worker", "debited; reply", "delivered"),
    ],
}


def drawn(fault: Fault, mode: Mode) -> list[tuple[object, ...]]:
    rows = sequence_rows(simulate(Scenario(fault=fault, mode=mode)))
    return [(r["step"], r["sender"], r["recipient"], r["message"], r["fate"]) for r in rows]


@pytest.mark.parametrize(("fault", "mode"), list(EXPECTED))
def test_the_seeds_runs_draw_as_derived_by_hand(fault: Fault, mode: Mode) -> None:
    assert drawn(fault, mode) == EXPECTED[fault, mode]


def test_every_event_kind_has_a_drawing() -> None:
    assert set(HOPS) == set(EventKind)


def test_a_lost_message_stops_halfway_and_a_delivered_one_reaches_its_lane() -> None:
    rows = sequence_rows(simulate(Scenario(fault=Fault.RESPONSE_LOST, mode=Mode.NAIVE)))
    reply = rows[2]
    assert (reply["from_x"], reply["to_x"], reply["head_x"], reply["label_x"]) == (3, 1, 2.0, 2.5)
    request = rows[1]
    assert (request["from_x"], request["head_x"], request["label_x"]) == (1, 3.0, 2.0)
    # The debit's marker sits on the receiver's lane, at the reply's tail.
    assert (reply["marker"], reply["point_x"]) == (Marker.BUSINESS_EFFECT.value, 3)


RUNS = [
    Scenario(plan=parse_plan("1:pause-after-effect"), mode=mode, settings=LabSettings(workers=2))
    for mode in Mode
] + [
    Scenario(fault=fault, mode=mode, deliveries=3, settings=settings)
    for fault in Fault
    for mode in Mode
    for settings in (
        LabSettings(),
        LabSettings(retention="30", receiver="dedupe"),
        LabSettings(lookup="outage", record="separate"),
        LabSettings(workers=2, pause="45", claim="lease", fencing="token"),
        LabSettings(workers=2, pause="45"),
    )
]


@pytest.mark.parametrize("scenario", RUNS, ids=lambda s: f"{s.fault}-{s.mode}")
def test_rows_follow_the_trace(scenario: Scenario) -> None:
    result = simulate(scenario)
    rows = sequence_rows(result)
    events = result.events
    assert [r["row"] for r in rows] == list(range(len(rows)))
    # Every event, in order, each with its marker once; a delivery row opens each attempt.
    stepped = [r for r in rows if r["step"] is not None]
    assert [r["step"] for r in stepped] == sorted(r["step"] for r in stepped)
    assert sorted({r["step"] for r in stepped}) == [e.seq for e in events]
    assert [r["marker"] for r in stepped if r["marker"]] == [m.value for m in map(_marker, events)]
    openers = [r["attempt"] for r in rows if r["kind"] == DELIVERY]
    assert openers == sorted({e.attempt for e in events})
    # A message is lost exactly where the next event of its delivery is a timeout at the
    # request (from the worker) or at the response (from the receiver), or where no answer
    # can come (a failed lookup, a failed journal write).
    for row in rows:
        if row["step"] is None or row["fate"] == "local":
            continue
        event = events[row["step"] - 1]
        after = next((e for e in events[event.seq :] if e.attempt == event.attempt), None)
        timed_out = after is not None and after.kind is EventKind.TIMEOUT_OBSERVED
        expected = (
            event.kind in {EventKind.OPERATION_LOOKUP_FAILED, EventKind.STORE_WRITE_FAILED}
            or (
                row["sender"].startswith("worker")
                and row["recipient"] == "receiver"
                and timed_out
                and after.point is FaultPoint.REQUEST
            )
            or (row["sender"] == "receiver" and timed_out and after.point is FaultPoint.RESPONSE)
        )
        assert (row["fate"] == "lost") == expected, row
        half = (row["from_x"] + row["to_x"]) / 2
        assert row["head_x"] == (half if expected else row["to_x"])


def _marker(event: object) -> Marker:
    from asyncfail.charts.timeline import marker_of
    from asyncfail.lab.events import Event

    assert isinstance(event, Event)
    return marker_of(event)


def test_two_workers_each_have_their_lane() -> None:
    plan = parse_plan("1:pause-after-effect")
    result = simulate(Scenario(plan=plan, mode=Mode.NAIVE, settings=LabSettings(workers=2)))
    rows = sequence_rows(result)
    assert {r["sender"] for r in rows} | {r["recipient"] for r in rows} == {
        "channel", "worker 1", "worker 2", "receiver"
    }  # fmt: skip
    # Each delivery goes to the worker that handles it: the second one, to worker 2.
    assert [r["recipient"] for r in rows if r["kind"] == DELIVERY] == ["worker 1", "worker 2"]


def test_the_text_alternative_is_one_sentence_and_the_table_has_every_arrow() -> None:
    result = simulate(Scenario(fault=Fault.RESPONSE_LOST, mode=Mode.NAIVE))
    assert describe_sequence(result) == (
        "Sequence diagram of the naive runtime under response-lost: 5 messages over 1 "
        "delivery (1 lost: debited; reply); 2 debits applied."
    )
    table = sequence_table(result)
    assert [tuple(row) for row in table] == [SEQUENCE_COLUMNS] * 6
    assert table[2] == {
        "step": 2,
        "from": "receiver",
        "to": "worker",
        "message": "debited; reply (lost)",
        "what happens": result.events[1].description,
    }
    assert table[3]["to"] == "" and table[0]["step"] == ""


def test_stepping_fades_what_comes_later_and_marks_the_shown_step() -> None:
    result = simulate(Scenario(fault=Fault.CRASH_AFTER_EFFECT, mode=Mode.DURABLE))
    # By hand, from EXPECTED: delivery 1, steps 1 (two rows), 2, 3, delivery 2, 4, 5, 5, 6.
    assert [r["state"] for r in sequence_rows(result, step=4)] == [
        "past", "past", "past", "past", "past", "past", "current", "future", "future", "future"
    ]  # fmt: skip
    # The delivery that opens with the shown step has happened; step 1 draws two arrows.
    assert [r["state"] for r in sequence_rows(result, step=1)][:4] == [
        "past", "current", "current", "future"
    ]  # fmt: skip
    assert {r["state"] for r in sequence_rows(result)} == {"past"}
    assert sequence_rows(result, step=99) == sequence_rows(result, step=6)
