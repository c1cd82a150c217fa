"""The risk report's figures as sentences, written once for the CLI's text format and for
what the instructor guide quotes of it: chances as "1 in 400 (0.25 %)", never an exponent."""

from typing import Final

from asyncfail.ground.prose import chance, percent, plural
from asyncfail.risk.estimates import Estimate
from asyncfail.risk.exact import ExactAnswer

OUTCOME_LABELS: Final = (
    ("duplicate", "Debited twice or more"),
    ("unknown", "Outcome unknown (parked for an operator, or applied with nothing that says so)"),
    ("lost", "Never debited"),
)
"""Each estimate of the report (its field) and how a sentence names it."""

INTERVAL: Final = (
    "A 95 % interval is a range that holds the true chance in 19 of 20 such experiments."
)


def estimate_sentence(label: str, e: Estimate, trials: int) -> str:
    """``Debited twice or more: 5 of 2,000 trials, 1 in 400 (0.25 %); 95 % interval 0.11 %
    to 0.58 %.`` With none seen, no chance is claimed (``in none of 2,000 trials``): the
    interval says how high it may still be."""
    of = f"{trials:,} {plural(trials, 'trial')}"
    seen = f"in none of {of}" if e.count == 0 else f"{e.count:,} of {of}, {chance(e.probability)}"
    return f"{label}: {seen}; 95 % interval {percent(e.low)} to {percent(e.high)}."


def exact_sentence(exact: ExactAnswer, duplicate: Estimate) -> str:
    """``Exact answer (replay): 1 in 2 (50 %), inside the 95 % interval.``"""
    inside = duplicate.low <= exact.probability <= duplicate.high
    return (
        f"Exact answer ({exact.case}): {chance(exact.probability)}, "
        f"{'inside' if inside else 'outside'} the 95 % interval."
    )
