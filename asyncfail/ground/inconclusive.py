"""What an inconclusive verification row is, in the words every place that reports one shares:
the documents (``asyncfail verify``, on the reference or on a real engine), the terminal's
verdict and lesson 9's.

A real run in which a call went unanswered with no injected fault to explain it says what the
machine did (a busy one), not what the runtime does; a case whose every try had one is
inconclusive: neither an agreement nor a disagreement (``reference.verification``, where the
rule is applied).
"""

from collections.abc import Sequence
from typing import Final

INCONCLUSIVE_ROW: Final = (
    "Every real run of the case had a call go unanswered with no injection to explain it (a "
    "slow machine): its figures prove nothing either way."
)
"""What an inconclusive row is, in every verification's document (its field's description)."""

INCONCLUSIVE_CASES: Final = (
    "{count} inconclusive (a call timed out in every try with no injected fault to explain it; "
    "run again on a quieter machine): {names}"
)
"""How a verdict names the inconclusive cases: how many, why, what to do, and which."""


def inconclusive_cases(names: Sequence[str]) -> str:
    """``INCONCLUSIVE_CASES`` for the cases ``names``, in their order, ``;``-separated."""
    return INCONCLUSIVE_CASES.format(count=len(names), names="; ".join(names))
