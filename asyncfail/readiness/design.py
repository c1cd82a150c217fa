"""The learner's own design, as the replay-readiness checklist asks for it.

Each question is written once here (``QUESTIONS``) and read by the lesson's controls, the report's
design table and its list of open questions. Answers are tri-states, durations in a unit of the
learner's choice, and free-text owners; every one may be left unknown.
"""

from decimal import Decimal
from enum import StrEnum
from typing import Final

from pydantic import BaseModel, Field, ValidationError, field_validator, model_validator

from asyncfail.contract.terms import KeyScope
from asyncfail.document.markup import plain
from asyncfail.ground.durations import (
    Duration,
    TimeUnit,
    describe_amount,
    duration_of,
    parse_amount,
)
from asyncfail.ground.frozen import FROZEN
from asyncfail.ground.prose import echoed

MAX_TEXT: Final = 10_000
"""The longest free-text answer accepted (an owner's name or team), in characters."""


class Answer(StrEnum):
    """A yes/no question the learner may not be able to answer yet."""

    YES = "yes"
    NO = "no"
    UNKNOWN = "unknown"


# ---------------------------------------------------------------------------------------------
# Durations


class StatedDuration(BaseModel):
    """A length of time as the learner states it: an amount in a unit they pick.

    Rules: the amount is a finite, non-negative decimal; the duration is ``amount`` times the
    unit, exactly (``1.1 hours`` is 3,960 s, where binary floating point would make it
    3960.0000000000005 and move a boundary), and must satisfy the library's one duration rule
    (``ground.durations.duration_of``): whole milliseconds, at most 30 days.
    """

    model_config = FROZEN

    amount: Decimal = Field(ge=0, allow_inf_nan=False)
    unit: TimeUnit = TimeUnit.SECONDS

    @field_validator("amount")
    @classmethod
    def _no_negative_zero(cls, amount: Decimal) -> Decimal:
        # -0 becomes 0; copy_abs, unlike adding 0, never rounds to the context's precision.
        return amount.copy_abs() if amount.is_zero() else amount

    @model_validator(mode="after")
    def _exact_and_in_range(self) -> "StatedDuration":
        try:
            duration_of(self.amount, self.unit)
        except ValueError as error:
            raise ValueError(f"{self.describe()} {error}") from None
        return self

    @property
    def duration(self) -> Duration:
        """The exact duration."""
        return duration_of(self.amount, self.unit)

    @property
    def seconds(self) -> Decimal:
        """The duration in seconds, exactly."""
        return self.duration.seconds

    def describe(self) -> str:
        """The learner's own terms, ``36 hours (129,600 seconds)``; seconds alone if so given."""
        return describe_amount(self.amount, self.unit)


_EXACT_DIGITS: Final = 20
"""The most significant digits an amount may have to be described in the learner's own terms
(``describe``): its value in seconds stays within the 28 digits of Python's default decimal
context. A longer amount is out of range or finer than a millisecond anyway, and is refused with
its text echoed, cut short."""


def duration_from_text(field: str, amount: str, unit: TimeUnit | str) -> StatedDuration | None:
    """A duration as a learner types it: blank means not known yet (None).

    Otherwise the amount is read by the library's one number reader (``parse_amount``: ASCII
    digits and a dot, nothing else) and the whole must satisfy ``StatedDuration``'s rules; a
    ValueError names ``field``, says what was wrong and what is accepted.
    """
    if not amount.strip():
        return None
    unit = TimeUnit(unit)
    accepted = (
        f"give a number of {unit.value} such as 24 or 1.5, with the digits 0-9 and a dot as "
        "the decimal mark, up to 30 days, or leave it blank if you do not know"
    )
    try:
        number = parse_amount(amount)
        if len(number.as_tuple().digits) > _EXACT_DIGITS:
            # Arithmetic in the default context would round it and describe another number.
            duration_of(number, unit)
        return StatedDuration(amount=number, unit=unit)
    except ValueError as error:
        reason = str(error)
        if isinstance(error, ValidationError):
            reason = error.errors()[0]["msg"].removeprefix("Value error, ")
        else:
            reason = f"{echoed(amount.strip())} {reason}"
        raise ValueError(f"{field}: {reason}; {accepted}") from None


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

    model_config = FROZEN

    key_across_attempts: Answer = Field(
        Answer.UNKNOWN, description=QUESTIONS["key_across_attempts"]
    )
    key_scope: KeyScope | None = Field(None, description=QUESTIONS["key_scope"])
    unknown_outcome_separate: Answer = Field(
        Answer.UNKNOWN, description=QUESTIONS["unknown_outcome_separate"]
    )
    lookup_by_key: Answer = Field(Answer.UNKNOWN, description=QUESTIONS["lookup_by_key"])
    retention: StatedDuration | None = Field(None, description=QUESTIONS["retention"])
    replay_window: StatedDuration | None = Field(None, description=QUESTIONS["replay_window"])
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


