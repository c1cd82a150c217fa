"""The receiver, for real: a process that serves the debit tool over HTTP on 127.0.0.1 and keeps
its ledger and idempotency records in SQLite.

It imports only the standard library: the supervisor runs it as a script in an interpreter
that sees nothing else (``python -I -S receiver.py``). Its rules are the model's receiver's
(``asyncfail.lab.actors.Receiver``), in SQL:

- ``POST /debit`` applies one debit: a row in ``ledger``. A request with an ``Idempotency-Key``
  also writes the key's row in ``records``: in the same transaction as the debit
  (``--record atomic``) or in its own transaction after the debit commits (``separate``).
- ``--receiver dedupe``: a keyed request whose key has a record gets the stored entry back and
  no debit. ``lookup-only`` applies a repeated keyed request again.
- ``GET /lookup?key=K`` answers the record of K: 200 with its entry, or 404.
- Every request is written to ``requests`` (an access log) as it arrives, before anything else.

Faults strike where the model puts them, each the first time its delivery attempt reaches its
point (the worker says which attempt it is in the ``Delivery-Attempt`` header; only the fault
injector reads it, and the ``injections`` table remembers what struck, across restarts):

- ``request``: the receiver reads the request and goes silent without applying it;
- ``response``: it applies the debit and commits, then goes silent instead of replying;
- ``receiver-before-record`` (keyed requests only): it kills itself with SIGKILL between the
  debit and the record. SQLite rolls back what was not committed: with an atomic record
  neither survives, with a separate one the debit does.

Going silent is how a message is lost here: no reply, until the worker's own timeout fires and
it hangs up. The receiver lives as long as its stdin stays open (its supervisor holds the other
end), and it serves on a listening socket it is handed (``--listen-fd``), so a restarted
receiver answers on the same port, as under systemd's socket activation.
"""

import argparse
import http.server
import json
import os
import signal
import socket
import sqlite3
import sys
import threading
from dataclasses import dataclass
from typing import Final
from urllib.parse import parse_qs, urlsplit

DEBIT_PATH: Final = "/debit"
LOOKUP_PATH: Final = "/lookup"
KEY_HEADER: Final = "Idempotency-Key"
ATTEMPT_HEADER: Final = "Delivery-Attempt"
READY: Final = "ready"
"""The line the receiver prints once it can answer."""

SILENCE_LIMIT: Final = 10.0
"""The longest a silent receiver waits for the worker to hang up (a guard: the worker's own
timeout is far shorter)."""

SCHEMA: Final = """
CREATE TABLE IF NOT EXISTS ledger (entry INTEGER PRIMARY KEY, key TEXT);
CREATE TABLE IF NOT EXISTS records (key TEXT PRIMARY KEY, entry INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS requests (
    seq INTEGER PRIMARY KEY, kind TEXT NOT NULL, key TEXT, attempt INTEGER
);
CREATE TABLE IF NOT EXISTS injections (
    attempt INTEGER NOT NULL, point TEXT NOT NULL, fired INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (attempt, point)
);
"""


def connect(path: str) -> sqlite3.Connection:
    """The receiver's database; transactions are written out (``BEGIN`` ... ``COMMIT``)."""
    db = sqlite3.connect(path, isolation_level=None)
    db.executescript(SCHEMA)
    return db


def strikes(db: sqlite3.Connection, attempt: int, point: str) -> bool:
    """Whether an injection at ``point`` for ``attempt`` strikes now: it does once, the first
    time; that it struck is committed before anything it breaks."""
    marked = db.execute(
        "UPDATE injections SET fired = 1 WHERE attempt = ? AND point = ? AND fired = 0",
        (attempt, point),
    )
    return marked.rowcount == 1


def stored_entry(db: sqlite3.Connection, key: str) -> int | None:
    """The ledger entry the record of ``key`` holds, if there is a record."""
    row = db.execute("SELECT entry FROM records WHERE key = ?", (key,)).fetchone()
    return None if row is None else int(row[0])


@dataclass(frozen=True, slots=True)
class Contract:
    """How this receiver treats keys: ``dedupe`` or ``lookup-only``; ``atomic`` or
    ``separate`` records."""

    dedupe: bool
    separate_record: bool


def debit(db: sqlite3.Connection, contract: Contract, key: str | None, attempt: int) -> int:
    """Apply one debit and return its ledger entry (or, deduplicated, the stored one)."""
    if key is not None and contract.dedupe:
        entry = stored_entry(db, key)
        if entry is not None:
            return entry
    crash = key is not None and strikes(db, attempt, "receiver-before-record")
    db.execute("BEGIN IMMEDIATE")
    cursor = db.execute("INSERT INTO ledger (key) VALUES (?)", (key,))
    entry = int(cursor.lastrowid or 0)
    if key is not None and contract.separate_record:
        db.execute("COMMIT")  # the debit is durable on its own ...
        db.execute("BEGIN IMMEDIATE")  # ... and the record comes in a second transaction
    if crash:
        os.kill(os.getpid(), signal.SIGKILL)  # between the debit and its record
    if key is not None:
        db.execute("INSERT OR REPLACE INTO records (key, entry) VALUES (?, ?)", (key, entry))
    db.execute("COMMIT")
    return entry


