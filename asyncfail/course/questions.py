"""The lessons' checks for understanding, one per lesson, each with its explanation."""

from asyncfail.ground.quiz import Question

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


READINESS_QUESTION = Question(
    prompt=(
        "Deduplication records are kept for 24 hours, and an operator may replay an abandoned "
        "delivery exactly 24 hours after the first request. Under the seed's boundary "
        "convention, does the retention cover that replay?"
    ),
    options=(
        "Yes: 24 hours is at least as long as 24 hours.",
        "No: at exactly the boundary the record has already expired, so the replay is applied "
        "as a second debit.",
        "It depends on whether a request fingerprint is compared.",
    ),
    answer="No: at exactly the boundary the record has already expired, so the replay is "
    "applied as a second debit.",
    explanation=(
        "The seed's convention keeps a record only while the delay is strictly shorter than the "
        "retention, so records must outlive the longest replay window. (Under Powertools' "
        "convention, equal would be enough.) A fingerprint decides only what happens to a "
        "retained record, and this one is gone."
    ),
)


HANDOFF_QUESTION = Question(
    prompt=(
        "In the handoff for `response-lost`, the naive loop debits twice within one delivery "
        "attempt. Why?"
    ),
    options=(
        "The channel delivered the operation twice.",
        "After the timeout it called the tool again, but the receiver had already applied the "
        "debit: the reply was lost, not the request.",
        "The durable runtime crashed and the naive loop took over.",
    ),
    answer="After the timeout it called the tool again, but the receiver had already applied "
    "the debit: the reply was lost, not the request.",
    explanation=(
        "A timeout does not say which message was lost. The naive loop treats it as a failure "
        "and retries in the same delivery, so attempts stay at one while effects become two; the "
        "durable runtime looks the operation key up instead and finds the debit."
    ),
)


ASSUMPTIONS_QUESTION = Question(
    prompt=(
        "The receiver keeps idempotency records for 60 s, redeliveries come 60 s apart, and the "
        "worker crashes after the debit. Which single change stops the second debit?"
    ),
    options=(
        "A receiver that deduplicates repeated keyed requests.",
        "Keeping the records longer than the last redelivery can come.",
        "Failing closed when a lookup fails.",
        "A new operation key for each delivery attempt.",
    ),
    answer="Keeping the records longer than the last redelivery can come.",
    explanation=(
        "At exactly 60 s the record has expired under the seed's convention, so the lookup finds "
        "nothing and the runtime calls again. A deduplicating receiver needs that same record, "
        "so it cannot help; no lookup failed, so failing closed changes nothing; a key per "
        "attempt would miss even a retained record. Records must outlive the last redelivery "
        "(or the boundary convention must count the expiry instant)."
    ),
)


EXPLORE_QUESTION = Question(
    prompt=(
        "The explorer ran every plan of up to 2 faults for the durable runtime under the seed's "
        "assumptions and found no second debit. What does that show?"
    ),
    options=(
        "The durable runtime can never debit twice.",
        "No combination of up to two of the modeled faults, at any point of any delivery, makes "
        "this model debit twice; more faults, other settings or unmodeled failures may.",
        "Two faults were tried at random and both were harmless.",
    ),
    answer="No combination of up to two of the modeled faults, at any point of any delivery, "
    "makes this model debit twice; more faults, other settings or unmodeled failures may.",
    explanation=(
        "An exhaustive search is a proof only within its bounds: every plan of up to k "
        "injections, over the modeled points and deliveries, under these settings. Change a "
        "setting (a key per attempt, a short retention, a second worker) and the same search "
        "finds a counterexample of one injection; a failure at a point the model does not name "
        "is outside the search altogether."
    ),
)


WORKERS_QUESTION = Question(
    prompt=(
        "The durable runtime claims the operation with a lease and checks the claim right "
        "before it dispatches. Worker 1's request stalls at the receiver after that check, "
        "past the lease, and worker 2 takes over. What keeps the debit single?"
    ),
    options=(
        "Nothing more is needed: the claim check already stopped worker 1.",
        "A fencing token the receiver checks, or a receiver that refuses a key already in "
        "progress: the check must happen where the debit happens.",
        "A longer pause.",
    ),
    answer="A fencing token the receiver checks, or a receiver that refuses a key already in "
    "progress: the check must happen where the debit happens.",
    explanation=(
        "The claim check was passed before the stall, so worker 1 does not know it lost the "
        "operation. Only the receiver sees both requests: with fencing it refuses the older "
        "token, with an in-progress record it tells the second request to retry later."
    ),
)


RECORDS_QUESTION = Question(
    prompt=(
        "20,000 trials with records kept 30 days show no duplicate at all. What may you "
        "conclude about the duplicate risk?"
    ),
    options=(
        "It is zero.",
        "It is probably below about 1.9 in 10,000 (3.84 / 20,000), the 95% interval's upper "
        "end: too few trials to show 1 in 10,000.",
        "It is exactly 1 in 20,000.",
    ),
    answer="It is probably below about 1.9 in 10,000 (3.84 / 20,000), the 95% interval's "
    "upper end: too few trials to show 1 in 10,000.",
    explanation=(
        "Seeing nothing in n trials bounds the risk, it does not rule it out: Wilson's 95% "
        "interval then runs from 0 to about 3.84 / n. Showing a risk below 1 in 10,000 with that "
        "confidence takes more than 38,000 trials without a duplicate."
    ),
)
