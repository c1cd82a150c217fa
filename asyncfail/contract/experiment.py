"""The idempotency contract experiment: validated inputs, one run, and its result.

Build a ``ContractScenario``, ``evaluate`` it; the rules it applies are in
``asyncfail.contract.rules``, the requests in ``asyncfail.contract.requests``.
"""

from typing import Final

from pydantic import BaseModel, Field, computed_field

from asyncfail.contract.profiles import PROFILES, Rejection
from asyncfail.contract.requests import (
    ContractCase,
    FictionalRequest,
    Relation,
    case_of,
    fingerprint,
    receiver_key,
)
from asyncfail.contract.rules import (
    Disposition,
    Finding,
    Judgement,
    RecordState,
    judge,
    record_states,
)
from asyncfail.contract.settings import (
    ContractSettings,
    clock_departure,
    departures,
    resolve,
)
from asyncfail.contract.terms import (
    DEFAULT_DELAY,
    DEFAULT_PROFILE,
    DEFAULT_SECOND,
    ContractProfile,
    KeyScope,
    PayloadPolicy,
    SecondRequest,
)
from asyncfail.ground.durations import Duration
from asyncfail.ground.frozen import FROZEN
from asyncfail.ground.retention import BOUNDARY_RULES, BoundaryConvention

_OWN: Final = "When not given, the profile's (or, where its system sets none, the seed's)."


class ContractScenario(BaseModel):
    """What was asked of one run of the contract experiment; every field is bounded.

    The profile, the second request and its delay are always given (defaults: the IETF draft,
    the same intent again, 60 s later). Each knob (key scope, payload policy, retention,
    boundary convention) is the chosen value, or None for the profile's (``settings``). With
    every default this is the seed's example: key (tenant, operation), an enforced fingerprint,
    3600 s of retention, the seed's boundary convention.
    """

    model_config = FROZEN

    profile: ContractProfile = Field(
        DEFAULT_PROFILE,
        description="Whose contract the receiver follows: how it reports a conflict, and every "
        "knob its system sets.",
    )
    second: SecondRequest = Field(
        DEFAULT_SECOND, description="Which fictional request arrives second."
    )
    delay_seconds: Duration = Field(
        DEFAULT_DELAY, description="How long after the first request the second arrives."
    )
    scope: KeyScope | None = Field(
        None, description=f"What the receiver's idempotency key is made of. {_OWN}"
    )
    policy: PayloadPolicy | None = Field(
        None, description=f"Whether a retained record's fingerprint is compared. {_OWN}"
    )
    retention_seconds: Duration | None = Field(
        None, description=f"How long the idempotency record is kept. {_OWN}"
    )
    boundary: BoundaryConvention | None = Field(
        None, description=f"Whether the record still counts at delay == retention. {_OWN}"
    )

    @property
    def settings(self) -> ContractSettings:
        """The knobs in force (``contract.settings.resolve``). A plain property, not a cached
        one: ``model_copy(update=...)`` copies a cache along with the fields it came from."""
        return resolve(
            self.profile,
            scope=self.scope,
            policy=self.policy,
            retention=self.retention_seconds,
            boundary=self.boundary,
        )

    @property
    def departures(self) -> tuple[str, ...]:
        """Where an explicit knob departs from what the profile's system does, then where the
        model's write at the start of a clock tick decides what the real system leaves to
        chance (``clock_departure``)."""
        knobs = departures(
            self.profile,
            scope=self.scope,
            policy=self.policy,
            retention=self.retention_seconds,
            boundary=self.boundary,
        )
        clock = clock_departure(self.profile, self.settings, self.delay_seconds)
        return knobs if clock is None else (*knobs, clock)


class RequestRow(BaseModel):
    """One row of the seed's table "Fictional requests and their receiver keys"."""

    model_config = FROZEN

    attempt: int
    business_identity: str
    amount_minor_units: int
    receiver_key: str = Field(description="The receiver key, as a canonical JSON array.")
    fingerprint_tuple: str = Field(description="The fingerprint, as a canonical JSON array.")


def request_row(scope: KeyScope, request: FictionalRequest) -> RequestRow:
    """The table row of ``request`` under ``scope``."""
    return RequestRow(
        attempt=request.attempt,
        business_identity=request.business_identity,
        amount_minor_units=request.amount_minor_units,
        receiver_key=receiver_key(scope, request),
        fingerprint_tuple=fingerprint(request),
    )


