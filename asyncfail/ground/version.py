"""The release version: the one place it is written (pyproject.toml reads it from here)."""

from typing import Final

VERSION: Final = "0.1.0"