FIELD_NAMES: Final[dict[str, str]] = {
    "key_across_attempts": "One key across attempts",
    "key_scope": "Key scope",
    "unknown_outcome_separate": "Unknown outcome",
    "lookup_by_key": "Lookup by key",
    "retention": "Retention",
    "replay_window": "Replay window",
    "fingerprint_compared": "Fingerprint",
    **{role.name.lower(): f"Who can {role.value}" for role in Role},
}
"""Each answer as an error message names it."""

UNKNOWN_SCOPE: Final = "unknown"
"""How a form says the key's scope is not known (``key_scope=None``)."""


def _read(field: str, raw: object) -> object:
    """One raw answer as ``ReplayDesign`` holds it, or ValueError with a one-line reason."""
    match field:
        case "retention" | "replay_window":
            amount, unit = raw if isinstance(raw, tuple) else (raw, TimeUnit.SECONDS)
            return duration_from_text(FIELD_NAMES[field], str(amount or ""), unit)
        case "key_scope":
            if raw in (None, UNKNOWN_SCOPE):
                return None
            options = ", ".join([*(s.value for s in KeyScope), UNKNOWN_SCOPE])
            if raw not in {s.value for s in KeyScope}:
                raise ValueError(
                    f"{FIELD_NAMES[field]}: {echoed(str(raw))} is not one of {options}"
                )
            return KeyScope(str(raw))
        case _ if field in _OWNER_FIELDS:
            text = "" if raw is None else str(raw)
            if not is_text(text):
                raise ValueError(
                    f"{FIELD_NAMES[field]}: {echoed(text)} holds a character that is not text "
                    "(a lone surrogate, U+D800 to U+DFFF); give a name or team in plain text"
                )
            if len(text) > MAX_TEXT:
                raise ValueError(
                    f"{FIELD_NAMES[field]}: {len(text):,} characters; at most {MAX_TEXT:,} are "
                    "read, so this answer counts as not named"
                )
            return text
        case _:
            options = ", ".join(a.value for a in Answer)
            if raw not in {a.value for a in Answer}:
                raise ValueError(
                    f"{FIELD_NAMES[field]}: {echoed(str(raw))} is not one of {options}"
                )
            return Answer(str(raw))


_OWNER_FIELDS: Final = frozenset(role.name.lower() for role in Role)


def is_text(value: str) -> bool:
    """Whether ``value`` is text that can be stored and shown: every character encodes in UTF-8.

    The one gap is a lone surrogate (U+D800 to U+DFFF, half of a UTF-16 pair): Python strings
    may hold one (a browser's form can send one), but no UTF-8 document, JSON included, can.
    """
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def design_from_answers(answers: dict[str, object]) -> tuple[ReplayDesign, tuple[str, ...]]:
    """A design from a form's raw answers, one question at a time.

    Durations come as ``(amount text, unit)``, the scope as a scope or ``unknown``, owners as
    text, the rest as ``yes``, ``no`` or ``unknown``. An answer that cannot be read is left
    unknown and reported in one line naming the question and what is accepted, so the rest of
    the design is still assessed. Questions not in ``answers`` stay unknown.
    """
    read: dict[str, object] = {}
    errors: list[str] = []
    for field in QUESTIONS:
        if field not in answers:
            continue
        try:
            read[field] = _read(field, answers[field])
        except ValueError as error:
            errors.append(str(error))
    return ReplayDesign.model_validate(read), tuple(errors)
