"""Does the model tell the truth? Each case run by the model and on the real parts, side by side.

A case is a named fault, a runtime and the three settings the reference implementation
supports (``SUPPORTED_SETTINGS``); every other setting keeps the seed's value. For each case
the model's figures come from ``simulate`` (read by ``asyncfail.lab.reading``) and the real ones
from what the processes left behind (``supervisor.RealRun``), read here by rules written apart
from the model's, so that a wrong rule in the model shows as a disagreement instead of being
applied to both sides:

- attempts: the model's delivery attempts; for real, the deliveries the queue made.
- effects: business-effect events; for real, rows in the ledger.
- tool calls: effect-capable requests sent; for real, debit requests in the receiver's access
  log (a lost one arrived and was dropped, so it is there).
- lookups: lookups by key; for real, lookups in the access log.
- outcome: the model's ``outcome_of``; for real, ``real_outcome``: from the ledger's rows, the
  queue's last word and the journal (the reference cannot park).
- workers: how each delivery's worker ended. The model's: ``SIGKILL`` where it recorded
  ``ProcessCrashed``, the last delivery acknowledged unless the channel gave up, every other
  released. For real, each worker process's exit.
- receiver: each receiver process that died during the run; the model's ``ReceiverCrashed``.

A row agrees when every figure is equal. Results hold no time: the same inputs give the same
document, however long the processes took. A real run in which a call went unanswered with no
injection to explain it (``RealRun.unplanned_timeouts``: a reply slower than the worker's
timeout, on a busy machine) says what the machine did, not what the runtime does: the case is
run again, up to ``TRIES`` times in all, and if every try had one, the row is inconclusive:
neither an agreement nor a disagreement. Only a disagreement fails a verification.
"""

import itertools
import shutil
import tempfile
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor, as_completed
from pathlib import Path
from typing import Final, TypeVar

from pydantic import (
    BaseModel,
    Field,
    SerializerFunctionWrapHandler,
    computed_field,
    model_serializer,
)

from asyncfail.ground.frozen import FROZEN
from asyncfail.ground.inconclusive import INCONCLUSIVE_ROW
from asyncfail.lab.events import EventKind
from asyncfail.lab.faults import Fault
from asyncfail.lab.reading import Outcome
from asyncfail.lab.scenario import DEFAULT_DELIVERIES, MAX_DELIVERIES, SEED_MODES, Mode, Scenario
from asyncfail.lab.settings import (
    KeyStability,
    LabSettings,
    ReceiverContract,
    RecordWrite,
    StepRetries,
)
from asyncfail.lab.simulation import simulate
from asyncfail.reference.supervisor import (
    ACKNOWLEDGED,
    CRASHED,
    RELEASED,
    Processes,
    RealRun,
    run_case,
)

SUPPORTED_SETTINGS: Final = ("key", "record", "receiver")
"""The settings the reference implementation runs with either value; the others keep the
seed's."""

DEFAULT_JOBS: Final = 4
"""Cases run at once. Most of a case is waiting (a timeout, a visibility timeout), so more
cases than cores keep the machine busy."""
MAX_JOBS: Final = 16
TRIES: Final = 3
"""Real runs of one case at most, while each shows an unplanned timeout."""

Run = TypeVar("Run")


class Case(BaseModel):
    """One case of the matrix: a named fault into the first delivery, a runtime, and the
    supported settings."""

    model_config = FROZEN

    fault: Fault
    mode: Mode
    key: KeyStability = KeyStability.STABLE
    record: RecordWrite = RecordWrite.ATOMIC
    receiver: ReceiverContract = ReceiverContract.LOOKUP_ONLY
    step_retries: StepRetries = Field(
        StepRetries.ONCE,
        exclude_if=lambda value: value is StepRetries.ONCE,
        description="The checkpoint runtime's step retry (an engine's case only); left out of a "
        "document when it is the default, once.",
    )

    @property
    def name(self) -> str:
        """``crash-after-effect durable stable atomic lookup-only``, then
        ``step-retries-off`` when the step may not retry."""
        words = (self.fault, self.mode, self.key, self.record, self.receiver)
        off = ("step-retries-off",) if self.step_retries is StepRetries.OFF else ()
        return " ".join((*words, *off))

    def scenario(self, deliveries: int) -> Scenario:
        settings = LabSettings(
            key=self.key,
            record=self.record,
            receiver=self.receiver,
            step_retries=self.step_retries,
        )
        return Scenario(fault=self.fault, mode=self.mode, deliveries=deliveries, settings=settings)


