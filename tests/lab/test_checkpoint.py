"""The checkpoint runtime (a durable engine's step): a hand-derived table per fault x key x
receiver, its key, its refusal of a keyless durable runtime, and the explorer's invariants on
it."""

import pytest

from asyncfail import Fault, Mode, Scenario, simulate
from asyncfail.explore.explorer import explore
from asyncfail.explore.invariants import Invariant
from asyncfail.lab.checkpoint import WORKFLOW_ID
from asyncfail.lab.events import EventKind
from asyncfail.lab.faults import FaultPlan, FaultPoint, Injection
from asyncfail.lab.scenario import SEED_MODES
from asyncfail.lab.settings import LabSettings
from asyncfail.lab.simulation import run_plan
from asyncfail.risk.inputs import RiskInputs
from tests.cli_support import run_main

# Derived by hand from the rules (checkpoint after the call returns; a redelivery re-runs a
# step whose result is not journaled; a timeout is retried once within the delivery; a key is
# honoured only by a dedupe receiver, and only while it is the same key). Columns: attempts,
# effects, tool calls, status. "*" stands for every key and receiver.
D, L = "dedupe", "lookup-only"
ONCE, DUP, DEDUP, REPLAYED = (
    "Debit applied once",
    "Duplicate debit",
    "Deduplicated by the receiver",
    "Recovered from recorded result",
)
TABLE: dict[tuple[str, str, str, str], tuple[int, int, int, str]] = {
    # fault, key, receiver, record
    ("none", "*", "*", "*"): (1, 1, 1, ONCE),
    # the workflow is recorded, the step never ran: the recovery runs it once
    ("crash-before-dispatch", "*", "*", "*"): (2, 1, 1, ONCE),
    # nothing reached the receiver: the step's retry debits once
    ("request-lost", "*", "*", "*"): (1, 1, 2, ONCE),
    # the step's retry repeats the request in the same delivery: the same key, even per attempt
    ("response-lost", "none", "*", "*"): (1, 2, 2, DUP),
    ("response-lost", "stable", L, "*"): (1, 2, 2, DUP),
    ("response-lost", "stable", D, "*"): (1, 1, 2, DEDUP),
    ("response-lost", "per-attempt", L, "*"): (1, 2, 2, DUP),
    ("response-lost", "per-attempt", D, "*"): (1, 1, 2, DEDUP),
    # the seed's crash: no checkpoint, so the recovery runs the step again
    ("crash-after-effect", "none", "*", "*"): (2, 2, 2, DUP),
    ("crash-after-effect", "stable", L, "*"): (2, 2, 2, DUP),
    ("crash-after-effect", "stable", D, "*"): (2, 1, 2, DEDUP),
    ("crash-after-effect", "per-attempt", "*", "*"): (2, 2, 2, DUP),
    # after the checkpoint: the recovery reuses the journaled result
    ("crash-after-record", "*", "*", "*"): (2, 1, 1, REPLAYED),
    # a request without a key never reaches the receiver's record: nothing crashes
    ("receiver-crash-before-record", "none", "*", "*"): (1, 1, 1, ONCE),
    ("receiver-crash-before-record", "stable", "*", "atomic"): (1, 1, 2, ONCE),
    ("receiver-crash-before-record", "stable", "*", "separate"): (1, 2, 2, DUP),
    ("receiver-crash-before-record", "per-attempt", "*", "atomic"): (1, 1, 2, ONCE),
    ("receiver-crash-before-record", "per-attempt", "*", "separate"): (1, 2, 2, DUP),
}


def expected(fault: str, key: str, receiver: str, record: str) -> tuple[int, int, int, str]:
    matches = [
        row
        for (f, k, r, c), row in TABLE.items()
        if f == fault and k in (key, "*") and r in (receiver, "*") and c in (record, "*")
    ]
    assert len(matches) == 1, (fault, key, receiver, record)
    return matches[0]


@pytest.mark.parametrize("record", ["atomic", "separate"])
@pytest.mark.parametrize("receiver", [L, D])
@pytest.mark.parametrize("key", ["none", "stable", "per-attempt"])
@pytest.mark.parametrize("fault", [f.value for f in Fault])
def test_every_fault_key_and_receiver_matches_the_hand_table(
    fault: str, key: str, receiver: str, record: str
) -> None:
    settings = LabSettings.model_validate({"key": key, "receiver": receiver, "record": record})
    result = simulate(Scenario(fault=Fault(fault), mode=Mode.CHECKPOINT, settings=settings))
    c = result.counts
    assert (c.attempts, c.effects, c.tool_calls, result.status.value) == expected(
        fault, key, receiver, record
    )
    assert c.lookups == 0
    kinds = {e.kind for e in result.events}
    assert EventKind.DISPATCH_INTENT_RECORDED not in kinds  # no intent, ever


