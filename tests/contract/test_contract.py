"""The contract experiment against its stated rules: every combination, the seed's row, bounds.

The expectations below are an independent oracle written from the rules in the docstrings of
``asyncfail.contract.rules`` (which keys collide, when a record is retained, what is reused),
not computed by the code under test.
"""

import itertools
import json
import math
from decimal import Decimal

import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from pydantic import ValidationError

from asyncfail.contract.experiment import ContractScenario, evaluate
from asyncfail.contract.requests import canonical_json
from asyncfail.contract.rules import Disposition, Finding, RecordState
from asyncfail.contract.terms import ContractProfile, KeyScope, PayloadPolicy, SecondRequest
from asyncfail.ground.durations import MAX_SECONDS, Duration
from asyncfail.ground.retention import BoundaryConvention

SCOPES = ["attempt", "operation", "tenant-operation"]
SECONDS = ["same-intent", "different-amount", "other-tenant", "new-operation"]
POLICIES = ["enforce", "ignore"]
PROFILES = ["ietf-draft", "stripe", "brandur-postgres", "powertools"]
BOUNDARIES = ["expired-at-boundary", "retained-at-boundary"]

# Which second requests carry the first request's key. A key of the attempt id changes per
# attempt; the operation id alone is shared by tenant-b's order-42; (tenant, operation) is
# shared only by tenant-a's order-42.
SHARES_KEY = {
    "attempt": set(),
    "operation": {"same-intent", "different-amount", "other-tenant"},
    "tenant-operation": {"same-intent", "different-amount"},
}

# (retention, delay) just below, exactly at and just above the boundary, whole and fractional,
# one millisecond apart where it matters (exact text: a float would round).
TIMINGS = {
    "below": [(1, 0), (3600, 3599), ("90.5", "90.25"), (MAX_SECONDS, "2591999.999")],
    "at": [(0, 0), (3600, 3600), ("90.5", "90.5"), (MAX_SECONDS, MAX_SECONDS)],
    "above": [(0, 1), ("3599.999", 3600), ("90.5", "90.501"), (0, MAX_SECONDS)],
}

# The finding for (second request, disposition, record), written out by hand.
FINDINGS = {
    ("same-intent", "reused", "retained"): "Same intent reused its retained result",
    ("same-intent", "applied", "expired"): "One intent applied twice because the record expired",
    ("same-intent", "applied", "never-stored"):
        "One intent applied twice because the key changed per attempt",
    ("different-amount", "conflict", "retained"): "Conflicting reuse rejected",
    ("different-amount", "reused", "retained"):
        "Conflicting request hidden behind a previous result",
    ("different-amount", "applied", "expired"):
        "Conflicting request applied because the record expired",
    ("different-amount", "applied", "never-stored"):
        "Conflicting request applied because the key changed per attempt",
    ("other-tenant", "conflict", "retained"):
        "Another tenant's new intent rejected because the key omits the tenant",
    ("other-tenant", "reused", "retained"): "One tenant received another tenant's result",
    ("other-tenant", "applied", "expired"): "New intent correctly applied",
    ("other-tenant", "applied", "never-stored"): "New intent correctly applied",
    ("new-operation", "applied", "never-stored"): "New intent correctly applied",
}  # fmt: skip
CORRECT = {
    "Same intent reused its retained result",
    "New intent correctly applied",
    "Conflicting reuse rejected",
}
REJECTIONS = {
    "ietf-draft": {"status_code": 422, "error": "Idempotency-Key is already used"},
    "stripe": {"status_code": 400, "error": "idempotency_error"},
    "brandur-postgres": {
        "status_code": 409,
        "error": "There was a mismatch between this request's parameters and the parameters "
        "of a previously stored request with the same Idempotency-Key.",
    },
    "powertools": {"status_code": None, "error": "IdempotencyValidationError"},
}


def expected_record(scope: str, second: str, timing: str, boundary: str) -> str:
    if second not in SHARES_KEY[scope]:
        return "never-stored"
    if timing == "at":
        return "expired" if boundary == "expired-at-boundary" else "retained"
    return "retained" if timing == "below" else "expired"


def expected_disposition(record: str, second: str, policy: str) -> str:
    if record != "retained":
        return "applied"
    if second == "same-intent" or policy == "ignore":
        return "reused"
    return "conflict"


