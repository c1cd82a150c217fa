"""A real engine beside the model: every case it supports, the real figures, the engine's own
records and the model's prediction, side by side.

The figures are the reference verification's (``asyncfail.reference.verification``: attempts,
effects, tool calls, lookups, outcome, how each delivery's process ended, which receivers
died), read the same way from what the engine's run left behind; a row agrees when every
figure is equal. Beside them, the engine's own records (for DBOS: the workflow's status and its
recorded steps), and a note where the engine differs from the model by design. Results hold no
times: the same inputs give the same document. A run in which a call went unanswered with no
injection to explain it (a slow machine) is run again, as the reference's are
(``reference.verification.conclusively``); a case whose every try had one is inconclusive:
neither an agreement nor a disagreement. Only a disagreement fails a verification.
"""

from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor, as_completed
from contextlib import ExitStack
from pathlib import Path
from typing import Final

from pydantic import BaseModel, Field, computed_field

from asyncfail.engines.adapter import Engine, EngineRun
from asyncfail.ground.frozen import FROZEN
from asyncfail.ground.inconclusive import INCONCLUSIVE_ROW
from asyncfail.lab.scenario import DEFAULT_DELIVERIES, MAX_DELIVERIES
from asyncfail.reference.scratch import scratch_folder
from asyncfail.reference.supervisor import Processes
from asyncfail.reference.verification import (
    Case,
    Figures,
    InconclusiveWhenSo,
    conclusively,
    folder,
    observed,
    predicted,
)

DEFAULT_ENGINE_JOBS: Final = 4
"""Cases run at once: most of a DBOS process's life is starting the interpreter and waiting."""


class EngineRow(InconclusiveWhenSo):
    """One case: the model's figures, the real ones, the engine's records, and a note."""

    model_config = FROZEN

    case: Case
    model: Figures
    real: Figures
    workflows: tuple[str, ...] = Field(description="The engine's record of each workflow.")
    steps: tuple[str, ...] = Field(description="The steps the engine recorded, in order.")
    note: str | None = Field(
        None,
        description="Where the engine differs from the model by design, and how the "
        "application makes them comparable.",
    )
    inconclusive: bool = Field(False, description=INCONCLUSIVE_ROW)

    @computed_field  # type: ignore[prop-decorator]
    @property
    def agrees(self) -> bool:
        return self.model == self.real

    @property
    def disagrees(self) -> bool:
        """A real disagreement: the figures differ and the real run was conclusive."""
        return not self.agrees and not self.inconclusive


class EngineVerification(BaseModel):
    """Every case of one engine's verification, in its matrix's order."""

    model_config = FROZEN

    engine: str
    version: str
    deliveries: int = Field(ge=1, le=MAX_DELIVERIES)
    rows: tuple[EngineRow, ...]

    @computed_field  # type: ignore[prop-decorator]
    @property
    def agrees(self) -> bool:
        """Whether no row disagrees: each agrees, or was inconclusive (named apart)."""
        return not self.disagreements

    @computed_field  # type: ignore[prop-decorator]
    @property
    def disagreements(self) -> tuple[str, ...]:
        """The names of the rows that disagree (``EngineRow.disagrees``)."""
        return tuple(row.case.name for row in self.rows if row.disagrees)

    @computed_field  # type: ignore[prop-decorator]
    @property
    def inconclusive(self) -> tuple[str, ...]:
        """The names of the rows whose real runs were all inconclusive and did not agree."""
        return tuple(row.case.name for row in self.rows if row.inconclusive and not row.agrees)


def verify_engine(
    engine: Engine,
    cases: Sequence[Case],
    deliveries: int = DEFAULT_DELIVERIES,
    jobs: int = DEFAULT_ENGINE_JOBS,
    keep: Path | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> EngineVerification:
    """Run every case on ``engine``, ``jobs`` at a time, and set it beside the model.

    As the reference's ``verify``: each case in its own folder, under ``keep`` (left there) or
    the run's own scratch folder (``reference.scratch``: locked while it runs, removed at the
    end, and swept by a later run if this one is killed); every process ended and reaped
    before this returns or raises (Ctrl-C too); ``progress(done, total)`` told of each
    finished case.
    """
    version = engine.version()
    processes = Processes()
    with ExitStack() as stack:
        root = keep if keep is not None else stack.enter_context(scratch_folder())
        runs = run_all(engine, cases, deliveries, jobs, root, processes, progress)
    rows = tuple(
        EngineRow(
            case=case,
            model=predicted(case, deliveries),
            real=observed(runs[index][0].real),
            workflows=runs[index][0].workflows,
            steps=runs[index][0].steps,
            note=engine.note(case),
            inconclusive=runs[index][1],
        )
        for index, case in enumerate(cases)
    )
    return EngineVerification(engine=engine.name, version=version, deliveries=deliveries, rows=rows)


def run_all(
    engine: Engine,
    cases: Sequence[Case],
    deliveries: int,
    jobs: int,
    root: Path,
    processes: Processes,
    progress: Callable[[int, int], None] | None,
) -> dict[int, tuple[EngineRun, bool]]:
    """Each case run in its own folder under ``root``, ``jobs`` at a time, conclusively (its
    run, and whether it was inconclusive), by its index; every process is ended and reaped
    before this returns or raises."""

    def run_conclusively(case: Case) -> tuple[EngineRun, bool]:
        return conclusively(
            root / folder(case),
            lambda where: engine.run_case(case, deliveries, where, processes),
            lambda run: run.real.unplanned_timeouts,
        )

    pool = ThreadPoolExecutor(max_workers=jobs, thread_name_prefix="asyncfail-engine")
    try:
        futures: dict[Future[tuple[EngineRun, bool]], int] = {
            pool.submit(run_conclusively, case): index for index, case in enumerate(cases)
        }
        runs: dict[int, tuple[EngineRun, bool]] = {}
        for future in as_completed(futures):
            runs[futures[future]] = future.result()
            if progress is not None:
                progress(len(runs), len(cases))
        return runs
    finally:
        processes.stop()
        pool.shutdown(wait=True, cancel_futures=True)
