"""The DBOS application: the debit as a DBOS workflow, one process per delivery, run as a script.

It imports DBOS (``dbos`` from PyPI) and the standard library, nothing of asyncfail: the engine
adapter (``dbos_engine.py``) starts a fresh process for every delivery with
``python dbos_app.py ...``. DBOS keeps its system database in SQLite in the case's folder; the
debit is an HTTP request to the reference receiver on 127.0.0.1. The process launches DBOS; when
the workflow is already recorded (an earlier process died inside it), ``DBOS.launch()`` recovers
it by itself and this process waits for its result; otherwise it starts it, under the workflow
id ``debit:tenant-a:order-42``. Exit 0 when the workflow succeeded (the acknowledgement), 75
when it did not; a crash is a SIGKILL the process sends itself at a named point
(``--crash-at``), inside the workflow, with nothing flushed.

Two workflows, one per runtime:

- checkpoint (a plain engine step): ``debit_step`` calls the tool and returns the ledger entry,
  which DBOS checkpoints once the step returns. No reply raises, and DBOS retries the step (it
  does not by default: this app allows two attempts, the model's ``--step-retries once``, 1 s
  apart as DBOS's default interval; the pause also gives a receiver that crashed time to
  restart). With ``--step-retries off`` the workflow runs ``debit_step_without_retries``
  instead, declared with DBOS's defaults: no reply fails the step and the workflow, for good.
  The key is none, the workflow id and step id (``stable``), or those with the delivery
  attempt.
- durable (the course's pattern, on DBOS): ``intent_step`` journals the dispatch intent (its
  output is the delivery it was written in); ``dispatch_step`` then calls, and when the intent
  is from an earlier delivery, or a call got no reply, looks the key up first; the operation key
  is the workflow id (``per-attempt``: with the delivery attempt). The step's output is the
  recorded result.
"""

import argparse
import http.client
import json
import os
import signal
import sys
from typing import Final
from urllib.parse import quote

from dbos import DBOS, SetWorkflowID

WORKFLOW_ID: Final = "debit:tenant-a:order-42"
ACKNOWLEDGED: Final = 0
RELEASED: Final = 75
CALLS_PER_DELIVERY: Final = 2
KEY_HEADER: Final = "Idempotency-Key"
ATTEMPT_HEADER: Final = "Delivery-Attempt"
NO_REPLY: Final = "no reply:"
"""How a log line starts for each call that got no reply: the reference worker's words
(``asyncfail.reference.worker.NO_REPLY``, which a test holds this to), counted by the adapter
to tell a slow machine from an injected fault."""
POLL: Final = 0.02
"""Seconds between looks at a recovered workflow's status while waiting for its result."""


class NoReply(Exception):
    """The debit got no reply: timed out, dropped or reset."""


class Delivery:
    """What this process was told: its delivery attempt, the receiver, the crash points."""

    def __init__(self, args: argparse.Namespace):
        self.attempt: int = args.attempt
        self.port: int = args.port
        self.timeout: float = args.timeout
        self.lookup_timeout: float = args.lookup_timeout
        self.key: str = args.key
        self.step_retries: str = args.step_retries
        self.crash_at: set[str] = set(args.crash_at)
        self.passed: set[str] = set()

    def reach(self, point: str) -> None:
        """Die by SIGKILL the first time this process reaches a crash point it was given."""
        if point in self.crash_at and point not in self.passed:
            os.kill(os.getpid(), signal.SIGKILL)
        self.passed.add(point)

    def request(self, method: str, path: str, key: str | None, timeout: float) -> int | None:
        """One request on its own connection: the ledger entry, or None (no reply, or 404)."""
        headers = {ATTEMPT_HEADER: str(self.attempt)} | ({KEY_HEADER: key} if key else {})
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        try:
            connection.request(method, path, headers=headers)
            response = connection.getresponse()
            body = json.loads(response.read() or b"{}")
        except (OSError, http.client.HTTPException, ValueError):
            # Timed out, dropped or reset: said on stderr, the adapter's log of this process.
            print(f"{NO_REPLY} {method} {path}", file=sys.stderr, flush=True)
            return None
        finally:
            connection.close()
        return int(body["entry"]) if response.status == 200 else None

    def debit(self, key: str | None) -> int | None:
        return self.request("POST", "/debit", key, self.timeout)

    def lookup(self, key: str) -> int | None:
        return self.request("GET", f"/lookup?key={quote(key)}", None, self.lookup_timeout)


