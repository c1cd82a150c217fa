"""The CLI at the edges of its input: who reports an error, unknown, repeated and abbreviated
options, long values, closed streams, and argument lists a tester would make up."""

import argparse
import contextlib
import io
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from asyncfail.cli.main import COMMANDS, build_parser, main
from asyncfail.cli.output import MAX_LINE, error_line
from asyncfail.ground.prose import ECHO_LIMIT
from asyncfail.ground.version import VERSION
from tests.cli_support import ROOT, run_main, run_process

# A valid value for each option that takes one and has no choices (else its first choice).
VALID = {"--deliveries": "2", "--retention": "60", "--delay": "60", "--output": "-"}


def options_of(command: str) -> dict[str, argparse.Action]:
    """Every option string of ``asyncfail COMMAND`` (the top level for ""), with its action.

    Read from the parser itself, so an option added later is tested too (through argparse's
    private tables: a test may lean on them, the CLI reads only ``_option_string_actions``).
    """
    parser = build_parser([command] if command else [])
    if command:
        commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        parser = commands.choices[command]
    return dict(parser._option_string_actions)


def every_option() -> list[tuple[str, str, argparse.Action]]:
    return [(c, o, a) for c in ["", *COMMANDS] for o, a in options_of(c).items()]


def valid_value(option: str, action: argparse.Action) -> list[str]:
    """The words after ``option`` that make it valid: none for a flag."""
    if action.nargs == 0:
        return []
    return [str(next(iter(action.choices))) if action.choices else VALID.get(option, "1")]


def assert_one_line_error(code: int, out: str, err: str) -> None:
    """Bad input: exit 2, nothing on stdout, one short line on stderr and no traceback."""
    assert (code, out) == (2, "")
    assert err.count("\n") == 1 and err.endswith("\n"), err
    assert len(err) <= MAX_LINE + 1, err
    assert "Traceback" not in err


# --- who reports an error -----------------------------------------------------------------------


@pytest.mark.parametrize("command", list(COMMANDS))
def test_an_unknown_option_is_reported_by_the_subcommand_that_got_it(command: str) -> None:
    code, out, err = run_main(command, "--bogus")
    assert_one_line_error(code, out, err)
    assert err.startswith(f"asyncfail {command}: error: unknown option '--bogus'; the options are ")
    assert "-h/--help" in err


def test_an_unknown_option_lists_the_options() -> None:
    err = run_main("lab", "--bogus=1")[2]
    assert err.startswith(
        "asyncfail lab: error: unknown option '--bogus'; the options are -h/--help, --fault, "
        "--plan, --mode, --all, --deliveries, --format, "
    )
    assert err.endswith(" (see 'asyncfail lab --help')\n")
    for name in ("--schedule", "--retention", "--on-store-outage"):
        assert name in err


def test_an_extra_argument_is_reported_by_the_subcommand() -> None:
    code, out, err = run_main("schema", "lab", "lab")
    assert_one_line_error(code, out, err)
    assert err.startswith("asyncfail schema: error: unexpected argument 'lab'")


def test_version_prints_the_release_version() -> None:
    assert run_main("--version") == (0, f"asyncfail {VERSION}\n", "")
    assert VERSION == "0.1.0"


@pytest.mark.parametrize("command", ["", *COMMANDS])
def test_help_is_the_output_of_the_command(command: str) -> None:
    code, out, err = run_main(*([command] if command else []), "--help")
    assert (code, err) == (0, "")
    assert out.startswith(f"usage: asyncfail {command}".rstrip())


@pytest.mark.parametrize("argv", [["--bogus"], ["--bogus", "lab"], ["--verbose"]])
def test_an_unknown_top_level_option_says_it_is_unknown(argv: list[str]) -> None:
    code, out, err = run_main(*argv)
    assert_one_line_error(code, out, err)
    assert err.startswith(f"asyncfail: error: unknown option '{argv[0]}'; the options are ")
    assert "required" not in err


