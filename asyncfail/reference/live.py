"""Lesson 1's live verification: the default matrix run on this machine, for a lesson served by
CPython from a checkout (``make serve``), one run at a time.

The lesson imports this module only after its run button is pressed, and shows the button only
where processes can start and the person serving allows it (``live_chance`` in lesson 1's
``course/lesson01_async_failure_lab/verification.py``): in the WebAssembly page it is never
imported. The document it returns has the shape ``make verify-record`` writes
(``course/lesson01_async_failure_lab/verified.py``), without the date: a live run says "just now"
instead.

One at a time: a served course may have a class of visitors, each able to press the button; a
run starts some 20 processes, so every run first takes an exclusive lock (``flock``) on one
file in the temporary directory, per user of the machine. Whoever finds it taken is told, with
``Busy``, how far the running one has got and roughly when it will be free. The lock is the
kernel's: it goes with the process that held it, however that ended.
"""

import fcntl
import os
import platform
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

from asyncfail.ground.prose import counted
from asyncfail.reference.scratch import scratch_folder
from asyncfail.reference.supervisor import ReferenceFailure
from asyncfail.reference.verification import Case, matrix, verify

__all__ = [
    "Busy",
    "ReferenceFailure",
    "default_cases",
    "lock_path",
    "one_at_a_time",
    "run",
    "this_platform",
]

Progress = Callable[[int, int], None]


def this_platform() -> str:
    """Where a verification ran: ``Linux x86_64, 2 cores, Python 3.11.7``."""
    cores = os.cpu_count() or 1
    return (
        f"{platform.system()} {platform.machine()}, {cores} core{'s' if cores != 1 else ''}, "
        f"Python {platform.python_version()}"
    )


def default_cases() -> tuple[Case, ...]:
    """The cases a live run covers: the whole default matrix, as ``asyncfail verify`` runs it."""
    return matrix()


class Busy(ReferenceFailure):
    """Another live verification holds the lock: what it has done, and when it should be free.

    A ``ReferenceFailure``, so a lesson that shows why a run could not happen shows this too.
    """

    def __init__(self, started_ago: float | None, done: int, total: int) -> None:
        self.started_ago, self.done, self.total = started_ago, done, total
        super().__init__(self.describe())

    @property
    def free_in(self) -> float | None:
        """Seconds until it should be free, at the pace it has kept; None before a case ends."""
        if self.started_ago is None or self.done == 0 or self.total == 0:
            return None
        return max(0.0, self.started_ago / self.done * (self.total - self.done))

    def describe(self) -> str:
        """``Another visitor's verification is running here (40 of 112 cases run, ...)``."""
        if self.total and self.started_ago is not None:
            so_far = (
                f" ({self.done} of {counted(self.total, 'case')} run, started "
                f"{_seconds(self.started_ago)} ago)"
            )
        else:
            so_far = ""
        free = self.free_in
        when = (
            "it should be free in a minute or so"
            if free is None
            else f"it should be free in about {_seconds(free)}"
        )
        return (
            f"Another verification is running on this server{so_far}: one runs at a time, "
            f"and {when}. Press the button again then; the recorded table above is the last "
            "full run."
        )


def _seconds(value: float) -> str:
    whole = max(1, round(value))
    return counted(whole, "second")


def lock_path() -> Path:
    """The one lock file of this user's live runs, in the temporary directory."""
    return Path(tempfile.gettempdir()) / f"asyncfail-live-verify-{os.geteuid()}.lock"


@contextmanager
def one_at_a_time(
    path: Path | None = None, clock: Callable[[], float] = time.time
) -> Iterator[Progress]:
    """Hold the live-verification lock for the block, or raise ``Busy`` at once if it is held.

    Yields a progress callback that records ``done of total`` in the lock file, for ``Busy`` to
    read: the holder writes ``started done total`` (wall-clock seconds: two processes share
    no other clock) on one line; a reader that finds half a line says only that it is busy.
    The holder removes the file as it lets go (nothing is left in TMPDIR); so a lock taken on
    a file that is no longer at ``path`` (removed meanwhile) is let go and taken again.
    """
    where = path if path is not None else lock_path()
    while True:
        descriptor = os.open(where, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o600)
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            busy = _busy(descriptor, clock())
            os.close(descriptor)
            raise busy from None
        except BaseException:
            os.close(descriptor)
            raise
        if _still_at(descriptor, where):
            break
        os.close(descriptor)
    started = clock()

    def note(done: int, total: int) -> None:
        os.ftruncate(descriptor, 0)
        os.pwrite(descriptor, f"{started!r} {done} {total}\n".encode(), 0)

    try:
        note(0, 0)
        yield note
    finally:
        # Removed while still held, then let go: whoever opened it meanwhile finds it gone.
        with suppress(OSError):
            where.unlink()
        os.close(descriptor)


def _still_at(descriptor: int, where: Path) -> bool:
    """Whether the file open as ``descriptor`` is the one at ``where``."""
    try:
        here = os.stat(where, follow_symlinks=False)
    except FileNotFoundError:
        return False
    mine = os.fstat(descriptor)
    return (here.st_dev, here.st_ino) == (mine.st_dev, mine.st_ino)


def _busy(descriptor: int, now: float) -> Busy:
    """What the lock file says of the run that holds it."""
    try:
        started, done, total = os.pread(descriptor, 200, 0).decode().split()
        return Busy(max(0.0, now - float(started)), int(done), int(total))
    except (OSError, UnicodeDecodeError, ValueError):
        return Busy(None, 0, 0)


def run(progress: Progress, lock: Path | None = None) -> dict[str, Any]:
    """Run ``default_cases()`` on the real parts and return the verification as JSON data, with
    the platform it ran on. ``progress(done, total)`` hears of each finished case. Raises
    ``Busy`` when another live run holds the lock (``one_at_a_time``), ``ReferenceFailure``
    when a part cannot run (a process, a file, a socket); a folder it cannot make is an
    ``OSError``, said as a ``ReferenceFailure`` too."""
    try:
        with one_at_a_time(lock) as note, scratch_folder() as root:

            def both(done: int, total: int) -> None:
                note(done, total)
                progress(done, total)

            found = verify(default_cases(), keep=root, progress=both)
    except OSError as error:
        raise ReferenceFailure(error.strerror or str(error)) from None
    return found.model_dump(mode="json") | {"platform": this_platform()}
