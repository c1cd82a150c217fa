"""Start a server for a test and wait until it answers: a free port, and the wait, shared by the
tests that start the course server (tests/serve, tests/browser) or marimo's own."""

from __future__ import annotations

import socket
import subprocess
import time
import urllib.error
import urllib.request
from typing import Any

import pytest


def free_port() -> int:
    """A TCP port of 127.0.0.1 that nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def answering(process: subprocess.Popen[Any], url: str, what: str, within_s: float) -> None:
    """Wait until ``process`` answers at ``url`` (any HTTP status); if it ends, or ``within_s``
    pass first, kill it and fail the test, naming ``what`` with what it printed."""
    deadline = time.monotonic() + within_s
    while True:
        try:
            with urllib.request.urlopen(url, timeout=30):
                return
        except urllib.error.HTTPError:
            return  # it answered, with an error status: the test reads what
        except (urllib.error.URLError, ConnectionError):
            if process.poll() is not None or time.monotonic() > deadline:
                process.kill()
                out, err = process.communicate()
                pytest.fail(f"{what} did not start: {out or ''}{err or ''}")
            time.sleep(0.25)
