"""The reliability review handoff, generated from the model at the moment it is asked for.

``build_review(fault)`` runs the runtime under review (the naive loop, as in the seed, or
``mode=Mode.CHECKPOINT``, a durable engine's step) and the durable runtime under one fault;
``Review`` words the two results as the seed's handoff. Every figure, event list and every
sentence about where the failure struck comes from facts the lab reads off the two traces
(``asyncfail.lab.reading``) or, for what a fault is, from its definition
(``asyncfail.lab.faults``), so if the model changed, the document would change with it. Fixed
prose (recommendations, the handoff checklist, the caveats) is the seed's (``ground.seed``).
"""

from collections.abc import Callable
from enum import StrEnum
from typing import Final, assert_never

from pydantic import BaseModel, model_validator

from asyncfail.document.html_page import to_html, to_html_fragment
from asyncfail.document.markdown import to_markdown
from asyncfail.document.markup import (
    Block,
    Bullets,
    Callout,
    Callouts,
    Code,
    Document,
    Facts,
    Paragraph,
    Rich,
    Section,
    Steps,
    Strong,
    Subsection,
    Table,
    Tone,
)
from asyncfail.ground import seed
from asyncfail.ground.frozen import FROZEN
from asyncfail.ground.prose import capitalised, counted, joined, quoted
from asyncfail.ground.seed import Boundary, HandoffSection, Priority
from asyncfail.ground.version import VERSION
from asyncfail.lab.events import Event, EventKind, has_kind
from asyncfail.lab.faults import FAULT_POINT, POINT_PROSE, Fault
from asyncfail.lab.reading import (
    Order,
    ResultRecord,
    failure_event,
    order_of,
    recovery_of,
    result_record_of,
)
from asyncfail.lab.results import LabResult
from asyncfail.lab.scenario import (
    MODE_TITLES,
    SEED_FAULT,
    Mode,
    Scenario,
    option,
    option_value,
)
from asyncfail.lab.settings import DEFAULT_SETTINGS, LabSettings
from asyncfail.lab.simulation import simulate
from asyncfail.review.runtimes import COMPARED_WITH, REVIEWED_MODES, review_refusal
from asyncfail.review.words import ABSENCE, BROKEN_HERE, FAILED_FOR_GOOD, ORDER_PLACE, RECOVERY

_PRIORITY_TONE: Final[dict[Priority, Tone]] = {Priority.P0: Tone.P0, Priority.P1: Tone.P1}


def model_version() -> str:
    """The asyncfail release, from the package itself, so it is right in a WebAssembly wheel
    too (where package metadata names a build, not the release)."""
    return VERSION


class ReviewFormat(StrEnum):
    """The renderings of a review."""

    MARKDOWN = "markdown"
    HTML = "html"


