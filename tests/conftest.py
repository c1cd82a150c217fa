"""Shared fixtures: the two seed documents (copied verbatim into docs/seeds/)."""

from pathlib import Path

import pytest
from hypothesis import settings

# No timing in tests: hypothesis' per-example deadline is a timed assertion, and the machines are
# shared and noisy (the first altair or marimo call alone can take half a second).
settings.register_profile("asyncfail", deadline=None)
settings.load_profile("asyncfail")

ROOT = Path(__file__).resolve().parent.parent
SEEDS = ROOT / "docs" / "seeds"


@pytest.fixture(scope="session")
def seed_page() -> str:
    """The original Async Failure Lab page."""
    return (SEEDS / "000_94473d2b2a1666e3.txt").read_text(encoding="utf-8")


@pytest.fixture(scope="session")
def seed_handoff() -> str:
    """The sample reliability review handoff."""
    return (SEEDS / "001_63c5502f823bd127.txt").read_text(encoding="utf-8")
