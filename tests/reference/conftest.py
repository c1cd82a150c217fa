"""Shared fixtures of the reference implementation's tests: one run of the default matrix, made
once per session (it starts a few hundred real processes), through the CLI as a user runs it."""

import json
from typing import Any

import pytest

from tests.cli_support import run_main


@pytest.fixture(scope="session")
def default_matrix() -> tuple[int, dict[str, Any], str]:
    """``asyncfail verify`` with no options: (exit status, JSON document, stderr)."""
    code, out, err = run_main("verify")
    return code, json.loads(out) if out else {}, err
