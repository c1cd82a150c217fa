"""The five assumptions of the Async Failure Lab, word for word from the seed page.

They travel with every lab result as data, so a reader of any trace or JSON document sees the
conditions under which its counts hold.
"""

from typing import Final

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

DISCLAIMER: Final[str] = (
    "These are deterministic examples, not production measurements, a Kafka broker "
    "implementation, or a reliability guarantee."
)
