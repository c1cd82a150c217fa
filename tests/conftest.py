"""Shared fixtures: the two seed documents (copied verbatim into docs/seeds/); and, when the
suite runs in parallel (``make pytest`` runs pytest-xdist), what keeps a session's one costly
build on one worker."""

from pathlib import Path

import pytest
from hypothesis import settings

# No timing in tests: hypothesis' per-example deadline is a timed assertion, and the machines are
# shared and noisy (the first altair or marimo call alone can take half a second).
settings.register_profile("asyncfail", deadline=None)
settings.load_profile("asyncfail")

ROOT = Path(__file__).resolve().parent.parent
SEEDS = ROOT / "docs" / "seeds"
TESTS = ROOT / "tests"

# Test folders whose tests share one costly session fixture (the exported site; the reference
# implementation's default matrix, a few hundred real processes): under `--dist loadgroup`
# each folder's tests run on one worker, so the fixture is built once, not once per worker.
ONE_WORKER: dict[str, str] = {"browser": "site", "reference": "reference"}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        parts = item.path.relative_to(TESTS).parts if item.path.is_relative_to(TESTS) else ()
        if len(parts) > 1 and parts[0] in ONE_WORKER:
            item.add_marker(pytest.mark.xdist_group(ONE_WORKER[parts[0]]))


@pytest.fixture(scope="session")
def seed_page() -> str:
    """The original Async Failure Lab page."""
    return (SEEDS / "000_94473d2b2a1666e3.txt").read_text(encoding="utf-8")


@pytest.fixture(scope="session")
def seed_handoff() -> str:
    """The sample reliability review handoff."""
    return (SEEDS / "001_63c5502f823bd127.txt").read_text(encoding="utf-8")
