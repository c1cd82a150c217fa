"""What a visitor or a long run can cost (issue 21): lesson 4's worst setting, risk's peak memory
at 10^5 and 10^6 trials (and the heavy setting's at 10^4 and 10^5), and 10^5 trials with full
jitter, in-process and as the whole command, beside the default settings in the same run.

Each figure is a median of same-run repeats; memory is the peak resident size of a fresh
process that runs only the assessment, beside a process that only imports the library (their
difference is what the trials cost).
"""

import json
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
from asyncfail.course.lesson06_record_lifetime import TRIAL_CHOICES, fitted  # noqa: E402
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
import json, resource, sys
from asyncfail.risk.inputs import RiskInputs
from asyncfail.risk.report import assess
trials, fields = int(sys.argv[1]), json.loads(sys.argv[2])
if trials:
    assess(RiskInputs.model_validate({**fields, "trials": trials}))
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""

HEAVY = {"deliveries": 9, "crash_probability": 0.5}
"""The issue's heavy setting: every trial draws an injection set of its own, and every one runs
(about half a millisecond a trial here, so it is measured at 10^4 and 10^5 trials)."""


def peak_kib(trials: int, fields: dict[str, object]) -> int:
    """The peak resident size of a fresh process that assesses ``trials`` trials of ``fields``
    (0: that only imports the library), in KiB."""
    done = subprocess.run(
        [sys.executable, "-c", MEMORY, str(trials), json.dumps(fields)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    return int(done.stdout.strip())


def risk_memory() -> None:
    """Peak memory at two trial counts ten times apart, for the defaults and the heavy setting:
    flat memory means the larger count's peak is about the smaller's."""
    base = peak_kib(0, {})
    print(f"risk memory: the library alone {base / 1024:.1f} MiB")
    for name, fields, counts in (
        ("defaults", {}, (100_000, 1_000_000)),
        ("--deliveries 9 --crash-probability 0.5", HEAVY, (10_000, 100_000)),
    ):
        peaks = [peak_kib(trials, fields) for trials in counts]
        for trials, peak in zip(counts, peaks, strict=True):
            print(
                f"risk memory, {name}: {trials:>9,} trials: peak {peak / 1024:6.1f} MiB, "
                f"{(peak - base) / 1024:5.1f} MiB above the library alone"
            )
        print(
            f"risk memory, {name}: ten times the trials hold {peaks[1] / peaks[0]:.2f} times the "
            "peak (flat: about 1)"
        )


def risk_full_jitter() -> None:
    """100,000 trials with full jitter (the issue's goal: under 2 s), in-process and as the
    whole command, each beside the same trials with the default settings in the same run."""
    full = RiskInputs.model_validate({"trials": 100_000, "jitter": "full"})
    plain = RiskInputs.model_validate({"trials": 100_000})
    took = median_seconds(lambda: assess(full), 5)
    base = median_seconds(lambda: assess(plain), 5)
    print(
        f"risk: 100,000 trials, full jitter: median {took:.2f} s in-process (goal < 2 s); "
        f"{took / base:.2f} times the default settings' {base:.2f} s"
    )
    command = [sys.executable, "-m", "asyncfail", "risk", "--trials", "100000"]

    def whole(*options: str) -> None:
        subprocess.run([*command, *options], cwd=ROOT, capture_output=True, check=True)

    took = median_seconds(lambda: whole("--jitter", "full"), 5)
    base = median_seconds(whole, 5)
    print(
        f"risk: `asyncfail risk --trials 100000 --jitter full`: median {took:.2f} s as a process; "
        f"{took / base:.2f} times the default settings' {base:.2f} s"
    )


def lesson_6_worst() -> None:
    """Lesson 6's heaviest settings (9 deliveries, the most trials it offers, full jitter, a
    crash probability up to 1) as the lesson runs them, with its trials fitted to its budget;
    the slowest again as a median of three, beside the lesson's starting question."""
    most = max(TRIAL_CHOICES)
    asked = {
        crash: RiskInputs(deliveries=9, crash_probability=crash, jitter="full", trials=most)
        for crash in (0.05, 0.1, 0.2, 0.5, 1.0)
    }
    once = {
        crash: median_seconds(lambda q=q: assess(fitted(q)[0]), 1) for crash, q in asked.items()
    }
    worst = max(once, key=lambda crash: once[crash])
    question = fitted(asked[worst])[0]
    took = median_seconds(lambda: assess(question), 3)
    start = median_seconds(lambda: assess(fitted(RiskInputs(trials=10_000))[0]), 3)
    print(
        f"lesson 6: worst setting crash probability {worst} over 9 deliveries "
        f"({question.trials:,} of {most:,} trials run): median {took:.2f} s  (goal < 2 s); "
        f"the starting question {start:.2f} s, ratio {took / start:.1f}x"
    )


def main() -> None:
    lesson_4_worst()
    lesson_6_worst()
    risk_full_jitter()
    risk_memory()


if __name__ == "__main__":
    main()
