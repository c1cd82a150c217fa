"""Long work shows its progress on stderr when stderr is a terminal, with the time left, and
nothing on stderr otherwise; the line is erased at the end and stdout is the same either way."""

import os
import pty
import re
import subprocess
import sys

import pytest

from asyncfail.cli.progress import ERASE, ProgressLine, time_left
from tests.cli_support import ROOT

# Each command, the unit it counts, and whether it surely runs past the tenth of a second after
# which the time left is said: the explorer's largest run takes about that long now (it runs only
# the reachable plans), so only its line is checked there, and the rule itself is checked below
# on a clock the test moves.
LONG = {
    "risk": (["risk", "--trials", "100000", "--jitter", "full"], "trials", True),
    "explore": (
        ["explore", "--max-faults", "3", "--deliveries", "9", "--workers", "2"],
        "plans",
        False,
    ),
    "verify": (["verify", "--fault", "response-lost", "--jobs", "2"], "cases", True),
}


def run_with_stderr_on_a_terminal(argv: list[str]) -> tuple[int, str, str]:
    """``python -m asyncfail ARGV`` with stderr on a pseudo-terminal: (status, stdout, stderr)."""
    leader, follower = pty.openpty()
    process = subprocess.Popen(
        [sys.executable, "-m", "asyncfail", *argv],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=follower,
        text=True,
    )
    os.close(follower)
    seen = b""
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # the terminal's other side closed: the process is done with it
            break
        if not chunk:
            break
        seen += chunk
    out, _ = process.communicate(timeout=600)
    os.close(leader)
    return process.returncode, out, seen.decode("utf-8")


@pytest.mark.parametrize("command", list(LONG))
def test_progress_on_a_terminal_and_nothing_on_a_pipe(command: str) -> None:
    argv, unit, long_enough = LONG[command]
    code, out, err = run_with_stderr_on_a_terminal(argv)
    assert code == 0
    lines = [part for part in err.split(ERASE) if part]
    assert lines, "at least one progress line"
    pattern = rf"asyncfail {command}: [0-9,]+ of [0-9,]+ {unit}(, about \d+ (s|min) left)?"
    assert all(re.fullmatch(pattern, line) for line in lines), lines
    assert any("left" in line for line in lines) or not long_enough, "the time left is said"
    assert err.endswith(ERASE), "erased at the end"
    piped = subprocess.run(
        [sys.executable, "-m", "asyncfail", *argv], cwd=ROOT, capture_output=True, text=True
    )
    assert (piped.returncode, piped.stderr) == (0, "")
    assert piped.stdout == out


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


class Screen:
    def __init__(self) -> None:
        self.written = ""

    def write(self, text: str) -> int:
        self.written += text
        return len(text)

    def flush(self) -> None:
        pass


def test_the_time_left_is_the_pace_so_far_applied_to_what_remains() -> None:
    clock, screen = Clock(), Screen()
    line = ProgressLine("risk", "trial", screen, clock)  # type: ignore[arg-type]
    clock.now = 2.0
    line(1000, 5000)  # 2 s for 1,000: 8 s for the 4,000 left
    assert screen.written == ERASE + "asyncfail risk: 1,000 of 5,000 trials, about 8 s left"
    clock.now = 2.05
    line(1100, 5000)  # within the redraw interval: not redrawn
    assert screen.written.count(ERASE) == 1
    line(5000, 5000)
    assert screen.written.endswith(ERASE) and screen.written.count(ERASE) == 2


@pytest.mark.parametrize(
    ("seconds", "said"),
    [(0.2, "about 1 s left"), (8.0, "about 8 s left"), (8.1, "about 9 s left"),
     (59.4, "about 60 s left"), (60, "about 1 min left"), (61, "about 2 min left"),
     (600, "about 10 min left"), (7200, "about 2.0 h left")],
)  # fmt: skip
def test_time_left_rounds_up(seconds: float, said: str) -> None:
    assert time_left(seconds) == said
