"""Lesson 6, "How long must records live?" (``notebooks/06_record_lifetime.py``): its controls'
defaults and parsing, the judging of its prediction, and the texts and chart data it derives
from a risk report.

The estimates, the curve, the required retention and the exact answers are the risk wing's
(``asyncfail.risk``); this module only reads a controls' values into a question and a report
into words and chart rows.
"""

from collections.abc import Mapping
from typing import Final

from asyncfail.charts.risk_charts import Bin, CurveRow, Mark, curve_rows, histogram, marks
from asyncfail.ground.durations import Duration, approx, duration_error, human, parse_duration
from asyncfail.ground.prose import chance, percent
from asyncfail.risk.draws import expected_injections
from asyncfail.risk.inputs import (
    BROWSER_TRIALS,
    DEFAULT_INPUTS,
    Jitter,
    RiskInputs,
    command_line,
    parse_probability,
    parse_spread,
)
from asyncfail.risk.report import REAL_RETENTIONS, RiskRun, replays

TARGETS: Final[dict[str, float]] = {chance(p): p for p in (1e-2, 1e-3, 1e-4, 1e-5)}
"""The risk targets offered, in plain words (``1 in 10,000 (0.01 %)``, never ``1e-4``)."""
DEFAULT_TARGET: Final = next(k for k, v in TARGETS.items() if v == DEFAULT_INPUTS.target)
DEFAULT_DELIVERIES: Final = DEFAULT_INPUTS.deliveries
TRIAL_CHOICES: Final[tuple[int, ...]] = (1000, BROWSER_TRIALS, 20_000)

CONTROL_TEXTS: Final[dict[str, str]] = {
    "retention": "86400",
    "crash": str(DEFAULT_INPUTS.crash_probability),
    "replay": str(DEFAULT_INPUTS.replay_median.json_number if DEFAULT_INPUTS.replay_median else ""),
    "spread": str(DEFAULT_INPUTS.replay_spread),
}
"""Where the text fields start: a day of retention, and the risk wing's defaults."""

NONE_OF_THEM: Final = "none of them"
ESTIMATE_LINE: Final = (
    "**{name}**: {p} (95% interval {low} to {high}; {count:,} of {trials:,} trials)"
)
OUTCOME_NAMES: Final = {"duplicate": "Duplicate", "unknown": "Unknown or parked", "lost": "Lost"}
REQUIRED: Final = (
    "**Records must live at least {estimate}** for the estimated duplicate risk to stay below "
    "{target} at every longer retention."
)
NO_RETENTION: Final = (
    "**No retention is enough**: duplicates happen here even with records kept for ever (the "
    "naive loop, or a key per attempt)."
)
CONFIDENT: Final = "With 95% confidence: at least {confident}."
NOT_CONFIDENT: Final = (
    "To show a risk below {target} with 95% confidence, at least {needed:,} trials without a "
    "duplicate are needed; {trials:,} ran."
)
EXACT: Final = (
    "**Exact answer** ({case}): {p}, {inside} the estimate's interval. The estimate and the "
    "exact probability come from the same draw rules."
)
PREDICTION_RIGHT: Final = "Right: {answer}."
PREDICTION_WRONG: Final = "The model says otherwise: {answer}."
KEEPS: Final = "{name}'s {retention} keeps it below the target (estimate {p})"
MISSES: Final = "{name}'s {retention} does not (estimate {p})"


def read_controls(
    texts: Mapping[str, str],
    deliveries: object,
    jitter: str,
    trials: object,
    seed: object,
) -> tuple[RiskInputs, list[str]]:
    """The trials the controls ask for (every input but the target, which changes no trial:
    ``risk.report.trials_question``; the default target stands in), and a line for each text
    that cannot be read (its default is used meanwhile). A change of target alone reruns
    neither these controls' reading nor the trials (``aimed``)."""
    errors: list[str] = []
    fields: dict[str, object] = {
        "jitter": Jitter(jitter),
        "trials": trials if isinstance(trials, int) else BROWSER_TRIALS,
    }
    for name, field, label in (
        ("retention", "retention", "Retention"),
        ("replay", "replay_median", "Median replay delay"),
    ):
        try:
            fields[field] = parse_duration(texts[name])
        except ValueError as error:
            errors.append(duration_error(label, texts[name], str(error)))
    try:
        fields["crash_probability"] = parse_probability(texts["crash"])
    except ValueError as error:
        errors.append(f"Crash probability: {error}")
    try:
        fields["replay_spread"] = parse_spread(texts["spread"])
    except ValueError as error:
        errors.append(f"Replay spread: {error}")
    if isinstance(deliveries, int) and 1 <= deliveries <= 9:
        fields["deliveries"] = deliveries
    if isinstance(seed, int) and seed >= 0:
        fields["seed"] = seed
    retention = fields.pop("retention", Duration.of_seconds(86_400))
    fields["settings"] = {"retention": retention}
    return RiskInputs.model_validate(fields), errors


def aimed(question: RiskInputs, target: str) -> RiskInputs:
    """``question`` with the target the dropdown names (``TARGETS``; an unknown name keeps the
    default target)."""
    return question.model_copy(update={"target": TARGETS.get(target, DEFAULT_INPUTS.target)})


def estimate_lines(run: RiskRun) -> str:
    """The three estimates at the chosen retention (Markdown)."""
    r = run.report
    return "\n\n".join(
        ESTIMATE_LINE.format(
            name=OUTCOME_NAMES[name],
            p=chance(e.probability),
            low=percent(e.low),
            high=percent(e.high),
            count=e.count,
            trials=r.trials,
        )
        for name, e in (("duplicate", r.duplicate), ("unknown", r.unknown), ("lost", r.lost))
    )


