"""A live DBOS verification for a lesson served by CPython from a checkout (``make lab``).

As ``reference/live.py`` for lesson 1: a lesson imports this module only after its run button
is pressed, and offers the button only where processes can start and DBOS is installed; the
WebAssembly page never imports it and shows the table ``make engine-record`` recorded. The
document has the shape that target writes, without the date.
"""

from collections.abc import Callable
from typing import Any

from asyncfail.engines.adapter import EngineUnavailable, engine_matrix
from asyncfail.engines.registry import ENGINES
from asyncfail.engines.verification import verify_engine
from asyncfail.lab.faults import Fault
from asyncfail.reference.live import this_platform
from asyncfail.reference.verification import Case

__all__ = ["EngineUnavailable", "default_cases", "run"]


def default_cases(engine: str = "dbos") -> tuple[Case, ...]:
    """Every case the engine supports, as ``asyncfail verify --engine`` runs them."""
    return engine_matrix(ENGINES[engine], tuple(Fault))


def run(progress: Callable[[int, int], None], engine: str = "dbos") -> dict[str, Any]:
    """Run the engine's matrix and return it as JSON data, with the platform it ran on.
    ``progress(done, total)`` hears of each finished case. Raises ``EngineUnavailable`` when
    the engine is not installed."""
    found = verify_engine(ENGINES[engine], default_cases(engine), progress=progress)
    return found.model_dump(mode="json") | {"platform": this_platform()}
