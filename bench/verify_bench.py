"""Benchmark of `asyncfail verify` (`make bench`): the default matrix's wall time on the real
parts, as a median of a few whole runs, against its goal (under 60 s on a two-core machine).

Most of a case is waiting (a lost message costs the worker's timeout, a crash the queue's
visibility timeout), so the figure is wall time, not CPU time; the machine is shared and noisy,
so each run's time is printed too. A run that disagrees with the model is reported, not timed
away.
"""

import os
import statistics
import time

from asyncfail.reference.supervisor import TIMEOUT, VISIBILITY
from asyncfail.reference.verification import DEFAULT_JOBS, matrix, verify

GOAL_SECONDS = 60.0
REPEATS = 3


def main() -> None:
    cases = matrix()
    samples, disagreements = [], []
    for _ in range(REPEATS):
        start = time.perf_counter()
        found = verify(cases)
        samples.append(time.perf_counter() - start)
        disagreements += found.disagreements
    median = statistics.median(samples)
    runs = ", ".join(f"{s:.1f}" for s in samples)
    print(
        f"verify: default matrix, {len(cases)} cases, {DEFAULT_JOBS} at once on "
        f"{os.cpu_count()} cores (timeout {TIMEOUT:g} s, visibility {VISIBILITY:g} s)"
    )
    print(
        f"verify: wall time  median {median:6.1f} s  (runs {runs} s; goal < {GOAL_SECONDS:g} s, "
        f"ratio {median / GOAL_SECONDS:.2f})"
    )
    print(f"verify: per case   median {median / len(cases) * 1e3:6.0f} ms")
    verdict = "every case agreed" if not disagreements else f"DISAGREED: {sorted(disagreements)}"
    print(f"verify: {REPEATS} runs, {verdict}")


if __name__ == "__main__":
    main()
