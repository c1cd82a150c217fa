"""What a readiness check says: its status, its title and priority, and the runs it rests on.

A check is one of the seed handoff's four recommendations or one of two rules of the contract
experiment; its title and priority are read from where each is written, never matched by text.
"""

from enum import StrEnum
from typing import Final, TypeAlias

from pydantic import BaseModel, Field

from asyncfail.contract.experiment import ContractResult
from asyncfail.ground.frozen import FROZEN
from asyncfail.ground.seed import RECOMMENDATIONS, Priority, RecommendationId


class CheckStatus(StrEnum):
    """Whether a design meets a recommendation, as far as the learner's answers tell."""

    MET = "met"
    UNMET = "unmet"
    UNKNOWN = "unknown"


STATUS_LABELS: Final[dict[CheckStatus, str]] = {
    CheckStatus.MET: "Met",
    CheckStatus.UNMET: "Not met",
    CheckStatus.UNKNOWN: "Unknown",
}


class ContractRule(StrEnum):
    """Two rules of the idempotency contract experiment that the learner's answers also decide,
    checked after the handoff's four recommendations."""

    KEY_SCOPE = "key-scope"
    FINGERPRINT = "fingerprint"


CONTRACT_RULE_TITLES: Final[dict[ContractRule, str]] = {
    ContractRule.KEY_SCOPE: "Scope the key to the tenant and the business operation",
    ContractRule.FINGERPRINT: "Compare a request fingerprint when a key is reused",
}

CheckId: TypeAlias = RecommendationId | ContractRule
"""A check is one of the handoff's recommendations or one of the contract's rules."""


class Probe(BaseModel):
    """One run of the contract experiment that a check rests on, and the question it answers."""

    model_config = FROZEN

    question: str
    result: ContractResult


class Check(BaseModel):
    """One recommendation applied to the design: its status, the reason, and the evidence."""

    model_config = FROZEN

    id: CheckId
    priority: Priority | None = Field(description="P0 or P1 for the handoff's recommendations.")
    title: str
    status: CheckStatus
    reason: str
    probes: tuple[Probe, ...] = ()


def heading(check: CheckId) -> tuple[Priority | None, str]:
    """A check's priority (None for a contract rule) and title, from where each is written."""
    if isinstance(check, RecommendationId):
        return RECOMMENDATIONS[check].priority, RECOMMENDATIONS[check].title
    return None, CONTRACT_RULE_TITLES[check]
