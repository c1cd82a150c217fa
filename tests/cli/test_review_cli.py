"""``asyncfail review``: stdout, --format, --fault, atomic --output, and errors without traces.

A name that can name no file is bad input (exit 2); a file that cannot be written is output
that could not be written (exit 1), like a closed or full stdout."""

import io
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from asyncfail import Fault, Mode
from asyncfail.cli import main as cli_main
from asyncfail.cli import review as review_command
from asyncfail.cli.main import main
from asyncfail.lab.settings import LabSettings
from asyncfail.review.handoff import build_review
from tests.cli_support import ROOT, run_main
from tests.markup_support import assert_self_contained_page


def test_markdown_to_stdout_by_default_for_the_seed_fault() -> None:
    code, out, err = run_main("review")
    assert (code, err) == (0, "")
    assert out == build_review(Fault.CRASH_AFTER_EFFECT).markdown()


@pytest.mark.parametrize("fault", list(Fault))
def test_fault_option_selects_the_review(fault: Fault) -> None:
    code, out, _ = run_main("review", "--fault", fault.value)
    assert code == 0
    assert out == build_review(fault).markdown()


def test_mode_option_selects_the_runtime_under_review(tmp_path: Path) -> None:
    code, out, _ = run_main("review", "--mode", "checkpoint", "--receiver", "dedupe")
    assert code == 0
    assert (
        out
        == build_review(mode=Mode.CHECKPOINT, settings=LabSettings(receiver="dedupe")).markdown()
    )
    assert run_main("review", "--mode", "naive") == (0, build_review().markdown(), "")
    target = tmp_path / "handoff.html"
    assert (
        run_main("review", "--mode", "checkpoint", "--format", "html", "--output", str(target))[0]
        == 0
    )
    assert target.read_text(encoding="utf-8") == build_review(mode=Mode.CHECKPOINT).html()


def test_html_format_is_a_self_contained_page() -> None:
    code, out, _ = run_main("review", "--format", "html", "--fault", "response-lost")
    assert code == 0
    assert out == build_review(Fault.RESPONSE_LOST).html()
    assert_self_contained_page(out)


def test_output_writes_the_file_and_nothing_to_stdout(tmp_path: Path) -> None:
    target = tmp_path / "handoff.html"
    code, out, err = run_main("review", "--format", "html", "--output", str(target))
    assert (code, out, err) == (0, "", "")
    assert target.read_text(encoding="utf-8") == build_review().html()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["handoff.html"], "no temporary left"


def test_output_replaces_an_existing_file(tmp_path: Path) -> None:
    target = tmp_path / "handoff.md"
    target.write_text("old", encoding="utf-8")
    assert run_main("review", "--output", str(target))[0] == 0
    assert target.read_text(encoding="utf-8") == build_review().markdown()


def test_output_file_gets_ordinary_permissions(tmp_path: Path) -> None:
    target = tmp_path / "handoff.md"
    assert run_main("review", "--output", str(target))[0] == 0
    umask = os.umask(0)
    os.umask(umask)
    assert target.stat().st_mode & 0o777 == 0o666 & ~umask


def _unwritable(tmp_path: Path) -> dict[str, Path]:
    a_file = tmp_path / "a-file"
    a_file.write_text("x", encoding="utf-8")
    a_directory = tmp_path / "a-directory"
    a_directory.mkdir()
    return {
        "missing directory": tmp_path / "missing" / "handoff.md",
        "parent is a file": a_file / "handoff.md",
        "target is a directory": a_directory,
    }


