"""The lab's settings: every assumption of the seed made a knob a learner can break.

With every setting at its default the lab is the seed's: a stable key, a record retained for the
whole run and written with the debit, lookups that answer, a store that can be written, a
receiver that looks keys up without deduplicating, and one worker, with no claims or fencing
tokens. Each setting's rule is stated where the
model applies it (``actors``, ``runtimes``, ``simulation``).
"""

from enum import StrEnum
from typing import Final

from pydantic import BaseModel, Field, model_validator

from asyncfail.ground.durations import Duration
from asyncfail.ground.frozen import FROZEN
from asyncfail.ground.retention import BoundaryConvention
from asyncfail.lab.schedules import DEFAULT_REDELIVERY_DELAY, Schedule


class ReceiverContract(StrEnum):
    """What the receiver does with a keyed request whose key it already holds."""

    LOOKUP_ONLY = "lookup-only"
    """It stores a record with each keyed debit and answers lookups, but applies a repeated
    keyed request again (the seed's receiver)."""
    DEDUPE = "dedupe"
    """A keyed request whose record is retained gets the stored result, with no second debit
    (as the contract experiment's "reused")."""


class KeyStability(StrEnum):
    """Where the operation key the durable and checkpoint runtimes send comes from."""

    STABLE = "stable"
    """The business operation: the same key on every delivery attempt (the seed's)."""
    PER_ATTEMPT = "per-attempt"
    """The delivery attempt: a new key on each redelivery, as when an activity's execution id
    changes on each retry."""
    NONE = "none"
    """No key at all: a plain engine step's request (the checkpoint runtime only; the durable
    runtime needs a key to look up, and refuses it)."""


class RecordWrite(StrEnum):
    """How the receiver writes a keyed debit's idempotency record."""

    ATOMIC = "atomic"
    """In the same transaction as the debit: both commit, or neither (the seed's)."""
    SEPARATE = "separate"
    """In its own transaction after the debit: a crash between them leaves a debit without
    its record."""


class Availability(StrEnum):
    """Whether a service answers."""

    AVAILABLE = "available"
    OUTAGE = "outage"


class OutagePolicy(StrEnum):
    """What the durable runtime does when a service it needs does not answer."""

    FAIL_CLOSED = "fail-closed"
    """No effect-capable call without the answer: wait (release the delivery) or park the
    operation for an operator."""
    FAIL_OPEN = "fail-open"
    """Carry on without the answer: call anyway."""


class Claim(StrEnum):
    """Whether the durable runtime claims the operation in its journal before it acts."""

    NONE = "none"
    """No claim: any worker handed the operation acts on it (the seed's)."""
    LEASE = "lease"
    """A claim that holds for ``lease`` from its last check: a worker that finds another's
    claim holding releases its delivery, and one whose claim expired stops before it
    dispatches."""


class Fencing(StrEnum):
    """Whether requests carry a fencing token the receiver checks."""

    NONE = "none"
    """No tokens (the seed's)."""
    TOKEN = "token"
    """Each claim of the operation gets a larger token; the receiver refuses a request whose
    token is older than the largest it has accepted (Martin Kleppmann's fencing tokens)."""


class StepRetries(StrEnum):
    """Whether the checkpoint runtime's step retries a call that got no reply, within the
    delivery (an engine's step retry policy)."""

    ONCE = "once"
    """Once: a second call in the same delivery, as Temporal's and Restate's default policies
    retry a step, and as the course's DBOS application allows (two attempts)."""
    OFF = "off"
    """Never: the step fails, the engine records its error and ends the workflow in error,
    which it does not run again by itself (DBOS's default: ``retries_allowed=False``)."""


MAX_WORKERS: Final = 2
"""The most workers the channel may hand the operation to at once."""

DEFAULT_LEASE: Final = Duration.of_seconds(30)
"""A delivery's lease unless given: SQS's default visibility timeout, 30 s."""

DEFAULT_PAUSE: Final = Duration.of_seconds(60)
"""How long an injected pause lasts unless given: longer than the default lease, so a paused
worker's delivery is handed on."""

DEFAULT_CLIENT_TIMEOUT: Final = Duration.of_seconds(60)
"""How long the worker waits for a call's reply unless given: 60 s, the read timeout of
botocore, the AWS SDK for Python (``Config(read_timeout=60)``), as a worker in the lab's
AWS-shaped world (SQS's 30 s visibility, Powertools, Step Functions) would have. Common clients
differ: httpx gives up after 5 s of silence, aiohttp after 300 s in all, requests and Go's
``net/http`` wait for ever unless told; the reference implementation waits 0.5 s (against its
0.1 s visibility timeout). A stall of the default pause (60 s) is therefore waited out, not
longer than the timeout; a longer stall, or a shorter timeout (``--client-timeout 5``, httpx's),
times out while the request runs on."""


