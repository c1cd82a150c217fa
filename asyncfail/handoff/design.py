"""The learner's own design, as the replay-readiness checklist asks for it.

Each question is written once here (``QUESTIONS``) and read by the lesson's controls, the report's
design table and its list of open questions. Answers are tri-states, durations in a unit of the
learner's choice, and free-text owners; every one may be left unknown.
"""

from decimal import Decimal
from enum import StrEnum
from typing import Final

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from asyncfail.contract.terms import MAX_SECONDS, KeyScope
from asyncfail.ground.prose import plural
from asyncfail.handoff.markup import plain

MAX_TEXT: Final = 10_000
"""The longest free-text answer accepted (an owner's name or team), in characters."""


class Answer(StrEnum):
    """A yes/no question the learner may not be able to answer yet."""

    YES = "yes"
    NO = "no"
    UNKNOWN = "unknown"


# ---------------------------------------------------------------------------------------------
# Durations


class TimeUnit(StrEnum):
    """The units a learner may state a duration in."""

    SECONDS = "seconds"
    MINUTES = "minutes"
    HOURS = "hours"
    DAYS = "days"


UNIT_SECONDS: Final[dict[TimeUnit, int]] = {
    TimeUnit.SECONDS: 1,
    TimeUnit.MINUTES: 60,
    TimeUnit.HOURS: 3600,
    TimeUnit.DAYS: 86_400,
}

_MILLISECOND: Final = Decimal("0.001")


def _number(value: Decimal) -> str:
    """A decimal as a person writes it: no exponent, no trailing zeros, thousands separated."""
    return f"{value.normalize():,f}"


class Duration(BaseModel):
    """A length of time as the learner states it: an amount in a unit they pick.

    Rules: the amount is a finite, non-negative decimal; ``seconds`` is ``amount`` times the
    unit's length in seconds, computed in decimal arithmetic, so ``1.1 hours`` is exactly 3,960 s
    (binary floating point makes it 3960.0000000000005 and moves a boundary). The result
    must be a whole number of milliseconds (so the contract experiment, which works in floats,
    compares it exactly) and at most the experiment's ``MAX_SECONDS`` (30 days).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    amount: Decimal = Field(ge=0, allow_inf_nan=False)
    unit: TimeUnit = TimeUnit.SECONDS

    @field_validator("amount")
    @classmethod
    def _no_negative_zero(cls, amount: Decimal) -> Decimal:
        # -0 becomes 0; copy_abs, unlike adding 0, never rounds to the context's precision.
        return amount.copy_abs() if amount.is_zero() else amount

    @model_validator(mode="after")
    def _exact_and_in_range(self) -> "Duration":
        seconds = self.seconds
        if seconds > MAX_SECONDS:
            raise ValueError(
                f"{self.describe()} is longer than the contract experiment's limit of "
                f"{MAX_SECONDS // 86_400} days ({MAX_SECONDS:,} seconds)"
            )
        if seconds % _MILLISECOND:
            raise ValueError(
                f"{self.describe()} is not a whole number of milliseconds; "
                "give fewer decimal places"
            )
        return self

    @property
    def seconds(self) -> Decimal:
        """The duration in seconds, exactly."""
        return self.amount * UNIT_SECONDS[self.unit]

    def describe(self) -> str:
        """The learner's own terms, ``36 hours (129,600 seconds)``; seconds alone if so given."""
        own = f"{_number(self.amount)} {plural(self.amount, self.unit.value.removesuffix('s'))}"
        if self.unit is TimeUnit.SECONDS:
            return own
        seconds = self.seconds
        return f"{own} ({_number(seconds)} {plural(seconds, 'second')})"


def duration_from_text(field: str, amount: str, unit: TimeUnit | str) -> Duration | None:
    """A duration as a learner types it: blank means not known yet (None).

    Otherwise the amount must be a plain non-negative decimal number (a comma or space as a
    thousands separator is allowed) and the whole must satisfy ``Duration``'s rules; a
    ValueError names ``field`` and says what is accepted.
    """
    text = amount.strip().replace(",", "").replace(" ", "").replace("_", "")
    if not text:
        return None
    units = ", ".join(u.value for u in TimeUnit)
    try:
        value = Decimal(text)
    except ArithmeticError:
        value = None
    if value is None or not value.is_finite() or value < 0 or not text[0].isdigit():
        raise ValueError(
            f"{field}: {amount.strip()[:40]!r} is not a number; give a non-negative number "
            f"such as 24 or 1.5, in {units}, or leave it blank if you do not know"
        )
    try:
        return Duration(amount=value, unit=TimeUnit(unit))
    except ValidationError as error:
        reason = error.errors()[0]["msg"].removeprefix("Value error, ")
        raise ValueError(f"{field}: {reason}") from None


