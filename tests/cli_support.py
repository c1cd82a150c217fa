"""Run the CLI in-process, capturing what it prints and its exit status."""

import io
import os
import subprocess
import sys
from pathlib import Path

from asyncfail.cli.main import main

ROOT = Path(__file__).resolve().parent.parent


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
