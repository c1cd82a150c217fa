"""The supervisor: runs one scenario on the real parts and reads back what they left behind.

For one scenario it binds a listening socket on 127.0.0.1, port 0 (a free port the kernel
picks), and starts the receiver on it; whenever the receiver dies it starts a new one on the
same socket, which stays open in between, so a worker's next connection waits in the kernel's
backlog instead of being refused. It puts the debit on the queue and then, one delivery at a
time, as the model's one worker: waits until the message is visible, receives it, and starts a
fresh worker process for it, acknowledging the delivery when the worker exits 0. When nothing
is queued any more (acknowledged, or dead-lettered) it stops the receiver and reads back the
ledger and access log, the journal and the queue.

Every process is a child started through ``Processes``, in its own session (so a Ctrl-C in the
terminal reaches only the supervisor, which then ends them all), and reaped before the case
returns. The fault plan is split here, once: a crash point goes to the worker of its delivery
attempt, a lost message or a receiver crash to the receiver.
"""

import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, Final

from asyncfail.lab.faults import FAILURE_AT, Failure
from asyncfail.lab.scenario import Mode, Scenario
from asyncfail.reference import channel, receiver, worker

WORKER_SCRIPT: Final = Path(worker.__file__)
RECEIVER_SCRIPT: Final = Path(receiver.__file__)

TIMEOUT: Final = 0.5
"""Seconds the worker waits for a debit's reply: what a lost message costs."""
LOOKUP_TIMEOUT: Final = 2.0
"""Seconds the worker waits for a lookup's reply; lookups are never lost, but one right after a
receiver crash waits for the new receiver to start."""
VISIBILITY: Final = 0.1
"""Seconds a delivered message stays hidden before it is delivered again, unacknowledged."""
POLL: Final = 0.005
"""How often the supervisor looks at its running processes, in seconds."""
WORKER_LIMIT: Final = 30.0
"""A worker that runs longer than this (seconds) means the reference itself is broken."""

CRASHED: Final = signal.Signals.SIGKILL.name
ACKNOWLEDGED: Final = "acknowledged"
RELEASED: Final = "released"


class Stopped(Exception):
    """The verification was stopped (Ctrl-C): every process was ended."""


class ReferenceFailure(Exception):
    """The reference implementation itself failed: a process would not start or ran too long."""


def ending(returncode: int) -> str:
    """How a process ended: acknowledged (0), released, the signal that killed it, or its
    exit status."""
    if returncode == worker.ACKNOWLEDGED:
        return ACKNOWLEDGED
    if returncode == worker.RELEASED:
        return RELEASED
    if returncode < 0:
        return signal.Signals(-returncode).name
    return f"exit {returncode}"


