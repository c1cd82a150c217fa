"""What every subcommand shares: the bad-input error, number arguments, and UTF-8 output."""

import argparse
from collections.abc import Callable
from typing import TextIO


class UsageError(Exception):
    """Bad input: reported on one line with exit status 2."""


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
