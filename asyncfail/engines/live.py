"""A live DBOS verification for a lesson served by CPython from a checkout (``make lab``).

As ``reference/live.py`` for lesson 1: lesson 9 imports this module only after its run button
is pressed, and offers the button only where processes can start (``course/live.py``); the
WebAssembly page never imports it and shows the table ``make engine-record`` recorded. The
document has the shape that target writes, without the date.

One at a time, with lesson 1's: a run starts some 20 processes (four cases at once, a receiver
and a DBOS process each), so it takes the same server-wide lock as the reference's live run
(``reference.live.one_at_a_time``); whoever finds it taken gets ``Busy`` (a
``ReferenceFailure``), saying how far the running one has got.
"""

from collections.abc import Callable
from pathlib import Path
from typing import Any

from asyncfail.engines.adapter import EngineUnavailable, engine_matrix
from asyncfail.engines.registry import ENGINES
from asyncfail.engines.verification import verify_engine
from asyncfail.lab.faults import Fault
from asyncfail.reference.live import Busy, one_at_a_time, this_platform
from asyncfail.reference.supervisor import ReferenceFailure
from asyncfail.reference.verification import Case

__all__ = ["Busy", "EngineUnavailable", "ReferenceFailure", "default_cases", "run"]


def default_cases(engine: str = "dbos") -> tuple[Case, ...]:
    """Every case the engine supports, as ``asyncfail verify --engine`` runs them."""
    return engine_matrix(ENGINES[engine], tuple(Fault))


def run(
    progress: Callable[[int, int], None], engine: str = "dbos", lock: Path | None = None
) -> dict[str, Any]:
    """Run the engine's matrix and return it as JSON data, with the platform it ran on.
    ``progress(done, total)`` hears of each finished case. Raises ``EngineUnavailable`` when
    the engine is not installed (before the lock is taken), ``Busy`` when another live run
    holds the lock, ``ReferenceFailure`` when a part cannot run; a folder it cannot make is an
    ``OSError``, said as a ``ReferenceFailure`` too."""
    chosen = ENGINES[engine]
    chosen.version()  # EngineUnavailable at once, whoever holds the lock
    try:
        with one_at_a_time(lock) as note:

            def both(done: int, total: int) -> None:
                note(done, total)
                progress(done, total)

            found = verify_engine(chosen, default_cases(engine), progress=both)
    except OSError as error:
        raise ReferenceFailure(error.strerror or str(error)) from None
    return found.model_dump(mode="json") | {"platform": this_platform()}
