"""The subcommands of the ``asyncfail`` CLI, in the order ``--help`` lists them.

A command adds its arguments to a parser and turns parsed arguments into the full text to
print; it returns text rather than printing so that nothing is written half-way on error.
"""

import argparse
from collections.abc import Callable
from dataclasses import dataclass


class UsageError(Exception):
    """Bad input: reported on one line with exit status 2."""


@dataclass(frozen=True, slots=True)
class Command:
    name: str
    summary: str
    add_arguments: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], str]


def _commands() -> tuple[Command, ...]:
    from asyncfail.commands import contract, lab, review, schema

    return (lab.COMMAND, schema.COMMAND, review.COMMAND, contract.COMMAND)


COMMANDS: tuple[Command, ...] = _commands()
