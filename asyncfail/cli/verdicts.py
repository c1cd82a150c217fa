"""The words both verifications print (``asyncfail verify``, on the reference or on a real
engine): a row's figures and verdict, the closing verdict, and the error line.

A row agrees when every figure is equal; one whose every real run had an unplanned timeout is
inconclusive (``reference.verification.conclusively``), said apart and never a failure.
"""

from typing import Final, Protocol

from asyncfail.ground.inconclusive import inconclusive_cases
from asyncfail.ground.prose import counted
from asyncfail.reference.verification import Figures

NAMED_IN_A_LINE: Final = 3
"""How many disagreeing cases the error line names (the output names them all)."""


class Judged(Protocol):
    @property
    def agrees(self) -> bool: ...

    @property
    def inconclusive(self) -> bool: ...


def figures_text(figures: Figures) -> str:
    """``2 1 1 1 exactly-once``: attempts, effects, tool calls, lookups, outcome."""
    f = figures
    return f"{f.attempts} {f.effects} {f.tool_calls} {f.lookups} {f.outcome}"


def verdict(row: Judged) -> str:
    """A row's last column: ``agrees``, ``inconclusive`` or ``DISAGREES``."""
    return "agrees" if row.agrees else "inconclusive" if row.inconclusive else "DISAGREES"


def verdict_lines(cases: int, disagreements: tuple[str, ...], unsure: tuple[str, ...]) -> list[str]:
    """The closing lines of a text table: the verdict, then the inconclusive cases if any."""
    total = counted(cases, "case")
    lines = [
        f"{total}: every one agrees with the model"
        if not disagreements and not unsure
        else f"{len(disagreements)} of {total} disagree with the model: {'; '.join(disagreements)}"
        if disagreements
        else f"{total}: none disagrees with the model",
    ]
    if unsure:
        # A slow machine's timeout is not the runtime's doing: said, but never a failure.
        lines.append(inconclusive_cases(unsure))
    return lines


def disagreement_line(cases: int, disagreements: tuple[str, ...]) -> str:
    """The error line when a case disagrees: how many, and the first few by name."""
    names = disagreements
    shown = "; ".join(names[:NAMED_IN_A_LINE])
    more = f"; and {len(names) - NAMED_IN_A_LINE} more" if len(names) > NAMED_IN_A_LINE else ""
    total = counted(cases, "case")
    return f"asyncfail verify: {len(names)} of {total} disagree with the model: {shown}{more}"
