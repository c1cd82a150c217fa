"""``simulate`` keeps what it ran: a scenario asked again gets the same result back (a lesson's
recompute in the browser skips every run it made before), equal to running it afresh."""

from asyncfail.lab.faults import Fault, parse_plan
from asyncfail.lab.scenario import Mode, Scenario
from asyncfail.lab.settings import LabSettings
from asyncfail.lab.simulation import SIMULATED, simulate, simulate_each_mode


def test_a_scenario_asked_again_is_not_run_again() -> None:
    simulate.cache_clear()
    first = simulate(Scenario(fault=Fault.RESPONSE_LOST, settings=LabSettings(key="per-attempt")))
    # An equal scenario built anew (a lesson's control set back) gets the same result object.
    again = simulate(Scenario(fault=Fault.RESPONSE_LOST, settings=LabSettings(key="per-attempt")))
    assert again is first
    assert simulate.cache_info().hits == 1 and simulate.cache_info().misses == 1


def test_the_kept_result_is_the_run_itself() -> None:
    # The oracle: the undecorated function, run afresh for each scenario.
    run_afresh = simulate.__wrapped__
    scenarios = [
        Scenario(fault=fault, mode=mode) for fault in Fault for mode in (Mode.NAIVE, Mode.DURABLE)
    ]
    scenarios.append(Scenario(plan=parse_plan("1:after-effect,2:before-dispatch"), fault=None))
    for scenario in scenarios:
        simulate(scenario)
    for scenario in scenarios:
        assert simulate(scenario) == run_afresh(scenario)


def test_scenarios_that_differ_in_one_field_are_run_apart() -> None:
    base = Scenario(fault=Fault.CRASH_AFTER_EFFECT)
    changed = [
        base.model_copy(update={"mode": Mode.NAIVE}),
        base.model_copy(update={"deliveries": base.deliveries + 1}),
        base.model_copy(update={"settings": LabSettings(record="separate")}),
        base.model_copy(update={"fault": Fault.RESPONSE_LOST}),
    ]
    results = [simulate(s) for s in [base, *changed]]
    assert len({id(r) for r in results}) == len(results)
    assert [r.mode for r in results][:2] == [Mode.DURABLE, Mode.NAIVE]
    assert results[2].deliveries == base.deliveries + 1


def test_the_cache_is_bounded() -> None:
    simulate.cache_clear()
    for deliveries in range(1, 10):
        for fault in Fault:
            simulate_each_mode(Scenario(fault=fault, deliveries=deliveries))
    assert simulate.cache_info().maxsize == SIMULATED
    assert simulate.cache_info().currsize <= SIMULATED
