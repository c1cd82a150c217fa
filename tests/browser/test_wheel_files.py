"""The wheel helpers the supply-chain and bytecode tests check wheels with: a RECORD check that
can fail, on a small wheel written here by hand (its hashes from hashlib, not from the helper)."""

from __future__ import annotations

import base64
import hashlib
import zipfile
from pathlib import Path

import pytest

from tests.browser.wheel_files import assert_record_lists_the_wheel, record_rows, rewrite_wheel

MODULE = b"VALUE = 1\n"
OTHER = b"VALUE = 2\n"
RECORD = "pkg-1.0.dist-info/RECORD"


def sha(data: bytes) -> str:
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).decode().rstrip("=")


def wheel(path: Path, record: str) -> zipfile.ZipFile:
    with zipfile.ZipFile(path, "w") as target:
        target.writestr("pkg/mod.py", MODULE)
        target.writestr(RECORD, record)
    return zipfile.ZipFile(path)


def test_a_record_that_lists_every_file_with_its_hash_and_size_passes(tmp_path: Path) -> None:
    good = wheel(tmp_path / "good.whl", f"pkg/mod.py,{sha(MODULE)},{len(MODULE)}\n{RECORD},,\n")
    assert record_rows(good) == [("pkg/mod.py", sha(MODULE), "10"), (RECORD, "", "")]
    assert_record_lists_the_wheel(good)


@pytest.mark.parametrize(
    "record",
    [
        f"pkg/mod.py,{sha(OTHER)},10\n{RECORD},,\n",  # another file's hash
        f"pkg/mod.py,{sha(MODULE)},11\n{RECORD},,\n",  # another size
        f"{RECORD},,\n",  # a file left out
        f"pkg/mod.py,{sha(MODULE)},10\npkg/gone.py,{sha(b'')},0\n{RECORD},,\n",  # one not there
        f"pkg/mod.py,{sha(MODULE)},10\n{RECORD},{sha(b'')},0\n",  # RECORD hashed
    ],
    ids=["hash", "size", "unlisted", "missing", "record-hashed"],
)
def test_a_record_that_does_not_match_its_wheel_fails(tmp_path: Path, record: str) -> None:
    with pytest.raises(AssertionError):
        assert_record_lists_the_wheel(wheel(tmp_path / "bad.whl", record))


def test_rewriting_a_wheel_changes_or_leaves_out_members_and_keeps_the_rest(
    tmp_path: Path,
) -> None:
    path = tmp_path / "w.whl"
    wheel(path, "unread").close()
    rewrite_wheel(path, lambda name, data: data + b"#\n" if name == "pkg/mod.py" else data)
    with zipfile.ZipFile(path) as changed:
        assert changed.read("pkg/mod.py") == MODULE + b"#\n"
        assert changed.read(RECORD) == b"unread"
    rewrite_wheel(path, lambda name, data: None if name == RECORD else data)
    with zipfile.ZipFile(path) as dropped:
        assert dropped.namelist() == ["pkg/mod.py"]
