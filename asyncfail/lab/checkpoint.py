"""The checkpoint runtime: what a durable-execution engine does with one step of a workflow.

DBOS, Restate and Temporal journal a step's result after the step returns, and on recovery (or
a retry of the workflow) replay the workflow: a step whose result is journaled is skipped and
its result reused; a step whose result is not journaled runs again. There is no dispatch
intent and no lookup, so a crash between the step's effect and its checkpoint runs the effect
again: steps are at least once (DBOS docs, "Workflows & steps": "steps ... are executed at
least once"; Restate docs, retries: "the number of actual retries may be higher"; Temporal
docs, activities: "an Activity Execution may be executed more than once"). Whether the second
run debits again is the receiver's business: the step may send a key, which a deduplicating
receiver honours.

The runtime is a generator like the other two (``lab.runtimes``): it yields every point it
passes and never knows which fault was chosen.
"""

from typing import Final

from asyncfail.lab.actors import Receipt, Refusal
from asyncfail.lab.delivery import Delivery
from asyncfail.lab.events import EventKind
from asyncfail.lab.faults import FaultPoint
from asyncfail.lab.runtimes import CALLS_PER_DELIVERY, OPERATION_ID, Ending, Steps
from asyncfail.lab.settings import KeyStability, StepRetries

WORKFLOW_ID: Final = OPERATION_ID
"""The workflow's id: the business operation, as an application sets it (DBOS's
``SetWorkflowID``), so a second start of the same operation is the same workflow."""

DEBIT_STEP: Final = 1
"""The debit's position in the workflow: its first step (DBOS numbers a workflow's steps from
1, and exposes the number as ``DBOS.step_id``)."""


def step_key(delivery: Delivery) -> str | None:
    """The key the checkpoint runtime's step sends. Rules: ``key=none`` sends none (a plain
    engine step); ``stable`` the workflow id and the step's position, the same on every run of
    the step (``debit:tenant-a:order-42:step-1``: what DBOS exposes as ``workflow_id`` and
    ``step_id``); ``per-attempt`` that key with the delivery attempt, new on each recovery."""
    stable = f"{WORKFLOW_ID}:step-{DEBIT_STEP}"
    match delivery.settings.key:
        case KeyStability.NONE:
            return None
        case KeyStability.STABLE:
            return stable
        case KeyStability.PER_ATTEMPT:
            return f"{stable}:attempt-{delivery.attempt}"


def step_calls(delivery: Delivery) -> int:
    """How many calls the step makes in one delivery at most. Rule: ``step_retries=once``
    retries a call without a reply once (``CALLS_PER_DELIVERY``, as the other runtimes' blind
    retry); ``off`` calls once (DBOS's default)."""
    return CALLS_PER_DELIVERY if delivery.settings.step_retries is StepRetries.ONCE else 1


class CheckpointRuntime:
    """A durable engine's workflow of one step, the debit.

    Promise: the workflow runs to completion, and a step whose result was journaled never runs
    again; nothing more. Rules: a delivery starts the workflow (its record is written to the
    engine's journal, which survives crashes) or, when the workflow is already recorded,
    replays it (``RunReplayed``). A journaled result is reused without calling
    (``ToolResultReplayed``). Otherwise the step calls the tool with ``step_key`` and, when the
    call returns, journals its result (the checkpoint, ``ToolResultRecorded``). A timeout is
    retried within the delivery, up to ``CALLS_PER_DELIVERY`` calls, as an engine's step retry
    policy does (``step_retries=once``, the default); with ``step_retries=off`` (DBOS's default:
    a step retries only when it allows it) a call without a reply fails the step: the engine
    journals the error and ends the workflow in error (``WorkflowFailed``), and a replay finds
    it so and releases the delivery without calling, on every later delivery (DBOS recovers
    only pending workflows; one in error stays so until an operator acts). A request refused
    as in progress releases the delivery; so does a checkpoint the journal cannot take, or a
    workflow it cannot record (the engine retries the workflow later). No intent, no lookup, no
    claim: the durable runtime's ``claim`` and ``fencing`` settings do not apply (nor does
    ``step_retries`` to the other runtimes).
    """

    def deliver(self, delivery: Delivery) -> Steps:
        store, trace, key = delivery.store, delivery.trace, step_key(delivery)
        run = store.runs.get(WORKFLOW_ID)
        if run is None:
            if not store.start_workflow(WORKFLOW_ID):
                return Ending.RELEASED
        else:
            trace.emit(EventKind.RUN_REPLAYED)
            if run.result is not None:
                trace.emit(EventKind.TOOL_RESULT_REPLAYED, key=key)
                return Ending.ACKNOWLEDGED
            if run.failed:
                return Ending.RELEASED
        receipt: Receipt | None = None
        for _ in range(step_calls(delivery)):
            yield FaultPoint.BEFORE_DISPATCH
            yield FaultPoint.PAUSE_BEFORE_DISPATCH
            trace.emit(delivery.tool_call_kind(), key=key)
            reply = yield from delivery.send(key=key)
            if reply is Refusal.IN_PROGRESS or reply is Refusal.FENCED:
                return Ending.RELEASED
            if reply is not None:
                receipt = reply
                break
        if receipt is None:
            if delivery.settings.step_retries is StepRetries.OFF:
                store.runs[WORKFLOW_ID].failed = True
                trace.emit(EventKind.WORKFLOW_FAILED)
            return Ending.RELEASED
        yield FaultPoint.AFTER_EFFECT
        yield FaultPoint.PAUSE_AFTER_EFFECT
        if not delivery.record_checkpoint(WORKFLOW_ID, key, receipt):
            return Ending.RELEASED
        yield FaultPoint.AFTER_RECORD
        return Ending.ACKNOWLEDGED
