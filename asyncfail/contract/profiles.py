"""The four real contracts the receiver can follow, each from its public source.

A profile fixes how a reused key with a different payload is reported, and the defaults of the
real system it stands for.
"""

from dataclasses import dataclass
from typing import Final

from asyncfail.contract.terms import ContractProfile, PayloadPolicy


@dataclass(frozen=True, slots=True)
class Rejection:
    """How a profile reports a conflict: an HTTP status (None when it raises an exception
    instead), and the error type, problem title or exception it reports."""

    status_code: int | None
    error: str


@dataclass(frozen=True, slots=True)
class ProfileInfo:
    """What one real contract says about a reused key: its rejection and defaults, with source."""

    conflict: Rejection
    default_policy: PayloadPolicy
    retention_seconds: int | None
    """The retention the source documents (None: the source publishes no number)."""
    source: str


PROFILES: Final[dict[ContractProfile, ProfileInfo]] = {
    ContractProfile.IETF_DRAFT: ProfileInfo(
        conflict=Rejection(status_code=422, error="Idempotency-Key is already used"),
        default_policy=PayloadPolicy.ENFORCE,
        retention_seconds=None,
        source="IETF draft-ietf-httpapi-idempotency-key-header, section 2.7: reusing a key with "
        "a different payload SHOULD get 422 (problem title 'Idempotency-Key is already used'); "
        "keys may expire, under a published policy, with no number and no post-expiry rule.",
    ),
    ContractProfile.STRIPE: ProfileInfo(
        conflict=Rejection(status_code=400, error="idempotency_error"),
        default_policy=PayloadPolicy.ENFORCE,
        retention_seconds=24 * 3600,
        source="Stripe API docs, 'Idempotent requests': parameters of a reused key are compared "
        "with the first request's and a mismatch errors (an idempotency_error, HTTP 400); keys "
        "are pruned once at least 24 h old, and a reused key after that is a new request.",
    ),
    ContractProfile.BRANDUR_POSTGRES: ProfileInfo(
        conflict=Rejection(
            status_code=409,
            error="There was a mismatch between this request's parameters and the parameters "
            "of a previously stored request with the same Idempotency-Key.",
        ),
        default_policy=PayloadPolicy.ENFORCE,
        retention_seconds=72 * 3600,
        source="Brandur Leach, 'Implementing Stripe-like Idempotency Keys in Postgres' "
        "(rocket-rides-atomic, api.rb): stored request_params != params halts with 409; keys "
        "are unique per (user_id, key); the reaper deletes keys after 72 h.",
    ),
    ContractProfile.POWERTOOLS: ProfileInfo(
        conflict=Rejection(status_code=None, error="IdempotencyValidationError"),
        default_policy=PayloadPolicy.IGNORE,
        retention_seconds=3600,
        source="AWS Lambda Powertools for Python, idempotency utility: payload validation is off "
        "by default, so a different payload under a retained key silently gets the stored "
        "result; with payload_validation_jmespath set, a mismatch raises "
        "IdempotencyValidationError; expires_after_seconds defaults to 3600.",
    ),
}
"""The four contracts, each from its public source. A profile never changes *whether* a request
conflicts (that is the policy); it names how the conflict is reported, and the policy a scenario
gets when it names none: enforce for the draft, Stripe and Brandur Leach, which all compare
parameters; ignore for Powertools, whose validation is off unless configured."""