class ContractResult(BaseModel):
    """One run of the contract experiment: its inputs, and everything that follows from them.

    Only the scenario is stored; every other field is derived from it by the rules of
    ``asyncfail.contract.rules``, so a result cannot disagree with its own inputs.
    """

    model_config = FROZEN

    scenario: ContractScenario

    # Plain properties, not cached ones: ``model_copy(update=...)`` would carry a cache over to
    # a result whose scenario changed. Each is a few microseconds.
    @property
    def _case(self) -> ContractCase:
        return case_of(self.settings.scope, self.scenario.second)

    @property
    def _judgement(self) -> Judgement:
        settings = self.settings
        clock = PROFILES[self.scenario.profile].clock
        (record,) = record_states(
            key_reused=self._case.key_reused,
            retention_ms=settings.retention.millis,
            delays_ms=(self.scenario.delay_seconds.millis,),
            boundary=settings.boundary,
            clock_ms=None if clock is None else clock.millis,
        )
        return judge(self._case, record, settings.policy)

    @computed_field  # type: ignore[prop-decorator]
    @property
    def settings(self) -> ContractSettings:
        """The knobs in force: what was asked, else the profile's, else the seed's default."""
        return self.scenario.settings

    @computed_field  # type: ignore[prop-decorator]
    @property
    def departures(self) -> tuple[str, ...]:
        """Where an explicit knob departs from what the profile's system does (one sentence
        each; empty when the run is faithful to it)."""
        return self.scenario.departures

    @computed_field  # type: ignore[prop-decorator]
    @property
    def boundary_rule(self) -> str:
        """The boundary convention in force, in words."""
        return BOUNDARY_RULES[self.settings.boundary]

    @computed_field  # type: ignore[prop-decorator]
    @property
    def requests(self) -> tuple[RequestRow, RequestRow]:
        """The seed's table: both requests with their receiver keys and fingerprint tuples."""
        scope = self.settings.scope
        return request_row(scope, self._case.first), request_row(scope, self._case.second)

    @computed_field  # type: ignore[prop-decorator]
    @property
    def record(self) -> RecordState:
        """The record found under the second request's key."""
        return self._judgement.record

    @computed_field  # type: ignore[prop-decorator]
    @property
    def disposition(self) -> Disposition:
        """What the receiver did with the second request."""
        return self._judgement.disposition

    @computed_field  # type: ignore[prop-decorator]
    @property
    def rejection(self) -> Rejection | None:
        """The profile's report of the conflict; null unless the disposition is conflict."""
        if self.disposition is not Disposition.CONFLICT:
            return None
        return PROFILES[self.scenario.profile].conflict

    @computed_field  # type: ignore[prop-decorator]
    @property
    def effects(self) -> int:
        """Business effects applied in total by the two requests (1 or 2)."""
        return self._judgement.effects

    @computed_field  # type: ignore[prop-decorator]
    @property
    def one_intent(self) -> bool:
        """Whether both requests express one business intent (same tenant, operation, amount)."""
        return self._case.relation is Relation.SAME_INTENT

    @computed_field  # type: ignore[prop-decorator]
    @property
    def finding(self) -> Finding:
        """The verdict, in plain words."""
        return self._judgement.finding

    @computed_field  # type: ignore[prop-decorator]
    @property
    def correct(self) -> bool:
        """Whether the finding is a right outcome (``CORRECT_FINDINGS``)."""
        return self._judgement.correct


def evaluate(scenario: ContractScenario) -> ContractResult:
    """Run the experiment for one validated scenario.

    Request 1 (attempt 1: tenant-a / order-42, 1200 minor units) is applied, and its idempotency
    record commits atomically with the effect under its receiver key; only the record expires.
    Request 2 (attempt 2) arrives ``delay_seconds`` later and meets the receiver's rules under
    the settings in force: the record under its key (``record_states``), the disposition
    (``disposition_of``), the total effects (``EFFECTS``) and the verdict (``finding_of``).
    Sequential requests only: the in-progress conflicts of the draft (409) and Stripe are out of
    scope, as in the seed.
    """
    return ContractResult(scenario=scenario)
