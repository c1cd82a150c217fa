"""The replay-readiness checks: the handoff's recommendations applied to a learner's design.

Each check is met, unmet or unknown, with the reason in the learner's own words and units.
Whenever a check depends on what a receiver does with a second request (a retained or expired
record, a changed key, a changed payload), the answer comes from running the idempotency
contract experiment (``asyncfail.contract.experiment.evaluate``), never from a rule restated
here. Nothing here runs the failure lab.
"""

from collections.abc import Callable, Iterable
from typing import Final

from asyncfail.contract.experiment import ContractResult, ContractScenario, evaluate
from asyncfail.contract.terms import SCOPE_WORDS, KeyScope, PayloadPolicy, SecondRequest
from asyncfail.document.markup import plain
from asyncfail.ground.prose import counted, joined, quoted
from asyncfail.ground.seed import RecommendationId
from asyncfail.readiness.design import Answer, ReplayDesign, Role, named
from asyncfail.readiness.verdict import Check, CheckId, CheckStatus, ContractRule, Probe, heading


def _check(check: CheckId, status: CheckStatus, reason: str, probes: Iterable[Probe] = ()) -> Check:
    priority, title = heading(check)
    return Check(
        id=check,
        priority=priority,
        title=title,
        status=status,
        reason=reason,
        probes=tuple(probes),
    )


def _scope_words(scope: KeyScope | None) -> str:
    return "unknown" if scope is None else SCOPE_WORDS[scope]


def _verdict(result: ContractResult) -> str:
    return f"{result.finding.value.lower()} ({counted(result.effects, 'effect')})"


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


def _redelivery(scope: KeyScope, policy: PayloadPolicy = PayloadPolicy.ENFORCE) -> Probe:
    return _probe(
        f"The same intent redelivered, key scoped to {SCOPE_WORDS[scope]}",
        scope=scope.value,
        second=SecondRequest.SAME_INTENT,
        policy=policy,
    )


def _scope_caveat(design: ReplayDesign) -> str:
    """A note for checks that probe the contract with a (tenant, operation) key: they judge one
    rule in isolation, so with another key scope the learner is pointed to the key checks."""
    if design.key_scope is KeyScope.TENANT_OPERATION:
        return ""
    return (
        " This probe uses a key of the tenant and the business operation; with your key scope "
        f"({_scope_words(design.key_scope)}) see the key checks, which decide first."
    )


def check_key_across_attempts(design: ReplayDesign) -> Check:
    """P0, one key across attempts. Unmet if the learner says the key is not carried, or its
    scope is the delivery attempt; met if it is carried and the contract experiment shows a
    redelivery of the same intent under the stated scope reusing the first result; otherwise
    unknown."""
    carried, scope = design.key_across_attempts, design.key_scope
    check = RecommendationId.KEY_ACROSS_ATTEMPTS
    if carried is Answer.NO:
        return _check(
            check,
            CheckStatus.UNMET,
            "You answered no: the same operation key is not carried across every delivery "
            "attempt, so a redelivery reaches the downstream system as a new intent. A delivery "
            "ID alone does not identify the business intent.",
        )
    if scope is None:
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
        changes = ", so it changes on every redelivery" if scope is KeyScope.ATTEMPT else ""
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
    check = RecommendationId.UNKNOWN_OUTCOME
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
    return _check(check, CheckStatus.UNKNOWN, f"Not known yet: {joined(open_questions)}.")


def check_retention_covers_replay(design: ReplayDesign) -> Check:
    """P1, retention covers the replay window. Unknown until both durations are given; then the
    contract experiment runs the seed's case (same intent, key (tenant, operation)) with the
    learner's retention and a replay as late as their longest replay window, under the
    experiment's default boundary convention: met if the replay reuses the first result, unmet
    if it becomes a second effect. The seed's title says "at least as long", but under the
    seed's convention equal durations are unmet (records must outlive the window strictly), so
    every reason quotes the rule in force."""
    retention, window = design.retention, design.replay_window
    check = RecommendationId.RETENTION_COVERS_REPLAY
    if retention is None or window is None:
        given = []
        if retention is not None:
            given.append(f"Your deduplication records are kept for {retention.describe()}.")
        if window is not None:
            given.append(f"Your longest replay window is {window.describe()}.")
        missing = joined(
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
        retention_seconds=retention.duration,
        delay_seconds=window.duration,
    )
    result = probe.result
    reason = (
        f"Your deduplication records are kept for {retention.describe()}; your longest replay "
        f"window is {window.describe()}. In the contract experiment a replay of the same intent "
        f"that late finds the record {result.record.value} and is {result.disposition.value}: "
        f"{_verdict(result)}."
    )
    equal = " The two are exactly equal." if retention.duration == window.duration else ""
    reason += f"{equal} The rule in force: {result.boundary_rule}"
    status = CheckStatus.MET if result.correct else CheckStatus.UNMET
    return _check(check, status, reason + _scope_caveat(design), [probe])


def check_recovery_owner(design: ReplayDesign) -> Check:
    """P1, recovery owner and evidence. Unmet if there is no lookup by key at the effect
    boundary (the operation record, the evidence to inspect before replay, cannot be found);
    met if all three roles are named and the lookup exists; otherwise unknown. An owner is named
    when its text is not blank (``named``)."""
    check = RecommendationId.RECOVERY_OWNER
    roles = [
        f"{quoted(plain(design.owner(role)))} can {role.value}"
        for role in Role
        if named(design.owner(role))
    ]
    missing = [f"who can {role.value}" for role in Role if not named(design.owner(role))]
    owners = f"{joined(roles)}." if roles else "No recovery owner is named yet."
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
    return _check(check, CheckStatus.UNKNOWN, f"{owners} Not known yet: {joined(open_questions)}.")


def check_key_scope(design: ReplayDesign) -> Check:
    """Contract, key identity. Unknown while the scope is unknown; otherwise the contract
    experiment sends, under the learner's scope, the same intent again and another tenant's
    request with the same operation ID, for each receiver policy the fingerprint answer admits
    (both while it is unknown): met if every outcome is correct, unmet if every admitted policy
    has a wrong one."""
    scope = design.key_scope
    check = ContractRule.KEY_SCOPE
    if scope is None:
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
    check = ContractRule.FINGERPRINT
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
        f"{_POLICY_WORDS[p.result.settings.policy]}, {_verdict(p.result)}" for p in probes
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


CHECKS: Final[dict[CheckId, Callable[[ReplayDesign], Check]]] = {
    RecommendationId.KEY_ACROSS_ATTEMPTS: check_key_across_attempts,
    RecommendationId.UNKNOWN_OUTCOME: check_unknown_outcome,
    RecommendationId.RETENTION_COVERS_REPLAY: check_retention_covers_replay,
    RecommendationId.RECOVERY_OWNER: check_recovery_owner,
    ContractRule.KEY_SCOPE: check_key_scope,
    ContractRule.FINGERPRINT: check_fingerprint,
}
"""Every check, in report order: the handoff's four recommendations, then the two contract
rules."""
