"""What the explorer keeps while it runs (numbers, not traces) and what it tells of its
progress, checked against the plans run one by one."""

from itertools import combinations
from math import comb

import pytest

from asyncfail.explore.explorer import TraceBook, explore, plan_runs, plans_to_explore, rank
from asyncfail.lab.scenario import Mode
from asyncfail.lab.settings import DEFAULT_SETTINGS, LabSettings

CASES = [
    (Mode.DURABLE, DEFAULT_SETTINGS, 3, 2),
    (Mode.NAIVE, DEFAULT_SETTINGS, 2, 2),
    (Mode.DURABLE, LabSettings.model_validate({"workers": 2}), 2, 1),
]


@pytest.mark.parametrize(("mode", "settings", "deliveries", "max_faults"), CASES)
def test_distinct_runs_and_progress_agree_with_the_plans_themselves(
    mode: Mode, settings: LabSettings, deliveries: int, max_faults: int
) -> None:
    runs = list(plan_runs(mode, settings, deliveries, max_faults))
    traces = {r.result.events for r in runs if r.reachable}
    heard: list[tuple[int, int]] = []
    found = explore(mode, settings, deliveries, max_faults, lambda d, t: heard.append((d, t)))
    assert found.distinct_runs == len(traces)
    assert found.explored == len(runs) == plans_to_explore(settings, deliveries, max_faults)
    total = len(runs)
    assert heard[-1] == (total, total)
    assert [d for d, _ in heard[:-1]] == list(range(100, total, 100))[: len(heard) - 1]
    assert {t for _, t in heard} == {total}
    assert explore(mode, settings, deliveries, max_faults) == found, "progress changes nothing"


def test_the_trace_book_tells_traces_apart_exactly() -> None:
    runs = [r for r in plan_runs(Mode.DURABLE, DEFAULT_SETTINGS, 3, 1) if r.reachable]
    book = TraceBook()
    for r in runs + runs:  # each twice
        book.add(r.result.events)
    assert len(book) == len({r.result.events for r in runs}) > 1
    book.add(runs[0].result.events[:-1])  # a prefix is another trace
    assert len(book) == len({r.result.events for r in runs}) + 1


PRUNING_CASES = [
    *CASES,
    (Mode.DURABLE, DEFAULT_SETTINGS, 3, 3),
    (Mode.DURABLE, LabSettings.model_validate({"on_lookup_outage": "fail-open"}), 3, 3),
    (Mode.NAIVE, LabSettings.model_validate({"workers": 2, "claim": "lease"}), 2, 2),
    (Mode.DURABLE, LabSettings.model_validate({"replay_after": "60"}), 3, 2),
]


@pytest.mark.parametrize(("mode", "settings", "deliveries", "max_faults"), PRUNING_CASES)
def test_plans_skipped_unrun_would_not_have_fired(
    mode: Mode, settings: LabSettings, deliveries: int, max_faults: int
) -> None:
    # The oracle: every plan run, none skipped, read one by one.
    runs = list(plan_runs(mode, settings, deliveries, max_faults))
    fired = [r for r in runs if r.reachable]
    found = explore(mode, settings, deliveries, max_faults)
    assert (found.explored, found.unreachable) == (len(runs), len(runs) - len(fired))
    for report in found.invariants:
        breaking = [r for r in fired if report.name in r.broken]
        assert report.violations == len(breaking)
        if breaking:
            least = min(len(r.plan.injections) for r in breaking)
            assert report.counterexample is not None
            assert len(report.counterexample.plan) == least
            assert report.counterexample.plan in {r.plan.injections for r in breaking}


@pytest.mark.parametrize(("n", "k"), [(5, 0), (5, 1), (6, 3), (7, 2), (33, 3), (4, 4)])
def test_a_plans_rank_is_its_place_in_the_enumeration(n: int, k: int) -> None:
    # The oracle: itertools' own order, which the enumeration (and the progress) follows.
    assert [rank(c, n) for c in combinations(range(n), k)] == list(range(comb(n, k)))
