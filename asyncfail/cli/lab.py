"""``asyncfail lab``: run the failure lab for one fault and runtime, or for all of them.

Every setting of ``LabSettings`` is an option named after it (``on_lookup_outage`` is
``--on-lookup-outage``) whose help is the setting's own description.
"""

import argparse
from collections.abc import Sequence

from pydantic import ValidationError

from asyncfail.cli.output import (
    OutputFormat,
    UsageError,
    add_deliveries,
    add_format,
    plan_argument,
)
from asyncfail.cli.settings_options import add_settings, settings_of
from asyncfail.ground.canonical import to_json
from asyncfail.ground.durations import human
from asyncfail.ground.prose import counted
from asyncfail.lab.events import Event
from asyncfail.lab.faults import Fault
from asyncfail.lab.results import LabResult
from asyncfail.lab.scenario import (
    DEFAULT_DELIVERIES,
    Mode,
    Scenario,
    key_refusal,
    option,
    option_value,
)
from asyncfail.lab.settings import LabSettings
from asyncfail.lab.simulation import simulate, simulate_all

_DEFAULT = Scenario()


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--fault",
        choices=[f.value for f in Fault],
        help=f"the injected fault (default: {_DEFAULT.fault})",
    )
    parser.add_argument(
        "--plan",
        type=plan_argument(),
        metavar="ATTEMPT:POINT,...",
        help="an explicit fault plan instead of a named fault, such as 1:after-effect,2:lookup "
        "(as `asyncfail explore` prints a counterexample)",
    )
    parser.add_argument(
        "--mode",
        choices=[m.value for m in Mode],
        help=f"the runtime (default: {_DEFAULT.mode})",
    )
    parser.add_argument(
        "--all", action="store_true", help="every fault under both runtimes, naive first"
    )
    add_deliveries(parser, DEFAULT_DELIVERIES)
    add_format(parser, "a table for the terminal")
    add_settings(parser)


def run(args: argparse.Namespace) -> str:
    if args.all:
        if args.fault is not None or args.mode is not None or args.plan is not None:
            raise UsageError(
                "asyncfail lab: error: --all runs every fault under both modes; "
                "drop --fault, --plan and --mode"
            )
        results = simulate_all(args.deliveries, settings_of(args, "lab"))
    else:
        results = (simulate(scenario_of(args)),)
    if args.format == OutputFormat.TEXT:
        # The settings and the assumptions are the same for every run: said once, at the end.
        tables = "\n".join(render_text(r) for r in results)
        return f"{tables}\n{render_assumptions(results[0])}"
    documents = [r.model_dump(mode="json") for r in results]
    return to_json(documents if args.all else documents[0])


def scenario_of(args: argparse.Namespace) -> Scenario:
    """The one scenario the options describe: a named fault or a plan (not both)."""
    if args.fault is not None and args.plan is not None:
        raise UsageError("asyncfail lab: error: give --fault or --plan, not both")
    settings = settings_of(args, "lab")
    refusal = key_refusal(Mode(args.mode or _DEFAULT.mode), settings)
    if refusal is not None:
        raise UsageError(f"asyncfail lab: error: {refusal}")
    source: dict[str, object] = (
        {"plan": args.plan} if args.plan is not None else {"fault": args.fault or _DEFAULT.fault}
    )
    try:
        return Scenario.model_validate(
            source
            | {"mode": args.mode or _DEFAULT.mode, "deliveries": args.deliveries}
            | {"settings": settings}
        )
    except ValidationError as error:
        reason = error.errors()[0]["msg"].removeprefix("Value error, ")
        raise UsageError(f"asyncfail lab: error: --plan: {reason}") from None


def render_text(result: LabResult) -> str:
    """A terminal table of one result: figures first, then the trace."""
    c = result.counts
    lines = [
        f"Async Failure Lab: {result.subject} / {result.mode} runtime "
        f"(up to {counted(result.deliveries, 'delivery')})",
        f"attempts {c.attempts}   effects {c.effects}   tool calls {c.tool_calls}   "
        f"lookups {c.lookups}",
        f"outcome {result.outcome}   status: {result.status}",
        "",
        *trace_lines(result.events),
    ]
    return "\n".join(lines) + "\n"


def trace_lines(events: Sequence[Event], indent: str = "") -> list[str]:
    """A trace as a terminal table: a header, then one line per event; a run with two workers
    has a column saying whose step each event was."""
    workers = any(e.worker is not None for e in events)
    who = f"  {'worker':>6}" if workers else ""
    lines = [f"{'seq':>3}  {'attempt':>7}{who}  {'at':>10}  {'actor':<8}  {'layer':<15}  event"]
    for e in events:
        mark = f"  {e.worker or '':>6}" if workers else ""
        lines.append(
            f"{e.seq:>3}  {e.attempt:>7}{mark}  {human(e.at):>10}  {e.actor:<8}  {e.layer:<15}  "
            f"{e.kind}"
        )
    return [indent + line for line in lines]


SEED_SETTINGS = "the seed's (every assumption kept)"


def settings_line(settings: LabSettings) -> str:
    """``Settings: --retention 30, --key per-attempt``: the settings that differ from the
    seed's, as options."""
    changed = ", ".join(
        f"{option(name)} {option_value(getattr(settings, name))}" for name in settings.changed()
    )
    return f"Settings: {changed or SEED_SETTINGS}"


def render_assumptions(result: LabResult) -> str:
    """The settings that differ from the seed's, then the seed's assumptions, each broken one
    marked with what breaks it."""
    broken = {b.assumption: b.by for b in result.broken_assumptions}
    lines = [settings_line(result.settings), "Assumptions:"]
    for number, assumption in enumerate(result.assumptions, start=1):
        mark = "x" if number in broken else "-"
        lines.append(f"{mark} {assumption}")
        lines += [f"    broken by {reason}" for reason in broken.get(number, ())]
    return "\n".join(lines) + "\n"
