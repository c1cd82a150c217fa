"""What the README says of a reader that stops early, and of the word ``none`` the help offers,
checked against real pipes and the help text itself."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from asyncfail.cli.main import COMMANDS
from tests.cli.test_cli_edges import options_of
from tests.cli_support import ROOT, run_main

README = (ROOT / "README.md").read_text(encoding="utf-8")


def status_in_a_pipe(reader: str, tmp_path: Path) -> tuple[int, str]:
    """``asyncfail lab --all | READER`` in bash: the CLI's exit status and its stderr."""
    err = tmp_path / "err"
    script = (
        f"{sys.executable} -m asyncfail lab --all 2>{err} | {reader}; "
        'echo "status ${PIPESTATUS[0]}"'
    )
    done = subprocess.run(
        ["bash", "-c", script], capture_output=True, text=True, cwd=ROOT, check=False
    )
    return int(done.stdout.rsplit("status ", 1)[1]), err.read_text(encoding="utf-8")


def test_the_readme_states_both_statuses() -> None:
    text = " ".join(README.split())
    assert "(`asyncfail lab --all | true`) leaves status 1 and no message" in text
    assert "gets 0 (`asyncfail lab --all | head`:" in text


def test_head_after_the_document_is_written_is_status_0(tmp_path: Path) -> None:
    status, err = status_in_a_pipe("head -n 2 >/dev/null", tmp_path)
    assert (status, err) == (0, "")


def test_a_reader_gone_before_the_output_is_status_1_and_no_message() -> None:
    # The reader's end is closed before the CLI starts: no timing involved.
    read, write = os.pipe()
    os.close(read)
    try:
        done = subprocess.run(
            [sys.executable, "-m", "asyncfail", "lab", "--all"],
            stdout=write,
            stderr=subprocess.PIPE,
            cwd=ROOT,
            check=False,
        )
    finally:
        os.close(write)
    assert (done.returncode, done.stderr) == (1, b"")


def optional_settings() -> list[tuple[str, str]]:
    """(command, option) for every option whose help offers the word none, read from the help."""
    found = []
    for command in COMMANDS:
        for option, action in options_of(command).items():
            offers = action.help and re.search(r"\bnone:", action.help)
            if option.startswith("--") and offers and not action.choices:  # a choice is tested
                found.append((command, option))
    return found


MEANS_NONE = {("risk", "--replay-median"): ["--no-replay"]}
"""What an option's none means where it is not leaving the option out (its help says so)."""


def test_the_help_offers_none_somewhere() -> None:
    assert ("lab", "--retention") in optional_settings()
    assert ("lab", "--replay-after") in optional_settings()
    assert ("risk", "--replay-median") in optional_settings()


@pytest.mark.parametrize(("command", "option"), optional_settings())
def test_every_option_whose_help_offers_none_takes_it(command: str, option: str) -> None:
    extra = ["--trials", "1000"] if command == "risk" else []
    left_out = run_main(command, *extra, *MEANS_NONE.get((command, option), []))
    given = run_main(command, *extra, option, "none")
    assert given == left_out and given[0] == 0


def test_a_wrong_word_names_none_among_what_is_accepted() -> None:
    code, out, err = run_main("lab", "--retention", "None")
    assert (code, out) == (2, "")
    assert err.startswith("asyncfail lab: error: argument --retention: 'None' is not a number")
    assert "; or the word none" in err and err.count("\n") == 1
