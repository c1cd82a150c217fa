"""The lessons' Markdown rendered as the site is built (asyncfail/course/prerendered.py), on the
built site, and the build's part of it (exports/prerender.py).

Each lesson runs in marimo's own Pyodide session, on the site's Pyodide with its wheels, under
Node: the calls a page's worker makes. The oracle is marimo's own renderer: the same lesson with
the library's kernel lifespan turned off by marimo's own switch (its entry points' denylist).
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
import shutil
import subprocess
import sys
import zipfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "exports"))

import prerender  # noqa: E402
from build import MIRROR_DIR, WHEELS_DIR, BuildReport  # noqa: E402
from prerender import MEMO_PATH, add_to_wheel, merged  # noqa: E402

from asyncfail.course.execution_notices import NOTICE  # noqa: E402

# The kernel's messages for its editor's panels, which the lifespan stops before the first run.
from tests.course.test_editor_data import PANEL_DATA  # noqa: E402

pytestmark = pytest.mark.browser

# marimo's kernel loads no lifespan named here (marimo._entrypoints.registry, MARIMO_{GROUP}_...).
DENIED = {"MARIMO_KERNEL_LIFESPAN_DENYLIST": "asyncfail"}
# What the site's wheel adds to its entry points (a line of text, as a wheel's metadata holds it).
LIFESPAN = "[marimo.kernel.lifespan]\nasyncfail = asyncfail.course.prerendered:lifespan\n"
# A control's HTML carries an id drawn afresh at every run (as in build.RANDOM_ID).
RANDOM_ID = re.compile(r"random-id=(\\u0027|'|&#x27;|&quot;|\")[0-9a-f-]{36}")

RUNNER = r"""
import { readFileSync, readdirSync } from "node:fs";
import { basename, resolve } from "node:path";
import { pathToFileURL } from "node:url";
const [site, notebook, environment] = process.argv.slice(2);
const core = resolve(site, "%(mirror)s");
const { loadPyodide } = await import(pathToFileURL(resolve(core, "pyodide.mjs")).href);
const pyodide = await loadPyodide({
  indexURL: core + "/", env: JSON.parse(environment), stdout: () => {}, stderr: () => {},
});
const wheels = (folder) => readdirSync(folder).filter((name) => name.endsWith(".whl")).sort()
  .map((name) => pathToFileURL(resolve(folder, name)).href);
await pyodide.loadPackage([...wheels(core), ...wheels(resolve(site, "%(wheels)s"))],
  { messageCallback: () => {} });
