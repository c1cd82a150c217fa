"""The extended CLI fuzz (issue 21): every option of every subcommand, read from the parser (a
new option is fuzzed without editing this file), given hostile values in every form a command
line can carry them, in-process and deterministic.

The rule each outcome must meet (``check``): exit 0 with a whole, valid document on stdout and
nothing on stderr; or exit 2 with nothing on stdout and one uncut line on stderr that names what
is accepted; or, where the README documents it, exit 1 with one line (``review --output`` when
the file cannot be written). Never a traceback, and never a file left behind by an ``--output``
that failed. ``verify`` is fuzzed up to the point where it would start processes: its
verification is replaced by a stand-in that stops the run there (``WouldRun``).
"""

import argparse
import contextlib
import json
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Final

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from asyncfail.cli import engine_verify
from asyncfail.cli import verify as verify_command
from asyncfail.cli.main import COMMANDS
from asyncfail.cli.output import MAX_LINE
from tests.cli.test_cli_edges import every_option, valid_value
from tests.cli_support import run_main

HOSTILE: Final = [
    "", " ", "\t", "\n", "0", "-0", "00", "-1", "1.5", "+1", "1e999", "-1e999", "1e-999", "5e-324",
    "1e308", "0.0005", "4", "9", "10", "2592000", "2592001", "nan", "NaN", "inf", "-inf",
    "Infinity", "0x10", "1_000", "\u0663", "\uff11", "\u00a01", "9" * 5000, "1" + "0" * 400,
    "none", " none ", "None", "null", "true", "bogus", "-", "--", "=", "x" * 100_000, "é", "😀" * 3,
    "\x00", "'", '"', "<img src=x onerror=alert(1)>", "a b", "a,b", "1:after-effect,1:lookup",
    os.fsdecode(b"\xff\xfe"),  # undecodable argv bytes, as Python hands them over
    os.fsdecode(b"\xed\xa0\x80"),  # a lone surrogate's UTF-8 bytes
    "\ud800",  # a lone surrogate no real argv can hold
]  # fmt: skip
"""Values no option should mishandle: empty and blank, signs and zeros, the edges of numbers
(huge, tiny, 5,000 digits, NaN, infinities, other scripts' digits), words an option may or may
not take, option-like words, very long text, control characters, quotes and markup, and
undecodable bytes."""

IN_EQUALS_FORM: Final = ["", "x", "-1", "9" * 5000, os.fsdecode(b"\xff"), "a=b"]
"""Values also given as ``--option=value``."""

CHEAP: Final[dict[str, list[str]]] = {
    "risk": ["--trials", "1"],
    "explore": ["--max-faults", "1", "--deliveries", "1"],
}
"""Options given with every fuzzed one, so that a run the values allow stays short (dropped
when the fuzzed option is one of them)."""

ACCEPTED_WORDS: Final = (
    "choose from",
    "give ",
    "must be a whole number from",
    "is not a number from",
    "the options are",
    "it takes no value",
    "runs only",
    "runs the naive and durable runtimes",
    "engine runs",
    "use --key",
    "name a new or empty folder",
    "name a file",
    "to FILE",
    "drop ",
)
"""How an exit-2 line says what is accepted; each such line holds one of them."""

FORMATS: Final = {"json", "text", "markdown", "html"}
DEFAULT_FORMAT: Final = {c: str(a.default) for c, o, a in every_option() if o == "--format"}


class WouldRun(Exception):
    """``verify`` got past its checks and would now start processes."""


def would_run(*_: object, **__: object) -> None:
    raise WouldRun


@contextlib.contextmanager
def no_scratch() -> Iterator[Path]:
    # The scratch folder's clean-up removes other runs' folders: none of that here.
    yield Path(".")


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The current directory for the runs, with ``verify`` stopped before any process."""
    monkeypatch.setattr(verify_command, "verify", would_run)
    monkeypatch.setattr(verify_command, "scratch_folder", no_scratch)
    monkeypatch.setattr(engine_verify, "verify_engine", would_run)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def options() -> list[tuple[str, str, argparse.Action]]:
    """Every option of every subcommand and of ``asyncfail`` itself, help aside."""
    return [(c, o, a) for c, o, a in every_option() if o not in ("-h", "--help")]


def safe(value: str) -> str:
    """``value`` as a name inside the run's folder: no ``/``, so a file stays inside it."""
    return value.replace("/", "_")


