"""The reliability review handoff, generated from the model at the moment it is asked for.

``build_review(fault)`` runs the naive and the durable runtime under one fault; ``Review``
turns those two results into the seed's handoff document. Every figure, event list and every
sentence about where the failure struck is derived from the two traces (or, for what a fault
is, from its definition in ``asyncfail.faults``), so if the model changed, the document would
change with it. Fixed prose (recommendations, the handoff checklist, the caveats) is the seed's.
"""

from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from pydantic import BaseModel, ConfigDict, model_validator

from asyncfail.assumptions import ASSUMPTIONS
from asyncfail.events import TOOL_CALL_KINDS, Event, EventKind
from asyncfail.faults import FAILURE_AT, FAULT_POINT, Failure, Fault, FaultPoint
from asyncfail.results import LabResult
from asyncfail.review_markup import (
    Bullets,
    Callout,
    Callouts,
    Code,
    Document,
    Facts,
    Paragraph,
    Section,
    Steps,
    Subsection,
    Table,
    to_html,
    to_html_fragment,
    to_markdown,
)
from asyncfail.scenario import Mode, Scenario
from asyncfail.simulation import simulate

SEED_FAULT: Final = Fault.CRASH_AFTER_EFFECT
"""The seed handoff's case: the debit succeeds, the worker crashes before recording it."""

# ---------------------------------------------------------------------------------------------
# Fixed prose, word for word from the seed handoff


class Priority(StrEnum):
    """How urgent a recommendation is: P0 before anything else, P1 next."""

    P0 = "P0"
    P1 = "P1"


class RecommendationId(StrEnum):
    """The seed's four recommendations, as stable identifiers."""

    KEY_ACROSS_ATTEMPTS = "key-across-attempts"
    UNKNOWN_OUTCOME = "unknown-outcome"
    RETENTION_COVERS_REPLAY = "retention-covers-replay"
    RECOVERY_OWNER = "recovery-owner"


@dataclass(frozen=True, slots=True)
class Recommendation:
    """One prioritized recommendation of the handoff."""

    id: RecommendationId
    priority: Priority
    title: str
    body: str


RECOMMENDATIONS: Final[tuple[Recommendation, ...]] = (
    Recommendation(
        RecommendationId.KEY_ACROSS_ATTEMPTS,
        Priority.P0,
        "Carry one operation key across every delivery attempt",
        "The worker, downstream effect, lookup path, and replay tooling need the same stable "
        "identity. A delivery ID alone does not identify the business intent.",
    ),
    Recommendation(
        RecommendationId.UNKNOWN_OUTCOME,
        Priority.P0,
        "Represent an unknown outcome instead of guessing",
        "After a crash or timeout, reconcile the operation key before another effect-capable "
        "call. Missing acknowledgement is not proof that the effect failed.",
    ),
    Recommendation(
        RecommendationId.RETENTION_COVERS_REPLAY,
        Priority.P1,
        "Make retention at least as long as the replay window",
        "A deduplication record that expires before delayed retries or manual replay can turn "
        "an old operation into a new effect.",
    ),
    Recommendation(
        RecommendationId.RECOVERY_OWNER,
        Priority.P1,
        "Name the recovery owner and required evidence",
        "The runbook should state who can pause dispatch, inspect the operation record, "
        "approve replay, and verify the final business state.",
    ),
)
"""The seed's prioritized recommendations, in its order."""

BEFORE_REPLAY: Final[tuple[str, ...]] = (
    "Pause or bound new dispatch for the affected operation.",
    "Look up the stable operation key at the effect boundary.",
    "Confirm deduplication retention still covers the replay.",
    "Record who authorizes replay and verifies final state.",
)

CANNOT_DECIDE: Final[tuple[str, ...]] = (
    "Your real provider's idempotency semantics.",
    "Your replay window, storage availability, or concurrency.",
    "Who has operational authority in your organization.",
    "Whether a real incident had the same failure sequence.",
)

