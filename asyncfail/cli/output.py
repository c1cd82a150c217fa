"""What every subcommand shares: the bad-input and failure errors, how a value is echoed, number
arguments, UTF-8 output and the one line of an error."""

import argparse
import contextlib
import sys
from collections.abc import Callable, Iterator, Sequence
from enum import StrEnum
from typing import Final, TextIO, TypeVar

from asyncfail.ground.durations import ACCEPTED, Duration, parse_duration
from asyncfail.ground.prose import echoed
from asyncfail.lab.faults import PLAN_ACCEPTED, FaultPlan, parse_plan
from asyncfail.lab.scenario import MAX_DELIVERIES

MAX_LINE: Final = 640
"""The longest error line ``main`` prints. The longest message it builds is about 600: a plan
refused with its value echoed (``ECHO_LIMIT``) and what a plan may be (``PLAN_ACCEPTED``), a
line the extended fuzz (``tests/cli/test_fuzz.py``) checks is never cut."""


class OutputFormat(StrEnum):
    """How a subcommand prints its result."""

    JSON = "json"
    """One JSON document (canonical: ``ground.canonical.to_json``)."""
    TEXT = "text"
    """A table for the terminal."""


class UsageError(Exception):
    """Bad input: reported on one line with exit status 2."""


class OutputError(Exception):
    """The command was good but its output could not be written: one line, exit status 1."""


class Unsuccessful(Exception):
    """The command ran, but what it checked does not hold, or it could not finish: its
    ``output`` (if any) is printed as usual, then the message on one line; exit status 1."""

    def __init__(self, message: str, output: str = "") -> None:
        super().__init__(message)
        self.output = output


def error_line(message: str, words: Sequence[str]) -> str:
    """``message`` as the one line ``main`` prints for the command line ``words``.

    Rules: every value from ``words`` that the message echoes is shortened by ``echoed`` (argparse
    and the argument types echo a value as its ``repr``: "invalid choice: '<100 kB>'");
    every character that could end or garble the line is escaped; and the line is cut at
    ``MAX_LINE`` characters, a last guard for a message that echoes a value some other way.
    """
    for value in sorted(set(_values_in(words)), key=len, reverse=True):
        message = message.replace(repr(value), echoed(value))
    line = "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in message)
    return line if len(line) <= MAX_LINE else line[: MAX_LINE - 1] + "…"


def _values_in(words: Sequence[str]) -> Iterator[str]:
    """Each value in ``words`` that ``echoed`` would shorten: a word, the value of an
    ``--option=value`` word, and what follows a short option written as one word (``-hVALUE``)."""
    for word in words:
        parts = [word, word.partition("=")[2], word[2:]] if word.startswith("-") else [word]
        yield from (part for part in parts if echoed(part) != repr(part))


Parse = TypeVar("Parse", bound=Callable[[str], object])


def accepting(parse: Parse, accepted: str) -> Parse:
    """``parse``, an argparse type, marked with what it accepts in words (``accepted_by``): an
    option given without its value says what to give (``give`` followed by ``accepted``)."""
    parse.accepted = accepted  # type: ignore[attr-defined]
    return parse


def accepted_by(parse: object) -> str | None:
    """What an argparse type marked by ``accepting`` accepts, or None."""
    accepted = getattr(parse, "accepted", None)
    return accepted if isinstance(accepted, str) else None


def bounded_int(low: int, high: int) -> Callable[[str], int]:
    """An argparse type accepting a whole number from ``low`` to ``high`` inclusive."""

    def parse(text: str) -> int:
        # ASCII digits only: int() would also take "٣", "1_000" and padded spaces. No more
        # digits than `high` has: int() refuses 4,301 digits, and argparse then named this
        # function ("invalid parse value") and echoed them all.
        significant = text.lstrip("0") or "0"
        plain = text.isascii() and text.isdigit() and len(significant) <= len(str(high))
        value = int(significant) if plain else None
        if value is None or not low <= value <= high:
            raise argparse.ArgumentTypeError(
                f"must be a whole number from {low} to {high}, got {echoed(text)}"
            )
        return value

    return accepting(parse, f"a whole number from {low} to {high}")


def write_utf8(out: TextIO, text: str) -> None:
    """Write as UTF-8 whatever the locale says: the documents are UTF-8 JSON, Markdown, HTML."""
    buffer = getattr(out, "buffer", None)
    out.flush()
    if buffer is None:  # an in-memory stream, as in tests
        out.write(text)
    else:
        buffer.write(text.encode("utf-8"))
        buffer.flush()


def report(line: str) -> None:
    """Print ``line`` on stderr if there is one to print on. With stderr closed too (``2>&-``:
    ``sys.stderr`` is None, and ``print`` would fall back to stdout) or failing, the exit status
    is all the command can say: it says nothing rather than end in a traceback."""
    if sys.stderr is None:
        return
    # ValueError: the stream was closed inside this process.
    with contextlib.suppress(OSError, ValueError):
        print(line, file=sys.stderr, flush=True)


def plan_argument() -> Callable[[str], FaultPlan]:
    """An argparse type for a fault plan: the library's one parser (``parse_plan``)."""

    def parse(text: str) -> FaultPlan:
        try:
            return parse_plan(text)
        except ValueError as error:
            raise argparse.ArgumentTypeError(f"{error}; give {PLAN_ACCEPTED}") from None

    return accepting(parse, PLAN_ACCEPTED)


def duration_argument() -> Callable[[str], Duration]:
    """An argparse type for seconds: the library's one parser (``parse_duration``)."""

    def parse(text: str) -> Duration:
        try:
            return parse_duration(text)
        except ValueError as error:
            raise argparse.ArgumentTypeError(f"{echoed(text)} {error}; give {ACCEPTED}") from None

    return accepting(parse, ACCEPTED)


def add_format(parser: argparse.ArgumentParser, text: str) -> None:
    """``--format json|text``: a JSON document by default, or ``text`` (what the text form is:
    "a table for the terminal")."""
    parser.add_argument(
        "--format",
        choices=[f.value for f in OutputFormat],
        default=OutputFormat.JSON.value,
        help=f"a JSON document (default) or {text}",
    )


def add_deliveries(parser: argparse.ArgumentParser, default: int) -> None:
    """``--deliveries N``: how many times the channel may deliver the operation."""
    parser.add_argument(
        "--deliveries",
        type=bounded_int(1, MAX_DELIVERIES),
        default=default,
        help=f"how many times the channel may deliver (1-{MAX_DELIVERIES}, default: {default})",
    )