def test_the_step_key_is_the_workflow_id_and_the_step_position() -> None:
    def keys(key: str) -> set[str | None]:
        settings = LabSettings.model_validate({"key": key})
        events = simulate(Scenario(mode=Mode.CHECKPOINT, settings=settings)).events
        return {
            e.key for e in events if e.kind in {EventKind.TOOL_CALLED, EventKind.TOOL_CALLED_AGAIN}
        }

    assert WORKFLOW_ID == "debit:tenant-a:order-42"
    assert keys("stable") == {"debit:tenant-a:order-42:step-1"}
    assert keys("per-attempt") == {
        "debit:tenant-a:order-42:step-1:attempt-1",
        "debit:tenant-a:order-42:step-1:attempt-2",
    }
    assert keys("none") == {None}


def test_the_seed_crash_replays_the_workflow_and_runs_the_step_again() -> None:
    kinds = [e.kind for e in simulate(Scenario(mode=Mode.CHECKPOINT)).events]
    assert kinds == [
        EventKind.TOOL_CALLED,
        EventKind.DEBIT_APPLIED,
        EventKind.PROCESS_CRASHED,
        EventKind.RUN_REPLAYED,
        EventKind.TOOL_CALLED_AGAIN,
        EventKind.DEBIT_APPLIED_AGAIN,
        EventKind.TOOL_RESULT_RECORDED,
    ]


def test_a_checkpoint_the_journal_cannot_take_releases_the_delivery() -> None:
    # the step ran, its checkpoint failed: the engine retries the workflow, the step runs again
    plan = FaultPlan(injections=(Injection(attempt=1, point=FaultPoint.JOURNAL_WRITE),))
    kinds = [e.kind for e in run_plan(Mode.CHECKPOINT, plan, 3)]
    assert kinds.count(EventKind.DEBIT_APPLIED) + kinds.count(EventKind.DEBIT_APPLIED_AGAIN) == 2
    assert EventKind.STORE_WRITE_FAILED in kinds
    outage = LabSettings(store="outage")
    events = simulate(Scenario(fault=Fault.NONE, mode=Mode.CHECKPOINT, settings=outage)).events
    assert [(e.attempt, e.kind) for e in events][:1] == [(1, EventKind.STORE_WRITE_FAILED)]
    assert sum(e.is_business_effect for e in events) == 1  # not started, so nothing ran


def test_a_durable_runtime_without_a_key_is_refused_everywhere() -> None:
    none = LabSettings(key="none")
    with pytest.raises(ValueError, match="key=none"):
        Scenario(mode=Mode.DURABLE, settings=none)
    with pytest.raises(ValueError, match="key=none"):
        RiskInputs(mode=Mode.DURABLE, settings=none)
    for command in ("lab", "explore", "risk"):
        code, out, err = run_main(command, "--mode", "durable", "--key", "none")
        assert (code, out) == (2, ""), command
        assert f"asyncfail {command}: error: key=none" in err
        assert "Traceback" not in err
    for mode in (Mode.NAIVE, Mode.CHECKPOINT):
        Scenario(mode=mode, settings=none)  # accepted


def test_the_seeds_runtimes_are_still_the_pair_set_side_by_side() -> None:
    assert SEED_MODES == (Mode.NAIVE, Mode.DURABLE)
    code, out, _ = run_main("lab", "--all", "--format", "text")
    assert code == 0 and "checkpoint runtime" not in out


def test_the_explorer_finds_the_engine_step_at_least_once_and_its_statuses_truthful() -> None:
    exploration = explore(Mode.CHECKPOINT, LabSettings(), 3, 2)
    reports = {r.name: r for r in exploration.invariants}
    broken = reports[Invariant.AT_MOST_ONCE]
    assert broken.counterexample is not None
    assert broken.counterexample.command == "asyncfail lab --plan 1:response --mode checkpoint"
    assert reports[Invariant.NO_SILENT_LOSS].violations == 0
    assert reports[Invariant.TRUTHFUL_STATUS].violations == 0
    # a key the receiver honours closes every two-fault plan, while the record is atomic
    keyed = explore(Mode.CHECKPOINT, LabSettings(receiver="dedupe"), 3, 2)
    assert all(r.violations == 0 for r in keyed.invariants)
    apart = explore(Mode.CHECKPOINT, LabSettings(receiver="dedupe", record="separate"), 3, 2)
    found = {r.name: r for r in apart.invariants}[Invariant.AT_MOST_ONCE].counterexample
    assert found is not None
    assert [i.point for i in found.plan] == [FaultPoint.RECEIVER_BEFORE_RECORD]