def test_no_command_says_one_is_required_and_lists_them() -> None:
    code, out, err = run_main()
    assert_one_line_error(code, out, err)
    assert err.startswith(
        "asyncfail: error: a COMMAND is required: lab, explore, risk, schema, review, contract or "
        "verify"
    )


def test_real_process_version_and_unknown_option() -> None:
    version = run_process("--version")
    assert (version.returncode, version.stdout, version.stderr) == (0, "asyncfail 0.1.0\n", "")
    bogus = run_process("--bogus")
    assert (bogus.returncode, bogus.stdout) == (2, "")
    assert bogus.stderr.startswith("asyncfail: error: unknown option '--bogus'")
    lab = run_process("lab", "--bogus")
    assert lab.stderr.startswith("asyncfail lab: error: unknown option '--bogus'")


# --- repeated and abbreviated options ------------------------------------------------------------


@pytest.mark.parametrize(("command", "option", "action"), every_option())
def test_a_repeated_option_exits_2_naming_it(
    command: str,
    option: str,
    action: argparse.Action,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)  # `review --output -` once wrote a file named "-"
    head = [command] if command else []
    value = valid_value(option, action)
    forms = [[option, *value, option, *value]]
    if value:
        forms += [
            [f"{option}={value[0]}", option, *value],
            [option, *value, f"{option}={value[0]}"],
        ]
    for form in forms:
        code, out, err = run_main(*head, *form)
        assert_one_line_error(code, out, err)
        assert f"argument {'/'.join(action.option_strings)}: given more than once" in err, form
        assert err.startswith(f"asyncfail {command}".rstrip() + ": error: ")


def test_the_issue_s_repeats() -> None:
    for argv in (["--fault", "none", "--fault", "request-lost"], ["--all", "--all"]):
        code, out, err = run_main("lab", *argv)
        assert_one_line_error(code, out, err)
        assert f"argument {argv[0]}: given more than once" in err


@pytest.mark.parametrize(
    ("command", "option", "action"), [o for o in every_option() if o[1].startswith("--")]
)
def test_an_abbreviated_option_is_unknown(
    command: str,
    option: str,
    action: argparse.Action,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)  # `review --out -` once wrote a file named "-"
    head = [command] if command else []
    value = valid_value(option, action)
    prefixes = [option[:n] for n in range(3, len(option))]
    for prefix in (p for p in prefixes if p not in options_of(command)):
        for form in ([prefix, *value], [f"{prefix}={value[0]}"] if value else [prefix]):
            code, out, err = run_main(*head, *form)
            assert_one_line_error(code, out, err)
            assert f"unknown option '{prefix}'" in err, form


def test_a_word_after_double_dash_is_an_argument_not_an_option() -> None:
    code, out, err = run_main("lab", "--deliveries", "3", "--", "--deliveries")
    assert_one_line_error(code, out, err)
    assert err.startswith("asyncfail lab: error: unexpected argument '--deliveries'")


# --- long and strange values ---------------------------------------------------------------------

HUGE = ["4" * 4301, "x" * 100_000, "é" * 5000, "\0\n\r\x1b[31m" * 1000]


def test_4301_digits_name_the_option_and_the_range_not_a_function() -> None:
    code, out, err = run_main("lab", "--deliveries", "4" * 4301)
    assert_one_line_error(code, out, err)
    assert err == (
        "asyncfail lab: error: argument --deliveries: must be a whole number from 1 to 9, "
        f"got '{'4' * 97}…' (4301 characters) (see 'asyncfail lab --help')\n"
    )


def test_a_number_with_leading_zeros_is_still_read() -> None:
    assert (
        run_main("lab", "--deliveries", "0" * 5000 + "2")[1]
        == run_main("lab", "--deliveries", "2")[1]
    )


