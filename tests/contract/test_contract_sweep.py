"""Retention sweeps agree with the single-scenario evaluator on every cell, boundaries included."""

import itertools
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from asyncfail.contract.experiment import ContractScenario, evaluate
from asyncfail.contract.sweep import (
    COLUMNS,
    MAX_SWEEP_CELLS,
    RetentionSweep,
    boundary_axis,
    sweep_around_boundary,
    sweep_retention,
)
from asyncfail.contract.terms import (
    MAX_SECONDS,
    BoundaryConvention,
    ContractProfile,
    KeyScope,
    PayloadPolicy,
    SecondRequest,
)

FIXED = ("scope", "second", "policy", "profile", "boundary")


def assert_agrees_with_evaluate(sweep: RetentionSweep) -> None:
    """Every cell equals a freshly validated scenario run through ``evaluate``."""
    fixed = {name: getattr(sweep.scenario, name) for name in FIXED}
    rows = sweep.rows()
    for i in range(len(sweep)):
        single = evaluate(
            ContractScenario(
                **fixed,
                retention_seconds=sweep.retention_seconds[i],
                delay_seconds=sweep.delay_seconds[i],
            )
        )
        cell = (sweep.record[i], sweep.disposition[i], sweep.effects[i], sweep.finding[i])
        assert cell == (single.record, single.disposition, single.effects, single.finding), i
        assert rows[i]["correct"] is single.correct


def test_every_fixed_input_combination_agrees_on_a_grid_with_boundaries() -> None:
    axis = [0, 1, 59.5, 60, 60.5, 3600]  # contains every boundary delay == retention
    for scope, second, policy, profile, boundary in itertools.product(
        KeyScope, SecondRequest, PayloadPolicy, ContractProfile, BoundaryConvention
    ):
        s = ContractScenario(
            scope=scope, second=second, policy=policy, profile=profile, boundary=boundary
        )
        assert_agrees_with_evaluate(sweep_retention(s, axis, axis))


seconds = st.floats(min_value=0, max_value=MAX_SECONDS) | st.integers(0, MAX_SECONDS)
fixed_inputs = st.builds(
    ContractScenario,
    scope=st.sampled_from(KeyScope),
    second=st.sampled_from(SecondRequest),
    policy=st.sampled_from(PayloadPolicy),
    profile=st.sampled_from(ContractProfile),
    boundary=st.sampled_from(BoundaryConvention),
)


@given(
    fixed_inputs,
    st.lists(seconds, min_size=1, max_size=6),
    st.lists(seconds, max_size=6),
)
def test_sweep_equals_single_evaluator(
    s: ContractScenario, retentions: list[float], extra_delays: list[float]
) -> None:
    # The delays include every retention, so each grid holds its exact boundary cells.
    sweep = sweep_retention(s, retentions, [*extra_delays, *retentions])
    assert len(sweep) == len(retentions) * (len(extra_delays) + len(retentions))
    assert_agrees_with_evaluate(sweep)


def test_cells_are_retention_major() -> None:
    sweep = sweep_retention(ContractScenario(), [10, 20], [5, 10, 25])
    assert sweep.retention_seconds == (10, 10, 10, 20, 20, 20)
    assert sweep.delay_seconds == (5, 10, 25) * 2
    assert [r.value for r in sweep.record] == [
        "retained", "expired", "expired", "retained", "retained", "expired",
    ]  # fmt: skip
    assert sweep.scenario_at(4).delay_seconds == 10 and sweep.scenario_at(4).retention_seconds == 20


def test_columns_and_rows_are_tidy_plain_values() -> None:
    sweep = sweep_retention(ContractScenario(second="other-tenant", scope="operation"), [5], [4, 5])
    columns = sweep.columns()
    assert tuple(columns) == COLUMNS
    assert all(len(column) == 2 for column in columns.values())
    rows = sweep.rows()
    assert rows == [
        {
            "retention_seconds": 5.0,
            "delay_seconds": 4.0,
            "record": "retained",
            "disposition": "conflict",
            "effects": 1,
            "finding": "Another tenant's new intent rejected because the key omits the tenant",
            "correct": False,
        },
        {
            "retention_seconds": 5.0,
            "delay_seconds": 5.0,
            "record": "expired",
            "disposition": "applied",
            "effects": 2,
            "finding": "New intent correctly applied",
            "correct": True,
        },
    ]
    assert all(type(row[key]) is str for row in rows for key in ("record", "finding"))


