"""``asyncfail schema``: the JSON Schema of what ``asyncfail lab`` (or ``contract``) prints."""

import argparse

from asyncfail.commands import Command
from asyncfail.commands.render import to_json
from asyncfail.results import LabResult


def _add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "document",
        nargs="?",
        choices=["lab", "contract"],
        default="lab",
        help="whose result to describe (default: lab)",
    )


def _run(args: argparse.Namespace) -> str:
    if args.document == "contract":
        from asyncfail.contract import ContractResult  # built only when asked for

        return to_json(ContractResult.model_json_schema(mode="serialization"))
    return to_json(LabResult.model_json_schema(mode="serialization"))


COMMAND = Command(
    name="schema",
    summary="Print the JSON Schema of one `asyncfail lab` result.",
    add_arguments=_add_arguments,
    run=_run,
)
