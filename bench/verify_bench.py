"""Benchmark of `asyncfail verify` (`make bench`): the default matrix's wall time on the real
parts, as a median of a few whole runs, against its goal (under 60 s on a two-core machine);
then the same for `--engine dbos` (goal: under 2 minutes), when DBOS is installed, and for its
checkpoint cases under DBOS's own step default (`--step-retries off`).

Most of a case is waiting (a lost message costs the worker's timeout, a crash the queue's
visibility timeout), so the figure is wall time, not CPU time; the machine is shared and noisy,
so each run's time is printed too. A run that disagrees with the model is reported, not timed
away.
"""

import os
import statistics
import time

from asyncfail.engines.adapter import EngineUnavailable, engine_matrix
from asyncfail.engines.registry import ENGINES
from asyncfail.engines.verification import DEFAULT_ENGINE_JOBS, verify_engine
from asyncfail.lab.faults import Fault
from asyncfail.lab.settings import StepRetries
from asyncfail.reference.supervisor import TIMEOUT, VISIBILITY
from asyncfail.reference.verification import DEFAULT_JOBS, matrix, verify

GOAL_SECONDS = 60.0
ENGINE_GOAL_SECONDS = 120.0
REPEATS = 3


def main() -> None:
    cases = matrix()
    samples, disagreements, unsure = [], [], []
    for _ in range(REPEATS):
        start = time.perf_counter()
        found = verify(cases)
        samples.append(time.perf_counter() - start)
        disagreements += found.disagreements
        unsure += found.inconclusive
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
    print(f"verify: {REPEATS} runs, {verdict_of(disagreements, unsure)}")
    engine_bench("dbos")
    engine_bench("dbos", StepRetries.OFF)


def engine_bench(name: str, step_retries: StepRetries = StepRetries.ONCE) -> None:
    """The engine's default matrix (or its cases under ``step_retries``), timed the same way
    (skipped when it is not installed)."""
    engine = ENGINES[name]
    try:
        version = engine.version()
    except EngineUnavailable as error:
        print(f"verify --engine {name}: skipped ({error})")
        return
    cases = engine_matrix(engine, tuple(Fault), step_retries=step_retries)
    matrix_name = "default matrix" if step_retries is StepRetries.ONCE else "--step-retries off"
    samples, disagreements, unsure = [], [], []
    for _ in range(REPEATS):
        start = time.perf_counter()
        found = verify_engine(engine, cases)
        samples.append(time.perf_counter() - start)
        disagreements += found.disagreements
        unsure += found.inconclusive
    median = statistics.median(samples)
    runs = ", ".join(f"{s:.1f}" for s in samples)
    print(
        f"verify --engine {name} ({version}): {matrix_name}, {len(cases)} cases, "
        f"{DEFAULT_ENGINE_JOBS} at once on {os.cpu_count()} cores"
    )
    print(
        f"verify --engine {name}: wall time  median {median:6.1f} s  (runs {runs} s; goal < "
        f"{ENGINE_GOAL_SECONDS:g} s, ratio {median / ENGINE_GOAL_SECONDS:.2f})"
    )
    print(f"verify --engine {name}: {REPEATS} runs, {verdict_of(disagreements, unsure)}")


def verdict_of(disagreements: list[str], unsure: list[str]) -> str:
    """Every disagreement over the runs, and every inconclusive case (a slow machine's
    timeout in every try): neither is timed away."""
    if disagreements:
        verdict = f"DISAGREED: {sorted(disagreements)}"
    else:
        verdict = "no case disagreed" if unsure else "every case agreed"
    return verdict + (f"; inconclusive: {sorted(unsure)}" if unsure else "")


if __name__ == "__main__":
    main()
