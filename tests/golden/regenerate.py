"""Regenerate the golden lab documents by running the real CLI (`make golden`).

Golden files are never edited by hand: a change to the model shows up as a diff here.
"""

import io
from pathlib import Path

from asyncfail.cli import main
from asyncfail.faults import Fault
from asyncfail.scenario import Mode

HERE = Path(__file__).parent / "lab"


def golden_path(fault: Fault, mode: Mode) -> Path:
    return HERE / f"{fault}_{mode}.json"


def cli_output(fault: Fault, mode: Mode) -> str:
    out = io.StringIO()
    assert main(["lab", "--fault", fault, "--mode", mode], stdout=out) == 0
    return out.getvalue()


if __name__ == "__main__":
    HERE.mkdir(parents=True, exist_ok=True)
    for fault in Fault:
        for mode in Mode:
            golden_path(fault, mode).write_text(cli_output(fault, mode), encoding="utf-8")
            print(f"wrote {golden_path(fault, mode)}")
