"""The lessons' expensive fixtures, built once per session: each notebook loaded once, and run
once with its starting values (live and as a static snapshot) for every test that reads those
runs."""

from types import ModuleType
from typing import Any

import pytest

from tests.notebook_support import load_notebook, run_lesson


class Lessons:
    """Notebooks and their runs with the starting values, each made at most once."""

    def __init__(self) -> None:
        self._notebooks: dict[str, ModuleType] = {}
        self._runs: dict[tuple[str, bool], tuple[str, dict[str, Any]]] = {}

    def notebook(self, stem: str) -> ModuleType:
        """``notebooks/<stem>.py`` as a module."""
        if stem not in self._notebooks:
            self._notebooks[stem] = load_notebook(stem)
        return self._notebooks[stem]

    def run(self, stem: str, snapshot: bool = False) -> tuple[str, dict[str, Any]]:
        """The lesson run headless with its starting values: (rendered HTML, definitions);
        ``snapshot`` runs it as the published static snapshot. Read it, never change it."""
        key = (stem, snapshot)
        if key not in self._runs:
            self._runs[key] = run_lesson(self.notebook(stem), snapshot=snapshot)
        return self._runs[key]


@pytest.fixture(scope="session")
def lessons() -> Lessons:
    return Lessons()
