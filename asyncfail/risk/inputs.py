"""What a risk estimate is asked: the runtime and settings, how often each kind of failure
strikes, how redeliveries are jittered, when operators replay, how many trials, and the seed."""

import re
from decimal import Decimal, InvalidOperation
from enum import StrEnum
from typing import Annotated, Final

from pydantic import BaseModel, BeforeValidator, Field, model_validator

from asyncfail.ground.durations import Duration
from asyncfail.ground.frozen import FROZEN
from asyncfail.ground.prose import echoed
from asyncfail.lab.faults import Failure, Fault
from asyncfail.lab.scenario import MAX_DELIVERIES, Mode, key_refusal, option, option_value
from asyncfail.lab.settings import DEFAULT_SETTINGS, LabSettings


class Jitter(StrEnum):
    """How a redelivery's delay is randomized (AWS Architecture Blog, Marc Brooker, "Exponential
    Backoff And Jitter", 2015)."""

    NONE = "none"
    """The schedule's delay as it is."""
    FULL = "full"
    """Uniform between 0 and the schedule's delay."""
    EQUAL = "equal"
    """Half the schedule's delay, plus uniform between 0 and the other half."""


MAX_NUMBER_TEXT: Final = 40
"""The longest text read as a probability or a replay spread, in characters (a lesson's
``max_length``): a float's 17 significant digits, a dot and an exponent fit with room to
spare. A longer text is refused before it is read."""

PROBABILITY_ACCEPTED: Final = (
    "a probability from 0 to 1, written as a decimal (0.05) or in scientific notation (5e-2), "
    f"in at most {MAX_NUMBER_TEXT} characters"
)


_NUMBER_TEXT: Final = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
"""A decimal number as these fields take it: ASCII digits, at most one dot, an optional sign
and exponent. Not ``Decimal``'s wider grammar (other scripts' digits, ``1_0``, ``nan``)."""


def _too_long(text: str) -> str | None:
    """Why ``text`` is not read at all (longer than ``MAX_NUMBER_TEXT``), or None."""
    if len(text) <= MAX_NUMBER_TEXT:
        return None
    return f"{echoed(text)} is too long ({MAX_NUMBER_TEXT} characters at most)"


def _decimal(text: str) -> Decimal:
    """``text`` (stripped) read exactly when it is ``_NUMBER_TEXT``; else NaN."""
    stripped = text.strip()
    return Decimal(stripped) if _NUMBER_TEXT.fullmatch(stripped) else Decimal("NaN")


def parse_probability(value: object) -> float:
    """A probability from text or a number: finite, from 0 to 1 inclusive (ValueError naming
    what is accepted otherwise); a text longer than ``MAX_NUMBER_TEXT`` is refused unread."""
    if isinstance(value, bool):
        raise ValueError(f"{echoed(str(value))} is not a probability; give {PROBABILITY_ACCEPTED}")
    if isinstance(value, str) and (long := _too_long(value.strip())):
        raise ValueError(f"{long}; give {PROBABILITY_ACCEPTED}")
    try:
        number = _decimal(value) if isinstance(value, str) else Decimal(value)  # type: ignore[arg-type]
    except (InvalidOperation, TypeError, ValueError):
        number = None
    if number is None or (isinstance(value, str) and number.is_nan()):
        raise ValueError(f"{echoed(str(value))} is not a number; give {PROBABILITY_ACCEPTED}")
    if not number.is_finite() or not 0 <= number <= 1:
        raise ValueError(f"{echoed(str(value))} is not from 0 to 1; give {PROBABILITY_ACCEPTED}")
    return float(number)


Probability = Annotated[float, BeforeValidator(parse_probability)]

MAX_SPREAD: Final = 4
"""The widest replay spread (log-normal sigma) an estimate takes."""

SPREAD_ACCEPTED: Final = f"a number from 0 to {MAX_SPREAD} (a log-normal sigma)"


def parse_spread(text: str) -> float:
    """A replay spread from text: a decimal number from 0 to ``MAX_SPREAD`` (scientific
    notation allowed; surrounding whitespace ignored), in at most ``MAX_NUMBER_TEXT``
    characters. ValueError otherwise, echoing the text and saying what is accepted."""
    if long := _too_long(text.strip()):
        raise ValueError(f"{long}; give {SPREAD_ACCEPTED}")
    value = _decimal(text)
    if not value.is_finite() or not 0 <= value <= MAX_SPREAD:
        raise ValueError(f"{echoed(text)} is not {SPREAD_ACCEPTED}")
    return float(value)


