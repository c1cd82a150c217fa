"""Reading and rewriting a wheel as the supply-chain and bytecode tests do: its RECORD checked
line by line against the files it lists, and a member rewritten or left out.

A wheel's RECORD (PEP 376, PEP 427) lists every file of the wheel once, as ``path,hash,size``,
the hash ``sha256=`` then the URL-safe base64 of the digest without padding; RECORD itself is
listed with an empty hash and size.
"""

from __future__ import annotations

import base64
import hashlib
import zipfile
from collections.abc import Callable
from pathlib import Path


def record_rows(wheel: zipfile.ZipFile) -> list[tuple[str, str, str]]:
    """The wheel's RECORD, in its order: each line's path, hash and size."""
    (name,) = [n for n in wheel.namelist() if n.endswith(".dist-info/RECORD")]
    rows = wheel.read(name).decode("utf-8").splitlines()
    return [(path, digest, size) for path, digest, size in (row.split(",") for row in rows if row)]


def record_hash(data: bytes) -> str:
    """A RECORD line's hash of ``data``, written independently of the build's own."""
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def assert_record_lists_the_wheel(wheel: zipfile.ZipFile) -> None:
    """Every file of ``wheel`` is one RECORD line, with its own hash and size; RECORD's line
    has neither."""
    rows = record_rows(wheel)
    assert sorted(path for path, _, _ in rows) == sorted(wheel.namelist())
    for path, digest, size in rows:
        if path.endswith(".dist-info/RECORD"):
            assert (digest, size) == ("", ""), path
            continue
        data = wheel.read(path)
        assert (digest, size) == (record_hash(data), str(len(data))), path


def rewrite_wheel(path: Path, change: Callable[[str, bytes], bytes | None]) -> None:
    """Rewrite the wheel at ``path`` in place, each member's bytes through ``change`` (given
    its name and bytes): what it returns is written, ``None`` leaves the member out."""
    with zipfile.ZipFile(path) as source:
        entries = [(info, source.read(info)) for info in source.infolist()]
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as target:
        for info, data in entries:
            changed = change(info.filename, data)
            if changed is not None:
                target.writestr(info, changed)