KICKER: Final = "Synthetic teaching case · not client work"
TITLE: Final = "Async Reliability Review: sample handoff"
SYNTHETIC_NATURE: Final = (
    "Every fact below comes from the deterministic public model. It does not describe a client "
    "engagement, the production behavior of any real system, or a measured reliability outcome."
)
CLOSING_TITLE: Final = "Use the shape, not the synthetic conclusion"
CLOSING: Final = (
    "A real review replaces this model with your authorized evidence, names the unknowns, and "
    "leaves implementation and operational ownership with your team."
)
DECISION: Final = "Whether retry may repeat the effect or must reconcile first"

SECTION_TITLES: Final[tuple[str, ...]] = (
    "Scope and evidence boundary",
    "Model assumptions",
    "Failure map",
    "Evidence summary",
    "Prioritized recommendations",
    "Replay and ownership handoff",
    "What this sample cannot decide",
    CLOSING_TITLE,
)
"""The seed handoff's section titles, in its order; the generated document uses exactly these."""

RUNTIME_NAMES: Final[dict[Mode, str]] = {Mode.NAIVE: "Naive loop", Mode.DURABLE: "Durable runtime"}

# ---------------------------------------------------------------------------------------------
# What a fault is, from its definition (where it strikes), not from any run

# How the lead sentence describes the injection, by fault point.
_INJECTION_CLAUSE: Final[dict[FaultPoint, str]] = {
    FaultPoint.BEFORE_DISPATCH: "the worker crashes before it dispatches the call.",
    FaultPoint.REQUEST: "the request is lost on its way to the receiver, "
    "and the worker sees a timeout.",
    FaultPoint.RESPONSE: "the reply is lost on its way back, and the worker sees a timeout.",
    FaultPoint.AFTER_EFFECT: "the worker crashes before it records the result.",
    FaultPoint.AFTER_RECORD: "the worker crashes after it records the result, "
    "before it acknowledges the delivery.",
}

# Where on the dispatch path the fault strikes, for the scope's "Failure point".
_POINT_PLACE: Final[dict[FaultPoint, str]] = {
    FaultPoint.BEFORE_DISPATCH: "before the call is dispatched",
    FaultPoint.REQUEST: "on the request's way to the receiver",
    FaultPoint.RESPONSE: "on the reply's way back to the worker",
    FaultPoint.AFTER_EFFECT: "before the result is recorded",
    FaultPoint.AFTER_RECORD: "after the result is recorded, before the delivery is acknowledged",
}

# What the injected failure is called in the failure map.
_MESSAGE_LOST: Final[dict[FaultPoint, str]] = {
    FaultPoint.REQUEST: "injected request loss",
    FaultPoint.RESPONSE: "injected reply loss",
}


def _injection_name(point: FaultPoint) -> str:
    if FAILURE_AT[point] is Failure.CRASH:
        return "injected crash"
    return _MESSAGE_LOST[point]


# ---------------------------------------------------------------------------------------------
# What the traces show

_FAULT_EVENT_KINDS: Final = frozenset({EventKind.PROCESS_CRASHED, EventKind.TIMEOUT_OBSERVED})


class Order(StrEnum):
    """Where a trace puts the first business effect relative to the injected failure."""

    EFFECT_FIRST = "effect-first"
    FAULT_FIRST = "fault-first"
    NO_FAULT = "no-fault"
    NO_EFFECT = "no-effect"


def fault_event(result: LabResult) -> Event | None:
    """The trace's first crash or timeout: the injected failure as the trace records it.

    Faults are injected once, into the first delivery, and nothing else in the model crashes a
    worker or times a call out, so the first such event is the injection.
    """
    return next((e for e in result.events if e.kind in _FAULT_EVENT_KINDS), None)


def order_of(result: LabResult) -> Order:
    """Whether the first debit precedes the injected failure in this trace (by sequence)."""
    failure = fault_event(result)
    effect = next((e for e in result.events if e.is_business_effect), None)
    if failure is None:
        return Order.NO_FAULT
    if effect is None:
        return Order.NO_EFFECT
    return Order.EFFECT_FIRST if effect.seq < failure.seq else Order.FAULT_FIRST


def _has(result: LabResult, kind: EventKind) -> bool:
    return any(e.kind is kind for e in result.events)


def _after(result: LabResult, event: Event | None) -> tuple[Event, ...]:
    start = 0 if event is None else event.seq
    return tuple(e for e in result.events if e.seq > start)


