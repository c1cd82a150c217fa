"""``asyncfail review``: the reliability review handoff, generated from the model, as a file.

Markdown goes to stdout by default (and for ``--output -``). ``--output`` writes the whole
document to a temporary file in the target's directory and then renames it over the target, so
a reader never sees half a document and a failed write leaves the target as it was.
"""

import argparse
import contextlib
import errno
import os
import stat
import tempfile
from pathlib import Path

from asyncfail.cli.output import OutputError, UsageError, report
from asyncfail.cli.settings_options import add_settings, settings_of
from asyncfail.ground.prose import echoed
from asyncfail.lab.faults import Fault
from asyncfail.lab.scenario import SEED_FAULT, Mode
from asyncfail.review.handoff import ReviewFormat, build_review
from asyncfail.review.runtimes import COMPARED_WITH, REVIEWED_MODES, review_refusal

# What a target that is not a regular file is, for the one line that refuses it.
_KINDS = {
    stat.S_IFDIR: "a directory",
    stat.S_IFIFO: "a named pipe",
    stat.S_IFCHR: "a device",
    stat.S_IFBLK: "a device",
    stat.S_IFSOCK: "a socket",
}
_INSTEAD = "(name a file, or give '-' for standard output)"
DANGLING_OPTION = "--follow-dangling-link"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--fault",
        choices=[f.value for f in Fault],
        default=SEED_FAULT.value,
        help=f"the injected fault the review is about (default: {SEED_FAULT})",
    )
    parser.add_argument(
        "--mode",
        choices=[m.value for m in REVIEWED_MODES],
        default=REVIEWED_MODES[0].value,
        help=f"the runtime under review, compared with the {COMPARED_WITH} runtime: "
        f"{REVIEWED_MODES[0]} (default, as in the seed) or {REVIEWED_MODES[1]} (a durable "
        "engine's step)",
    )
    parser.add_argument(
        "--format",
        choices=[f.value for f in ReviewFormat],
        default=ReviewFormat.MARKDOWN.value,
        help="markdown (default) or a self-contained HTML page",
    )
    parser.add_argument(
        "--output",
        metavar="FILE",
        help="write the document to FILE (atomically) instead of stdout ('-': stdout)",
    )
    parser.add_argument(
        DANGLING_OPTION,
        action="store_true",
        help="let --output write through a symbolic link whose target does not exist yet, "
        "making that file (refused by default: in a shared folder such a link can point "
        "anywhere)",
    )
    add_settings(parser)


def run(args: argparse.Namespace) -> str:
    mode, settings = Mode(args.mode), settings_of(args, "review")
    refusal = review_refusal(mode, settings)
    if refusal is not None:
        raise UsageError(f"asyncfail review: error: {refusal}")
    review = build_review(Fault(args.fault), mode=mode, settings=settings)
    text = review.render(ReviewFormat(args.format))
    if args.output is None or args.output == "-":  # "-" is standard output, as for most tools
        return text
    note = write_file(args.output, text, follow_dangling=args.follow_dangling_link)
    if note:
        report(note)
    return ""


def write_file(name: str, text: str, *, follow_dangling: bool = False) -> str:
    """Write ``text`` to the file ``name`` names, following symbolic links, atomically; a note
    for stderr when the new content reaches only one of the file's names, else "".

    Rules: a name that can name no file (empty, with a NUL byte, not encodable) is bad input:
    ``UsageError``, exit 2. Anything else that stops the write means the output could not be
    written: ``OutputError``, exit 1, on one line. That is whatever the system refuses (a
    missing or read-only directory, a name too long, a symbolic link loop, a full disk), a file
    this user may not write, a target that is not a regular file (a directory, device or pipe
    is never replaced by a regular file: ``--output /dev/null`` as root would destroy the
    device), and a symbolic link whose target does not exist, unless ``follow_dangling`` (as
    ``cp`` refuses to write through one: in a shared folder it may point anywhere).

    An existing file keeps its permissions, less setuid and setgid (new content must not run
    with the old file's privileges), and its owner and group where this user may set them
    (root writing another user's file). A file with other names (hard links) is replaced under
    this name only, atomically as always: the other names keep the old content, and the note
    says so.
    """
    _check_name(name)
    try:
        target = Path(os.path.realpath(name))
        existing = _replaceable(name, target, follow_dangling)
        write_atomically(target, text, existing)
    except OSError as error:
        reason = error.strerror or type(error).__name__
        raise OutputError(
            f"asyncfail review: error: cannot write the --output file {echoed(name)}: {reason}"
        ) from None
    if existing is not None and existing.st_nlink > 1:
        others = existing.st_nlink - 1
        return (
            f"asyncfail review: note: {echoed(name)} had {others} other "
            f"name{'s' if others > 1 else ''} (hard link{'s' if others > 1 else ''}); "
            "the new content is under this name only, the others keep the old content"
        )
    return ""


