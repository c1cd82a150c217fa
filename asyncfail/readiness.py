"""The replay-readiness checklist: a learner's own design against the handoff's recommendations.

``ReplayDesign`` holds what the learner says about their system; ``assess`` turns it into a
``ReadinessReport`` with one check per recommendation (met, unmet or unknown, and why, in the
learner's own words and units), the questions still open, and Markdown and HTML renderings.
Whenever a check depends on what a receiver does with a second request (a retained or expired
record, a changed key, a changed payload), the answer comes from running the idempotency
contract experiment (``asyncfail.contract.evaluate``), never from a rule restated here.
"""

from collections.abc import Iterable
from decimal import Decimal
from enum import StrEnum
from functools import cached_property
from typing import Final

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    computed_field,
    field_validator,
    model_validator,
)

from asyncfail.contract import (
    MAX_SECONDS,
    ContractResult,
    ContractScenario,
    KeyScope,
    PayloadPolicy,
    SecondRequest,
    evaluate,
)
from asyncfail.review import CANNOT_DECIDE, RECOMMENDATIONS, Priority, RecommendationId
from asyncfail.review_markup import (
    Bullets,
    Callout,
    Callouts,
    Document,
    Paragraph,
    Section,
    Table,
    plain,
    to_html,
    to_html_fragment,
    to_markdown,
)

MAX_TEXT: Final = 10_000
"""The longest free-text answer accepted (an owner's name or team), in characters."""

# ---------------------------------------------------------------------------------------------
# The learner's answers


class Answer(StrEnum):
    """A yes/no question the learner may not be able to answer yet."""

    YES = "yes"
    NO = "no"
    UNKNOWN = "unknown"


class ScopeAnswer(StrEnum):
    """The scope of the learner's operation key; the known values are the contract's scopes."""

    ATTEMPT = KeyScope.ATTEMPT.value
    """The delivery attempt: a new key for every attempt."""
    OPERATION = KeyScope.OPERATION.value
    """The business operation ID alone."""
    TENANT_OPERATION = KeyScope.TENANT_OPERATION.value
    """The pair (tenant, business operation)."""
    UNKNOWN = "unknown"


SCOPE_WORDS: Final[dict[ScopeAnswer, str]] = {
    ScopeAnswer.ATTEMPT: "the delivery attempt",
    ScopeAnswer.OPERATION: "the business operation ID alone",
    ScopeAnswer.TENANT_OPERATION: "the tenant and the business operation",
    ScopeAnswer.UNKNOWN: "unknown",
}


class TimeUnit(StrEnum):
    """The units a learner may state a duration in."""

    SECONDS = "seconds"
    MINUTES = "minutes"
    HOURS = "hours"
    DAYS = "days"


UNIT_SECONDS: Final[dict[TimeUnit, int]] = {
    TimeUnit.SECONDS: 1,
    TimeUnit.MINUTES: 60,
    TimeUnit.HOURS: 3600,
    TimeUnit.DAYS: 86_400,
}

_MILLISECOND: Final = Decimal("0.001")


def _number(value: Decimal) -> str:
    """A decimal as a person writes it: no exponent, no trailing zeros, thousands separated."""
    return f"{value.normalize():,f}"


class Duration(BaseModel):
    """A length of time as the learner states it: an amount in a unit they pick.

    Rules: the amount is a finite, non-negative decimal; ``seconds`` is ``amount`` times the
    unit's length in seconds, computed in decimal arithmetic, so ``1.1 hours`` is exactly 3,960 s
    (binary floating point makes it 3960.0000000000005 and moves a boundary). The result
    must be a whole number of milliseconds (so the contract experiment, which works in floats,
    compares it exactly) and at most the experiment's ``MAX_SECONDS`` (30 days).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    amount: Decimal = Field(ge=0, allow_inf_nan=False)
    unit: TimeUnit = TimeUnit.SECONDS

    @field_validator("amount")
    @classmethod
    def _no_negative_zero(cls, amount: Decimal) -> Decimal:
        # -0 becomes 0; copy_abs, unlike adding 0, never rounds to the context's precision.
        return amount.copy_abs() if amount.is_zero() else amount

    @model_validator(mode="after")
    def _exact_and_in_range(self) -> "Duration":
        seconds = self.seconds
        if seconds > MAX_SECONDS:
            raise ValueError(
                f"{self.describe()} is longer than the contract experiment's limit of "
                f"{MAX_SECONDS // 86_400} days ({MAX_SECONDS:,} seconds)"
            )
        if seconds % _MILLISECOND:
            raise ValueError(
                f"{self.describe()} is not a whole number of milliseconds; "
                "give fewer decimal places"
            )
        return self

    @computed_field  # type: ignore[prop-decorator]
    @property
    def seconds(self) -> Decimal:
        """The duration in seconds, exactly."""
        return self.amount * UNIT_SECONDS[self.unit]

    def describe(self) -> str:
        """The learner's own terms, ``36 hours (129,600 seconds)``; seconds alone if so given."""
        unit = self.unit.value[:-1] if self.amount == 1 else self.unit.value
        own = f"{_number(self.amount)} {unit}"
        if self.unit is TimeUnit.SECONDS:
            return own
        seconds = self.seconds
        return f"{own} ({_number(seconds)} second{'' if seconds == 1 else 's'})"


