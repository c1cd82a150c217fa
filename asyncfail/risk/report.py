"""The risk report: what the trials say at the chosen retention, the duplicate risk at every
retention, the retention a target risk requires, and the exact answer where there is one.

Rules. Duplicate, unknown (unknown or parked: nobody knows yet) and lost are read at the
settings' retention (records kept for ever when it is none), each as an ``Estimate``. The
duplicate risk at a retention R counts the trials whose outcome at R is a duplicate
(``Trial.at``). The required retention is the smallest R from which on every longer retention's
estimate is below the target; the confident one asks the same of the Wilson interval's upper end,
and when even no duplicate at all could not show that, the report says how many trials would.
"""

import math
from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property, lru_cache
from itertools import accumulate
from typing import Final

from pydantic import BaseModel, Field

from asyncfail.ground.durations import MAX_DURATION, ClockTime, Duration
from asyncfail.ground.frozen import FROZEN
from asyncfail.lab.reading import Outcome
from asyncfail.risk.draws import Drawer
from asyncfail.risk.estimates import Z95, Estimate, estimate, rank_of, wilson
from asyncfail.risk.exact import ExactAnswer, exact_duplicate
from asyncfail.risk.inputs import DEFAULT_INPUTS, RiskInputs
from asyncfail.risk.trials import PROGRESS_EVERY, Trial, run_trials

NOT_KNOWN: Final = frozenset({Outcome.UNKNOWN, Outcome.PARKED})
"""Outcomes that say nobody knows yet whether the debit happened."""

REAL_RETENTIONS: Final[tuple[tuple[str, Duration], ...]] = (
    ("Powertools", Duration.of_seconds(3600)),
    ("Stripe", Duration.of_seconds(86_400)),
    ("Restate", Duration.of_seconds(86_400)),
    ("Brandur Leach", Duration.of_seconds(72 * 3600)),
    ("Temporal Cloud", Duration.of_seconds(30 * 86_400)),
)
"""Real systems' default retention of idempotency or deduplication state: AWS Lambda
Powertools' idempotency expires_after_seconds (3600 s); Stripe prunes idempotency keys after
24 hours; Restate keeps an invocation's idempotency key for a day by default; Brandur Leach's
reaper removes keys after 72 hours; Temporal Cloud's default namespace retention is 30 days."""

CURVE_POINTS: Final = 41
"""How many retentions the curve samples, evenly on a log scale from 1 s to 30 days."""


class CurvePoint(BaseModel):
    """The duplicate risk at one retention."""

    model_config = FROZEN

    retention: Duration
    duplicate: Estimate


class Settlement(BaseModel):
    """When runs settled (their last event), as quantiles of the trials."""

    model_config = FROZEN

    median: ClockTime
    p90: ClockTime
    p99: ClockTime
    longest: ClockTime


class Required(BaseModel):
    """The retention a target duplicate risk requires."""

    model_config = FROZEN

    target: float
    estimate: ClockTime | None = Field(
        description="The smallest retention from which on the estimate is below the target; "
        "null when no retention is enough."
    )
    confident: ClockTime | None = Field(
        description="The same for the upper end of the 95% interval; null when no retention "
        "is enough, or too few trials ran to show it."
    )
    trials_needed: int = Field(
        description="Trials without a single duplicate it takes for the interval's upper end "
        "to fall below the target."
    )


class RiskReport(BaseModel):
    """What ``asyncfail risk`` prints."""

    model_config = FROZEN

    trials: int
    seed: int
    inputs: RiskInputs
    retention: Duration | None
    duplicate: Estimate
    unknown: Estimate
    lost: Estimate
    settled: Settlement
    curve: tuple[CurvePoint, ...]
    required: Required
    exact: ExactAnswer | None


TALLIES_KEPT: Final = 8
"""How many questions' trials ``assess`` keeps tallied (oldest forgotten first): a learner who
moves only the target (lesson 6) gets the report again without running the trials again."""


@dataclass(frozen=True)
class RiskRun:
    """A report, and the duplicate counts at every retention behind it (``steps``).

    The trials themselves are not kept (a million of them would hold hundreds of MB): ``trials``
    runs them again from the inputs, the same trials by the seed, when first asked."""

    report: RiskReport
    steps: "Steps"

    @cached_property
    def trials(self) -> tuple[Trial, ...]:
        """Every trial of the report, run again from its inputs (the same, by the seed)."""
        return tuple(run_trials(self.report.inputs))

    def replays(self) -> list[int]:
        """The replay delay of every trial that has one (``replays``)."""
        return replays(self.report.inputs)


