"""``asyncfail risk``: a seeded Monte Carlo over the timed model: how likely a second debit is,
and how long records must live."""

import argparse
from collections.abc import Callable

from pydantic import ValidationError

from asyncfail.cli.output import (
    OutputFormat,
    UsageError,
    accepting,
    add_deliveries,
    add_format,
    bounded_int,
    duration_argument,
)
from asyncfail.cli.plain_text import risk_text
from asyncfail.cli.progress import progress_line
from asyncfail.cli.settings_options import NONE, add_settings, optional, settings_of
from asyncfail.ground.canonical import to_json
from asyncfail.lab.faults import Fault
from asyncfail.lab.scenario import Mode
from asyncfail.risk.inputs import (
    DEFAULT_INPUTS,
    MAX_TRIALS,
    PROBABILITY_ACCEPTED,
    SPREAD_ACCEPTED,
    Jitter,
    RiskInputs,
    parse_probability,
    parse_spread,
)
from asyncfail.risk.report import assess


def probability_argument() -> Callable[[str], float]:
    """An argparse type for a probability: the risk wing's one parser."""

    def parse(text: str) -> float:
        try:
            return parse_probability(text)
        except ValueError as error:
            raise argparse.ArgumentTypeError(str(error)) from None

    return accepting(parse, PROBABILITY_ACCEPTED)


_FIELDS = RiskInputs.model_fields


def add_arguments(parser: argparse.ArgumentParser) -> None:
    d = DEFAULT_INPUTS
    parser.add_argument(
        "--trials",
        type=bounded_int(1, MAX_TRIALS),
        default=d.trials,
        help=f"how many trials (1-{MAX_TRIALS:,}, default: {d.trials:,})",
    )
    parser.add_argument(
        "--seed",
        type=bounded_int(0, 2**63 - 1),
        default=d.seed,
        help=f"the generator's seed (default: {d.seed})",
    )
    parser.add_argument(
        "--mode", choices=[m.value for m in Mode], default=d.mode.value, help="the runtime"
    )
    add_deliveries(parser, d.deliveries)
    parser.add_argument(
        "--fault",
        choices=[f.value for f in Fault],
        help=_FIELDS["fault"].description,
    )
    parser.add_argument(
        "--jitter",
        choices=[j.value for j in Jitter],
        default=d.jitter.value,
        help="how redelivery delays are randomized (AWS's backoff guidance)",
    )
    for name in ("crash", "loss", "outage", "pause"):
        field = f"{name}_probability"
        parser.add_argument(
            f"--{name}-probability",
            type=probability_argument(),
            default=getattr(d, field),
            metavar="P",
            help=f"{_FIELDS[field].description} (default: {getattr(d, field)})",
        )
    parser.add_argument(
        "--replay-median",
        type=optional(duration_argument()),
        metavar="SECONDS",
        help=f"{_FIELDS['replay_median'].description} (default: "
        f"{d.replay_median.json_number if d.replay_median else 'none'})",
    )
    parser.add_argument(
        "--no-replay", action="store_true", help="nobody replays an abandoned delivery"
    )
    parser.add_argument(
        "--replay-spread",
        type=spread_argument(),
        default=d.replay_spread,
        metavar="SIGMA",
        help=f"{_FIELDS['replay_spread'].description} (0-4, default: {d.replay_spread})",
    )
    parser.add_argument(
        "--target",
        type=probability_argument(),
        default=d.target,
        metavar="P",
        help=f"{_FIELDS['target'].description} (default: {d.target})",
    )
    add_format(parser, "a report for the terminal")
    add_settings(parser)


def spread_argument() -> Callable[[str], float]:
    """An argparse type for the replay spread: a decimal number from 0 to 4."""

    def parse(text: str) -> float:
        try:
            return parse_spread(text)
        except ValueError as error:
            raise argparse.ArgumentTypeError(str(error)) from None

    return accepting(parse, SPREAD_ACCEPTED)


def inputs_of(args: argparse.Namespace) -> RiskInputs:
    """The question the options ask."""
    if args.no_replay and args.replay_median is not None:
        raise UsageError("asyncfail risk: error: give --replay-median or --no-replay, not both")
    fields: dict[str, object] = {
        "trials": args.trials,
        "seed": args.seed,
        "mode": args.mode,
        "deliveries": args.deliveries,
        "settings": settings_of(args, "risk"),
        "fault": args.fault,
        "jitter": args.jitter,
        "crash_probability": args.crash_probability,
        "loss_probability": args.loss_probability,
        "outage_probability": args.outage_probability,
        "pause_probability": args.pause_probability,
        "replay_spread": args.replay_spread,
        "target": args.target,
    }
    if args.no_replay or args.replay_median is NONE:
        fields["replay_median"] = None
    elif args.replay_median is not None:
        fields["replay_median"] = args.replay_median
    try:
        return RiskInputs.model_validate(fields)
    except ValidationError as error:
        reason = error.errors()[0]["msg"].removeprefix("Value error, ")
        raise UsageError(f"asyncfail risk: error: {reason}") from None


def run(args: argparse.Namespace) -> str:
    inputs = inputs_of(args)
    line = progress_line("risk", "trial")
    try:
        report = assess(
            inputs, None if line is None else lambda more: line.add(more, inputs.trials)
        ).report
    finally:
        if line is not None:
            line.close()
    if args.format == OutputFormat.TEXT:
        return risk_text(report)
    return to_json(report.model_dump(mode="json"))