class Server(http.server.HTTPServer):
    """The HTTP server, serving on the listening socket its supervisor handed it."""

    def __init__(self, listener: socket.socket, db: sqlite3.Connection, contract: Contract):
        super().__init__(listener.getsockname(), Handler, bind_and_activate=False)
        self.socket.close()
        self.socket = listener
        self.db, self.contract = db, contract


class Handler(http.server.BaseHTTPRequestHandler):
    """One request, one connection (HTTP/1.0): the worker opens a new one for each call."""

    server: Server

    def do_POST(self) -> None:
        if urlsplit(self.path).path != DEBIT_PATH:
            self.reply(404, {})
            return
        db, key = self.server.db, self.headers.get(KEY_HEADER)
        attempt = int(self.headers.get(ATTEMPT_HEADER, "0"))
        self.log_request_arrived("debit", key, attempt)
        if strikes(db, attempt, "request"):
            self.go_silent()  # the request is lost: never applied
            return
        entry = debit(db, self.server.contract, key, attempt)
        if strikes(db, attempt, "response"):
            self.go_silent()  # the response is lost: the debit is committed
            return
        self.reply(200, {"entry": entry})

    def do_GET(self) -> None:
        url = urlsplit(self.path)
        if url.path != LOOKUP_PATH:
            self.reply(404, {})
            return
        key = parse_qs(url.query).get("key", [""])[0]
        self.log_request_arrived("lookup", key, int(self.headers.get(ATTEMPT_HEADER, "0")))
        entry = stored_entry(self.server.db, key)
        if entry is None:
            self.reply(404, {})
        else:
            self.reply(200, {"entry": entry})

    def log_request_arrived(self, kind: str, key: str | None, attempt: int) -> None:
        self.server.db.execute(
            "INSERT INTO requests (kind, key, attempt) VALUES (?, ?, ?)", (kind, key, attempt)
        )

    def reply(self, status: int, body: dict[str, int]) -> None:
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def go_silent(self) -> None:
        """Lose the message: write nothing back, and wait until the worker hangs up."""
        self.close_connection = True
        self.connection.settimeout(SILENCE_LIMIT)
        try:
            while self.connection.recv(1024):
                pass
        except OSError:
            pass

    def log_message(self, format: str, *args: object) -> None:
        """Quiet: the ``requests`` table is the access log."""


def read_back(path: str) -> tuple[int, int, int]:
    """What the receiver's database holds once it has stopped: (ledger entries, debit requests
    that arrived, lookups that arrived). Opening it rolls back a transaction a crash cut off."""
    db = sqlite3.connect(path)
    try:
        (effects,) = db.execute("SELECT COUNT(*) FROM ledger").fetchone()
        kinds = dict(db.execute("SELECT kind, COUNT(*) FROM requests GROUP BY kind").fetchall())
    finally:
        db.close()
    return int(effects), int(kinds.get("debit", 0)), int(kinds.get("lookup", 0))


def struck(path: str) -> int:
    """How many injections struck at the receiver (each left its worker without a reply: a
    lost request or reply, or a crash that dropped the connection)."""
    db = sqlite3.connect(path)
    try:
        (count,) = db.execute("SELECT COUNT(*) FROM injections WHERE fired = 1").fetchone()
    finally:
        db.close()
    return int(count)


def exit_when_stdin_closes() -> None:
    """Stop at once when the supervisor closes our stdin, or dies: nothing is held in memory."""
    sys.stdin.buffer.read()
    os._exit(0)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("database")
    parser.add_argument("--listen-fd", type=int, required=True)
    parser.add_argument("--receiver", choices=["lookup-only", "dedupe"], default="lookup-only")
    parser.add_argument("--record", choices=["atomic", "separate"], default="atomic")
    parser.add_argument("--inject", action="append", default=[], metavar="ATTEMPT:POINT")
    args = parser.parse_args(argv)
    db = connect(args.database)
    for injection in args.inject:
        attempt, _, point = injection.partition(":")
        db.execute("INSERT OR IGNORE INTO injections VALUES (?, ?, 0)", (int(attempt), point))
    contract = Contract(args.receiver == "dedupe", args.record == "separate")
    server = Server(socket.socket(fileno=args.listen_fd), db, contract)
    threading.Thread(target=exit_when_stdin_closes, daemon=True).start()
    print(READY, flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
