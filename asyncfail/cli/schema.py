"""``asyncfail schema``: the JSON Schema of what ``asyncfail lab`` (or ``contract``) prints."""

import argparse

from asyncfail.contract.experiment import ContractResult
from asyncfail.ground.canonical import to_json
from asyncfail.lab.results import LabResult


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "document",
        nargs="?",
        choices=["lab", "contract"],
        default="lab",
        help="whose result to describe (default: lab)",
    )


def run(args: argparse.Namespace) -> str:
    if args.document == "contract":
        return to_json(ContractResult.model_json_schema(mode="serialization"))
    return to_json(LabResult.model_json_schema(mode="serialization"))
