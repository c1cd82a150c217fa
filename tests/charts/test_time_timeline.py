"""The timeline against time: exact times from the clock, records' retention as bands, and
events that never hide each other."""

import json
from pathlib import Path

import altair
import jsonschema
import pytest

from asyncfail import Fault, Mode, Scenario, simulate
from asyncfail.charts.bands import delivery_marks, record_spans, time_end
from asyncfail.charts.lanes import LANES, lane_positions
from asyncfail.charts.specs import time_timeline_spec
from asyncfail.charts.timeline import timeline_rows
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


@pytest.mark.parametrize("fault", list(Fault))
@pytest.mark.parametrize("mode", list(Mode))
def test_no_two_events_share_a_place_and_each_stays_in_its_lane(fault: Fault, mode: Mode) -> None:
    result = simulate(
        Scenario(fault=fault, mode=mode, deliveries=4, settings=LabSettings(record="separate"))
    )
    places = list(zip((e.at for e in result.events), lane_positions(result), strict=True))
    assert len(set(places)) == len(places)
    for event, (_, y) in zip(result.events, places, strict=True):
        assert abs(y - LANES.index(event.actor)) < 0.5
    # Within one lane and instant, earlier steps sit higher (smaller y: the axis is reversed).
    for a, b in zip(result.events, result.events[1:], strict=False):
        if (a.actor, a.at) == (b.actor, b.at):
            assert places[a.seq - 1][1] < places[b.seq - 1][1]


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
    assert "counts until just before 3 h" in spec["description"]
    states = [r["state"] for r in spec["datasets"]["events"]]
    assert states.count("current") == 1 and states[3:] == ["future"] * (len(states) - 3)
