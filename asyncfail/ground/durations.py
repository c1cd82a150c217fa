"""Exact durations: whole milliseconds, read from decimal text, never a float on the way.

Every length of time the course takes in (a retention, a delay, a replay window) is a
``Duration``: a whole number of milliseconds. It is read from the text a person types by
``parse_duration``, the one parser the CLI, the lessons and the readiness checklist share, so
``3599.999`` is exactly 3,599,999 ms everywhere and a boundary can never move by rounding.
"""

import math
import re
import unicodedata
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from enum import StrEnum
from typing import Annotated, Any, Final, Self

from pydantic import (
    GetCoreSchemaHandler,
    GetJsonSchemaHandler,
    PlainSerializer,
    PlainValidator,
    WithJsonSchema,
)
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import core_schema

from asyncfail.ground.prose import echoed, plural

MILLIS_PER_SECOND: Final = 1000
MAX_SECONDS: Final = 30 * 86_400
"""30 days: the longest duration the course takes in, above every retention the real systems
document (1 h, 24 h, 72 h) with room."""


class TimeUnit(StrEnum):
    """The units a duration may be stated in."""

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


@dataclass(frozen=True, order=True, slots=True)
class Duration:
    """A length of time: a whole, non-negative number of milliseconds.

    Durations compare and add exactly. ``seconds`` is the exact decimal; ``json_number`` is
    what a JSON document holds (an integer for whole seconds, else the decimal, whose shortest
    float repr is the same digits: at most 10 significant digits fit a double exactly).
    """

    millis: int

    def __post_init__(self) -> None:
        if isinstance(self.millis, bool) or not isinstance(self.millis, int) or self.millis < 0:
            raise ValueError(
                f"a duration is a whole number of milliseconds >= 0, got {self.millis!r}"
            )

    @classmethod
    def of_seconds(cls, seconds: int) -> Self:
        """A whole number of seconds."""
        return cls(seconds * MILLIS_PER_SECOND)

    @property
    def seconds(self) -> Decimal:
        """The duration in seconds, exactly."""
        return Decimal(self.millis) / MILLIS_PER_SECOND

    @property
    def json_number(self) -> int | float:
        """Seconds as a JSON number: ``3600``, ``0.5``, ``3599.999``."""
        whole, rest = divmod(self.millis, MILLIS_PER_SECOND)
        return whole if rest == 0 else float(self.seconds)

    def __add__(self, other: "Duration") -> "Duration":
        return Duration(self.millis + other.millis)

    def __str__(self) -> str:
        """``3600 s``, ``0.5 s``: the seconds, as a person writes them."""
        return f"{_plain_decimal(self.seconds)} s"

    @classmethod
    def __get_pydantic_core_schema__(
        cls, source: type[Any], handler: GetCoreSchemaHandler
    ) -> core_schema.CoreSchema:
        return core_schema.no_info_plain_validator_function(
            _validate,
            serialization=core_schema.plain_serializer_function_ser_schema(
                lambda d: d.json_number, when_used="json"
            ),
        )

    @classmethod
    def __get_pydantic_json_schema__(
        cls, schema: core_schema.CoreSchema, handler: GetJsonSchemaHandler
    ) -> JsonSchemaValue:
        return {
            "type": "number",
            "minimum": 0,
            "maximum": MAX_SECONDS,
            "description": "Seconds, exact to the millisecond.",
        }


MAX_DURATION: Final = Duration.of_seconds(MAX_SECONDS)

ACCEPTED: Final = (
    f"a number of seconds from 0 to {MAX_SECONDS} (30 days), such as 60 or 0.5, written with "
    "the digits 0-9 and a dot as the decimal mark, to the millisecond"
)
"""What every duration field accepts, in words: the end of every error message."""

_NUMBER: Final = re.compile(r"[0-9]+(?:\.[0-9]*)?|\.[0-9]+")
MAX_DURATION_TEXT: Final = 40
"""The longest duration text read, in characters (also a lesson's ``max_length``): a duration
of at most 30 days to the millisecond is 7 + 1 + 3 characters, so a longer text could only pad
it with zeros. A longer text is refused before it is converted."""


