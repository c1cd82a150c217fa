"""The explorer's findings pinned for several scopes (lesson 4's worst setting among them), and
its whole report equal to a brute-force exploration written here: every plan run, none skipped,
nothing remembered between plans. A faster explorer must find exactly what the plain one did."""

import pytest

from asyncfail.course.lesson04_explore_every_failure import ROWS
from asyncfail.explore.explorer import (
    Counterexample,
    Exploration,
    InvariantReport,
    explore,
    plan_runs,
)
from asyncfail.explore.invariants import RULES, Invariant
from asyncfail.explore.plans import plan_order
from asyncfail.lab.events import Event
from asyncfail.lab.faults import FaultPlan, plan_text
from asyncfail.lab.scenario import Mode, Scenario, command_line
from asyncfail.lab.settings import LabSettings

Summary = tuple[int, int, int, int, tuple[tuple[int, str | None, int | None], ...]]


def summary(found: Exploration) -> Summary:
    """Plans explored, unreachable, distinct runs, interleavings; then for each invariant its
    violations, its smallest counterexample as plan text and that run's number of events."""
    return (
        found.explored,
        found.unreachable,
        found.distinct_runs,
        found.interleavings,
        tuple(
            (r.violations, None, None)
            if r.counterexample is None
            else (
                r.violations,
                plan_text(FaultPlan(injections=r.counterexample.plan)),
                len(r.counterexample.events),
            )
            for r in found.invariants
        ),
    )


NONE = (0, None, None)
EVERY_DISPATCH = "1:before-dispatch,2:before-dispatch,3:before-dispatch"

# Recorded from the explorer that ran every plan (before it was made faster). The eight rows of
# lesson 4 at its worst setting (3 faults over 3 deliveries), then other runtimes and settings.
PINNED: list[tuple[tuple[Mode, LabSettings, int, int], Summary]] = [
    ((ROWS[0].mode, ROWS[0].settings, 3, 3),
     (6018, 5734, 284, 1, ((246, "1:response", 5), (1, EVERY_DISPATCH, 4), NONE))),
    ((ROWS[1].mode, ROWS[1].settings, 3, 3),
     (6018, 5754, 264, 1, (NONE, (8, EVERY_DISPATCH, 4), NONE))),
    ((ROWS[2].mode, ROWS[2].settings, 3, 3),
     (6018, 5665, 353, 1, ((143, "1:after-effect", 8), (8, EVERY_DISPATCH, 4), NONE))),
    ((ROWS[3].mode, ROWS[3].settings, 3, 3),
     (6018, 5665, 353, 1, ((143, "1:after-effect", 9), (8, EVERY_DISPATCH, 4), NONE))),
    ((ROWS[4].mode, ROWS[4].settings, 3, 3),
     (6018, 5754, 264, 1, ((57, "1:receiver-before-record", 8), (8, EVERY_DISPATCH, 4), NONE))),
    ((ROWS[5].mode, ROWS[5].settings, 3, 3),
     (6018, 5732, 286, 1, ((23, "1:response,1:lookup", 7), (8, EVERY_DISPATCH, 4), NONE))),
    ((ROWS[6].mode, ROWS[6].settings, 3, 3),
     (6018, 5785, 233, 1, ((13, "1:journal-write,1:after-effect", 7), (1, EVERY_DISPATCH, 4),
                           NONE))),
    ((ROWS[7].mode, ROWS[7].settings, 3, 3),
     (6018, 5767, 251, 1, (NONE, (1, EVERY_DISPATCH, 4), NONE))),
    ((Mode.DURABLE, LabSettings(), 9, 2), (4951, 4886, 65, 1, (NONE, NONE, NONE))),
    ((Mode.NAIVE, LabSettings(), 1, 3),
     (232, 181, 51, 1, ((14, "1:response", 5), (1, "1:before-dispatch", 2), NONE))),
    ((Mode.NAIVE, LabSettings.model_validate({"workers": 2, "claim": "lease"}), 2, 2),
     (254, 178, 76, 3, ((61, "1:response", 5), (1, "1:before-dispatch,2:before-dispatch", 3),
                        NONE))),
    ((Mode.DURABLE, LabSettings.model_validate({"workers": 2}), 3, 2),
     (562, 474, 88, 3, ((32, "1:pause-before-dispatch", 9), NONE, NONE))),
    ((Mode.DURABLE, LabSettings.model_validate({"replay_after": "60"}), 3, 2),
     (991, 926, 65, 1, (NONE, NONE, NONE))),
    ((Mode.CHECKPOINT, LabSettings(), 3, 2), (562, 489, 73, 1, ((43, "1:response", 6), NONE,
                                                                NONE))),
]  # fmt: skip


@pytest.mark.parametrize(("scope", "expected"), PINNED)
def test_the_explorer_finds_what_it_found_before(
    scope: tuple[Mode, LabSettings, int, int], expected: Summary
) -> None:
    assert summary(explore(*scope)) == expected


def turns(events: tuple[Event, ...]) -> tuple[int, ...]:
    # Written apart from the library: which worker acted, repeats in a row dropped.
    order: list[int] = []
    for e in events:
        if e.worker is not None and order[-1:] != [e.worker]:
            order.append(e.worker)
    return tuple(order)


def brute_force(mode: Mode, settings: LabSettings, deliveries: int, faults: int) -> Exploration:
    """The report of every plan, each run on its own and read as the module's rules say."""
    runs = list(plan_runs(mode, settings, deliveries, faults))
    fired = [r for r in runs if r.reachable]
    reports = []
    for invariant in Invariant:
        breaking = [r for r in fired if invariant in r.broken]
        least = min(
            breaking,
            key=lambda r: (len(r.plan.injections), len(r.result.events), plan_order(r.plan)),
            default=None,
        )
        found = None
        if least is not None:
            scenario = Scenario(
                plan=least.plan, mode=mode, deliveries=deliveries, settings=settings
            )
            found = Counterexample(
                plan=least.plan.injections,
                command=command_line(scenario),
                counts=least.result.counts,
                outcome=least.result.outcome,
                status=least.result.status,
                events=least.result.events,
            )
        reports.append(
            InvariantReport(
                name=invariant,
                rule=RULES[invariant],
                violations=len(breaking),
                counterexample=found,
            )
        )
    return Exploration(
        mode=mode,
        deliveries=deliveries,
        settings=settings,
        max_faults=faults,
        explored=len(runs),
        unreachable=len(runs) - len(fired),
        distinct_runs=len({r.result.events for r in fired}),
        interleavings=len({turns(r.result.events) for r in fired}),
        invariants=tuple(reports),
    )


BRUTE_FORCE = [
    (Mode.NAIVE, LabSettings(), 3, 2),
    (Mode.DURABLE, LabSettings(key="per-attempt"), 3, 2),
    (Mode.DURABLE, LabSettings(on_lookup_outage="fail-open"), 3, 2),
    (Mode.DURABLE, LabSettings(record="separate", retention="30"), 2, 3),
    (Mode.DURABLE, LabSettings.model_validate({"workers": 2}), 2, 2),
    (Mode.NAIVE, LabSettings.model_validate({"workers": 2, "claim": "lease"}), 2, 2),
    (Mode.DURABLE, LabSettings.model_validate({"replay_after": "60"}), 2, 2),
    (Mode.CHECKPOINT, LabSettings(), 3, 2),
]


@pytest.mark.parametrize("scope", BRUTE_FORCE)
def test_the_whole_report_is_the_brute_force_one(scope: tuple[Mode, LabSettings, int, int]) -> None:
    assert explore(*scope) == brute_force(*scope)
