"""The CLI at the edges of its input: who reports an error, unknown, repeated and abbreviated
options, long values, closed streams, and argument lists a tester would make up."""

import pytest

from asyncfail.cli.main import COMMANDS
from asyncfail.ground.version import VERSION
from tests.cli_support import run_main, run_process


def assert_one_line_error(code: int, out: str, err: str) -> None:
    """Bad input: exit 2, nothing on stdout, one short line on stderr and no traceback."""
    assert (code, out) == (2, "")
    assert err.count("\n") == 1 and err.endswith("\n"), err
    assert len(err) <= 400, err
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
    assert err == (
        "asyncfail lab: error: unknown option '--bogus'; the options are -h/--help, --fault, "
        "--mode, --all, --deliveries and --format (see 'asyncfail lab --help')\n"
    )


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
        "asyncfail: error: a COMMAND is required: lab, schema, review or contract"
    )


def test_real_process_version_and_unknown_option() -> None:
    version = run_process("--version")
    assert (version.returncode, version.stdout, version.stderr) == (0, "asyncfail 0.1.0\n", "")
    bogus = run_process("--bogus")
    assert (bogus.returncode, bogus.stdout) == (2, "")
    assert bogus.stderr.startswith("asyncfail: error: unknown option '--bogus'")
    lab = run_process("lab", "--bogus")
    assert lab.stderr.startswith("asyncfail lab: error: unknown option '--bogus'")
