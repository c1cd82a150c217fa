"""The worker, for real: a process that handles one delivery of the debit, with the naive loop
or the durable runtime, a real HTTP client with a real timeout, and (durable) its own journal
in SQLite.

It imports only the standard library: the supervisor starts a fresh one for every delivery as a
script in an interpreter that sees nothing else (``python -I -S worker.py``). How it ends is its
exit status: 0 acknowledges the delivery (the supervisor deletes the message, as a Lambda
function's return deletes its SQS message), ``RELEASED`` gives the delivery back, and a crash
is death by SIGKILL at a named point: the worker kills itself there (``--crash-at``), with no
``finally``, no cleanup, nothing flushed.

The two runtimes follow the model's rules (``asyncfail.lab.runtimes``):

- naive: call the tool; a timeout is retried blindly (two calls per delivery at most); the
  result lives in process memory only.
- durable: (1) the dispatch intent is written to the journal BEFORE the call; (2) a redelivery
  that finds a recorded result reuses it; one that finds only an intent, or a call that timed
  out, looks the key up at the receiver BEFORE any second call; only a lookup that finds
  nothing allows calling again; (3) the result is recorded before the acknowledgement.
"""

import argparse
import http.client
import json
import os
import signal
import sqlite3
import sys
from collections.abc import Callable
from typing import Final
from urllib.parse import quote

OPERATION_ID: Final = "debit:tenant-a:order-42"
"""The business operation: the journal's key, and the stable operation key."""
CALLS_PER_DELIVERY: Final = 2
ACKNOWLEDGED: Final = 0
RELEASED: Final = 75
"""The exit status that gives the delivery back (EX_TEMPFAIL: try again later)."""

# The receiver's HTTP interface (``receiver.py`` serves it).
DEBIT_PATH: Final = "/debit"
LOOKUP_PATH: Final = "/lookup"
KEY_HEADER: Final = "Idempotency-Key"
ATTEMPT_HEADER: Final = "Delivery-Attempt"
NO_REPLY: Final = "no reply:"
"""How a worker's log line starts for each call it got no reply to."""

Reach = Callable[[str], None]
"""Passing a named point of the delivery: the worker may be told to die there."""


class Wire:
    """A real HTTP client for the receiver: one connection per request, a real timeout.

    ``None`` means no reply: a timeout, or a connection the receiver dropped or reset. From in
    here the worker cannot tell whether the debit happened.
    """

    def __init__(self, port: int, attempt: int, timeout: float, lookup_timeout: float):
        self.port, self.attempt = port, attempt
        self.timeout, self.lookup_timeout = timeout, lookup_timeout

    def debit(self, key: str | None) -> int | None:
        """Call the debit tool (with ``key`` as its idempotency key, if any)."""
        headers = {ATTEMPT_HEADER: str(self.attempt)} | ({KEY_HEADER: key} if key else {})
        return self._entry("POST", DEBIT_PATH, headers, self.timeout)

    def lookup(self, key: str) -> int | None:
        """Ask the receiver for the record of ``key``: its ledger entry, or None (missing)."""
        path = f"{LOOKUP_PATH}?key={quote(key)}"
        headers = {ATTEMPT_HEADER: str(self.attempt)}
        return self._entry("GET", path, headers, self.lookup_timeout)

    def _entry(self, method: str, path: str, headers: dict[str, str], timeout: float) -> int | None:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        try:
            connection.request(method, path, headers=headers)
            response = connection.getresponse()
            body = json.loads(response.read() or b"{}")
        except (OSError, http.client.HTTPException, ValueError):
            # Timed out, dropped or reset: no reply. Said on stderr (the supervisor's log of
            # this delivery) so a timeout no injection explains can be told apart.
            print(f"{NO_REPLY} {method} {path}", file=sys.stderr, flush=True)
            return None
        finally:
            connection.close()  # hanging up is how the receiver learns we gave up
        return int(body["entry"]) if response.status == 200 else None


