"""Regenerate the golden lab documents by running the real CLI (`make golden`), the chart
templates from the altair builders, and `notebooks/README.md` (the catalog) from the library.
The instructor guide (`docs/teaching.md`) is written by hand: `tests/docs` runs its examples.

Golden files are never edited by hand: a change to the model shows up as a diff here.
"""

import io
import json
from pathlib import Path

from asyncfail.cli.main import main
from asyncfail.course.catalog import notebooks_readme
from asyncfail.lab.faults import Fault
from asyncfail.lab.scenario import Mode

HERE = Path(__file__).parent / "lab"
ROOT = Path(__file__).resolve().parents[2]
CHART_TEMPLATES = ROOT / "asyncfail" / "charts" / "templates.json"
NOTEBOOKS_README = ROOT / "notebooks" / "README.md"


def golden_path(fault: Fault, mode: Mode) -> Path:
    return HERE / f"{fault}_{mode}.json"


def cli_output(fault: Fault, mode: Mode) -> str:
    out = io.StringIO()
    assert main(["lab", "--fault", fault, "--mode", mode], stdout=out) == 0
    return out.getvalue()


def chart_templates_source() -> str:
    """The text of ``asyncfail/charts/templates.json``, from the altair builders."""
    from asyncfail.charts.builders import templates

    return json.dumps(templates(), indent=1, ensure_ascii=False) + "\n"


if __name__ == "__main__":
    HERE.mkdir(parents=True, exist_ok=True)
    for fault in Fault:
        for mode in Mode:
            golden_path(fault, mode).write_text(cli_output(fault, mode), encoding="utf-8")
            print(f"wrote {golden_path(fault, mode)}")
    CHART_TEMPLATES.write_text(chart_templates_source(), encoding="utf-8")
    print(f"wrote {CHART_TEMPLATES}")
    NOTEBOOKS_README.write_text(notebooks_readme(), encoding="utf-8")
    print(f"wrote {NOTEBOOKS_README}")
