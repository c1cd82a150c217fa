"""A profile sets every knob its real system sets; an explicit option overrides it and the
result says it departs from that system.

The table below is written from the public sources (not from ``PROFILES``): Stripe keys belong
to an account, are compared, and may be pruned once 24 h old; Brandur Leach's keys are unique
per (user, key), compared, and reaped when ``created_at < now - 72 h``; Powertools keeps 3600 s
by default, validates only when configured, and expires a record only when ``now > expiry``;
the IETF draft asks for a comparison (422) and publishes no number or boundary rule.
"""

import json

import pytest

from asyncfail.cli.main import main
from asyncfail.contract.experiment import ContractScenario, evaluate
from asyncfail.contract.rules import Disposition, RecordState
from asyncfail.ground.durations import Duration
from tests.cli_support import run_main

# profile: (scope, policy, retention seconds, boundary) in force when nothing else is asked.
IN_FORCE = {
    "ietf-draft": ("tenant-operation", "enforce", 3600, "expired-at-boundary"),
    "stripe": ("tenant-operation", "enforce", 86_400, "expired-at-boundary"),
    "brandur-postgres": ("tenant-operation", "enforce", 259_200, "retained-at-boundary"),
    "powertools": ("tenant-operation", "ignore", 3600, "retained-at-boundary"),
}
# The knobs each system fixes (its users cannot change them).
FIXED = {
    "ietf-draft": {"policy"},
    "stripe": {"scope", "policy", "retention", "boundary"},
    "brandur-postgres": {"scope", "policy", "retention", "boundary"},
    "powertools": {"boundary"},
}
OTHER = {
    "scope": ("scope", "operation"),
    "policy": ("policy", "ignore"),
    "retention": ("retention_seconds", Duration.of_seconds(10)),
    "boundary": ("boundary", "retained-at-boundary"),
}


@pytest.mark.parametrize("profile", IN_FORCE)
def test_a_profile_sets_every_knob_its_system_sets(profile: str) -> None:
    settings = evaluate(ContractScenario(profile=profile)).model_dump(mode="json")["settings"]
    scope, policy, retention, boundary = IN_FORCE[profile]
    assert settings == {
        "scope": scope,
        "policy": policy,
        "retention": retention,
        "boundary": boundary,
    }


@pytest.mark.parametrize("profile", IN_FORCE)
@pytest.mark.parametrize("knob", OTHER)
def test_an_explicit_knob_wins_and_departs_only_from_what_the_system_fixes(
    profile: str, knob: str
) -> None:
    field, value = OTHER[knob]
    if knob == "boundary" and IN_FORCE[profile][3] == "retained-at-boundary":
        value = "expired-at-boundary"
    result = evaluate(ContractScenario.model_validate({"profile": profile, field: value}))
    assert getattr(result.settings, knob) == value, "an explicit option wins"
    assert len(result.departures) == (1 if knob in FIXED[profile] else 0), result.departures


def test_powertools_keeps_the_record_at_its_expiry_second() -> None:
    # The case: `--profile powertools --delay 3600` is retained, not expired.
    code, out, _ = run_main("contract", "--profile", "powertools", "--delay", "3600")
    assert code == 0
    doc = json.loads(out)
    assert doc["record"] == RecordState.RETAINED
    assert doc["departures"] == []


def test_brandur_leachs_keys_are_per_user_so_another_tenant_is_a_new_key() -> None:
    result = evaluate(ContractScenario(profile="brandur-postgres", second="other-tenant"))
    assert result.record is RecordState.NEVER_STORED
    assert result.disposition is Disposition.APPLIED and result.correct
    # Forcing a key of the operation alone departs from the design, and then it is a 409.
    forced = evaluate(
        ContractScenario(profile="brandur-postgres", second="other-tenant", scope="operation")
    )
    assert forced.disposition is Disposition.CONFLICT and forced.rejection is not None
    assert forced.rejection.status_code == 409
    assert forced.departures == (
        "the key scope is operation, where Brandur Leach's Postgres design has tenant-operation",
    )


def test_stripe_always_compares_parameters() -> None:
    ignored = evaluate(
        ContractScenario(profile="stripe", second="different-amount", policy="ignore")
    )
    assert ignored.departures == ("the payload policy is ignore, where Stripe has enforce",)


def test_the_schema_says_a_knobs_default_is_the_profiles() -> None:
    import io

    out = io.StringIO()
    assert main(["schema", "contract"], stdout=out) == 0
    scenario = json.loads(out.getvalue())["$defs"]["ContractScenario"]["properties"]
    for knob in ("scope", "policy", "retention_seconds", "boundary"):
        assert scenario[knob]["default"] is None, knob
        assert "the profile's" in scenario[knob]["description"], knob


def test_records_are_never_called_absent() -> None:
    # "Absent" meant two things; the model's words are now "never stored" and "expired".
    # (Lesson 3's own words are checked in tests/course/test_lesson_03_idempotency_contract.py.)
    from asyncfail.contract.rules import RecordState as State
    from asyncfail.contract.terms import BOUNDARY_WORDS

    words = [*(s.value for s in State), *BOUNDARY_WORDS.values()]
    assert not [w for w in words if "absent" in w.lower()]


def test_a_copied_scenario_or_result_never_carries_stale_derived_values() -> None:
    # The class of bug behind a cached property on a frozen model: model_copy(update=...)
    # copies the cache with the fields.
    from asyncfail.readiness.design import ReplayDesign
    from asyncfail.readiness.report import ReadinessReport

    seed = ContractScenario()
    assert seed.settings.retention == Duration.of_seconds(3600)
    copied = seed.model_copy(update={"retention_seconds": Duration.of_seconds(10)})
    assert copied.settings.retention == Duration.of_seconds(10)
    result = evaluate(seed)
    assert result.record is RecordState.RETAINED
    late = result.model_copy(
        update={"scenario": seed.model_copy(update={"delay_seconds": Duration.of_seconds(7200)})}
    )
    assert late.record is RecordState.EXPIRED
    report = ReadinessReport(design=ReplayDesign())
    assert report.checks[0].status.value == "unknown"
    answered = report.model_copy(update={"design": ReplayDesign(key_across_attempts="no")})
    assert answered.checks[0].status.value == "unmet"
