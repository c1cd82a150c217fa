"""Trials as a pandas DataFrame, for learners who want to dig into them in a notebook.

The one module of the library that imports pandas: nothing on a lesson page's path imports it
(a test checks), so the pages never load it.
"""

import pandas as pd

from asyncfail.ground.durations import Duration
from asyncfail.lab.faults import FaultPlan, Injection, plan_text
from asyncfail.risk.trials import Trial


def trials_frame(trials: tuple[Trial, ...], retention: Duration | None) -> pd.DataFrame:
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
