"""One run of the lab as a document: its inputs, its trace, and what follows from the trace.

A result stores its inputs and its trace and nothing derived from them; counts, outcome and
status are computed by the rules of ``asyncfail.lab.reading`` whenever they are read.
"""

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    computed_field,
    model_serializer,
)

from asyncfail.ground.seed import ASSUMPTIONS
from asyncfail.lab.assumptions import BrokenAssumption, broken_assumptions
from asyncfail.lab.events import Event
from asyncfail.lab.faults import Fault
from asyncfail.lab.reading import Counts, Outcome, Status, counts_of, outcome_of, status_of
from asyncfail.lab.scenario import MAX_DELIVERIES, Mode
from asyncfail.lab.settings import DEFAULT_SETTINGS, LabSettings

# The order of keys in a result document: inputs, then figures, then the evidence.
_DOCUMENT_ORDER = (
    "fault",
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

    model_config = ConfigDict(frozen=True, extra="forbid")

    fault: Fault
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
        """Which of the seed's assumptions this run's settings set aside (``lab.assumptions``):
        empty under the seed's own settings."""
        return broken_assumptions(self.settings, self.deliveries)

    @model_serializer(mode="wrap")
    def _in_document_order(self, handler: SerializerFunctionWrapHandler):  # type: ignore[no-untyped-def]
        data = handler(self)
        return {key: data[key] for key in _DOCUMENT_ORDER}
