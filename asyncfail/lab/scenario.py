"""The input of one lab run: which fault, which runtime, how many deliveries the channel makes."""

from enum import StrEnum
from typing import Final

from pydantic import BaseModel, ConfigDict, Field

from asyncfail.ground.durations import Duration
from asyncfail.lab.faults import Fault
from asyncfail.lab.settings import DEFAULT_SETTINGS, LabSettings

DEFAULT_DELIVERIES: Final = 3
MAX_DELIVERIES: Final = 9


class Mode(StrEnum):
    """The two runtimes the lab compares."""

    NAIVE = "naive"
    """A retry loop: call the tool on every delivery, keep the result in process memory."""
    DURABLE = "durable"
    """Record a dispatch intent under a stable operation key; reconcile by lookup on replay."""


MODE_TITLES: Final[dict[Mode, str]] = {Mode.NAIVE: "Naive loop", Mode.DURABLE: "Durable runtime"}
"""The runtimes as the seed handoff titles their evidence."""


SEED_FAULT: Final = Fault.CRASH_AFTER_EFFECT
"""The seed's case: the debit succeeds, the worker crashes before recording the result."""


class Scenario(BaseModel):
    """One run of the lab: a named fault injected into the first delivery, under one runtime
    and one set of settings (by default, the seed's assumptions).

    ``deliveries`` bounds how often the channel (re)delivers the operation before it gives up;
    the seed's cases need two, the default of three leaves one spare.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    fault: Fault = SEED_FAULT
    mode: Mode = Mode.DURABLE
    deliveries: int = Field(
        DEFAULT_DELIVERIES,
        ge=1,
        le=MAX_DELIVERIES,
        description="How many times the channel may deliver the operation before giving up.",
    )
    settings: LabSettings = Field(
        DEFAULT_SETTINGS, description="Every assumption of the seed, as a setting."
    )


def option(setting: str) -> str:
    """The CLI option of a setting: ``on_lookup_outage`` is ``--on-lookup-outage``."""
    return "--" + setting.replace("_", "-")


def option_value(value: object) -> str:
    """A setting's value as the CLI takes it: a duration as its seconds (``0.5``)."""
    return str(value.json_number) if isinstance(value, Duration) else str(value)


def command_line(scenario: Scenario) -> str:
    """The shell command that prints ``scenario``'s result, as lessons show it for copying:
    ``asyncfail lab --fault F --mode M``, then ``--deliveries`` and each setting only when not
    the default."""
    words = ["asyncfail", "lab", "--fault", scenario.fault.value, "--mode", scenario.mode.value]
    if scenario.deliveries != DEFAULT_DELIVERIES:
        words += ["--deliveries", str(scenario.deliveries)]
    for name in scenario.settings.changed():
        words += [option(name), option_value(getattr(scenario.settings, name))]
    return " ".join(words)
