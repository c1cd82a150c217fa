"""How long the test suite takes, directory by directory (`make bench`, or on its own).

Each test directory runs in its own pytest process, one after another, as `make pytest` would run
it (the same options, so with `-n` when the Makefile passes it), and is timed by the wall clock;
then ruff and mypy, the other two parts of `make test`. The share column says where the time
goes; with `--repeats N` each figure is the median of N runs. The browser tests are left out
unless asked for (`--browser`): they need Chromium and build the site.

    .venv/bin/python bench/tests_bench.py [--repeats N] [--browser] [--workers N] [DIR ...]
"""

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent


def directories(browser: bool) -> list[str]:
    """Every test directory (one with test files: ``tests/golden`` holds only golden data and
    the scripts that write it), in name order, and the tests at the top level as one more."""
    found = sorted(
        p.relative_to(ROOT).as_posix()
        for p in (ROOT / "tests").iterdir()
        if p.is_dir() and (p / "__init__.py").exists() and any(p.rglob("test_*.py"))
    )
    if not browser:
        found = [d for d in found if d != "tests/browser"]
    top = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "tests").glob("test_*.py"))
    return [*found, " ".join(top)]


def timed(argv: list[str]) -> tuple[float, int]:
    """Seconds a command takes, and its exit status (its output is dropped)."""
    start = time.perf_counter()
    done = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True)
    return time.perf_counter() - start, done.returncode


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dirs", nargs="*", help="test directories (default: every one)")
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--browser", action="store_true", help="include tests/browser")
    parser.add_argument("--workers", default="", help="pass -n WORKERS to pytest (xdist)")
    args = parser.parse_args()
    xdist = ["-n", args.workers] if args.workers else []
    jobs: list[tuple[str, list[str]]] = [
        (d, [str(BIN / "pytest"), "-q", "-p", "no:cacheprovider", *xdist, *d.split()])
        for d in (args.dirs or directories(args.browser))
    ]
    if not args.dirs:
        jobs += [
            ("ruff", [str(BIN / "ruff"), "check", "--no-cache", "."]),
            ("mypy", [str(BIN / "mypy"), "--strict", "asyncfail"]),
        ]
    results: list[tuple[str, float, int]] = []
    for label, argv in jobs:
        runs = [timed(argv) for _ in range(args.repeats)]
        seconds = statistics.median(s for s, _ in runs)
        status = max(code for _, code in runs)
        results.append((label if len(label) < 40 else "tests/test_*.py", seconds, status))
        print(f"  {results[-1][0]:<28} {seconds:7.1f} s{'' if status == 0 else '  (failed)'}")
    total = sum(s for _, s, _ in results)
    print(f"\ntests by directory ({args.repeats} run(s) each, median wall-clock seconds):")
    for label, seconds, status in sorted(results, key=lambda r: -r[1]):
        flag = "" if status == 0 else "  (failed)"
        print(f"  {label:<28} {seconds:7.1f} s  {seconds / total:6.1%}{flag}")
    print(f"  {'total':<28} {total:7.1f} s")


if __name__ == "__main__":
    main()
