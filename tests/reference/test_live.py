"""Lesson 1's live verification, one at a time: a second run is told it is busy, how far the
first has got and when it should be free; the lock goes with its holder however it ends, and
nothing is left in TMPDIR."""

import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from asyncfail.reference import live
from tests.cli_support import ROOT


class Clock:
    """Wall-clock seconds, set by the test."""

    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def test_a_second_run_is_busy_and_told_how_far_the_first_has_got(tmp_path: Path) -> None:
    lock = tmp_path / "live.lock"
    clock = Clock(1000.0)
    with live.one_at_a_time(lock, clock) as note:
        with pytest.raises(live.Busy) as before_any_case, live.one_at_a_time(lock, clock):
            pass
        assert before_any_case.value.free_in is None
        assert "it should be free in a minute or so" in str(before_any_case.value)
        note(28, 112)
        clock.now = 1012.0  # 28 cases in 12 s: 84 more take 36 s
        with pytest.raises(live.Busy) as busy, live.one_at_a_time(lock, clock):
            pass
    found = busy.value
    assert (found.started_ago, found.done, found.total, found.free_in) == (12.0, 28, 112, 36.0)
    assert str(found) == (
        "Another verification is running on this server (28 of 112 cases run, started 12 "
        "seconds ago): one runs at a time, and it should be free in about 36 seconds. Press the "
        "button again then; the recorded table above is the last full run."
    )
    assert isinstance(found, live.ReferenceFailure), "the lesson shows it as it shows a failure"
    assert list(tmp_path.iterdir()) == [], "the holder removes the lock file"
    with live.one_at_a_time(lock, clock):  # free again
        pass


def test_the_lock_is_let_go_when_the_block_fails(tmp_path: Path) -> None:
    lock = tmp_path / "live.lock"
    with pytest.raises(RuntimeError), live.one_at_a_time(lock):
        raise RuntimeError("a case failed")
    with live.one_at_a_time(lock):
        pass
    assert list(tmp_path.iterdir()) == []


def test_threads_of_one_server_run_one_at_a_time(tmp_path: Path) -> None:
    # A served course runs every visitor's session in one process: one lock for all of them.
    lock = tmp_path / "live.lock"
    inside, peak, outcomes = [0], [0], []
    guard = threading.Lock()

    def visitor() -> None:
        try:
            with live.one_at_a_time(lock):
                with guard:
                    inside[0] += 1
                    peak[0] = max(peak[0], inside[0])
                time.sleep(0.2)
                with guard:
                    inside[0] -= 1
            outcomes.append("ran")
        except live.Busy:
            outcomes.append("busy")

    threads = [threading.Thread(target=visitor) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert peak[0] == 1
    assert outcomes.count("ran") >= 1 and len(outcomes) == 8


HOLD = """
import sys, time
from pathlib import Path
from asyncfail.reference import live
with live.one_at_a_time(Path(sys.argv[1])) as note:
    note(3, 10)
    print("held", flush=True)
    time.sleep(600)
"""


def test_a_lock_held_by_another_process_is_busy_until_that_process_is_killed(
    tmp_path: Path,
) -> None:
    lock = tmp_path / "live.lock"
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD, str(lock)], cwd=ROOT, stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        with pytest.raises(live.Busy) as busy, live.one_at_a_time(lock):
            pass
        assert (busy.value.done, busy.value.total) == (3, 10)
    finally:
        holder.kill()  # SIGKILL: no clean-up of its own
        holder.wait()
    with live.one_at_a_time(lock):  # the kernel let the lock go with the process
        pass


def test_a_busy_live_run_starts_no_process(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    started: list[Any] = []
    monkeypatch.setattr(live, "verify", lambda *a, **k: started.append(a))
    with live.one_at_a_time(), pytest.raises(live.Busy):
        live.run(lambda done, total: None)
    assert started == []
    assert list(tmp_path.iterdir()) == []