def _plain_decimal(value: Decimal) -> str:
    """A decimal without exponent or trailing zeros: ``3600``, ``0.5``."""
    return f"{value.normalize():f}"


def _too_long(text: str) -> str:
    """Why a text longer than ``MAX_DURATION_TEXT`` is refused: a number whose whole part has
    more digits than ``MAX_SECONDS`` is longer than 30 days in every unit; anything else is
    too long to be a duration."""
    whole = text.partition(".")[0].lstrip("0")
    if _NUMBER.fullmatch(text) and len(whole) > len(str(MAX_SECONDS)):
        return f"is longer than 30 days ({MAX_SECONDS:,} seconds)"
    return (
        f"is {len(text):,} characters long, too long for a duration ({MAX_DURATION_TEXT} at most)"
    )


def _problem(text: str) -> str:
    """Why ``text`` is not a plain decimal number, in the words a person needs to fix it."""
    if not text:
        return "is empty"
    if text.startswith("-") and _NUMBER.fullmatch(text[1:]):
        return "must not be negative"
    if "," in text:
        return "uses a comma: use a dot as the decimal mark and no thousands separators"
    if any(unicodedata.category(c) == "Nd" and not c.isascii() for c in text):
        return "uses digits other than 0-9"
    if re.fullmatch(r"[+-]?[0-9.]+[eE][+-]?[0-9]+", text):
        return "has an exponent: write the number out in full"
    return "is not a number"


def parse_amount(text: str) -> Decimal:
    """A plain non-negative decimal, exactly, from ``text`` (surrounding whitespace ignored).

    Accepted: ASCII digits with at most one dot (``60``, ``0.5``, ``.5``, ``1.``), in at most
    ``MAX_DURATION_TEXT`` characters. Everything else raises ValueError with the reason: too
    long (``_too_long``), empty, negative, a comma, other digits, an exponent, or not a number
    at all.
    """
    stripped = text.strip()
    if len(stripped) > MAX_DURATION_TEXT:
        raise ValueError(_too_long(stripped))
    if not _NUMBER.fullmatch(stripped):
        raise ValueError(_problem(stripped))
    try:
        return Decimal(stripped)
    except InvalidOperation:  # pragma: no cover - the pattern admits only valid decimals
        raise ValueError("is not a number") from None


def duration_of(amount: Decimal, unit: TimeUnit = TimeUnit.SECONDS) -> Duration:
    """``amount`` of ``unit`` as a duration, exactly: ValueError if it is finer than a
    millisecond or longer than ``MAX_SECONDS``."""
    millis = amount * UNIT_SECONDS[unit] * MILLIS_PER_SECOND
    if millis > MAX_DURATION.millis:
        raise ValueError(f"is longer than 30 days ({MAX_SECONDS:,} seconds)")
    if millis != millis.to_integral_value():
        raise ValueError(
            "is finer than a millisecond: give whole milliseconds (at most three decimals of a "
            "second)"
        )
    return Duration(int(millis))


def parse_duration(text: str, unit: TimeUnit = TimeUnit.SECONDS) -> Duration:
    """The one reading of a duration typed as text: ``parse_amount`` then ``duration_of``.

    ValueError carries the reason alone (``must not be negative``); callers name the field and
    add ``ACCEPTED`` (``duration_error`` does both).
    """
    return duration_of(parse_amount(text), unit)


def duration_error(field: str, text: str, reason: str) -> str:
    """One line: the field, what was given (cut short), why it was refused, what is accepted."""
    return f"{field}: {echoed(text.strip())} {reason}; give {ACCEPTED}"


