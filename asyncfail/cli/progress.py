"""Progress of long work on a terminal: one line on stderr, rewritten in place, with the time left.

Rules: shown only when stderr is a terminal (``progress_line`` returns None otherwise, so a pipe,
a file or a test sees nothing on stderr); rewritten at most every ``REDRAW`` seconds; the time
left is the pace so far applied to what remains (said once a tenth of a second of work has
been seen); the line is erased when the work is done or stopped, so the output that follows
starts on a clean line.
"""

import math
import sys
import time
from collections.abc import Callable
from typing import Final, TextIO

from asyncfail.ground.prose import plural

REDRAW: Final = 0.1
"""The least time between two redraws of the line, in seconds."""
ERASE: Final = "\r\033[K"
"""Back to the start of the line, and clear it."""


def time_left(seconds: float) -> str:
    """``about 7 s left``, ``about 3 min left``: rounded up, in the unit a person reads."""
    if seconds < 60:
        return f"about {max(1, math.ceil(seconds))} s left"
    if seconds < 3600:
        return f"about {math.ceil(seconds / 60)} min left"
    return f"about {seconds / 3600:.1f} h left"


class ProgressLine:
    """``asyncfail risk: 12,500 of 100,000 trials, about 7 s left``, rewritten in place."""

    def __init__(
        self,
        command: str,
        unit: str,
        stream: TextIO,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.command, self.unit, self.stream, self.clock = command, unit, stream, clock
        self.started = clock()
        self.shown_at: float | None = None
        self.done = 0

    def text(self, done: int, total: int, now: float) -> str:
        """The line for ``done`` of ``total`` at ``now``."""
        line = f"asyncfail {self.command}: {done:,} of {total:,} {plural(total, self.unit)}"
        elapsed = now - self.started
        if 0 < done < total and elapsed >= 0.1:
            line += f", {time_left(elapsed / done * (total - done))}"
        return line

    def __call__(self, done: int, total: int) -> None:
        """``done`` of ``total`` so far; erased once ``done`` reaches ``total``."""
        self.done = done
        if done >= total:
            self.close()
            return
        now = self.clock()
        if self.shown_at is not None and now - self.shown_at < REDRAW:
            return
        self.shown_at = now
        self._write(ERASE + self.text(done, total, now))

    def add(self, more: int, total: int) -> None:
        """``more`` done since the last call (for work that reports increments)."""
        self(self.done + more, total)

    def close(self) -> None:
        """Erase the line, if one was shown."""
        if self.shown_at is not None:
            self._write(ERASE)
            self.shown_at = None

    def _write(self, text: str) -> None:
        try:
            self.stream.write(text)
            self.stream.flush()
        except (OSError, ValueError):  # a terminal gone: progress is a courtesy
            pass


def progress_line(command: str, unit: str) -> ProgressLine | None:
    """A progress line for ``asyncfail COMMAND`` counting ``unit`` s, on stderr when it is a
    terminal; None otherwise."""
    stream = sys.stderr
    try:
        interactive = stream is not None and stream.isatty()
    except (OSError, ValueError):
        interactive = False
    return ProgressLine(command, unit, stream) if interactive else None
