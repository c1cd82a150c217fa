"""Where a lesson's start spends the machine: CPU time by kind of thread, from Chrome's trace.

`python bench/page_cpu.py --site DIR --lesson 01 [--runs 3]` exports the trivial page and the
lesson's probe copy into `DIR/bench/` (as `export_bench.py` does), loads them alternately in
fresh contexts with Chrome's tracing on, and prints, for each kind of thread (``Kind``), the CPU
time each page spent from navigation until it went live: medians of `--runs` loads each, and
the lesson's extra. `DIR` is a site built before (`make export`, or `build_site`).

Why: under Node a lesson's own start is some 0.7-1.0 s of Python (`export_bench.py`'s "kernel
start under Node"), yet its page goes live about 2 s after the trivial page. The trace says
where the rest goes: the lesson's extra Python is also work for V8 on other threads (compiling
the WebAssembly it runs hot, again, in its optimising tier), and the page's thread draws more;
on a machine with two cores every thread waits for the others (exports/README.md).

CPU is each thread's own time (the trace's ``tdur``) of its outermost tasks begun before the
page went live. Tracing costs each page some time too: read the split and the extra, and time a
lever with `export_bench.py`, alternating.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
from collections import defaultdict
from enum import Enum
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "exports"))
sys.path.insert(0, str(ROOT / "bench"))

import export_bench  # noqa: E402
from browser import launch  # noqa: E402
from serve import serving  # noqa: E402


class Kind(Enum):
    """The threads a page's start runs on, as this bench sums them."""

    KERNEL = "kernel worker (Pyodide: marimo's kernel and the lesson's Python)"
    PAGE = "page's thread (marimo's scripts, drawing the outputs)"
    TIER_UP = "V8 in the background: WebAssembly's optimising tier"
    BACKGROUND = "V8 in the background: parsing scripts, their JIT, the collector"
    REST = "the browser's other processes and threads (network, GPU, IPC)"


CATEGORIES = [
    "toplevel",
    "v8.wasm",
    "blink.user_timing",  # navigationStart: the trace's clock at the page's time origin
    "devtools.timeline",
    "disabled-by-default-devtools.timeline",
]
TIER_UP_TASK = "wasm.ExecuteCompilationUnits"
"""V8's task that compiles WebAssembly functions grown hot in its optimising tier (TurboFan)."""


def kind_of(in_page_process: bool, thread: str) -> Kind:
    """The ``Kind`` of a thread, by its name and whether it is in the page's own renderer
    process (the pool threads' tier-up counted apart, in ``cpu_by_kind``)."""
    if not in_page_process:
        return Kind.REST
    if thread.startswith("DedicatedWorker"):
        return Kind.KERNEL
    if thread == "CrRendererMain":
        return Kind.PAGE
    if thread.startswith("ThreadPool"):
        return Kind.BACKGROUND
    return Kind.REST


def cpu_by_kind(events: list[dict[str, Any]], url: str, live_s: float) -> dict[Kind, float]:
    """Milliseconds of CPU per ``Kind``, from the navigation to ``url`` until ``live_s`` s
    after it: each thread's outermost complete events begun in that window, by their own CPU
    time; on the page's pool threads, the tier-up tasks inside them counted as ``TIER_UP``."""
    threads: dict[tuple[int, int], str] = {}
    starts = []
    for event in events:
        if event.get("ph") == "M" and event.get("name") == "thread_name":
            threads[(event["pid"], event["tid"])] = event["args"]["name"]
        elif (
            event.get("name") == "navigationStart"
            and event.get("args", {}).get("data", {}).get("documentLoaderURL") == url
        ):
            starts.append((event["ts"], event["pid"]))
    if not starts:
        raise SystemExit(f"page_cpu: the trace holds no navigation to {url}")
    begin, page_process = min(starts)
    end = begin + live_s * 1_000_000
    by_thread: dict[tuple[int, int], list[dict[str, Any]]] = defaultdict(list)
    for event in events:
        if event.get("ph") == "X" and "ts" in event and begin <= event["ts"] < end:
            by_thread[(event["pid"], event["tid"])].append(event)
    cpu: dict[Kind, float] = dict.fromkeys(Kind, 0.0)
    for key, held in by_thread.items():
        kind = kind_of(key[0] == page_process, threads.get(key, ""))
        held.sort(key=lambda event: (event["ts"], -event.get("dur", 0)))
        outer_end = -1.0
        for event in held:
            own = float(event.get("tdur") or 0) / 1000
            tier_up = kind is Kind.BACKGROUND and event.get("name") == TIER_UP_TASK
            if event["ts"] >= outer_end:  # an outermost task
                outer_end = event["ts"] + event.get("dur", 0)
                cpu[Kind.TIER_UP if tier_up else kind] += own
            elif tier_up:  # inside a pool task: its share of that task's CPU
                cpu[Kind.BACKGROUND] -= own
                cpu[Kind.TIER_UP] += own
    return cpu


