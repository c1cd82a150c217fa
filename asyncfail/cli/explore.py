"""``asyncfail explore``: every fault plan up to a few injections, checked against the
invariants, with the smallest counterexample of each."""

import argparse

from asyncfail.cli.lab import settings_line, trace_lines
from asyncfail.cli.output import (
    OutputFormat,
    UsageError,
    add_deliveries,
    add_format,
    bounded_int,
)
from asyncfail.cli.settings_options import add_settings, settings_of
from asyncfail.explore.explorer import Exploration, InvariantReport, explore
from asyncfail.explore.plans import MAX_FAULTS
from asyncfail.ground.canonical import to_json
from asyncfail.ground.prose import counted
from asyncfail.lab.faults import FaultPlan, plan_text
from asyncfail.lab.scenario import DEFAULT_DELIVERIES, Mode, key_refusal

DEFAULT_MAX_FAULTS = 2


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--mode",
        choices=[m.value for m in Mode],
        default=Mode.DURABLE.value,
        help=f"the runtime (default: {Mode.DURABLE})",
    )
    parser.add_argument(
        "--max-faults",
        type=bounded_int(0, MAX_FAULTS),
        default=DEFAULT_MAX_FAULTS,
        help=f"the most injections in one plan (0-{MAX_FAULTS}, default: {DEFAULT_MAX_FAULTS})",
    )
    add_deliveries(parser, DEFAULT_DELIVERIES)
    add_format(parser, "a report for the terminal")
    add_settings(parser)


def run(args: argparse.Namespace) -> str:
    mode, settings = Mode(args.mode), settings_of(args, "explore")
    refusal = key_refusal(mode, settings)
    if refusal is not None:
        raise UsageError(f"asyncfail explore: error: {refusal}")
    exploration = explore(mode, settings, args.deliveries, args.max_faults)
    if args.format == OutputFormat.TEXT:
        return render_text(exploration)
    return to_json(exploration.model_dump(mode="json"))


def verdict(report: InvariantReport, exploration: Exploration) -> str:
    """``holds in every plan`` or ``broken by 12 plans``."""
    if report.violations == 0:
        reachable = exploration.explored - exploration.unreachable
        return f"holds in every one of {counted(reachable, 'plan')} that fired"
    return f"broken by {counted(report.violations, 'plan')}"


def render_text(exploration: Exploration) -> str:
    """A terminal report: what was explored, a line per invariant, then each counterexample
    with the command that replays it and its trace."""
    e = exploration
    lines = [
        f"Explorer: {e.mode} runtime, every plan of up to {counted(e.max_faults, 'fault')} over "
        f"up to {counted(e.deliveries, 'delivery')}",
        settings_line(e.settings),
        f"plans explored {e.explored}   never fired {e.unreachable}   "
        f"distinct runs {e.distinct_runs}   interleavings {e.interleavings}",
        "",
    ]
    width = max(len(r.name.value) for r in e.invariants)
    lines += [f"{r.name.value:<{width}}  {verdict(r, e)}" for r in e.invariants]
    for report in e.invariants:
        found = report.counterexample
        if found is None:
            continue
        plan = plan_text(FaultPlan(injections=found.plan))
        lines += [
            "",
            f"{report.name}: smallest counterexample {plan} "
            f"({counted(found.counts.effects, 'effect')}, {found.status})",
            f"  replay: {found.command}",
            *trace_lines(found.events, indent="  "),
        ]
    return "\n".join(lines) + "\n"
