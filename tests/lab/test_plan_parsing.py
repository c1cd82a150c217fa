"""The plan parser (issue 21): bounded on every input, one line for every refusal, and the
largest plan any budget allows read back whole."""

import pytest

from asyncfail.lab.faults import (
    MAX_ATTEMPT,
    MAX_INJECTIONS,
    MAX_PLAN_TEXT,
    FaultPlan,
    FaultPoint,
    Injection,
    parse_plan,
    plan_text,
)
from asyncfail.lab.scenario import MAX_DELIVERIES
from tests.cli_support import run_main

EVERY = FaultPlan(
    injections=tuple(
        Injection(attempt=a, point=p) for a in range(1, MAX_ATTEMPT + 1) for p in FaultPoint
    )
)


def test_the_limits_are_the_largest_budget_and_its_replay() -> None:
    # Nine deliveries and the operator's replay; eleven points each; the largest plan fits.
    assert MAX_ATTEMPT == MAX_DELIVERIES + 1
    assert MAX_INJECTIONS == 11 * 10 == len(EVERY.injections)
    assert len(plan_text(EVERY)) == 1840 < MAX_PLAN_TEXT


def test_the_largest_plan_reads_back_whole() -> None:
    assert parse_plan(plan_text(EVERY)) == EVERY
    spaced = " , ".join(plan_text(EVERY).split(","))
    assert len(spaced) <= MAX_PLAN_TEXT
    assert parse_plan(spaced) == EVERY


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("11:lookup", "'11' is not a delivery attempt (a whole number from 1 to 10)"),
        ("0:lookup", "'0' is not a delivery attempt (a whole number from 1 to 10)"),
        ("010:lookup", None),
        ("1" * 3000 + ":lookup", "is not a delivery attempt (a whole number from 1 to 10)"),
        ("0" * 3000 + "1:lookup", None),
        ("1:lookup, 1:lookup", "'1:lookup' is given twice"),
        ("x" * (MAX_PLAN_TEXT + 1), "a plan of 4,001 characters is too long (4,000 at most)"),
        ("1" * 5000 + ":lookup", "a plan of 5,007 characters is too long (4,000 at most)"),
    ],
)
def test_each_bound_at_its_edge(text: str, message: str | None) -> None:
    if message is None:
        assert parse_plan(text).injections[0].attempt in {1, 10}
        return
    with pytest.raises(ValueError) as refused:
        parse_plan(text)
    assert message in str(refused.value)
    assert "\n" not in str(refused.value) and "int_max_str_digits" not in str(refused.value)


def test_more_items_than_any_plan_holds_are_refused_before_any_is_read() -> None:
    # The first item is bad, yet the count is what is refused: no item was read.
    text = ",".join(["bad"] + ["1:lookup"] * MAX_INJECTIONS)
    with pytest.raises(ValueError, match="111 items is more than any plan can hold \\(110"):
        parse_plan(text)
    with pytest.raises(ValueError, match="'bad' is not ATTEMPT:POINT"):
        parse_plan(",".join(["bad"] + ["1:lookup"] * (MAX_INJECTIONS - 1)))


@pytest.mark.parametrize(
    "plan", ["1" * 5000 + ":lookup", "1" * 4000 + ":lookup", ",".join(["1:lookup"] * 5000)]
)
def test_lab_refuses_a_huge_plan_in_one_line(plan: str) -> None:
    code, out, err = run_main("lab", "--plan", plan)
    assert (code, out) == (2, "")
    assert len(err.strip().splitlines()) == 1
    assert "--plan" in err and "int_max_str_digits" not in err and "Exceeds" not in err
