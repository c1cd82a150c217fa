"""The test site, built once per test run in a background process while other tests run.

Building the site (`make export`: every lesson exported twice, the pictures drawn by Chromium)
takes one to two minutes. It used to be built inside the first browser test, with every browser
test kept on one pytest-xdist worker so that it was built once: that worker ran the whole
browser suite alone while the other sat idle after the rest of the suite, which made the
browser tests the length of `make test`.

Now the first worker to collect a test that needs the site starts the build in a background
process (``start``) into a folder every worker of the run shares; every test that needs the
site is moved after the others (``last``), so the build runs while both workers test the
library; the ``built_site`` fixture waits for it (``wait``) on whichever worker needs it. Any
worker may then run any browser test.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# The URL the test site says it is published at (`make export BASE_URL=...`): only the home's
# OpenGraph tags name it; every link stays relative, so the site is served from 127.0.0.1.
BASE_URL = "https://course.example/asyncfail/"
FOLDER = "asyncfail-site-build"
# The build's own time on a loaded two-core machine, with a margin; a build past this is stuck.
WAIT_S = 1200
BUILD = """
import json, sys, traceback
from pathlib import Path
sys.path.insert(0, {exports!r})
out = Path({out!r})
try:
    from build import build_site

    report = build_site(out, log=lambda message: print(message, flush=True), base={base!r})
    done = {{"seconds": report.seconds, "source": report.source}}
except BaseException:
    traceback.print_exc()
    done = {{"failed": True}}
# Written whole, then renamed: a worker polling for it never reads half a file.
(out.parent / "report.tmp").write_text(json.dumps(done), encoding="utf-8")
(out.parent / "report.tmp").rename(out.parent / "report.json")
"""
STASH = pytest.StashKey[subprocess.Popen[bytes]]()


def shared_folder(config: pytest.Config) -> Path:
    """The folder of this run that every pytest-xdist worker sees (each worker's own base
    temporary folder is ``popen-gwN`` inside it); without xdist, the run's own."""
    base: Path = config._tmp_path_factory.getbasetemp()  # type: ignore[attr-defined]
    return (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / FOLDER


def needs_site(item: pytest.Item) -> bool:
    return "built_site" in getattr(item, "fixturenames", ())


def last(items: list[pytest.Item]) -> None:
    """Keep the collected order, but run the tests that need the built site after the others
    (every worker collects the same items, so every worker computes the same order)."""
    items.sort(key=needs_site)


def start(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Start the build if a selected test needs the site and the machine can build it (the
    fixtures skip or fail the tests otherwise), unless another worker of this run has started
    it: the shared folder's creation is the claim (``mkdir`` is atomic)."""
    if config.option.collectonly or not any(needs_site(item) for item in items):
        return
    sys.path.insert(0, str(ROOT / "exports"))
    from browser import find_chromium

    if find_chromium() is None or shutil.which("npm") is None:
        return
    folder = shared_folder(config)
    try:
        folder.mkdir(parents=False)
    except FileExistsError:
        return
    script = BUILD.format(exports=str(ROOT / "exports"), out=str(folder / "site"), base=BASE_URL)
    with (folder / "build.log").open("wb") as log:
        process = subprocess.Popen(
            [sys.executable, "-c", script], cwd=ROOT, stdout=log, stderr=subprocess.STDOUT
        )
    config.stash[STASH] = process


def finish(config: pytest.Config) -> None:
    """The worker that started the build waits for it before it exits: another worker may
    still be waiting for the site."""
    process = config.stash.get(STASH, None)
    if process is not None:
        process.wait()


def wait(config: pytest.Config) -> tuple[Path, float, str] | None:
    """The built site's folder, build seconds and source digest, once the build is done
    (None if no build was started); a failed or stuck build fails the test with the build's
    last lines."""
    folder = shared_folder(config)
    if not folder.exists():
        return None
    report = folder / "report.json"
    deadline = time.monotonic() + WAIT_S
    while not report.exists() and time.monotonic() < deadline:
        time.sleep(0.5)
    data = json.loads(report.read_text(encoding="utf-8")) if report.exists() else {}
    if "source" in data:
        return folder / "site", float(data["seconds"]), str(data["source"])
    tail = (folder / "build.log").read_text(encoding="utf-8", errors="replace").splitlines()
    said = "failed" if data else f"took more than {WAIT_S} s"
    pytest.fail(f"the site build {said}; its last lines:\n" + "\n".join(tail[-30:]), pytrace=False)
