"""The ``asyncfail`` entry point: argument parsing, dispatch, error reporting and output.

Exit statuses: 0 done; 2 bad input, with one line naming the option and the values it accepts
(nothing is written); 1 the output could not be written (stdout closed or full, or an
``--output`` file), or the command ran and what it checked does not hold (``verify``: its
output, then one line), also one line; 130 interrupted (Ctrl-C), one line. Never a traceback.
Only the subcommand being run is imported.
"""

import argparse
import importlib
import sys
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, Final, NoReturn, Protocol, TextIO

from asyncfail.cli.output import (
    MAX_LINE,
    OutputError,
    Unsuccessful,
    UsageError,
    accepted_by,
    error_line,
    report,
    write_utf8,
)
from asyncfail.ground.prose import echoed, joined
from asyncfail.ground.version import VERSION

COMMANDS: Final[dict[str, str]] = {
    "lab": "Run the Async Failure Lab for a fault and runtime (JSON by default).",
    "explore": "Run every fault plan up to a few injections against the invariants (JSON).",
    "risk": "Estimate how likely a second debit is, by seeded Monte Carlo trials (JSON).",
    "schema": "Print the JSON Schema of one `asyncfail lab` result.",
    "review": "Write the reliability review handoff for a fault (Markdown by default).",
    "contract": "Run the idempotency contract experiment: two requests at one receiver (JSON).",
    "verify": "Run the reference implementation (or, with --engine, a real engine) on real "
    "processes and check the model (JSON).",
}
"""Every subcommand, in the order ``--help`` lists them, with its summary; its module is
``asyncfail.cli.<name>``."""


class Subcommand(Protocol):
    """What a subcommand module provides."""

    def add_arguments(self, parser: argparse.ArgumentParser) -> None: ...

    def run(self, args: argparse.Namespace) -> str: ...


class _Answer(Exception):
    """The whole output, known while parsing (``--help``, ``--version``): printed, exit 0."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.text = text


class _Help(argparse.Action):
    """``-h``/``--help``: the parser's help, printed as the output of the command.

    Argparse's own help action prints and exits from inside the parser, so its text skipped
    ``main``'s output: it went to stderr when stdout was closed, and a failed write passed.
    """

    def __call__(self, parser: argparse.ArgumentParser, *_: object) -> NoReturn:
        raise _Answer(parser.format_help())


class _Version(argparse.Action):
    """``--version``: ``asyncfail 0.1.0``, printed as the output of the command."""

    def __call__(self, *_: object) -> NoReturn:
        raise _Answer(f"asyncfail {VERSION}\n")


class _Parser(argparse.ArgumentParser):
    """An argument parser that is strict where argparse is lenient, and raises instead of
    exiting, so ``main`` owns the exit status. Its rules:

    - an option is written in full: ``--fau`` is unknown, not ``--fault``;
    - each option is given at most once: argparse keeps the last of ``--fault none --fault
      request-lost`` and says nothing;
    - each parser reports the words it does not know itself, naming itself: argparse hands a
      subcommand's unknown words up to the top-level parser, whose message then named
      ``asyncfail`` instead of ``asyncfail lab``.

    ``has_commands`` marks the top-level parser, whose words after the command are the
    command's own. The rules read argparse's table of option strings (``_option_string_actions``):
    it is the table argparse itself reads, and it holds the options of argument groups too.
    """

    def __init__(self, *, has_commands: bool = False, **kwargs: Any) -> None:
        # exit_on_error=False: argparse's errors reach parse_known_args, which completes them.
        super().__init__(add_help=False, allow_abbrev=False, exit_on_error=False, **kwargs)
        self.has_commands = has_commands
        self.add_argument(
            "-h",
            "--help",
            action=_Help,
            nargs=0,
            default=argparse.SUPPRESS,
            help="show this help message and exit",
        )

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{self.prog}: error: {message} (see '{self.prog} --help')")

    def parse_known_args(
        self, args: Iterable[str] | None = None, namespace: Any = None
    ) -> tuple[Any, list[str]]:
        """Parse ``args``; a repeated option or any word left over is an error of this parser."""
        words = list(sys.argv[1:] if args is None else args)
        self._refuse_repeats(words)
        try:
            parsed, extras = super().parse_known_args(words, namespace)
        except argparse.ArgumentError as error:
            self.error(self._explained(error))
        if extras:
            self.error(self._unexpected(extras))
        return parsed, extras

    def _explained(self, error: argparse.ArgumentError) -> str:
        """Argparse's message, with what the option accepts where argparse leaves it out: a
        value given to a flag (``--all=x``) says that it takes none, and a missing value
        ("expected one argument") lists the option's choices, else says what its type accepts
        (``output.accepting``), else gives its help."""
        name = (error.argument_name or "").rpartition("/")[2]
        action = self._option_string_actions.get(name)
        if action is None:
            return str(error)
        if action.nargs == 0:
            return f"{error}; it takes no value"
        if error.message != "expected one argument":
            return str(error)
        if action.choices:
            return f"{error}: choose from {', '.join(map(repr, action.choices))}"
        if accepted := accepted_by(action.type):
            return f"{error}: give {accepted}"
        shown = action.help and action.help != argparse.SUPPRESS
        return f"{error}: {action.help}" if shown else str(error)

    def _refuse_repeats(self, words: list[str]) -> None:
        """Raise ``UsageError`` naming the first option that ``words`` give a second time."""
        seen: set[argparse.Action] = set()
        for action in self._options_given(words):
            if action in seen:
                name = "/".join(action.option_strings)
                self.error(f"argument {name}: given more than once (give each option once)")
            seen.add(action)

    def _options_given(self, words: list[str]) -> Iterator[argparse.Action]:
        """The option each of ``words`` gives, as argparse reads them: a word that is an option
        string, or one followed by ``=value`` (argparse never takes such a word as a value).
        The words after ``--`` are all arguments; those after the command are the command's."""
        for word in words:
            if word == "--" or (self.has_commands and not word.startswith("-")):
                return
            action = self._option_string_actions.get(word.partition("=")[0])
            if action is not None:
                yield action

    def _unexpected(self, extras: list[str]) -> str:
        """What is wrong with the words left over: the first of them (``--`` aside), an unknown
        option (the message lists the options) or an argument this parser does not take."""
        separated = extras[0] == "--" and len(extras) > 1  # every word after it is an argument
        word = extras[1] if separated else extras[0]
        if not separated and _looks_like_an_option(word):
            head = f"unknown option {echoed(word.partition('=')[0])}; the options are "
            line = f"{self.prog}: error: {head} (see '{self.prog} --help')"
            return head + self._options(MAX_LINE - len(line))
        return f"unexpected argument {echoed(word)}"

    def _options(self, room: int) -> str:
        """The options of this parser, in the order ``--help`` lists them (``-h/--help``), in
        at most ``room`` characters: as many as fit, then how many more (``and 3 more``), so the
        line keeps its pointer to ``--help`` (``error_line`` cuts a longer line's end)."""
        actions = dict.fromkeys(self._option_string_actions.values())
        names = ["/".join(action.option_strings) for action in actions]
        shown = len(names)
        while shown > 1 and len(_listed(names, shown)) > room:
            shown -= 1
        return _listed(names, shown)


