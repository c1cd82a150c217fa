"""The DBOS engine: each case run by a real DBOS application, beside the reference receiver.

For one case it binds 127.0.0.1 on a port the kernel picks, starts the reference receiver on it
(``asyncfail.reference``'s, with its faults: a lost request or reply, a receiver crash), and
then runs one delivery at a time, each a fresh process of ``dbos_app.py`` (a real interpreter
with DBOS installed), until one exits 0 (the workflow succeeded) or the delivery budget is
spent. A crash point goes to the process of its delivery attempt, which SIGKILLs itself there;
the next process launches DBOS, which recovers the workflow by itself. DBOS's system database
is SQLite, in the case's folder. Afterwards it reads the ledger and access log back as the
reference does, and DBOS's own tables: the workflow's status and its recorded steps; and, as
the reference does, the calls each process got no reply to (its log says so) beside the
injections that struck, which tell a slow machine from a fault of the plan.

What it supports: the checkpoint runtime with no key or the stable step key, at a lookup-only
or a deduplicating receiver, its step retrying a call without a reply once (the default) or
never (``step_retries=off``, DBOS's own default); the durable runtime (intent and lookup as
DBOS steps) with the stable operation key or one per attempt, at the seed's lookup-only
receiver; the record atomic.
"""

import importlib.metadata
import socket
import sqlite3
import sys
from pathlib import Path
from typing import Final

from asyncfail.engines.adapter import EngineRun, EngineUnavailable
from asyncfail.ground.prose import counted
from asyncfail.lab.faults import Fault
from asyncfail.lab.scenario import Mode, Scenario
from asyncfail.lab.settings import KeyStability, ReceiverContract, StepRetries
from asyncfail.reference import receiver
from asyncfail.reference.supervisor import (
    Processes,
    RealRun,
    Receiver,
    ending,
    no_replies,
    receiver_command,
    run_worker,
    split_plan,
)
from asyncfail.reference.verification import Case

APP_SCRIPT: Final = Path(__file__).with_name("dbos_app.py")
PYTHON: Final = (sys.executable, "-I")
"""The application's interpreter: isolated from the environment and the current folder, but
with its installed packages (DBOS is one)."""
ACKNOWLEDGED: Final = 0
TIMEOUT: Final = 2.0
"""Seconds the application waits for a debit's reply: four times the reference worker's, as a
DBOS process and its receiver on a loaded machine answer more slowly (a slow reply taken for a
lost one would disagree)."""
LOOKUP_TIMEOUT: Final = 5.0
"""Seconds it waits for a lookup's reply: long enough for a receiver that crashed to restart on
a loaded machine (the reference worker waits 2 s)."""
PACKAGE: Final = "dbos"
DEBIT_STEPS: Final = frozenset({"debit_step", "debit_step_without_retries", "dispatch_step"})
"""The steps whose recorded output is the debit's result (checkpoint, durable)."""

STEP_RETRY_NOTE: Final = (
    "DBOS retries a step only when the step allows it (off by default: --step-retries off "
    "runs that, in DBOS and the model); this application allows two attempts, 1 s apart "
    "(DBOS's default interval), as the model's --step-retries once does"
)


