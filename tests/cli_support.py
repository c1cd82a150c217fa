"""Run the CLI in-process, capturing what it prints and its exit status."""

import io
import os
import signal
import subprocess
import sys
from pathlib import Path

from asyncfail.cli.main import main

ROOT = Path(__file__).resolve().parent.parent


def sigint_default() -> None:
    """For ``Popen(preexec_fn=...)``: the child starts with SIGINT at its default, so Python
    turns Ctrl-C into ``KeyboardInterrupt`` even when the tests themselves were started with
    SIGINT ignored (a non-interactive shell ignores it in the jobs it puts in the background,
    and every child inherits that: the command then ran to the end, deaf to Ctrl-C)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def run_main(*argv: str) -> tuple[int, str, str]:
    """``main(argv)`` with stdout and stderr captured: (exit status, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    old = sys.stderr
    sys.stderr = err
    try:
        code = main(list(argv), stdout=out)
    finally:
        sys.stderr = old
    return code, out.getvalue(), err.getvalue()


def run_process(*argv: str) -> subprocess.CompletedProcess[str]:
    """``python -m asyncfail argv`` as a real process, with a random hash seed."""
    return subprocess.run(
        [sys.executable, "-m", "asyncfail", *argv],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONHASHSEED": "random"},
        check=False,
    )
