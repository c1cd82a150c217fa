"""Benchmarks for the contract experiment (`make bench`): medians and ratios, never pass/fail.

- a 1,000 x 1,000 retention sweep in-process (goal: under one second in CPython, no numpy);
- per cell, the sweep against validating a ContractScenario and evaluating it (goal: >= 50x).
The machine is shared and noisy: each figure is a median over repeats.
"""

import statistics
import time
from collections.abc import Callable

from asyncfail.contract.experiment import ContractScenario, evaluate
from asyncfail.contract.sweep import sweep_retention

AXIS = range(1000)
FIXED = {"scope": "operation", "second": "different-amount", "policy": "enforce"}


def interleaved_medians(
    first: Callable[[], object], second: Callable[[], object], repeats: int
) -> tuple[float, float]:
    """Median seconds of each, timed turn about so machine noise hits both alike."""
    samples: tuple[list[float], list[float]] = ([], [])
    for _ in range(repeats):
        for fn, times in ((first, samples[0]), (second, samples[1])):
            start = time.perf_counter()
            fn()
            times.append(time.perf_counter() - start)
    return statistics.median(samples[0]), statistics.median(samples[1])


def one_scenario_per_cell(cells: list[tuple[int, int]]) -> list[tuple[object, ...]]:
    """The slow path the sweep replaces: validate, evaluate and keep each cell's figures."""
    figures = []
    for retention, delay in cells:
        result = evaluate(
            ContractScenario.model_validate(
                FIXED | {"retention_seconds": retention, "delay_seconds": delay}
            )
        )
        figures.append((result.record, result.disposition, result.effects, result.finding))
    return figures


def main() -> None:
    fixed = ContractScenario.model_validate(FIXED)
    cells = [(r, d) for r in range(0, 1000, 20) for d in range(0, 1000, 20)]  # 2,500 cells
    grid, slow_total = interleaved_medians(
        lambda: sweep_retention(fixed, AXIS, AXIS),
        lambda: one_scenario_per_cell(cells),
        repeats=11,
    )
    slow = slow_total / len(cells)
    fast = grid / (len(AXIS) * len(AXIS))
    print(f"contract: 1,000 x 1,000 sweep          median {grid * 1e3:8.1f} ms  (goal < 1000 ms)")
    print(f"contract: per cell, sweep              median {fast * 1e9:8.1f} ns")
    print(f"contract: per cell, validate+evaluate  median {slow * 1e9:8.1f} ns")
    print(f"contract: per-cell speed-up                   {slow / fast:8.1f}x  (goal >= 50x)")


if __name__ == "__main__":
    main()
