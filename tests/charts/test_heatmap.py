"""Heatmap cells and axes for the retention boundary (the drawing: test_heatmap_drawing.py)."""

from itertools import pairwise

from hypothesis import given
from hypothesis import strategies as st

from asyncfail.charts.heatmap import describe_heatmap, heatmap_cells, overview_axis
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


def test_description_counts_cells_per_finding() -> None:
    scenario = ContractScenario(retention_seconds=5)
    sweep = sweep_retention(scenario, [5], [4, 5, 6])
    assert describe_heatmap(sweep) == (
        "Heatmap of the finding over retention 5 s to 5 s and delay 4 s to 6 s (1 x 3 cells), "
        "with tenant-operation keys, the same-intent second request and the enforce policy: "
        "1 cell Same intent reused its retained result; 2 cells One intent applied twice because "
        "the record expired. The diagonal marks delay = retention, the exact boundary."
    )