def _check_name(name: str) -> None:
    """Refuse a name that can name no file, whatever the file system holds."""
    if not name:
        problem = "the file name is empty"
    elif "\0" in name:
        problem = "the file name has a NUL byte"
    elif not _encodable(name):
        problem = "the file name cannot be encoded for this system"
    else:
        return
    raise UsageError(f"asyncfail review: error: argument --output: {problem} {_INSTEAD}")


def _encodable(name: str) -> bool:
    # A name from a real command line always is; one passed to main() in-process may not be.
    try:
        os.fsencode(name)
    except UnicodeEncodeError:
        return False
    return True


def _replaceable(name: str, target: Path, follow_dangling: bool) -> os.stat_result | None:
    """The status of the file ``target`` that may be replaced, None if there is none yet.

    Raises ``OSError`` as the system would for a target that may not be replaced: a symbolic
    link loop (``realpath`` leaves the loop unresolved, and ``stat`` says so), a name ending in
    ``/`` (it names a directory, and ``realpath`` drops the slash), a target that is not a
    regular file, and a file this user may not write (replacing it would still succeed); and
    for a dangling symbolic link, unless ``follow_dangling``.
    """
    if name.endswith(os.sep):
        raise IsADirectoryError(
            errno.EISDIR, f"the name ends in '/', so names a directory {_INSTEAD}"
        )
    try:
        status = os.stat(target)
    except FileNotFoundError:  # a new file; a missing directory fails when the file is made
        if os.path.islink(name) and not follow_dangling:
            raise FileNotFoundError(
                errno.ENOENT,
                f"it is a symbolic link to {echoed(str(target))}, which does not exist; not "
                f"writing through it (give {DANGLING_OPTION} to make that file)",
            ) from None
        return None
    if not stat.S_ISREG(status.st_mode):
        kind = _KINDS.get(stat.S_IFMT(status.st_mode), "a special file")
        raise OSError(errno.EEXIST, f"{kind}, not a regular file {_INSTEAD}")
    if not os.access(target, os.W_OK):
        raise PermissionError(errno.EACCES, f"{os.strerror(errno.EACCES)} (the file is read-only)")
    return status


def write_atomically(path: Path, text: str, existing: os.stat_result | None = None) -> None:
    """Write ``text`` to ``path`` as UTF-8 so that the file is either complete or untouched.

    The text goes to a temporary file in the same directory (same file system, so the rename
    is atomic), is flushed to disk, and replaces ``path`` in one ``os.replace``. On any error
    the temporary file is removed and the error propagates. The new file gets the permissions
    of the file it replaces (``existing``) less setuid and setgid, and its owner and group
    where this user may set them; a new file gets the usual permissions (0666 less the umask),
    never the temporary file's private 0600.
    """
    # A short prefix: the temporary's name must fit wherever the target's does (255 bytes).
    prefix = f".{path.name[:32]}."
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=prefix, suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="\n") as stream:
            stream.write(text)
            stream.flush()
            os.fsync(stream.fileno())
        if existing is None:
            os.chmod(temporary, _new_file_mode())
        else:
            _keep_owner(temporary, existing)
            # After chown, which may itself clear the set-id bits, never before.
            os.chmod(temporary, stat.S_IMODE(existing.st_mode) & ~_SET_ID)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


_SET_ID = stat.S_ISUID | stat.S_ISGID
"""Bits new content never inherits: run as the file's owner or group."""


def _keep_owner(temporary: str, existing: os.stat_result) -> None:
    """Give ``temporary`` the owner and group of the file it replaces, as far as this user may:
    root may give any; another user only a group they are in (else the file is theirs)."""
    mine = os.stat(temporary)
    if (mine.st_uid, mine.st_gid) == (existing.st_uid, existing.st_gid):
        return
    try:
        os.chown(temporary, existing.st_uid, existing.st_gid)
    except PermissionError:
        with contextlib.suppress(PermissionError):
            os.chown(temporary, -1, existing.st_gid)


def _new_file_mode() -> int:
    """What ``open`` gives a new file: 0666 less the umask (read by setting it, so set back)."""
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask
