"""Retention sweeps agree with the single-scenario evaluator on every cell, boundaries included."""

import itertools
import math
from decimal import Decimal

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
from asyncfail.contract.terms import ContractProfile, KeyScope, PayloadPolicy, SecondRequest
from asyncfail.ground.durations import MAX_SECONDS, Duration
from asyncfail.ground.retention import BoundaryConvention

FIXED = ("scope", "second", "policy", "profile", "boundary")


def assert_agrees_with_evaluate(sweep: RetentionSweep) -> None:
    """Every cell equals a freshly validated scenario run through ``evaluate``."""
    fixed = {name: getattr(sweep.scenario, name) for name in FIXED}
    rows = sweep.rows()
    for i in range(len(sweep)):
        single = evaluate(
            ContractScenario(
                **fixed,
                retention_seconds=Duration(sweep.retention_ms[i]),
                delay_seconds=Duration(sweep.delay_ms[i]),
            )
        )
        cell = (sweep.record[i], sweep.disposition[i], sweep.effects[i], sweep.finding[i])
        assert cell == (single.record, single.disposition, single.effects, single.finding), i
        assert rows[i]["correct"] is single.correct


def test_every_fixed_input_combination_agrees_on_a_grid_with_boundaries() -> None:
    axis = [0, 1, "59.999", "59.5", 60, "60.001", "60.5", 3600]  # every delay == retention
    for scope, second, policy, profile, boundary in itertools.product(
        KeyScope, SecondRequest, PayloadPolicy, ContractProfile, BoundaryConvention
    ):
        s = ContractScenario(
            scope=scope, second=second, policy=policy, profile=profile, boundary=boundary
        )
        assert_agrees_with_evaluate(sweep_retention(s, axis, axis))


seconds = st.integers(0, MAX_SECONDS * 1000).map(Duration)
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
    s: ContractScenario, retentions: list[Duration], extra_delays: list[Duration]
) -> None:
    # The delays include every retention, so each grid holds its exact boundary cells.
    sweep = sweep_retention(s, retentions, [*extra_delays, *retentions])
    assert len(sweep) == len(retentions) * (len(extra_delays) + len(retentions))
    assert_agrees_with_evaluate(sweep)


def test_cells_are_retention_major() -> None:
    sweep = sweep_retention(ContractScenario(), [10, 20], [5, 10, 25])
    assert sweep.retention_ms == (10_000, 10_000, 10_000, 20_000, 20_000, 20_000)
    assert sweep.delay_ms == (5_000, 10_000, 25_000) * 2
    assert [r.value for r in sweep.record] == [
        "retained", "expired", "expired", "retained", "retained", "expired",
    ]  # fmt: skip
    at = sweep.scenario_at(4)
    assert (at.delay_seconds, at.retention_seconds) == (Duration(10_000), Duration(20_000))


def test_columns_and_rows_are_tidy_plain_values() -> None:
    sweep = sweep_retention(ContractScenario(second="other-tenant", scope="operation"), [5], [4, 5])
    columns = sweep.columns()
    assert tuple(columns) == COLUMNS
    assert all(len(column) == 2 for column in columns.values())
    rows = sweep.rows()
    assert rows == [
        {
            "retention_seconds": 5,
            "delay_seconds": 4,
            "record": "retained",
            "disposition": "conflict",
            "effects": 1,
            "finding": "Another tenant's new intent rejected because the key omits the tenant",
            "correct": False,
        },
        {
            "retention_seconds": 5,
            "delay_seconds": 5,
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
    assert sweep.retentions == sweep.delays == tuple(map(Duration.of_seconds, range(3597, 3604)))
    diagonal = [
        sweep.record[i] for i in range(len(sweep)) if sweep.delay_ms[i] == sweep.retention_ms[i]
    ]
    assert len(diagonal) == 7 and set(diagonal) == {at_boundary}
    assert_agrees_with_evaluate(sweep)


@pytest.mark.parametrize(
    ("retention", "radius", "axis"),
    [
        ("3600", 2, ("3598", "3599", "3600", "3601", "3602")),
        # Whole seconds within the radius of 10.5 only: 9.5 to 11.5, so 10 and 11 (and 10.5).
        ("10.5", 1, ("10", "10.5", "11")),
        # The case: 2.5 with a radius of 5 reaches 7.5, so 8 is not on the axis.
        ("2.5", 5, ("0", "1", "2", "2.5", "3", "4", "5", "6", "7")),
        ("1", 3, ("0", "1", "2", "3", "4")),
        (str(MAX_SECONDS), 2, (str(MAX_SECONDS - 2), str(MAX_SECONDS - 1), str(MAX_SECONDS))),
        ("7", 0, ("7",)),
        ("7.25", 0, ("7.25",)),
    ],
)
def test_boundary_axis_holds_the_exact_boundary_and_whole_seconds_within_the_radius(
    retention: str, radius: int, axis: tuple[str, ...]
) -> None:
    got = boundary_axis(Duration(int(Decimal(retention) * 1000)), radius)
    assert [d.seconds for d in got] == [Decimal(a) for a in axis]
    centre = Decimal(retention)
    assert all(abs(d.seconds - centre) <= radius for d in got)


@pytest.mark.parametrize(
    ("retention", "radius", "message"),
    [
        (10, -1, "radius_seconds must be a whole number from 0 to 999"),
        (10, 1000, "radius_seconds must be a whole number from 0 to 999"),
        (10, 2.5, "radius_seconds must be a whole number"),
        (10, True, "radius_seconds must be a whole number"),
    ],
)
def test_boundary_axis_rejects_bad_input(retention: int, radius: int, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        boundary_axis(Duration.of_seconds(retention), radius)


@pytest.mark.parametrize(
    ("retentions", "delays", "message"),
    [
        ([1, math.nan], [1], r"retentions\[1\]: 'nan' is not exact"),
        ([1], [math.inf], r"delays\[0\]: 'inf' is not exact"),
        ([1], [-1], r"delays\[0\]: '-1' must not be negative"),
        ([1], [0.5], r"delays\[0\]: '0.5' is not exact"),
        ([1], ["0.0001"], r"delays\[0\]: '0.0001' is finer than a millisecond"),
        ([MAX_SECONDS + 1], [1], r"retentions\[0\]: '2592001' is longer than 30 days"),
        ([], [1], "retentions must hold at least one duration"),
        ([1], "123", "delays must be a sequence of durations"),
    ],
)
def test_sweep_rejects_bad_axes_naming_the_value(
    retentions: list[object], delays: list[object], message: str
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