MAX_TRIALS: Final = 1_000_000
DEFAULT_TRIALS: Final = 20_000
BROWSER_TRIALS: Final = 4_000
"""Trials a lesson runs by default in the browser, where Python is a few times slower."""

DEFAULT_REPLAY_MEDIAN: Final = Duration.of_seconds(86_400)
"""Operators replay a dead letter a day later, typically."""


class RiskInputs(BaseModel):
    """One risk question. Every failure probability is per point, per delivery."""

    model_config = FROZEN

    trials: int = Field(DEFAULT_TRIALS, ge=1, le=MAX_TRIALS, description="How many trials.")
    seed: int = Field(0, ge=0, le=2**63 - 1, description="The generator's seed.")
    mode: Mode = Mode.DURABLE
    deliveries: int = Field(2, ge=1, le=MAX_DELIVERIES)
    settings: LabSettings = Field(
        DEFAULT_SETTINGS,
        description="The lab's settings; their retention is where the estimate is read.",
    )
    fault: Fault | None = Field(
        None,
        description="A named fault injected into the first delivery of every trial, beside "
        "the random ones (none: only random ones).",
    )
    jitter: Jitter = Jitter.NONE
    crash_probability: Probability = Field(
        0.05, description="A worker or receiver crash, at each crash point of each delivery."
    )
    loss_probability: Probability = Field(
        0.0, description="A lost request or reply, at each network point of each delivery."
    )
    outage_probability: Probability = Field(
        0.0, description="A one-off journal or lookup outage, at each such point of a delivery."
    )
    pause_probability: Probability = Field(
        0.0, description="A worker stall, at each pause point of each delivery (two workers)."
    )
    replay_median: Duration | None = Field(
        DEFAULT_REPLAY_MEDIAN,
        description="The median delay before an operator replays an abandoned delivery; none: "
        "nobody replays.",
    )
    replay_spread: float = Field(
        1.0,
        ge=0,
        le=MAX_SPREAD,
        allow_inf_nan=False,
        description="The log-normal spread (sigma) of the replay delay: 1 puts two thirds of "
        "replays between a third of the median and about three times it.",
    )
    target: Probability = Field(
        1e-4, description="The duplicate risk a retention must bring the estimate below."
    )

    @model_validator(mode="after")
    def _a_key_for_the_durable_runtime(self) -> "RiskInputs":
        refusal = key_refusal(self.mode, self.settings)
        if refusal is not None:
            raise ValueError(refusal)
        return self

    def probability_of(self, failure: Failure) -> float:
        """The chance an injection of ``failure`` strikes at one point of one delivery."""
        return {
            Failure.CRASH: self.crash_probability,
            Failure.RECEIVER_CRASH: self.crash_probability,
            Failure.MESSAGE_LOST: self.loss_probability,
            Failure.JOURNAL_UNAVAILABLE: self.outage_probability,
            Failure.LOOKUP_FAILED: self.outage_probability,
            Failure.PAUSE: self.pause_probability,
        }[failure]


DEFAULT_INPUTS: Final = RiskInputs()
"""The lesson's and the command's starting question."""


def command_line(inputs: RiskInputs) -> str:
    """The ``asyncfail risk`` command that asks ``inputs``: each option only when it is not the
    default, settings as ``asyncfail lab`` writes them."""
    words = ["asyncfail", "risk"]
    d = DEFAULT_INPUTS
    for name in ("trials", "seed", "mode", "deliveries", "fault", "jitter"):
        value = getattr(inputs, name)
        if value != getattr(d, name):
            words += [option(name), str(value)]
    for name in ("crash", "loss", "outage", "pause"):
        value = getattr(inputs, f"{name}_probability")
        if value != getattr(d, f"{name}_probability"):
            words += [f"--{name}-probability", f"{value:g}"]
    if inputs.replay_median is None:
        words.append("--no-replay")
    elif inputs.replay_median != d.replay_median:
        words += ["--replay-median", option_value(inputs.replay_median)]
    if inputs.replay_spread != d.replay_spread:
        words += ["--replay-spread", f"{inputs.replay_spread:g}"]
    if inputs.target != d.target:
        words += ["--target", f"{inputs.target:g}"]
    for name in inputs.settings.changed():
        words += [option(name), option_value(getattr(inputs.settings, name))]
    return " ".join(words)
