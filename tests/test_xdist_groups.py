"""`make pytest` (pytest-xdist, ``--dist loadgroup``) keeps each group of tests that shares a
costly session fixture on one worker (tests/conftest.py's ``ONE_WORKER``): the browser tests'
built site and Chromium, the reference's real processes. Run here as `make pytest` runs it, on
three quick tests of the browser group."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
QUICK = "worker_keeps or rebuilt_site or two_builds"  # tests/browser/test_offline.py, no browser


def test_a_group_runs_on_one_worker_under_loadgroup() -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-n", "2", "--dist", "loadgroup", "-vv",
         "-p", "no:cacheprovider", "tests/browser/test_offline.py", "-k", QUICK],
        cwd=ROOT, env={**env, "PYTHONPATH": str(ROOT)}, capture_output=True, text=True,
        timeout=300,
    )  # fmt: skip
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
    ran = re.findall(r"^\[(gw\d+)\].* PASSED (\S+)", run.stdout, flags=re.MULTILINE)
    assert len(ran) == 3, run.stdout[-2000:]
    # The node id xdist schedules by carries the group, and the group's tests share a worker.
    assert all(nodeid.endswith("@site") for _worker, nodeid in ran), ran
    assert len({worker for worker, _nodeid in ran}) == 1, ran