@pytest.mark.parametrize("case", ["missing directory", "parent is a file", "target is a directory"])
def test_unwritable_output_exits_1_with_one_line_and_writes_nothing(
    tmp_path: Path, case: str
) -> None:
    target = _unwritable(tmp_path)[case]
    before = sorted(tmp_path.rglob("*"))
    code, out, err = run_main("review", "--output", str(target))
    assert code == 1
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("asyncfail review: error: cannot write ")
    assert str(target) in err
    assert "Traceback" not in err
    assert sorted(tmp_path.rglob("*")) == before


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write into a read-only directory")
def test_read_only_directory_exits_1(tmp_path: Path) -> None:
    tmp_path.chmod(0o500)
    try:
        code, _, err = run_main("review", "--output", str(tmp_path / "handoff.md"))
    finally:
        tmp_path.chmod(0o700)
    assert code == 1 and "Permission denied" in err
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("failing", ["fsync", "replace"])
def test_a_failure_midway_leaves_the_old_file_and_no_temporary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, failing: str
) -> None:
    target = tmp_path / "handoff.md"
    target.write_text("the previous handoff", encoding="utf-8")

    def fail(*args: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(review_command.os, failing, fail)
    code, out, err = run_main("review", "--output", str(target))
    assert (code, out) == (1, "")
    assert "No space left on device" in err
    assert target.read_text(encoding="utf-8") == "the previous handoff"
    assert [p.name for p in tmp_path.iterdir()] == ["handoff.md"]


@pytest.mark.parametrize(
    ("argv", "names"),
    [
        (["review", "--format", "pdf"], ["--format", "markdown", "html"]),
        (["review", "--fault", "meteor"], ["--fault", "crash-after-effect", "request-lost"]),
        (["review", "--output"], ["--output", "expected one argument"]),
        (["review", "--output", ""], ["--output", "empty"]),
        (["review", "--colour"], ["--colour"]),
        (["review", "--mode", "durable"], ["--mode", "naive", "checkpoint"]),
        # Once a traceback: the durable runtime the review compares with needs a key.
        (["review", "--key", "none"], ["key=none", "--key stable or per-attempt"]),
        (["review", "--mode", "checkpoint", "--key", "none"], ["key=none", "--key stable"]),
    ],
)
def test_bad_input_exits_2_naming_the_accepted_values(argv: list[str], names: list[str]) -> None:
    code, out, err = run_main(*argv)
    assert (code, out) == (2, "")
    for name in names:
        assert name in err
    assert "Traceback" not in err


def test_an_unknown_option_keeps_the_pointer_to_help(monkeypatch: pytest.MonkeyPatch) -> None:
    # Once cut at the line's limit (400 characters then): the review's options outgrew it, and
    # the line ended in "(see 'asyncfail review --h…". Options that fit are all listed; beyond
    # the limit, as many as fit and how many more.
    code, out, err = run_main("review", "--bogus")
    assert (code, out) == (2, "")
    assert err.startswith("asyncfail review: error: unknown option '--bogus'; the options are ")
    assert err.endswith(", --replay-after and --step-retries (see 'asyncfail review --help')\n")
    monkeypatch.setattr(cli_main, "MAX_LINE", 200)
    err = run_main("review", "--bogus")[2]
    assert len(err) <= 201 and "-h/--help, --fault, --mode" in err
    assert re.search(r", --\w[\w-]* and \d+ more \(see 'asyncfail review --help'\)\n$", err), err


def test_review_is_listed_in_help() -> None:
    out = io.StringIO()
    old = sys.stdout
    sys.stdout = out
    try:
        assert main(["--help"]) == 0
    finally:
        sys.stdout = old
    assert "review" in out.getvalue()


def _process(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "asyncfail", *argv],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )


def test_real_process_writes_the_file_and_fails_cleanly(tmp_path: Path) -> None:
    target = tmp_path / "handoff.md"
    done = _process("review", "--fault", "crash-after-record", "--output", str(target))
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")
    assert target.read_text(encoding="utf-8") == build_review(Fault.CRASH_AFTER_RECORD).markdown()
    bad = _process("review", "--output", str(tmp_path / "no" / "such" / "dir" / "x.md"))
    assert bad.returncode == 1 and bad.stdout == ""
    assert bad.stderr.startswith("asyncfail review: error: cannot write ")
    assert bad.stderr.count("\n") == 1 and "Traceback" not in bad.stderr
    assert not (tmp_path / "no").exists()
    stdout = _process("review", "--format", "html")
    assert stdout.returncode == 0 and stdout.stdout == build_review().html()