def scenario(**fields: object) -> ContractScenario:
    return ContractScenario.model_validate(fields)


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("second", SECONDS)
@pytest.mark.parametrize("scope", SCOPES)
def test_every_combination_follows_the_stated_rules(scope: str, second: str, policy: str) -> None:
    for boundary, profile, (timing, pairs) in itertools.product(
        BOUNDARIES, PROFILES, TIMINGS.items()
    ):
        for retention, delay in pairs:
            inputs = dict(
                scope=scope, second=second, policy=policy, profile=profile, boundary=boundary,
                retention_seconds=retention, delay_seconds=delay,
            )  # fmt: skip
            doc = evaluate(scenario(**inputs)).model_dump(mode="json")
            if profile == "powertools":
                # Powertools reads expiry in whole epoch seconds (issue 20): the model writes at
                # the start of a second, so both sides are compared truncated to seconds.
                ticks = int(Decimal(str(delay))), int(Decimal(str(retention)))
                timing = (
                    "below" if ticks[0] < ticks[1] else "at" if ticks[0] == ticks[1] else "above"
                )
            record = expected_record(scope, second, timing, boundary)
            disposition = expected_disposition(record, second, policy)
            finding = FINDINGS[(second, disposition, record)]
            assert (doc["record"], doc["disposition"], doc["finding"]) == (
                record,
                disposition,
                finding,
            ), inputs
            assert doc["effects"] == (2 if disposition == "applied" else 1), inputs
            assert doc["one_intent"] is (second == "same-intent")
            assert doc["correct"] is (finding in CORRECT)
            assert doc["rejection"] == (REJECTIONS[profile] if disposition == "conflict" else None)
            assert doc["settings"]["boundary"] == boundary, "every result states its convention"


def test_the_matrix_reaches_every_finding_and_only_those() -> None:
    seen = set()
    for scope, second, policy, boundary in itertools.product(SCOPES, SECONDS, POLICIES, BOUNDARIES):
        for retention, delay in (pair for pairs in TIMINGS.values() for pair in pairs):
            result = evaluate(
                scenario(
                    scope=scope, second=second, policy=policy, boundary=boundary,
                    retention_seconds=retention, delay_seconds=delay,
                )
            )  # fmt: skip
            seen.add(result.finding.value)
    assert seen == set(FINDINGS.values()) == {f.value for f in Finding}
    assert len(seen) == 10


def test_seed_example_row_exactly(seed_page: str) -> None:
    result = evaluate(ContractScenario())
    assert result.settings.scope is KeyScope.TENANT_OPERATION
    assert result.scenario.second is SecondRequest.SAME_INTENT
    assert result.record is RecordState.RETAINED
    assert result.disposition is Disposition.REUSED
    assert result.effects == 1
    assert result.one_intent is True
    assert result.finding == "Same intent reused its retained result"
    assert result.finding in seed_page
    first, second = result.requests
    for row, attempt in ((first, 1), (second, 2)):
        assert row.attempt == attempt
        assert row.business_identity == "tenant-a / order-42"
        assert row.amount_minor_units == 1200
        assert row.receiver_key == '["tenant-a","order-42"]'
        assert row.fingerprint_tuple == '["tenant-a","order-42",1200]'
        # The seed's table row, tab-separated, with its backquoted keys.
        line = (
            f"{row.attempt}\t{row.business_identity}\t{row.amount_minor_units}\t"
            f"`{row.receiver_key}`\t`{row.fingerprint_tuple}`"
        )
        assert line in seed_page


def test_defaults_are_the_seeds_example() -> None:
    result = evaluate(ContractScenario())
    doc = result.model_dump(mode="json")
    # Asked: nothing but the profile, the second request and its delay; every knob the profile's.
    assert doc["scenario"] == {
        "profile": "ietf-draft",
        "second": "same-intent",
        "delay_seconds": 60,
        "scope": None,
        "policy": None,
        "retention_seconds": None,
        "boundary": None,
    }
    # In force: the seed's example (the draft publishes no scope, retention or boundary rule).
    assert doc["settings"] == {
        "scope": "tenant-operation",
        "policy": "enforce",
        "retention": 3600,
        "boundary": "expired-at-boundary",
    }
    assert doc["departures"] == []


