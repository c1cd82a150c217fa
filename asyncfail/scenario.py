"""The input of one lab run: which fault, which runtime, how many deliveries the channel makes."""

from enum import StrEnum
from typing import Final

from pydantic import BaseModel, ConfigDict, Field

from asyncfail.faults import Fault

DEFAULT_DELIVERIES: Final = 3
MAX_DELIVERIES: Final = 9


class Mode(StrEnum):
    """The two runtimes the lab compares."""

    NAIVE = "naive"
    """A retry loop: call the tool on every delivery, keep the result in process memory."""
    DURABLE = "durable"
    """Record a dispatch intent under a stable operation key; reconcile by lookup on replay."""


class Scenario(BaseModel):
    """One run of the lab: a named fault injected into the first delivery, under one runtime.

    ``deliveries`` bounds how often the channel (re)delivers the operation before it gives up;
    the seed's cases need two, the default of three leaves one spare.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    fault: Fault = Fault.CRASH_AFTER_EFFECT
    mode: Mode = Mode.DURABLE
    deliveries: int = Field(
        DEFAULT_DELIVERIES,
        ge=1,
        le=MAX_DELIVERIES,
        description="How many times the channel may deliver the operation before giving up.",
    )