_NUMBER_WORDS: Final = (
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
)


def number_word(n: int) -> str:
    """A count as the seed writes it in prose: a word up to twelve, digits beyond."""
    return _NUMBER_WORDS[n] if 0 <= n < len(_NUMBER_WORDS) else str(n)


def counted(n: int, noun: str) -> str:
    """``two attempts``, ``one modeled effect``: a number word and the noun, plural unless one."""
    return f"{number_word(n)} {noun}{'' if n == 1 else 's'}"


def _join_runtimes(phrases: dict[Mode, str], *, capital: bool) -> str:
    """One phrase if both runtimes agree, otherwise one per runtime, naive first."""
    if len(set(phrases.values())) == 1:
        text = next(iter(phrases.values()))
        return text[:1].upper() + text[1:] if capital else text
    parts = [f"{RUNTIME_NAMES[mode].lower()}: {phrases[mode]}" for mode in Mode]
    text = "; ".join(parts)
    return text[:1].upper() + text[1:] if capital else text


# ---------------------------------------------------------------------------------------------
# The review


def model_version() -> str:
    """The asyncfail version, from the package itself, so it is right in a WebAssembly wheel too
    (where package metadata names a build, not the release)."""
    from asyncfail import __version__

    return __version__


class ReviewFormat(StrEnum):
    """The renderings of a review."""

    MARKDOWN = "markdown"
    HTML = "html"


