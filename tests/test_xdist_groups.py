"""How `make pytest` (pytest-xdist, ``--dist loadgroup``) shares the suite's costly work: each
group of tests that shares a session fixture stays on one worker (tests/conftest.py's
``ONE_WORKER``: the reference's real processes), and the tests that need the built site run
after the others, while the site builds in the background (tests/browser/site_build.py). Run
here as `make pytest` runs it, on quick tests."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ENV = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}


def pytest_run(*args: str, basetemp: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", f"--basetemp={basetemp}",
         *args],
        cwd=ROOT, env={**ENV, "PYTHONPATH": str(ROOT)}, capture_output=True, text=True,
        timeout=300,
    )  # fmt: skip


def test_a_group_runs_on_one_worker_under_loadgroup(tmp_path: Path) -> None:
    run = pytest_run(
        "-n", "2", "--dist", "loadgroup", "-vv", "tests/reference/test_channel.py",
        basetemp=tmp_path,
    )  # fmt: skip
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
    ran = re.findall(r"^\[(gw\d+)\].* PASSED (\S+)", run.stdout, flags=re.MULTILINE)
    assert len(ran) >= 3, run.stdout[-2000:]
    # The node id xdist schedules by carries the group, and the group's tests share a worker.
    assert all(nodeid.endswith("@reference") for _worker, nodeid in ran), ran
    assert len({worker for worker, _nodeid in ran}) == 1, ran


def test_the_tests_that_need_the_site_come_last_and_listing_them_builds_nothing(
    tmp_path: Path,
) -> None:
    from tests.browser import site_build

    run = pytest_run(
        "--collect-only", "-o", "addopts=-q", "-p", "no:xdist", "tests/browser/test_export.py",
        basetemp=tmp_path,
    )  # fmt: skip
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
    ids = [line for line in run.stdout.splitlines() if "::" in line]
    names = [re.sub(r"\[.*", "", i.split("::")[1]) for i in ids]
    # Which need the site, read from the test functions' own parameters (not the hook's rule).
    source = (ROOT / "tests/browser/test_export.py").read_text(encoding="utf-8")
    needing = set(re.findall(r"def (test_\w+)\([^)]*\bbuilt_site\b", source))
    flags = [name in needing for name in names]
    assert any(flags) and not all(flags), ids  # both kinds are in the file
    assert flags == sorted(flags), "a test that needs the site runs before one that does not"
    # The written order is kept within each part.
    written = re.findall(r"^def (test_\w+)", source, flags=re.MULTILINE)
    for part in (True, False):
        order = [written.index(n) for n, f in zip(names, flags, strict=True) if f == part]
        assert order == sorted(order), part
    assert not (tmp_path / site_build.FOLDER).exists()
