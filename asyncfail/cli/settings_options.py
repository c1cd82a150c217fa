"""The lab's settings as options, shared by every subcommand that runs the lab.

Every field of ``LabSettings`` is an option named after it (``on_lookup_outage`` is
``--on-lookup-outage``) whose help is the setting's own description.
"""

import argparse
import typing
from enum import StrEnum

from pydantic import ValidationError

from asyncfail.cli.output import (
    UsageError,
    accepted_by,
    accepting,
    bounded_int,
    duration_argument,
)
from asyncfail.lab.scenario import option
from asyncfail.lab.settings import DEFAULT_SETTINGS, LabSettings


def add_settings(parser: argparse.ArgumentParser) -> None:
    """An option per setting: a choice for a closed set, a whole number in the field's range,
    seconds for a duration."""
    for name, field in LabSettings.model_fields.items():
        default = getattr(DEFAULT_SETTINGS, name)
        help_ = f"{field.description} (default: {'none' if default is None else default})"
        kinds = typing.get_args(field.annotation) or (field.annotation,)
        enum = next((k for k in kinds if isinstance(k, type) and issubclass(k, StrEnum)), None)
        if enum is not None:
            parser.add_argument(option(name), choices=[m.value for m in enum], help=help_)
        elif int in kinds:
            low, high = _bounds(name)
            parser.add_argument(option(name), type=bounded_int(low, high), metavar="N", help=help_)
        else:
            parse = optional(duration_argument()) if type(None) in kinds else duration_argument()
            parser.add_argument(option(name), type=parse, metavar="SECONDS", help=help_)


class _Unset:
    """``none`` given for a setting that may be unset (its help says what none means)."""

    def __repr__(self) -> str:
        return "none"


NONE: typing.Final = _Unset()
"""What an optional setting's option holds when given ``none``: unlike an option left out
(``None``: the seed's value), it sets the setting to None."""


def optional(parse: typing.Callable[[str], object]) -> typing.Callable[[str], object]:
    """An argparse type that also takes the word ``none`` (surrounding spaces ignored), as the
    help of a setting that may be unset offers it."""

    def parse_or_none(text: str) -> object:
        if text.strip() == "none":
            return NONE
        try:
            return parse(text)
        except argparse.ArgumentTypeError as error:
            raise argparse.ArgumentTypeError(f"{error}; or the word none") from None

    accepted = accepted_by(parse)
    if accepted is None:
        return parse_or_none
    return accepting(parse_or_none, f"{accepted}; or the word none")


def _bounds(name: str) -> tuple[int, int]:
    """The range a whole-number setting accepts, from its field's own constraints."""
    metadata = LabSettings.model_fields[name].metadata
    low = next(m.ge for m in metadata if getattr(m, "ge", None) is not None)
    high = next(m.le for m in metadata if getattr(m, "le", None) is not None)
    return int(low), int(high)


def settings_of(args: argparse.Namespace, command: str) -> LabSettings:
    """The settings the options give; one left out keeps the seed's."""
    given = {
        name: None if getattr(args, name) is NONE else getattr(args, name)
        for name in LabSettings.model_fields
        if getattr(args, name) is not None
    }
    try:
        return LabSettings.model_validate(given)
    except ValidationError as error:
        reason = error.errors()[0]["msg"].removeprefix("Value error, ")
        raise UsageError(f"asyncfail {command}: error: {reason}") from None
