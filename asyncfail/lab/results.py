"""One run of the lab as a document: its inputs, its trace, and what follows from the trace.

A result stores its inputs and its trace and nothing derived from them; counts, outcome and
status are computed by the rules of ``asyncfail.lab.reading`` whenever they are read.
"""

from typing import Any

from pydantic import (
    BaseModel,
    Field,
    SerializerFunctionWrapHandler,
    computed_field,
    model_serializer,
    model_validator,
)

from asyncfail.ground.frozen import FROZEN
from asyncfail.ground.seed import ASSUMPTIONS
from asyncfail.lab.assumptions import BrokenAssumption, broken_assumptions
from asyncfail.lab.events import Event
from asyncfail.lab.faults import Fault, FaultPlan, Injection, plan_text
from asyncfail.lab.reading import Counts, Outcome, Status, counts_of, outcome_of, status_of
from asyncfail.lab.scenario import MAX_DELIVERIES, Mode
from asyncfail.lab.settings import DEFAULT_SETTINGS, LabSettings

# The order of keys in a result document: inputs, then figures, then the evidence.
_DOCUMENT_ORDER = (
    "fault",
    "plan",
    "mode",
    "deliveries",
    "settings",
    "counts",
    "outcome",
    "status",
    "assumptions",
    "broken_assumptions",
    "events",
)


class LabResult(BaseModel):
    """One run of the lab: its inputs, its trace, and what follows from the trace."""

    model_config = FROZEN

    fault: Fault | None = Field(
        description="The named fault; null when the run followed an explicit plan."
    )
    plan: tuple[Injection, ...] = Field(
        description="The injections the run was given: the named fault's, or the plan's."
    )

    @model_validator(mode="before")
    @classmethod
    def _plan_of_the_named_fault(cls, data: Any) -> Any:
        # A result built from a named fault alone carries that fault's plan.
        if isinstance(data, dict) and "plan" not in data and data.get("fault") is not None:
            data = {**data, "plan": FaultPlan.for_fault(Fault(data["fault"])).injections}
        return data

    mode: Mode
    deliveries: int = Field(ge=1, le=MAX_DELIVERIES)
    settings: LabSettings = DEFAULT_SETTINGS
    events: tuple[Event, ...]

    @computed_field  # type: ignore[prop-decorator]
    @property
    def counts(self) -> Counts:
        return counts_of(self.events)

    @computed_field  # type: ignore[prop-decorator]
    @property
    def outcome(self) -> Outcome:
        return outcome_of(self.events)

    @computed_field  # type: ignore[prop-decorator]
    @property
    def status(self) -> Status:
        return status_of(self.events)

    @computed_field  # type: ignore[prop-decorator]
    @property
    def assumptions(self) -> tuple[str, ...]:
        """The seed's five assumptions, word for word: the conditions these figures hold under."""
        return ASSUMPTIONS

    @computed_field  # type: ignore[prop-decorator]
    @property
    def broken_assumptions(self) -> tuple[BrokenAssumption, ...]:
        """Which of the seed's assumptions this run's settings and plan set aside
        (``lab.assumptions``): empty under the seed's own settings and a single fault."""
        return broken_assumptions(self.settings, self.deliveries, len(self.plan))

    @property
    def subject(self) -> str:
        """What was injected, in a few words: the named fault, or ``plan 1:after-effect``."""
        if self.fault is not None:
            return self.fault.value
        return f"plan {plan_text(FaultPlan(injections=self.plan))}"

    @model_serializer(mode="wrap")
    def _in_document_order(self, handler: SerializerFunctionWrapHandler):  # type: ignore[no-untyped-def]
        data = handler(self)
        return {key: data[key] for key in _DOCUMENT_ORDER}
