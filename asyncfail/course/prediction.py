"""Predict, then reveal: judging a learner's guess of each runtime's effect count, and a
learner's choice or set of options against the model's."""

from collections.abc import Mapping, Sequence
from typing import Final

from pydantic import BaseModel

from asyncfail.ground.frozen import FROZEN
from asyncfail.ground.prose import plural
from asyncfail.lab.results import LabResult
from asyncfail.lab.scenario import MAX_DELIVERIES, Mode

GUESS_RANGE: Final = (0, 2 * MAX_DELIVERIES)
"""The effect counts a learner may guess, inclusive: no run can debit more often than twice per
delivery (two calls each)."""


def read_guess(raw: object) -> int | None:
    """A guess as a form gives it: a whole number in ``GUESS_RANGE`` (an integral float such as
    ``2.0`` counts), else None (empty, fractional, out of range, or not a number)."""
    if isinstance(raw, bool) or not isinstance(raw, int | float):
        return None
    if isinstance(raw, float) and not raw.is_integer():
        return None
    low, high = GUESS_RANGE
    return int(raw) if low <= raw <= high else None


class PredictionCheck(BaseModel):
    """A learner's guess of one runtime's business effects, against the model's count.

    ``guess`` is None when the form held no readable guess; the check then says what a guess
    is, instead of judging it. ``name`` is how the messages call the runtime: its mode's name
    unless given (a lesson that sets one mode beside itself under other settings names each
    run: lesson 9's plain engine step and keyed engine step are both ``checkpoint``).
    """

    model_config = FROZEN

    mode: Mode
    guess: int | None
    effects: int
    name: str | None = None

    @property
    def runtime(self) -> str:
        """How the messages call the runtime: ``name``, else the mode's name."""
        return self.mode.value if self.name is None else self.name

    @property
    def correct(self) -> bool:
        return self.guess == self.effects

    @property
    def message(self) -> str:
        """Right or wrong, with the count; a wrong guess says in which direction it missed."""
        noun = plural(self.effects, "effect")
        if self.guess is None:
            low, high = GUESS_RANGE
            return (
                f"{self.runtime}: no guess to judge; enter a whole number of business effects "
                f"from {low} to {high}."
            )
        if self.correct:
            return f"{self.runtime}: right, {self.effects} business {noun}."
        direction = "more" if self.effects > self.guess else "fewer"
        return (
            f"{self.runtime}: you guessed {self.guess}; the model applied {self.effects} "
            f"business {noun} ({direction} than you expected)."
        )


def check_predictions(
    guesses: Mapping[str, object], results: Mapping[Mode, LabResult]
) -> tuple[PredictionCheck, ...]:
    """Judge one guess per runtime, naive first; ``guesses`` are a form's raw values by runtime
    name (``read_guess`` reads each)."""
    return tuple(
        PredictionCheck(
            mode=mode, guess=read_guess(guesses[mode.value]), effects=results[mode].counts.effects
        )
        for mode in Mode
        if mode.value in guesses
    )


# A choice among a few outcomes (what a receiver does with a second request, which finding
# comes first), or a set of options, judged against the model's.

CHOICE_RIGHT: Final = "**Right:** {answer}"
CHOICE_WRONG: Final = "**You chose:** {guess} **The model:** {answer}"
"""How a choice is judged; the options are whole sentences, with their own full stops."""
CHOICE_NONE: Final = "**No choice to compare:** pick one of the options, then commit."


def choice_feedback(guess: object, answer: str) -> tuple[str, bool | None]:
    """What to say of a committed choice: (Markdown, right?), with ``None`` for "no choice to
    judge" (the learner committed an empty form)."""
    if not isinstance(guess, str) or not guess:
        return CHOICE_NONE, None
    if guess == answer:
        return CHOICE_RIGHT.format(answer=answer), True
    return CHOICE_WRONG.format(guess=guess, answer=answer), False


SET_RIGHT: Final = "**{title}: right.** {expected}"
SET_COMPARED: Final = "**{title}.** The model's: {expected}"
SET_MISSED: Final = "You left out: {missed}"
SET_EXTRA: Final = "The model does not choose: {extra}"
SET_NONE: Final = "**{title}: nothing chosen.** The model's: {expected}"


def set_feedback(title: str, chosen: object, expected: Sequence[str]) -> tuple[str, bool | None]:
    """What to say of a learner's draft, a set of options, beside the model's ``expected``
    (in the model's order): (Markdown, right?), right when the two sets are equal, ``None``
    when nothing was chosen. A wrong draft names what it left out and what the model does not
    choose, each in its own list."""

    def listed(items: Sequence[str]) -> str:
        return "".join(f"\n- {item}" for item in items)

    picked = [c for c in chosen if isinstance(c, str)] if isinstance(chosen, list | tuple) else []
    if not picked:
        return SET_NONE.format(title=title, expected=listed(expected)), None
    if set(picked) == set(expected):
        return SET_RIGHT.format(title=title, expected=listed(expected)), True
    missed = [e for e in expected if e not in picked]
    extra = [p for p in picked if p not in expected]
    parts = [SET_COMPARED.format(title=title, expected=listed(expected))]
    parts += [SET_MISSED.format(missed=listed(missed))] if missed else []
    parts += [SET_EXTRA.format(extra=listed(extra))] if extra else []
    return "\n\n".join(parts), False
