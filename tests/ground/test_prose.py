"""How probabilities are written for learners (``prose.chance``, ``prose.significant``)."""

import math
import re

import pytest

from asyncfail.ground.prose import CHANCE_FLOOR, chance, percent, significant


@pytest.mark.parametrize(
    ("x", "digits", "text"),
    [
        (0.0, 2, "0"),
        (0.0025, 2, "0.0025"),
        (0.1917, 2, "0.19"),
        (521.6, 2, "520"),
        (9.96, 2, "10"),  # carries into a new digit
        (0.0999, 2, "0.1"),
        (123456.0, 2, "120,000"),
        (1e-7, 2, "0.0000001"),
        (0.125, 2, "0.12"),  # half to even
        (99.6, 3, "99.6"),
    ],
)
def test_significant_writes_numbers_in_full(x: float, digits: int, text: str) -> None:
    assert significant(x, digits) == text


@pytest.mark.parametrize(
    ("p", "text"),
    [
        (0.0, "never (0 %)"),
        (1.0, "every time (100 %)"),
        (0.0025, "1 in 400 (0.25 %)"),
        (0.003, "1 in 330 (0.3 %)"),
        (0.001917, "1 in 520 (0.19 %)"),
        (0.5, "1 in 2 (50 %)"),
        (0.45, "1 in 2 (45 %)"),
        (1 / 3, "1 in 3 (33 %)"),
        (0.0099999, "1 in 100 (1 %)"),
        (0.7, "7 in 10 (70 %)"),
        (0.73, "73 in 100 (73 %)"),
        (0.50275, "1 in 2 (50 %)"),
        (0.5049, "1 in 2 (50 %)"),
        (0.505, "1 in 2 (50 %)"),  # half to even, in both figures
        (0.5051, "51 in 100 (51 %)"),
        (0.96, "96 in 100 (96 %)"),
        (0.996, "99 in 100 (99.6 %)"),  # never "100 %" for less than certain
        (0.999999, "99 in 100 (99.9999 %)"),
        (CHANCE_FLOOR, "1 in 1,000,000 (0.0001 %)"),
        (CHANCE_FLOOR / 2, "less than 1 in 1,000,000 (less than 0.0001 %)"),
        (5e-324, "less than 1 in 1,000,000 (less than 0.0001 %)"),
    ],
)
def test_chance_reads_as_times_in_and_a_percentage(p: float, text: str) -> None:
    assert chance(p) == text


def test_chance_never_prints_an_exponent() -> None:
    for i in range(1, 2000):
        p = i / 2000 * 10 ** -(i % 7)
        assert re.search(r"\d[eE][-+]?\d", chance(p)) is None, p


@pytest.mark.parametrize("p", [-0.1, 1.0000001, math.nan, math.inf])
def test_chance_refuses_what_is_not_a_probability(p: float) -> None:
    with pytest.raises(ValueError, match="from 0 to 1"):
        chance(p)


@pytest.mark.parametrize(
    ("p", "text"),
    [
        (0.0, "0 %"),
        (1.0, "100 %"),
        (0.0025, "0.25 %"),
        (0.001917, "0.19 %"),
        (0.99999, "99.999 %"),
        (CHANCE_FLOOR, "0.0001 %"),
        (CHANCE_FLOOR * 0.99, "less than 0.0001 %"),
    ],
)
def test_percent_is_two_figures_never_an_exponent(p: float, text: str) -> None:
    assert percent(p) == text


def test_a_text_is_the_same_whatever_was_asked_before_and_a_refusal_is_never_kept() -> None:
    # percent and chance keep the texts they wrote (prose.WRITTEN): asked in another order,
    # from an empty memo, each number gets the text it got the first time.
    values = [i / 997 for i in range(998)] + [CHANCE_FLOOR * 0.5, 0.996, 0.503]
    first = [(chance(p), percent(p)) for p in values]
    chance.cache_clear()
    percent.cache_clear()
    assert [(chance(p), percent(p)) for p in reversed(values)][::-1] == first
    for _ in range(2):
        with pytest.raises(ValueError, match="from 0 to 1"):
            percent(math.nan)
        with pytest.raises(ValueError, match="from 0 to 1"):
            chance(1.5)
