"""The text formats of ``asyncfail explore`` and ``asyncfail risk``: sentences a learner can
quote, each term said where it appears, chances as "1 in 400 (0.25 %)" (``prose.chance``).

The JSON formats carry the same figures under their field names; only the words live here.
"""

import re
import textwrap
from typing import Final

from asyncfail.cli.lab import settings_line, trace_lines
from asyncfail.explore.explorer import Exploration, InvariantReport
from asyncfail.ground.durations import approx, human
from asyncfail.ground.prose import chance, counted, plural
from asyncfail.lab.faults import FaultPlan, plan_text
from asyncfail.risk.report import RiskReport
from asyncfail.risk.sentences import (
    INTERVAL,
    OUTCOME_LABELS,
    estimate_sentence,
    exact_sentence,
)

WIDTH: Final = 100
"""Where the sentences of a text report wrap (the terminal's width is not read: same input,
same bytes)."""

NEVER_FIRED: Final = (
    "one of their faults is set at a point the run never reaches (a later delivery that never "
    "comes, a lookup the runtime never makes), so each repeats a smaller plan's run and is not "
    "counted twice"
)
DISTINCT_RUNS: Final = "different traces: plans that lead to the same trace count once"


_NUMBER_AND_UNIT: Final = re.compile(r"(?<=\d) (?=%|[a-z]{1,3}\b)")
"""The space between a number and its unit (``1 min``, ``0.25 %``), which a line never breaks."""


def wrapped(text: str, indent: str = "") -> list[str]:
    """A sentence as lines of at most ``WIDTH`` characters, each after ``indent``, never
    parting a number from its unit."""
    kept = _NUMBER_AND_UNIT.sub("\u00a0", text)
    lines = textwrap.wrap(kept, WIDTH, initial_indent=indent, subsequent_indent=indent)
    return [line.replace("\u00a0", " ") for line in lines]


def interleavings(e: Exploration) -> str:
    """What the count of interleavings says: with one worker, that its steps ran in one order;
    with two, in how many different orders they took turns."""
    if e.settings.workers == 1:
        return f"With one worker, its steps ran in one order ({counted(1, 'interleaving')})."
    return (
        f"The workers took turns in {counted(e.interleavings, 'different order')} "
        f"({counted(e.interleavings, 'interleaving')})."
    )


def verdict(report: InvariantReport, exploration: Exploration) -> str:
    """``holds in every one of 65 plans that fired`` or ``broken by 12 plans``."""
    if report.violations == 0:
        reachable = exploration.explored - exploration.unreachable
        return f"holds in every one of {counted(reachable, 'plan')} that fired"
    return f"broken by {counted(report.violations, 'plan')}"


def tried(e: Exploration) -> str:
    """What the explorer tried, and how many of its plans never fired (said what that means,
    or that every plan fired)."""
    if e.max_faults == 0:
        return "It ran the one plan without a fault."
    plans = (
        f"It tried {counted(e.explored, 'fault plan')}: every way to inject up to "
        f"{counted(e.max_faults, 'fault')} (a crash, a lost message, an outage, a pause) at "
        "the points of a delivery."
    )
    if e.unreachable == 0:
        return f"{plans} Every one of them fired."
    return f"{plans} {e.unreachable} of them never fired: {NEVER_FIRED}."


def explore_text(exploration: Exploration) -> str:
    """The explorer's report: what was tried, in sentences that say what "never fired",
    "distinct runs" and "interleavings" mean; a line per invariant with its rule; then each
    smallest counterexample with the command that replays it and its trace."""
    e = exploration
    fired = e.explored - e.unreachable
    lines = [
        f"Explorer: {e.mode} runtime, every plan of up to {counted(e.max_faults, 'fault')} over "
        f"up to {counted(e.deliveries, 'delivery')}",
        settings_line(e.settings),
        "",
        *wrapped(tried(e)),
        *wrapped(
            f"The {counted(fired, 'plan')} that fired gave "
            f"{counted(e.distinct_runs, 'distinct run')} ({DISTINCT_RUNS}). {interleavings(e)}"
        ),
        "",
    ]
    width = max(len(r.name.value) for r in e.invariants)
    for report in e.invariants:
        said = f"{report.name.value:<{width}}  {verdict(report, e)}"
        lines += [said, *wrapped(report.rule, "  ")]
    for report in e.invariants:
        found = report.counterexample
        if found is None:
            continue
        plan = plan_text(FaultPlan(injections=found.plan))
        lines += [
            "",
            f"{report.name}: the smallest plan that breaks it is {plan} "
            f"({counted(found.counts.effects, 'effect')}, {found.status})",
            f"  replay it: {found.command}",
            *trace_lines(found.events, indent="  "),
        ]
    return "\n".join(lines) + "\n"


def risk_text(r: RiskReport) -> str:
    """The risk report (``risk_sentences``), each sentence wrapped at ``WIDTH``."""
    return "".join("\n".join(wrapped(line) if line else [""]) + "\n" for line in risk_sentences(r))


def risk_sentences(r: RiskReport) -> list[str]:
    """The risk report: what was simulated, each outcome's chance with its interval (said once
    what an interval is), when runs settled, the retention a target requires, and the exact
    answer when there is one."""
    retention = "kept for ever" if r.retention is None else f"kept for {human(r.retention)}"
    lines = [
        f"Risk: {r.trials:,} simulated {plural(r.trials, 'run')} (trials) of the "
        f"{r.inputs.mode} runtime, seed "
        f"{r.seed}, idempotency records {retention}.",
        "Each trial draws when faults strike and how long redeliveries and replays wait, then "
        "runs the model; the same seed gives the same trials.",
        "",
        *(estimate_sentence(label, getattr(r, name), r.trials) for name, label in OUTCOME_LABELS),
        INTERVAL,
        "",
        f"Settled (the run's last event): half the runs by {approx(r.settled.median)}, 90 % by "
        f"{approx(r.settled.p90)}, 99 % by {approx(r.settled.p99)}; the slowest took "
        f"{approx(r.settled.longest)}.",
    ]
    req = r.required
    target = chance(req.target)
    if req.estimate is None:
        lines.append(f"No retention keeps the duplicate risk below {target} in these trials.")
    else:
        lines.append(
            f"Records must live at least {approx(req.estimate, up=True)} for the estimated "
            f"duplicate risk to fall below {target}."
        )
    if req.confident is not None:
        lines.append(
            f"To be 95 % sure of it (the interval's upper end below the target): "
            f"{approx(req.confident, up=True)}."
        )
    else:
        lines.append(
            f"To be 95 % sure of it, {r.trials:,} {plural(r.trials, 'trial')} "
            f"{'is' if r.trials == 1 else 'are'} too few: at "
            f"least {req.trials_needed:,} trials without a duplicate are needed."
        )
    if r.exact is not None:
        lines.append(exact_sentence(r.exact, r.duplicate))
    return lines
