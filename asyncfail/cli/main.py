"""The ``asyncfail`` entry point: argument parsing, dispatch, error reporting and output.

Bad input exits with status 2 and one line naming the problem and the accepted values, never a
traceback. Only the subcommand being run is imported.
"""

import argparse
import importlib
import sys
from collections.abc import Sequence
from typing import Final, NoReturn, Protocol, TextIO

from asyncfail.cli.output import UsageError, write_utf8

COMMANDS: Final[dict[str, str]] = {
    "lab": "Run the Async Failure Lab for a fault and runtime (JSON by default).",
    "schema": "Print the JSON Schema of one `asyncfail lab` result.",
    "review": "Write the reliability review handoff for a fault (Markdown by default).",
    "contract": "Run the idempotency contract experiment: two requests at one receiver (JSON).",
}
"""Every subcommand, in the order ``--help`` lists them, with its summary; its module is
``asyncfail.cli.<name>``."""


class Subcommand(Protocol):
    """What a subcommand module provides."""

    def add_arguments(self, parser: argparse.ArgumentParser) -> None: ...

    def run(self, args: argparse.Namespace) -> str: ...


class _Parser(argparse.ArgumentParser):
    """An argument parser that raises instead of exiting, so ``main`` owns the exit status."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{self.prog}: error: {message} (see '{self.prog} --help')")


def build_parser(argv: Sequence[str]) -> argparse.ArgumentParser:
    """The parser for ``argv``: every subcommand listed, the one named in ``argv`` complete."""
    parser = _Parser(
        prog="asyncfail",
        description="Deterministic async-failure lab: traces and counts as JSON or text.",
    )
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    named = next((word for word in argv if not word.startswith("-")), None)
    for name, summary in COMMANDS.items():
        sub = subparsers.add_parser(name, help=summary, description=summary)
        if name == named:
            module: Subcommand = importlib.import_module(f"asyncfail.cli.{name}")
            module.add_arguments(sub)
            sub.set_defaults(_run=module.run)
    return parser


def main(argv: Sequence[str] | None = None, stdout: TextIO | None = None) -> int:
    """Run the CLI; return the exit status (0 ok, 2 bad input)."""
    words = list(sys.argv[1:] if argv is None else argv)
    out = stdout if stdout is not None else sys.stdout
    try:
        args = build_parser(words).parse_args(words)
        text = args._run(args)
    except UsageError as error:
        print(error, file=sys.stderr)
        return 2
    except SystemExit as exit_:  # --help and --version exit through argparse
        return int(exit_.code or 0)
    try:
        write_utf8(out, text)
    except BrokenPipeError:
        # A reader such as `head` closed the pipe: not an error of ours, and no traceback.
        sys.stderr.close()
    except OSError as error:  # a full disk, a closed descriptor: say so on one line
        print(f"asyncfail: error: cannot write the output: {error.strerror}", file=sys.stderr)
        return 1
    return 0