class Review(BaseModel):
    """The two runs a handoff is generated from: the runtime under review (the seed's naive
    loop, or the checkpoint runtime: ``REVIEWED_MODES``) and the durable runtime.

    Rule: both runs share the fault, the delivery budget and the settings; the document is a
    pure function of them and of the model version it names.
    """

    model_config = FROZEN

    fault: Fault
    reviewed: LabResult
    durable: LabResult
    model_version: str

    @model_validator(mode="after")
    def _runs_match(self) -> "Review":
        reviewed, durable = self.reviewed, self.durable
        if reviewed.mode not in REVIEWED_MODES or durable.mode is not COMPARED_WITH:
            accepted = " or ".join(m.value for m in REVIEWED_MODES)
            raise ValueError(
                f"reviewed must be a run of the {accepted} runtime, durable of the "
                f"{COMPARED_WITH} runtime"
            )
        if not reviewed.fault is durable.fault is self.fault:
            raise ValueError("both runs must be of the review's fault")
        if reviewed.deliveries != durable.deliveries:
            raise ValueError("both runs must have the same delivery budget")
        if reviewed.settings != durable.settings:
            raise ValueError("both runs must have the same settings")
        return self

    @property
    def settings(self) -> LabSettings:
        return self.durable.settings

    @property
    def mode(self) -> Mode:
        """The runtime under review."""
        return self.reviewed.mode

    @property
    def modes(self) -> tuple[Mode, Mode]:
        """The two runtimes, in the document's order: the one under review, then durable."""
        return (self.reviewed.mode, self.durable.mode)

    def run(self, mode: Mode) -> LabResult:
        return self.durable if mode is COMPARED_WITH else self.reviewed

    @property
    def runs(self) -> tuple[LabResult, LabResult]:
        return (self.reviewed, self.durable)

    # -- derived sentences -----------------------------------------------------------------

    def _injection(self) -> str:
        """``injected crash``, ``injected reply loss``: the fault's failure, named."""
        point = FAULT_POINT[self.fault]
        return "" if point is None else f"injected {POINT_PROSE[point].name}"

    def _per_runtime(self, phrases: dict[Mode, str]) -> str:
        """One phrase if both runtimes agree, otherwise one per runtime, the one under review
        first; capitalised."""
        if len(set(phrases.values())) == 1:
            return capitalised(phrases[self.mode])
        return capitalised("; ".join(f"{MODE_TITLES[m].lower()}: {phrases[m]}" for m in self.modes))

    def _no_failure(self) -> bool:
        return all(failure_event(r.events) is None for r in self.runs)

    def lead(self) -> str:
        """The opening sentence: what happens to the first delivery, as the traces show it."""
        point = FAULT_POINT[self.fault]
        orders = {order_of(r.events) for r in self.runs}
        if point is None or orders == {Order.NO_FAULT}:
            return "One virtual debit is delivered, and no fault is injected."
        if orders == {Order.EFFECT_FIRST}:
            opening = "One virtual debit succeeds, then "
        elif orders <= {Order.FAULT_FIRST, Order.NO_EFFECT}:
            opening = "Before any virtual debit is applied, "
        else:
            opening = "In the first delivery, "
        return f"{opening}{POINT_PROSE[point].clause}."

    def flow(self) -> str:
        if FAULT_POINT[self.fault] is None:
            return "One virtual debit operation and no injected fault"
        return f"One virtual debit operation and one {self._injection()}"

    def failure_point(self) -> str:
        point = FAULT_POINT[self.fault]
        if point is None:
            return "None: no fault is injected"
        phrases = {mode: ORDER_PLACE[order_of(self.run(mode).events)] for mode in self.modes}
        return f"{self._per_runtime(phrases)}, {POINT_PROSE[point].place}"

    def evidence(self) -> str:
        traces = counted(len(self.runs), "deterministic trace", words=True)
        return (
            f"{capitalised(traces)} generated by the asyncfail model, version {self.model_version}"
        )

    def presence(self, kind: EventKind) -> str:
        """In which traces an event of ``kind`` is recorded."""
        present = [mode for mode in self.modes if has_kind(self.run(mode).events, kind)]
        if not present:
            return "Recorded in neither trace"
        if len(present) == len(self.modes):
            return "Recorded in both traces"
        return f"Recorded only in the {present[0]} trace"

    def effect_evidence(self) -> str:
        phrases: dict[Mode, str] = {}
        for mode in self.modes:
            order = order_of(self.run(mode).events)
            if order is Order.NO_FAULT or FAULT_POINT[self.fault] is None:
                phrases[mode] = "the virtual debit happens with no injected fault"
            elif order is Order.NO_EFFECT:
                phrases[mode] = "no virtual debit happens"
            elif order is Order.EFFECT_FIRST:
                phrases[mode] = f"the virtual debit happens before the {self._injection()}"
            else:
                phrases[mode] = f"the virtual debit happens only after the {self._injection()}"
        return self._per_runtime(phrases)

    def result_evidence(self) -> str:
        if FAULT_POINT[self.fault] is None or self._no_failure():
            return self.presence(EventKind.TOOL_RESULT_RECORDED)
        records = {mode: result_record_of(self.run(mode).events) for mode in self.modes}
        first = [mode for mode in self.modes if records[mode] is ResultRecord.BEFORE_FAILURE]
        if first:
            where = (
                "in both traces"
                if len(first) == len(self.modes)
                else f"only in the {first[0]} trace"
            )
            return f"Recorded before the {self._injection()} {where}"
        return self._per_runtime({mode: ABSENCE[records[mode]] for mode in self.modes})

    def replay_evidence(self) -> str:
        if self._no_failure():
            return "Nothing is replayed: no fault is injected"
        phrases = (f"{mode.value} {self._recovery(self.run(mode).events)}" for mode in self.modes)
        return capitalised("; ".join(phrases))

    @staticmethod
    def _recovery(events: tuple[Event, ...]) -> str:
        """What the run did after its failure: its route's phrase, or that its workflow failed
        for good."""
        if has_kind(events, EventKind.WORKFLOW_FAILED):
            return FAILED_FOR_GOOD
        return RECOVERY[recovery_of(events)]

    def summary(self) -> str:
        """The evidence summary's closing sentences, from the counts and the durable status; the
        seed's "with the stated durable-runtime assumptions" only when none is broken."""
        reviewed, durable = self.reviewed.counts, self.durable.counts
        broken = [str(b.assumption) for b in self.durable.broken_assumptions]
        condition = (
            f"With the durable runtime and assumption {joined(broken)} set aside"
            if broken
            else "With the stated durable-runtime assumptions"
        )
        return (
            f"The model produces {counted(reviewed.attempts, 'attempt', words=True)} and "
            f"{counted(reviewed.effects, 'effect', words=True)} for the "
            f"{MODE_TITLES[self.mode].lower()}. {condition}, "
            "it produces "
            f"{counted(durable.attempts, 'attempt', words=True)} and "
            f"{counted(durable.effects, 'modeled effect', words=True)}, then reports "
            f"{quoted(f'{self.durable.status}.')}"
        )

    # -- the document, section by section --------------------------------------------------

    def _scope(self) -> tuple[Block, ...]:
        values = (self.flow(), self.failure_point(), self.evidence(), seed.DECISION)
        return (
            Facts(
                tuple(
                    (term, (value,)) for term, value in zip(seed.SCOPE_TERMS, values, strict=True)
                )
            ),
        )

    def _assumptions(self) -> tuple[Block, ...]:
        """The seed's assumptions, each one this run's settings break followed by what does."""
        broken = {b.assumption: b.by for b in self.durable.broken_assumptions}
        items: list[Rich] = []
        for number, text in enumerate(seed.ASSUMPTIONS, start=1):
            item: Rich = (text,)
            if number in broken:
                item += (" ", Strong(BROKEN_HERE), f" {'; '.join(broken[number])}.")
            items.append(item)
        return (Bullets(tuple(items)),)

    def boundary_evidence(self, boundary: Boundary) -> str:
        """The failure map's evidence at one boundary, as its row says it."""
        match boundary:
            case Boundary.DISPATCH_INTENT:
                return self.presence(EventKind.DISPATCH_INTENT_RECORDED)
            case Boundary.EXTERNAL_EFFECT:
                return self.effect_evidence()
            case Boundary.RECORDED_RESULT:
                return self.result_evidence()
            case Boundary.REPLAY:
                return self.replay_evidence()
            case _:
                assert_never(boundary)

    def _failure_map(self) -> tuple[Block, ...]:
        rows = tuple(
            ((b.value,), (self.boundary_evidence(b),), (seed.REVIEW_QUESTIONS[b],))
            for b in Boundary
        )
        return (Table(header=seed.FAILURE_MAP_HEADER, rows=rows),)

    def _evidence(self) -> tuple[Block, ...]:
        return (
            *(_runtime_block(mode, self.run(mode)) for mode in self.modes),
            Paragraph((self.summary(),)),
        )

    def _recommendations(self) -> tuple[Block, ...]:
        callouts = tuple(
            Callout(r.priority.value, r.title, (r.body,), tone=_PRIORITY_TONE[r.priority])
            for r in seed.RECOMMENDATIONS.values()
        )
        return (Callouts(callouts),)

    def _handoff(self) -> tuple[Block, ...]:
        steps = Bullets(tuple((s,) for s in seed.BEFORE_REPLAY))
        return (Subsection(seed.BEFORE_REPLAY_TITLE, (steps,)),)

    def _cannot_decide(self) -> tuple[Block, ...]:
        bullets = [(s,) for s in seed.CANNOT_DECIDE]
        broken = [b.assumption for b in self.durable.broken_assumptions]
        if broken:
            numbers = joined([str(n) for n in broken])
            bullets.append(
                (f"How far these traces carry over: this run sets aside assumption {numbers} "
                 "above, so its figures describe that setting, not the seed's.",)
            )  # fmt: skip
        return (Bullets(tuple(bullets)),)

    def _closing(self) -> tuple[Block, ...]:
        mode = "" if self.mode is Mode.NAIVE else f" --mode {self.mode}"
        options = "".join(
            f" {option(name)} {option_value(getattr(self.settings, name))}"
            for name in self.settings.changed()
        )
        command = Code(f"asyncfail review --fault {self.fault}{mode}{options}")
        generated = Paragraph((f"Generated by asyncfail {self.model_version}: ", command))
        return (Paragraph((seed.CLOSING,)), generated)

    def document(self) -> Document:
        """The handoff as a document: each of the seed's sections, in its order."""
        builders: dict[HandoffSection, Callable[[], tuple[Block, ...]]] = {
            HandoffSection.SCOPE: self._scope,
            HandoffSection.ASSUMPTIONS: self._assumptions,
            HandoffSection.FAILURE_MAP: self._failure_map,
            HandoffSection.EVIDENCE: self._evidence,
            HandoffSection.RECOMMENDATIONS: self._recommendations,
            HandoffSection.HANDOFF: self._handoff,
            HandoffSection.CANNOT_DECIDE: self._cannot_decide,
            HandoffSection.CLOSING: self._closing,
        }
        intro = (
            Paragraph((f"{self.lead()} {seed.PURPOSE}",)),
            Paragraph((seed.SYNTHETIC_NATURE,)),
        )
        sections = tuple(Section(title.value, builders[title]()) for title in HandoffSection)
        return Document(kicker=seed.KICKER, title=seed.TITLE, intro=intro, sections=sections)

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


def _runtime_block(mode: Mode, result: LabResult) -> Subsection:
    counts = result.counts
    return Subsection(
        MODE_TITLES[mode],
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


def build_review(
    fault: Fault = SEED_FAULT,
    *,
    mode: Mode = Mode.NAIVE,
    settings: LabSettings = DEFAULT_SETTINGS,
    version: str | None = None,
) -> Review:
    """Run the runtime under review (``mode``: the naive loop by default, as in the seed, or the
    checkpoint runtime) and the durable runtime under ``fault`` and ``settings`` (default
    deliveries) and return the review of the two.

    Raises ``ValueError`` with ``review_refusal``'s sentence for a review that cannot run.
    ``version`` names the model in the document; by default the installed package version.
    """
    refusal = review_refusal(mode, settings)
    if refusal is not None:
        raise ValueError(refusal)
    return Review(
        fault=fault,
        reviewed=simulate(Scenario(fault=fault, mode=mode, settings=settings)),
        durable=simulate(Scenario(fault=fault, mode=COMPARED_WITH, settings=settings)),
        model_version=model_version() if version is None else version,
    )
