"""Timeline rows, narration, chart specs, predictions and the check question."""

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from asyncfail import Actor, Fault, Mode, Scenario, simulate
from asyncfail.charts.builders import timeline_chart
from asyncfail.charts.specs import VegaLite, timeline_spec
from asyncfail.charts.tables import timeline_table
from asyncfail.charts.timeline import LANES, Marker, describe_timeline, narrate, timeline_rows
from asyncfail.course.prediction import check_predictions
from asyncfail.ground.quiz import Question
from asyncfail.lab.scenario import command_line

SEED_NAIVE = simulate(Scenario(fault=Fault.CRASH_AFTER_EFFECT, mode=Mode.NAIVE))
SEED_DURABLE = simulate(Scenario(fault=Fault.CRASH_AFTER_EFFECT, mode=Mode.DURABLE))
scenarios = st.builds(
    Scenario, fault=st.sampled_from(list(Fault)), mode=st.sampled_from(list(Mode))
)


def test_rows_mark_business_effects_and_crashes_distinctly() -> None:
    rows = timeline_rows(SEED_NAIVE)
    assert [r["marker"] for r in rows] == [
        Marker.DELIVERY_FACT, Marker.BUSINESS_EFFECT, Marker.CRASH,
        Marker.DELIVERY_FACT, Marker.BUSINESS_EFFECT,
    ]  # fmt: skip
    assert [r["lane"] for r in rows] == [1, 3, 1, 1, 3]
    # Every actor has exactly one lane.
    assert sorted(LANES) == sorted(Actor)


@given(scenarios, st.integers(-3, 12))
def test_step_state_has_exactly_one_current_event(scenario: Scenario, step: int) -> None:
    result = simulate(scenario)
    states = [r["state"] for r in timeline_rows(result, step)]
    current = states.index("current")
    assert states.count("current") == 1
    assert set(states[:current]) <= {"past"} and set(states[current + 1 :]) <= {"future"}
    assert current + 1 == max(1, min(step, len(result.events)))


def test_no_step_shows_the_whole_trace_and_highlights_nothing() -> None:
    # Without a step slider no event is "current", so none is drawn enlarged.
    states = [r["state"] for r in timeline_rows(SEED_DURABLE)]
    assert states == ["past"] * 6


def test_narration_names_step_attempt_actor_and_fact() -> None:
    assert narrate(SEED_DURABLE, 5) == (
        "Step 5 of 6, delivery attempt 2, receiver: A lookup by operation key finds the debit "
        "already applied, so no new call is made."
    )
    assert narrate(SEED_DURABLE, 99).startswith("Step 6 of 6")


def test_text_description_is_one_sentence_and_the_table_lists_the_events() -> None:
    # Short, so it does not fill the page: every event is in the chart's table instead.
    assert describe_timeline(SEED_NAIVE) == (
        "Timeline of the naive runtime under crash-after-effect: 5 events over 2 delivery "
        "attempts, 2 business effects (business effect at steps 2, 5; crash at step 3)."
    )
    assert timeline_table(SEED_NAIVE)[3] == {
        "step": 4,
        "attempt": 2,
        "actor": "worker",
        "event": "ToolCalledAgain",
        "layer": "delivery",
        "what happens": SEED_NAIVE.events[3].description,
    }


@given(scenarios, st.integers(1, 8), st.integers(200, 900))
def test_spec_equals_the_altair_chart(scenario: Scenario, step: int, width: int) -> None:
    result = simulate(scenario)
    chart = timeline_chart(result, step, width).to_dict()
    spec = timeline_spec(result, step, width)
    rows = spec.pop("datasets")["events"]
    assert rows == timeline_rows(result, step)
    assert spec.pop("description") == describe_timeline(result)
    for layer in spec["layer"]:
        assert layer.pop("data", None) in ({"name": "events"}, None)
    inline = chart.pop("data", None) or chart["layer"][0]["data"]
    for layer in chart["layer"]:
        layer.pop("data", None)
    spec.pop("data", None)
    assert chart == spec
    assert inline is not None


def test_chart_encodes_lanes_tooltips_and_fixed_marker_scale() -> None:
    spec = timeline_chart(SEED_NAIVE).to_dict()
    points = spec["layer"][0]["encoding"]
    assert points["y"]["scale"]["domain"] == ["channel", "worker", "store", "receiver"]
    assert points["color"]["scale"]["domain"] == [m.value for m in Marker]
    assert {t["field"] for t in points["tooltip"]} == {
        "seq", "attempt", "at_text", "lane_name", "kind", "layer", "description"
    }  # fmt: skip
    assert points["x"]["title"] == "Event sequence"


def test_vegalite_mime_matches_the_spec_schema_version() -> None:
    mime, body = VegaLite(timeline_spec(SEED_DURABLE))._mime_()
    assert mime == "application/vnd.vegalite.v6+json"
    assert '"datasets"' in body


def test_a_shown_chart_leaves_its_tooltips_to_the_browser_and_is_otherwise_its_spec() -> None:
    spec = timeline_spec(SEED_DURABLE) | {"usermeta": {"lesson": "01"}}
    before = json.dumps(spec)
    shown = json.loads(VegaLite(spec)._mime_()[1])
    # vega-embed reads its options from here; tooltip false leaves Vega's own (the title).
    assert shown.pop("usermeta") == {"lesson": "01", "embedOptions": {"tooltip": False}}
    assert shown == {key: value for key, value in spec.items() if key != "usermeta"}
    assert json.dumps(spec) == before, "the spec handed in is not changed"


def test_predictions_are_judged_per_runtime() -> None:
    results = {Mode.NAIVE: SEED_NAIVE, Mode.DURABLE: SEED_DURABLE}
    naive, durable = check_predictions({Mode.NAIVE: 3, Mode.DURABLE: 1}, results)
    assert (naive.correct, durable.correct) == (False, True)
    assert naive.message == (
        "naive: you guessed 3; the model applied 2 business effects (fewer than you expected)."
    )
    assert durable.message == "durable: right, 1 business effect."


def test_question_feedback_and_validation() -> None:
    question = Question(prompt="?", options=("a", "b"), answer="b", explanation="Because.")
    assert question.feedback(None) == ""
    assert question.feedback("b").startswith("Right.")
    assert question.feedback("a").startswith("Not quite.")
    with pytest.raises(ValueError, match="answer must be one of the options"):
        Question(prompt="?", options=("a",), answer="b", explanation="")


def test_command_line_round_trips_through_the_cli_defaults() -> None:
    assert command_line(Scenario(fault=Fault.NONE, mode=Mode.NAIVE)) == (
        "asyncfail lab --fault none --mode naive"
    )
    assert command_line(Scenario(deliveries=1)).endswith("--deliveries 1")


def test_chart_templates_are_regenerated_from_the_altair_builders() -> None:
    from tests.golden.regenerate import CHART_TEMPLATES, chart_templates_source

    assert CHART_TEMPLATES.read_text(encoding="utf-8") == chart_templates_source(), (
        "asyncfail/charts/templates.json is stale: run `make golden`"
    )


def test_lessons_chart_path_does_not_import_altair() -> None:
    import subprocess
    import sys

    code = (
        "import sys, asyncfail.charts.specs, asyncfail.charts.heatmap, asyncfail.charts.timeline;"
        "print(sorted(m for m in ('altair', 'pandas', 'numpy') if m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"
