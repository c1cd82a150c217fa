"""Properties of the model that hold for every fault, runtime, delivery budget and fault plan."""

from hypothesis import given
from hypothesis import strategies as st

from asyncfail import (
    EventKind,
    Fault,
    FaultPlan,
    FaultPoint,
    Injection,
    Layer,
    Mode,
    Outcome,
    Scenario,
    run_plan,
    simulate,
)
from asyncfail.lab.reading import counts_of, outcome_of
from asyncfail.lab.scenario import MAX_DELIVERIES
from asyncfail.lab.settings import LabSettings

faults = st.sampled_from(list(Fault))
modes = st.sampled_from(list(Mode))
budgets = st.integers(min_value=1, max_value=MAX_DELIVERIES)
scenarios = st.builds(Scenario, fault=faults, mode=modes, deliveries=budgets)
injections = st.builds(
    Injection, attempt=st.integers(1, MAX_DELIVERIES), point=st.sampled_from(list(FaultPoint))
)
plans = st.lists(injections, max_size=8).map(lambda xs: FaultPlan.of(*xs))

# Points at which the receiver has already applied the debit but the worker has not kept it.
AFTER_THE_DEBIT = {FaultPoint.RESPONSE, FaultPoint.AFTER_EFFECT, FaultPoint.AFTER_RECORD}


@given(scenarios)
def test_effects_equal_business_effect_events(scenario: Scenario) -> None:
    result = simulate(scenario)
    business = [e for e in result.events if e.layer is Layer.BUSINESS_EFFECT]
    assert result.counts.effects == len(business)
    assert all(e.kind in {EventKind.DEBIT_APPLIED, EventKind.DEBIT_APPLIED_AGAIN} for e in business)


@given(modes, plans, budgets)
def test_trace_is_well_formed_for_any_plan(mode: Mode, plan: FaultPlan, budget: int) -> None:
    events = run_plan(mode, plan, budget)
    assert [e.seq for e in events] == list(range(1, len(events) + 1))
    attempts = [e.attempt for e in events]
    assert attempts == sorted(attempts)
    assert set(attempts) == set(range(1, max(attempts) + 1)), "every delivery leaves a fact"
    counts = counts_of(events)
    assert 1 <= counts.attempts <= budget
    # Only the first debit is DebitApplied; every later one is a duplicate.
    kinds = [e.kind for e in events if e.layer is Layer.BUSINESS_EFFECT]
    assert kinds[:1] in ([], [EventKind.DEBIT_APPLIED])
    assert all(k is EventKind.DEBIT_APPLIED_AGAIN for k in kinds[1:])
    # The channel abandons exactly when no delivery completed within the budget.
    abandoned = events[-1].kind is EventKind.DELIVERY_ABANDONED
    assert abandoned == (counts.attempts == budget and _last_attempt_failed(events))


def _last_attempt_failed(events: tuple) -> bool:  # type: ignore[type-arg]
    last = [e.kind for e in events if e.attempt == events[-1].attempt]
    return EventKind.PROCESS_CRASHED in last or last[-1] in {
        EventKind.TIMEOUT_OBSERVED,
        EventKind.OPERATION_LOOKUP_MISSING,
        EventKind.DELIVERY_ABANDONED,
    }


@given(plans, budgets)
def test_durable_never_applies_more_than_one_debit(plan: FaultPlan, budget: int) -> None:
    events = run_plan(Mode.DURABLE, plan, budget)
    assert counts_of(events).effects <= 1


@given(plans, budgets)
def test_durable_calls_again_only_after_a_lookup_found_nothing(
    plan: FaultPlan, budget: int
) -> None:
    events = run_plan(Mode.DURABLE, plan, budget)
    kinds = [e.kind for e in events]
    for i, kind in enumerate(kinds):
        if kind is EventKind.TOOL_CALLED_AGAIN:
            assert kinds[i - 1] is EventKind.OPERATION_LOOKUP_MISSING