SETTING_DESCRIPTIONS: Final[dict[str, str]] = {
    "schedule": "How the channel spaces redeliveries: a fixed delay, or a real engine's backoff.",
    "redelivery_delay": "The fixed schedule's delay before each redelivery (an SQS-style "
    "visibility timeout).",
    "retention": "How long the receiver keeps an idempotency record; none: for the whole run "
    "(the seed's assumption).",
    "boundary": "Whether a record still counts at exactly its expiry.",
    "receiver": "Whether the receiver only records keys and answers lookups (the seed's), or "
    "also deduplicates a repeated keyed request.",
    "key": "Whether the durable runtime's operation key is stable (the seed's) or changes "
    "with each delivery attempt; the checkpoint runtime may also send none.",
    "record": "Whether the receiver writes the idempotency record with the debit (the "
    "seed's) or in a separate transaction.",
    "lookup": "Whether lookups by key answer (the seed's) or the lookup service is down for "
    "the whole run.",
    "on_lookup_outage": "What the durable runtime does when a lookup fails: park the operation "
    "for an operator (fail-closed), or call again (fail-open).",
    "store": "Whether the durable runtime's journal can be written (the seed's) or is down "
    "during the first delivery.",
    "on_store_outage": "What the durable runtime does when it cannot write its journal: "
    "release the delivery to try later (fail-closed), or dispatch without a recorded intent "
    "(fail-open).",
    "workers": "How many workers the channel may hand the operation to: one (the seed's), or "
    "two, so a second takes over when the first one's lease runs out while it is paused.",
    "lease": "How long a worker holds a delivery (and, with a claim, the operation) before "
    "another may take it over.",
    "pause": "How long an injected pause lasts (a GC pause, a stalled call).",
    "client_timeout": "How long the worker waits for a call's reply before it takes the call "
    "for a timeout: a request stalled longer than this times out, though it may still commit "
    "later.",
    "claim": "Whether the durable runtime claims the operation in its journal with a lease "
    "before it acts (lease), or not (none, the seed's).",
    "fencing": "Whether each claim gets a larger fencing token that the receiver checks, "
    "refusing an older one (token), or not (none, the seed's).",
    "replay_after": "How long after the channel gives up an operator replays the abandoned "
    "delivery by hand; none: nobody does (the seed's).",
    "step_retries": "Whether the checkpoint runtime's step retries a call without a reply once "
    "in the same delivery, or never (off, DBOS's default: the workflow ends in error).",
}
"""Each setting in one sentence: the model's field descriptions, the CLI's help and the
lesson's labels all read it from here."""


class LabSettings(BaseModel):
    """The knobs of one run; every default is the seed's assumption."""

    model_config = FROZEN

    schedule: Schedule = Field(Schedule.FIXED, description=SETTING_DESCRIPTIONS["schedule"])
    redelivery_delay: Duration = Field(
        DEFAULT_REDELIVERY_DELAY, description=SETTING_DESCRIPTIONS["redelivery_delay"]
    )
    retention: Duration | None = Field(None, description=SETTING_DESCRIPTIONS["retention"])
    boundary: BoundaryConvention = Field(
        BoundaryConvention.EXPIRED_AT_BOUNDARY, description=SETTING_DESCRIPTIONS["boundary"]
    )
    receiver: ReceiverContract = Field(
        ReceiverContract.LOOKUP_ONLY, description=SETTING_DESCRIPTIONS["receiver"]
    )
    key: KeyStability = Field(KeyStability.STABLE, description=SETTING_DESCRIPTIONS["key"])
    record: RecordWrite = Field(RecordWrite.ATOMIC, description=SETTING_DESCRIPTIONS["record"])
    lookup: Availability = Field(Availability.AVAILABLE, description=SETTING_DESCRIPTIONS["lookup"])
    on_lookup_outage: OutagePolicy = Field(
        OutagePolicy.FAIL_CLOSED, description=SETTING_DESCRIPTIONS["on_lookup_outage"]
    )
    store: Availability = Field(Availability.AVAILABLE, description=SETTING_DESCRIPTIONS["store"])
    on_store_outage: OutagePolicy = Field(
        OutagePolicy.FAIL_CLOSED, description=SETTING_DESCRIPTIONS["on_store_outage"]
    )
    workers: int = Field(1, ge=1, le=MAX_WORKERS, description=SETTING_DESCRIPTIONS["workers"])
    lease: Duration = Field(DEFAULT_LEASE, description=SETTING_DESCRIPTIONS["lease"])
    pause: Duration = Field(DEFAULT_PAUSE, description=SETTING_DESCRIPTIONS["pause"])
    client_timeout: Duration = Field(
        DEFAULT_CLIENT_TIMEOUT, description=SETTING_DESCRIPTIONS["client_timeout"]
    )
    claim: Claim = Field(Claim.NONE, description=SETTING_DESCRIPTIONS["claim"])
    fencing: Fencing = Field(Fencing.NONE, description=SETTING_DESCRIPTIONS["fencing"])
    replay_after: Duration | None = Field(None, description=SETTING_DESCRIPTIONS["replay_after"])
    step_retries: StepRetries = Field(
        StepRetries.ONCE, description=SETTING_DESCRIPTIONS["step_retries"]
    )

    @model_validator(mode="after")
    def _delay_only_for_the_fixed_schedule(self) -> "LabSettings":
        if "redelivery_delay" in self.model_fields_set and self.schedule is not Schedule.FIXED:
            raise ValueError(
                f"redelivery_delay sets the fixed schedule's delay; the {self.schedule} "
                "schedule has its own (drop the delay, or use the fixed schedule)"
            )
        return self

    def changed(self) -> tuple[str, ...]:
        """The settings that differ from the seed's, in declaration order."""
        seed = DEFAULT_SETTINGS
        return tuple(
            name for name in type(self).model_fields if getattr(self, name) != getattr(seed, name)
        )


DEFAULT_SETTINGS: Final = LabSettings()
"""The seed's assumptions, every one kept."""
