"""``asyncfail review``: the reliability review handoff, generated from the model, as a file.

Markdown goes to stdout by default (and for ``--output -``). ``--output`` writes the whole
document to a temporary file in the target's directory and then renames it over the target, so
a reader never sees half a document and a failed write leaves the target as it was.
"""

import argparse
import errno
import os
import stat
import tempfile
from pathlib import Path

from asyncfail.cli.output import OutputError, UsageError
from asyncfail.cli.settings_options import add_settings, settings_of
from asyncfail.ground.prose import echoed
from asyncfail.lab.faults import Fault
from asyncfail.lab.scenario import SEED_FAULT
from asyncfail.review.handoff import ReviewFormat, build_review

# What a target that is not a regular file is, for the one line that refuses it.
_KINDS = {
    stat.S_IFDIR: "a directory",
    stat.S_IFIFO: "a named pipe",
    stat.S_IFCHR: "a device",
    stat.S_IFBLK: "a device",
    stat.S_IFSOCK: "a socket",
}
_INSTEAD = "(name a file, or give '-' for standard output)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--fault",
        choices=[f.value for f in Fault],
        default=SEED_FAULT.value,
        help=f"the injected fault the review is about (default: {SEED_FAULT})",
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
    add_settings(parser)


def run(args: argparse.Namespace) -> str:
    review = build_review(Fault(args.fault), settings=settings_of(args, "review"))
    text = review.render(ReviewFormat(args.format))
    if args.output is None or args.output == "-":  # "-" is standard output, as for most tools
        return text
    write_file(args.output, text)
    return ""


def write_file(name: str, text: str) -> None:
    """Write ``text`` to the file ``name`` names, following symbolic links, atomically.

    Rules: a name that can name no file (empty, with a NUL byte, not encodable) is bad input:
    ``UsageError``, exit 2. Anything else that stops the write means the output could not be
    written: ``OutputError``, exit 1, on one line. That is whatever the system refuses (a
    missing or read-only directory, a name too long, a symbolic link loop, a full disk), a file
    this user may not write, and a target that is not a regular file: a directory, device or
    pipe is never replaced by a regular file (``--output /dev/null`` as root would destroy
    the device). An existing file keeps its permissions.
    """
    _check_name(name)
    try:
        target = Path(os.path.realpath(name))
        write_atomically(target, text, _replaceable(name, target))
    except OSError as error:
        reason = error.strerror or type(error).__name__
        raise OutputError(
            f"asyncfail review: error: cannot write the --output file {echoed(name)}: {reason}"
        ) from None


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


def _replaceable(name: str, target: Path) -> int | None:
    """The permissions of the file ``target`` that may be replaced, None if there is none yet.

    Raises ``OSError`` as the system would for a target that may not be replaced: a symbolic
    link loop (``realpath`` leaves the loop unresolved, and ``stat`` says so), a name ending in
    ``/`` (it names a directory, and ``realpath`` drops the slash), a target that is not a
    regular file, and a file this user may not write (replacing it would still succeed).
    """
    if name.endswith(os.sep):
        raise IsADirectoryError(
            errno.EISDIR, f"the name ends in '/', so names a directory {_INSTEAD}"
        )
    try:
        status = os.stat(target)
    except FileNotFoundError:  # a new file; a missing directory fails when the file is made
        return None
    if not stat.S_ISREG(status.st_mode):
        kind = _KINDS.get(stat.S_IFMT(status.st_mode), "a special file")
        raise OSError(errno.EEXIST, f"{kind}, not a regular file {_INSTEAD}")
    if not os.access(target, os.W_OK):
        raise PermissionError(errno.EACCES, f"{os.strerror(errno.EACCES)} (the file is read-only)")
    return stat.S_IMODE(status.st_mode)


def write_atomically(path: Path, text: str, mode: int | None = None) -> None:
    """Write ``text`` to ``path`` as UTF-8 so that the file is either complete or untouched.

    The text goes to a temporary file in the same directory (same file system, so the rename
    is atomic), is flushed to disk, and replaces ``path`` in one ``os.replace``. On any error
    the temporary file is removed and the error propagates. The new file gets ``mode`` (the
    permissions of the file it replaces), or for a new file the usual permissions (0666 less
    the umask), never the temporary file's private 0600.
    """
    # A short prefix: the temporary's name must fit wherever the target's does (255 bytes).
    prefix = f".{path.name[:32]}."
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=prefix, suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="\n") as stream:
            stream.write(text)
            stream.flush()
            os.fsync(stream.fileno())
        os.chmod(temporary, _new_file_mode() if mode is None else mode)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _new_file_mode() -> int:
    """What ``open`` gives a new file: 0666 less the umask (read by setting it, so set back)."""
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask
