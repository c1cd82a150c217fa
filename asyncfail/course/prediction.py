"""Predict, then reveal: judging a learner's guess of each runtime's effect count."""

from collections.abc import Mapping

from pydantic import BaseModel, ConfigDict

from asyncfail.ground.prose import plural
from asyncfail.lab.results import LabResult
from asyncfail.lab.scenario import Mode


class PredictionCheck(BaseModel):
    """A learner's guess of one runtime's business effects, against the model's count."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    mode: Mode
    guess: int
    effects: int

    @property
    def correct(self) -> bool:
        return self.guess == self.effects

    @property
    def message(self) -> str:
        """Right or wrong, with the count; a wrong guess says in which direction it missed."""
        noun = plural(self.effects, "effect")
        if self.correct:
            return f"{self.mode.value}: right, {self.effects} business {noun}."
        direction = "more" if self.effects > self.guess else "fewer"
        return (
            f"{self.mode.value}: you guessed {self.guess}; the model applied {self.effects} "
            f"business {noun} ({direction} than you expected)."
        )


def check_predictions(
    guesses: Mapping[Mode, int], results: Mapping[Mode, LabResult]
) -> tuple[PredictionCheck, ...]:
    """Judge one guess per runtime, naive first."""
    return tuple(
        PredictionCheck(mode=mode, guess=guesses[mode], effects=results[mode].counts.effects)
        for mode in Mode
        if mode in guesses
    )
