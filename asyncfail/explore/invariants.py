"""The invariants every run of the lab should keep, each defined once with its reason.

An invariant reads a finished run (its trace and the figures the lab derives from it) and says
whether the run kept it. The explorer checks all three on every plan it runs; a lesson, the CLI
and the documents read their names and reasons from here.
"""

from collections.abc import Sequence
from enum import StrEnum
from typing import Final, assert_never

from asyncfail.lab.events import TOOL_CALL_KINDS, Event, EventKind, has_kind
from asyncfail.lab.reading import Status, status_of
from asyncfail.lab.results import LabResult


class Invariant(StrEnum):
    """The three invariants, in the order they are reported."""

    AT_MOST_ONCE = "at-most-once"
    NO_SILENT_LOSS = "no-silent-loss"
    TRUTHFUL_STATUS = "truthful-status"


RULES: Final[dict[Invariant, str]] = {
    Invariant.AT_MOST_ONCE: "No more than one business effect: the ledger is debited at most "
    "once, whatever fails.",
    Invariant.NO_SILENT_LOSS: "A run ends with the debit applied, or with a status that says "
    "the outcome is unknown or parked for an operator; never with the debit missing under a "
    "status that reads as final, and never with a status saying it was not applied while the "
    "ledger holds it.",
    Invariant.TRUTHFUL_STATUS: "The status never claims more than the trace shows: a recovery "
    "needs the lookup, replay or deduplication it names, and every status matches the "
    "ledger's count.",
}
"""Each invariant in one sentence: what a run must keep."""

REASONS: Final[dict[Invariant, str]] = {
    Invariant.AT_MOST_ONCE: "A second debit is the failure this course is about: the customer "
    "pays twice, and no retry policy can take it back.",
    Invariant.NO_SILENT_LOSS: "A request that is dropped without anyone being told is as bad "
    "as one applied twice, only quieter: an unknown or parked outcome at least asks a person "
    "to look (Maelstrom's checkers keep indefinite outcomes apart from failed ones for the "
    "same reason).",
    Invariant.TRUTHFUL_STATUS: "An operator acts on the status: one that says recovered when "
    "nothing was looked up sends them away from a run that needs them.",
}
"""Why each invariant matters, for the lesson and the CLI's text."""


def _effects(events: Sequence[Event]) -> int:
    # The ledger's count, read from the trace: business-effect events and nothing else.
    return sum(1 for e in events if e.is_business_effect)


def _retried_after_a_miss(events: Sequence[Event]) -> bool:
    """A lookup found nothing, and a call followed it: any effect-capable request
    (``TOOL_CALL_KINDS``), since a runtime whose first intent could not be journaled records
    it with the retry (``DispatchIntentRecorded``)."""
    missed = False
    for e in events:
        missed = missed or e.kind is EventKind.OPERATION_LOOKUP_MISSING
        if missed and e.kind in TOOL_CALL_KINDS:
            return True
    return False


def _given_up(events: Sequence[Event]) -> bool:
    # The channel's last word: an abandonment that no replay came after.
    kinds = [e.kind for e in events if e.kind in _CHANNEL_VERDICTS]
    return bool(kinds) and kinds[-1] is EventKind.DELIVERY_ABANDONED


_CHANNEL_VERDICTS: Final = frozenset({EventKind.DELIVERY_ABANDONED, EventKind.DELIVERY_REPLAYED})


def status_is_borne_out(status: Status, events: Sequence[Event]) -> bool:
    """Whether the trace shows what ``status`` claims.

    Rules, one per status: "applied once" needs exactly one effect and an ending that was
    neither abandoned nor parked; "duplicate" at least two effects; each "recovered" or
    "deduplicated" status, and each status naming a safeguard against a concurrent worker,
    exactly one effect and the event it names (a lookup that found the record, a replayed
    result, a request the receiver deduplicated, one refused as in progress, one fenced off, a
    claim found lost); "retried after lookup"
    exactly one effect and a call after a lookup that found nothing; "never applied" no effect;
    "applied once, but abandoned" one effect and an abandoned delivery; "parked" a parked
    operation and at most one effect; "unknown" claims only that nobody knows, so at most one
    effect.
    """
    effects = _effects(events)
    abandoned = _given_up(events)
    parked = has_kind(events, EventKind.OPERATION_PARKED)
    match status:
        case Status.APPLIED_ONCE:
            return effects == 1 and not abandoned and not parked
        case Status.DUPLICATE:
            return effects >= 2
        case Status.RECOVERED_BY_KEY:
            return effects == 1 and has_kind(events, EventKind.OPERATION_LOOKUP_FOUND)
        case Status.RECOVERED_FROM_STORE:
            return effects == 1 and has_kind(events, EventKind.TOOL_RESULT_REPLAYED)
        case Status.DEDUPLICATED:
            return effects == 1 and has_kind(events, EventKind.REQUEST_DEDUPLICATED)
        case Status.TOLD_TO_RETRY:
            return effects == 1 and has_kind(events, EventKind.REQUEST_IN_PROGRESS)
        case Status.FENCED_OFF:
            return effects == 1 and has_kind(events, EventKind.REQUEST_FENCED)
        case Status.CLAIM_LOST:
            return effects == 1 and has_kind(events, EventKind.CLAIM_LOST)
        case Status.RETRIED_AFTER_LOOKUP:
            return effects == 1 and _retried_after_a_miss(events)
        case Status.NEVER_APPLIED:
            return effects == 0
        case Status.APPLIED_BUT_ABANDONED:
            return effects == 1 and abandoned
        case Status.PARKED:
            return parked and effects <= 1
        case Status.UNKNOWN:
            return effects <= 1
        case _:
            assert_never(status)


ADMITS_NOT_KNOWING: Final = frozenset({Status.UNKNOWN, Status.PARKED})
"""The statuses that say nobody knows yet whether the debit happened, and ask a person."""


def holds(invariant: Invariant, result: LabResult) -> bool:
    """Whether ``result`` keeps ``invariant`` (``RULES`` states each)."""
    return _holds(invariant, result.events, result.status, _effects(result.events))


def _holds(invariant: Invariant, events: Sequence[Event], status: Status, effects: int) -> bool:
    match invariant:
        case Invariant.AT_MOST_ONCE:
            return effects <= 1
        case Invariant.NO_SILENT_LOSS:
            if effects == 0:
                return status in ADMITS_NOT_KNOWING
            return status is not Status.NEVER_APPLIED
        case Invariant.TRUTHFUL_STATUS:
            return status_is_borne_out(status, events)
        case _:
            assert_never(invariant)


def broken_by(result: LabResult) -> tuple[Invariant, ...]:
    """The invariants ``result`` breaks, in ``Invariant`` order (``holds``)."""
    return broken_in(result.events)


def broken_in(events: Sequence[Event]) -> tuple[Invariant, ...]:
    """The invariants a run of trace ``events`` breaks: ``broken_by`` of its result, read from
    the trace alone (a result's status is its trace's, ``status_of``), the status and the
    effects read once."""
    status, effects = status_of(events), _effects(events)
    return tuple(i for i in Invariant if not _holds(i, events, status, effects))
