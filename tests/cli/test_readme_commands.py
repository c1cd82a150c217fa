"""The README's CLI examples work when pasted, as written."""

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent


def readme_cli_block() -> list[str]:
    """The lines of the shell block under "## The CLI", comments removed."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## The CLI", 1)[1]
    block = re.search(r"```sh\n(.*?)```", section, re.S)
    assert block, "the CLI section has a shell block"
    return [line.split("  #")[0].strip() for line in block.group(1).splitlines() if line.strip()]


def test_the_block_sets_itself_up_before_it_runs_asyncfail() -> None:
    lines = readme_cli_block()
    assert lines[0] == "make lab", "creates .venv on first use"
    assert lines[1] in {". .venv/bin/activate", "source .venv/bin/activate"}
    assert all(line.startswith("asyncfail ") for line in lines[2:])


@pytest.mark.parametrize("line", readme_cli_block()[2:])
def test_each_example_runs(line: str, tmp_path: Path) -> None:
    argv = shlex.split(line)
    done = subprocess.run(
        [str(BIN / argv[0]), *argv[1:]], cwd=tmp_path, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout or list(tmp_path.iterdir()), "it printed or wrote something"
