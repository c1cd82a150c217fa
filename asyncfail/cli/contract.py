"""``asyncfail contract``: run the idempotency contract experiment for one scenario.

Each option is a field of ``ContractScenario`` and its help is that field's description, so the
CLI and the model say the same thing. Seconds are read by the library's one duration parser.
"""

import argparse
from enum import StrEnum
from typing import Any, Final

from pydantic import ValidationError

from asyncfail.cli.output import OutputFormat, UsageError, add_format, duration_argument
from asyncfail.contract.experiment import ContractResult, ContractScenario, evaluate
from asyncfail.contract.requests import SECOND_WORDS
from asyncfail.contract.terms import (
    DISPOSITION_LABEL,
    EFFECTS_LABEL,
    PROFILE_NAMES,
    RECORD_LABEL,
    REQUESTS_HEADER,
    REQUESTS_TITLE,
    ContractProfile,
    KeyScope,
    PayloadPolicy,
    SecondRequest,
)
from asyncfail.ground.canonical import to_json
from asyncfail.ground.durations import human
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


def add_arguments(parser: argparse.ArgumentParser) -> None:
    for option, field, enum in _CHOICES:
        parser.add_argument(f"--{option}", choices=[m.value for m in enum], help=_help(field))
    for option, field in _DURATIONS:
        parser.add_argument(
            f"--{option}", type=duration_argument(), metavar="SECONDS", help=_help(field)
        )
    add_format(parser, "a summary for the terminal")


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
    result = evaluate(scenario)
    if args.format == OutputFormat.TEXT:
        return render_text(result)
    return to_json(result.model_dump(mode="json"))


def render_text(result: ContractResult) -> str:
    """The result for a terminal: the finding, the figures, the settings in force, any
    departure from the profile's system, the boundary rule, and the seed's table of requests."""
    s, settings = result.scenario, result.settings
    verdict = "right" if result.correct else "wrong"
    lines = [
        f"Idempotency contract: {PROFILE_NAMES[s.profile]}, second request "
        f"{SECOND_WORDS[s.second]}, {human(s.delay_seconds)} after the first",
        f"finding: {result.finding} ({verdict})",
        f"{RECORD_LABEL.lower()}: {result.record}   {DISPOSITION_LABEL.lower()}: "
        f"{result.disposition}   {EFFECTS_LABEL.lower()}: {result.effects}",
    ]
    if result.rejection is not None:
        status = result.rejection.status_code or "no HTTP status"
        lines.append(f"reported as: {status}, {result.rejection.error}")
    lines += [
        f"settings: key scope {settings.scope}, policy {settings.policy}, retention "
        f"{settings.retention} ({human(settings.retention)}), boundary {settings.boundary}",
        *(f"departs: {departure}" for departure in result.departures),
        result.boundary_rule,
        "",
        f"{REQUESTS_TITLE}:",
    ]
    rows = [REQUESTS_HEADER] + [
        (str(r.attempt), r.business_identity, str(r.amount_minor_units), r.receiver_key,
         r.fingerprint_tuple)
        for r in result.requests
    ]  # fmt: skip
    widths = [max(len(row[i]) for row in rows) for i in range(len(REQUESTS_HEADER))]
    lines += ["  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip()
              for row in rows]  # fmt: skip
    return "\n".join(lines) + "\n"