def required_text(run: RiskRun) -> str:
    """What retention the target requires, with its uncertainty (Markdown)."""
    r, req = run.report, run.report.required
    if req.estimate is None:
        return NO_RETENTION
    target = chance(req.target)
    lines = [REQUIRED.format(estimate=approx(req.estimate, up=True), target=target)]
    if req.confident is not None:
        lines.append(CONFIDENT.format(confident=approx(req.confident, up=True)))
    else:
        lines.append(NOT_CONFIDENT.format(target=target, needed=req.trials_needed, trials=r.trials))
    if r.exact is not None:
        inside = r.duplicate.low <= r.exact.probability <= r.duplicate.high
        lines.append(
            EXACT.format(
                case=r.exact.case,
                p=chance(r.exact.probability),
                inside="inside" if inside else "outside",
            )
        )
    return "\n\n".join(lines)


def prediction_options() -> list[str]:
    """The predictions offered: each real default, then none of them."""
    return [f"{name} ({human(d)})" for name, d in REAL_RETENTIONS] + [NONE_OF_THEM]


def judge(run: RiskRun, guess: str) -> tuple[bool, str]:
    """Whether a guess names a default that keeps the risk below the target (or rightly says
    none does), and the sentence that says what the model found."""
    n = run.report.trials
    found = [(name, r, run.steps.at(r) / n) for name, r in REAL_RETENTIONS]
    target = run.report.required.target
    keeping = [(name, r, p) for name, r, p in found if p < target]
    said = "; ".join(
        (KEEPS if p < target else MISSES).format(name=name, retention=human(r), p=chance(p))
        for name, r, p in found
    )
    if guess == NONE_OF_THEM:
        right = not keeping
    else:
        right = any(guess.startswith(name + " ") for name, _, _ in keeping)
    return right, (PREDICTION_RIGHT if right else PREDICTION_WRONG).format(answer=said)


def chosen_mark(inputs: RiskInputs) -> Mark:
    """The chosen retention as a rule on the charts' axis (records kept for ever: at the axis'
    end, 30 days)."""
    retention = inputs.settings.retention or Duration.of_seconds(2_592_000)
    return marks([("your retention", retention.millis)])[0]


def chart_data(run: RiskRun) -> tuple[list[CurveRow], list[Mark], Mark]:
    """The curve, the real defaults and the chosen retention."""
    curve = curve_rows(
        [
            (p.retention.millis, p.duplicate.probability, p.duplicate.low, p.duplicate.high)
            for p in run.report.curve
        ]
    )
    defaults = marks([(name, d.millis) for name, d in REAL_RETENTIONS])
    return curve, defaults, chosen_mark(run.report.inputs)


def histogram_data(question: RiskInputs) -> list[Bin]:
    """The replay histogram of the trials of ``question`` (their draws alone: no trial runs)."""
    return histogram(replays(question))


def histogram_description(question: RiskInputs, bins: list[Bin]) -> str:
    """The histogram in words, for screen readers and static pages (its counts are in its
    table)."""
    retention = question.settings.retention
    yours = f"Your retention: {'records kept for ever' if retention is None else human(retention)}."
    drawn = sum(b["count"] for b in bins)
    if drawn == 0:
        return f"No trial draws a replay: operators never replay here. {yours}"
    fullest = max(bins, key=lambda b: b["count"])
    return (
        f"Replay delays drawn in {drawn:,} of {question.trials:,} trials, seed {question.seed}, "
        f"counted in bins from 1 s to 30 days; the fullest bin: {fullest['text']}. {yours}"
    )


def curve_description(run: RiskRun) -> str:
    """The curve in words, for screen readers and static pages."""
    r = run.report
    points = "; ".join(
        f"{approx(p.retention)}: {chance(p.duplicate.probability)}" for p in r.curve[::5]
    )
    return (
        f"Duplicate risk against retention, {r.trials:,} trials, seed {r.seed}, each estimate "
        f"with its 95% interval in the table. Estimates: {points}."
    )


INJECTION_BUDGET: Final = 40_000
"""The most injections one recompute of the lesson draws on average (``expected_injections``
times the trials): at most about 1.5 s of CPython on the course's two-core machine (`make
bench`, lesson 6's worst setting), where 20,000 trials at 9 deliveries and a crash probability
of 0.5 would draw 400,000 and take 13 s."""
TRIALS_CUT: Final = (
    "With these settings a trial draws about {per_trial} injections, and the model runs every "
    "such trial anew, so the lesson ran {ran:,} of the {asked:,} trials asked: its intervals "
    "are wider. The command runs them all: `{command}`"
)


def fitted(inputs: RiskInputs) -> tuple[RiskInputs, str | None]:
    """The question the lesson runs, and what it says when it cut the trials. Rule: the trials
    are kept while they draw at most ``INJECTION_BUDGET`` injections on average; beyond, they are
    cut to the most whole thousands that fit, and never below 1,000 (the fewest the lesson
    offers)."""
    per_trial = expected_injections(inputs)
    if inputs.trials * per_trial <= INJECTION_BUDGET:
        return inputs, None
    ran = max(1000, int(INJECTION_BUDGET / per_trial) // 1000 * 1000)
    said = TRIALS_CUT.format(
        per_trial=f"{per_trial:.3g}", ran=ran, asked=inputs.trials, command=command_line(inputs)
    )
    return inputs.model_copy(update={"trials": ran}), said
