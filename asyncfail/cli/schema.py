"""``asyncfail schema``: the JSON Schema of what ``asyncfail lab`` (or ``contract``,
``explore``, ``risk`` or ``verify``; ``engine-verify``: ``verify --engine``) prints."""

import argparse

from asyncfail.contract.experiment import ContractResult
from asyncfail.engines.verification import EngineVerification
from asyncfail.explore.explorer import Exploration
from asyncfail.ground.canonical import to_json
from asyncfail.lab.results import LabResult
from asyncfail.reference.verification import Verification
from asyncfail.risk.report import RiskReport


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "document",
        nargs="?",
        choices=["lab", "contract", "explore", "risk", "verify", "engine-verify"],
        default="lab",
        help="whose result to describe (default: lab)",
    )


def run(args: argparse.Namespace) -> str:
    if args.document == "contract":
        return to_json(ContractResult.model_json_schema(mode="serialization"))
    if args.document == "explore":
        return to_json(Exploration.model_json_schema(mode="serialization"))
    if args.document == "risk":
        return to_json(RiskReport.model_json_schema(mode="serialization"))
    if args.document == "engine-verify":
        return to_json(EngineVerification.model_json_schema(mode="serialization"))
    if args.document == "verify":
        return to_json(Verification.model_json_schema(mode="serialization"))
    return to_json(LabResult.model_json_schema(mode="serialization"))
