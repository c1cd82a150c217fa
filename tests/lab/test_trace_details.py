"""What a trace shows beyond its event kinds: where a failure struck, which key a request
carried, and a status that never hides an abandoned delivery."""

from hypothesis import given
from hypothesis import strategies as st

from asyncfail import Fault, FaultPlan, FaultPoint, Injection, Mode, Scenario, simulate
from asyncfail.lab.events import EventKind
from asyncfail.lab.reading import Status, status_of
from asyncfail.lab.simulation import run_plan
from asyncfail.lab.trace import TraceRecorder

CRASH_POINTS = {
    Fault.CRASH_BEFORE_DISPATCH: "before-dispatch",
    Fault.CRASH_AFTER_EFFECT: "after-effect",
    Fault.CRASH_AFTER_RECORD: "after-record",
}
TIMEOUT_POINTS = {Fault.REQUEST_LOST: "request", Fault.RESPONSE_LOST: "response"}


def test_the_crash_point_is_on_the_crash_event_in_every_mode() -> None:
    for fault, point in CRASH_POINTS.items():
        for mode in Mode:
            doc = simulate(Scenario(fault=fault, mode=mode)).model_dump(mode="json")
            crashes = [e for e in doc["events"] if e["kind"] == "ProcessCrashed"]
            assert [e["point"] for e in crashes] == [point], (fault, mode)
    for fault, point in TIMEOUT_POINTS.items():
        for mode in Mode:
            doc = simulate(Scenario(fault=fault, mode=mode)).model_dump(mode="json")
            timeouts = [e for e in doc["events"] if e["kind"] == "TimeoutObserved"]
            assert [e["point"] for e in timeouts] == [point], (fault, mode)


def test_the_two_naive_crashes_after_the_debit_are_told_apart() -> None:
    # Same kinds in the same order (the seed's lists), different crash points and narration.
    effect = simulate(Scenario(fault=Fault.CRASH_AFTER_EFFECT, mode=Mode.NAIVE))
    record = simulate(Scenario(fault=Fault.CRASH_AFTER_RECORD, mode=Mode.NAIVE))
    assert [e.kind for e in effect.events] == [e.kind for e in record.events]
    assert effect.model_dump(mode="json") != record.model_dump(mode="json")
    crash_effect, crash_record = effect.events[2], record.events[2]
    assert "before the result is recorded" in crash_effect.description
    assert "after the result is recorded" in crash_record.description


def test_events_without_a_point_or_key_leave_them_out_of_the_document() -> None:
    doc = simulate(Scenario(fault=Fault.NONE, mode=Mode.NAIVE)).model_dump(mode="json")
    assert all("point" not in e and "key" not in e for e in doc["events"])


def test_only_a_request_that_carries_a_key_is_narrated_with_one() -> None:
    naive = simulate(Scenario(mode=Mode.NAIVE))
    durable = simulate(Scenario(mode=Mode.DURABLE))
    naive_debit = naive.events[1]
    assert naive_debit.kind is EventKind.DEBIT_APPLIED and naive_debit.key is None
    assert "key" not in naive_debit.description
    durable_debit = durable.events[1]
    assert durable_debit.key == "debit:tenant-a:order-42"
    assert "operation key" in durable_debit.description


def test_an_abandoned_delivery_is_never_reported_as_settled() -> None:
    # The case: the result is recorded, the crash loses the acknowledgement, and the
    # budget of one delivery is spent.
    result = simulate(Scenario(fault=Fault.CRASH_AFTER_RECORD, mode=Mode.DURABLE, deliveries=1))
    assert result.events[-1].kind is EventKind.DELIVERY_ABANDONED
    assert result.status is Status.APPLIED_BUT_ABANDONED


SETTLED = {
    Status.APPLIED_ONCE,
    Status.RECOVERED_BY_KEY,
    Status.RECOVERED_FROM_STORE,
    Status.RETRIED_AFTER_LOOKUP,
}
injections = st.builds(
    Injection, attempt=st.integers(1, 4), point=st.sampled_from(list(FaultPoint))
)


@given(st.sampled_from(list(Mode)), st.lists(injections, max_size=4), st.integers(1, 4))
def test_no_settled_status_ends_in_an_abandoned_delivery(
    mode: Mode, plan: list[Injection], deliveries: int
) -> None:
    events = run_plan(mode, FaultPlan.of(*plan), deliveries)
    if events[-1].kind is EventKind.DELIVERY_ABANDONED:
        assert status_of(events) not in SETTLED


def test_the_recorder_numbers_details_with_the_event() -> None:
    trace = TraceRecorder()
    trace.emit(EventKind.PROCESS_CRASHED, point=FaultPoint.AFTER_EFFECT)
    (event,) = trace.events()
    assert (event.seq, event.point, event.key) == (1, FaultPoint.AFTER_EFFECT, None)


def test_naive_repeats_a_crashed_debit_only_when_the_channel_delivers_again() -> None:
    # DESIGN.md: naive repeats after a crash past the debit only with a budget of two or more.
    for fault in (Fault.CRASH_AFTER_EFFECT, Fault.CRASH_AFTER_RECORD):
        once = simulate(Scenario(fault=fault, mode=Mode.NAIVE, deliveries=1))
        assert (once.counts.effects, once.outcome.value) == (1, "unknown")
        for deliveries in (2, 3):
            again = simulate(Scenario(fault=fault, mode=Mode.NAIVE, deliveries=deliveries))
            assert again.counts.effects == 2
    # A lost reply is retried blindly within the same delivery: two debits with any budget.
    lost = simulate(Scenario(fault=Fault.RESPONSE_LOST, mode=Mode.NAIVE, deliveries=1))
    assert lost.counts.effects == 2
