"""Trials as a pandas DataFrame, for learners who want to dig into them in a notebook::

    from asyncfail.risk.frames import to_pandas
    to_pandas(assess(RiskInputs(trials=10_000)))

The one module of the library that imports pandas, and nothing else in it imports this one: the
pages never load pandas (a test checks, and the site's build refuses a lesson that would).
"""

from collections.abc import Iterable

import pandas as pd

from asyncfail.ground.durations import Duration
from asyncfail.lab.faults import FaultPlan, Injection, plan_text
from asyncfail.risk.report import RiskRun
from asyncfail.risk.trials import Trial, run_trials


def trials_frame(trials: Iterable[Trial], retention: Duration | None) -> pd.DataFrame:
    """One row per trial: its injections (as ``--plan`` writes them), its redelivery and replay
    delays in seconds, and its outcome and settling time at ``retention``."""
    rows = []
    for number, trial in enumerate(trials, start=1):
        draw, segment = trial.draw, trial.at(retention)
        plan = FaultPlan(
            injections=tuple(Injection(attempt=a, point=p) for a, p in draw.injections)
        )
        rows.append(
            {
                "trial": number,
                "plan": plan_text(plan),
                "redelivery_delays_s": [d / 1000 for d in draw.delays],
                "replay_delay_s": None if draw.replay is None else draw.replay / 1000,
                "outcome": segment.outcome.value,
                "settled_s": segment.settled / 1000,
            }
        )
    return pd.DataFrame(rows)


def to_pandas(run: RiskRun) -> pd.DataFrame:
    """One row per trial of ``run`` (``trials_frame``), at its report's retention: the trials
    are run again from the report's inputs, as the frame's rows are made."""
    return trials_frame(run_trials(run.report.inputs), run.report.retention)
