"""The ``asyncfail`` command line: argument parsing, error reporting and output.

Each subcommand lives in ``asyncfail.commands``; this module only wires them up. Bad input
exits with status 2 and one line naming the problem and the accepted values, never a traceback.
"""

import argparse
import os
import sys
from collections.abc import Sequence
from typing import NoReturn, TextIO

# The CLI uses no pydantic plugin; skipping their discovery (a scan of every installed
# distribution's entry points) saves about a third of start-up. Set before any model is built.
os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")

from asyncfail.commands import COMMANDS, UsageError


class _Parser(argparse.ArgumentParser):
    """An argument parser that raises instead of exiting, so ``main`` owns the exit status."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{self.prog}: error: {message} (see '{self.prog} --help')")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="asyncfail",
        description="Deterministic async-failure lab: traces and counts as JSON or text.",
    )
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for command in COMMANDS:
        sub = subparsers.add_parser(command.name, help=command.summary, description=command.summary)
        command.add_arguments(sub)
        sub.set_defaults(_run=command.run)
    return parser


def main(argv: Sequence[str] | None = None, stdout: TextIO | None = None) -> int:
    """Run the CLI; return the exit status (0 ok, 2 bad input)."""
    out = stdout if stdout is not None else sys.stdout
    try:
        args = build_parser().parse_args(argv)
        text = args._run(args)
    except UsageError as error:
        print(error, file=sys.stderr)
        return 2
    except SystemExit as exit_:  # --help and --version exit through argparse
        return int(exit_.code or 0)
    try:
        _write_utf8(out, text)
    except BrokenPipeError:
        # A reader such as `head` closed the pipe: not an error of ours, and no traceback.
        sys.stderr.close()
    except OSError as error:  # a full disk, a closed descriptor: say so on one line
        print(f"asyncfail: error: cannot write the output: {error.strerror}", file=sys.stderr)
        return 1
    return 0


def _write_utf8(out: TextIO, text: str) -> None:
    """Write as UTF-8 whatever the locale says: the documents are UTF-8 JSON, Markdown, HTML."""
    buffer = getattr(out, "buffer", None)
    out.flush()
    if buffer is None:  # an in-memory stream, as in tests
        out.write(text)
    else:
        buffer.write(text.encode("utf-8"))
        buffer.flush()