def test_output_never_replaces_a_device_pipe_or_directory(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    code, out, err = run_main("review", "--output", str(fifo))
    assert (code, out) == (1, "")
    assert "not a regular file" in err
    assert fifo.is_fifo(), "the pipe is still a pipe"


def test_output_through_a_symlink_writes_the_file_it_names(tmp_path: Path) -> None:
    real = tmp_path / "real.md"
    real.write_text("old", encoding="utf-8")
    link = tmp_path / "link.md"
    link.symlink_to(real)
    assert run_main("review", "--output", str(link))[0] == 0
    assert link.is_symlink() and real.read_text(encoding="utf-8").startswith("*Synthetic")


def test_output_name_with_a_nul_byte_exits_2() -> None:
    code, _, err = run_main("review", "--output", "a\0b")
    assert code == 2 and "NUL byte" in err


# --- the edges of --output ----------------------------------------------------------------------


def assert_cannot_write(code: int, out: str, err: str, reason: str) -> None:
    """The output could not be written: exit 1, one short line naming --output, no traceback."""
    assert (code, out) == (1, "")
    assert err.startswith("asyncfail review: error: cannot write the --output file ")
    assert err.count("\n") == 1 and len(err) <= 400 and reason in err, err


def test_a_name_too_long_is_one_short_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, err = run_main("review", "--output", "a" * 300)
    assert_cannot_write(code, out, err, "File name too long")
    assert "(300 characters)" in err and "a" * 100 not in err
    assert list(tmp_path.iterdir()) == []


def test_a_long_name_that_fits_is_written(tmp_path: Path) -> None:
    target = tmp_path / ("h" * 250 + ".md")  # 253 bytes: the temporary's name must fit too
    assert run_main("review", "--output", str(target)) == (0, "", "")
    assert target.read_text(encoding="utf-8") == build_review().markdown()
    assert [p.name for p in tmp_path.iterdir()] == [target.name]


@pytest.mark.parametrize("mode", [0o600, 0o640, 0o755])
def test_an_existing_file_keeps_its_permissions(tmp_path: Path, mode: int) -> None:
    target = tmp_path / "handoff.md"
    target.write_text("old", encoding="utf-8")
    target.chmod(mode)
    assert run_main("review", "--output", str(target))[0] == 0
    assert target.stat().st_mode & 0o7777 == mode
    assert target.read_text(encoding="utf-8") == build_review().markdown()


def test_a_symlink_to_a_private_file_keeps_the_link_and_the_permissions(tmp_path: Path) -> None:
    real = tmp_path / "real.md"
    real.write_text("old", encoding="utf-8")
    real.chmod(0o600)
    link = tmp_path / "link.md"
    link.symlink_to(real)
    assert run_main("review", "--output", str(link))[0] == 0
    assert link.is_symlink() and real.stat().st_mode & 0o777 == 0o600
    assert real.read_text(encoding="utf-8") == build_review().markdown()


@pytest.mark.parametrize("loop", ["two links", "one link"])
def test_a_symlink_loop_is_one_line_and_the_links_stay(tmp_path: Path, loop: str) -> None:
    a, b = tmp_path / "a.md", tmp_path / "b.md"
    if loop == "two links":
        a.symlink_to(b)
        b.symlink_to(a)
    else:
        a.symlink_to(a)
    code, out, err = run_main("review", "--output", str(a))
    assert_cannot_write(code, out, err, "Too many levels of symbolic links")
    assert a.is_symlink() and all(p.is_symlink() for p in tmp_path.iterdir())


@pytest.mark.parametrize("argv", [["--output", "-"], ["--output=-"]])
def test_dash_is_standard_output(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, argv: list[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    assert run_main("review", "--format", "html", *argv) == (0, build_review().html(), "")
    assert list(tmp_path.iterdir()) == [], "no file named '-'"


def test_a_directory_says_so(tmp_path: Path) -> None:
    code, out, err = run_main("review", "--output", str(tmp_path))
    assert_cannot_write(code, out, err, "a directory, not a regular file")
    assert "'-' for standard output" in err


@pytest.mark.parametrize("name", ["new/", "handoff.md/"])
def test_a_name_ending_in_a_slash_names_a_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "handoff.md").write_text("old", encoding="utf-8")
    code, out, err = run_main("review", "--output", name)
    assert_cannot_write(code, out, err, "names a directory")
    assert [p.name for p in tmp_path.iterdir()] == ["handoff.md"]
    assert (tmp_path / "handoff.md").read_text(encoding="utf-8") == "old"


def test_a_read_only_directory_is_one_line_even_for_root(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(review_command.tempfile, "mkstemp", refuse)
    code, out, err = run_main("review", "--output", str(tmp_path / "handoff.md"))
    assert_cannot_write(code, out, err, "Permission denied")


def test_a_file_this_user_may_not_write_is_left_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "handoff.md"
    target.write_text("old", encoding="utf-8")
    target.chmod(0o444)
    if os.geteuid() == 0:  # root may write anything: stand in for an ordinary user
        monkeypatch.setattr(review_command.os, "access", lambda *args: False)
    code, out, err = run_main("review", "--output", str(target))
    assert_cannot_write(code, out, err, "Permission denied (the file is read-only)")
    assert target.read_text(encoding="utf-8") == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["handoff.md"]


@pytest.mark.parametrize(
    ("name", "problem"),
    [("", "empty"), ("a\0b", "NUL byte"), ("\ud800.md", "cannot be encoded")],
)
def test_a_name_that_can_name_no_file_is_bad_input(name: str, problem: str) -> None:
    code, out, err = run_main("review", "--output", name)
    assert (code, out) == (2, "")
    assert err.startswith("asyncfail review: error: argument --output: the file name ")
    assert err.count("\n") == 1 and problem in err


def test_real_process_long_name_and_loop(tmp_path: Path) -> None:
    (tmp_path / "loop").symlink_to(tmp_path / "loop")
    for name in ["x" * 300, "loop"]:
        done = subprocess.run(
            [sys.executable, "-m", "asyncfail", "review", "--output", name],
            capture_output=True,
            text=True,
            cwd=tmp_path,
            check=False,
        )
        assert (done.returncode, done.stdout) == (1, "")
        assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr


# --- what a replaced file keeps and what it does not ---------------------------------------------


@pytest.mark.parametrize(
    ("mode", "kept"),
    [(0o4755, 0o755), (0o2755, 0o755), (0o6750, 0o750), (0o1644, 0o1644), (0o600, 0o600)],
)
def test_setuid_and_setgid_are_dropped_the_rest_kept(tmp_path: Path, mode: int, kept: int) -> None:
    target = tmp_path / "handoff.md"
    target.write_text("old", encoding="utf-8")
    target.chmod(mode)
    assert target.stat().st_mode & 0o7777 == mode
    assert run_main("review", "--output", str(target)) == (0, "", "")
    assert target.stat().st_mode & 0o7777 == kept
    assert target.read_text(encoding="utf-8") == build_review().markdown()


@pytest.mark.parametrize("how", ["to a missing file", "to a missing file in a missing folder"])
def test_a_dangling_symlink_is_refused_and_nothing_is_made(tmp_path: Path, how: str) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    missing = elsewhere / "planted.md" if how == "to a missing file" else tmp_path / "x" / "y.md"
    link = tmp_path / "handoff.md"
    link.symlink_to(missing)
    code, out, err = run_main("review", "--output", str(link))
    assert_cannot_write(code, out, err, "which does not exist; not writing through it (give ")
    assert "--follow-dangling-link" in err
    assert list(elsewhere.iterdir()) == [] and not missing.exists()
    assert link.is_symlink() and os.readlink(link) == str(missing)


def test_a_dangling_symlink_is_followed_when_told(tmp_path: Path) -> None:
    missing = tmp_path / "made.md"
    link = tmp_path / "handoff.md"
    link.symlink_to(missing)
    argv = ["review", "--output", str(link), "--follow-dangling-link"]
    assert run_main(*argv) == (0, "", "")
    assert link.is_symlink() and missing.read_text(encoding="utf-8") == build_review().markdown()


@pytest.mark.parametrize("others", [1, 2])
def test_a_hard_linked_file_is_replaced_under_its_name_and_the_note_says_so(
    tmp_path: Path, others: int
) -> None:
    target = tmp_path / "handoff.md"
    target.write_text("old", encoding="utf-8")
    names = [tmp_path / f"other-{n}.md" for n in range(others)]
    for name in names:
        name.hardlink_to(target)
    code, out, err = run_main("review", "--output", str(target))
    plural = "s" if others > 1 else ""
    assert (code, out) == (0, "")
    assert err == (
        f"asyncfail review: note: {str(target)!r} had {others} other name{plural} "
        f"(hard link{plural}); the new content is under this name only, the others keep the old "
        "content\n"
    )
    assert target.read_text(encoding="utf-8") == build_review().markdown()
    assert [n.read_text(encoding="utf-8") for n in names] == ["old"] * others


def test_root_writing_another_users_file_keeps_its_owner_and_group(tmp_path: Path) -> None:
    if os.geteuid() != 0:
        pytest.skip("only root may give a file to another user")
    target = tmp_path / "handoff.md"
    target.write_text("old", encoding="utf-8")
    os.chown(target, 4321, 8765)
    target.chmod(0o644)
    assert run_main("review", "--output", str(target)) == (0, "", "")
    status = target.stat()
    assert (status.st_uid, status.st_gid, status.st_mode & 0o7777) == (4321, 8765, 0o644)
    assert target.read_text(encoding="utf-8") == build_review().markdown()