@pytest.mark.parametrize(
    ("command", "option", "action"),
    [o for o in every_option() if o[2].nargs != 0],
)
@pytest.mark.parametrize("value", HUGE, ids=["digits", "ascii", "unicode", "controls"])
def test_a_huge_value_is_echoed_as_a_short_prefix(
    command: str,
    option: str,
    action: argparse.Action,
    value: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)  # --output: whatever the name, nothing outside tmp_path
    for form in ([option, value], [f"{option}={value}"]):
        code, out, err = run_main(command, *form)
        assert code in (1, 2) and out == "", form[0][:20]
        assert err.count("\n") == 1 and len(err) <= MAX_LINE + 1, err[:500]
        assert option in err and value[:ECHO_LIMIT] not in err
        assert not re.search(r"invalid \w+ value", err), "argparse named a type function"


@pytest.mark.parametrize("value", HUGE, ids=["digits", "ascii", "unicode", "controls"])
@pytest.mark.parametrize(
    "argv",
    [
        ["lab", "--{}"],
        ["lab", "{}"],
        ["{}"],
        ["schema", "{}"],
        ["lab", "--all={}"],
        ["lab", "-h{}"],
    ],
)
def test_every_echo_of_a_word_is_short(argv: list[str], value: str) -> None:
    code, out, err = run_main(*(word.format(value) for word in argv))
    assert_one_line_error(code, out, err)
    assert "characters)" in err


def test_control_characters_cannot_break_the_line() -> None:
    code, out, err = run_main("lab", "--mode", "fast\nsecond line\r\x1b[2K\u2028")
    assert_one_line_error(code, out, err)
    assert "'fast\\nsecond line\\r\\x1b[2K\\u2028'" in err


@pytest.mark.parametrize(
    ("argv", "accepted"),
    [
        (["lab", "--fault"], "expected one argument: choose from 'none', 'crash-before-dispatch'"),
        (["lab", "--deliveries"], "expected one argument: give a whole number from 1 to 9"),
        (["review", "--output"], "expected one argument: write the document to FILE"),
        (
            ["lab", "--all=yes"],
            "argument --all: ignored explicit argument 'yes'; it takes no value",
        ),
    ],
)
def test_a_missing_or_unwanted_value_says_what_the_option_accepts(
    argv: list[str], accepted: str
) -> None:
    code, out, err = run_main(*argv)
    assert_one_line_error(code, out, err)
    assert accepted in err


def test_error_line_is_cut_at_its_limit_whatever_echoes_a_value() -> None:
    line = error_line("asyncfail: error: " + "y" * 1000, ["y" * 1000])
    assert line == "asyncfail: error: " + "y" * (MAX_LINE - 19) + "…"
    assert error_line("asyncfail: error: got 'z'", ["z"]) == "asyncfail: error: got 'z'"


# --- closed and failing streams ------------------------------------------------------------------

CLOSED = "asyncfail: error: cannot write the output: standard output is closed\n"


def closed_process(*argv: str, close: tuple[int, ...]) -> subprocess.CompletedProcess[bytes]:
    """``python -m asyncfail ARGV`` started with the descriptors ``close`` closed (``>&-``)."""

    def close_them() -> None:
        for fd in close:
            os.close(fd)

    return subprocess.run(
        [sys.executable, "-m", "asyncfail", *argv],
        stdout=None if 1 in close else subprocess.PIPE,
        stderr=None if 2 in close else subprocess.PIPE,
        preexec_fn=close_them,  # runs in the child, between fork and exec
        cwd=ROOT,
        check=False,
    )


@pytest.mark.parametrize("argv", [["lab"], ["lab", "--all"], ["review"], ["--help"], ["--version"]])
def test_closed_stdout_is_one_line_and_exit_1(argv: list[str]) -> None:
    done = closed_process(*argv, close=(1,))
    assert (done.returncode, done.stderr.decode()) == (1, CLOSED)


def test_closed_stdout_and_stderr_is_just_the_exit_status() -> None:
    assert closed_process("lab", close=(1, 2)).returncode == 1
    assert closed_process("lab", "--bogus", close=(1, 2)).returncode == 2


def test_bad_input_with_stderr_closed_writes_nothing_to_stdout() -> None:
    done = closed_process("lab", "--bogus", close=(2,))
    assert (done.returncode, done.stdout) == (2, b"")


