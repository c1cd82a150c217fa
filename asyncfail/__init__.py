"""asyncfail: a deterministic model of a side effect that succeeds while its worker crashes.

The public surface is small: build a ``Scenario``, ``simulate`` it, read the ``LabResult``. The
wings (``ground``, ``lab``, ``contract``, ``explore``, ``risk``, ``document``, ``review``,
``readiness``, ``charts``, ``reference``, ``engines``, ``course``, ``cli``) are subpackages;
``DESIGN.md`` maps them and what each may import.
"""

from asyncfail.ground.seed import ASSUMPTIONS
from asyncfail.ground.version import VERSION
from asyncfail.lab.events import Actor, Event, EventKind, Layer
from asyncfail.lab.faults import Fault, FaultPlan, FaultPoint, Injection
from asyncfail.lab.reading import Counts, Outcome, Status
from asyncfail.lab.results import LabResult
from asyncfail.lab.scenario import Mode, Scenario
from asyncfail.lab.simulation import run_plan, simulate, simulate_all

__version__ = VERSION

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