def argument_lists(command: str, option: str, action: argparse.Action) -> Iterator[list[str]]:
    """Every form the fuzz gives ``option`` in: each hostile value, some as ``option=value``,
    the option repeated, its value missing (last, or before another option); a flag given a
    value."""
    cheap = CHEAP.get(command, [])
    if option in cheap:
        at = cheap.index(option)
        cheap = cheap[:at] + cheap[at + 2 :]
    head = [command, *cheap] if command else []
    valid = valid_value(option, action)
    yield [*head, option, *valid, option, *valid]
    if action.nargs == 0:
        yield [*head, option]
        yield from ([*head, f"{option}={safe(value)}"] for value in IN_EQUALS_FORM)
        return
    yield [*head, option]
    yield [*head, option, "--format", "json"]
    yield from ([*head, option, safe(value)] for value in HOSTILE)
    yield from ([*head, f"{option}={safe(value)}"] for value in IN_EQUALS_FORM)


def given_value(argv: list[str], option: str) -> str | None:
    """The value ``argv`` gives ``option`` (the last one), in either form."""
    value = None
    for word, after in zip(argv, [*argv[1:], None], strict=True):
        if word == option:
            value = after
        elif word.startswith(f"{option}="):
            value = word.partition("=")[2]
    return value


def check(argv: list[str], folder: Path) -> str | None:
    """Run ``argv`` and say what is wrong with the outcome (None: nothing); the run's folder is
    left empty for the next."""
    try:
        code, out, err = run_main(*argv)
    except WouldRun:
        code, out, err = 0, "", ""
    except Exception as error:  # the very thing the fuzz looks for
        return f"raised {type(error).__name__}: {str(error)[:200]}"
    left = sorted(os.listdir(folder))
    try:
        return judged(argv, code, out, err, left, folder)
    finally:
        for name in left:
            path = folder / name
            shutil.rmtree(path) if path.is_dir() and not path.is_symlink() else path.unlink()


def judged(
    argv: list[str], code: int, out: str, err: str, left: list[str], folder: Path
) -> str | None:
    command = argv[0] if argv and not argv[0].startswith("-") else ""
    output = given_value(argv, "--output") if command == "review" else None
    if "Traceback" in err:
        return f"a traceback (exit {code})"
    if code == 0:
        if err:
            return f"exit 0 with {err!r} on stderr"
        if output not in (None, "-"):
            written = [name for name in left if not (folder / name).is_dir()]
            if out or written != [output]:
                return f"exit 0 but the --output file is not the one file written: {written}"
            at = argv.index(output) - 1 if output in argv else argv.index(f"--output={output}")
            whole = run_main(*argv[:at], *argv[at + (2 if argv[at] == "--output" else 1) :])[1]
            if (folder / output).read_text(encoding="utf-8") != whole:
                return "exit 0 but the --output file is not the whole document"
            return None
        return None if out == "" and command == "verify" else bad_document(argv, out)
    line = err.removesuffix("\n")
    if out:
        return f"exit {code} with output on stdout"
    if "\n" in line or not err.endswith("\n") or len(err) > MAX_LINE + 1:
        return f"exit {code} without one line on stderr: {err[:200]!r}"
    if not line.startswith("asyncfail"):
        return f"exit {code} with a line that does not name the command: {line[:200]!r}"
    if output not in (None, "-") and left:
        return f"exit {code} left {left} behind"
    if code == 1 and output is not None and "cannot write the --output file" in line:
        return None  # documented: the output file could not be written
    if code != 2:
        return f"exit {code}: {line[:200]!r}"
    if line.endswith("…"):
        return f"an exit-2 line cut short: {line[-100:]!r}"
    if not any(words in line for words in ACCEPTED_WORDS):
        return f"an exit-2 line that does not say what is accepted: {line[:300]!r}"
    return None


def bad_document(argv: list[str], out: str) -> str | None:
    """What is wrong with the output of a successful run: a JSON document unless a format
    says otherwise, else a whole text (an HTML page from its doctype)."""
    chosen = given_value(argv, "--format")
    format_ = chosen if chosen in FORMATS else DEFAULT_FORMAT.get(argv[0], "json")
    if argv[-1:] == ["--version"] or ("--all" in argv and argv[0] != "lab"):
        format_ = "text"
    if not out.endswith("\n"):
        return f"exit 0 with output that does not end its last line: {out[-100:]!r}"
    if format_ == "json":
        try:
            json.loads(out)
        except ValueError:
            return f"exit 0 with output that is not one JSON document: {out[:100]!r}"
    if format_ == "html" and not out.startswith("<!doctype html>"):
        return f"exit 0 with output that is not an HTML page: {out[:100]!r}"
    return None