def test_nothing_to_print_with_stdout_closed_is_no_error(tmp_path: Path) -> None:
    done = closed_process("review", "--output", str(tmp_path / "handoff.md"), close=(1,))
    assert (done.returncode, done.stderr) == (0, b"")
    assert (tmp_path / "handoff.md").exists()


def test_in_process_closed_streams(monkeypatch: pytest.MonkeyPatch) -> None:
    err = io.StringIO()
    monkeypatch.setattr(sys, "stdout", None)
    monkeypatch.setattr(sys, "stderr", err)
    assert main(["lab"]) == 1 and err.getvalue() == CLOSED
    closed = io.StringIO()
    closed.close()
    assert main(["lab"], stdout=closed) == 1
    monkeypatch.setattr(sys, "stderr", None)
    assert main(["lab"]) == 1
    out = io.StringIO()
    assert main(["lab", "--bogus"], stdout=out) == 2 and out.getvalue() == ""


def test_a_reader_that_stops_reading_gets_exit_1_and_no_message() -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "asyncfail", "lab", "--all"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
    )
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()
    assert (proc.stderr.read(), proc.wait()) == (b"", 1)


@pytest.mark.parametrize("argv", [["--help"], ["lab", "--help"], ["--version"]])
def test_help_that_cannot_be_written_is_an_error(argv: list[str]) -> None:
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [sys.executable, "-m", "asyncfail", *argv],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            cwd=ROOT,
            check=False,
        )
    assert done.returncode == 1
    assert done.stderr == "asyncfail: error: cannot write the output: No space left on device\n"


# --- argument lists a tester would make up -------------------------------------------------------

OPTIONS = sorted({option for _, option, _ in every_option()} | {"--", "-", "--fau", "--del"})
# `verify` starts real processes for seconds per case: its argument lists are tested in
# tests/reference/, not made up by the hundred here.
QUICK_COMMANDS = [command for command in COMMANDS if command != "verify"]
CHOICES = sorted({str(c) for _, _, action in every_option() for c in action.choices or ()})
VALUES = ["0", "1", "9", "10", "-1", "1.5", "nan", "inf", "1e999", "3600", "", " ", "\u0663"]
WORD = st.one_of(
    st.sampled_from([*QUICK_COMMANDS, "frobnicate", *OPTIONS, *CHOICES, *VALUES]),
    st.text(max_size=12),  # any unicode, control characters included
    st.builds(
        lambda ch, n: ch * n,
        st.sampled_from(["x", "9", "é", "\0", "\n", "-", "😀", "'"]),
        st.integers(101, 100_000),
    ),
    st.sampled_from(["\udcff", "\ud800x"]),  # undecodable argv bytes, and worse
)
ARGUMENT = st.one_of(
    WORD, st.sampled_from(OPTIONS), st.builds("{}={}".format, st.sampled_from(OPTIONS), WORD)
)
ARGV = st.one_of(
    st.lists(ARGUMENT, max_size=8),
    st.builds(
        lambda c, rest: [c, *rest], st.sampled_from(QUICK_COMMANDS), st.lists(ARGUMENT, max_size=8)
    ),
)


@pytest.fixture(scope="module")
def scratch(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where `review --output NAME` may write: the names have no "/", so they stay inside."""
    return tmp_path_factory.mktemp("argv")


@settings(max_examples=400)
@given(argv=ARGV)
def test_any_argument_list_exits_0_1_or_2_with_at_most_one_short_line(
    argv: list[str], scratch: Path
) -> None:
    # A command named anywhere the parser would read one (the first word not an option) may not
    # be `verify` either: `schema verify` offers the word as a choice.
    assume(next((word for word in argv if not word.startswith("-")), None) != "verify")
    with contextlib.chdir(scratch):
        code, out, err = run_main(*(word.replace("/", "_") for word in argv))
    assert code in (0, 1, 2)
    if code == 0:
        assert err == ""
    else:
        assert out == "", "stdout stays empty unless the command succeeds"
        assert err.count("\n") == 1 and err.endswith("\n") and len(err) <= MAX_LINE + 1, err
        assert err.startswith("asyncfail") and "Traceback" not in err