def traced_load(browser, url: str, ready: str) -> tuple[float, dict[Kind, float]]:  # type: ignore[no-untyped-def]
    """One load of ``url`` in a fresh context, traced: seconds to live (``export_bench``'s
    moment: the page's last change once ``ready`` is there), and its ``cpu_by_kind``."""
    browser.start_tracing(categories=CATEGORIES)
    context, _page, live = export_bench.booted(browser, url, ready)
    trace = json.loads(browser.stop_tracing())
    context.close()
    events = trace["traceEvents"] if isinstance(trace, dict) else trace
    return live, cpu_by_kind(events, url, live)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", type=Path, required=True, help="a site built before")
    parser.add_argument("--lesson", required=True, metavar="NN", help="a lesson's number, as 01")
    parser.add_argument("--runs", type=int, default=3, help="loads of each page (1-20)")
    args = parser.parse_args()
    if not 1 <= args.runs <= 20:
        parser.error(f"--runs {args.runs}: a whole number from 1 to 20")
    wheel, lesson, chromium = export_bench.site_lesson_chromium(parser, args.site, args.lesson)
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        (probe,) = export_bench.export_speed_pages(args.site, [lesson], wheel, Path(tmp))
    pages = {
        "trivial": ("bench/trivial/", "[data-bench-ready]"),
        "lesson": (f"{probe.site_dir}/", "[data-bench-echo]"),
    }
    lives: dict[str, list[float]] = {name: [] for name in pages}
    cpus: dict[str, list[dict[Kind, float]]] = {name: [] for name in pages}
    with serving(args.site) as url, sync_playwright() as playwright:
        browser = launch(playwright, chromium)
        for run in range(args.runs):
            # Alternating, each page first in turn: neither always meets the machine warmer.
            order = list(pages) if run % 2 == 0 else list(reversed(pages))
            for name in order:
                path, ready = pages[name]
                live, cpu = traced_load(browser, url + path, ready)
                lives[name].append(live)
                cpus[name].append(cpu)
        browser.close()
    trivial_s, lesson_s = (statistics.median(lives[name]) for name in ("trivial", "lesson"))
    print(
        f"lesson {args.lesson}: live in {lesson_s:.2f} s, the trivial page in {trivial_s:.2f} s "
        f"({lesson_s / trivial_s:.2f}x, traced; {args.runs} loads each, medians)"
    )
    print(f"{'CPU until live, ms':<68} {'trivial':>8} {'lesson':>8} {'extra':>8}")
    totals = [0.0, 0.0]
    for kind in Kind:
        trivial_ms, lesson_ms = (
            statistics.median(cpu[kind] for cpu in cpus[name]) for name in ("trivial", "lesson")
        )
        totals = [totals[0] + trivial_ms, totals[1] + lesson_ms]
        row(kind.value, trivial_ms, lesson_ms)
    row("all (the sum of the medians)", *totals)


def row(label: str, trivial_ms: float, lesson_ms: float) -> None:
    print(f"{label:<68} {trivial_ms:8.0f} {lesson_ms:8.0f} {lesson_ms - trivial_ms:+8.0f}")


if __name__ == "__main__":
    main()