@pytest.mark.parametrize(
    ("boundary", "at_boundary"),
    [("expired-at-boundary", "expired"), ("retained-at-boundary", "retained")],
)
def test_zoom_around_the_boundary(boundary: str, at_boundary: str) -> None:
    sweep = sweep_around_boundary(ContractScenario(boundary=boundary), radius_seconds=3)
    assert sweep.retentions == sweep.delays == tuple(float(s) for s in range(3597, 3604))
    diagonal = [
        sweep.record[i]
        for i in range(len(sweep))
        if sweep.delay_seconds[i] == sweep.retention_seconds[i]
    ]
    assert len(diagonal) == 7 and set(diagonal) == {at_boundary}
    assert_agrees_with_evaluate(sweep)


@pytest.mark.parametrize(
    ("retention", "radius", "axis"),
    [
        (3600, 2, (3598, 3599, 3600, 3601, 3602)),
        (10.5, 1, (9, 10, 10.5, 11, 12)),
        (1, 3, (0, 1, 2, 3, 4)),
        (MAX_SECONDS, 2, (MAX_SECONDS - 2, MAX_SECONDS - 1, MAX_SECONDS)),
        (7, 0, (7,)),
    ],
)
def test_boundary_axis_holds_the_exact_boundary(
    retention: float, radius: int, axis: tuple[float, ...]
) -> None:
    assert boundary_axis(retention, radius) == axis
    assert retention in boundary_axis(retention, radius)


@pytest.mark.parametrize(
    ("retention", "radius", "message"),
    [
        (math.nan, 5, "retention_seconds must be a number of seconds"),
        (-1, 5, "retention_seconds must be a number of seconds"),
        (10, -1, "radius_seconds must be a whole number from 0 to 999"),
        (10, 1000, "radius_seconds must be a whole number from 0 to 999"),
        (10, 2.5, "radius_seconds must be a whole number"),
        (10, True, "radius_seconds must be a whole number"),
    ],
)
def test_boundary_axis_rejects_bad_input(retention: float, radius: int, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        boundary_axis(retention, radius)


@pytest.mark.parametrize(
    ("retentions", "delays", "message"),
    [
        ([1, math.nan], [1], r"retentions\[1\] must be a number of seconds from 0 to 2592000"),
        ([1], [math.inf], r"delays\[0\] must be a number of seconds"),
        ([1], [-1], r"delays\[0\] must be a number of seconds"),
        ([1], ["5"], r"delays\[0\] must be a number of seconds"),
        ([MAX_SECONDS + 1], [1], r"retentions\[0\] must be a number of seconds"),
        ([], [1], "retentions must hold at least one number of seconds"),
        ([1], "123", "delays must be a sequence of numbers of seconds"),
    ],
)
def test_sweep_rejects_bad_axes_naming_the_value(
    retentions: list[float], delays: list[float], message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        sweep_retention(ContractScenario(), retentions, delays)


def test_sweep_bounds_its_size() -> None:
    too_many = MAX_SWEEP_CELLS // 2000 + 1
    with pytest.raises(ValueError, match=f"at most {MAX_SWEEP_CELLS} cells"):
        sweep_retention(ContractScenario(), range(too_many), range(2000))


def test_a_million_cell_grid_has_a_million_consistent_cells() -> None:
    sweep = sweep_retention(ContractScenario(), range(1000), range(1000))
    assert len(sweep) == 1_000_000
    # Seed convention: retained exactly where delay < retention.
    retained = sum(1 for r in sweep.record if r == "retained")
    assert retained == sum(range(1000))
    assert set(sweep.effects) == {1, 2}
