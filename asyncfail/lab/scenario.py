"""The input of one lab run: which fault (a named one, or an explicit plan of injections), which
runtime, how many deliveries the channel makes, and the settings."""

from enum import StrEnum
from typing import Any, Final

from pydantic import BaseModel, Field, model_validator

from asyncfail.ground.durations import Duration
from asyncfail.ground.frozen import FROZEN
from asyncfail.lab.faults import Fault, FaultPlan, injection_text, plan_text
from asyncfail.lab.settings import DEFAULT_SETTINGS, KeyStability, LabSettings

DEFAULT_DELIVERIES: Final = 3
MAX_DELIVERIES: Final = 9


class Mode(StrEnum):
    """The runtimes the lab runs: the seed's two (``SEED_MODES``), and a durable engine's
    step."""

    NAIVE = "naive"
    """A retry loop: call the tool on every delivery, keep the result in process memory."""
    DURABLE = "durable"
    """Record a dispatch intent under a stable operation key; reconcile by lookup on replay."""
    CHECKPOINT = "checkpoint"
    """A durable engine's step (DBOS, Restate, Temporal): journal the step's result after the
    call returns; on recovery re-run a step whose result is not journaled."""


SEED_MODES: Final[tuple[Mode, ...]] = (Mode.NAIVE, Mode.DURABLE)
"""The two runtimes the seed compares, naive first: what "both runtimes" means wherever the
lab, the review and the lessons set runs side by side."""

MODE_TITLES: Final[dict[Mode, str]] = {
    Mode.NAIVE: "Naive loop",
    Mode.DURABLE: "Durable runtime",
    Mode.CHECKPOINT: "Engine checkpoint",
}
"""The runtimes as the seed handoff titles their evidence."""


SEED_FAULT: Final = Fault.CRASH_AFTER_EFFECT
"""The seed's case: the debit succeeds, the worker crashes before recording the result."""


class Scenario(BaseModel):
    """One run of the lab: a named fault injected into the first delivery, or an explicit plan
    of injections, under one runtime and one set of settings (by default, the seed's
    assumptions).

    ``deliveries`` bounds how often the channel (re)delivers the operation before it gives up;
    the seed's cases need two, the default of three leaves one spare. Rules: a plan replaces
    the named fault (``fault`` is then None, and giving both is refused); every injection of a
    plan falls within the delivery budget or, with ``replay_after`` set, in the operator's
    replay, the attempt after the budget's last (``last_attempt``).
    """

    model_config = FROZEN

    fault: Fault | None = Field(
        SEED_FAULT,
        description="The named fault, injected into the first delivery; null when "
        "an explicit plan is run.",
    )
    plan: FaultPlan | None = Field(
        None, description="An explicit plan of injections, run instead of a named fault."
    )
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

    @model_validator(mode="before")
    @classmethod
    def _a_plan_replaces_the_fault(cls, data: Any) -> Any:
        if isinstance(data, dict) and data.get("plan") is not None:
            if data.get("fault") is not None:
                raise ValueError("give a named fault or a plan, not both")
            data = {**data, "fault": None}
        return data

    @model_validator(mode="after")
    def _plan_within_the_budget(self) -> "Scenario":
        if self.fault is None and self.plan is None:
            raise ValueError("a scenario needs a named fault or a plan")
        last = self.last_attempt
        for injection in self.fault_plan.injections:
            if injection.attempt > last:
                replay = "" if last == self.deliveries else f" and the operator's replay ({last})"
                raise ValueError(
                    f"injection {injection_text(injection)} is past the delivery budget of "
                    f"{self.deliveries}{replay}"
                )
        return self

    @model_validator(mode="after")
    def _a_key_for_the_durable_runtime(self) -> "Scenario":
        refusal = key_refusal(self.mode, self.settings)
        if refusal is not None:
            raise ValueError(refusal)
        return self

    @property
    def last_attempt(self) -> int:
        """The last delivery attempt a plan may strike: the budget's last, or the operator's
        replay after it when ``replay_after`` is set."""
        return self.deliveries + (self.settings.replay_after is not None)

    @property
    def fault_plan(self) -> FaultPlan:
        """The injections this scenario runs: its plan, or its named fault's."""
        if self.plan is not None:
            return self.plan
        assert self.fault is not None  # the validator allows no scenario without either
        return FaultPlan.for_fault(self.fault)


def key_refusal(mode: Mode, settings: LabSettings) -> str | None:
    """Why ``mode`` cannot run under ``settings``, or None. Rule: ``key=none`` (send no key)
    leaves the durable runtime nothing to look up, so it is refused there; the naive loop
    sends no key anyway, and the checkpoint runtime sends none."""
    if mode is Mode.DURABLE and settings.key is KeyStability.NONE:
        return (
            "key=none sends no operation key, and the durable runtime needs one to look up "
            "(use --key stable or per-attempt, or --mode checkpoint)"
        )
    return None


def option(setting: str) -> str:
    """The CLI option of a setting: ``on_lookup_outage`` is ``--on-lookup-outage``."""
    return "--" + setting.replace("_", "-")


def option_value(value: object) -> str:
    """A setting's value as the CLI takes it: a duration as its seconds (``0.5``)."""
    return str(value.json_number) if isinstance(value, Duration) else str(value)


def command_line(scenario: Scenario) -> str:
    """The shell command that prints ``scenario``'s result, as lessons show it for copying:
    ``asyncfail lab --fault F --mode M`` (``--plan P`` for an explicit plan), then
    ``--deliveries`` and each setting only when not the default."""
    source = (
        ["--fault", scenario.fault.value]
        if scenario.fault is not None
        else ["--plan", plan_text(scenario.fault_plan)]
    )
    words = ["asyncfail", "lab", *source, "--mode", scenario.mode.value]
    if scenario.deliveries != DEFAULT_DELIVERIES:
        words += ["--deliveries", str(scenario.deliveries)]
    for name in scenario.settings.changed():
        words += [option(name), option_value(getattr(scenario.settings, name))]
    return " ".join(words)


def command_lines(scenario: Scenario) -> str:
    """The command for ``scenario`` under each of the seed's runtimes, naive first, one per
    line."""
    return "\n".join(command_line(scenario.model_copy(update={"mode": m})) for m in SEED_MODES)
