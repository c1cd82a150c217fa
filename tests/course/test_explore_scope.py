"""Lesson 4's matrix explores every setting its controls offer in full, with no cap: what that
costs is the plans the explorer runs (those whose injections all strike), and those stay within
``MATRIX_RUNS`` a row at every setting."""

import pytest

from asyncfail.course.lesson04_explore_every_failure import MATRIX_RUNS, ROWS, explore_row
from asyncfail.explore.explorer import plans_to_explore
from asyncfail.explore.plans import MAX_FAULTS
from asyncfail.lab.scenario import MAX_DELIVERIES
from asyncfail.lab.settings import LabSettings


@pytest.mark.parametrize("deliveries", range(1, MAX_DELIVERIES + 1))
def test_every_setting_runs_in_full_within_the_bound(deliveries: int) -> None:
    # The most faults per plan the slider offers: the most plans, at each budget.
    for row in ROWS:
        found = explore_row(row, deliveries, MAX_FAULTS)
        assert (found.deliveries, found.max_faults) == (deliveries, MAX_FAULTS)
        assert found.explored == plans_to_explore(row.settings, deliveries, MAX_FAULTS)
        assert found.explored - found.unreachable <= MATRIX_RUNS


def test_three_faults_spoil_three_deliveries_at_most() -> None:
    # Why the bound holds: past three deliveries, more budget adds plans but no run.
    for row in ROWS:
        runs = {
            (found := explore_row(row, deliveries, 3)).explored - found.unreachable
            for deliveries in (4, 9)
        }
        assert len(runs) == 1


def test_every_row_has_the_same_plans() -> None:
    # No row's settings limit its deliveries: 11 points at each of 9 deliveries, up to 3 faults.
    counts = {plans_to_explore(row.settings, 9, 3) for row in ROWS}
    assert counts == {plans_to_explore(LabSettings(), 9, 3)} == {161_800}


def test_the_default_is_the_class_demo() -> None:
    found = explore_row(ROWS[1], 3, 2)
    assert (found.max_faults, found.explored) == (2, 562)