@pytest.mark.parametrize(
    ("command", "option", "action"),
    options(),
    ids=[f"{c or 'asyncfail'}{o}" for c, o, _ in options()],
)
def test_every_option_handles_every_hostile_value(
    command: str, option: str, action: argparse.Action, folder: Path
) -> None:
    wrong = []
    for argv in argument_lists(command, option, action):
        problem = check(argv, folder)
        if problem is not None:
            wrong.append(f"{[word[:40] for word in argv]}: {problem}")
    assert not wrong, "\n".join(wrong)


def test_the_fuzz_covers_every_subcommand() -> None:
    fuzzed = {command for command, _, _ in options()}
    # `schema` has no option of its own: the combinations below give it hostile words.
    assert fuzzed == {"", *COMMANDS} - {"schema"}


OWN: Final = {c: [(o, a) for cc, o, a in options() if cc == c] for c in COMMANDS}
ANY: Final = [(o, a) for _, o, a in options()]


@st.composite
def command_lines(draw: st.DrawFn) -> list[str]:
    """A command with up to four options, mostly its own (a valid value or a hostile one),
    sometimes another command's, each given once."""
    command = draw(st.sampled_from(list(COMMANDS)))
    argv = [command, *CHEAP.get(command, [])]
    for _ in range(draw(st.integers(1, 4))):
        own = OWN[command] and draw(st.integers(0, 9)) > 0
        option, action = draw(st.sampled_from(OWN[command] if own else ANY))
        if option in argv:
            continue
        if action.nargs == 0:
            argv.append(option)
            continue
        valid = valid_value(option, action)
        values = valid if valid and draw(st.booleans()) else HOSTILE
        argv += [option, safe(draw(st.sampled_from(values)))]
    return argv


@settings(
    max_examples=200,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(argv=command_lines())
def test_hostile_values_together_are_handled(argv: list[str], folder: Path) -> None:
    problem = check(argv, folder)
    assert problem is None, f"{argv}: {problem}"


# --- what the fuzz found, one by one ------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "accepted"),
    [
        # A missing value gave the option's help, which for a duration, a probability or a
        # seed did not say what to give; verify's other settings printed "==SUPPRESS==".
        (["risk", "--lease"], "expected one argument: give a number of seconds from 0 to "),
        (["risk", "--retention"], "such as 60 or 0.5, written with the digits 0-9 and a dot as "
         "the decimal mark, to the millisecond; or the word none (see 'asyncfail risk --help')"),
        (["risk", "--target"], "expected one argument: give a probability from 0 to 1, "),
        (["risk", "--replay-spread"], "expected one argument: give a number from 0 to 4 "),
        (["risk", "--seed"], "expected one argument: give a whole number from 0 to "),
        (["lab", "--plan"], "expected one argument: give a comma-separated list of ATTEMPT:POINT"),
        (["verify", "--schedule"], "expected one argument: give a value, though the reference "
         "implementation runs only --key, --record and --receiver"),
        # A replay spread too long to read did not say what a spread may be.
        (["risk", "--replay-spread", "1" * 41], "is too long (40 characters at most); give a "
         "number from 0 to 4 (a log-normal sigma)"),
    ],
)  # fmt: skip
def test_a_refusal_says_what_to_give(argv: list[str], accepted: str) -> None:
    code, out, err = run_main(*argv)
    assert (code, out) == (2, "")
    assert accepted in err and "SUPPRESS" not in err and err.count("\n") == 1


def test_the_longest_refusal_is_not_cut() -> None:
    # A plan refused with a long value echoed, and what a plan may be: about 600 characters,
    # cut at 400 before, in the middle of the list of points.
    code, _, err = run_main("lab", "--plan", "1" + "0" * 400)
    assert code == 2 and len(err) > 500
    assert err.endswith("(see 'asyncfail lab --help')\n")


def test_a_target_smaller_than_any_float_can_invert_is_a_report() -> None:
    # 3.84 / 5e-324 is more than a float holds: an OverflowError's traceback before.
    code, out, err = run_main("risk", "--trials", "1", "--target", "5e-324")
    assert (code, err) == (0, "")
    needed = json.loads(out)["required"]["trials_needed"]
    assert needed > 10**323 and len(str(needed)) == 324
