"""The replay-readiness checklist: every check in every state, durations, and the report."""

from decimal import Decimal
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from asyncfail.contract.experiment import ContractScenario, evaluate
from asyncfail.contract.rules import Finding, RecordState
from asyncfail.contract.terms import KeyScope
from asyncfail.ground.durations import MAX_SECONDS, UNIT_SECONDS, TimeUnit
from asyncfail.ground.prose import echoed
from asyncfail.ground.seed import RECOMMENDATIONS, Priority, RecommendationId
from asyncfail.readiness.checks import CHECKS
from asyncfail.readiness.design import (
    MAX_TEXT,
    Answer,
    ReplayDesign,
    StatedDuration,
    design_from_answers,
    open_questions,
)
from asyncfail.readiness.report import ReadinessReport, assess
from asyncfail.readiness.verdict import CheckId, CheckStatus, ContractRule

MET, UNMET, UNKNOWN = CheckStatus.MET, CheckStatus.UNMET, CheckStatus.UNKNOWN


def hours(amount: str | int) -> StatedDuration:
    return StatedDuration(amount=Decimal(amount), unit=TimeUnit.HOURS)


def status(check: CheckId, **answers: Any) -> CheckStatus:
    return assess(ReplayDesign(**answers)).check(check).status


def reason(check: CheckId, **answers: Any) -> str:
    return assess(ReplayDesign(**answers)).check(check).reason


OWNERS = {"pause_owner": "Payments on-call", "replay_approver": "Ledger lead",
          "state_verifier": "Finance ops"}  # fmt: skip

# (check, answers, expected status): each check in each of its three states, several ways.
KEY, OUTCOME, RETENTION = (
    RecommendationId.KEY_ACROSS_ATTEMPTS,
    RecommendationId.UNKNOWN_OUTCOME,
    RecommendationId.RETENTION_COVERS_REPLAY,
)
OWNER, SCOPE, PRINT = (
    RecommendationId.RECOVERY_OWNER,
    ContractRule.KEY_SCOPE,
    ContractRule.FINGERPRINT,
)
CASES: list[tuple[CheckId, dict[str, Any], CheckStatus]] = [
    # P0: one operation key across every delivery attempt
    (KEY, {"key_across_attempts": "yes", "key_scope": "tenant-operation"}, MET),
    (KEY, {"key_across_attempts": "yes", "key_scope": "operation"}, MET),
    (KEY, {"key_across_attempts": "no", "key_scope": "tenant-operation"}, UNMET),
    (KEY, {"key_across_attempts": "no"}, UNMET),
    (KEY, {"key_across_attempts": "yes", "key_scope": "attempt"}, UNMET),
    (KEY, {"key_scope": "attempt"}, UNMET),
    (KEY, {}, UNKNOWN),
    (KEY, {"key_across_attempts": "yes"}, UNKNOWN),
    (KEY, {"key_scope": "tenant-operation"}, UNKNOWN),
    # P0: an unknown outcome is represented, and reconciled by lookup
    (OUTCOME, {"unknown_outcome_separate": "yes", "lookup_by_key": "yes"}, MET),
    (OUTCOME, {"unknown_outcome_separate": "no", "lookup_by_key": "yes"}, UNMET),
    (OUTCOME, {"unknown_outcome_separate": "yes", "lookup_by_key": "no"}, UNMET),
    (OUTCOME, {"unknown_outcome_separate": "no"}, UNMET),
    (OUTCOME, {"unknown_outcome_separate": "yes"}, UNKNOWN),
    (OUTCOME, {"lookup_by_key": "yes"}, UNKNOWN),
    (OUTCOME, {}, UNKNOWN),
    # P1: retention covers the replay window (through the contract experiment)
    (RETENTION, {"retention": hours(48), "replay_window": hours(24)}, MET),
    (RETENTION, {"retention": hours(1), "replay_window": hours(2)}, UNMET),
    (RETENTION, {"retention": hours(24), "replay_window": hours(24)}, UNMET),
    (RETENTION, {"retention": hours(24)}, UNKNOWN),
    (RETENTION, {"replay_window": hours(24)}, UNKNOWN),
    (RETENTION, {}, UNKNOWN),
    # P1: recovery owner and required evidence
    (OWNER, {**OWNERS, "lookup_by_key": "yes"}, MET),
    (OWNER, {**OWNERS, "lookup_by_key": "no"}, UNMET),
    (OWNER, {"lookup_by_key": "no"}, UNMET),
    (OWNER, {**OWNERS}, UNKNOWN),
    (OWNER, {**OWNERS, "state_verifier": " \n\t", "lookup_by_key": "yes"}, UNKNOWN),
    (OWNER, {"lookup_by_key": "yes"}, UNKNOWN),
    # Contract: the key's identity is (tenant, operation)
    (SCOPE, {"key_scope": "tenant-operation"}, MET),
    (SCOPE, {"key_scope": "tenant-operation", "fingerprint_compared": "no"}, MET),
    (SCOPE, {"key_scope": "operation", "fingerprint_compared": "yes"}, UNMET),
    (SCOPE, {"key_scope": "operation"}, UNMET),
    (SCOPE, {"key_scope": "attempt"}, UNMET),
    (SCOPE, {}, UNKNOWN),
    # Contract: a reused key with another payload is compared
    (PRINT, {"fingerprint_compared": "yes"}, MET),
    (PRINT, {"fingerprint_compared": "no"}, UNMET),
    (PRINT, {}, UNKNOWN),
]  # fmt: skip


@pytest.mark.parametrize(("check", "answers", "expected"), CASES)
def test_check_status(check: CheckId, answers: dict[str, Any], expected: CheckStatus) -> None:
    assert status(check, **answers) is expected


def test_every_check_is_tested_in_every_state() -> None:
    covered = {(check, expected) for check, _, expected in CASES}
    assert covered == {(check, s) for check in CHECKS for s in CheckStatus}


def test_the_four_recommendations_come_first_with_the_seeds_priorities() -> None:
    checks = assess(ReplayDesign()).checks
    assert [c.id for c in checks] == list(CHECKS)
    assert [(c.priority, c.title) for c in checks[:4]] == [
        (r.priority, r.title) for r in RECOMMENDATIONS.values()
    ]
    assert [c.priority for c in checks[4:]] == [None, None]
    assert {r.priority for r in RECOMMENDATIONS.values()} == {Priority.P0, Priority.P1}


# ---------------------------------------------------------------------------------------------
# Reasons in the learner's own terms


def test_reasons_quote_the_owners_by_name() -> None:
    text = reason(RecommendationId.RECOVERY_OWNER, **OWNERS, lookup_by_key="yes")
    assert "\u201cPayments on-call\u201d can pause dispatch" in text
    assert "\u201cLedger lead\u201d can approve replay" in text
    assert "\u201cFinance ops\u201d can verify the final business state" in text


def test_missing_owners_are_named_as_open_questions() -> None:
    text = reason(RecommendationId.RECOVERY_OWNER, pause_owner="SRE rota", lookup_by_key="yes")
    assert "\u201cSRE rota\u201d can pause dispatch" in text
    assert "who can approve replay" in text and "who can verify the final business state" in text


def test_no_lookup_means_no_evidence_for_the_owners() -> None:
    text = reason(RecommendationId.RECOVERY_OWNER, **OWNERS, lookup_by_key="no")
    assert "\u201cLedger lead\u201d" in text and "no lookup by operation key" in text


def test_retention_reason_uses_the_learners_units_and_the_contracts_verdict() -> None:
    text = reason(
        RecommendationId.RETENTION_COVERS_REPLAY,
        retention=StatedDuration(amount=36, unit=TimeUnit.HOURS),
        replay_window=StatedDuration(amount=2, unit=TimeUnit.DAYS),
    )
    assert "kept for 36 hours (129,600 seconds)" in text
    assert "replay window is 2 days (172,800 seconds)" in text
    assert "finds the record expired" in text
    assert Finding.APPLIED_TWICE_RECORD_EXPIRED.value.lower() in text
    assert "(2 effects)" in text


def test_equal_retention_and_window_names_the_boundary_rule() -> None:
    day, hours = StatedDuration(amount=1, unit="days"), StatedDuration(amount=24, unit="hours")
    report = assess(ReplayDesign(retention=day, replay_window=hours))
    check = report.check(RecommendationId.RETENTION_COVERS_REPLAY)
    assert check.status is UNMET
    (probe,) = check.probes
    assert "exactly equal" in check.reason
    assert probe.result.boundary_rule in check.reason


def test_key_reasons_speak_of_the_stated_scope() -> None:
    text = reason(
        RecommendationId.KEY_ACROSS_ATTEMPTS, key_across_attempts="yes", key_scope="attempt"
    )
    assert "scoped to the delivery attempt, so it changes on every redelivery" in text
    assert "although you answered yes" in text
    assert Finding.APPLIED_TWICE_KEY_PER_ATTEMPT.value.lower() in text
    text = reason(ContractRule.KEY_SCOPE, key_scope="operation", fingerprint_compared="no")
    assert Finding.OTHER_TENANTS_RESULT.value.lower() in text


def test_unknown_fingerprint_shows_both_outcomes() -> None:
    report = assess(ReplayDesign())
    check = report.check(ContractRule.FINGERPRINT)
    findings = [p.result.finding for p in check.probes]
    assert findings == [Finding.CONFLICT_REJECTED, Finding.CONFLICT_HIDDEN]
    assert all(f.value.lower() in check.reason for f in findings)


# ---------------------------------------------------------------------------------------------
# The contract experiment decides; this module does not restate its rules


durations = (
    st.tuples(st.decimals(min_value=0, max_value=40, places=3), st.sampled_from(TimeUnit))
    .filter(lambda pair: pair[0] * UNIT_SECONDS[pair[1]] <= MAX_SECONDS)
    .map(lambda pair: StatedDuration(amount=pair[0], unit=pair[1]))
)


@settings(max_examples=200, deadline=None)
@given(durations, durations)
def test_retention_check_is_the_contract_experiments_verdict(
    retention: StatedDuration, window: StatedDuration
) -> None:
    check = assess(ReplayDesign(retention=retention, replay_window=window)).check(
        RecommendationId.RETENTION_COVERS_REPLAY
    )
    (probe,) = check.probes
    direct = evaluate(
        ContractScenario(retention_seconds=retention.duration, delay_seconds=window.duration)
    )
    assert probe.result == direct
    assert (check.status is MET) is (direct.record is RecordState.RETAINED)
    assert (check.status is UNMET) is (direct.effects == 2)
    # The seed's convention, stated independently: retained only while delay < retention.
    assert (check.status is MET) is (window.seconds < retention.seconds)


@pytest.mark.parametrize(
    ("retention", "window", "expected"),
    [
        (StatedDuration(amount=1, unit="days"), StatedDuration(amount=24, unit="hours"), UNMET),
        (StatedDuration(amount=1, unit="days"), StatedDuration(amount=1440, unit="minutes"), UNMET),
        (
            StatedDuration(amount=1, unit="days"),
            StatedDuration(amount="86399.999", unit="seconds"),
            MET,
        ),
        (
            StatedDuration(amount="1.1", unit="hours"),
            StatedDuration(amount=3960, unit="seconds"),
            UNMET,
        ),
        (
            StatedDuration(amount=1.1, unit="hours"),
            StatedDuration(amount="3959.999", unit="seconds"),
            MET,
        ),
        (
            StatedDuration(amount=0.07, unit="hours"),
            StatedDuration(amount="4.2", unit="minutes"),
            UNMET,
        ),
        (StatedDuration(amount="1.5", unit="days"), StatedDuration(amount=36, unit="hours"), UNMET),
        (StatedDuration(amount=30, unit="days"), StatedDuration(amount=720, unit="hours"), UNMET),
        (
            StatedDuration(amount=30, unit="days"),
            StatedDuration(amount="719.999", unit="hours"),
            MET,
        ),
        (StatedDuration(amount=0, unit="seconds"), StatedDuration(amount=0, unit="days"), UNMET),
    ],
)
def test_unit_conversions_are_exact_at_the_boundary(
    retention: StatedDuration, window: StatedDuration, expected: CheckStatus
) -> None:
    got = status(
        RecommendationId.RETENTION_COVERS_REPLAY, retention=retention, replay_window=window
    )
    assert got is expected


def test_binary_floats_would_have_moved_the_boundary() -> None:
    # Why durations are decimals: 1.1 h in floats is a hair over 3,960 s.
    assert 1.1 * 3600 > 3960
    assert StatedDuration(amount=1.1, unit="hours").seconds == 3960
    assert (
        status(
            RETENTION,
            retention=StatedDuration(amount=1.1, unit="hours"),
            replay_window=StatedDuration(amount=3960, unit="seconds"),
        )
        is UNMET
    )


# ---------------------------------------------------------------------------------------------
# Durations


@pytest.mark.parametrize(
    ("amount", "unit", "seconds", "words"),
    [
        (1, "seconds", 1, "1 second"),
        (90, "seconds", 90, "90 seconds"),
        (1, "minutes", 60, "1 minute (60 seconds)"),
        ("1.0", "hours", 3600, "1 hour (3,600 seconds)"),
        ("1.5", "hours", 5400, "1.5 hours (5,400 seconds)"),
        (36, "hours", 129_600, "36 hours (129,600 seconds)"),
        (1, "days", 86_400, "1 day (86,400 seconds)"),
        (30, "days", 2_592_000, "30 days (2,592,000 seconds)"),
        ("0.001", "seconds", Decimal("0.001"), "0.001 seconds"),
        ("-0", "seconds", 0, "0 seconds"),
        ("1E+2", "seconds", 100, "100 seconds"),
    ],
)
def test_durations_convert_exactly_and_read_as_typed(
    amount: object, unit: str, seconds: object, words: str
) -> None:
    duration = StatedDuration.model_validate({"amount": amount, "unit": unit})
    assert duration.seconds == seconds
    assert duration.describe() == words


@pytest.mark.parametrize(
    ("amount", "unit", "message"),
    [
        (-1, "seconds", "greater than or equal to 0"),
        (float("nan"), "seconds", "finite"),
        (float("inf"), "days", "finite"),
        (True, "seconds", "Decimal input"),
        ("ten", "seconds", "decimal"),
        ("2592000.001", "seconds", "longer than"),
        ("720.001", "hours", "longer than"),
        ("30.00001", "days", "longer than"),
        (31, "days", "longer than"),
        ("0.0001", "seconds", "milliseconds"),
        (1, "weeks", "seconds"),
    ],
)
def test_bad_durations_are_rejected_clearly(amount: object, unit: str, message: str) -> None:
    with pytest.raises(ValidationError, match=message):
        StatedDuration.model_validate({"amount": amount, "unit": unit})


def test_the_upper_bound_is_the_contract_experiments() -> None:
    assert StatedDuration(amount=MAX_SECONDS, unit="seconds").seconds == MAX_SECONDS
    with pytest.raises(ValidationError):
        StatedDuration(amount=MAX_SECONDS + 1, unit="seconds")


# ---------------------------------------------------------------------------------------------
# The design model


def test_design_is_frozen_and_rejects_unknown_fields_and_values() -> None:
    design = ReplayDesign()
    with pytest.raises(ValidationError):
        design.pause_owner = "x"  # type: ignore[misc]
    with pytest.raises(ValidationError, match="extra"):
        ReplayDesign(favourite_colour="blue")  # type: ignore[call-arg]
    with pytest.raises(ValidationError, match="'yes', 'no' or 'unknown'"):
        ReplayDesign(lookup_by_key="maybe")  # type: ignore[arg-type]
    with pytest.raises(ValidationError, match="tenant-operation"):
        ReplayDesign(key_scope="tenant")  # type: ignore[arg-type]


def test_free_text_up_to_the_limit_is_accepted_and_beyond_it_rejected() -> None:
    ReplayDesign(pause_owner="x" * MAX_TEXT)
    with pytest.raises(ValidationError, match=f"at most {MAX_TEXT} characters"):
        ReplayDesign(pause_owner="x" * (MAX_TEXT + 1))


