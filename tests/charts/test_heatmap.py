"""Heatmap cells, axes and chart specs for the retention boundary."""

from itertools import pairwise

from hypothesis import given
from hypothesis import strategies as st

from asyncfail.charts.heatmap import describe_heatmap, heatmap_cells, overview_axis
from asyncfail.charts.look import FINDING_COLOURS
from asyncfail.charts.specs import retention_heatmap_spec
from asyncfail.contract.experiment import ContractScenario, evaluate
from asyncfail.contract.rules import Finding
from asyncfail.contract.sweep import sweep_around_boundary, sweep_retention
from asyncfail.ground.durations import MAX_SECONDS, Duration
from asyncfail.ground.retention import BoundaryConvention

millis = st.one_of(st.integers(0, MAX_SECONDS * 1000), st.sampled_from([0, MAX_SECONDS * 1000]))


@given(millis, millis)
def test_overview_axis_contains_the_inputs_and_starts_at_zero(retention: int, delay: int) -> None:
    scenario = ContractScenario(
        retention_seconds=Duration(retention), delay_seconds=Duration(delay)
    )
    axis = overview_axis(scenario)
    assert axis[0] == Duration(0) and len(axis) == 41
    assert axis[-1].millis >= min(max(2 * retention, 2 * delay, 10_000), MAX_SECONDS * 1000)
    assert axis[-1].seconds <= MAX_SECONDS
    assert len(sweep_retention(scenario, axis, axis)) == 41 * 41, "every axis value is accepted"
    steps = {b.millis - a.millis for a, b in pairwise(axis)}
    assert max(steps) - min(steps) <= 1, "even steps, to the millisecond"


def test_cells_tile_the_plane_and_agree_with_the_single_evaluator() -> None:
    scenario = ContractScenario(retention_seconds="7.5")
    sweep = sweep_around_boundary(scenario, radius_seconds=2)
    cells = heatmap_cells(sweep)
    assert len(cells) == len(sweep.retentions) * len(sweep.delays)
    for cell in cells:
        assert cell["retention_from"] < cell["retention_seconds"] < cell["retention_to"]
        assert cell["delay_from"] < cell["delay_seconds"] < cell["delay_to"]
        single = evaluate(
            scenario.model_copy(
                update={
                    "retention_seconds": Duration(round(cell["retention_seconds"] * 1000)),
                    "delay_seconds": Duration(round(cell["delay_seconds"] * 1000)),
                }
            )
        )
        assert (cell["record"], cell["finding"], cell["effects"]) == (
            single.record.value,
            single.finding.value,
            single.effects,
        )
    # Neighbouring cells share an edge: no gaps, no overlaps.
    retention_edges = sorted({(c["retention_from"], c["retention_to"]) for c in cells})
    for (_, high), (low, _) in pairwise(retention_edges):
        assert high == low


def test_zoom_diagonal_flips_with_the_boundary_convention() -> None:
    def diagonal(boundary: BoundaryConvention) -> set[str]:
        sweep = sweep_around_boundary(ContractScenario(boundary=boundary), radius_seconds=3)
        cells = heatmap_cells(sweep)
        return {c["finding"] for c in cells if c["retention_seconds"] == c["delay_seconds"]}

    assert diagonal(BoundaryConvention.EXPIRED_AT_BOUNDARY) == {
        Finding.APPLIED_TWICE_RECORD_EXPIRED.value
    }
    assert diagonal(BoundaryConvention.RETAINED_AT_BOUNDARY) == {Finding.SAME_INTENT_REUSED.value}


def test_spec_layers_boundary_current_point_and_colours() -> None:
    scenario = ContractScenario(retention_seconds=100, delay_seconds=30)
    axis = overview_axis(scenario)
    sweep = sweep_retention(scenario, axis, axis)
    spec = retention_heatmap_spec(sweep, "Overview")
    assert spec["datasets"]["cells"] == heatmap_cells(sweep)
    assert spec["datasets"]["current"][0]["retention_seconds"] == 100
    boundary = spec["datasets"]["boundary"]
    assert [(p["retention_seconds"], p["delay_seconds"]) for p in boundary] == [
        (boundary[0]["retention_seconds"],) * 2,
        (boundary[1]["retention_seconds"],) * 2,
    ]
    colour = spec["layer"][0]["encoding"]["color"]
    # The legend lists the findings present; each finding keeps its own colour in every chart.
    present = {p["name"]: p["value"] for p in spec["params"]}["present"]
    assert present == [
        "✓ " + Finding.SAME_INTENT_REUSED.value,
        "✗ " + Finding.APPLIED_TWICE_RECORD_EXPIRED.value,
    ]
    assert colour["legend"]["values"] == {"expr": "present"}
    assert colour["legend"]["labelLimit"] == 0, "legend labels are never cut"
    domain = [label.split(" ", 1)[1] for label in colour["scale"]["domain"]]
    assert colour["scale"]["range"] == [FINDING_COLOURS[Finding(f)] for f in domain]
    tooltip = {t["field"] for t in spec["layer"][0]["encoding"]["tooltip"]}
    assert tooltip >= {"finding_label", "record", "retention_text"}
    assert spec["description"] == describe_heatmap(sweep)
    # A line outside a zoomed grid must be clipped: unclipped, Vega sizes the canvas to reach it
    # (100,000 px for a delay of 60 s under a 3600 s zoom) and the chart fails to draw.
    boundary_layer, current_layer = spec["layer"][2], spec["layer"][3]
    assert boundary_layer["mark"].get("clip") is True
    assert current_layer["mark"].get("clip") is None, "the ring is never cut in half"
    assert set(FINDING_COLOURS) == {f.value for f in Finding}