ME: Delivery


@DBOS.step(retries_allowed=True, max_attempts=CALLS_PER_DELIVERY)  # DBOS's 1 s interval
def debit_step() -> int:
    """The checkpoint runtime's step: call the tool; DBOS checkpoints what it returns."""
    return debit()


@DBOS.step()  # DBOS's defaults: retries not allowed
def debit_step_without_retries() -> int:
    """The same step as DBOS declares one by default: no reply fails it, and the workflow."""
    return debit()


def debit() -> int:
    """The debit step's body: call the tool with the step's key; no reply raises."""
    ME.reach("before-dispatch")
    stable = f"{DBOS.workflow_id}:step-{DBOS.step_id}"
    key = {"none": None, "stable": stable}.get(ME.key, f"{stable}:attempt-{ME.attempt}")
    entry = ME.debit(key)
    if entry is None:
        raise NoReply("the debit got no reply")
    ME.reach("after-effect")
    return entry


@DBOS.workflow()
def checkpoint_workflow() -> int:
    entry = debit_step() if ME.step_retries == "once" else debit_step_without_retries()
    ME.reach("after-record")
    return entry


@DBOS.step()
def intent_step() -> int:
    """The dispatch intent, journaled as this step's output: the delivery that wrote it."""
    return ME.attempt


@DBOS.step()
def dispatch_step(key: str, unknown: bool) -> int:
    """Call under ``key``; look it up first when the outcome is unknown, and after no reply."""
    entry = ME.lookup(key) if unknown else None
    calls = 0
    while entry is None:
        if calls == CALLS_PER_DELIVERY:
            raise NoReply("no answer within the delivery")
        calls += 1
        entry = ME.debit(key)
        if entry is None:
            entry = ME.lookup(key)
    ME.reach("after-effect")
    return entry


@DBOS.workflow()
def durable_workflow() -> int:
    ME.reach("before-dispatch")  # before the intent is written
    written_in = intent_step()
    wid = DBOS.workflow_id or WORKFLOW_ID
    key = wid if ME.key == "stable" else f"{wid}:attempt-{ME.attempt}"
    entry = dispatch_step(key, unknown=written_in != ME.attempt)
    ME.reach("after-record")
    return entry


WORKFLOWS: Final = {"checkpoint": checkpoint_workflow, "durable": durable_workflow}


def main() -> None:
    global ME
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--mode", choices=sorted(WORKFLOWS), required=True)
    parser.add_argument("--key", choices=["none", "stable", "per-attempt"], required=True)
    parser.add_argument("--step-retries", choices=["once", "off"], required=True)
    parser.add_argument("--attempt", type=int, required=True)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--timeout", type=float, required=True)
    parser.add_argument("--lookup-timeout", type=float, required=True)
    parser.add_argument("--system-database", required=True, help="a SQLite file")
    parser.add_argument("--crash-at", action="append", default=[], metavar="POINT")
    args = parser.parse_args()
    ME = Delivery(args)
    url = f"sqlite:///{args.system_database}"
    DBOS(config={"name": "asyncfail", "system_database_url": url})
    DBOS.launch()  # recovers a workflow an earlier process left PENDING, by itself
    try:
        if DBOS.get_workflow_status(WORKFLOW_ID) is None:
            with SetWorkflowID(WORKFLOW_ID):
                WORKFLOWS[args.mode]()
        else:
            DBOS.retrieve_workflow(WORKFLOW_ID).get_result(polling_interval_sec=POLL)
        code = ACKNOWLEDGED
    except Exception as error:  # the workflow failed: give the delivery back
        print(f"dbos_app: the workflow failed: {error!r}", file=sys.stderr)
        code = RELEASED
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)  # no shutdown wait: everything DBOS records is committed by now


if __name__ == "__main__":
    main()
