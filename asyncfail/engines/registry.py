"""The engines ``asyncfail verify --engine`` runs, by name: adding one is a line here."""

from typing import Final

from asyncfail.engines.adapter import Engine
from asyncfail.engines.dbos_engine import DbosEngine

ENGINES: Final[dict[str, Engine]] = {"dbos": DbosEngine()}
"""Each engine by its ``--engine`` name (``reference``, the default, is not an engine)."""