class Journal:
    """The durable runtime's journal: one row per operation, its intent and then its result."""

    def __init__(self, path: str):
        self.db = sqlite3.connect(path, isolation_level=None)
        self.db.execute(
            "CREATE TABLE IF NOT EXISTS runs (operation TEXT PRIMARY KEY, key TEXT, result INTEGER)"
        )

    def run(self) -> tuple[bool, int | None]:
        """Whether the operation has a run, and its recorded result if any."""
        row = self.db.execute(
            "SELECT result FROM runs WHERE operation = ?", (OPERATION_ID,)
        ).fetchone()
        return row is not None, None if row is None else row[0]

    def record_intent(self, key: str) -> None:
        self.db.execute("INSERT INTO runs (operation, key) VALUES (?, ?)", (OPERATION_ID, key))

    def record_result(self, key: str, entry: int) -> None:
        self.db.execute(
            "INSERT INTO runs (operation, key, result) VALUES (?, ?, ?) "
            "ON CONFLICT (operation) DO UPDATE SET result = excluded.result",
            (OPERATION_ID, key, entry),
        )


def naive(wire: Wire, reach: Reach) -> int:
    """The naive loop: call, retry blindly on no reply, keep the result in memory."""
    memory: dict[str, int] = {}
    for _ in range(CALLS_PER_DELIVERY):
        reach("before-dispatch")
        entry = wire.debit(key=None)
        if entry is None:
            continue  # "it failed": call again
        reach("after-effect")
        memory[OPERATION_ID] = entry  # gone with the process
        reach("after-record")
        return ACKNOWLEDGED
    return RELEASED


def durable(wire: Wire, journal: Journal, key: str, reach: Reach) -> int:
    """The durable runtime: intent before the call, lookup before any second call."""
    entry: int | None = None
    has_run, result = journal.run()
    if has_run:
        if result is not None:
            return ACKNOWLEDGED  # the recorded result, reused: no call
        entry = wire.lookup(key)  # an intent without a result: an unknown outcome
    calls = 0
    while entry is None:
        if calls == CALLS_PER_DELIVERY:
            return RELEASED
        calls += 1
        reach("before-dispatch")
        if not journal.run()[0]:
            journal.record_intent(key)  # (1) the intent, written before the call
        entry = wire.debit(key)
        if entry is None:
            entry = wire.lookup(key)  # (2) no reply: look it up before calling again
    reach("after-effect")
    journal.record_result(key, entry)  # (3) the result, recorded
    reach("after-record")
    return ACKNOWLEDGED


def operation_key(stable: bool, attempt: int) -> str:
    """The key the durable runtime sends and looks up: the operation's own, or (per-attempt)
    one derived from the delivery attempt, as when an execution id changes on each retry."""
    return OPERATION_ID if stable else f"{OPERATION_ID}:attempt-{attempt}"


def crash_points(points: list[str]) -> Reach:
    """Passing a point: die by SIGKILL the first time this delivery reaches one of ``points``."""
    passed: set[str] = set()

    def reach(point: str) -> None:
        if point in points and point not in passed:
            os.kill(os.getpid(), signal.SIGKILL)
        passed.add(point)

    return reach


def journal_result(path: str) -> int | None:
    """The result a journal recorded, read back once its worker is gone (None: no result, or
    no journal at all)."""
    if not os.path.exists(path):
        return None
    journal = Journal(path)
    try:
        return journal.run()[1]
    finally:
        journal.db.close()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--mode", choices=["naive", "durable"], required=True)
    parser.add_argument("--attempt", type=int, required=True)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--timeout", type=float, required=True)
    parser.add_argument("--lookup-timeout", type=float, required=True)
    parser.add_argument("--journal", help="the durable runtime's journal (SQLite)")
    parser.add_argument("--key", choices=["stable", "per-attempt"], default="stable")
    parser.add_argument("--crash-at", action="append", default=[], metavar="POINT")
    args = parser.parse_args(argv)
    wire = Wire(args.port, args.attempt, args.timeout, args.lookup_timeout)
    reach = crash_points(args.crash_at)
    if args.mode == "naive":
        raise SystemExit(naive(wire, reach))
    key = operation_key(args.key == "stable", args.attempt)
    raise SystemExit(durable(wire, Journal(args.journal), key, reach))


if __name__ == "__main__":
    main()
