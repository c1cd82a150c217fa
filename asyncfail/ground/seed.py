"""The seed's fixed prose, word for word: the Async Failure Lab page and the review handoff.

Everything here is quoted from the two seed documents (``docs/seeds/``) and travels with the
results and documents that rest on it, so a reader of any trace, JSON document or handoff sees
the conditions its figures hold under. Where the course departs from a seed phrase on purpose,
the departure is written here too, with the reason.
"""

from dataclasses import dataclass
from enum import StrEnum
from typing import Final

QUESTION: Final = (
    "The debit succeeds. The worker crashes before recording the result. "
    "Should the next attempt call the tool again?"
)
"""The lab's question, as the seed page opens with it."""

ASSUMPTIONS: Final[tuple[str, ...]] = (
    "One virtual debit operation and a single injected fault; "
    "no real payment, broker, or network is used.",
    "The durable case assumes a stable operation key and a downstream contract "
    "that can deduplicate or look up that same intent.",
    "The downstream idempotency record is retained throughout the modeled retry window "
    "and is atomically tied to the effect.",
    "Operation lookup eventually succeeds, storage is available, "
    "and authorization is checked before dispatch.",
    "Outages of the lookup service, expired deduplication records, concurrency, "
    "and timing distributions are not modeled.",
)
"""The five assumptions of the Async Failure Lab, in the seed page's order."""

DISCLAIMER: Final = (
    "These are deterministic examples, not production measurements, a Kafka broker "
    "implementation, or a reliability guarantee."
)

# ---------------------------------------------------------------------------------------------
# The review handoff


class Priority(StrEnum):
    """How urgent a recommendation is: P0 before anything else, P1 next."""

    P0 = "P0"
    P1 = "P1"


class RecommendationId(StrEnum):
    """The seed handoff's four recommendations, as stable identifiers."""

    KEY_ACROSS_ATTEMPTS = "key-across-attempts"
    UNKNOWN_OUTCOME = "unknown-outcome"
    RETENTION_COVERS_REPLAY = "retention-covers-replay"
    RECOVERY_OWNER = "recovery-owner"


@dataclass(frozen=True, slots=True)
class Recommendation:
    """One prioritized recommendation of the handoff."""

    id: RecommendationId
    priority: Priority
    title: str
    body: str


RECOMMENDATIONS: Final[dict[RecommendationId, Recommendation]] = {
    r.id: r
    for r in (
        Recommendation(
            RecommendationId.KEY_ACROSS_ATTEMPTS,
            Priority.P0,
            "Carry one operation key across every delivery attempt",
            "The worker, downstream effect, lookup path, and replay tooling need the same stable "
            "identity. A delivery ID alone does not identify the business intent.",
        ),
        Recommendation(
            RecommendationId.UNKNOWN_OUTCOME,
            Priority.P0,
            "Represent an unknown outcome instead of guessing",
            "After a crash or timeout, reconcile the operation key before another effect-capable "
            "call. Missing acknowledgement is not proof that the effect failed.",
        ),
        Recommendation(
            RecommendationId.RETENTION_COVERS_REPLAY,
            Priority.P1,
            "Make retention at least as long as the replay window",
            "A deduplication record that expires before delayed retries or manual replay can "
            "turn an old operation into a new effect.",
        ),
        Recommendation(
            RecommendationId.RECOVERY_OWNER,
            Priority.P1,
            "Name the recovery owner and required evidence",
            "The runbook should state who can pause dispatch, inspect the operation record, "
            "approve replay, and verify the final business state.",
        ),
    )
}
"""The seed's prioritized recommendations, in its order."""


class HandoffSection(StrEnum):
    """The seed handoff's section titles, in its order; a generated handoff has exactly these."""

    SCOPE = "Scope and evidence boundary"
    ASSUMPTIONS = "Model assumptions"
    FAILURE_MAP = "Failure map"
    EVIDENCE = "Evidence summary"
    RECOMMENDATIONS = "Prioritized recommendations"
    HANDOFF = "Replay and ownership handoff"
    CANNOT_DECIDE = "What this sample cannot decide"
    CLOSING = "Use the shape, not the synthetic conclusion"


class Boundary(StrEnum):
    """The rows of the seed's failure map: the four boundaries a review walks through."""

    DISPATCH_INTENT = "Dispatch intent"
    EXTERNAL_EFFECT = "External effect"
    RECORDED_RESULT = "Recorded result"
    REPLAY = "Replay"


REVIEW_QUESTIONS: Final[dict[Boundary, str]] = {
    Boundary.DISPATCH_INTENT: "Which stable identity survives worker replacement?",
    Boundary.EXTERNAL_EFFECT: "Can the downstream system find or deduplicate the intent?",
    Boundary.RECORDED_RESULT: "Does the runtime represent UNKNOWN separately from FAILED?",
    Boundary.REPLAY: "Which evidence and owner authorize another dispatch?",
}
"""The failure map's review question for each boundary."""

FAILURE_MAP_HEADER: Final = ("Boundary", "Evidence in the model", "Review question")

SCOPE_TERMS: Final = ("Flow", "Failure point", "Evidence", "Decision")
"""The terms of the scope section, in order."""

DECISION: Final = "Whether retry may repeat the effect or must reconcile first"

BEFORE_REPLAY_TITLE: Final = "Before replay"
BEFORE_REPLAY: Final[tuple[str, ...]] = (
    "Pause or bound new dispatch for the affected operation.",
    "Look up the stable operation key at the effect boundary.",
    "Confirm deduplication retention still covers the replay.",
    "Record who authorizes replay and verifies final state.",
)

CANNOT_DECIDE: Final[tuple[str, ...]] = (
    "Your real provider's idempotency semantics.",
    "Your replay window, storage availability, or concurrency.",
    "Who has operational authority in your organization.",
    "Whether a real incident had the same failure sequence.",
)

KICKER: Final = "Synthetic teaching case · not client work"
TITLE: Final = "Async Reliability Review: sample handoff"
PURPOSE: Final = (
    "This sample shows how a bounded review could separate observed evidence, assumptions, "
    "risks, and owned next actions."
)
SYNTHETIC_NATURE: Final = (
    "Every fact below comes from the deterministic public model. It does not describe a client "
    "engagement, the production behavior of any real system, or a measured reliability outcome."
)
"""The seed says "GitHub production behavior"; the course names no real company's system."""

CLOSING: Final = (
    "A real review replaces this model with your authorized evidence, names the unknowns, and "
    "leaves implementation and operational ownership with your team."
)