def replays(inputs: RiskInputs) -> list[int]:
    """The replay delay of every trial of ``inputs`` that has one, in ms, in trial order: the
    trials' draws made again from the seed, without running them (a chart's data, at the cost
    of the draws alone). The target changes no trial, so it changes none of them."""
    return list(_replays(trials_question(inputs)))


@lru_cache(maxsize=TALLIES_KEPT)
def _replays(question: RiskInputs) -> tuple[int, ...]:
    """``replays`` of a trials question, kept for the last ``TALLIES_KEPT``."""
    drawer = Drawer(question)
    drawn = (drawer.draw().replay for _ in range(question.trials))
    return tuple(replay for replay in drawn if replay is not None)


def curve_retentions() -> tuple[Duration, ...]:
    """The retentions the curve samples: 1 s to 30 days on a log scale, whole milliseconds."""
    low, high = 1000, MAX_DURATION.millis
    ratio = (high / low) ** (1 / (CURVE_POINTS - 1))
    return tuple(Duration(round(low * ratio**i)) for i in range(CURVE_POINTS))


@dataclass(frozen=True, slots=True)
class Steps:
    """The count of duplicates as a step function of the retention (whole ms): it is
    ``counts[i]`` from ``starts[i]`` until the next start, and ``forever`` with records kept for
    ever. A duplicate segment (low, high] adds one from low + 1 and removes it from high + 1."""

    starts: tuple[int, ...]
    counts: tuple[int, ...]
    forever: int

    @classmethod
    def of(cls, trials: Iterable[Trial]) -> "Steps":
        changes: dict[int, int] = {}
        forever = 0
        for t in trials:
            forever += count_changes(t, changes)
        return cls.from_changes(changes, forever)

    @classmethod
    def from_changes(cls, changes: dict[int, int], forever: int) -> "Steps":
        """The steps of the changes ``count_changes`` gathered."""
        starts = tuple(sorted(changes))
        counts, count = [], 0
        for at in starts:
            count += changes[at]
            counts.append(count)
        return cls(starts, tuple(counts), forever)

    def at(self, retention: Duration | None) -> int:
        """How many trials debit twice at ``retention`` (None: records kept for ever)."""
        if retention is None:
            return self.forever
        i = bisect_right(self.starts, retention.millis)
        return self.counts[i - 1] if i else 0

    def smallest_safe(self, allowed: int) -> Duration | None:
        """The smallest retention from which on at most ``allowed`` trials debit twice at
        every longer retention; None when even records kept for ever leave more."""
        if self.forever > allowed:
            return None
        safe_from = 0
        for i, count in enumerate(self.counts):
            if count > allowed:
                # The count changes again at the next start: the last count is ``forever``.
                safe_from = self.starts[i + 1]
        return Duration(safe_from)


def count_changes(trial: Trial, changes: dict[int, int]) -> int:
    """Add ``trial``'s duplicate segments to ``changes`` (+1 at low + 1, -1 at high + 1); 1 if
    it debits twice with records kept for ever, else 0."""
    forever = 0
    for s in trial.segments:
        if s.outcome is not Outcome.DUPLICATE:
            continue
        changes[s.low + 1] = changes.get(s.low + 1, 0) + 1
        if s.high is None:
            forever += 1
        else:
            changes[s.high + 1] = changes.get(s.high + 1, 0) - 1
    return forever


class Tally:
    """What the report needs of the trials, gathered one trial at a time and nothing more: the
    duplicate count's changes by retention, the outcomes at the report's retention, and how
    many runs settled at each time. Memory grows with the distinct values, not the trials."""

    def __init__(self, retention: Duration | None) -> None:
        self.retention = retention
        self.trials = 0
        self.changes: dict[int, int] = {}
        self.forever = 0
        self.outcomes: Counter[Outcome] = Counter()
        self.settled: Counter[int] = Counter()

    def add(self, trial: Trial) -> None:
        self.trials += 1
        self.forever += count_changes(trial, self.changes)
        here = trial.at(self.retention)
        self.outcomes[here.outcome] += 1
        self.settled[here.settled] += 1

    def steps(self) -> Steps:
        return Steps.from_changes(self.changes, self.forever)

    def settlement(self) -> "Settlement":
        values = sorted(self.settled)
        ranks = list(accumulate(self.settled[v] for v in values))

        def at(q: float) -> Duration:
            return Duration(values[bisect_left(ranks, rank_of(q, self.trials))])

        return Settlement(median=at(0.5), p90=at(0.9), p99=at(0.99), longest=Duration(values[-1]))


