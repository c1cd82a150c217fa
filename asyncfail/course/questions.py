"""The lessons' checks for understanding, one per lesson, each with its explanation."""

from typing import Final

from asyncfail.ground.quiz import Question

CHECK_LABEL: Final = "**Check:** {prompt}"
"""How every lesson introduces its check for understanding."""

LAB_QUESTION = Question(
    prompt=(
        "Under `crash-after-effect`, what lets the durable runtime's second attempt avoid a "
        "second debit?"
    ),
    options=(
        "It retries more slowly than the naive loop.",
        "It looks the stable operation key up at the receiver before calling the tool again.",
        "Its worker does not crash.",
        "The receiver rejects every second request.",
    ),
    answer="It looks the stable operation key up at the receiver before calling the tool again.",
    explanation=(
        "The crash happens in both runtimes and both get a second delivery. Only the durable "
        "runtime treats the missing result as unknown and reconciles by key: the lookup finds "
        "the debit, so it records the result instead of repeating the effect."
    ),
)


CONTRACT_QUESTION = Question(
    prompt=(
        "The key is the delivery attempt id, retention is 3600 s, and the same intent arrives "
        "again 60 s later. What does the receiver do?"
    ),
    options=(
        "It reuses the retained result: 60 s is well within the retention.",
        "It applies the debit a second time.",
        "It rejects the request with 422.",
    ),
    answer="It applies the debit a second time.",
    explanation=(
        "The second delivery attempt has a new id, so no record was ever stored under its key: "
        "it was never stored, not expired, and no retention can help. The key must identify "
        "the business intent, (tenant, operation), not the delivery."
    ),
)