class Figures(BaseModel):
    """What one run came to (definitions in the module's docstring)."""

    model_config = FROZEN

    attempts: int
    effects: int
    tool_calls: int
    lookups: int
    outcome: Outcome
    workers: tuple[str, ...] = Field(description="How each delivery's worker process ended.")
    receiver: tuple[str, ...] = Field(description="Each receiver process that died on its own.")


class InconclusiveWhenSo(BaseModel):
    """A row's ``inconclusive`` field is written only when true: a conclusive run's document is
    the same as before the field was (and as the recorded tables)."""

    model_config = FROZEN

    @model_serializer(mode="wrap")
    def _inconclusive_only_when_so(self, handler: SerializerFunctionWrapHandler):  # type: ignore[no-untyped-def]
        data = handler(self)
        if not data.get("inconclusive"):
            data.pop("inconclusive", None)
        return data


class Row(InconclusiveWhenSo):
    """One case: the model's figures and the real ones."""

    model_config = FROZEN

    case: Case
    model: Figures
    real: Figures
    inconclusive: bool = Field(False, description=INCONCLUSIVE_ROW)

    @computed_field  # type: ignore[prop-decorator]
    @property
    def agrees(self) -> bool:
        return self.model == self.real

    @property
    def disagrees(self) -> bool:
        """A real disagreement: the figures differ and the real run was conclusive."""
        return not self.agrees and not self.inconclusive


class Verification(BaseModel):
    """Every case of one verification, in the matrix's order."""

    model_config = FROZEN

    deliveries: int = Field(ge=1, le=MAX_DELIVERIES)
    rows: tuple[Row, ...]

    @computed_field  # type: ignore[prop-decorator]
    @property
    def agrees(self) -> bool:
        """Whether no row disagrees: each agrees, or was inconclusive (named apart)."""
        return not self.disagreements

    @computed_field  # type: ignore[prop-decorator]
    @property
    def disagreements(self) -> tuple[str, ...]:
        """The names of the rows that disagree (``Row.disagrees``)."""
        return tuple(row.case.name for row in self.rows if row.disagrees)

    @computed_field  # type: ignore[prop-decorator]
    @property
    def inconclusive(self) -> tuple[str, ...]:
        """The names of the rows whose real runs were all inconclusive and did not agree."""
        return tuple(row.case.name for row in self.rows if row.inconclusive and not row.agrees)


def matrix(
    faults: Sequence[Fault] = tuple(Fault),
    modes: Sequence[Mode] = SEED_MODES,
    keys: Sequence[KeyStability] = (KeyStability.STABLE, KeyStability.PER_ATTEMPT),
    records: Sequence[RecordWrite] = tuple(RecordWrite),
    receivers: Sequence[ReceiverContract] = tuple(ReceiverContract),
) -> tuple[Case, ...]:
    """Every combination, faults first, in declaration order (the default: every one the
    reference runs: the seed's two runtimes, and a key, stable or per attempt)."""
    return tuple(
        Case(fault=f, mode=m, key=k, record=r, receiver=c)
        for f, m, k, r, c in itertools.product(faults, modes, keys, records, receivers)
    )


def predicted(case: Case, deliveries: int) -> Figures:
    """The model's figures for ``case``."""
    result = simulate(case.scenario(deliveries))
    events, counts = result.events, result.counts
    crashed = {e.attempt for e in events if e.kind is EventKind.PROCESS_CRASHED}
    gave_up = any(e.kind is EventKind.DELIVERY_ABANDONED for e in events)
    last = counts.attempts
    workers = tuple(
        CRASHED
        if attempt in crashed
        else ACKNOWLEDGED
        if attempt == last and not gave_up
        else RELEASED
        for attempt in range(1, last + 1)
    )
    receiver = tuple(CRASHED for e in events if e.kind is EventKind.RECEIVER_CRASHED)
    return Figures(
        attempts=counts.attempts,
        effects=counts.effects,
        tool_calls=counts.tool_calls,
        lookups=counts.lookups,
        outcome=result.outcome,
        workers=workers,
        receiver=receiver,
    )


