"""``asyncfail explore``: every fault plan up to a few injections, checked against the
invariants, with the smallest counterexample of each."""

import argparse

from asyncfail.cli.output import (
    OutputFormat,
    UsageError,
    add_deliveries,
    add_format,
    bounded_int,
)
from asyncfail.cli.plain_text import explore_text
from asyncfail.cli.progress import progress_line
from asyncfail.cli.settings_options import add_settings, settings_of
from asyncfail.explore.explorer import explore
from asyncfail.explore.plans import MAX_FAULTS
from asyncfail.ground.canonical import to_json
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
    line = progress_line("explore", "plan")
    try:
        exploration = explore(mode, settings, args.deliveries, args.max_faults, line)
    finally:
        if line is not None:
            line.close()
    if args.format == OutputFormat.TEXT:
        return explore_text(exploration)
    return to_json(exploration.model_dump(mode="json"))
