"""``asyncfail review``: the reliability review handoff, generated from the model, as a file.

Markdown goes to stdout by default. ``--output`` writes the whole document to a temporary file
in the target's directory and then renames it over the target, so a reader never sees half a
document and a failed write leaves the target as it was.
"""

import argparse
import os
import tempfile
from pathlib import Path

from asyncfail.cli.output import UsageError
from asyncfail.handoff.review import ReviewFormat, build_review
from asyncfail.lab.faults import Fault
from asyncfail.lab.scenario import SEED_FAULT


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
        help="write the document to FILE (atomically) instead of stdout",
    )


def write_atomically(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` as UTF-8 so that the file is either complete or untouched.

    The text goes to a temporary file in the same directory (same file system, so the rename
    is atomic), is flushed to disk, and replaces ``path`` in one ``os.replace``. On any error
    the temporary file is removed and the error propagates. The new file gets the usual
    permissions (0666 less the umask), not the temporary file's private 0600.
    """
    directory = path.parent
    handle, temporary = tempfile.mkstemp(dir=directory, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="\n") as stream:
            stream.write(text)
            stream.flush()
            os.fsync(stream.fileno())
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(temporary, 0o666 & ~umask)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def run(args: argparse.Namespace) -> str:
    text = build_review(Fault(args.fault)).render(ReviewFormat(args.format))
    if args.output is None:
        return text
    if not args.output:
        raise UsageError("asyncfail review: error: argument --output: the file name is empty")
    if "\0" in args.output:
        raise UsageError("asyncfail review: error: argument --output: the file name has a NUL byte")
    # Write through a symbolic link to the file it names, and never replace a device, pipe or
    # directory with a regular file (`--output /dev/null` as root would destroy the device).
    target = Path(os.path.realpath(args.output))
    if target.exists() and not target.is_file():
        raise UsageError(
            f"asyncfail review: error: cannot write {args.output!r}: not a regular file "
            "(use a file name, or omit --output to print to stdout)"
        )
    try:
        write_atomically(target, text)
    except OSError as error:
        reason = error.strerror or type(error).__name__
        raise UsageError(
            f"asyncfail review: error: cannot write {args.output!r}: {reason}"
        ) from None
    return ""