class DbosEngine:
    """``asyncfail verify --engine dbos`` (see the module's docstring)."""

    name = "dbos"

    def __init__(self, app: Path = APP_SCRIPT, timeout: float = TIMEOUT):
        self.app = app
        """The application script each delivery runs (a test hands in one broken on purpose)."""
        self.timeout = timeout
        """Seconds a debit waits for its reply (a test hands in 0: no reply can come)."""

    def version(self) -> str:
        try:
            return importlib.metadata.version(PACKAGE)
        except importlib.metadata.PackageNotFoundError:
            raise EngineUnavailable(
                "the dbos engine needs the dbos package: pip install 'asyncfail[engines]'"
            ) from None

    def modes(self) -> tuple[Mode, ...]:
        return (Mode.CHECKPOINT, Mode.DURABLE)

    def keys(self, mode: Mode) -> tuple[KeyStability, ...]:
        if mode is Mode.CHECKPOINT:
            return (KeyStability.NONE, KeyStability.STABLE)
        return (KeyStability.STABLE, KeyStability.PER_ATTEMPT)

    def receivers(self, mode: Mode) -> tuple[ReceiverContract, ...]:
        if mode is Mode.CHECKPOINT:
            return (ReceiverContract.LOOKUP_ONLY, ReceiverContract.DEDUPE)
        return (ReceiverContract.LOOKUP_ONLY,)

    def step_retries(self, mode: Mode) -> tuple[StepRetries, ...]:
        if mode is Mode.CHECKPOINT:
            return (StepRetries.ONCE, StepRetries.OFF)
        return (StepRetries.ONCE,)

    def note(self, case: Case) -> str | None:
        timeouts = {Fault.REQUEST_LOST, Fault.RESPONSE_LOST, Fault.RECEIVER_CRASH_BEFORE_RECORD}
        retried = case.step_retries is StepRetries.ONCE
        if case.mode is Mode.CHECKPOINT and case.fault in timeouts and retried:
            return STEP_RETRY_NOTE
        return None

    def run_case(
        self, case: Case, deliveries: int, directory: Path, processes: Processes
    ) -> EngineRun:
        scenario = case.scenario(deliveries)
        directory.mkdir(parents=True)
        crashes, at_receiver = split_plan(scenario)
        ledger, system = directory / "receiver.sqlite", directory / "dbos.sqlite"
        exits: list[str] = []
        logs: list[Path] = []
        with socket.create_server(("127.0.0.1", 0)) as listener:
            port = listener.getsockname()[1]
            served = Receiver(
                processes,
                receiver_command(scenario, ledger, at_receiver),
                listener,
                directory / "receiver.stderr",
            )
            try:
                for attempt in range(1, deliveries + 1):
                    crash_at = crashes.get(attempt, [])
                    argv = app_command(
                        self.app, scenario, port, system, attempt, crash_at, self.timeout
                    )
                    log = directory / f"app-{attempt}.stderr"
                    logs.append(log)
                    code = run_worker(processes, served, argv, log)
                    exits.append(ending(code))
                    if code == ACKNOWLEDGED:
                        break
            finally:
                served.stop()
        effects, debits, lookups = receiver.read_back(str(ledger))
        workflows, steps, recorded = system_tables(system)
        real = RealRun(
            deliveries=len(exits),
            effects=effects,
            debit_requests=debits,
            lookups=lookups,
            acknowledged=exits[-1] == ending(ACKNOWLEDGED),
            result_recorded=recorded,
            worker_exits=tuple(exits),
            receiver_exits=tuple(served.died),
            no_replies=no_replies(logs),
            struck=receiver.struck(str(ledger)),
        )
        return EngineRun(real=real, workflows=workflows, steps=steps)


def app_command(
    app: Path,
    scenario: Scenario,
    port: int,
    system: Path,
    attempt: int,
    crash_at: list[str],
    timeout: float,
) -> list[str]:
    """The command line of one delivery's DBOS process."""
    return [
        *PYTHON,
        str(app),
        *("--mode", scenario.mode.value, "--key", scenario.settings.key.value),
        *("--step-retries", scenario.settings.step_retries.value),
        *("--attempt", str(attempt), "--port", str(port), "--system-database", str(system)),
        *("--timeout", str(timeout), "--lookup-timeout", str(LOOKUP_TIMEOUT)),
        *(f"--crash-at={point}" for point in crash_at),
    ]


def system_tables(path: Path) -> tuple[tuple[str, ...], tuple[str, ...], bool]:
    """DBOS's own records, read back: each workflow's status and recovery attempts, each
    recorded step (its number, name, and whether it holds an output or an error), and whether
    the debit's step holds its output (the result is recorded)."""
    if not path.exists():
        return (), (), False
    db = sqlite3.connect(path)
    try:
        workflows = db.execute(
            "SELECT status, recovery_attempts FROM workflow_status ORDER BY created_at"
        ).fetchall()
        steps = db.execute(
            "SELECT function_id, function_name, error IS NULL FROM operation_outputs "
            "ORDER BY function_id"
        ).fetchall()
    finally:
        db.close()
    return (
        tuple(f"{status}, started {counted(n, 'time')}" for status, n in workflows),
        tuple(f"{n} {name}: {'output' if ok else 'error'}" for n, name, ok in steps),
        any(name in DEBIT_STEPS and ok for _, name, ok in steps),
    )
