"""What every subcommand shares: the bad-input error, how a value is echoed, number arguments,
and UTF-8 output."""

import argparse
from collections.abc import Callable
from typing import Final, TextIO

from asyncfail.ground.prose import counted

ECHO_LIMIT: Final = 100
"""The most characters an error message spends on one value it echoes, quotes included: a value
typed by mistake can be 100 kB long, and the message must stay one short line."""


class UsageError(Exception):
    """Bad input: reported on one line with exit status 2."""


def shown(value: str) -> str:
    """``value`` as an error message echoes it: quoted and escaped as by ``repr`` (a newline or
    NUL byte cannot break the line); when that is longer than ``ECHO_LIMIT``, its start, an
    ellipsis and the value's length: ``'1111…' (4301 characters)``."""
    whole = repr(value)
    if len(whole) <= ECHO_LIMIT:
        return whole
    end = ECHO_LIMIT
    # Escapes make a character up to ten long ("\U000e0001"): shorten until the quote fits.
    while len(repr(value[:end] + "…")) > ECHO_LIMIT:
        end -= 1
    return f"{value[:end] + '…'!r} ({counted(len(value), 'character')})"


def bounded_int(low: int, high: int) -> Callable[[str], int]:
    """An argparse type accepting a whole number from ``low`` to ``high`` inclusive."""

    def parse(text: str) -> int:
        # ASCII digits only: int() would also take "٣", "1_000" and padded spaces.
        value = int(text) if text.isascii() and text.isdigit() else None
        if value is None or not low <= value <= high:
            raise argparse.ArgumentTypeError(
                f"must be a whole number from {low} to {high}, got {text!r}"
            )
        return value

    return parse


def write_utf8(out: TextIO, text: str) -> None:
    """Write as UTF-8 whatever the locale says: the documents are UTF-8 JSON, Markdown, HTML."""
    buffer = getattr(out, "buffer", None)
    out.flush()
    if buffer is None:  # an in-memory stream, as in tests
        out.write(text)
    else:
        buffer.write(text.encode("utf-8"))
        buffer.flush()
