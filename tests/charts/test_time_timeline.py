"""The timeline against time: exact times from the clock, records' retention as bands, and
events that never hide each other."""

import json
from pathlib import Path

import altair
import jsonschema
import pytest

from asyncfail import Actor, Fault, Mode, Scenario, simulate
from asyncfail.charts.bands import (
    BAND_HEIGHT,
    band_kinds_present,
    bands,
    delivery_marks,
    expiries,
    record_spans,
    time_end,
)
from asyncfail.charts.instants import instant_markers, instant_rows, step_list
from asyncfail.charts.lanes import LANES
from asyncfail.charts.specs import time_timeline_spec
from asyncfail.charts.timeline import timeline_rows
from asyncfail.lab.faults import parse_plan
from asyncfail.lab.settings import LabSettings

VEGA_LITE_SCHEMA = json.loads(
    (
        Path(altair.__file__).parent / "vegalite" / "v6" / "schema" / "vega-lite-schema.json"
    ).read_text(encoding="utf-8")
)


@pytest.mark.parametrize(
    ("knobs", "texts"),
    [
        ({"schedule": "temporal"}, ["delivery 1 at 0 s", "delivery 2 at 1 s"]),
        ({"schedule": "restate"}, ["delivery 1 at 0 s", "delivery 2 at 0.05 s"]),
        ({"redelivery_delay": "0.25"}, ["delivery 1 at 0 s", "delivery 2 at 0.25 s"]),
        ({"redelivery_delay": "172800"}, ["delivery 1 at 0 s", "delivery 2 at 2 d"]),
    ],
)
def test_every_event_sits_at_its_deliverys_time(knobs: dict[str, str], texts: list[str]) -> None:
    settings = LabSettings.model_validate(knobs)
    result = simulate(Scenario(fault=Fault.CRASH_AFTER_EFFECT, settings=settings))
    marks = delivery_marks(result)
    assert [m["text"] for m in marks] == texts
    for row in timeline_rows(result):
        assert row["at_seconds"] == marks[row["attempt"] - 1]["at_seconds"]


def test_a_record_that_expires_is_a_band_that_ends_before_the_next_delivery() -> None:
    result = simulate(
        Scenario(
            fault=Fault.CRASH_AFTER_EFFECT,
            settings=LabSettings(retention="30", redelivery_delay="60"),
        )
    )
    spans = record_spans(result)
    assert [(s["from_seconds"], s["to_seconds"]) for s in spans] == [(0.0, 30.0), (60.0, 90.0)]
    assert "until just before 30 s" in spans[0]["text"]
    lenient = LabSettings(retention="30", redelivery_delay="60", boundary="retained-at-boundary")
    again = simulate(Scenario(fault=Fault.CRASH_AFTER_EFFECT, settings=lenient))
    assert "up to and including 30 s" in record_spans(again)[0]["text"]


def test_a_record_kept_longer_than_the_run_spans_to_its_end() -> None:
    result = simulate(Scenario(fault=Fault.CRASH_AFTER_EFFECT))
    (span,) = record_spans(result)
    assert span["to_seconds"] is None and span["text"].endswith("until the end of the run")


def test_the_axis_ends_past_the_last_event() -> None:
    result = simulate(
        Scenario(
            fault=Fault.CRASH_AFTER_EFFECT,
            settings=LabSettings(retention="30", redelivery_delay="60"),
        )
    )
    assert time_end(result).millis == 75_000
    assert time_end(simulate(Scenario(fault=Fault.NONE))).millis == 1000


def test_the_spec_is_valid_vega_lite_and_reads_in_a_human_unit() -> None:
    result = simulate(
        Scenario(
            fault=Fault.CRASH_AFTER_EFFECT,
            settings=LabSettings(retention="10800", redelivery_delay="14400"),
        )
    )
    spec = time_timeline_spec(result, step=3)
    jsonschema.validate(spec, VEGA_LITE_SCHEMA)
    params = {p["name"]: p["value"] for p in spec["params"]}
    assert params["unit_name"] == "h" and params["unit"] == 3600 and params["x_max"] == 5.0
    assert spec["description"].endswith(
        "2 idempotency records, counting until just before 3 h and until just before 7 h."
    )
    states = [r["state"] for r in spec["datasets"]["events"]]
    assert states.count("current") == 1 and states[3:] == ["future"] * (len(states) - 3)


