"""The contract experiment's inputs: the closed sets, the defaults, and their words."""

from enum import StrEnum
from typing import Final

from asyncfail.ground.durations import Duration
from asyncfail.ground.retention import BoundaryConvention


class KeyScope(StrEnum):
    """What the receiver's idempotency key is made of (fields: ``contract_rules.KEY_FIELDS``)."""

    ATTEMPT = "attempt"
    """The delivery attempt id: a new key for every attempt. Dapr's protocol doc recommends
    exactly this, and the seed's point is that it is wrong: a delivery attempt is not the
    identity of a business intent."""
    OPERATION = "operation"
    """The business operation id alone: two tenants using the same id share one key."""
    TENANT_OPERATION = "tenant-operation"
    """The pair (tenant, business operation): the seed's identity, and the composite key the
    IETF draft's security note asks for. Brandur Leach's keys are unique per (user, key) too."""


class SecondRequest(StrEnum):
    """Which fictional request arrives second (``contract_rules.SECOND_REQUESTS``)."""

    SAME_INTENT = "same-intent"
    """tenant-a / order-42, 1200 again: a retry of the same business intent."""
    DIFFERENT_AMOUNT = "different-amount"
    """tenant-a / order-42 with 1500: the same operation id with a changed payload."""
    OTHER_TENANT = "other-tenant"
    """tenant-b / order-42, 1200: another tenant that happens to use the same operation id."""
    NEW_OPERATION = "new-operation"
    """tenant-a / order-43, 1200: a new operation of the same tenant."""


class PayloadPolicy(StrEnum):
    """Whether the receiver compares the request fingerprint of a retained record."""

    ENFORCE = "enforce"
    """Compare the canonical fingerprints; a retained key with a different one is a conflict."""
    IGNORE = "ignore"
    """Do not compare: a retained key returns its stored result whatever the new payload."""


class ContractProfile(StrEnum):
    """Whose contract the receiver follows: how it reports a conflict, and every knob its real
    system sets (``contract.profiles.PROFILES``)."""

    IETF_DRAFT = "ietf-draft"
    STRIPE = "stripe"
    BRANDUR_POSTGRES = "brandur-postgres"
    POWERTOOLS = "powertools"


# The defaults reproduce the seed's example: key (tenant, operation), the same intent again, an
# enforced fingerprint, the seed's boundary convention; the IETF draft, the standard, reports
# conflicts. A knob the chosen profile's system sets takes the profile's value instead.
DEFAULT_SCOPE: Final = KeyScope.TENANT_OPERATION
DEFAULT_SECOND: Final = SecondRequest.SAME_INTENT
DEFAULT_PROFILE: Final = ContractProfile.IETF_DRAFT
DEFAULT_POLICY: Final = PayloadPolicy.ENFORCE
DEFAULT_BOUNDARY: Final = BoundaryConvention.EXPIRED_AT_BOUNDARY

DEFAULT_RETENTION: Final = Duration.of_seconds(3600)
"""Powertools' default ``expires_after_seconds``: a documented default, the shortest of the four."""

DEFAULT_DELAY: Final = Duration.of_seconds(60)
"""A retry one minute after the first request: well inside the retention, so the record is
retained, as in the seed's example."""

# ---------------------------------------------------------------------------------------------
# The inputs in words: how lessons, reports and help text name each choice

SCOPE_WORDS: Final[dict[KeyScope, str]] = {
    KeyScope.ATTEMPT: "the delivery attempt",
    KeyScope.OPERATION: "the business operation ID alone",
    KeyScope.TENANT_OPERATION: "the tenant and the business operation",
}
"""What a key of each scope identifies, as a noun phrase: "a key scoped to {words}"."""

POLICY_WORDS: Final[dict[PayloadPolicy, str]] = {
    PayloadPolicy.ENFORCE: "enforce: compare a canonical request fingerprint",
    PayloadPolicy.IGNORE: "ignore: answer any reuse with the stored result",
}

BOUNDARY_WORDS: Final[dict[BoundaryConvention, str]] = {
    BoundaryConvention.EXPIRED_AT_BOUNDARY: "already expired at its expiry second (the seed's)",
    BoundaryConvention.RETAINED_AT_BOUNDARY: (
        "still counts at its expiry second (Powertools, Brandur Leach)"
    ),
}
"""What the record is at exactly delay == retention, under each convention."""

PROFILE_NAMES: Final[dict[ContractProfile, str]] = {
    ContractProfile.IETF_DRAFT: "IETF Idempotency-Key draft",
    ContractProfile.STRIPE: "Stripe",
    ContractProfile.BRANDUR_POSTGRES: "Brandur Leach's Postgres design",
    ContractProfile.POWERTOOLS: "AWS Lambda Powertools",
}
"""Whose contract each profile follows, by name."""


# ---------------------------------------------------------------------------------------------
# The result in words: how the lesson and the CLI label each figure

RECORD_LABEL: Final = "Record at second request"
DISPOSITION_LABEL: Final = "Second disposition"
EFFECTS_LABEL: Final = "Total effects"
ONE_INTENT_LABEL: Final = "Both requests express one intent"
REQUESTS_TITLE: Final = "Fictional requests and their receiver keys"
REQUESTS_HEADER: Final = (
    "Attempt",
    "Business identity",
    "Amount (minor units)",
    "Receiver key",
    "Fingerprint tuple",
)
"""The seed's table of the two requests, by its own column names."""