def describe_amount(amount: Decimal, unit: TimeUnit) -> str:
    """``36 hours (129,600 seconds)`` in the learner's own unit; seconds alone if so given."""
    own = f"{_grouped(amount)} {plural(amount, unit.value.removesuffix('s'))}"
    if unit is TimeUnit.SECONDS:
        return own
    seconds = amount * UNIT_SECONDS[unit]
    return f"{own} ({_grouped(seconds)} {plural(seconds, 'second')})"


def _grouped(value: Decimal) -> str:
    """A decimal as a person writes it: no exponent, no trailing zeros, thousands separated."""
    return f"{value.normalize():,f}"


def _validate(value: object, cap: Duration | None = MAX_DURATION) -> Duration:
    """What a pydantic field of type ``Duration`` accepts: a Duration, a whole number of seconds,
    an exact Decimal, or decimal text (``parse_duration``); never a float (it cannot be exact)
    nor a bool; at most ``MAX_SECONDS`` (``cap``; a ``ClockTime`` has none)."""
    try:
        match value:
            case Duration():
                duration = value
            case bool() | float():
                raise ValueError("is not exact: give the seconds as text or a whole number")
            case int() | Decimal() if not Decimal(value).is_finite() or value < 0:
                raise ValueError("must not be negative")
            case int() | Decimal():
                duration = duration_of(Decimal(value))
            case str():
                duration = parse_duration(value)
            case _:
                raise ValueError(f"is a {type(value).__name__}, not a duration")
        if cap is not None and duration > cap:
            raise ValueError(f"is longer than 30 days ({MAX_SECONDS:,} seconds)")
    except ValueError as error:
        raise ValueError(f"{echoed(str(value))} {error}; give {ACCEPTED}") from None
    return duration


HUMAN_UNITS: Final = (("d", 86_400), ("h", 3600), ("min", 60), ("s", 1))
"""Units a person reads a length of time in, largest first."""


def human_unit(largest: Duration) -> tuple[str, int]:
    """The unit to show durations up to ``largest`` in: the largest unit of which ``largest``
    holds at least two (so an axis never reads 0.5 d), else seconds. Returns (name, seconds)."""
    return next(
        ((name, size) for name, size in HUMAN_UNITS if largest.millis >= 2 * size * 1000),
        HUMAN_UNITS[-1],
    )


def human(duration: Duration) -> str:
    """A duration as a person reads it, exactly: in the largest unit that holds at least one of
    it and shows it exactly with at most three decimals, else in seconds (always exact to the
    millisecond): ``90 s``, ``1 h``, ``1.5 h``, ``3 d``, ``3599.999 s``."""
    for name, size in HUMAN_UNITS:
        value = Decimal(duration.millis) / (size * MILLIS_PER_SECOND)
        if duration.millis >= size * 1000 and value == value.quantize(Decimal("0.001")):
            return f"{_plain_decimal(value)} {name}"
    return str(duration)


def _validate_clock(value: object) -> Duration:
    return _validate(value, cap=None)


ClockTime = Annotated[
    Duration,
    PlainValidator(_validate_clock),
    PlainSerializer(lambda d: d.json_number, when_used="json"),
    WithJsonSchema(
        {
            "type": "number",
            "minimum": 0,
            "description": "Seconds on a run's clock, from its first delivery, exact to the "
            "millisecond.",
        }
    ),
]
"""A time on a run's virtual clock: a ``Duration`` without the 30-day cap of an input, since
delays add up (a run whose redeliveries wait 30 days each runs past 30 days)."""


def approx(duration: Duration, *, up: bool = False) -> str:
    """A duration to three significant digits in the largest unit that holds at least one of
    it: ``3.76 d``, ``6.33 s``; ``up`` rounds up, so "at least" stays true of the figure."""
    for name, size in HUMAN_UNITS:
        if duration.millis >= size * 1000 or size == 1:
            value = duration.millis / (size * 1000)
            if value == 0:
                return f"0 {name}"
            digits = 3 - 1 - math.floor(math.log10(value))
            scale = 10.0**digits
            shown = (math.ceil if up else round)(value * scale) / scale
            return f"{shown:g} {name}"
    raise AssertionError("seconds hold every duration")
