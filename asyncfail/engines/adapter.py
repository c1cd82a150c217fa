"""What an engine adapter is: the cases a real engine runs, and how it runs one.

``asyncfail verify --engine NAME`` looks the engine up in ``engines.ENGINES`` and sets every
case it supports beside the model. An engine supplies its name and version, the matrix it
supports (``cases``), a note for a case where it differs from the model by design, and
``run_case``: run one case for real in a folder and read back what it left behind
(``EngineRun``). Adding an engine is one module that implements ``Engine``, one line naming it
in ``engines/registry.py``, and its tests.
"""

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from asyncfail.lab.faults import Fault
from asyncfail.lab.scenario import Mode
from asyncfail.lab.settings import KeyStability, ReceiverContract, RecordWrite, StepRetries
from asyncfail.reference.supervisor import Processes, RealRun
from asyncfail.reference.verification import Case


@dataclass(frozen=True, slots=True)
class EngineRun:
    """What one case left behind: the real figures (as the reference reads them) and the
    engine's own records, each as one line of text (a workflow's status, a recorded step)."""

    real: RealRun
    workflows: tuple[str, ...]
    steps: tuple[str, ...]


class EngineUnavailable(Exception):
    """The engine cannot run here (its package is not installed): said in one line."""


class Engine(Protocol):
    name: str

    def version(self) -> str:
        """The engine's version; raises ``EngineUnavailable`` when it is not installed."""
        ...

    def modes(self) -> tuple[Mode, ...]: ...

    def keys(self, mode: Mode) -> tuple[KeyStability, ...]: ...

    def receivers(self, mode: Mode) -> tuple[ReceiverContract, ...]: ...

    def step_retries(self, mode: Mode) -> tuple[StepRetries, ...]:
        """The checkpoint runtime's step retry settings it runs (``(StepRetries.ONCE,)`` for a
        runtime the setting does not apply to)."""
        ...

    def note(self, case: Case) -> str | None:
        """Where this case differs from the model by design, in one sentence; else None."""
        ...

    def run_case(
        self, case: Case, deliveries: int, directory: Path, processes: Processes
    ) -> EngineRun: ...


def engine_matrix(
    engine: Engine,
    faults: Sequence[Fault],
    modes: Sequence[Mode] | None = None,
    keys: Sequence[KeyStability] | None = None,
    receivers: Sequence[ReceiverContract] | None = None,
    step_retries: StepRetries = StepRetries.ONCE,
) -> tuple[Case, ...]:
    """Every case the engine supports, faults first, then its runtimes, keys and receivers in
    its own order, narrowed to the values given (None: all it supports), under one step retry
    setting (default once; a runtime the engine does not run with it drops out). The record is
    atomic: a separate record is the receiver's business, which ``--engine reference``
    covers."""
    return tuple(
        Case(
            fault=fault,
            mode=mode,
            key=key,
            record=RecordWrite.ATOMIC,
            receiver=receiver,
            step_retries=step_retries,
        )
        for fault in faults
        for mode in engine.modes()
        if (modes is None or mode in modes) and step_retries in engine.step_retries(mode)
        for key in engine.keys(mode)
        if keys is None or key in keys
        for receiver in engine.receivers(mode)
        if receivers is None or receiver in receivers
    )
