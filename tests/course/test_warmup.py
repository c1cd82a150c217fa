"""course/warmup.py: what a lesson makes as its page starts. The lessons' own tests count
what showing each choice makes after the start (tests/notebook_support.made_after_the_start)."""

import pytest

from asyncfail.course import warmup


@pytest.mark.parametrize(("snapshot", "shown"), [(False, ["b", "a", "c"]), (True, [])])
def test_the_start_makes_every_choice_once_in_order_but_in_a_snapshot(
    snapshot: bool, shown: list[str]
) -> None:
    made: list[str] = []
    warmup.warm(snapshot, made.append, iter(["b", "a", "c"]))
    assert made == shown