def duration_from_text(field: str, amount: str, unit: TimeUnit | str) -> Duration | None:
    """A duration as a learner types it: blank means not known yet (None).

    Otherwise the amount must be a plain non-negative decimal number (a comma or space as a
    thousands separator is allowed) and the whole must satisfy ``Duration``'s rules; a
    ValueError names ``field`` and says what is accepted.
    """
    text = amount.strip().replace(",", "").replace(" ", "").replace("_", "")
    if not text:
        return None
    units = ", ".join(u.value for u in TimeUnit)
    try:
        value = Decimal(text)
    except ArithmeticError:
        value = None
    if value is None or not value.is_finite() or value < 0 or not text[0].isdigit():
        raise ValueError(
            f"{field}: {amount.strip()[:40]!r} is not a number; give a non-negative number "
            f"such as 24 or 1.5, in {units}, or leave it blank if you do not know"
        )
    try:
        return Duration(amount=value, unit=TimeUnit(unit))
    except ValidationError as error:
        reason = error.errors()[0]["msg"].removeprefix("Value error, ")
        raise ValueError(f"{field}: {reason}") from None


class ReplayDesign(BaseModel):
    """What a learner says about their own design; every answer may be left unknown.

    Durations are ``None`` while unknown; owners are free text, unnamed while blank (see
    ``named``). Nothing here is sent anywhere: it is a value in memory.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    key_across_attempts: Answer = Field(
        Answer.UNKNOWN, description="Is one operation key carried across every delivery attempt?"
    )
    key_scope: ScopeAnswer = Field(ScopeAnswer.UNKNOWN, description="What the key identifies.")
    unknown_outcome_separate: Answer = Field(
        Answer.UNKNOWN, description="Is an unknown outcome represented separately from failed?"
    )
    lookup_by_key: Answer = Field(
        Answer.UNKNOWN, description="Is a lookup by key available at the effect boundary?"
    )
    retention: Duration | None = Field(
        None, description="How long deduplication records are retained."
    )
    replay_window: Duration | None = Field(
        None, description="The longest replay window: how late a replay can arrive."
    )
    fingerprint_compared: Answer = Field(
        Answer.UNKNOWN, description="Is a request fingerprint compared when a key is reused?"
    )
    pause_owner: str = Field("", max_length=MAX_TEXT, description="Who can pause dispatch.")
    replay_approver: str = Field("", max_length=MAX_TEXT, description="Who can approve replay.")
    state_verifier: str = Field(
        "", max_length=MAX_TEXT, description="Who can verify the final business state."
    )


# ---------------------------------------------------------------------------------------------
# The checks


class CheckStatus(StrEnum):
    """Whether a design meets a recommendation, as far as the learner's answers tell."""

    MET = "met"
    UNMET = "unmet"
    UNKNOWN = "unknown"


STATUS_LABELS: Final[dict[CheckStatus, str]] = {
    CheckStatus.MET: "Met",
    CheckStatus.UNMET: "Not met",
    CheckStatus.UNKNOWN: "Unknown",
}


class CheckId(StrEnum):
    """The checks, in report order: the handoff's four recommendations, then two rules of the
    idempotency contract experiment that the learner's answers also decide."""

    KEY_ACROSS_ATTEMPTS = RecommendationId.KEY_ACROSS_ATTEMPTS.value
    UNKNOWN_OUTCOME = RecommendationId.UNKNOWN_OUTCOME.value
    RETENTION_COVERS_REPLAY = RecommendationId.RETENTION_COVERS_REPLAY.value
    RECOVERY_OWNER = RecommendationId.RECOVERY_OWNER.value
    KEY_SCOPE = "key-scope"
    FINGERPRINT = "fingerprint"


