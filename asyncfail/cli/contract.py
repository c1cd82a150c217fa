"""``asyncfail contract``: run the idempotency contract experiment for one scenario.

Each option is a field of ``ContractScenario`` and its help is that field's description, so the
CLI and the model say the same thing. Seconds are read by the library's one duration parser.
"""

import argparse
from collections.abc import Callable
from enum import StrEnum
from typing import Any, Final

from pydantic import ValidationError

from asyncfail.cli.output import UsageError
from asyncfail.contract.experiment import ContractScenario, evaluate
from asyncfail.contract.terms import ContractProfile, KeyScope, PayloadPolicy, SecondRequest
from asyncfail.ground.canonical import to_json
from asyncfail.ground.durations import ACCEPTED, Duration, parse_duration, shown
from asyncfail.ground.retention import BoundaryConvention

_FIELDS: Final = ContractScenario.model_fields

# (option, scenario field, enum): the choice options, in the order --help lists them.
_CHOICES: Final[tuple[tuple[str, str, type[StrEnum]], ...]] = (
    ("profile", "profile", ContractProfile),
    ("second", "second", SecondRequest),
    ("scope", "scope", KeyScope),
    ("policy", "policy", PayloadPolicy),
    ("boundary", "boundary", BoundaryConvention),
)
# (option, scenario field): the durations.
_DURATIONS: Final = (("retention", "retention_seconds"), ("delay", "delay_seconds"))


def _help(field: str) -> str:
    default = _FIELDS[field].default
    suffix = "" if default is None else f" (default: {default})"
    return f"{_FIELDS[field].description}{suffix}"


def duration_argument() -> Callable[[str], Duration]:
    """An argparse type for seconds: the library's one parser (``parse_duration``)."""

    def parse(text: str) -> Duration:
        try:
            return parse_duration(text)
        except ValueError as error:
            raise argparse.ArgumentTypeError(f"{shown(text)} {error}; give {ACCEPTED}") from None

    return parse


def add_arguments(parser: argparse.ArgumentParser) -> None:
    for option, field, enum in _CHOICES:
        parser.add_argument(f"--{option}", choices=[m.value for m in enum], help=_help(field))
    for option, field in _DURATIONS:
        parser.add_argument(
            f"--{option}", type=duration_argument(), metavar="SECONDS", help=_help(field)
        )


def run(args: argparse.Namespace) -> str:
    given: dict[str, Any] = {field: getattr(args, option) for option, field, _ in _CHOICES}
    given |= {field: getattr(args, option) for option, field in _DURATIONS}
    # Left-out options take the model's defaults (a knob: the profile's), so the CLI and a
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
