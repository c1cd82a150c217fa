"""Issue 20, defect 3: with an operator's replay, the explorer's space holds the replay's
injections, its counts equal a brute force written apart, and every counterexample replays."""

import json
from itertools import combinations
from math import comb

import pytest

from asyncfail import FaultPlan, FaultPoint, Injection, Mode
from asyncfail.explore.explorer import explore
from asyncfail.explore.invariants import Invariant, broken_by
from asyncfail.lab.faults import parse_plan
from asyncfail.lab.scenario import Scenario
from asyncfail.lab.settings import LabSettings
from asyncfail.lab.simulation import execute, result_of
from tests.cli_support import run_main

POINTS = list(FaultPoint)
REPLAY = LabSettings.model_validate({"replay_after": "60"})


def effects_of(events: tuple[object, ...]) -> int:
    # Written apart from the library: the ledger's debits, by event name.
    names = {"DebitApplied", "DebitAppliedAgain"}
    return sum(1 for e in events if e.kind.value in names)  # type: ignore[attr-defined]


@pytest.mark.parametrize(("deliveries", "max_faults"), [(1, 2), (2, 1)])
def test_the_replay_is_part_of_the_space(deliveries: int, max_faults: int) -> None:
    # Eleven points at each delivery of the budget and at the replay after it.
    injections = len(POINTS) * (deliveries + 1)
    expected = sum(comb(injections, k) for k in range(max_faults + 1))
    assert explore(Mode.DURABLE, REPLAY, deliveries, max_faults).explored == expected


@pytest.mark.parametrize("mode", list(Mode))
def test_counts_and_smallest_plans_equal_a_brute_force_over_every_plan(mode: Mode) -> None:
    deliveries, max_faults = 1, 2
    space = [(a, p) for a in range(1, deliveries + 2) for p in POINTS]
    violations = dict.fromkeys(Invariant, 0)
    smallest: dict[Invariant, int | None] = dict.fromkeys(Invariant)
    explored = unreachable = 0
    for k in range(max_faults + 1):
        for chosen in combinations(space, k):
            plan = FaultPlan.of(*(Injection(attempt=a, point=p) for a, p in chosen))
            run = execute(mode, plan, deliveries, REPLAY)
            explored += 1
            if not all(c in run.fired for c in chosen):
                unreachable += 1
                continue
            scenario = Scenario(plan=plan, mode=mode, deliveries=deliveries, settings=REPLAY)
            broken = set(broken_by(result_of(scenario, run.events)))
            assert (Invariant.AT_MOST_ONCE in broken) == (effects_of(run.events) > 1)
            for invariant in broken:
                violations[invariant] += 1
                if smallest[invariant] is None:
                    smallest[invariant] = k
    found = explore(mode, REPLAY, deliveries, max_faults)
    assert (found.explored, found.unreachable) == (explored, unreachable)
    for report in found.invariants:
        assert report.violations == violations[report.name]
        size = None if report.counterexample is None else len(report.counterexample.plan)
        assert size == smallest[report.name]


def test_a_fault_in_the_replay_is_found_and_replays_as_its_command() -> None:
    # By hand: the durable runtime's first delivery and its replay both die before dispatching;
    # the debit is never made and the status reads as final: silent loss, seen only with the
    # replay in the space.
    found = explore(Mode.DURABLE, REPLAY, 1, 2).invariants[1]
    assert found.name is Invariant.NO_SILENT_LOSS
    assert found.counterexample is not None
    assert found.counterexample.plan == parse_plan("1:before-dispatch,2:before-dispatch").injections
    code, out, err = run_main(*found.counterexample.command.split()[1:])
    assert (code, err) == (0, "")
    assert json.loads(out)["events"] == [
        e.model_dump(mode="json") for e in found.counterexample.events
    ]


def test_lab_refuses_an_injection_past_the_replay() -> None:
    code, _, err = run_main(
        "lab", "--plan", "3:after-effect", "--deliveries", "1", "--replay-after", "60"
    )
    assert code == 2
    assert "past the delivery budget of 1 and the operator's replay (2)" in err
