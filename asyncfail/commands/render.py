"""Shared output rules: canonical JSON and bounded-number argument types."""

import argparse
import json
from collections.abc import Callable
from typing import Any


def to_json(data: Any) -> str:
    """Canonical output: two-space indent, keys in the order given, UTF-8, trailing newline."""
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def bounded_int(low: int, high: int) -> Callable[[str], int]:
    """An argparse type accepting a whole number from ``low`` to ``high`` inclusive."""

    def parse(text: str) -> int:
        # ASCII digits only: int() would also take "٣", "1_000" and padded spaces.
        value = int(text) if text.isascii() and text.isdigit() else None
        if value is None or not low <= value <= high:
            raise argparse.ArgumentTypeError(
                f"must be a whole number from {low} to {high}, got {text!r}"
            )
        return value

    return parse