class Review(BaseModel):
    """The two runs a handoff is generated from: the naive loop and the durable runtime.

    Rule: both runs share the fault and the delivery budget; the document is a pure function of
    them and of the model version it names.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    fault: Fault
    naive: LabResult
    durable: LabResult
    model_version: str

    @model_validator(mode="after")
    def _runs_match(self) -> "Review":
        naive, durable = self.naive, self.durable
        if naive.mode is not Mode.NAIVE or durable.mode is not Mode.DURABLE:
            raise ValueError("naive and durable must be runs of those runtimes")
        if not naive.fault is durable.fault is self.fault:
            raise ValueError("both runs must be of the review's fault")
        if naive.deliveries != durable.deliveries:
            raise ValueError("both runs must have the same delivery budget")
        return self

    def run(self, mode: Mode) -> LabResult:
        return self.naive if mode is Mode.NAIVE else self.durable

    @property
    def runs(self) -> tuple[LabResult, LabResult]:
        return (self.naive, self.durable)

    # -- derived sentences -----------------------------------------------------------------

    def _orders(self) -> dict[Mode, Order]:
        return {mode: order_of(self.run(mode)) for mode in Mode}

    def lead(self) -> str:
        """The opening sentence: what happens to the first delivery, as the traces show it."""
        point = FAULT_POINT[self.fault]
        orders = set(self._orders().values())
        if point is None or orders == {Order.NO_FAULT}:
            return "One virtual debit is delivered, and no fault is injected."
        if orders == {Order.EFFECT_FIRST}:
            opening = "One virtual debit succeeds, then "
        elif orders <= {Order.FAULT_FIRST, Order.NO_EFFECT}:
            opening = "Before any virtual debit is applied, "
        else:
            opening = "In the first delivery, "
        return opening + _INJECTION_CLAUSE[point]

    def flow(self) -> str:
        point = FAULT_POINT[self.fault]
        if point is None:
            return "One virtual debit operation and no injected fault"
        name = _injection_name(point).removeprefix("injected ")
        return f"One virtual debit operation and one injected {name}"

    def failure_point(self) -> str:
        point = FAULT_POINT[self.fault]
        if point is None:
            return "None: no fault is injected"
        phrases = {
            mode: {
                Order.EFFECT_FIRST: "after the modeled debit",
                Order.FAULT_FIRST: "before the modeled debit",
                Order.NO_EFFECT: "with no modeled debit",
                Order.NO_FAULT: "with no failure in the trace",
            }[order]
            for mode, order in self._orders().items()
        }
        return f"{_join_runtimes(phrases, capital=True)}, {_POINT_PLACE[point]}"

    def evidence(self) -> str:
        traces = counted(len(self.runs), "deterministic trace")
        return (
            f"{traces[:1].upper()}{traces[1:]} generated by the asyncfail model, "
            f"version {self.model_version}"
        )

    def _presence(self, kind: EventKind) -> str:
        present = [mode for mode in Mode if _has(self.run(mode), kind)]
        if not present:
            return "Recorded in neither trace"
        if len(present) == len(Mode):
            return "Recorded in both traces"
        return f"Recorded only in the {present[0]} trace"

    def effect_evidence(self) -> str:
        phrases: dict[Mode, str] = {}
        point = FAULT_POINT[self.fault]
        for mode, order in self._orders().items():
            if order is Order.NO_FAULT or point is None:
                phrases[mode] = "the virtual debit happens with no injected fault"
            elif order is Order.NO_EFFECT:
                phrases[mode] = "no virtual debit happens"
            elif order is Order.EFFECT_FIRST:
                phrases[mode] = f"the virtual debit happens before the {_injection_name(point)}"
            else:
                phrases[mode] = f"the virtual debit happens only after the {_injection_name(point)}"
        return _join_runtimes(phrases, capital=True)

    def result_evidence(self) -> str:
        point = FAULT_POINT[self.fault]
        if point is None or all(fault_event(r) is None for r in self.runs):
            return self._presence(EventKind.TOOL_RESULT_RECORDED)
        first = [mode for mode in Mode if _recorded_before_failure(self.run(mode))]
        if first:
            where = "in both traces" if len(first) == len(Mode) else f"only in the {first[0]} trace"
            return f"Recorded before the {_injection_name(point)} {where}"
        return _join_runtimes({mode: _absence(self.run(mode)) for mode in Mode}, capital=True)

    def _replay_phrase(self, mode: Mode) -> str:
        result = self.run(mode)
        later = _after(result, fault_event(result))
        kinds = {e.kind for e in later}
        if EventKind.DEBIT_APPLIED_AGAIN in kinds:
            return "retry repeats"
        if EventKind.OPERATION_LOOKUP_FOUND in kinds:
            return "recovery looks up the key"
        if EventKind.TOOL_RESULT_REPLAYED in kinds:
            return "recovery reuses the recorded result"
        if EventKind.OPERATION_LOOKUP_MISSING in kinds:
            return "recovery looks up the key, finds nothing, and calls again"
        if kinds & TOOL_CALL_KINDS:
            return "retry applies the debit once"
        return "run ends without a replay"

    def replay_evidence(self) -> str:
        if all(fault_event(r) is None for r in self.runs):
            return "Nothing is replayed: no fault is injected"
        naive = f"{RUNTIME_NAMES[Mode.NAIVE].split()[0]} {self._replay_phrase(Mode.NAIVE)}"
        durable = f"durable {self._replay_phrase(Mode.DURABLE)}"
        return f"{naive}; {durable}"

    def summary(self) -> str:
        """The evidence summary's closing sentences, from the counts and the durable status."""
        naive, durable = self.naive.counts, self.durable.counts
        return (
            f"The model produces {counted(naive.attempts, 'attempt')} and "
            f"{counted(naive.effects, 'effect')} for the naive loop. With the stated "
            f"durable-runtime assumptions, it produces {counted(durable.attempts, 'attempt')} "
            f"and {counted(durable.effects, 'modeled effect')}, then reports "
            f"\u201c{self.durable.status}.\u201d"
        )

    # -- the document ----------------------------------------------------------------------

    def document(self) -> Document:
        """The handoff as a document, in the seed's section order."""
        failure_map = Table(
            header=("Boundary", "Evidence in the model", "Review question"),
            rows=(
                (
                    ("Dispatch intent",),
                    (self._presence(EventKind.DISPATCH_INTENT_RECORDED),),
                    ("Which stable identity survives worker replacement?",),
                ),
                (
                    ("External effect",),
                    (self.effect_evidence(),),
                    ("Can the downstream system find or deduplicate the intent?",),
                ),
                (
                    ("Recorded result",),
                    (self.result_evidence(),),
                    ("Does the runtime represent UNKNOWN separately from FAILED?",),
                ),
                (
                    ("Replay",),
                    (self.replay_evidence(),),
                    ("Which evidence and owner authorize another dispatch?",),
                ),
            ),
        )
        evidence = tuple(_runtime_block(mode, self.run(mode)) for mode in Mode)
        sections = (
            Section(
                SECTION_TITLES[0],
                (
                    Facts(
                        (
                            ("Flow", (self.flow(),)),
                            ("Failure point", (self.failure_point(),)),
                            ("Evidence", (self.evidence(),)),
                            ("Decision", (DECISION,)),
                        )
                    ),
                ),
            ),
            Section(SECTION_TITLES[1], (Bullets(tuple((a,) for a in ASSUMPTIONS)),)),
            Section(SECTION_TITLES[2], (failure_map,)),
            Section(SECTION_TITLES[3], (*evidence, Paragraph((self.summary(),)))),
            Section(
                SECTION_TITLES[4],
                (
                    Callouts(
                        tuple(
                            Callout(r.priority.value, r.title, (r.body,), tone=r.priority.lower())
                            for r in RECOMMENDATIONS
                        )
                    ),
                ),
            ),
            Section(
                SECTION_TITLES[5],
                (Subsection("Before replay", (Bullets(tuple((s,) for s in BEFORE_REPLAY)),)),),
            ),
            Section(SECTION_TITLES[6], (Bullets(tuple((s,) for s in CANNOT_DECIDE)),)),
            Section(
                SECTION_TITLES[7],
                (
                    Paragraph((CLOSING,)),
                    Paragraph(
                        (
                            f"Generated by asyncfail {self.model_version}: ",
                            Code(f"asyncfail review --fault {self.fault}"),
                        )
                    ),
                ),
            ),
        )
        intro = (
            Paragraph(
                (
                    f"{self.lead()} This sample shows how a bounded review could separate "
                    "observed evidence, assumptions, risks, and owned next actions.",
                )
            ),
            Paragraph((SYNTHETIC_NATURE,)),
        )
        return Document(kicker=KICKER, title=TITLE, intro=intro, sections=sections)

    def markdown(self) -> str:
        """The handoff as Markdown."""
        return to_markdown(self.document())

    def html(self, *, standalone: bool = True) -> str:
        """The handoff as a self-contained HTML page (inline style, nothing loaded), or
        (``standalone=False``) an embeddable ``<article>`` with its scoped style sheet."""
        document = self.document()
        return to_html(document) if standalone else to_html_fragment(document)

    def render(self, fmt: ReviewFormat) -> str:
        return self.markdown() if fmt is ReviewFormat.MARKDOWN else self.html()