_CONTRACT_TITLES: Final[dict[CheckId, str]] = {
    CheckId.KEY_SCOPE: "Scope the key to the tenant and the business operation",
    CheckId.FINGERPRINT: "Compare a request fingerprint when a key is reused",
}


class Probe(BaseModel):
    """One run of the contract experiment that a check rests on, and the question it answers."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    question: str
    result: ContractResult


class Check(BaseModel):
    """One recommendation applied to the design: its status, the reason, and the evidence."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: CheckId
    priority: Priority | None = Field(description="P0 or P1 for the handoff's recommendations.")
    title: str
    status: CheckStatus
    reason: str
    probes: tuple[Probe, ...] = ()


def _title(check: CheckId) -> tuple[Priority | None, str]:
    for rec in RECOMMENDATIONS:
        if rec.id.value == check.value:
            return rec.priority, rec.title
    return None, _CONTRACT_TITLES[check]


def _check(check: CheckId, status: CheckStatus, reason: str, probes: Iterable[Probe] = ()) -> Check:
    priority, title = _title(check)
    return Check(
        id=check,
        priority=priority,
        title=title,
        status=status,
        reason=reason,
        probes=tuple(probes),
    )


def named(text: str) -> bool:
    """Whether a free-text answer names someone: it shows something once normalized (``plain``
    drops whitespace and control characters)."""
    return bool(plain(text))


def _quote(text: str) -> str:
    return f"\u201c{plain(text)}\u201d"