def real_outcome(run: RealRun) -> Outcome:
    """The real run's outcome class, from what the real parts recorded (written apart from
    ``lab.reading``, on purpose):

    - two ledger rows or more: duplicate; none: lost;
    - one row: exactly-once when something that survived knows of it, the queue (a worker
      exited 0 and the message was deleted) or the journal (it holds the call's result);
      unknown when neither does: the money moved and no surviving record says so.
    """
    rows = run.effects
    if rows >= 2:
        return Outcome.DUPLICATE
    if rows == 0:
        return Outcome.LOST
    if run.acknowledged or run.result_recorded:
        return Outcome.EXACTLY_ONCE
    return Outcome.UNKNOWN


def observed(run: RealRun) -> Figures:
    """The real figures, read from what the processes left behind."""
    return Figures(
        attempts=run.deliveries,
        effects=run.effects,
        tool_calls=run.debit_requests,
        lookups=run.lookups,
        outcome=real_outcome(run),
        workers=run.worker_exits,
        receiver=run.receiver_exits,
    )


def folder(case: Case) -> str:
    """The case's folder under a verification's root: its name, with dots."""
    return case.name.replace(" ", ".")


def run_conclusively(
    case: Case, deliveries: int, directory: Path, processes: Processes
) -> tuple[RealRun, bool]:
    """Run ``case`` for real until a run has no unplanned timeout (``conclusively``)."""
    return conclusively(
        directory,
        lambda where: run_case(case.scenario(deliveries), where, processes),
        lambda run: run.unplanned_timeouts,
    )


def conclusively(
    directory: Path, run: Callable[[Path], Run], unplanned_timeouts: Callable[[Run], int]
) -> tuple[Run, bool]:
    """``run`` a case until one run has no unplanned timeout, ``TRIES`` times at most (the
    first in ``directory``, each next beside it, ``.try-2``...): the first such run, or the
    last one and True (inconclusive). The rule for the reference and for every real engine."""
    for attempt in range(1, TRIES + 1):
        where = (
            directory if attempt == 1 else directory.with_name(f"{directory.name}.try-{attempt}")
        )
        found = run(where)
        if unplanned_timeouts(found) == 0:
            return found, False
    return found, True


def verify(
    cases: Sequence[Case],
    deliveries: int = DEFAULT_DELIVERIES,
    jobs: int = DEFAULT_JOBS,
    keep: Path | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Verification:
    """Run every case on the real parts, ``jobs`` at a time, and set it beside the model.

    Each case runs in its own folder: under ``keep`` (left there), or under a new temporary
    folder that is removed at the end. Whatever happens (Ctrl-C too), every process is ended
    and reaped before this returns or raises. ``progress(done, total)`` is told of each case
    that finished.
    """
    processes = Processes()
    root = keep if keep is not None else Path(tempfile.mkdtemp(prefix="asyncfail-verify-"))
    pool = ThreadPoolExecutor(max_workers=jobs, thread_name_prefix="asyncfail-verify")
    try:
        futures: dict[Future[tuple[RealRun, bool]], int] = {
            pool.submit(run_conclusively, case, deliveries, root / folder(case), processes): index
            for index, case in enumerate(cases)
        }
        runs: dict[int, tuple[RealRun, bool]] = {}
        for future in as_completed(futures):
            runs[futures[future]] = future.result()
            if progress is not None:
                progress(len(runs), len(cases))
    finally:
        processes.stop()
        pool.shutdown(wait=True, cancel_futures=True)
        if keep is None:
            shutil.rmtree(root, ignore_errors=True)
    rows = tuple(
        Row(
            case=case,
            model=predicted(case, deliveries),
            real=observed(runs[index][0]),
            inconclusive=runs[index][1],
        )
        for index, case in enumerate(cases)
    )
    return Verification(deliveries=deliveries, rows=rows)
