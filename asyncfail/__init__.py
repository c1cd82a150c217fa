"""asyncfail: a deterministic model of a side effect that succeeds while its worker crashes.

The public surface is small: build a ``Scenario``, ``simulate`` it, read the ``LabResult``.
Names are imported on first use (PEP 562), so ``import asyncfail.cli`` pays only for what the
command needs. Only pydantic is imported on this path; charts import their own dependencies.
"""

from importlib import import_module
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"
"""The release, read by pyproject.toml too: the one place the version is written."""

if TYPE_CHECKING:
    from asyncfail.assumptions import ASSUMPTIONS
    from asyncfail.events import Actor, Event, EventKind, Layer
    from asyncfail.faults import Fault, FaultPlan, FaultPoint, Injection
    from asyncfail.results import Counts, LabResult, Outcome, Status
    from asyncfail.scenario import Mode, Scenario
    from asyncfail.simulation import run_plan, simulate, simulate_all

_HOME = {
    "ASSUMPTIONS": "assumptions",
    "Actor": "events",
    "Event": "events",
    "EventKind": "events",
    "Layer": "events",
    "Fault": "faults",
    "FaultPlan": "faults",
    "FaultPoint": "faults",
    "Injection": "faults",
    "Counts": "results",
    "LabResult": "results",
    "Outcome": "results",
    "Status": "results",
    "Mode": "scenario",
    "Scenario": "scenario",
    "run_plan": "simulation",
    "simulate": "simulation",
    "simulate_all": "simulation",
}

__all__ = [
    "ASSUMPTIONS",
    "Actor",
    "Counts",
    "Event",
    "EventKind",
    "Fault",
    "FaultPlan",
    "FaultPoint",
    "Injection",
    "LabResult",
    "Layer",
    "Mode",
    "Outcome",
    "Scenario",
    "Status",
    "run_plan",
    "simulate",
    "simulate_all",
]


def __getattr__(name: str) -> Any:
    if name not in _HOME:
        raise AttributeError(f"module 'asyncfail' has no attribute {name!r}")
    return getattr(import_module(f"asyncfail.{_HOME[name]}"), name)
