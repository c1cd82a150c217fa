"""Shared fixtures: the two seed documents (copied verbatim into docs/seeds/); and, when the
suite runs in parallel (``make pytest`` runs pytest-xdist), what keeps a session's one costly
build on one worker."""

import os
from collections.abc import Generator
from pathlib import Path

import pytest
from hypothesis import settings

from tests.browser import site_build

# No timing in tests: hypothesis' per-example deadline is a timed assertion, and the machines are
# shared and noisy (the first altair or marimo call alone can take half a second). Derandomized:
# each property draws the same examples in every run, so a run on CI is the run here (a fresh
# random draw once failed a clean clone's run on a case no run before had drawn). To search
# further, ASYNCFAIL_HYPOTHESIS=explore draws new examples, ten times as many, on each run.
settings.register_profile("asyncfail", deadline=None, derandomize=True)
settings.register_profile("explore", deadline=None, max_examples=1000)
settings.load_profile(
    "explore" if os.environ.get("ASYNCFAIL_HYPOTHESIS") == "explore" else "asyncfail"
)

ROOT = Path(__file__).resolve().parent.parent
SEEDS = ROOT / "docs" / "seeds"
TESTS = ROOT / "tests"

# Tests that share one costly fixture (the reference implementation's default matrix, a few
# hundred real processes; the DBOS matrix, a minute of real DBOS applications), by folder or file
# under tests/: under `--dist loadgroup` each group runs on one worker, so the fixture is built
# once, not once per worker (the DBOS matrix ran twice, on both workers, before it had a group).
# Lesson 1's live run starts the reference too: it runs beside the rest of the reference's tests,
# never at the same time as them. (The exported site is built once for every worker:
# browser/site_build.py.)
ONE_WORKER: dict[str, str] = {
    "reference": "reference",
    "course/test_lesson_01_async_failure_lab.py": "reference",
    "engines/test_dbos.py": "dbos",
}


# A wrapper: the markers are set before xdist's own hook turns them into each test's group.
@pytest.hookimpl(wrapper=True)
def pytest_collection_modifyitems(
    config: pytest.Config, items: list[pytest.Item]
) -> Generator[None, None, None]:
    for item in items:
        if not item.path.is_relative_to(TESTS):
            continue
        parts = item.path.relative_to(TESTS).parts
        for key in ("/".join(parts), parts[0]):
            if key in ONE_WORKER:
                item.add_marker(pytest.mark.xdist_group(ONE_WORKER[key]))
                break
    yield
    # After every other hook (-k and -m have deselected): the site is built only if needed.
    site_build.last(items)
    if not (os.environ.get("ASYNCFAIL_TEST_SITE") and os.environ.get("CI", "") != "true"):
        site_build.start(config, items)
    if getattr(config.option, "loadgroup", False):
        for item in items:
            keep_group(item)


def pytest_unconfigure(config: pytest.Config) -> None:
    site_build.finish(config)


def keep_group(item: pytest.Item) -> None:
    """Give ``item`` the node id ``--dist loadgroup`` schedules by (``ID@GROUP``), where xdist
    could not: xdist 3.8 writes the suffix to ``item._nodeid``, which pytest 9.2 no longer reads
    (its node id is ``item._id``), so every group was spread over every worker and each worker
    built its own site and booted Pyodide beside the others (tests/test_xdist_groups.py)."""
    marks = [
        m.args[0] if m.args else m.kwargs.get("name", "default")
        for m in item.iter_markers("xdist_group")
    ]
    if not marks:
        return
    wanted = f"{item.nodeid.split('@')[0]}@{'_'.join(sorted(set(map(str, marks))))}"
    if item.nodeid == wanted:
        return
    if hasattr(item, "_id"):
        from _pytest.nodeid import NodeId

        item._id = NodeId.parse(wanted)
    else:
        item._nodeid = wanted


@pytest.fixture(scope="session")
def seed_page() -> str:
    """The original Async Failure Lab page."""
    return (SEEDS / "000_94473d2b2a1666e3.txt").read_text(encoding="utf-8")


@pytest.fixture(scope="session")
def seed_handoff() -> str:
    """The sample reliability review handoff."""
    return (SEEDS / "001_63c5502f823bd127.txt").read_text(encoding="utf-8")
