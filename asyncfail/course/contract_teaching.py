"""The idempotency contract in class: its plan, its reveals and its misconceptions.

The guide's own words (``course.teaching`` says what they are and the rules they follow). The
demos other lessons' plans point to are named here.
"""

from typing import Final

from asyncfail.contract.terms import ContractProfile
from asyncfail.course import questions
from asyncfail.course.demos import ContractDemo, ReadinessDemo
from asyncfail.course.setting_demos import SettingsDemo
from asyncfail.course.teaching import (
    PLAIN_CHECK,
    LessonPlan,
    Misconception,
    Reveal,
    Segment,
    lesson_ref,
    retention_hours,
    seconds,
)
from asyncfail.ground.durations import MAX_SECONDS
from asyncfail.ground.seed import RecommendationId

KEY_PER_ATTEMPT: Final = ContractDemo.of(scope="attempt")
"""The same intent 60 s later under a key per delivery attempt: applied twice."""
AT_RETENTION: Final = ContractDemo.of(delay_seconds=seconds(3600))
"""The same intent exactly at the default retention, under the seed's convention."""
AT_RETENTION_PLUS_ONE_HOUR: Final = ContractDemo.of(delay_seconds=seconds(7200))
"""The same intent an hour after the default retention ran out."""

_KEY_PER_ATTEMPT_LONGEST: Final = ContractDemo.of(
    scope="attempt", retention_seconds=seconds(MAX_SECONDS)
)
KEY_PER_ATTEMPT_AT_ONCE: Final = ContractDemo.of(scope="attempt", delay_seconds=seconds(0))
"""The same intent again at once under a key per delivery attempt: applied twice all the same."""
_OTHER_TENANT: Final = {"profile": "powertools", "scope": "operation", "second": "other-tenant"}
_NEW_AMOUNT: Final = {"profile": "powertools", "second": "different-amount"}
_STRIPE_H: Final = retention_hours(ContractProfile.STRIPE)
_BRANDUR_H: Final = retention_hours(ContractProfile.BRANDUR_POSTGRES)

