"""What a visitor or a long run can cost (issue 21): lesson 4's worst setting, risk's peak memory
at 10^5 and 10^6 trials, and 10^5 trials with full jitter.

Each figure is a median of same-run repeats; memory is the peak resident size of a fresh
process that runs only the assessment, beside a process that only imports the library (their
difference is what the trials cost).
"""

import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from asyncfail.course.lesson04_explore_every_failure import (  # noqa: E402
    DEFAULT_DELIVERIES_SHOWN,
    DEFAULT_MAX_FAULTS,
    ROWS,
    explore_row,
)
from asyncfail.explore.plans import MAX_FAULTS  # noqa: E402
from asyncfail.lab.scenario import MAX_DELIVERIES  # noqa: E402
from asyncfail.risk.inputs import RiskInputs  # noqa: E402
from asyncfail.risk.report import assess  # noqa: E402


def median_seconds(work: Callable[[], object], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def lesson_4_worst() -> None:
    """Every setting the matrix's controls offer, once each; the slowest again, as a median of
    three, beside the lesson's default setting in the same run (their ratio holds better than
    either on a busy machine)."""

    def matrix(deliveries: int, faults: int) -> int:
        return sum(explore_row(row, deliveries, faults).explored for row in ROWS)

    settings = [(d, f) for d in range(1, MAX_DELIVERIES + 1) for f in range(MAX_FAULTS + 1)]
    once = {key: median_seconds(lambda key=key: matrix(*key), 1) for key in settings}
    worst = max(once, key=lambda key: once[key])
    took = median_seconds(lambda: matrix(*worst), 3)
    default = median_seconds(lambda: matrix(DEFAULT_DELIVERIES_SHOWN, DEFAULT_MAX_FAULTS), 3)
    print(
        f"lesson 4: worst matrix setting {worst[1]} faults over {worst[0]} deliveries "
        f"({matrix(*worst) // len(ROWS):,} plans a row, {len(ROWS)} rows): median {took:.2f} s "
        f"(goal < 2 s); the default setting ({DEFAULT_MAX_FAULTS} faults over "
        f"{DEFAULT_DELIVERIES_SHOWN}): median {default:.2f} s, worst / default "
        f"{took / default:.1f}x"
    )


MEMORY = """
import resource, sys
from asyncfail.risk.inputs import RiskInputs
from asyncfail.risk.report import assess
trials = int(sys.argv[1])
if trials:
    assess(RiskInputs(trials=trials))
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


def peak_kib(trials: int) -> int:
    done = subprocess.run(
        [sys.executable, "-c", MEMORY, str(trials)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    return int(done.stdout.strip())


def risk_memory() -> None:
    base = peak_kib(0)
    for trials in (100_000, 1_000_000):
        peak = peak_kib(trials)
        print(
            f"risk: {trials:>9,} trials (defaults): peak {peak / 1024:6.1f} MiB, "
            f"{(peak - base) / 1024:5.1f} MiB above the library alone ({base / 1024:.1f} MiB)"
        )


def risk_full_jitter() -> None:
    question = RiskInputs.model_validate({"trials": 100_000, "jitter": "full"})
    took = median_seconds(lambda: assess(question), 3)
    print(f"risk: 100,000 trials, full jitter: median {took:.2f} s  (goal < 2 s)")


def main() -> None:
    lesson_4_worst()
    risk_full_jitter()
    risk_memory()


if __name__ == "__main__":
    main()
