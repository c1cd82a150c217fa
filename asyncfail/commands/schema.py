"""``asyncfail schema``: the JSON Schema of what ``asyncfail lab`` prints."""

import argparse

from asyncfail.commands import Command
from asyncfail.commands.render import to_json
from asyncfail.results import LabResult


def _add_arguments(parser: argparse.ArgumentParser) -> None:
    del parser  # no options: the schema describes one `asyncfail lab` document


def _run(args: argparse.Namespace) -> str:
    del args
    return to_json(LabResult.model_json_schema(mode="serialization"))


COMMAND = Command(
    name="schema",
    summary="Print the JSON Schema of one `asyncfail lab` result.",
    add_arguments=_add_arguments,
    run=_run,
)