A_42 = '["tenant-a","order-42"]'


@pytest.mark.parametrize(
    ("scope", "second", "keys"),
    [
        ("attempt", "same-intent", ('["attempt-1"]', '["attempt-2"]')),
        ("operation", "other-tenant", ('["order-42"]', '["order-42"]')),
        ("tenant-operation", "other-tenant", (A_42, '["tenant-b","order-42"]')),
        ("tenant-operation", "new-operation", (A_42, '["tenant-a","order-43"]')),
    ],
)
def test_receiver_keys_follow_the_scope(scope: str, second: str, keys: tuple[str, str]) -> None:
    rows = evaluate(scenario(scope=scope, second=second)).requests
    assert (rows[0].receiver_key, rows[1].receiver_key) == keys


def test_second_requests_are_the_fixed_fictional_ones() -> None:
    rows = {second: evaluate(scenario(second=second)).requests[1] for second in SECONDS}
    assert rows["different-amount"].fingerprint_tuple == '["tenant-a","order-42",1500]'
    assert rows["other-tenant"].fingerprint_tuple == '["tenant-b","order-42",1200]'
    assert rows["new-operation"].fingerprint_tuple == '["tenant-a","order-43",1200]'


@pytest.mark.parametrize("profile", PROFILES)
def test_policy_defaults_to_the_profiles(profile: str) -> None:
    expected = "ignore" if profile == "powertools" else "enforce"
    assert scenario(profile=profile).settings.policy == expected
    assert scenario(profile=profile, policy=None).settings.policy == expected
    for policy in POLICIES:
        assert scenario(profile=profile, policy=policy).settings.policy == policy


def test_powertools_hides_a_changed_payload_unless_validation_is_on() -> None:
    base = dict(profile="powertools", second="different-amount")
    silent = evaluate(scenario(**base))
    assert silent.disposition is Disposition.REUSED and silent.rejection is None
    assert silent.finding is Finding.CONFLICT_HIDDEN
    validated = evaluate(scenario(**base, policy="enforce"))
    assert validated.disposition is Disposition.CONFLICT
    assert validated.rejection is not None
    assert validated.rejection.status_code is None
    assert validated.rejection.error == "IdempotencyValidationError"


def test_every_result_states_its_boundary_convention() -> None:
    at = dict(retention_seconds=3600, delay_seconds=3600)
    seed = evaluate(scenario(**at))
    powertools = evaluate(scenario(**at, boundary="retained-at-boundary"))
    assert seed.record is RecordState.EXPIRED and "already expired" in seed.boundary_rule
    assert powertools.record is RecordState.RETAINED and "still counts" in powertools.boundary_rule
    assert "delay < retention" in seed.boundary_rule
    assert "delay <= retention" in powertools.boundary_rule
    doc = seed.model_dump(mode="json")
    assert doc["settings"]["boundary"] == "expired-at-boundary"
    assert doc["boundary_rule"] == seed.boundary_rule


def test_result_document_order_and_whole_seconds_as_integers() -> None:
    doc = evaluate(scenario(retention_seconds="3600.000", delay_seconds="0.5")).model_dump(
        mode="json"
    )
    assert list(doc) == [
        "scenario", "settings", "departures", "boundary_rule", "requests", "record",
        "disposition", "rejection", "effects", "one_intent", "finding", "correct",
    ]  # fmt: skip
    text = json.dumps(doc)
    assert '"retention_seconds": 3600,' in text and '"delay_seconds": 0.5' in text
    assert '"retention": 3600,' in text


@pytest.mark.parametrize(
    "bad",
    [math.nan, math.inf, -math.inf, -1, 0.5, 3600.0, MAX_SECONDS + 1, 1e308, "abc", "-0.001",
     "1e-400", "3599.9999999999", "2592000.0000000001", "\u0663", "1,5", True, [1]],
)  # fmt: skip
@pytest.mark.parametrize("field", ["retention_seconds", "delay_seconds"])
def test_seconds_reject_floats_out_of_range_finer_than_a_millisecond_and_non_numbers(
    field: str, bad: object
) -> None:
    with pytest.raises(ValidationError) as error:
        scenario(**{field: bad})
    assert error.value.error_count() == 1
    assert field in str(error.value)
    assert "give a number of seconds from 0 to 2592000" in str(error.value)


