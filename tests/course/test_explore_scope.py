"""Lesson 4's matrix within what a page recomputes on each change: the faults per plan are
capped so a row runs at most ``MATRIX_PLANS`` plans, the budget is kept, and the lesson says so
in one line with the command that runs them all."""

import pytest

from asyncfail.course.lesson04_explore_every_failure import (
    MATRIX_PLANS,
    ROWS,
    explore_row,
    matrix_scope,
    scope_note,
)
from asyncfail.explore.explorer import plans_to_explore
from asyncfail.explore.plans import MAX_FAULTS
from asyncfail.lab.scenario import MAX_DELIVERIES
from asyncfail.lab.settings import LabSettings

# (deliveries, faults asked) -> faults run, by hand from the plan counts (8 points a delivery):
# 3 faults over 3 deliveries is 6,018 plans; over 4, 14,235; 2 faults over 9 deliveries is
# 4,951; 3 faults over 9, 161,800.
TABLE = [((3, 2), 2), ((3, 3), 3), ((4, 3), 2), ((9, 3), 2), ((9, 2), 2), ((1, 3), 3),
         ((2, 3), 3), ((5, 3), 2), ((5, 0), 0), ((9, 1), 1)]  # fmt: skip


@pytest.mark.parametrize(("asked", "ran"), TABLE)
def test_the_faults_run_for_each_setting(asked: tuple[int, int], ran: int) -> None:
    deliveries, faults = asked
    scope = matrix_scope(deliveries, faults)
    assert (scope.deliveries, scope.max_faults, scope.asked) == (deliveries, ran, faults)
    assert scope.capped is (ran < faults)


def plans(deliveries: int, faults: int) -> int:
    return max(plans_to_explore(row.settings, deliveries, faults) for row in ROWS)


@pytest.mark.parametrize("deliveries", range(1, MAX_DELIVERIES + 1))
@pytest.mark.parametrize("faults", range(MAX_FAULTS + 1))
def test_the_most_faults_that_fit_and_never_more(deliveries: int, faults: int) -> None:
    scope = matrix_scope(deliveries, faults)
    assert scope.plans == plans(deliveries, scope.max_faults) <= MATRIX_PLANS
    if scope.capped:
        assert plans(deliveries, scope.max_faults + 1) > MATRIX_PLANS
    assert (scope_note(scope) == "") is (not scope.capped)


def test_every_row_has_the_same_plans() -> None:
    # The scope is one for the whole matrix: no row's settings limit its deliveries here.
    counts = {plans_to_explore(row.settings, 9, 3) for row in ROWS}
    assert counts == {plans_to_explore(LabSettings(), 9, 3)} == {161_800}


def test_a_capped_row_runs_the_capped_plans_and_the_note_says_so() -> None:
    found = explore_row(ROWS[1], 9, 3)
    assert (found.deliveries, found.max_faults, found.explored) == (9, 2, 4951)
    assert scope_note(matrix_scope(9, 3)) == (
        "*Plans of up to 3 faults over 9 deliveries are 161,800 a row, more than this page "
        "recomputes on each change: the matrix shows every plan of up to 2 faults (4,951 a "
        "row). A terminal runs them all: `asyncfail explore --max-faults 3 --deliveries 9`.*"
    )


def test_the_default_is_not_capped() -> None:
    found = explore_row(ROWS[1], 3, 2)
    assert (found.max_faults, found.explored) == (2, 562)