def trials_needed(target: float) -> int:
    """How many trials without a duplicate bring Wilson's upper end below ``target``: with no
    success it is z²/(n + z²), below t once n > z²(1 - t)/t. Worked out exactly (on the
    floats' exact values): a target as small as 5e-324 needs a number no float holds."""
    if target <= 0:
        return 0
    t = Fraction(target)
    return math.floor(Fraction(Z95) ** 2 * (1 - t) / t) + 1


def allowed_count(trials: int, target: float, *, confident: bool) -> int:
    """The most duplicates ``trials`` may hold and still show a risk below ``target``: by the
    estimate (count / trials < target), or by the interval's upper end (-1: not even none)."""
    if not confident:
        return math.ceil(target * trials) - 1
    allowed = -1
    for count in range(0, trials + 1):
        if wilson(count, trials)[1] >= target:
            break
        allowed = count
    return allowed


_TALLIED: dict[RiskInputs, "Tally"] = {}


def trials_question(inputs: RiskInputs) -> RiskInputs:
    """The part of ``inputs`` its trials depend on: all of it but the target. The trials never
    read the target (``run_trials``, ``Drawer``); the report reads it from their tally."""
    return inputs.model_copy(update={"target": DEFAULT_INPUTS.target})


def tallied(inputs: RiskInputs, progress: Callable[[int], object] | None = None) -> "Tally":
    """The tally of every trial of ``inputs``, run now or kept from a question with the same
    trials (``trials_question``, ``TALLIES_KEPT``); ``progress`` is told how many more trials
    are done every ``PROGRESS_EVERY`` trials, and all of them at once when they were kept. A
    kept tally is never changed: it is read, as a new one would be."""
    key = trials_question(inputs)
    kept = _TALLIED.pop(key, None)
    if kept is None:
        kept = Tally(inputs.settings.retention)
        for trial in run_trials(inputs):
            kept.add(trial)
            if progress is not None and kept.trials % PROGRESS_EVERY == 0:
                progress(PROGRESS_EVERY)
    elif progress is not None:
        progress(kept.trials)
    if len(_TALLIED) >= TALLIES_KEPT:
        _TALLIED.pop(next(iter(_TALLIED)), None)
    _TALLIED[key] = kept  # the newest last: dicts keep insertion order
    return kept


def assess(inputs: RiskInputs, progress: Callable[[int], object] | None = None) -> RiskRun:
    """Run every trial of ``inputs`` and report (this module's rules); ``progress`` is told how
    many more trials are done every ``PROGRESS_EVERY`` trials (a lesson's progress bar, the
    CLI's progress line). The trials are tallied as they run (``Tally``), never kept; the
    tallies of the last questions are (``tallied``)."""
    return report_of(inputs, tallied(inputs, progress))


def report_of(inputs: RiskInputs, tally: "Tally") -> RiskRun:
    """The report of ``inputs`` from ``tally``, the tally of its trials (``tallied`` of its
    ``trials_question``): a lesson that keeps the tally reports another target from it without
    running or looking up the trials again. A tally whose count or retention is not the
    question's is refused (``ValueError``); one of other draws (another seed, say) cannot be
    told apart, so a caller passes the tally it made from this question."""
    retention = inputs.settings.retention
    if tally.trials != inputs.trials or tally.retention != retention:
        raise ValueError(
            f"a tally of {tally.trials} trials at retention {tally.retention} cannot report "
            f"{inputs.trials} trials at retention {retention}"
        )
    n = tally.trials
    steps = tally.steps()
    outcomes = tally.outcomes
    confident_allowed = allowed_count(n, inputs.target, confident=True)
    report = RiskReport(
        trials=n,
        seed=inputs.seed,
        inputs=inputs,
        retention=retention,
        duplicate=estimate(outcomes[Outcome.DUPLICATE], n),
        unknown=estimate(sum(outcomes[o] for o in NOT_KNOWN), n),
        lost=estimate(outcomes[Outcome.LOST], n),
        settled=tally.settlement(),
        curve=tuple(
            CurvePoint(retention=r, duplicate=estimate(steps.at(r), n)) for r in curve_retentions()
        ),
        required=Required(
            target=inputs.target,
            estimate=steps.smallest_safe(allowed_count(n, inputs.target, confident=False)),
            confident=None if confident_allowed < 0 else steps.smallest_safe(confident_allowed),
            trials_needed=trials_needed(inputs.target),
        ),
        exact=exact_duplicate(inputs),
    )
    return RiskRun(report, steps)