@pytest.mark.parametrize(
    ("good", "millis"),
    [(0, 0), ("0.5", 500), (3600, 3_600_000), ("3599.999", 3_599_999), (MAX_SECONDS, 2_592_000_000),
     (Decimal("0.001"), 1), (Duration(7), 7), (" 60 ", 60_000), ("1.", 1000), (".25", 250)],
)  # fmt: skip
def test_seconds_accept_the_whole_range_exactly(good: object, millis: int) -> None:
    assert scenario(retention_seconds=good).retention_seconds == Duration(millis)
    assert scenario(delay_seconds=good).delay_seconds == Duration(millis)


@pytest.mark.parametrize(
    "fields",
    [
        {"scope": "tenant"},
        {"second": "third"},
        {"policy": "sometimes"},
        {"profile": "aws"},
        {"boundary": "fuzzy"},
        {"colour": "red"},
    ],
)
def test_closed_sets_and_unknown_fields_are_rejected(fields: dict[str, object]) -> None:
    with pytest.raises(ValidationError) as error:
        scenario(**fields)
    assert error.value.error_count() == 1, "one error, naming the field"
    assert next(iter(fields)) in str(error.value)


def test_scenarios_and_results_are_frozen() -> None:
    s = ContractScenario()
    with pytest.raises(ValidationError):
        s.delay_seconds = 1  # type: ignore[misc]
    with pytest.raises(ValidationError):
        evaluate(s).scenario = s  # type: ignore[misc]


# --- properties ------------------------------------------------------------------------------

key_parts = st.lists(st.one_of(st.text(), st.integers()), max_size=4)


@given(key_parts, key_parts)
def test_canonical_keys_are_injective(a: list[str | int], b: list[str | int]) -> None:
    assert json.loads(canonical_json(a)) == a, "decoding recovers the tuple, so it is injective"
    if a != b:
        assert canonical_json(a) != canonical_json(b)


def test_canonical_keys_do_not_merge_separators() -> None:
    assert canonical_json(["a/b", "c"]) != canonical_json(["a", "b/c"])
    assert canonical_json(["a", "b"]) != canonical_json(['a","b'])
    assert canonical_json([1200]) != canonical_json(["1200"])


seconds = st.integers(0, MAX_SECONDS * 1000).map(Duration)
scenarios = st.builds(
    ContractScenario,
    scope=st.sampled_from(KeyScope),
    second=st.sampled_from(SecondRequest),
    policy=st.sampled_from(PayloadPolicy),
    profile=st.sampled_from(ContractProfile),
    retention_seconds=seconds,
    delay_seconds=seconds,
    boundary=st.sampled_from(BoundaryConvention),
)


# Written from the systems' documentation, apart from the profiles: Powertools stores
# ``int(now) + expires_after_seconds`` and reads ``int(now)``, so it counts whole seconds; every
# other profile, and the seed, compares exact milliseconds.
TICK_MS = {ContractProfile.POWERTOOLS: 1000}


@given(scenarios)
@example(  # found by hypothesis: retained 1 ms past a retention of 0, in the same second
    ContractScenario(
        profile=ContractProfile.POWERTOOLS,
        retention_seconds=Duration(0),
        delay_seconds=Duration(1),
        boundary=BoundaryConvention.RETAINED_AT_BOUNDARY,
    )
)
def test_effects_are_one_or_two_and_follow_the_disposition(s: ContractScenario) -> None:
    result = evaluate(s)
    assert result.effects in {1, 2}
    assert (result.effects == 2) is (result.disposition is Disposition.APPLIED)
    assert (result.rejection is not None) is (result.disposition is Disposition.CONFLICT)
    # A record never outlives its retention by a whole tick of its system's clock: on
    # Powertools' whole seconds, a retention of 0 s still holds the record 0.999 s later.
    tick = TICK_MS.get(s.profile, 1)
    age, kept = s.delay_seconds.millis // tick, result.settings.retention.millis // tick
    if result.record is RecordState.RETAINED:
        assert age <= kept
    if age > kept:
        assert result.record is not RecordState.RETAINED
