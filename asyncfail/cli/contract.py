"""``asyncfail contract``: run the idempotency contract experiment for one scenario."""

import argparse
import re
from collections.abc import Callable
from enum import StrEnum
from typing import Any

from pydantic import ValidationError

from asyncfail.cli.output import UsageError
from asyncfail.contract.experiment import ContractScenario, check_seconds, evaluate
from asyncfail.contract.terms import (
    DEFAULT_BOUNDARY,
    DEFAULT_DELAY_SECONDS,
    DEFAULT_PROFILE,
    DEFAULT_RETENTION_SECONDS,
    DEFAULT_SCOPE,
    DEFAULT_SECOND,
    SECONDS_RANGE,
    BoundaryConvention,
    ContractProfile,
    KeyScope,
    PayloadPolicy,
    SecondRequest,
)
from asyncfail.ground.canonical import to_json

# (option, enum, help): the choice options, in the order --help lists them.
_CHOICES: tuple[tuple[str, type[StrEnum], str], ...] = (
    ("scope", KeyScope, f"what the receiver's key is made of (default: {DEFAULT_SCOPE})"),
    ("second", SecondRequest, f"which request arrives second (default: {DEFAULT_SECOND})"),
    (
        "policy",
        PayloadPolicy,
        "whether a retained record's fingerprint is compared "
        "(default: the profile's; enforce, or ignore for powertools)",
    ),
    ("profile", ContractProfile, f"whose contract reports a conflict (default: {DEFAULT_PROFILE})"),
    (
        "boundary",
        BoundaryConvention,
        f"what the record is at exactly delay == retention (default: {DEFAULT_BOUNDARY})",
    ),
)


def seconds_argument(option: str) -> Callable[[str], float]:
    """An argparse type for seconds, checked by the model's own rule (``check_seconds``)."""

    def parse(text: str) -> float:
        # A decimal in ASCII digits, exponent allowed: float() would also take "٦٠", "1_000", " 60".
        plain = re.fullmatch(r"([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?", text, re.ASCII)
        number = float(text) if plain else float("nan")  # nan: rejected just below
        try:
            return check_seconds(option, number)
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be {SECONDS_RANGE}, got {text!r}") from None

    return parse


def add_arguments(parser: argparse.ArgumentParser) -> None:
    for name, enum, help_ in _CHOICES:
        parser.add_argument(f"--{name}", choices=[m.value for m in enum], help=help_)
    parser.add_argument(
        "--retention",
        type=seconds_argument("--retention"),
        help=f"how long the idempotency record is kept, {SECONDS_RANGE} "
        f"(default: {DEFAULT_RETENTION_SECONDS:g})",
    )
    parser.add_argument(
        "--delay",
        type=seconds_argument("--delay"),
        help=f"how long after the first request the second arrives, {SECONDS_RANGE} "
        f"(default: {DEFAULT_DELAY_SECONDS:g})",
    )


def run(args: argparse.Namespace) -> str:
    given: dict[str, Any] = {name: getattr(args, name) for name, _, _ in _CHOICES}
    given |= {"retention_seconds": args.retention, "delay_seconds": args.delay}
    # Left-out options take the model's defaults (policy: the profile's), so the CLI and a
    # notebook building ContractScenario() can never disagree.
    try:
        scenario = ContractScenario.model_validate(
            {k: v for k, v in given.items() if v is not None}
        )
    except ValidationError as error:  # argparse checked every value; this is a safety net
        first = error.errors()[0]
        field = ".".join(str(part) for part in first["loc"])
        raise UsageError(f"asyncfail contract: error: {field}: {first['msg']}") from None
    return to_json(evaluate(scenario).model_dump(mode="json"))
