"""The experiment's two fictional requests: their business data, receiver keys and fingerprints.

Tenants, operations and amounts are made up. ``case_of`` pairs the first request with the chosen
second one under a key scope: everything the experiment fixes before any clock is read.
"""

import json
from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Final

from asyncfail.contract.terms import KeyScope, SecondRequest


@dataclass(frozen=True, slots=True)
class FictionalRequest:
    """One request the lab sends to the receiver. Tenants, operations and amounts are made up."""

    attempt: int
    """The delivery attempt that carries this request, from 1."""
    tenant: str
    operation: str
    amount_minor_units: int

    @property
    def attempt_id(self) -> str:
        """The delivery attempt's id: unique per attempt, as a broker's delivery id is."""
        return f"attempt-{self.attempt}"

    @property
    def business_identity(self) -> str:
        """Tenant and operation as the seed's table prints them: ``tenant-a / order-42``."""
        return f"{self.tenant} / {self.operation}"


FIRST_REQUEST: Final = FictionalRequest(
    attempt=1, tenant="tenant-a", operation="order-42", amount_minor_units=1200
)

SECOND_REQUESTS: Final[dict[SecondRequest, FictionalRequest]] = {
    SecondRequest.SAME_INTENT: replace(FIRST_REQUEST, attempt=2),
    SecondRequest.DIFFERENT_AMOUNT: replace(FIRST_REQUEST, attempt=2, amount_minor_units=1500),
    SecondRequest.OTHER_TENANT: replace(FIRST_REQUEST, attempt=2, tenant="tenant-b"),
    SecondRequest.NEW_OPERATION: replace(FIRST_REQUEST, attempt=2, operation="order-43"),
}

KEY_FIELDS: Final[dict[KeyScope, tuple[str, ...]]] = {
    KeyScope.ATTEMPT: ("attempt_id",),
    KeyScope.OPERATION: ("operation",),
    KeyScope.TENANT_OPERATION: ("tenant", "operation"),
}
"""The request fields, in order, that make up the receiver key under each scope."""

FINGERPRINT_FIELDS: Final = ("tenant", "operation", "amount_minor_units")
"""The canonical request fingerprint: every field of the business intent. The seed: "A canonical
tuple stands in for a request fingerprint, not a production cryptographic hash"."""


def canonical_json(parts: Sequence[str | int]) -> str:
    """A tuple as a compact JSON array: ``["tenant-a","order-42",1200]``.

    Injective, which is the point: JSON quotes and escapes every string, so two different tuples
    never render alike (a naive ``"/".join`` would merge ("a/b", "c") and ("a", "b/c")). The
    receiver compares these strings, so a collision here would be a wrong reuse.
    """
    return json.dumps(list(parts), separators=(",", ":"), ensure_ascii=False)


def receiver_key(scope: KeyScope, request: FictionalRequest) -> str:
    """The key the receiver stores the record under: ``KEY_FIELDS[scope]``, canonical."""
    return canonical_json([str(getattr(request, name)) for name in KEY_FIELDS[scope]])


def fingerprint(request: FictionalRequest) -> str:
    """The canonical fingerprint tuple (tenant, operation, amount in minor units)."""
    return canonical_json([getattr(request, name) for name in FINGERPRINT_FIELDS])


class Relation(StrEnum):
    """How the second request relates to the first, judged on the business data alone."""

    SAME_INTENT = "same-intent"
    """Same tenant, operation and amount: one intent, sent twice."""
    CHANGED_PAYLOAD = "changed-payload"
    """Same tenant and operation, another amount: a conflicting request for one operation."""
    OTHER_TENANT = "other-tenant"
    """Another tenant: a different business identity, whatever its operation id."""
    OTHER_OPERATION = "other-operation"
    """Same tenant, another operation: a new intent."""


def relation_of(first: FictionalRequest, second: FictionalRequest) -> Relation:
    """Compare the business data: tenant first, then operation, then amount."""
    if second.tenant != first.tenant:
        return Relation.OTHER_TENANT
    if second.operation != first.operation:
        return Relation.OTHER_OPERATION
    if second.amount_minor_units != first.amount_minor_units:
        return Relation.CHANGED_PAYLOAD
    return Relation.SAME_INTENT


@dataclass(frozen=True, slots=True)
class ContractCase:
    """What the scope and the second request fix before any clock is read."""

    first: FictionalRequest
    second: FictionalRequest
    scope: KeyScope

    @property
    def key_reused(self) -> bool:
        """Whether the second request's receiver key is the first's (compared as the receiver
        compares them: canonical strings)."""
        return receiver_key(self.scope, self.second) == receiver_key(self.scope, self.first)

    @property
    def fingerprints_match(self) -> bool:
        return fingerprint(self.second) == fingerprint(self.first)

    @property
    def relation(self) -> Relation:
        return relation_of(self.first, self.second)


def case_of(scope: KeyScope, second: SecondRequest) -> ContractCase:
    """The two fictional requests of a run, under one key scope."""
    return ContractCase(first=FIRST_REQUEST, second=SECOND_REQUESTS[second], scope=scope)


def _second_words(second: SecondRequest) -> str:
    request = SECOND_REQUESTS[second]
    identity, amount = request.business_identity, request.amount_minor_units
    return {
        SecondRequest.SAME_INTENT: f"the same intent again ({identity}, {amount})",
        SecondRequest.DIFFERENT_AMOUNT: f"same tenant and operation, amount {amount}",
        SecondRequest.OTHER_TENANT: f"another tenant, same operation ID ({identity})",
        SecondRequest.NEW_OPERATION: f"a new operation of the same tenant ({identity})",
    }[second]


SECOND_WORDS: Final[dict[SecondRequest, str]] = {s: _second_words(s) for s in SecondRequest}
"""Each second request in words, with its fictional data."""