pyodide.FS.writeFile(`/home/pyodide/${basename(notebook)}`, readFileSync(notebook, "utf8"));
pyodide.globals.set("NOTEBOOK", `/home/pyodide/${basename(notebook)}`);
await pyodide.runPythonAsync(`
import asyncio, json
import marimo._output.md as markdown
import marimo._pyodide.bootstrap as bridge
from marimo._pyodide.bootstrap import create_session, instantiate
PANEL_DATA = %(panel_data)s
NOTICE = %(notice)s
outputs, built, panels, notices, ops = [], [], [], [], []
def received(message):
    said = json.loads(message)
    data = said.get("data", said)
    if not built:
        ops.append([said["op"], data.get("op")])
    if data.get("op") in PANEL_DATA and not built:
        panels.append(data["op"])
    if data.get("op") == NOTICE and not built:
        notices.append(data["phase"])
    output = data.get("output") if data.get("op") == "cell-op" else None
    if output and not built:
        outputs.append([data["cell_id"], output["mimetype"], output["data"]])
    if data.get("op") == "completed-run" and not built:
        built.append(markdown._get_markdown.cache_info().currsize)
session, _bridge = create_session(
    filename=NOTEBOOK, query_params={}, message_callback=received, user_config={})
instantiate(session)
task = asyncio.create_task(session.start())
while not built:
    await asyncio.sleep(0.005)
after = asyncio.get_running_loop().create_future()
asyncio.get_running_loop().call_soon(after.set_result, None)
await after
warmed = markdown._get_markdown.cache_info().currsize > 0
with open("/home/pyodide/said.json", "w") as file:
    json.dump({"converter_built": built[0] > 0, "by_warm_up": warmed, "outputs": outputs,
               "panel_data": panels, "notices": notices, "ops": ops,
               "named_by_op": hasattr(bridge.deserialize_kernel_message, "__wrapped__")}, file)
`);
process.stdout.write(pyodide.FS.readFile("/home/pyodide/said.json", { encoding: "utf8" }));
process.exit(0);
"""


@pytest.fixture(scope="module")
def runner(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("prerendered") / "first_run.mjs"
    panel_data = json.dumps(sorted(PANEL_DATA))
    path.write_text(
        RUNNER
        % {
            "mirror": MIRROR_DIR,
            "wheels": WHEELS_DIR,
            "panel_data": panel_data,
            "notice": json.dumps(NOTICE),
        },
        encoding="utf-8",
    )
    return path


def first_run(
    runner: Path, site: Path, notebook: Path, environment: dict[str, str]
) -> dict[str, Any]:
    """What ``notebook``'s first run on ``site`` sent (each output, the name the page was given
    for each message with the op the message holds, the op of each message for the editor's
    panels and the phase of each notice of an attempt to run a cell, until ``completed-run``),
    whether marimo's bridge read each message's name alone (course/message_names.py) by then,
    whether marimo built its Markdown converter by then, and whether by the end of the lesson's
    warm-up (asyncfail/course/warmup.py: handed to the kernel's event loop during the run, so
    over once a callback handed to the loop after the run has run)."""
    node = shutil.which("node")
    assert node is not None
    argv = [node, str(runner), str(site), str(notebook), json.dumps(environment)]
    done = subprocess.run(argv, capture_output=True, text=True, encoding="utf-8", timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    said: dict[str, Any] = json.loads(done.stdout)
    for output in said["outputs"]:
        output[2] = RANDOM_ID.sub("random-id=?", json.dumps(output[2]))
    return said


def test_the_site_wheel_holds_the_memo_and_names_the_lifespan(built_site: BuildReport) -> None:
    (wheel,) = (built_site.out / WHEELS_DIR).glob("asyncfail-*.whl")
    with zipfile.ZipFile(wheel) as opened:
        memo = json.loads(opened.read(MEMO_PATH))
        names = opened.namelist()
        (points,) = [n for n in names if n.endswith(".dist-info/entry_points.txt")]
        entry_points = opened.read(points).decode()
        (record,) = [n for n in names if n.endswith(".dist-info/RECORD")]
        listed = opened.read(record).decode()
    assert entry_points.startswith("[console_scripts]\nasyncfail = asyncfail.cli.main:main\n")
    assert entry_points.endswith("\n" + LIFESPAN)
    assert f"{MEMO_PATH},sha256=" in listed
    # The lessons' Markdown-only cells are among the texts: each lesson's title heading.
    assert sum("<h1" in html for html in memo.values()) >= len(built_site.pages)
    assert all(isinstance(t, str) and isinstance(h, str) for t, h in memo.items())
    assert list(memo) == sorted(memo)


def test_lesson_1_first_run_shows_what_marimo_renders_and_builds_no_converter_nor_its_warm_up(
    built_site: BuildReport, runner: Path
) -> None:
    # and, the lifespan installed, sends none of the editor's panel data that marimo's does,
    # nor a notice of an attempt to run a cell, three a cell in marimo's, and gives every other
    # message the name marimo's bridge gives it, read from the message's op alone.
    lesson = built_site.pages[0].path
    with ThreadPoolExecutor(max_workers=2) as pool:
        memo, marimos = pool.map(
            lambda environment: first_run(runner, built_site.out, lesson, environment), [{}, DENIED]
        )
    assert marimos["converter_built"], "marimo's own run renders with its converter"
    assert not memo["converter_built"], "the first run rendered a text the memo lacks"
    assert not memo["by_warm_up"], "the warm-up rendered a text the memo lacks"
    assert len(memo["outputs"]) >= 20
    assert memo["outputs"] == marimos["outputs"]
    assert "variable-values" in marimos["panel_data"]
    assert memo["panel_data"] == []
    assert sorted(set(marimos["notices"])) == ["completed", "planned", "running"]
    assert len(marimos["notices"]) >= 3 * 20
    assert memo["notices"] == []
    assert memo["named_by_op"] and not marimos["named_by_op"]
    assert all(name == op for name, op in memo["ops"] + marimos["ops"])
    dropped = PANEL_DATA | {NOTICE}
    assert memo["ops"] == [[name, op] for name, op in marimos["ops"] if name not in dropped]
    assert memo["ops"][0][0] == "kernel-ready" and memo["ops"][-1][0] == "completed-run"


def test_no_other_lesson_first_run_or_warm_up_builds_the_converter(
    built_site: BuildReport, runner: Path
) -> None:
    others = [lesson.path for lesson in built_site.pages[1:]]

    def converter_built(notebook: Path) -> bool:
        said = first_run(runner, built_site.out, notebook, {})
        return bool(said["converter_built"] or said["by_warm_up"])

    with ThreadPoolExecutor(max_workers=2) as pool:
        built = dict(zip([p.name for p in others], pool.map(converter_built, others), strict=True))
    assert not any(built.values()), built


def test_the_memo_keeps_every_text_once_sorted_but_those_with_an_image() -> None:
    runs = [
        {"b": "<p>b</p>", "a": "<p>a</p>"},
        {"a": "<p>a</p>", "![x](x.png)": '<p><img src="data:..."></p>', "é": "<p>é</p>"},
    ]
    memo = merged(runs)
    assert json.loads(memo) == {"a": "<p>a</p>", "b": "<p>b</p>", "é": "<p>é</p>"}
    assert memo.decode().index('"a"') < memo.decode().index('"b"')
    assert merged(runs[::-1]) == memo


def test_two_lessons_rendering_one_text_apart_stop_the_build() -> None:
    with pytest.raises(SystemExit, match=r"^export: two lessons render one Markdown text apart"):
        merged([{"a": "<p>a</p>"}, {"a": "<p>A</p>"}])


def entries(wheel: Path) -> dict[str, tuple[bytes, tuple[int, ...], int]]:
    with zipfile.ZipFile(wheel) as opened:
        return {
            i.filename: (opened.read(i), i.date_time, i.external_attr >> 16)
            for i in opened.infolist()
        }


def test_the_memo_and_the_lifespan_go_into_the_wheel_listed_in_its_record(tmp_path: Path) -> None:
    wheel = tmp_path / "lib-1.0-py3-none-any.whl"
    dated = (2020, 2, 3, 4, 5, 6)
    scripts = "[console_scripts]\nlib = lib.cli:main\n"
    with zipfile.ZipFile(wheel, "w") as made:
        made.writestr(zipfile.ZipInfo("lib/__init__.py", dated), b"x = 1\n")
        made.writestr(zipfile.ZipInfo("lib-1.0.dist-info/entry_points.txt", dated), scripts)
        made.writestr(zipfile.ZipInfo("lib-1.0.dist-info/RECORD", dated), b"")
    before = entries(wheel)
    add_to_wheel(wheel, "lib/memo.json", b'{"a": "<p>a</p>"}')
    once = wheel.read_bytes()
    add_to_wheel(wheel, "lib/memo.json", b'{"a": "<p>a</p>"}')
    assert wheel.read_bytes() == once, "adding it again changes nothing"
    found = entries(wheel)
    assert found["lib/__init__.py"] == before["lib/__init__.py"], "the others as they were"
    assert found["lib/memo.json"] == (b'{"a": "<p>a</p>"}', dated, 0o644)
    points = found["lib-1.0.dist-info/entry_points.txt"][0].decode()
    assert points == scripts + "\n" + LIFESPAN, "the scripts kept, the lifespan after them"
    lines = found["lib-1.0.dist-info/RECORD"][0].decode().splitlines()
    assert lines[-1] == "lib-1.0.dist-info/RECORD,,"
    for line in lines[:-1]:  # each file's digest and size, as a wheel installer checks them
        name, digest, size = line.split(",")
        data = found[name][0]
        expected = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
        assert (digest, int(size)) == (f"sha256={expected.decode()}", len(data))
    assert sorted(line.split(",")[0] for line in lines) == sorted(found)


def test_a_wheel_without_entry_points_gets_the_lifespan_alone(tmp_path: Path) -> None:
    wheel = tmp_path / "lib-1.0-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as made:
        made.writestr("lib-1.0.dist-info/RECORD", b"")
    add_to_wheel(wheel, "lib/memo.json", b"{}")
    assert entries(wheel)["lib-1.0.dist-info/entry_points.txt"][0].decode() == LIFESPAN


def test_a_memo_made_once_is_read_from_the_cache_for_the_same_inputs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    core = tmp_path / "core"
    core.mkdir()
    for name in ("pyodide.asm.wasm", "python_stdlib.zip", "pkg-1-py3-none-any.whl"):
        (core / name).write_bytes(name.encode())
    notebook = tmp_path / "lesson.py"
    notebook.write_text("import marimo\n", encoding="utf-8")
    wheel = tmp_path / "lib-1.0-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as made:
        made.writestr("lib-1.0.dist-info/RECORD", b"")
    original = wheel.read_bytes()
    runs: list[str] = []

    def run(_core: Path, _library: Path, nb: Path) -> dict[str, str]:
        runs.append(nb.name)
        return {"# A": "<h1>A</h1>"}

    monkeypatch.setattr(prerender, "first_run", run)
    cache = tmp_path / "cache"
    key = prerender.memo_key(core, wheel, [notebook])
    assert prerender.prerender(core, wheel, [notebook], cache) == 1
    assert runs == ["lesson.py"]
    wheel.write_bytes(original)
    assert prerender.prerender(core, wheel, [notebook], cache) == 1
    assert runs == ["lesson.py"], "the second build reads the cache"
    assert json.loads(entries(wheel)[MEMO_PATH][0]) == {"# A": "<h1>A</h1>"}
    notebook.write_text("import marimo  # edited\n", encoding="utf-8")
    assert prerender.memo_key(core, wheel, [notebook]) != key


def test_a_first_run_that_fails_or_does_not_end_stops_the_build_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    notebook = tmp_path / "lesson.py"
    notebook.write_text("import marimo\n", encoding="utf-8")
    # No Pyodide core in this folder: Node stops at once.
    with pytest.raises(
        SystemExit, match=r"^export: the first run of lesson\.py under Node failed$"
    ):
        prerender.first_run(tmp_path, tmp_path / "lib.whl", notebook)
    monkeypatch.setattr(prerender, "RUN_LIMIT_S", 0.001)
    with pytest.raises(SystemExit, match=r"did not end in 0\.001 s$"):
        prerender.first_run(tmp_path, tmp_path / "lib.whl", notebook)