def test_open_questions_list_every_unanswered_input() -> None:
    assert len(open_questions(ReplayDesign())) == 10
    complete = ReplayDesign(
        key_across_attempts=Answer.YES,
        key_scope=KeyScope.TENANT_OPERATION,
        unknown_outcome_separate=Answer.YES,
        lookup_by_key=Answer.NO,
        retention=hours(1),
        replay_window=hours(2),
        fingerprint_compared=Answer.NO,
        **OWNERS,
    )
    assert open_questions(complete) == ()
    partial = complete.model_copy(update={"replay_window": None, "replay_approver": "  "})
    assert open_questions(partial) == (
        "What is the longest replay window?",
        "Who can approve replay?",
    )


def test_report_is_derived_from_the_design_alone() -> None:
    design = ReplayDesign(key_scope="operation", fingerprint_compared="yes")
    report = assess(design)
    assert report == ReadinessReport(design=design)
    assert sum(report.tally().values()) == len(report.checks) == len(CHECKS)
    dumped = report.model_dump(mode="json")
    assert [c["id"] for c in dumped["checks"]] == [c.value for c in CHECKS]
    assert dumped["unknowns"] == list(report.unknowns)
    assert ReadinessReport.model_validate({"design": dumped["design"]}) == report


def test_contract_probes_say_which_key_they_assume_when_the_learners_differs() -> None:
    def reasons(scope: KeyScope) -> list[str]:
        report = assess(
            ReplayDesign(
                key_scope=scope,
                retention=StatedDuration(amount=48, unit=TimeUnit.HOURS),
                replay_window=StatedDuration(amount=24, unit=TimeUnit.HOURS),
            )
        )
        checks = (RecommendationId.RETENTION_COVERS_REPLAY, ContractRule.FINGERPRINT)
        return [report.check(c).reason for c in checks]

    for reason in reasons(KeyScope.ATTEMPT):
        assert reason.endswith("(the delivery attempt) see the key checks, which decide first.")
    for reason in reasons(KeyScope.TENANT_OPERATION):
        assert "see the key checks" not in reason


def test_every_retention_reason_states_the_rule_in_force() -> None:
    # The seed's title says "at least as long"; under its own convention equal is not enough,
    # so the reason always says which rule decided.
    for window in ("23", "24", "25"):
        check = assess(
            ReplayDesign(
                retention=StatedDuration(amount=24, unit="hours"),
                replay_window=StatedDuration(amount=window, unit="hours"),
            )
        ).check(RecommendationId.RETENTION_COVERS_REPLAY)
        assert "The rule in force: " in check.reason
        assert "strictly longer" in check.reason


@pytest.mark.parametrize("owner", ["a\ud800b", "\udfff", "team \udc80"])
def test_a_lone_surrogate_in_an_owner_is_one_line_naming_the_question(owner: str) -> None:
    # A browser's text box can send half of a UTF-16 pair; pydantic refuses it as a string.
    design, errors = design_from_answers({"pause_owner": owner, "replay_approver": "Ops"})
    assert errors == (
        f"Who can pause dispatch: {echoed(owner)} holds a character that is not text (a lone "
        "surrogate, U+D800 to U+DFFF); give a name or team in plain text",
    )
    assert design.pause_owner == "" and design.replay_approver == "Ops"


@pytest.mark.parametrize(
    ("amount", "unit"), [("9" * 400, "hours"), ("9" * 21, "seconds"), ("1" + "0" * 30, "days")]
)
def test_an_amount_of_hundreds_of_digits_is_out_of_range_not_a_rounded_number(
    amount: str, unit: str
) -> None:
    _, errors = design_from_answers({"retention": (amount, unit)})
    (error,) = errors
    assert error.startswith(f"Retention: {echoed(amount)} is longer than 30 days (2,592,000 ")
    assert "10,000,000" not in error and "E+" not in error


def test_an_amount_of_twenty_digits_is_described_in_the_learners_terms() -> None:
    _, errors = design_from_answers({"retention": ("9" * 20, "hours")})
    assert errors[0].startswith(
        "Retention: 99,999,999,999,999,999,999 hours (359,999,999,999,999,999,996,400 seconds) "
        "is longer than 30 days"
    )
