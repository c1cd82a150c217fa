"""Canonical JSON: how every document the library prints or embeds is serialised."""

import json
from typing import Any


def to_json(data: Any) -> str:
    """Two-space indent, keys in the order given, UTF-8 characters kept, a trailing newline.

    The CLI prints exactly this and the lessons show exactly this, so the terminal and the
    browser print the same bytes for the same run.
    """
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"
