"""Lesson 1, the Async Failure Lab: every word the lesson shows, and its controls' defaults.

The notebook (``notebooks/01_async_failure_lab.py``) lays these out and calls the library; it
writes no text of its own.
"""

from typing import Final

from asyncfail.ground.seed import QUESTION
from asyncfail.lab.reading import Outcome
from asyncfail.lab.scenario import SEED_FAULT, Mode

INTRO: Final = f"""\
> **{QUESTION}**

Choose a failure, compare two runtimes, and follow the event trace. The model keeps two counts
apart: **delivery attempts** (how often the operation reached a worker) and **business effects**
(how often the ledger was debited).

- The **naive** runtime is a retry loop: it calls the debit tool on every delivery and keeps
  the result in process memory.
- The **durable** runtime records a dispatch intent under a stable operation key, and after a
  crash or a timeout looks that key up at the receiver before any call that could debit again.
"""

ASSUMPTIONS_TITLE: Final = "What this model assumes"

FAULT_LABEL: Final = "Fault injected into the first delivery"
DEFAULT_FAULT: Final = SEED_FAULT

PREDICT_PROMPT: Final = (
    "**Predict first.** Under **{fault}**, how many debits reach the ledger? "
    "Naive runtime: {{naive}} Durable runtime: {{durable}}"
)
"""The prediction form's text: ``{fault}`` is filled in, ``{{naive}}`` and ``{{durable}}``
become the form's two number fields."""
DEFAULT_GUESS: Final = 1
COMMIT_LABEL: Final = "Commit my guess"
SKIP_LABEL: Final = "Skip predicting: show the counts and the traces for every fault"
REVEAL_PROMPT: Final = (
    "Commit a guess of the business effects for each runtime, or switch on *skip predicting*, "
    "to see the counts and the traces."
)
SNAPSHOT_NOTE: Final = (
    "*Static snapshot: the counts are shown without the prediction step. Open the interactive "
    "page to predict first.*"
)

RUNTIME_HEADING: Final = "### {mode} runtime"
ATTEMPTS_LABEL: Final = "Delivery attempts"
EFFECTS_LABEL: Final = "Business effects"
FIGURES_LINE: Final = "Tool calls {tool_calls} · lookups {lookups} · outcome **{outcome}**"

OUTCOME_KIND: Final[dict[Outcome, str]] = {
    Outcome.EXACTLY_ONCE: "success",
    Outcome.DUPLICATE: "danger",
    Outcome.LOST: "warn",
    Outcome.UNKNOWN: "warn",
    Outcome.PARKED: "info",
}
"""The callout kind of each outcome: a duplicate is danger, a lost or unknown one a warning, a
parked one (safe, waiting for an operator) information."""

TRACES_TITLE: Final = "## The event traces"
STEP_LABEL: Final = "Step through the traces (arrow keys move one event)"

TERMINAL_TEXT: Final = (
    "## The same run in a terminal\n\n"
    "The CLI runs the same model and prints the same result as JSON (from a checkout, after "
    "`make test` or `make serve` created `.venv`):"
)
JSON_LABEL: Final = "JSON printed by `asyncfail lab` ({mode})"

NOTICE: Final = """\
## What to notice

- **Attempts are not effects.** Under `crash-after-effect` both runtimes make two delivery
  attempts; only the naive loop turns them into two debits.
- **A missing result is not a failed call.** After a crash or a timeout the debit may or may
  not have happened. The durable runtime treats that as *unknown* and asks the receiver by
  operation key; the naive loop guesses "failed" and calls again. Jepsen's Maelstrom calls such
  an operation *info*; FoundationDB calls it `commit_unknown_result`.
- **Memory is not a record.** Under `crash-after-record` the naive worker had the result, in
  memory, and lost it with the process: same duplicate.
- **Real engines behave like the naive loop unless the effect is idempotent.** Temporal
  documents this exact case (activity succeeds, worker crashes before reporting, duplicate
  charge) and recommends an idempotency key of Workflow Run ID + Activity ID enforced by the
  called service; DBOS and Inngest re-execute a step whose result was not checkpointed.
- Try `request-lost` and `response-lost`: the naive loop's blind retry is safe in one and
  duplicates in the other, and from inside the worker the two look identical.
"""


def runtime_heading(mode: Mode) -> str:
    """The heading over one runtime's figures: ``### naive runtime``."""
    return RUNTIME_HEADING.format(mode=mode.value)
