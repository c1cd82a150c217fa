"""Lesson 1's live verification: the default matrix run on this machine, for a lesson served by
CPython from a checkout (``make lab``).

The lesson imports this module only after its run button is pressed, and shows the button only
where processes can start (``course.truth_lesson.can_run_live``): in the WebAssembly page it is
never imported. The document it returns has the shape ``make verify-record`` writes
(``course/verified.py``), without the date: a live run says "just now" instead.
"""

import os
import platform
from collections.abc import Callable
from typing import Any

from asyncfail.reference.supervisor import ReferenceFailure
from asyncfail.reference.verification import Case, matrix, verify

__all__ = ["ReferenceFailure", "default_cases", "run", "this_platform"]


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


def run(progress: Callable[[int, int], None]) -> dict[str, Any]:
    """Run ``default_cases()`` on the real parts and return the verification as JSON data, with
    the platform it ran on. ``progress(done, total)`` hears of each finished case. Raises
    ``ReferenceFailure`` when a part cannot run (a process, a file, a socket)."""
    found = verify(default_cases(), progress=progress)
    return found.model_dump(mode="json") | {"platform": this_platform()}
