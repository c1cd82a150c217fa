"""`asyncfail verify` as its users run it: the default matrix agrees with the model, a reference
broken on purpose is caught and named, nothing is left behind (Ctrl-C too), two runs at once do
not interfere, and bad input is one line."""

import gc
import itertools
import json
import os
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from asyncfail.cli.verify import REFERENCE_KEYS
from asyncfail.course.lesson01_async_failure_lab import verification as truth_lesson
from asyncfail.ground.prose import echoed
from asyncfail.lab.faults import Fault
from asyncfail.lab.scenario import SEED_MODES, Mode
from asyncfail.lab.settings import ReceiverContract, RecordWrite
from asyncfail.reference import scratch, supervisor
from asyncfail.reference.verification import Case, predicted
from tests.cli_support import ROOT, run_main, sigint_default

Matrix = tuple[int, dict[str, Any], str]
EVERY_CASE = list(
    itertools.product(Fault, SEED_MODES, REFERENCE_KEYS, RecordWrite, ReceiverContract)
)


def rows_by_name(document: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {" ".join(row["case"].values()): row for row in document["rows"]}


# --- the default matrix ------------------------------------------------------------------------


def test_the_default_matrix_runs_every_case_and_every_case_agrees(default_matrix: Matrix) -> None:
    code, document, err = default_matrix
    assert (code, err) == (0, "")
    assert [tuple(row["case"].values()) for row in document["rows"]] == [
        tuple(value.value for value in case) for case in EVERY_CASE
    ]
    assert len(document["rows"]) == 112
    assert document["agrees"] is True and document["disagreements"] == []
    for row in document["rows"]:
        assert row["agrees"] is True and row["model"] == row["real"], row["case"]


def test_the_model_column_is_the_models_own_prediction(default_matrix: Matrix) -> None:
    _, document, _ = default_matrix
    for row in document["rows"]:
        case = Case.model_validate(row["case"])
        assert predicted(case, document["deliveries"]).model_dump(mode="json") == row["model"]


# Written by hand from DESIGN.md, apart from the model: (attempts, effects, tool calls, lookups,
# outcome, workers, receiver) of real runs that tell the runtimes and the settings apart.
EXPECTED = {
    "crash-after-effect naive stable atomic lookup-only": (
        2, 2, 2, 0, "duplicate", ["SIGKILL", "acknowledged"], [],
    ),
    "crash-after-effect durable stable atomic lookup-only": (
        2, 1, 1, 1, "exactly-once", ["SIGKILL", "acknowledged"], [],
    ),
    "crash-after-effect durable per-attempt atomic dedupe": (
        2, 2, 2, 1, "duplicate", ["SIGKILL", "acknowledged"], [],
    ),
    "response-lost naive stable atomic lookup-only": (
        1, 2, 2, 0, "duplicate", ["acknowledged"], [],
    ),
    "request-lost naive stable atomic lookup-only": (
        1, 1, 2, 0, "exactly-once", ["acknowledged"], [],
    ),
    "crash-after-record durable stable atomic lookup-only": (
        2, 1, 1, 0, "exactly-once", ["SIGKILL", "acknowledged"], [],
    ),
    # The receiver dies between the debit and its record: with an atomic record nothing
    # survives and the lookup finds nothing, so the second call is the only debit; with a
    # separate record the first debit survives without its record, and the second call
    # debits again (unless the receiver deduplicates: it has no record to answer from).
    "receiver-crash-before-record durable stable atomic lookup-only": (
        1, 1, 2, 1, "exactly-once", ["acknowledged"], ["SIGKILL"],
    ),
    "receiver-crash-before-record durable stable separate lookup-only": (
        1, 2, 2, 1, "duplicate", ["acknowledged"], ["SIGKILL"],
    ),
    "receiver-crash-before-record durable stable separate dedupe": (
        1, 2, 2, 1, "duplicate", ["acknowledged"], ["SIGKILL"],
    ),
}  # fmt: skip


@pytest.mark.parametrize("name", EXPECTED)
def test_real_runs_show_what_design_md_says(default_matrix: Matrix, name: str) -> None:
    real = rows_by_name(default_matrix[1])[name]["real"]
    fields = ("attempts", "effects", "tool_calls", "lookups", "outcome", "workers", "receiver")
    assert tuple(real[f] for f in fields) == EXPECTED[name]


def test_the_recorded_table_the_lesson_shows_is_what_a_fresh_run_finds(
    default_matrix: Matrix,
) -> None:
    _, document, _ = default_matrix
    recorded = truth_lesson.recorded()
    assert recorded.deliveries == document["deliveries"]
    assert list(recorded.rows) == document["rows"], "stale: run `make verify-record`"
    assert recorded.disagreements == ()


def test_the_schema_describes_the_document(default_matrix: Matrix) -> None:
    code, schema, _ = run_main("schema", "verify")
    assert code == 0
    jsonschema.validate(default_matrix[1], json.loads(schema))


def test_a_spent_budget_is_an_unknown_outcome_for_real_too() -> None:
    code, out, err = run_main("verify", "--fault", "crash-after-effect", "--deliveries", "1")
    assert (code, err) == (0, "")
    for row in json.loads(out)["rows"]:
        assert row["real"]["workers"] == ["SIGKILL"]
        assert row["real"]["outcome"] == "unknown" and row["agrees"]


# --- a check that could not fail proves nothing ----------------------------------------------

INTENT = "            journal.record_intent(key)  # (1) the intent, written before the call\n"
LOOKUPS = (
    "        entry = wire.lookup(key)  # an intent without a result: an unknown outcome\n",
    "            entry = wire.lookup(key)  # (2) no reply: look it up before calling again\n",
)
FLAWS = {
    # The journal learns of the call only with its result: a crash in between leaves no trace.
    "intent-after-the-call": [(INTENT, "            pass\n")],
    # An unknown outcome is taken for a failure: call again without asking.
    "no-lookup": [(LOOKUPS[0], "        entry = None\n"), (LOOKUPS[1], "            pass\n")],
}


def flawed_worker(flaw: str, folder: Path) -> Path:
    source = supervisor.WORKER_SCRIPT.read_text(encoding="utf-8")
    for old, new in FLAWS[flaw]:
        assert source.count(old) == 1, f"the worker changed: update the flaw {flaw!r}"
        source = source.replace(old, new)
    path = folder / "worker.py"
    path.write_text(source, encoding="utf-8")
    return path


@pytest.mark.parametrize("flaw", FLAWS)
def test_a_reference_broken_on_purpose_disagrees_and_is_named(
    flaw: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(supervisor, "WORKER_SCRIPT", flawed_worker(flaw, tmp_path))
    code, out, err = run_main("verify", "--fault", "crash-after-effect")
    document = json.loads(out)
    durable = [
        " ".join(("crash-after-effect", Mode.DURABLE, *rest))
        for rest in itertools.product(REFERENCE_KEYS, RecordWrite, ReceiverContract)
    ]
    assert code == 1
    assert document["disagreements"] == durable, "the naive rows still agree"
    assert err == (
        f"asyncfail verify: 8 of 16 cases disagree with the model: {'; '.join(durable[:3])}; "
        "and 5 more\n"
    )
    # Not a bookkeeping slip: the real ledger holds a second debit the model rules out.
    seed = rows_by_name(document)["crash-after-effect durable stable atomic lookup-only"]
    assert (seed["model"]["effects"], seed["real"]["effects"]) == (1, 2)
    assert seed["real"]["outcome"] == "duplicate"


def test_the_text_table_names_a_disagreement(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(supervisor, "WORKER_SCRIPT", flawed_worker("no-lookup", tmp_path))
    argv = ["--fault", "crash-after-effect", "--mode", "durable", "--key", "stable"]
    code, out, _ = run_main("verify", *argv, "--record", "atomic", "--format", "text")
    assert code == 1
    line = next(line for line in out.splitlines() if line.startswith("crash-after-effect"))
    assert line.split()[-1] == "DISAGREES"
    assert out.rstrip().endswith("2 of 2 cases disagree with the model: "
                                 "crash-after-effect durable stable atomic lookup-only; "
                                 "crash-after-effect durable stable atomic dedupe")  # fmt: skip


def test_a_reference_that_cannot_run_is_one_line_and_exit_1(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    broken = tmp_path / "receiver.py"
    broken.write_text("raise SystemExit('no database for you')\n", encoding="utf-8")
    monkeypatch.setattr(supervisor, "RECEIVER_SCRIPT", broken)
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    code, out, err = run_main("verify", "--fault", "none")
    assert (code, out) == (1, "")
    assert err == (
        "asyncfail verify: error: the reference implementation failed: the receiver did not "
        "start: no database for you\n"
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["receiver.py"]
    assert processes_mentioning(str(tmp_path)) == set()


# --- nothing left behind, nothing shared ------------------------------------------------------


def processes_mentioning(text: str) -> set[int]:
    """Live processes whose command line mentions ``text`` (a folder only this test uses)."""
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                cmdline = (entry / "cmdline").read_bytes().decode(errors="replace")
            except OSError:  # it ended meanwhile
                continue
            if text in cmdline and int(entry.name) != os.getpid():
                found.add(int(entry.name))
    return found


def children() -> set[int]:
    """This process's children, zombies included (a child not reaped is still one)."""
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == os.getpid():
                found.add(int(entry.name))
    return found


def open_files() -> set[str]:
    """This process's open descriptors, each with what it is (``7 -> socket:[1234]``)."""
    found = set()
    for fd in os.listdir("/proc/self/fd"):
        try:
            found.add(f"{fd} -> {os.readlink(f'/proc/self/fd/{fd}')}")
        except OSError:  # the descriptor listing itself, closed by now
            continue
    return found


def test_every_process_is_reaped_and_every_file_and_socket_closed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    gc.collect()
    before_children, before_fds = children(), open_files()
    argv = ["--fault", "receiver-crash-before-record", "--mode", "durable", "--jobs", "4"]
    code, _, err = run_main("verify", *argv)
    assert (code, err) == (0, "")
    assert list(tmp_path.iterdir()) == [], "the temporary folder is removed"
    assert children() <= before_children
    assert processes_mentioning(str(tmp_path)) == set()
    gc.collect()  # what an earlier test left for the collector is not this run's
    assert open_files() - before_fds == set(), "a socket, pipe or database is open"


def test_keep_leaves_the_real_ledgers_journals_and_queues(tmp_path: Path) -> None:
    keep = tmp_path / "kept"
    argv = ["--fault", "receiver-crash-before-record", "--mode", "durable", "--key", "stable"]
    code, _, _ = run_main("verify", *argv, "--receiver", "lookup-only", "--keep", str(keep))
    assert code == 0
    assert sorted(p.name for p in keep.iterdir()) == [
        "receiver-crash-before-record.durable.stable.atomic.lookup-only",
        "receiver-crash-before-record.durable.stable.separate.lookup-only",
    ]
    for record, ledger in (("atomic", [1]), ("separate", [1, 2])):
        folder = keep / f"receiver-crash-before-record.durable.stable.{record}.lookup-only"
        with sqlite3.connect(folder / "receiver.sqlite") as db:
            assert [r[0] for r in db.execute("SELECT entry FROM ledger ORDER BY entry")] == ledger
            # The record of the debit that survived the crash was never written.
            assert [r[0] for r in db.execute("SELECT entry FROM records")] == ledger[-1:]
        with sqlite3.connect(folder / "journal.sqlite") as db:
            assert db.execute("SELECT result FROM runs").fetchall() == [(ledger[-1],)]
        with sqlite3.connect(folder / "queue.sqlite") as db:
            assert db.execute("SELECT deliveries, state FROM messages").fetchall() == [
                (1, "acknowledged")
            ]


def verify_process(*argv: str, tmp: Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "asyncfail", "verify", *argv],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env={**os.environ, "TMPDIR": str(tmp)},
        preexec_fn=sigint_default,
    )


def test_two_runs_at_once_do_not_interfere(tmp_path: Path) -> None:
    runs = [verify_process("--fault", "response-lost", "--jobs", "3", tmp=tmp_path) for _ in "ab"]
    done = [run.communicate(timeout=300) for run in runs]
    assert [run.returncode for run in runs] == [0, 0], [err for _, err in done]
    assert done[0] == done[1]
    assert json.loads(done[0][0])["agrees"] is True
    assert list(tmp_path.iterdir()) == []


def test_ctrl_c_ends_every_process_and_removes_every_file(tmp_path: Path) -> None:
    run = verify_process(tmp=tmp_path)
    deadline = time.monotonic() + 60
    while not list(tmp_path.glob("asyncfail-verify-*/*/receiver.sqlite")):
        assert time.monotonic() < deadline and run.poll() is None, "no case started"
        time.sleep(0.05)
    run.send_signal(signal.SIGINT)
    out, err = run.communicate(timeout=60)
    assert (run.returncode, out, err) == (130, "", "asyncfail: interrupted\n")
    assert list(tmp_path.iterdir()) == []
    assert processes_mentioning(str(tmp_path)) == set()


# --- bad input ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--retention", "30"], "argument --retention: the reference implementation runs only "),
        (["--workers", "2"], "argument --workers: the reference implementation runs only "),
        (["--fault", "bogus"], "argument --fault: invalid choice: 'bogus'"),
        (["--jobs", "0"], "argument --jobs: must be a whole number from 1 to 16"),
        (["--deliveries", "10"], "argument --deliveries: must be a whole number from 1 to 9"),
        (["--keep", "{file}"], "argument --keep: cannot use "),
        (["--keep", "{full}"], "is not empty; name a new or empty folder you can write in"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(argv: list[str], message: str, tmp_path: Path) -> None:
    (tmp_path / "file").write_text("", encoding="utf-8")
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "something").write_text("", encoding="utf-8")
    words = [w.format(file=tmp_path / "file", full=tmp_path / "full") for w in argv]
    code, out, err = run_main("verify", *words)
    assert (code, out) == (2, "")
    assert err.startswith("asyncfail verify: error: ") and message in err
    assert err.count("\n") == 1 and "Traceback" not in err


# --- the temporary directory, full or littered; the kept folder's one rule ---------------------


@pytest.fixture
def small_tmpfs(tmp_path: Path) -> Iterator[Path]:
    """A real file system of 64 KiB (a tmpfs), mounted for the test; skipped where it cannot."""
    where = tmp_path / "small"
    where.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(where)], capture_output=True
    )
    if mounted.returncode != 0:
        pytest.skip("mounting a tmpfs needs root")
    try:
        yield where
    finally:
        subprocess.run(["umount", str(where)], check=True)


def test_a_full_temporary_directory_is_one_line_and_exit_1(small_tmpfs: Path) -> None:
    # Nearly full: the folders fit, the queue's database does not.
    (small_tmpfs / "filler").write_bytes(bytes(40 * 1024))
    run = verify_process("--fault", "crash-after-effect", "--mode", "naive", tmp=small_tmpfs)
    out, err = run.communicate(timeout=120)
    assert (run.returncode, out) == (1, "")
    assert err.startswith("asyncfail verify: error: the reference implementation failed: ")
    assert err.endswith("database or disk is full\n") and err.count("\n") == 1, err
    assert sorted(p.name for p in small_tmpfs.iterdir()) == ["filler"]


def test_a_database_that_cannot_be_written_is_a_reference_failure(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def full(path: str) -> sqlite3.Connection:
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(supervisor.channel, "connect", full)
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    code, out, err = run_main("verify", "--fault", "none", "--mode", "naive", "--jobs", "1")
    assert (code, out) == (1, "")
    assert err.startswith("asyncfail verify: error: the reference implementation failed: SQLite ")
    assert err.endswith(": database or disk is full\n") and err.count("\n") == 1
    assert list(tmp_path.iterdir()) == []


def test_a_killed_runs_folder_is_removed_by_the_next_run_a_live_ones_is_not(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    killed = verify_process("--fault", "response-lost", tmp=tmp_path)
    deadline = time.monotonic() + 60
    while not list(tmp_path.glob("asyncfail-verify-*/*/receiver.sqlite")):
        assert time.monotonic() < deadline and killed.poll() is None, "no case started"
        time.sleep(0.05)
    killed.kill()  # SIGKILL: no clean-up of its own
    killed.communicate(timeout=60)
    (left,) = tmp_path.glob("asyncfail-verify-*")
    assert (left / ".owner").read_text() == f"{killed.pid}\n"
    # The workers and receivers it had started outlive it a moment (a receiver until it sees
    # its stdin close, a worker until its call ends); they may still write in the folder.
    deadline = time.monotonic() + 60
    while processes_mentioning(str(tmp_path)):
        assert time.monotonic() < deadline, "the killed run's children did not end"
        time.sleep(0.1)
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    with scratch.scratch_folder() as alive:
        code, _, err = run_main("verify", "--fault", "none", "--mode", "naive")
        assert (code, err) == (0, "")
        assert list(tmp_path.iterdir()) == [alive], "the live run's folder stays"
    assert list(tmp_path.iterdir()) == []


def test_only_folders_of_verify_without_a_live_owner_are_swept(tmp_path: Path) -> None:
    unowned_old = tmp_path / "asyncfail-verify-old"
    unowned_new = tmp_path / "asyncfail-verify-new"
    for folder in (unowned_old, unowned_new, tmp_path / "something-else"):
        folder.mkdir()
    os.utime(unowned_old, (0, time.time() - scratch.UNOWNED_GRACE - 1))
    (tmp_path / "asyncfail-verify-link").symlink_to(tmp_path / "something-else")
    (tmp_path / "asyncfail-verify-file").write_text("", encoding="utf-8")
    assert scratch.sweep(tmp_path) == (unowned_old,)
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "asyncfail-verify-file",
        "asyncfail-verify-link",
        "asyncfail-verify-new",
        "something-else",
    ]


@pytest.fixture
def read_only(tmp_path: Path) -> Iterator[Path]:
    """An empty folder no one can write in, root included (a read-only tmpfs)."""
    where = tmp_path / "read-only"
    where.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "ro,size=64k", "tmpfs", str(where)], capture_output=True
    )
    if mounted.returncode != 0:
        where.chmod(0o555)
        if os.access(where, os.W_OK):
            pytest.skip("no way to make a folder read-only here")
        yield where
        return
    try:
        yield where
    finally:
        subprocess.run(["umount", str(where)], check=True)


@pytest.mark.parametrize("inside", ["", "new", "new/deeper"])
def test_keep_in_or_under_a_read_only_folder_is_bad_input(read_only: Path, inside: str) -> None:
    # One rule, whatever the depth: exit 2 before any case runs, nothing made.
    code, out, err = run_main("verify", "--fault", "none", "--keep", str(read_only / inside))
    assert (code, out) == (2, "")
    assert err.startswith(
        f"asyncfail verify: error: argument --keep: cannot use {echoed(str(read_only / inside))} "
        "as a folder: "
    )
    assert err.endswith(
        "; name a new or empty folder you can write in; missing parent folders are created\n"
    )
    assert err.count("\n") == 1
    assert list(read_only.iterdir()) == []


def test_keep_creates_missing_parents(tmp_path: Path) -> None:
    keep = tmp_path / "a" / "b" / "kept"
    one = ["--fault", "none", "--mode", "naive", "--key", "stable", "--record", "atomic"]
    code, _, _ = run_main("verify", *one, "--receiver", "dedupe", "--keep", str(keep))
    assert code == 0
    assert [p.name for p in keep.iterdir()] == ["none.naive.stable.atomic.dedupe"]