@given(faults, budgets)
def test_naive_duplicates_exactly_when_the_debit_happened_and_was_not_kept(
    fault: Fault, budget: int
) -> None:
    # Independent oracle: the fault strikes after the receiver applied the debit and before the
    # worker kept the result, and a further call follows (a timeout is retried within the same
    # delivery; a crash needs another delivery).
    point = FaultPlan.for_fault(fault).injections[0].point if fault is not Fault.NONE else None
    not_kept = point in AFTER_THE_DEBIT
    another_call = point is FaultPoint.RESPONSE or budget >= 2
    result = simulate(Scenario(fault=fault, mode=Mode.NAIVE, deliveries=budget))
    assert (result.outcome is Outcome.DUPLICATE) == (not_kept and another_call)


@given(scenarios)
def test_attempts_at_least_one_and_never_above_budget(scenario: Scenario) -> None:
    counts = simulate(scenario).counts
    assert 1 <= counts.attempts <= scenario.deliveries


@given(scenarios)
def test_simulation_is_deterministic(scenario: Scenario) -> None:
    first, second = simulate(scenario), simulate(scenario)
    assert first == second
    assert first.model_dump_json() == second.model_dump_json()


@given(modes, plans, budgets)
def test_outcome_classes(mode: Mode, plan: FaultPlan, budget: int) -> None:
    events = run_plan(mode, plan, budget)
    effects = counts_of(events).effects
    outcome = outcome_of(events)
    parked = EventKind.OPERATION_PARKED in {e.kind for e in events}
    assert (outcome is Outcome.DUPLICATE) == (effects > 1)
    # An injected lookup outage can park the operation before anything was applied.
    assert (outcome is Outcome.PARKED) == (parked and effects <= 1)
    assert (outcome is Outcome.LOST) == (effects == 0 and not parked)
    if outcome is Outcome.UNKNOWN:
        assert events[-1].kind is EventKind.DELIVERY_ABANDONED
        assert EventKind.TOOL_RESULT_RECORDED not in {e.kind for e in events}


def test_every_outcome_and_status_is_reachable() -> None:
    from asyncfail import Status
    from asyncfail.lab.scenario import MAX_DELIVERIES as top

    # Parking and deduplication need a setting the seed does not have.
    settings = [
        LabSettings(),
        LabSettings(lookup="outage"),
        LabSettings(receiver="dedupe", lookup="outage", on_lookup_outage="fail-open"),
    ]
    results = [
        simulate(Scenario(fault=f, mode=m, deliveries=d, settings=s))
        for f in Fault
        for m in Mode
        for d in range(1, top + 1)
        for s in settings
    ]
    # The safeguards against a second worker each need a pause that hands the operation on.
    stall = FaultPlan.of(Injection(attempt=1, point=FaultPoint.PAUSE_IN_REQUEST))
    early = FaultPlan.of(Injection(attempt=1, point=FaultPoint.PAUSE_BEFORE_DISPATCH))
    results += [
        simulate(Scenario(plan=plan, settings=LabSettings(workers=2, **knobs)))
        for plan, knobs in (
            (stall, {"receiver": "dedupe"}),
            (stall, {"claim": "lease", "fencing": "token"}),
            (early, {"claim": "lease"}),
        )
    ]
    assert {r.outcome for r in results} == set(Outcome)
    assert {r.status for r in results} == set(Status)


def test_budget_of_one_delivery_leaves_unknown_and_lost_outcomes() -> None:
    unknown = simulate(Scenario(fault=Fault.CRASH_AFTER_EFFECT, mode=Mode.DURABLE, deliveries=1))
    assert [e.kind.value for e in unknown.events] == [
        "DispatchIntentRecorded", "DebitApplied", "ProcessCrashed", "DeliveryAbandoned"
    ]  # fmt: skip
    assert unknown.outcome is Outcome.UNKNOWN and unknown.counts.effects == 1
    lost = simulate(Scenario(fault=Fault.CRASH_BEFORE_DISPATCH, mode=Mode.NAIVE, deliveries=1))
    assert lost.outcome is Outcome.LOST and lost.status == "Debit never applied"
    kept = simulate(Scenario(fault=Fault.CRASH_AFTER_RECORD, mode=Mode.DURABLE, deliveries=1))
    assert kept.outcome is Outcome.EXACTLY_ONCE, "a result in the durable store is kept"


@given(st.lists(injections, max_size=6))
def test_a_plan_is_a_set_however_it_is_built(items: list[Injection]) -> None:
    direct = FaultPlan(injections=tuple(items))
    assert direct == FaultPlan.of(*reversed(items))
    assert len(direct.injections) == len({(i.attempt, i.point) for i in items})
