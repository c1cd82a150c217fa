"""A verification's temporary folder: owned by a live process, removed by it, or by the next run.

Rules: each run makes its own folder ``asyncfail-verify-*`` in the temporary directory (TMPDIR)
and holds an exclusive lock (``flock``) on the ``.owner`` file inside it for as long as it runs.
The kernel drops that lock when the process ends, however it ends (SIGKILL included), so a
folder whose lock can be taken has no owner left. The run removes its folder when it finishes
or is stopped; a run killed outright cannot, and the next run's ``sweep`` removes every such
folder of the same user. A folder without an ``.owner`` file (one being made this instant, or
one from an older version) is removed only once it is older than ``UNOWNED_GRACE``.
"""

import fcntl
import os
import shutil
import stat
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Final

PREFIX: Final = "asyncfail-verify-"
OWNER: Final = ".owner"
UNOWNED_GRACE: Final = 600.0
"""Seconds after which a folder with no ``.owner`` file is taken as abandoned."""


def abandoned(folder: Path) -> bool:
    """Whether ``folder`` (a verification's, of this user, not a symbolic link) has no live
    owner: its ``.owner`` lock can be taken, or it has none and is older than the grace."""
    try:
        info = folder.lstat()
    except OSError:
        return False
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.geteuid():
        return False
    try:
        descriptor = os.open(folder / OWNER, os.O_RDONLY | os.O_NOFOLLOW)
    except FileNotFoundError:
        return time.time() - info.st_mtime > UNOWNED_GRACE
    except OSError:
        return False
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:  # held: its owner runs
        return False
    finally:
        os.close(descriptor)  # closing drops a lock taken here
    return True


def sweep(parent: Path | None = None) -> tuple[Path, ...]:
    """Remove the abandoned verification folders in ``parent`` (default: the temporary
    directory); the folders removed. Errors are ignored: sweeping is a courtesy."""
    where = Path(parent if parent is not None else tempfile.gettempdir())
    removed = []
    with suppress(OSError):
        for folder in sorted(where.glob(f"{PREFIX}*")):
            if abandoned(folder):
                shutil.rmtree(folder, ignore_errors=True)
                removed.append(folder)
    return tuple(removed)


@contextmanager
def scratch_folder() -> Iterator[Path]:
    """A new folder for one verification, locked as this process's while the block runs and
    removed after it, whatever happens; abandoned folders of earlier runs are swept first."""
    sweep()
    root = Path(tempfile.mkdtemp(prefix=PREFIX))
    try:
        descriptor = os.open(root / OWNER, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
            os.write(descriptor, f"{os.getpid()}\n".encode())
            yield root
        finally:
            os.close(descriptor)
    finally:
        shutil.rmtree(root, ignore_errors=True)