def test_events_of_one_lane_and_instant_are_one_mark_labelled_with_their_steps() -> None:
    result = simulate(
        Scenario(
            fault=Fault.CRASH_AFTER_EFFECT,
            settings=LabSettings(retention="60", redelivery_delay="60"),
        )
    )
    rows = instant_rows(result)
    # Derived by hand from the trace: 1 store, 2 receiver, 3 worker at 0 s; at 1 min the
    # worker replays (4) and calls again (7), the receiver expires the record (5), finds
    # nothing (6) and debits again (8), the store records the result (9).
    assert [(r["lane_name"], r["at_text"], r["steps"], r["marker"]) for r in rows] == [
        ("store", "0 s", "1", "delivery fact"),
        ("receiver", "0 s", "2", "business effect"),
        ("worker", "0 s", "3", "crash"),
        ("worker", "1 min", "4, 7", "delivery fact"),
        ("receiver", "1 min", "5, 6, 8", "business effect"),
        ("store", "1 min", "9", "delivery fact"),
    ]
    assert [r["state"] for r in instant_rows(result, step=5)] == [
        "past", "past", "past", "past", "current", "future"
    ]  # fmt: skip
    # The legend lists what is drawn: the lookup at 1 min is drawn as the debit beside it.
    assert instant_markers(rows) == ["business effect", "crash", "delivery fact"]


@pytest.mark.parametrize(
    ("seqs", "text"),
    [([4], "4"), ([1, 3], "1, 3"), ([1, 2], "1, 2"), ([1, 2, 3], "1-3"), ([1, 2, 3, 5], "1-3, 5")],
)
def test_step_lists_read_as_ranges(seqs: list[int], text: str) -> None:
    assert step_list(seqs) == text


@pytest.mark.parametrize("fault", list(Fault))
@pytest.mark.parametrize("mode", list(Mode))
def test_every_event_is_in_exactly_one_instant(fault: Fault, mode: Mode) -> None:
    result = simulate(Scenario(fault=fault, mode=mode, deliveries=4))
    rows = instant_rows(result)
    assert len({(r["lane_name"], r["at_seconds"]) for r in rows}) == len(rows)
    kinds = [k for r in rows for k in r["kinds"].split(", ")]
    assert sorted(kinds) == sorted(e.kind.value for e in result.events)


def test_an_expiry_breaks_the_record_band_where_the_next_record_starts() -> None:
    result = simulate(
        Scenario(
            fault=Fault.CRASH_AFTER_EFFECT,
            settings=LabSettings(retention="60", redelivery_delay="60"),
        )
    )
    spans = record_spans(result)
    # The second record is written at the instant the first expires: one band would hide it.
    assert spans[0]["to_seconds"] == spans[1]["from_seconds"] == 60.0
    receiver = LANES.index(Actor.RECEIVER)
    assert expiries(result) == [
        {
            "at_seconds": 60.0,
            "y0": receiver - BAND_HEIGHT,
            "y1": receiver + BAND_HEIGHT,
            "text": "record for debit:tenant-a:order-42 expires at 1 min",
        }
    ]  # the second expires at 2 min, past the axis's end (75 s): no break is drawn there
    spec = time_timeline_spec(result)
    assert spec["datasets"]["expiries"] == expiries(result)
    assert any(layer.get("data") == {"name": "expiries"} for layer in spec["layer"])
    assert expiries(simulate(Scenario(fault=Fault.CRASH_AFTER_EFFECT))) == []


def test_legends_list_only_what_the_chart_draws() -> None:
    naive = simulate(Scenario(fault=Fault.CRASH_AFTER_EFFECT, mode=Mode.NAIVE))
    spec = time_timeline_spec(naive)
    params = {p["name"]: p["value"] for p in spec["params"]}
    assert params["bands_present"] == [] and params["present"] == [
        "business effect", "crash", "delivery fact"
    ]  # fmt: skip
    # No band layer at all, so no band legend (an empty one would still be laid out).
    assert not any(layer.get("data") == {"name": "bands"} for layer in spec["layer"])
    durable = time_timeline_spec(simulate(Scenario(fault=Fault.CRASH_AFTER_EFFECT)))
    assert {p["name"]: p["value"] for p in durable["params"]}["bands_present"] == [
        "record retained"
    ]
    workers = simulate(
        Scenario(plan=parse_plan("1:pause-after-effect"), settings=LabSettings(workers=2))
    )
    present = {p["name"]: p["value"] for p in time_timeline_spec(workers)["params"]}
    assert present["bands_present"] == band_kinds_present(bands(workers))
    assert set(present["bands_present"]) == {"record retained", "lease held", "paused"}
