"""The one duration type: exact milliseconds from decimal text, the same reading everywhere.

The expectations are written by hand from the rules (ASCII digits, one dot, whole
milliseconds, 0 to 30 days), not computed by the parser under test.
"""

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import BaseModel, ValidationError

from asyncfail.ground.durations import (
    ACCEPTED,
    MAX_DURATION_TEXT,
    MAX_SECONDS,
    Duration,
    TimeUnit,
    duration_error,
    duration_of,
    parse_duration,
)
from asyncfail.ground.prose import ECHO_LIMIT, echoed

READ = [
    ("0", 0),
    ("60", 60_000),
    ("0.5", 500),
    (".5", 500),
    ("5.", 5_000),
    ("3599.999", 3_599_999),
    ("2591999.999", 2_591_999_999),
    ("2592000", 2_592_000_000),
    ("2592000.000000", 2_592_000_000),
    ("0000060", 60_000),
    ("  60\t", 60_000),
]

REFUSED = [
    ("", "is empty"),
    ("   ", "is empty"),
    ("-3", "must not be negative"),
    ("-0.5", "must not be negative"),
    ("1,5", "uses a comma"),
    ("1,000", "uses a comma"),
    ("\u0663", "digits other than 0-9"),  # Arabic-Indic three
    ("\uff13", "digits other than 0-9"),  # fullwidth three
    ("\u0967\u0968", "digits other than 0-9"),  # Devanagari twelve
    ("1e3", "exponent"),
    ("1e-400", "exponent"),
    ("1E+2", "exponent"),
    ("3599.9999999999", "finer than a millisecond"),
    ("3599.99999999999999999", "finer than a millisecond"),
    ("0.0001", "finer than a millisecond"),
    ("2592000.0000000001", "longer than 30 days"),
    ("2592000.001", "longer than 30 days"),
    ("9" * 5000, "longer than 30 days"),
    ("nan", "not a number"),
    ("inf", "not a number"),
    ("1_000", "not a number"),
    ("+5", "not a number"),
    ("1.2.3", "not a number"),
    ("60s", "not a number"),
    ("x" * 100, "too long"),
]


@pytest.mark.parametrize(("text", "millis"), READ)
def test_decimal_text_is_read_exactly(text: str, millis: int) -> None:
    assert parse_duration(text) == Duration(millis)


@pytest.mark.parametrize(("text", "reason"), REFUSED)
def test_everything_else_is_refused_with_its_reason(text: str, reason: str) -> None:
    with pytest.raises(ValueError, match=reason):
        parse_duration(text)


@pytest.mark.parametrize(("text", "reason"), REFUSED)
def test_a_refusal_is_one_short_line_naming_the_field_and_what_is_accepted(
    text: str, reason: str
) -> None:
    try:
        parse_duration(text)
    except ValueError as error:
        line = duration_error("Delay", text, str(error))
    assert line.startswith("Delay: ") and line.endswith(ACCEPTED)
    assert "\n" not in line and len(line) < 400, "a huge input never makes a huge message"


def test_units_convert_exactly() -> None:
    # 1.1 h in binary floating point is 3960.0000000000005 s: a boundary would move.
    assert 1.1 * 3600 != 3960
    assert duration_of(Decimal("1.1"), TimeUnit.HOURS) == Duration(3_960_000)
    assert duration_of(Decimal("30"), TimeUnit.DAYS) == Duration.of_seconds(MAX_SECONDS)
    with pytest.raises(ValueError, match="longer than 30 days"):
        duration_of(Decimal("720.001"), TimeUnit.HOURS)
    with pytest.raises(ValueError, match="finer than a millisecond"):
        duration_of(Decimal("0.0000001"), TimeUnit.HOURS)


class Holder(BaseModel):
    d: Duration


@pytest.mark.parametrize(
    ("value", "millis"),
    [(60, 60_000), ("0.5", 500), (Decimal("0.001"), 1), (Duration(7), 7), (MAX_SECONDS, None)],
)
def test_a_model_field_takes_whole_seconds_decimals_text_and_durations(
    value: object, millis: int | None
) -> None:
    expected = Duration.of_seconds(MAX_SECONDS) if millis is None else Duration(millis)
    assert Holder(d=value).d == expected  # type: ignore[arg-type]


@pytest.mark.parametrize("value", [0.5, 60.0, float("nan"), True, None, -1, [60], "abc"])
def test_a_model_field_never_takes_a_float_a_bool_or_nonsense(value: object) -> None:
    with pytest.raises(ValidationError) as error:
        Holder(d=value)  # type: ignore[arg-type]
    assert error.value.error_count() == 1


def test_json_holds_whole_seconds_as_integers_and_the_exact_decimal_otherwise() -> None:
    assert Holder(d="3600").model_dump(mode="json") == {"d": 3600}
    dumped = Holder(d="3599.999").model_dump_json()
    assert dumped == '{"d":3599.999}'
    assert Holder.model_validate_json(dumped.replace("3599.999", '"3599.999"')).d == Duration(
        3_599_999
    )


@given(st.integers(0, MAX_SECONDS * 1000))
def test_every_millisecond_prints_and_reads_back_the_same(millis: int) -> None:
    duration = Duration(millis)
    assert parse_duration(str(duration.seconds)) == duration
    assert parse_duration(repr(duration.json_number)) == duration, "the JSON number is exact"
    assert str(duration).endswith(" s")


def test_an_echoed_value_is_cut_to_a_prefix() -> None:
    assert echoed("60") == "'60'"
    assert len(echoed("x" * 100_000)) <= ECHO_LIMIT + len(" (100000 characters)")


@pytest.mark.parametrize("millis", [-1, 1.5, True, "5"])
def test_a_duration_is_a_whole_number_of_milliseconds(millis: object) -> None:
    with pytest.raises(ValueError, match="whole number of milliseconds"):
        Duration(millis)  # type: ignore[arg-type]


def test_a_duration_text_is_read_up_to_its_limit_and_refused_past_it() -> None:
    # MAX_DURATION_TEXT characters are read (padding zeros included); one more is refused
    # before it is converted, as a number too long for 30 days or a text too long to be one.
    assert parse_duration(" " + "0" * (MAX_DURATION_TEXT - 1) + "1 ") == Duration(1000)
    with pytest.raises(ValueError, match=r"^is 41 characters long, too long for a duration"):
        parse_duration("0" * MAX_DURATION_TEXT + "1")
    with pytest.raises(ValueError, match=r"^is 42 characters long"):
        parse_duration("1." + "0" * MAX_DURATION_TEXT)
    with pytest.raises(ValueError, match=r"^is longer than 30 days \(2,592,000 seconds\)$"):
        parse_duration("1" + "0" * MAX_DURATION_TEXT)
