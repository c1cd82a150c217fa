"""`bench/page_cpu.py` sums a Chrome trace by kind of thread: checked on a trace written by hand,
its table derived by hand."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

import page_cpu
from page_cpu import Kind

URL = "http://127.0.0.1:8000/bench/01_async_failure_lab/"
PAGE, OTHER = 10, 20  # the page's renderer; another (Chrome's own UI renders in its own)
NAVIGATION = 5_000_000  # µs, the trace's clock


def thread(pid: int, tid: int, name: str) -> dict[str, Any]:
    return {"ph": "M", "name": "thread_name", "pid": pid, "tid": tid, "args": {"name": name}}


def task(
    pid: int, tid: int, at_ms: float, dur_ms: float, cpu_ms: float, name: str = "RunTask"
) -> dict[str, Any]:
    """A complete event ``at_ms`` after the navigation (negative: before it)."""
    return {
        "ph": "X",
        "name": name,
        "pid": pid,
        "tid": tid,
        "ts": NAVIGATION + at_ms * 1000,
        "dur": dur_ms * 1000,
        "tdur": cpu_ms * 1000,
    }


def navigation(pid: int, ts: float, url: str) -> dict[str, Any]:
    data = {"documentLoaderURL": url, "isLoadingMainFrame": True}
    return {
        "ph": "R",
        "name": "navigationStart",
        "pid": pid,
        "tid": pid,
        "ts": ts,
        "args": {"data": data},
    }


TRACE = [
    thread(PAGE, 1, "CrRendererMain"),
    thread(PAGE, 2, "DedicatedWorker thread"),
    thread(PAGE, 3, "ThreadPoolForegroundWorker"),
    thread(PAGE, 4, "Compositor"),
    thread(OTHER, 1, "CrRendererMain"),
    navigation(OTHER, 0, "chrome://omnibox-popup.top-chrome/"),
    navigation(PAGE, NAVIGATION - 50_000, "about:blank"),
    navigation(PAGE, NAVIGATION, URL),
    # The page's thread: one task with a task inside (counted once, by the outer one's CPU);
    # one before the navigation and one after the page went live (1 s), neither counted.
    task(PAGE, 1, 100, 100, 80),
    task(PAGE, 1, 120, 10, 10),
    task(PAGE, 1, -30, 20, 20),
    task(PAGE, 1, 1000, 50, 50),
    task(PAGE, 2, 200, 600, 500),  # the kernel worker
    # A pool task of 300 ms CPU, 200 of it WebAssembly's tier-up, then one of script parsing.
    task(PAGE, 3, 300, 300, 300),
    task(PAGE, 3, 310, 250, 200, page_cpu.TIER_UP_TASK),
    task(PAGE, 3, 700, 40, 30),
    task(PAGE, 3, 800, 20, 15, page_cpu.TIER_UP_TASK),  # a tier-up task of its own
    task(PAGE, 4, 400, 10, 7),  # the page's compositor
    task(OTHER, 1, 400, 60, 50),  # another renderer
    task(OTHER, 1, 500, 5, 5, page_cpu.TIER_UP_TASK),  # its tier-up: not the page's
]


def test_cpu_by_kind_of_a_trace_written_by_hand() -> None:
    assert page_cpu.cpu_by_kind(TRACE, URL, 1.0) == {
        Kind.KERNEL: 500,
        Kind.PAGE: 80,
        Kind.TIER_UP: 200 + 15,
        Kind.BACKGROUND: 100 + 30,
        Kind.REST: 7 + 50 + 5,
    }


def test_the_window_ends_when_the_page_went_live() -> None:
    """Live at 0.25 s: only the tasks begun before then (the page's 80, the kernel's 500)."""
    cpu = page_cpu.cpu_by_kind(TRACE, URL, 0.25)
    assert cpu == {
        Kind.KERNEL: 500,
        Kind.PAGE: 80,
        Kind.TIER_UP: 0,
        Kind.BACKGROUND: 0,
        Kind.REST: 0,
    }


def test_a_trace_without_the_page_says_so() -> None:
    with pytest.raises(SystemExit, match="no navigation to http://elsewhere/"):
        page_cpu.cpu_by_kind(TRACE, "http://elsewhere/", 1.0)