def test_no_key_breaks_the_seeds_stable_key_assumption_and_nothing_else() -> None:
    settings = LabSettings(key="none")
    broken = simulate(Scenario(mode=Mode.CHECKPOINT, settings=settings)).broken_assumptions
    assert [(b.assumption, b.by) for b in broken] == [
        (2, ("key none: requests carry no operation key at all",))
    ]


# ``step_retries=off`` (DBOS's default), derived by hand: a call without a reply fails the step,
# the workflow ends in error and is never run again, so every later delivery is released
# without a call until the channel gives up (three deliveries). Only the faults that leave a
# call without a reply differ from ``once``. Columns as ``TABLE``'s.
NEVER, UNKNOWN = "Debit never applied", "Outcome unknown"
STEP_RETRIES_OFF: dict[tuple[str, str, str], tuple[int, int, int, str]] = {
    # fault, key, record
    ("request-lost", "*", "*"): (3, 0, 1, NEVER),
    ("response-lost", "*", "*"): (3, 1, 1, UNKNOWN),  # debited, and nothing knows it
    ("receiver-crash-before-record", "none", "*"): (1, 1, 1, ONCE),  # nothing crashes
    ("receiver-crash-before-record", "stable", "atomic"): (3, 0, 1, NEVER),
    ("receiver-crash-before-record", "stable", "separate"): (3, 1, 1, UNKNOWN),
}


@pytest.mark.parametrize("record", ["atomic", "separate"])
@pytest.mark.parametrize("receiver", [L, D])
@pytest.mark.parametrize("key", ["none", "stable"])
@pytest.mark.parametrize("fault", [f.value for f in Fault])
def test_a_step_that_may_not_retry_fails_the_workflow_for_good(
    fault: str, key: str, receiver: str, record: str
) -> None:
    given = {"key": key, "receiver": receiver, "record": record}
    off = simulate(
        Scenario(
            fault=Fault(fault),
            mode=Mode.CHECKPOINT,
            settings=LabSettings.model_validate(given | {"step_retries": "off"}),
        )
    )
    rows = [
        row
        for (f, k, c), row in STEP_RETRIES_OFF.items()
        if f == fault and k in (key, "*") and c in (record, "*")
    ]
    kinds = [e.kind for e in off.events]
    if not rows:  # every call got its reply: the retry policy never came into play
        assert (
            off.events
            == simulate(
                Scenario(
                    fault=Fault(fault),
                    mode=Mode.CHECKPOINT,
                    settings=LabSettings.model_validate(given),
                )
            ).events
        )
        assert EventKind.WORKFLOW_FAILED not in kinds
        return
    (row,) = rows
    c = off.counts
    assert (c.attempts, c.effects, c.tool_calls, off.status.value) == row
    if row[0] == 3:
        assert kinds.count(EventKind.WORKFLOW_FAILED) == 1
        assert kinds.count(EventKind.RUN_REPLAYED) == 2  # found in error, not run again
        assert kinds[-1] is EventKind.DELIVERY_ABANDONED
        assert EventKind.TOOL_RESULT_RECORDED not in kinds


def test_step_retries_off_is_an_option_of_lab_explore_and_risk() -> None:
    for command in ("lab", "explore", "risk"):
        code, out, err = run_main(command, "--mode", "checkpoint", "--step-retries", "off")
        assert (code, err) == (0, ""), command
        assert '"step_retries": "off"' in out, command
    code, _, err = run_main("lab", "--step-retries", "twice")
    assert code == 2 and "--step-retries" in err and "once" in err and "off" in err


def test_the_explorer_finds_what_dbos_default_step_costs() -> None:
    exploration = explore(Mode.CHECKPOINT, LabSettings(step_retries="off"), 3, 2)
    reports = {r.name: r for r in exploration.invariants}
    lost = reports[Invariant.NO_SILENT_LOSS].counterexample
    assert lost is not None
    assert lost.command == "asyncfail lab --plan 1:request --mode checkpoint --step-retries off"
    assert reports[Invariant.TRUTHFUL_STATUS].violations == 0