def _listed(names: list[str], shown: int) -> str:
    """The first ``shown`` of ``names``, then how many more there are."""
    rest = len(names) - shown
    return joined(names[:shown] + ([f"{rest} more"] if rest else []))


def _looks_like_an_option(word: str) -> bool:
    """``--name``, ``--name=value`` or ``-x``; not ``--``, ``-`` or a negative number."""
    return word != "--" and word[:1] == "-" and (word[1:2] == "-" or word[1:2].isalpha())


def build_parser(argv: Sequence[str]) -> argparse.ArgumentParser:
    """The parser for ``argv``: every subcommand listed, the one named in ``argv`` complete."""
    parser = _Parser(
        prog="asyncfail",
        description="Deterministic async-failure lab: traces and counts as JSON or text.",
        has_commands=True,
    )
    parser.add_argument(
        "--version",
        action=_Version,
        nargs=0,
        default=argparse.SUPPRESS,
        help="show program's version number and exit",
    )
    # Not required here: `main` says a command is missing only once the options before it are
    # known to be good (argparse would answer `asyncfail --bogus` with "COMMAND is required").
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    named = next((word for word in argv if not word.startswith("-")), None)
    for name, summary in COMMANDS.items():
        sub = subparsers.add_parser(name, help=summary, description=summary)
        if name == named:
            module: Subcommand = importlib.import_module(f"asyncfail.cli.{name}")
            module.add_arguments(sub)
            sub.set_defaults(_run=module.run)
    return parser


def _run(words: list[str]) -> str:
    """The text ``asyncfail WORDS`` prints; bad input raises ``UsageError``."""
    parser = build_parser(words)
    try:
        args = parser.parse_args(words)
    except _Answer as answer:
        return answer.text
    if args.command is None:
        parser.error(f"a COMMAND is required: {joined(list(COMMANDS), 'or')}")
    text: str = args._run(args)
    return text


INTERRUPTED: Final = "asyncfail: interrupted"


def main(argv: Sequence[str] | None = None, stdout: TextIO | None = None) -> int:
    """Run the CLI; return the exit status: 0 done, 1 the output could not be written or what
    the command checked does not hold, 2 bad input (nothing was written), 130 interrupted. An
    error is one line on stderr, never a traceback."""
    words = [str(word) for word in (sys.argv[1:] if argv is None else argv)]
    out = sys.stdout if stdout is None else stdout
    try:
        text = _run(words)
    except UsageError as error:
        report(error_line(str(error), words))
        return 2
    except OutputError as error:
        report(error_line(str(error), words))
        return 1
    except Unsuccessful as failure:
        # The output says what failed in full; the line names it. A failed write says so itself.
        if not failure.output or _emit(failure.output, out) == 0:
            report(error_line(str(failure), words))
        return 1
    except KeyboardInterrupt:
        report(INTERRUPTED)
        return 130
    return _emit(text, out)


def _emit(text: str, out: TextIO | None) -> int:
    """Write ``text`` to ``out`` (None: stdout was closed when the process started); return
    the exit status, 1 with one line on stderr if it could not be written."""
    if not text:  # `review --output FILE`: nothing to write, so a closed stdout is no error
        return 0
    if out is None or out.closed:
        report("asyncfail: error: cannot write the output: standard output is closed")
        return 1
    try:
        write_utf8(out, text)
    except BrokenPipeError:
        # A reader such as `head` stopped reading: the status says the output was cut short,
        # and a line on stderr would only be noise in `asyncfail lab --all | head`.
        return 1
    except OSError as error:  # a full disk, a bad descriptor: say so on one line
        reason = error.strerror or type(error).__name__
        report(f"asyncfail: error: cannot write the output: {reason}")
        return 1
    return 0