class Processes:
    """The child processes of one verification: started here, so they can all be ended at once.

    After ``stop`` nothing new starts, every live child is killed and reaped, and every wait
    raises ``Stopped``.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._live: set[subprocess.Popen[bytes]] = set()
        self.stopping = threading.Event()

    def start(self, argv: list[str], **options: Any) -> subprocess.Popen[bytes]:
        """Start a child in its own session (a Ctrl-C in the terminal does not reach it)."""
        with self._lock:
            if self.stopping.is_set():
                raise Stopped
            process: subprocess.Popen[bytes] = subprocess.Popen(
                argv, start_new_session=True, **options
            )
            self._live.add(process)
        return process

    def reaped(self, process: subprocess.Popen[bytes]) -> int:
        """Wait for ``process`` to end and forget it: its exit status."""
        code = process.wait()
        with self._lock:
            self._live.discard(process)
        return code

    def wait(self, seconds: float) -> None:
        if self.stopping.wait(seconds):
            raise Stopped

    def stop(self) -> None:
        with self._lock:
            self.stopping.set()
            live = list(self._live)
        for process in live:
            process.kill()
        for process in live:
            process.wait()


class Receiver:
    """The receiver process of one case, restarted whenever it dies on its own."""

    def __init__(self, processes: Processes, argv: list[str], listener: socket.socket, log: Path):
        self.processes, self.argv, self.listener, self.log = processes, argv, listener, log
        self.died: list[str] = []
        self.process = self._start()

    def _start(self) -> subprocess.Popen[bytes]:
        fd = self.listener.fileno()
        with self.log.open("ab") as err:
            process = self.processes.start(
                [*self.argv, "--listen-fd", str(fd)],
                pass_fds=(fd,),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=err,
            )
        assert process.stdout is not None
        ready = process.stdout.readline().decode().strip()
        if ready != receiver.READY:
            self.processes.reaped(process)
            if self.processes.stopping.is_set():
                raise Stopped
            said = self.log.read_text(errors="replace").strip().splitlines()[-1:]
            raise ReferenceFailure(f"the receiver did not start: {' '.join(said) or 'no message'}")
        return process

    def keep_alive(self) -> None:
        """Start a new receiver if this one died; note how it ended."""
        if self.process.poll() is not None:
            self._close(self.process)
            self.died.append(ending(self.processes.reaped(self.process)))
            self.process = self._start()

    def stop(self) -> None:
        """Close its stdin, which ends it, and reap it (noting how it ended if it had died)."""
        died = self.process.poll() is not None
        self._close(self.process)
        code = self.processes.reaped(self.process)
        if died:
            self.died.append(ending(code))

    @staticmethod
    def _close(process: subprocess.Popen[bytes]) -> None:
        pipes: list[IO[bytes] | None] = [process.stdin, process.stdout]
        for pipe in pipes:
            if pipe is not None:
                pipe.close()


@dataclass(frozen=True, slots=True)
class RealRun:
    """What the real parts left behind after one scenario."""

    deliveries: int
    """How many times the queue delivered the message."""
    effects: int
    """Rows in the receiver's ledger."""
    debit_requests: int
    """Debit requests that reached the receiver (its access log), lost ones included."""
    lookups: int
    """Lookups that reached the receiver."""
    acknowledged: bool
    """Whether a delivery was acknowledged (else the queue gave up)."""
    result_recorded: bool
    """Whether the worker's journal holds the call's result."""
    worker_exits: tuple[str, ...]
    """How each delivery's worker process ended, in order."""
    receiver_exits: tuple[str, ...]
    """How each receiver process that died during the run ended."""
    no_replies: int = 0
    """Calls the workers got no reply to (each worker's log says so, line by line)."""
    struck: int = 0
    """Injections that struck at the receiver: each leaves one call without a reply."""

    @property
    def unplanned_timeouts(self) -> int:
        """Calls left without a reply that no injection explains: a reply slower than the
        worker's timeout on a busy machine, not a fault of the plan. A run with any shows what
        the machine did, not what the runtime does."""
        return max(self.no_replies - self.struck, 0)


def split_plan(scenario: Scenario) -> tuple[dict[int, list[str]], list[str]]:
    """The plan's crash points by delivery attempt (for the workers), and the receiver's
    injections as ``ATTEMPT:POINT``."""
    crashes: dict[int, list[str]] = {}
    at_receiver: list[str] = []
    for injection in scenario.fault_plan.injections:
        failure = FAILURE_AT[injection.point]
        if failure is Failure.CRASH:
            crashes.setdefault(injection.attempt, []).append(injection.point.value)
        elif failure in (Failure.MESSAGE_LOST, Failure.RECEIVER_CRASH):
            at_receiver.append(f"{injection.attempt}:{injection.point.value}")
        else:
            raise ValueError(f"the reference implementation cannot inject {injection.point}")
    return crashes, at_receiver


PYTHON: Final = (sys.executable, "-I", "-S")
"""How the worker and the receiver are started: an interpreter that sees only the standard
library (no site-packages, no environment variables, no current folder)."""


def receiver_command(scenario: Scenario, ledger: Path, at_receiver: list[str]) -> list[str]:
    settings = scenario.settings
    return [
        *PYTHON,
        str(RECEIVER_SCRIPT),
        str(ledger),
        *("--receiver", settings.receiver.value, "--record", settings.record.value),
        *(f"--inject={injection}" for injection in at_receiver),
    ]