def _and(items: list[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def _effects(result: ContractResult) -> str:
    return f"{result.effects} effect{'' if result.effects == 1 else 's'}"


def _verdict(result: ContractResult) -> str:
    return f"{result.finding.value.lower()} ({_effects(result)})"


def _probe(question: str, **inputs: object) -> Probe:
    return Probe(question=question, result=evaluate(ContractScenario.model_validate(inputs)))


_POLICIES: Final[dict[Answer, tuple[PayloadPolicy, ...]]] = {
    Answer.YES: (PayloadPolicy.ENFORCE,),
    Answer.NO: (PayloadPolicy.IGNORE,),
    Answer.UNKNOWN: (PayloadPolicy.ENFORCE, PayloadPolicy.IGNORE),
}
"""The receiver policies the learner's fingerprint answer admits (both while unknown)."""

_POLICY_WORDS: Final[dict[PayloadPolicy, str]] = {
    PayloadPolicy.ENFORCE: "with a fingerprint comparison",
    PayloadPolicy.IGNORE: "without a fingerprint comparison",
}


def _status_of_probes(groups: Iterable[Iterable[Probe]]) -> CheckStatus:
    """Met if every probe under every admitted policy is a correct outcome; unmet if every
    admitted policy has a wrong one; unknown if it depends on an answer still open."""
    verdicts = [all(p.result.correct for p in group) for group in groups]
    if all(verdicts):
        return CheckStatus.MET
    if not any(verdicts):
        return CheckStatus.UNMET
    return CheckStatus.UNKNOWN


def _redelivery(scope: ScopeAnswer, policy: PayloadPolicy = PayloadPolicy.ENFORCE) -> Probe:
    return _probe(
        f"The same intent redelivered, key scoped to {SCOPE_WORDS[scope]}",
        scope=scope.value,
        second=SecondRequest.SAME_INTENT,
        policy=policy,
    )


def _scope_caveat(design: ReplayDesign) -> str:
    """A note for checks that probe the contract with a (tenant, operation) key: they judge one
    rule in isolation, so with another key scope the learner is pointed to the key checks."""
    if design.key_scope is ScopeAnswer.TENANT_OPERATION:
        return ""
    return (
        " This probe uses a key of the tenant and the business operation; with your key scope "
        f"({SCOPE_WORDS[design.key_scope]}) see the key checks, which decide first."
    )


def check_key_across_attempts(design: ReplayDesign) -> Check:
    """P0, one key across attempts. Unmet if the learner says the key is not carried, or its
    scope is the delivery attempt; met if it is carried and the contract experiment shows a
    redelivery of the same intent under the stated scope reusing the first result; otherwise
    unknown."""
    carried, scope = design.key_across_attempts, design.key_scope
    check = CheckId.KEY_ACROSS_ATTEMPTS
    if carried is Answer.NO:
        return _check(
            check,
            CheckStatus.UNMET,
            "You answered no: the same operation key is not carried across every delivery "
            "attempt, so a redelivery reaches the downstream system as a new intent. A delivery "
            "ID alone does not identify the business intent.",
        )
    if scope is ScopeAnswer.UNKNOWN:
        known = (
            "You carry one operation key across every delivery attempt, but its scope is unknown"
            if carried is Answer.YES
            else "You do not know yet whether one operation key is carried across every "
            "delivery attempt, nor what it identifies"
        )
        return _check(
            check,
            CheckStatus.UNKNOWN,
            f"{known}: a key scoped to the delivery attempt would change on every redelivery.",
        )
    probe = _redelivery(scope)
    evidence = (
        f"In the contract experiment a redelivery of the same intent gives: "
        f"{_verdict(probe.result)}."
    )
    if not probe.result.correct:
        although = (
            ", although you answered yes to carrying one key" if carried is Answer.YES else ""
        )
        changes = ", so it changes on every redelivery" if scope is ScopeAnswer.ATTEMPT else ""
        return _check(
            check,
            CheckStatus.UNMET,
            f"Your key is scoped to {SCOPE_WORDS[scope]}{changes}{although}. {evidence}",
            [probe],
        )
    if carried is Answer.YES:
        return _check(
            check,
            CheckStatus.MET,
            f"You carry one operation key across every delivery attempt, scoped to "
            f"{SCOPE_WORDS[scope]}. {evidence}",
            [probe],
        )
    return _check(
        check,
        CheckStatus.UNKNOWN,
        f"A key scoped to {SCOPE_WORDS[scope]} stays the same across redeliveries ({evidence}), "
        "but you do not know yet whether every delivery attempt carries it.",
        [probe],
    )


def check_unknown_outcome(design: ReplayDesign) -> Check:
    """P0, an unknown outcome is not a failure. Unmet if the learner says an unknown outcome is
    not represented separately from failed, or that no lookup by key exists at the effect
    boundary (nothing to reconcile with); met if both are yes; otherwise unknown."""
    separate, lookup = design.unknown_outcome_separate, design.lookup_by_key
    check = CheckId.UNKNOWN_OUTCOME
    if Answer.NO in (separate, lookup):
        reasons = []
        if separate is Answer.NO:
            reasons.append(
                "You answered no to representing an unknown outcome separately from failed: "
                "after a crash or timeout a debit that may have happened is treated as failed "
                "and called again."
            )
        if lookup is Answer.NO:
            reasons.append(
                "There is no lookup by operation key at the effect boundary, so an unknown "
                "outcome cannot be reconciled before another effect-capable call."
            )
        reasons.append("Missing acknowledgement is not proof that the effect failed.")
        return _check(check, CheckStatus.UNMET, " ".join(reasons))
    if separate is Answer.YES and lookup is Answer.YES:
        return _check(
            check,
            CheckStatus.MET,
            "You represent an unknown outcome separately from failed, and a lookup by operation "
            "key at the effect boundary lets you reconcile it before another effect-capable "
            "call.",
        )
    open_questions = []
    if separate is Answer.UNKNOWN:
        open_questions.append("whether an unknown outcome is represented separately from failed")
    if lookup is Answer.UNKNOWN:
        open_questions.append("whether a lookup by key is available at the effect boundary")
    return _check(check, CheckStatus.UNKNOWN, f"Not known yet: {_and(open_questions)}.")


def check_retention_covers_replay(design: ReplayDesign) -> Check:
    """P1, retention covers the replay window. Unknown until both durations are given; then the
    contract experiment runs the seed's case (same intent, key (tenant, operation)) with the
    learner's retention and a replay as late as their longest replay window, under the
    experiment's default boundary convention: met if the replay reuses the first result, unmet
    if it becomes a second effect."""
    retention, window = design.retention, design.replay_window
    check = CheckId.RETENTION_COVERS_REPLAY
    if retention is None or window is None:
        given = []
        if retention is not None:
            given.append(f"Your deduplication records are kept for {retention.describe()}.")
        if window is not None:
            given.append(f"Your longest replay window is {window.describe()}.")
        missing = _and(
            [
                name
                for name, value in (
                    ("the retention of deduplication records", retention),
                    ("the longest replay window", window),
                )
                if value is None
            ]
        )
        given.append(
            f"Without {missing} the contract experiment cannot tell whether a delayed replay "
            "becomes a second effect."
        )
        return _check(check, CheckStatus.UNKNOWN, " ".join(given))
    probe = _probe(
        f"The same intent replayed {window.describe()} after the first request, records kept "
        f"for {retention.describe()}",
        retention_seconds=float(retention.seconds),
        delay_seconds=float(window.seconds),
    )
    result = probe.result
    reason = (
        f"Your deduplication records are kept for {retention.describe()}; your longest replay "
        f"window is {window.describe()}. In the contract experiment a replay of the same intent "
        f"that late finds the record {result.record.value} and is {result.disposition.value}: "
        f"{_verdict(result)}."
    )
    if retention.seconds == window.seconds:
        reason += f" The two are exactly equal, and the rule in force is: {result.boundary_rule}"
    status = CheckStatus.MET if result.correct else CheckStatus.UNMET
    return _check(check, status, reason + _scope_caveat(design), [probe])


_ROLES: Final = (
    ("pause_owner", "can pause dispatch", "who can pause dispatch"),
    ("replay_approver", "can approve replay", "who can approve replay"),
    (
        "state_verifier",
        "can verify the final business state",
        "who can verify the final business state",
    ),
)


def check_recovery_owner(design: ReplayDesign) -> Check:
    """P1, recovery owner and evidence. Unmet if there is no lookup by key at the effect
    boundary (the operation record, the evidence to inspect before replay, cannot be found);
    met if all three roles are named and the lookup exists; otherwise unknown. An owner is named
    when its text is not blank (``named``)."""
    check = CheckId.RECOVERY_OWNER
    roles = [
        f"{_quote(getattr(design, field))} {role}"
        for field, role, _ in _ROLES
        if named(getattr(design, field))
    ]
    missing = [question for field, _, question in _ROLES if not named(getattr(design, field))]
    owners = f"{_and(roles)}." if roles else "No recovery owner is named yet."
    if design.lookup_by_key is Answer.NO:
        return _check(
            check,
            CheckStatus.UNMET,
            f"{owners} There is no lookup by operation key at the effect boundary, so the "
            "operation record cannot be inspected before replay is approved, nor the final "
            "business state verified from it.",
        )
    if not missing and design.lookup_by_key is Answer.YES:
        return _check(
            check,
            CheckStatus.MET,
            f"{owners} The evidence is the operation record, looked up by key at the effect "
            "boundary.",
        )
    open_questions = list(missing)
    if design.lookup_by_key is Answer.UNKNOWN:
        open_questions.append("whether the operation record can be looked up by key")
    return _check(check, CheckStatus.UNKNOWN, f"{owners} Not known yet: {_and(open_questions)}.")


def check_key_scope(design: ReplayDesign) -> Check:
    """Contract, key identity. Unknown while the scope is unknown; otherwise the contract
    experiment sends, under the learner's scope, the same intent again and another tenant's
    request with the same operation ID, for each receiver policy the fingerprint answer admits
    (both while it is unknown): met if every outcome is correct, unmet if every admitted policy
    has a wrong one."""
    scope = design.key_scope
    check = CheckId.KEY_SCOPE
    if scope is ScopeAnswer.UNKNOWN:
        return _check(
            check,
            CheckStatus.UNKNOWN,
            "The key's scope is not known yet. Identity is the pair (tenant, business "
            "operation), not the delivery attempt.",
        )
    policies = _POLICIES[design.fingerprint_compared]
    groups = [
        (
            _redelivery(scope, policy),
            _probe(
                f"Another tenant's request with the same operation ID, key scoped to "
                f"{SCOPE_WORDS[scope]}, {_POLICY_WORDS[policy]}",
                scope=scope.value,
                second=SecondRequest.OTHER_TENANT,
                policy=policy,
            ),
        )
        for policy in policies
    ]
    parts = []
    for policy, (again, other) in zip(policies, groups, strict=True):
        where = f"{_POLICY_WORDS[policy]}, " if len(policies) > 1 else ""
        parts.append(
            f"{where}the same intent again gives {_verdict(again.result)}, and another tenant "
            f"using the same operation ID gives {_verdict(other.result)}"
        )
    reason = (
        f"Your key is scoped to {SCOPE_WORDS[scope]}. In the contract experiment, "
        f"{'; '.join(parts)}."
    )
    probes = [p for group in groups for p in group]
    return _check(check, _status_of_probes(groups), reason, probes)


def check_fingerprint(design: ReplayDesign) -> Check:
    """Contract, payload conflicts. The contract experiment sends the same key (tenant,
    operation) with a different amount, under each receiver policy the answer admits: met if
    every outcome is correct, unmet if none is; unknown while the answer is unknown."""
    answer = design.fingerprint_compared
    check = CheckId.FINGERPRINT
    policies = _POLICIES[answer]
    probes = [
        _probe(
            f"The same key with a different amount, {_POLICY_WORDS[policy]}",
            second=SecondRequest.DIFFERENT_AMOUNT,
            policy=policy,
        )
        for policy in policies
    ]
    outcomes = "; ".join(
        f"{_POLICY_WORDS[p.result.scenario.policy]}, {_verdict(p.result)}" for p in probes
    )
    lead = {
        Answer.YES: "You compare a request fingerprint.",
        Answer.NO: "You do not compare a request fingerprint.",
        Answer.UNKNOWN: "You do not know yet whether a request fingerprint is compared.",
    }[answer]
    reason = (
        f"{lead} In the contract experiment the same key with a different amount gives: {outcomes}."
    )
    return _check(
        check, _status_of_probes([p] for p in probes), reason + _scope_caveat(design), probes
    )


CHECKS: Final = (
    check_key_across_attempts,
    check_unknown_outcome,
    check_retention_covers_replay,
    check_recovery_owner,
    check_key_scope,
    check_fingerprint,
)
"""Every check, in report order (the order of ``CheckId``)."""


def open_questions(design: ReplayDesign) -> tuple[str, ...]:
    """The questions the learner has not answered yet, in the order the design asks them."""
    questions = []
    if design.key_across_attempts is Answer.UNKNOWN:
        questions.append("Is one operation key carried across every delivery attempt?")
    if design.key_scope is ScopeAnswer.UNKNOWN:
        questions.append(
            "What does the key identify: the delivery attempt, the business operation, or the "
            "tenant and the operation?"
        )
    if design.unknown_outcome_separate is Answer.UNKNOWN:
        questions.append("Is an unknown outcome represented separately from failed?")
    if design.lookup_by_key is Answer.UNKNOWN:
        questions.append("Is a lookup by operation key available at the effect boundary?")
    if design.retention is None:
        questions.append("How long are deduplication records retained?")
    if design.replay_window is None:
        questions.append("What is the longest replay window?")
    if design.fingerprint_compared is Answer.UNKNOWN:
        questions.append("Is a request fingerprint compared when a key is reused?")
    questions += [
        f"{question[:1].upper()}{question[1:]}?"
        for field, _, question in _ROLES
        if not named(getattr(design, field))
    ]
    return tuple(questions)


# ---------------------------------------------------------------------------------------------
# The report

REPORT_KICKER: Final = "Replay-readiness checklist · your answers, not a review of your system"
REPORT_TITLE: Final = "Replay-readiness report"
REPORT_CLOSING: Final = (
    "This report restates your answers against the sample handoff's recommendations and the "
    "idempotency contract experiment; it has not inspected your system. A real review replaces "
    "these answers with your authorized evidence, names the unknowns, and leaves implementation "
    "and operational ownership with your team."
)

_TONE: Final[dict[CheckStatus, str]] = {
    CheckStatus.MET: "met",
    CheckStatus.UNMET: "unmet",
    CheckStatus.UNKNOWN: "unknown",
}


class ReadinessReport(BaseModel):
    """The checklist's answer to one design. Only the design is stored; the checks and the open
    questions are derived from it, so a report cannot disagree with its own inputs."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    design: ReplayDesign

    @computed_field  # type: ignore[prop-decorator]
    @cached_property
    def checks(self) -> tuple[Check, ...]:
        """One check per ``CheckId``, in that order."""
        return tuple(check(self.design) for check in CHECKS)

    @computed_field  # type: ignore[prop-decorator]
    @property
    def unknowns(self) -> tuple[str, ...]:
        """The questions still open (``open_questions``)."""
        return open_questions(self.design)

    def check(self, check_id: CheckId) -> Check:
        return next(c for c in self.checks if c.id is check_id)

    def tally(self) -> dict[CheckStatus, int]:
        """How many checks have each status, every status present."""
        return {s: sum(1 for c in self.checks if c.status is s) for s in CheckStatus}

    def summary(self) -> str:
        tally = self.tally()
        return (
            f"{tally[CheckStatus.MET]} met, {tally[CheckStatus.UNMET]} not met and "
            f"{tally[CheckStatus.UNKNOWN]} unknown, of {len(self.checks)} checks: the sample "
            "handoff's four recommendations (P0, P1) and two rules of the idempotency contract "
            "experiment, applied to the design you described."
        )

    def document(self) -> Document:
        checks = self.checks
        table = Table(
            header=("Priority", "Recommendation", "Status"),
            rows=tuple(
                (
                    (c.priority.value if c.priority else "Contract",),
                    (c.title,),
                    (STATUS_LABELS[c.status],),
                )
                for c in checks
            ),
        )
        callouts = Callouts(
            tuple(
                Callout(
                    STATUS_LABELS[c.status],
                    f"{c.priority.value if c.priority else 'Contract'} · {c.title}",
                    (c.reason,),
                    tone=_TONE[c.status],
                )
                for c in checks
            )
        )
        probes = [(c, p) for c in checks for p in c.probes]
        rules = sorted({p.result.boundary_rule for _, p in probes})
        experiment: tuple[Paragraph | Table, ...] = (
            (
                Table(
                    header=("Check", "Question", "Record", "Second request", "Effects", "Finding"),
                    rows=tuple(
                        (
                            (c.title,),
                            (p.question,),
                            (p.result.record.value,),
                            (p.result.disposition.value,),
                            (str(p.result.effects),),
                            (p.result.finding.value,),
                        )
                        for c, p in probes
                    ),
                ),
                *(Paragraph((f"Boundary convention: {rule}",)) for rule in rules),
            )
            if probes
            else (Paragraph(("No check could run the experiment with the answers given yet.",)),)
        )
        unknowns = self.unknowns
        sections = (
            Section("Checks", (table,)),
            Section("Why, check by check", (callouts,)),
            Section(
                "Through the idempotency contract experiment",
                (
                    Paragraph(
                        (
                            "Each row is one run of the two-request experiment with fictional "
                            "requests (tenant-a / order-42, 1200 minor units), using your "
                            "answers where they apply.",
                        )
                    ),
                    *experiment,
                ),
            ),
            Section("Your design", (_design_table(self.design),)),
            Section(
                "Remaining unknowns",
                (Bullets(tuple((q,) for q in unknowns)),)
                if unknowns
                else (Paragraph(("None: every question has an answer.",)),),
            ),
            Section(
                "What this checklist cannot decide", (Bullets(tuple((s,) for s in CANNOT_DECIDE)),)
            ),
            Section("Use the shape, not a verdict", (Paragraph((REPORT_CLOSING,)),)),
        )
        return Document(
            kicker=REPORT_KICKER,
            title=REPORT_TITLE,
            intro=(Paragraph((self.summary(),)),),
            sections=sections,
        )

    def markdown(self) -> str:
        """The report as Markdown, for download."""
        return to_markdown(self.document())

    def html(self, *, standalone: bool = True) -> str:
        """The report as a self-contained HTML page, or (``standalone=False``) an embeddable
        ``<article>`` with its scoped style sheet."""
        document = self.document()
        return to_html(document) if standalone else to_html_fragment(document)


def _answer_text(value: Duration | str | None) -> str:
    if value is None:
        return "unknown"
    if isinstance(value, Duration):
        return value.describe()
    return _quote(value) if named(value) else "not named"


def _design_table(design: ReplayDesign) -> Table:
    rows = [
        ("One operation key across every delivery attempt", design.key_across_attempts.value),
        ("Key scope", SCOPE_WORDS[design.key_scope]),
        ("Unknown outcome separate from failed", design.unknown_outcome_separate.value),
        ("Lookup by key at the effect boundary", design.lookup_by_key.value),
        ("Retention of deduplication records", _answer_text(design.retention)),
        ("Longest replay window", _answer_text(design.replay_window)),
        ("Request fingerprint compared", design.fingerprint_compared.value),
        ("Who can pause dispatch", _answer_text(design.pause_owner)),
        ("Who can approve replay", _answer_text(design.replay_approver)),
        ("Who can verify the final business state", _answer_text(design.state_verifier)),
    ]
    return Table(
        header=("Question", "Your answer"),
        rows=tuple(((question,), (answer,)) for question, answer in rows),
    )


def assess(design: ReplayDesign) -> ReadinessReport:
    """The readiness report for one design."""
    return ReadinessReport(design=design)
