"""What every subcommand shares: the bad-input error, number arguments, and safe output."""

import argparse
import os
import tempfile
from collections.abc import Callable
from pathlib import Path
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


def write_atomically(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` as UTF-8 so that the file is either complete or untouched.

    The text goes to a temporary file in the same directory (same file system, so the rename
    is atomic), is flushed to disk, and replaces ``path`` in one ``os.replace``. On any error
    the temporary file is removed and the error propagates. The new file gets the usual
    permissions (0666 less the umask), not the temporary file's private 0600.
    """
    directory = path.parent
    handle, temporary = tempfile.mkstemp(dir=directory, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="\n") as stream:
            stream.write(text)
            stream.flush()
            os.fsync(stream.fileno())
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(temporary, 0o666 & ~umask)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
