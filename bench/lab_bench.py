"""Benchmarks for the failure lab (`make bench`): medians and ratios, never pass/fail.

- one scenario simulated, and the whole fault x mode matrix, in-process;
- `asyncfail lab` as a whole process against `python -c "from pydantic import BaseModel"`.
The machine is shared and noisy: each figure is a median over many repeats.
"""

import statistics
import subprocess
import sys
import time
from collections.abc import Callable

from asyncfail import Fault, Mode, Scenario, simulate, simulate_all
from asyncfail.explore.explorer import explore
from asyncfail.lab.faults import (
    MAX_ATTEMPT,
    MAX_INJECTIONS,
    FaultPlan,
    FaultPoint,
    Injection,
    parse_plan,
    plan_text,
)
from asyncfail.lab.restore import restorations
from asyncfail.lab.settings import LabSettings
from asyncfail.risk.inputs import RiskInputs
from asyncfail.risk.report import assess


def median_seconds(fn: Callable[[], object], repeats: int, inner: int) -> float:
    samples = []
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(inner):
            fn()
        samples.append((time.perf_counter() - start) / inner)
    return statistics.median(samples)


def process_median(argv: list[str], repeats: int) -> float:
    samples = []
    for _ in range(repeats):
        start = time.perf_counter()
        subprocess.run(argv, check=True, capture_output=True)
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def main() -> None:
    seed = Scenario(fault=Fault.CRASH_AFTER_EFFECT, mode=Mode.DURABLE)
    one = median_seconds(lambda: simulate(seed), repeats=25, inner=200)
    matrix = median_seconds(simulate_all, repeats=25, inner=20)
    print(f"lab: one scenario simulated        median {one * 1e6:8.1f} us")
    broken = Scenario(
        fault=Fault.CRASH_AFTER_EFFECT,
        settings=LabSettings(
            retention="60", redelivery_delay="60", lookup="outage", on_lookup_outage="fail-open"
        ),
    )
    with_settings = median_seconds(lambda: simulate(broken), repeats=25, inner=200)
    print(
        f"lab: one scenario with settings     median {with_settings * 1e6:8.1f} us "
        f"(goal < 100 us, ratio {with_settings * 1e6 / 100:.2f}; "
        f"{with_settings / one:.2f}x the seed's)"
    )
    restoring = median_seconds(lambda: restorations(broken), repeats=15, inner=20)
    print(f"lab: what restores it (all changes) median {restoring * 1e3:8.2f} ms")
    print(f"lab: fault x mode matrix (12 runs) median {matrix * 1e3:8.2f} ms")

    for mode in Mode:
        for k in (2, 3):
            found = explore(mode, max_faults=k)
            took = median_seconds(lambda m=mode, k=k: explore(m, max_faults=k), repeats=7, inner=1)
            print(
                f"explore: {mode.value:<7} K={k}: {found.explored:>5} plans "
                f"({found.explored - found.unreachable} fired, {found.distinct_runs} distinct "
                f"runs) median {took * 1e3:7.1f} ms" + ("  (goal < 1000 ms)" if k == 2 else "")
            )

    for label, knobs in (
        ("two workers", {"workers": 2}),
        ("two workers, claim + fencing", {"workers": 2, "claim": "lease", "fencing": "token"}),
    ):
        concurrent = LabSettings.model_validate(knobs)
        for k in (1, 2):
            found = explore(Mode.DURABLE, concurrent, max_faults=k)
            took = median_seconds(
                lambda c=concurrent, k=k: explore(Mode.DURABLE, c, max_faults=k), 7, 1
            )
            print(
                f"explore: {label:<28} K={k}: {found.explored:>4} plans, "
                f"{found.interleavings} interleavings, median {took * 1e3:7.1f} ms"
                + ("  (goal < 2000 ms)" if k == 1 else "")
            )

    for trials in (20_000, 100_000):
        took = median_seconds(lambda n=trials: assess(RiskInputs(trials=n)), 3, 1)
        per = took / trials
        print(
            f"risk: {trials:>7,} trials (defaults)  median {took:7.2f} s, "
            f"{trials / took:,.0f} trials/s; per trial {per * 1e6:.1f} us = "
            f"{per / one:.2f}x one simulate call" + ("  (goal < 2 s)" if trials == 100_000 else "")
        )

    # The plan parser (issue 21): linear in its text, refusing what no plan can be first.
    every = plan_text(
        FaultPlan(
            injections=tuple(
                Injection(attempt=a, point=p) for a in range(1, MAX_ATTEMPT + 1) for p in FaultPoint
            )
        )
    )
    tenth = ",".join(every.split(",")[: MAX_INJECTIONS // 10])
    whole_t = median_seconds(lambda: parse_plan(every), repeats=25, inner=200)
    tenth_t = median_seconds(lambda: parse_plan(tenth), repeats=25, inner=200)
    print(
        f"plan: parse {MAX_INJECTIONS} items ({len(every):,} chars) "
        f"median {whole_t * 1e6:8.1f} us; {MAX_INJECTIONS // 10} items {tenth_t * 1e6:.1f} us "
        f"(ratio {whole_t / tenth_t:.1f}; linear: 10 at most)"
    )
    for label, text in (
        ("100,000 items", ",".join(["1:lookup"] * 100_000)),
        ("a 5,000-digit attempt", "1" * 5000 + ":lookup"),
    ):

        def refused(t: str = text) -> None:
            try:
                parse_plan(t)
            except ValueError:
                return
            raise AssertionError("accepted")

        took = median_seconds(refused, repeats=25, inner=200)
        print(f"plan: refuse {label:<22} median {took * 1e6:8.1f} us")

    # Interleave the two commands so machine noise hits both alike.
    cli = [sys.executable, "-m", "asyncfail", "lab", "--fault", "crash-after-effect"]
    base = [sys.executable, "-c", "from pydantic import BaseModel"]
    cli_t, base_t = [], []
    for _ in range(15):
        cli_t.append(process_median(cli, 1))
        base_t.append(process_median(base, 1))
    c, b = statistics.median(cli_t), statistics.median(base_t)
    print(f"lab: `asyncfail lab` process       median {c * 1e3:8.1f} ms")
    print(f"lab: pydantic-import process       median {b * 1e3:8.1f} ms")
    print(f"lab: CLI / pydantic-import ratio          {c / b:8.2f}x  (goal <= 1.5x)")


if __name__ == "__main__":
    main()
