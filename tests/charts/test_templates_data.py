"""The charts' templates are package data: inside the library's wheel (the one every
WebAssembly page installs) and read from it, zipped, as from the source tree."""

import json
import subprocess
import sys
import zipfile
from pathlib import Path

from asyncfail.charts import specs
from asyncfail.charts.templates import TEMPLATES, TEMPLATES_FILE

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "exports"))

from wheels import library_wheel  # noqa: E402


def test_the_templates_are_the_json_file_in_the_package() -> None:
    path = ROOT / "asyncfail" / "charts" / TEMPLATES_FILE
    assert json.loads(path.read_text(encoding="utf-8")) == TEMPLATES
    assert {"timeline", "time_timeline", "risk_curve"} <= set(TEMPLATES)


def test_the_library_wheel_holds_the_templates_and_they_load_from_it(tmp_path: Path) -> None:
    wheel = library_wheel(tmp_path)
    with zipfile.ZipFile(wheel) as archive:
        inside = json.loads(archive.read(f"asyncfail/charts/{TEMPLATES_FILE}"))
    assert inside == TEMPLATES
    # Imported from the zipped wheel alone (as an installed page's site-packages), not the tree.
    code = (
        "import sys; sys.path.insert(0, sys.argv[1]); import json, asyncfail.charts.specs as s; "
        "assert s.__file__.startswith(sys.argv[1]), s.__file__; "
        "print(json.dumps(s._TEMPLATES, sort_keys=True))"
    )
    done = subprocess.run(
        [sys.executable, "-I", "-c", code, str(wheel)],
        capture_output=True,
        text=True,
        check=True,
        cwd=tmp_path,
    )
    assert json.loads(done.stdout) == TEMPLATES


def test_a_filled_spec_is_its_own_copy_of_the_template() -> None:
    # A spec is handed on (to marimo, to a caller): changing one, however deep, changes
    # neither the template nor the next spec filled from it.
    before = json.dumps(TEMPLATES, sort_keys=True)
    params = {p["name"]: 0 for p in TEMPLATES["time_timeline"].get("params", ())}
    first = specs.fill("time_timeline", params=params, datasets={"cells": []}, title="first")
    for layer in first.get("layer", ()):
        layer["mark"] = "mutated-by-the-test"
    first["params"][0]["value"] = "mutated-by-the-test"
    second = specs.fill("time_timeline", params=params, datasets={"cells": []}, title="second")
    assert json.dumps(TEMPLATES, sort_keys=True) == before
    assert "mutated-by-the-test" not in json.dumps(second)
    assert second["title"] == "second" and second["datasets"] == {"cells": []}