# ---------------------------------------------------------------------------------------------
# The questions


class Role(StrEnum):
    """The three recovery duties the seed's recommendation names, each with an owner to name."""

    PAUSE_OWNER = "pause dispatch"
    REPLAY_APPROVER = "approve replay"
    STATE_VERIFIER = "verify the final business state"

    @property
    def question(self) -> str:
        """``Who can approve replay?``"""
        return f"Who can {self.value}?"


QUESTIONS: Final[dict[str, str]] = {
    "key_across_attempts": "Is one operation key carried across every delivery attempt?",
    "key_scope": "What does the key identify: the delivery attempt, the business operation, or "
    "the tenant and the operation?",
    "unknown_outcome_separate": "Is an unknown outcome represented separately from failed?",
    "lookup_by_key": "Is a lookup by operation key available at the effect boundary?",
    "retention": "How long are deduplication records retained?",
    "replay_window": "What is the longest replay window?",
    "fingerprint_compared": "Is a request fingerprint compared when a key is reused?",
    **{role.name.lower(): role.question for role in Role},
}
"""Every question of the checklist, by the ``ReplayDesign`` field that holds its answer, in the
order the design asks them: the lesson's labels, the report's design table and its open
questions all read them from here."""

HINTS: Final[dict[str, str]] = {
    "replay_window": "How late a retry or a manual replay of this operation can arrive.",
    "retention": "How long the receiver keeps the record it deduplicates by.",
}
"""A sentence of help under a question, where the question alone may be read two ways."""


class ReplayDesign(BaseModel):
    """What a learner says about their own design; every answer may be left unknown.

    ``key_scope`` and the durations are ``None`` while unknown; owners are free text, unnamed
    while blank (see ``named``). Nothing here is sent anywhere: it is a value in memory.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    key_across_attempts: Answer = Field(
        Answer.UNKNOWN, description=QUESTIONS["key_across_attempts"]
    )
    key_scope: KeyScope | None = Field(None, description=QUESTIONS["key_scope"])
    unknown_outcome_separate: Answer = Field(
        Answer.UNKNOWN, description=QUESTIONS["unknown_outcome_separate"]
    )
    lookup_by_key: Answer = Field(Answer.UNKNOWN, description=QUESTIONS["lookup_by_key"])
    retention: Duration | None = Field(None, description=QUESTIONS["retention"])
    replay_window: Duration | None = Field(None, description=QUESTIONS["replay_window"])
    fingerprint_compared: Answer = Field(
        Answer.UNKNOWN, description=QUESTIONS["fingerprint_compared"]
    )
    pause_owner: str = Field("", max_length=MAX_TEXT, description=QUESTIONS["pause_owner"])
    replay_approver: str = Field("", max_length=MAX_TEXT, description=QUESTIONS["replay_approver"])
    state_verifier: str = Field("", max_length=MAX_TEXT, description=QUESTIONS["state_verifier"])

    def owner(self, role: Role) -> str:
        """The learner's text for who owns ``role``."""
        text: str = getattr(self, role.name.lower())
        return text

    def answered(self, field: str) -> bool:
        """Whether the question of ``field`` has an answer (an owner: a name, see ``named``)."""
        value = getattr(self, field)
        if isinstance(value, str) and field in {r.name.lower() for r in Role}:
            return named(value)
        return value is not None and value is not Answer.UNKNOWN


def named(text: str) -> bool:
    """Whether a free-text answer names someone: it shows something once normalized (``plain``
    drops whitespace and control characters)."""
    return bool(plain(text))


def open_questions(design: ReplayDesign) -> tuple[str, ...]:
    """The questions the learner has not answered yet, in the order the design asks them."""
    return tuple(question for field, question in QUESTIONS.items() if not design.answered(field))
