"""The review's words for the facts the lab reads off a trace (``asyncfail.lab.reading``): where
a failure struck, what became of the result, how a run recovered."""

from typing import Final

from asyncfail.lab.reading import Order, ResultRecord, Route

ORDER_PLACE: Final[dict[Order, str]] = {
    Order.EFFECT_FIRST: "after the modeled debit",
    Order.FAULT_FIRST: "before the modeled debit",
    Order.NO_EFFECT: "with no modeled debit",
    Order.NO_FAULT: "with no failure in the trace",
}

ABSENCE: Final[dict[ResultRecord, str]] = {
    ResultRecord.NO_FAILURE: "absent",
    ResultRecord.ABSENT_AT_TIMEOUT: "absent when the worker sees the timeout",
    ResultRecord.ABSENT_AT_RESTART: "absent when the worker restarts",
    ResultRecord.ABSENT_AT_CRASH: "absent when the worker crashes",
}

# Every route has its phrase (a test checks): a missing one once ended a review in a traceback.
RECOVERY: Final[dict[Route, str]] = {
    Route.REPEATED: "retry repeats",
    Route.TOLD_TO_RETRY: "a concurrent request is refused as in progress and retried later",
    Route.FENCED_OFF: "a stale worker's request is fenced off by its token",
    Route.CLAIM_LOST: "a stale worker stops when its claim runs out",
    Route.FOUND_BY_KEY: "recovery looks up the key",
    Route.DEDUPLICATED: "recovery calls again, and the receiver answers from its record",
    Route.REUSED_RESULT: "recovery reuses the recorded result",
    Route.CALLED_AFTER_MISSING: "recovery looks up the key, finds nothing, and calls again",
    Route.CALLED: "retry applies the debit once",
    Route.NONE: "run ends without a replay",
}

FAILED_FOR_GOOD: Final = "recovery finds the workflow failed and calls no more"
"""The replay of a checkpoint runtime's workflow that ended in error (``WorkflowFailed``: its
step may not retry), where ``RECOVERY`` would say nothing was replayed."""

BROKEN_HERE: Final = "Broken in this run:"