def worker_command(
    scenario: Scenario, script: Path, port: int, journal: Path, attempt: int, crash_at: list[str]
) -> list[str]:
    return [
        *PYTHON,
        str(script),
        *("--mode", scenario.mode.value, "--key", scenario.settings.key.value),
        *("--attempt", str(attempt), "--port", str(port), "--journal", str(journal)),
        *("--timeout", str(TIMEOUT), "--lookup-timeout", str(LOOKUP_TIMEOUT)),
        *(f"--crash-at={point}" for point in crash_at),
    ]


def run_case(
    scenario: Scenario, directory: Path, processes: Processes, script: Path | None = None
) -> RealRun:
    """Run ``scenario`` for real in ``directory`` (created; its SQLite files stay there).

    A database the supervisor cannot write or read (a full disk, most often) is a failure of
    the reference, ``ReferenceFailure`` naming the case's folder, like a process that cannot
    start: it says nothing of the model."""
    try:
        return _run_case(scenario, directory, processes, script)
    except sqlite3.Error as error:
        raise ReferenceFailure(f"SQLite in {directory}: {error}") from None


def _run_case(
    scenario: Scenario, directory: Path, processes: Processes, script: Path | None
) -> RealRun:
    directory.mkdir(parents=True)
    crashes, at_receiver = split_plan(scenario)
    ledger, journal = directory / "receiver.sqlite", directory / "journal.sqlite"
    exits: list[str] = []
    logs: list[Path] = []
    with socket.create_server(("127.0.0.1", 0)) as listener:
        port = listener.getsockname()[1]
        queue = channel.connect(str(directory / "queue.sqlite"))
        try:
            message = channel.send(queue, worker.OPERATION_ID)
            served = Receiver(
                processes,
                receiver_command(scenario, ledger, at_receiver),
                listener,
                directory / "receiver.stderr",
            )
            try:
                # One delivery at a time, each to a fresh worker, until nothing is queued.
                while (visible := channel.next_visible(queue)) is not None:
                    processes.wait(max(0.0, visible - time.monotonic()))
                    delivery = channel.receive(
                        queue, time.monotonic(), VISIBILITY, scenario.deliveries
                    )
                    if delivery is None:
                        continue
                    attempt = delivery.attempt
                    command = worker_command(
                        scenario,
                        script or WORKER_SCRIPT,
                        port,
                        journal,
                        attempt,
                        crashes.get(attempt, []),
                    )
                    log = directory / f"worker-{attempt}.stderr"
                    logs.append(log)
                    code = run_worker(processes, served, command, log)
                    exits.append(ending(code))
                    if code == worker.ACKNOWLEDGED:
                        channel.acknowledge(queue, delivery)
            finally:
                served.stop()
            deliveries, state = channel.read_back(queue, message)
        finally:
            queue.close()
    effects, debits, lookups = receiver.read_back(str(ledger))
    result = worker.journal_result(str(journal)) if scenario.mode is Mode.DURABLE else None
    return RealRun(
        deliveries=deliveries,
        effects=effects,
        debit_requests=debits,
        lookups=lookups,
        acknowledged=state is channel.State.ACKNOWLEDGED,
        result_recorded=result is not None,
        worker_exits=tuple(exits),
        receiver_exits=tuple(served.died),
        no_replies=no_replies(logs),
        struck=receiver.struck(str(ledger)),
    )


def no_replies(logs: list[Path]) -> int:
    """Calls the workers got no reply to: the lines of their logs that start with
    ``worker.NO_REPLY`` (a real engine's processes say it the same way)."""
    return sum(
        line.startswith(worker.NO_REPLY)
        for log in logs
        for line in log.read_text(encoding="utf-8", errors="replace").splitlines()
    )


def run_worker(processes: Processes, served: Receiver, argv: list[str], log: Path) -> int:
    """Start a fresh worker and wait for it to end, restarting the receiver meanwhile if it
    dies; the worker's exit status."""
    with log.open("wb") as err:
        process = processes.start(argv, stdin=subprocess.DEVNULL, stdout=err, stderr=err)
    deadline = time.monotonic() + WORKER_LIMIT
    while process.poll() is None:
        served.keep_alive()
        if time.monotonic() > deadline:
            process.kill()
            processes.reaped(process)
            raise ReferenceFailure(f"a worker ran for over {WORKER_LIMIT:g} s ({log.parent.name})")
        processes.wait(POLL)
    return processes.reaped(process)