PLAN: Final = LessonPlan(
    stem=ContractDemo.lesson,
    segments=(
        Segment(
            5,
            "Recap",
            f"Recall {lesson_ref(SettingsDemo.lesson)}: a key per delivery attempt, or a record "
            "that had expired, made the durable runtime debit twice. This experiment looks at "
            "the same assumptions from the receiver's side: what a second request finds.",
            "Say in one sentence what the receiver's idempotency key must identify.",
        ),
        Segment(
            10,
            "Key scope",
            "From the starting values, set the key scope to the delivery attempt, then the "
            "delay to 0. Ask before each change.",
            "Predict the record, the disposition and the effects before each change.",
        ),
        Segment(
            10,
            "Tenants and fingerprints",
            "Choose AWS Lambda Powertools, set the key scope to the business operation alone "
            "and the second request to another tenant, then switch the policy. Then reset the "
            "scope and send a different amount.",
            "Decide which outcomes are correct, and which leak a result or hide a request.",
        ),
        Segment(
            12,
            "The retention boundary",
            "Return every control to where it started. Before scrolling to the heatmaps, have "
            "learners sketch the grid; then set the delay equal to the retention and flip the "
            "boundary convention.",
            "Sketch where the second debit appears, then compare with the overview and the zoom.",
        ),
        Segment(
            7,
            "Real contracts",
            "Pick each profile in turn and read which knobs it fixes; set a fixed knob to "
            "another value to show the note on what that system does not do.",
            "For each profile, say how late a replay can come before it becomes a second debit.",
        ),
        PLAIN_CHECK,
    ),
    reveals=(
        Reveal(
            "a key per delivery attempt",
            (
                "The same intent arrives again 60 seconds later. Will the receiver find the "
                "first record?",
                "Would a shorter delay help?",
            ),
            (KEY_PER_ATTEMPT, KEY_PER_ATTEMPT_AT_ONCE),
        ),
        Reveal(
            "another tenant's request under a key of the operation alone",
            (
                "tenant-b sends its own order-42. What does it receive if the receiver does not "
                "compare fingerprints?",
                "And if it does?",
            ),
            (ContractDemo.of(**_OTHER_TENANT), ContractDemo.of(**_OTHER_TENANT, policy="enforce")),
        ),
        Reveal(
            "a different amount under Powertools",
            (
                "The same key arrives with 1500 instead of 1200. What does Powertools do with "
                "its defaults?",
                "What changes once payload validation is configured?",
            ),
            (ContractDemo.of(**_NEW_AMOUNT), ContractDemo.of(**_NEW_AMOUNT, policy="enforce")),
        ),
        Reveal(
            "the heatmaps",
            (
                "Sketch the grid of retention against delay: in which cells does the same "
                "intent become a second debit?",
                "What happens on the diagonal, where the delay equals the retention?",
            ),
            (
                ContractDemo.of(),
                AT_RETENTION,
                ContractDemo.of(delay_seconds=seconds(3600), boundary="retained-at-boundary"),
            ),
        ),
        Reveal(
            "a replay as old as a real system's retention",
            (
                f"Stripe prunes keys once they are at least {_STRIPE_H} hours old, and Brandur "
                f"Leach's reaper deletes them after {_BRANDUR_H} hours. Is a replay at exactly "
                "that age a second debit?",
            ),
            (
                ContractDemo.of(profile="stripe", delay_seconds=seconds(_STRIPE_H * 3600)),
                ContractDemo.of(
                    profile="brandur-postgres", delay_seconds=seconds(_BRANDUR_H * 3600)
                ),
            ),
        ),
    ),
    misconceptions=(
        Misconception(
            "An idempotency key per delivery attempt is enough.",
            "Each delivery attempt has a new id, so the receiver has never stored a record "
            "under the second attempt's key: the same intent is applied twice at every delay "
            "and every retention. The key must identify the business intent, the tenant and "
            f"the operation. In {lesson_ref(ReadinessDemo.lesson)}, a design that carries one "
            "key across attempts but "
            "scopes it to the delivery attempt fails the first P0 check.",
            (
                KEY_PER_ATTEMPT,
                _KEY_PER_ATTEMPT_LONGEST,
                ReadinessDemo(
                    RecommendationId.KEY_ACROSS_ATTEMPTS, changes=(("key_scope", "attempt"),)
                ),
            ),
        ),
        Misconception(
            "The operation id alone makes a good key.",
            "Two tenants can use the same operation id. With a key of the operation alone, "
            "tenant-b's order-42 finds tenant-a's record: if the receiver ignores fingerprints, "
            "tenant-b receives tenant-a's result; if it compares them, tenant-b's legitimate "
            "request is rejected. The IETF draft's security note asks for keys combined with "
            "client-specific attributes, and Brandur Leach's design keeps keys unique per user.",
            (
                ContractDemo.of(**_OTHER_TENANT),
                ContractDemo.of(scope="operation", second="other-tenant"),
            ),
        ),
        Misconception(
            "The same key means the same request.",
            "A key is the client's claim about its intent, and a client can get it wrong. AWS "
            "Lambda Powertools compares payloads only when validation is configured, so by "
            "default a different amount under a retained key silently receives the first "
            "result. Compare a request fingerprint: the IETF draft answers a mismatch with "
            "422, Stripe with an `idempotency_error`, Brandur Leach's design with 409.",
            (
                ContractDemo.of(**_NEW_AMOUNT),
                ContractDemo.of(profile="stripe", second="different-amount"),
            ),
        ),
        Misconception(
            "A longer retention always fixes it.",
            "Retention matters only when the second request's key finds the first record. "
            "With a key per delivery attempt no retention helps: nothing was ever stored under "
            "the new key. With a key that omits the tenant, a longer retention makes things "
            "worse: it lengthens the time in which another tenant receives tenant-a's result, "
            "while after expiry that request is correctly applied. For a well-scoped key, the "
            "retention has to outlive the longest replay: at exactly the boundary, under the "
            "seed's convention, the record is already gone, and one second more is enough.",
            (
                _KEY_PER_ATTEMPT_LONGEST,
                ContractDemo.of(**_OTHER_TENANT),
                ContractDemo.of(**_OTHER_TENANT, delay_seconds=seconds(7200)),
                AT_RETENTION,
                ContractDemo.of(delay_seconds=seconds(3600), retention_seconds=seconds(3601)),
            ),
        ),
    ),
    check=questions.CONTRACT_QUESTION,
)