def _recorded_before_failure(result: LabResult) -> bool:
    failure = fault_event(result)
    return failure is not None and any(
        e.kind is EventKind.TOOL_RESULT_RECORDED and e.seq < failure.seq for e in result.events
    )


def _absence(result: LabResult) -> str:
    """When a trace without a recorded result shows its absence: at restart, timeout or crash."""
    failure = fault_event(result)
    if failure is None:
        return "absent"
    if failure.kind is EventKind.TIMEOUT_OBSERVED:
        return "absent when the worker sees the timeout"
    if any(e.attempt > failure.attempt for e in result.events):
        return "absent when the worker restarts"
    return "absent when the worker crashes"


def _runtime_block(mode: Mode, result: LabResult) -> Subsection:
    counts = result.counts
    return Subsection(
        RUNTIME_NAMES[mode],
        (
            Facts(
                (
                    ("Attempts", (str(counts.attempts),)),
                    ("Effects", (str(counts.effects),)),
                    ("Status", (result.status.value,)),
                )
            ),
            Paragraph(("Events, in trace order:",)),
            Steps(tuple((e.seq, (Code(e.kind.value),)) for e in result.events)),
        ),
    )


def build_review(fault: Fault = SEED_FAULT, *, version: str | None = None) -> Review:
    """Run both runtimes under ``fault`` (default deliveries) and return the review of the two.

    ``version`` names the model in the document; by default the installed package version.
    """
    return Review(
        fault=fault,
        naive=simulate(Scenario(fault=fault, mode=Mode.NAIVE)),
        durable=simulate(Scenario(fault=fault, mode=Mode.DURABLE)),
        model_version=model_version() if version is None else version,
    )