def test_the_ring_is_whole_at_the_corner_and_absent_off_the_grid() -> None:
    corner = ContractScenario(retention_seconds=2_592_000, delay_seconds=2_592_000)
    axis = overview_axis(corner)
    spec = retention_heatmap_spec(sweep_retention(corner, axis, axis), "Overview")
    (ring,) = spec["datasets"]["current"]
    assert ring["retention_seconds"] == ring["delay_seconds"] == 2_592_000
    params = {p["name"]: p["value"] for p in spec["params"]}
    assert params["x_max"] * params["unit"] > 2_592_000, "the grid's edge lies past the ring"
    # A zoom around another retention holds no ring at all.
    off = ContractScenario(retention_seconds=3600, delay_seconds=60)
    zoom = retention_heatmap_spec(sweep_around_boundary(off, radius_seconds=5), "Zoom")
    assert zoom["datasets"]["current"] == []


def test_axes_read_in_a_human_unit_and_never_in_exponents() -> None:
    cases = ((5, 1, "s"), (30, 60, "min"), (3600, 60, "h"), (86_400, 60, "d"), (2_592_000, 60, "d"))
    for retention, delay, unit_name in cases:
        scenario = ContractScenario(retention_seconds=retention, delay_seconds=delay)
        axis = overview_axis(scenario)
        spec = retention_heatmap_spec(sweep_retention(scenario, axis, axis), "Overview")
        params = {p["name"]: p["value"] for p in spec["params"]}
        assert params["unit_name"] == unit_name, retention
        assert params["x_max"] < 1000, "labels stay short numbers of the unit"
    zoom = retention_heatmap_spec(sweep_around_boundary(ContractScenario(), 5), "Zoom")
    assert {p["name"]: p["value"] for p in zoom["params"]}["unit_name"] == "s"


def test_current_point_shows_its_own_finding_even_inside_a_straddling_cell() -> None:
    # 3500 s after a 3600 s retention is reused, but the overview's diagonal cell around
    # (3500, 3500) sits exactly on the boundary and is coloured "applied twice".
    scenario = ContractScenario(retention_seconds=3600, delay_seconds=3500)
    axis = overview_axis(scenario)
    spec = retention_heatmap_spec(sweep_retention(scenario, axis, axis), "Overview")
    (current,) = spec["datasets"]["current"]
    assert evaluate(scenario).finding is Finding.SAME_INTENT_REUSED
    assert current["finding_label"] == "✓ " + Finding.SAME_INTENT_REUSED.value
    assert current["colour"] == FINDING_COLOURS[Finding.SAME_INTENT_REUSED]
    assert spec["layer"][3]["encoding"]["fill"] == {
        "field": "colour",
        "scale": None,
        "type": "nominal",
    }


def test_description_counts_cells_per_finding() -> None:
    scenario = ContractScenario(retention_seconds=5)
    sweep = sweep_retention(scenario, [5], [4, 5, 6])
    assert describe_heatmap(sweep) == (
        "Heatmap of the finding over retention 5 s to 5 s and delay 4 s to 6 s (1 x 3 cells), "
        "with tenant-operation keys, the same-intent second request and the enforce policy: "
        "1 cell Same intent reused its retained result; 2 cells One intent applied twice because "
        "the record expired. The diagonal marks delay = retention, the exact boundary."
    )


def test_heatmap_spec_is_the_altair_builders_with_this_drawing_filled_in() -> None:
    from asyncfail.charts.builders import heatmap_layers

    scenario = ContractScenario()
    sweep = sweep_around_boundary(scenario, radius_seconds=2)
    for width in (240, 360, 500):
        spec = retention_heatmap_spec(sweep, "Zoom", width=width)
        built = heatmap_layers(width).to_dict()
        # Filled in per drawing: the data, the titles, and the parameters' values (the findings
        # present, and this grid's extent); everything else is the builders' spec.
        for key in ("datasets", "title", "description"):
            spec.pop(key)
        for drawn in (spec, built):
            drawn["params"] = [p["name"] for p in drawn["params"]]
        assert spec == built
