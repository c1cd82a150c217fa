"""The worker and the receiver as a learner reads them: scripts on the standard library alone,
speaking the same HTTP interface; the receiver's rules, served on a real socket."""

import ast
import contextlib
import http.client
import json
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from asyncfail.reference import receiver, worker
from asyncfail.reference.supervisor import RECEIVER_SCRIPT, WORKER_SCRIPT

SCRIPTS = [WORKER_SCRIPT, RECEIVER_SCRIPT]


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.stem)
def test_a_part_that_runs_as_a_process_imports_only_the_standard_library(script: Path) -> None:
    tree = ast.parse(script.read_text(encoding="utf-8"))
    roots = {
        alias.name.split(".")[0]
        for n in ast.walk(tree)
        if isinstance(n, ast.Import)
        for alias in n.names
    }
    roots |= {
        n.module.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module
    }
    assert roots <= set(sys.stdlib_module_names), roots - set(sys.stdlib_module_names)


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.stem)
def test_a_part_starts_in_an_interpreter_that_sees_only_the_standard_library(
    script: Path,
) -> None:
    done = subprocess.run(
        [sys.executable, "-I", "-S", str(script), "--help"], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("usage: ")


def test_the_worker_and_the_receiver_speak_the_same_interface() -> None:
    for name in ("DEBIT_PATH", "LOOKUP_PATH", "KEY_HEADER", "ATTEMPT_HEADER"):
        assert getattr(worker, name) == getattr(receiver, name), name


class Served:
    """A receiver process on a socket of this test's, and a client for it."""

    def __init__(self, tmp_path: Path, *options: str) -> None:
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.database = tmp_path / "receiver.sqlite"
        fd = self.listener.fileno()
        script = [sys.executable, "-I", "-S", str(RECEIVER_SCRIPT), str(self.database)]
        self.process = subprocess.Popen(
            [*script, "--listen-fd", str(fd), *options],
            pass_fds=(fd,),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
        )
        assert self.process.stdout is not None
        assert self.process.stdout.readline().decode().strip() == receiver.READY
        self.port = self.listener.getsockname()[1]

    def request(self, method: str, path: str, key: str | None = None) -> tuple[int, object]:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=5)
        try:
            headers = {receiver.ATTEMPT_HEADER: "1"} | ({receiver.KEY_HEADER: key} if key else {})
            connection.request(method, path, headers=headers)
            response = connection.getresponse()
            return response.status, json.loads(response.read())
        finally:
            connection.close()

    def close(self) -> None:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.close()
        self.process.stdout.close()
        assert self.process.wait(timeout=5) == 0
        self.listener.close()


@contextlib.contextmanager
def serving(tmp_path: Path, *options: str) -> Iterator[Served]:
    served = Served(tmp_path, *options)
    try:
        yield served
    finally:
        served.close()


def test_a_dedupe_receiver_answers_a_retained_key_with_the_stored_entry(tmp_path: Path) -> None:
    with serving(tmp_path, "--receiver", "dedupe") as served:
        assert served.request("GET", "/lookup?key=k") == (404, {})
        assert served.request("POST", "/debit", key="k") == (200, {"entry": 1})
        assert served.request("POST", "/debit", key="k") == (200, {"entry": 1})
        assert served.request("GET", "/lookup?key=k") == (200, {"entry": 1})
        assert served.request("POST", "/debit") == (200, {"entry": 2})  # no key: applied
    # Two ledger rows; three debit requests and two lookups in the access log.
    assert receiver.read_back(str(tmp_path / "receiver.sqlite")) == (2, 3, 2)


def test_a_lookup_only_receiver_applies_a_repeated_key_again(tmp_path: Path) -> None:
    with serving(tmp_path) as served:
        assert served.request("POST", "/debit", key="k") == (200, {"entry": 1})
        assert served.request("POST", "/debit", key="k") == (200, {"entry": 2})
        assert served.request("GET", "/lookup?key=k") == (200, {"entry": 2})
