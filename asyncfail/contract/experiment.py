"""The idempotency contract experiment: validated inputs, one run, and its result.

Build a ``ContractScenario``, ``evaluate`` it; the rules it applies are in
``asyncfail.contract.rules``, the requests in ``asyncfail.contract.requests``.
"""

from functools import cached_property
from typing import Annotated, Any, Final

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PlainSerializer,
    TypeAdapter,
    ValidationError,
    computed_field,
    model_validator,
)

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
    BOUNDARY_RULES,
    Disposition,
    Finding,
    Judgement,
    RecordState,
    judge,
    record_states,
)
from asyncfail.contract.terms import (
    DEFAULT_BOUNDARY,
    DEFAULT_DELAY_SECONDS,
    DEFAULT_PROFILE,
    DEFAULT_RETENTION_SECONDS,
    DEFAULT_SCOPE,
    DEFAULT_SECOND,
    MAX_SECONDS,
    SECONDS_RANGE,
    BoundaryConvention,
    ContractProfile,
    KeyScope,
    PayloadPolicy,
    SecondRequest,
)


def _whole_seconds_as_int(value: float) -> int | float:
    # 3600.0 prints as 3600, the way the user typed it; 0.5 stays 0.5.
    return int(value) if isinstance(value, float) and value.is_integer() else value


Seconds = Annotated[
    float,
    # strict: a bool or a numeric string is a mistake here, not a number of seconds.
    Field(ge=0, le=MAX_SECONDS, allow_inf_nan=False, strict=True),
    PlainSerializer(_whole_seconds_as_int, return_type=int | float, when_used="json"),
]
"""A duration: a finite number of seconds from 0 to ``MAX_SECONDS`` (30 days). NaN, infinities,
negatives, booleans and strings are rejected. The one bound check for seconds: the sweep's axes
and the CLI's options use it too, through ``check_seconds``."""

_SECONDS: Final = TypeAdapter(Seconds)


def check_seconds(name: str, value: object) -> float:
    """``value`` as seconds under the ``Seconds`` rule, or ValueError naming ``name``."""
    try:
        return _SECONDS.validate_python(value)
    except ValidationError:
        raise ValueError(f"{name} must be {SECONDS_RANGE}, got {value!r}") from None


class ContractScenario(BaseModel):
    """The inputs of one run of the contract experiment; every field is bounded.

    The defaults are the seed's example (key (tenant, operation), the same intent again, an
    enforced fingerprint, the seed's boundary convention), with the IETF draft as the profile,
    Powertools' default retention of 3600 s, and a retry 60 s after the first request.
    ``policy`` left out (or None) means the profile's own default policy: enforce, or ignore
    for Powertools, whose payload validation is off unless configured (see ``PROFILES``).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    scope: KeyScope = Field(
        DEFAULT_SCOPE, description="What the receiver's idempotency key is made of."
    )
    second: SecondRequest = Field(
        DEFAULT_SECOND, description="Which fictional request arrives second."
    )
    policy: PayloadPolicy = Field(
        PROFILES[DEFAULT_PROFILE].default_policy,
        description="Whether a retained record's fingerprint is compared; when not given, the "
        "profile's default (ignore for powertools, enforce for the others).",
    )
    profile: ContractProfile = Field(
        DEFAULT_PROFILE, description="Whose contract reports a conflict, and its default policy."
    )
    retention_seconds: Seconds = Field(
        DEFAULT_RETENTION_SECONDS, description="How long the idempotency record is kept."
    )
    delay_seconds: Seconds = Field(
        DEFAULT_DELAY_SECONDS, description="How long after the first request the second arrives."
    )
    boundary: BoundaryConvention = Field(
        DEFAULT_BOUNDARY, description="Whether the record still counts at delay == retention."
    )

    @model_validator(mode="before")
    @classmethod
    def _policy_defaults_to_the_profiles(cls, data: Any) -> Any:
        if isinstance(data, dict) and data.get("policy") is None:
            rest = {key: value for key, value in data.items() if key != "policy"}
            try:
                profile = ContractProfile(data.get("profile", DEFAULT_PROFILE))
            except (ValueError, TypeError):
                return rest  # the profile field reports the bad value, alone
            return rest | {"policy": PROFILES[profile].default_policy}
        return data


class RequestRow(BaseModel):
    """One row of the seed's table "Fictional requests and their receiver keys"."""

    model_config = ConfigDict(frozen=True, extra="forbid")

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

    model_config = ConfigDict(frozen=True, extra="forbid")

    scenario: ContractScenario

    @cached_property
    def _case(self) -> ContractCase:
        return case_of(self.scenario.scope, self.scenario.second)

    @cached_property
    def _judgement(self) -> Judgement:
        s = self.scenario
        (record,) = record_states(
            key_reused=self._case.key_reused,
            retention_seconds=s.retention_seconds,
            delays=(s.delay_seconds,),
            boundary=s.boundary,
        )
        return judge(self._case, record, s.policy)

    @computed_field  # type: ignore[prop-decorator]
    @property
    def boundary_rule(self) -> str:
        """The boundary convention in force, in words."""
        return BOUNDARY_RULES[self.scenario.boundary]

    @computed_field  # type: ignore[prop-decorator]
    @property
    def requests(self) -> tuple[RequestRow, RequestRow]:
        """The seed's table: both requests with their receiver keys and fingerprint tuples."""
        scope = self.scenario.scope
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
    Request 2 (attempt 2) arrives ``delay_seconds`` later and meets the receiver's rules: the
    record under its key (``record_states``), the disposition (``disposition_of``), the total
    effects (``EFFECTS``) and the verdict (``finding_of``). Sequential requests only: the
    in-progress conflicts of the draft (409) and Stripe are out of scope, as in the seed.
    """
    return ContractResult(scenario=scenario)
