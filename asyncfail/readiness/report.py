"""The replay-readiness report: the checks of one design, rendered as Markdown or HTML.

``assess(design)`` returns a ``ReadinessReport`` that stores only the design; the checks and the
open questions are derived from it, so a report cannot disagree with its own inputs.
"""

from typing import Final, assert_never

from pydantic import BaseModel, computed_field

from asyncfail.contract.terms import SCOPE_WORDS, KeyScope
from asyncfail.document.html_page import to_html, to_html_fragment
from asyncfail.document.markdown import to_markdown
from asyncfail.document.markup import (
    Bullets,
    Callout,
    Callouts,
    Document,
    Paragraph,
    Section,
    Table,
    Tone,
    plain,
)
from asyncfail.ground.frozen import FROZEN
from asyncfail.ground.prose import quoted
from asyncfail.ground.seed import CANNOT_DECIDE
from asyncfail.readiness.checks import CHECKS
from asyncfail.readiness.design import (
    QUESTIONS,
    Answer,
    ReplayDesign,
    StatedDuration,
    named,
    open_questions,
)
from asyncfail.readiness.verdict import STATUS_LABELS, Check, CheckId, CheckStatus

REPORT_KICKER: Final = "Replay-readiness checklist · your answers, not a review of your system"
REPORT_TITLE: Final = "Replay-readiness report"
REPORT_CLOSING: Final = (
    "This report restates your answers against the sample handoff's recommendations and the "
    "idempotency contract experiment; it has not inspected your system. A real review replaces "
    "these answers with your authorized evidence, names the unknowns, and leaves implementation "
    "and operational ownership with your team."
)

_TONE: Final[dict[CheckStatus, Tone]] = {
    CheckStatus.MET: Tone.MET,
    CheckStatus.UNMET: Tone.UNMET,
    CheckStatus.UNKNOWN: Tone.UNKNOWN,
}


class ReadinessReport(BaseModel):
    """The checklist's answer to one design. Only the design is stored; the checks and the open
    questions are derived from it, so a report cannot disagree with its own inputs."""

    model_config = FROZEN

    design: ReplayDesign

    @computed_field  # type: ignore[prop-decorator]
    @property
    def checks(self) -> tuple[Check, ...]:
        """One check per entry of ``CHECKS``, in that order. Not cached: ``model_copy`` would
        carry a cache over to a report whose design changed."""
        return tuple(check(self.design) for check in CHECKS.values())

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
                "What this checklist cannot decide",
                (Bullets(tuple((s,) for s in CANNOT_DECIDE)),),
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


def answer_text(value: StatedDuration | KeyScope | Answer | str | None) -> str:
    """An answer as the report's design table says it: ``unknown``, a duration in the
    learner's own terms, the key's scope in words, yes or no, an owner quoted or ``not named``."""
    match value:
        case None:
            return "unknown"
        case StatedDuration():
            return value.describe()
        case KeyScope():
            return SCOPE_WORDS[value]
        case Answer():
            return value.value
        case str():
            return quoted(plain(value)) if named(value) else "not named"
        case _:
            assert_never(value)


def _design_table(design: ReplayDesign) -> Table:
    return Table(
        header=("Question", "Your answer"),
        rows=tuple(
            ((question,), (answer_text(getattr(design, field)),))
            for field, question in QUESTIONS.items()
        ),
    )


def assess(design: ReplayDesign) -> ReadinessReport:
    """The readiness report for one design."""
    return ReadinessReport(design=design)
