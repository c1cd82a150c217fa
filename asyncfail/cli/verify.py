"""``asyncfail verify``: the reference implementation run on real processes for every case of a
matrix, each case beside the model's prediction.

By default the whole matrix: every named fault x both runtimes x each value of ``--key``,
``--record`` and ``--receiver``; each of those options narrows it to one value. Exit status 0
when every case agrees, 1 when one does not (the output, then one line naming the cases), 2
for bad input, 130 on Ctrl-C; every process it started is gone by then.
"""

import argparse
from contextlib import ExitStack
from enum import StrEnum
from pathlib import Path
from typing import Final, TypeVar

from asyncfail.cli import engine_verify
from asyncfail.cli.output import (
    OutputFormat,
    Unsuccessful,
    UsageError,
    accepting,
    bounded_int,
)
from asyncfail.cli.progress import progress_line
from asyncfail.cli.verdicts import disagreement_line, figures_text, verdict, verdict_lines
from asyncfail.engines.registry import ENGINES
from asyncfail.ground.canonical import to_json
from asyncfail.ground.prose import counted, echoed, joined
from asyncfail.lab.faults import Fault
from asyncfail.lab.scenario import DEFAULT_DELIVERIES, MAX_DELIVERIES, SEED_MODES, Mode, option
from asyncfail.lab.settings import (
    KeyStability,
    LabSettings,
    ReceiverContract,
    RecordWrite,
    StepRetries,
)
from asyncfail.reference.scratch import scratch_folder
from asyncfail.reference.supervisor import ReferenceFailure
from asyncfail.reference.verification import (
    DEFAULT_JOBS,
    MAX_JOBS,
    SUPPORTED_SETTINGS,
    Figures,
    Row,
    Verification,
    matrix,
    verify,
)

PREFIX: Final = "asyncfail verify: error:"
REFERENCE: Final = "reference"
REFERENCE_KEYS: Final = (KeyStability.STABLE, KeyStability.PER_ATTEMPT)
"""The keys the reference implementation's durable worker sends."""
RUNS_ONLY: Final = (
    f"the reference implementation runs only {joined([option(n) for n in SUPPORTED_SETTINGS])} "
    "(either value); every other setting keeps the seed's value"
)
"""What ``verify`` says of a setting the reference implementation does not run."""
ENGINE_SETTING: Final = "step_retries"
"""The setting only an engine's cases take (the checkpoint runtime's step retry)."""
KEEP_RULE: Final = "name a new or empty folder you can write in; missing parent folders are created"
"""``--keep DIR``, the one rule: DIR is created if missing, with any missing parents (as
``mkdir -p``); it must then be an empty folder this user can write in. Anything else (a file, a
folder with something in it, a read-only folder or one under a read-only folder, a name that
cannot be a folder) is bad input: exit 2, one line, checked before any case runs."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    both = "(default: both)"
    parser.add_argument(
        "--engine",
        choices=[REFERENCE, *ENGINES],
        default=REFERENCE,
        help="what runs the cases: the reference implementation (default), or a real "
        f"durable-execution engine ({joined(list(ENGINES))}: the checkpoint and durable "
        "runtimes, as the engine runs them)",
    )
    parser.add_argument(
        "--fault", choices=[f.value for f in Fault], help="one fault (default: every one)"
    )
    parser.add_argument("--mode", choices=[m.value for m in Mode], help=f"one runtime {both}")
    for name, values in (
        ("key", KeyStability),
        ("record", RecordWrite),
        ("receiver", ReceiverContract),
    ):
        description = LabSettings.model_fields[name].description
        parser.add_argument(
            option(name), choices=[v.value for v in values], help=f"{description} {both}"
        )
    parser.add_argument(
        option(ENGINE_SETTING),
        choices=[v.value for v in StepRetries],
        help=f"{LabSettings.model_fields[ENGINE_SETTING].description} An engine's cases only "
        "(default: once)",
    )
    for name in LabSettings.model_fields:
        if name not in (*SUPPORTED_SETTINGS, ENGINE_SETTING):  # refused by `run`
            parser.add_argument(
                option(name),
                type=accepting(_any_value, f"a value, though {RUNS_ONLY}"),
                metavar="VALUE",
                help=argparse.SUPPRESS,
            )
    parser.add_argument(
        "--deliveries",
        type=bounded_int(1, MAX_DELIVERIES),
        default=DEFAULT_DELIVERIES,
        help=f"the queue's delivery budget (1-{MAX_DELIVERIES}, default: {DEFAULT_DELIVERIES})",
    )
    parser.add_argument(
        "--jobs",
        type=bounded_int(1, MAX_JOBS),
        default=DEFAULT_JOBS,
        help=f"how many cases run at once (1-{MAX_JOBS}, default: {DEFAULT_JOBS})",
    )
    parser.add_argument(
        "--format",
        choices=[f.value for f in OutputFormat],
        default=OutputFormat.JSON.value,
        help="a JSON document (default) or a table for the terminal",
    )
    parser.add_argument(
        "--keep",
        metavar="DIR",
        help="leave each case's SQLite files (ledger, journal, queue) and logs in DIR: "
        f"{KEEP_RULE} (default: a temporary folder, removed)",
    )


def run(args: argparse.Namespace) -> str:
    refuse_unsupported(args)
    if args.engine != REFERENCE:
        keep = None if args.keep is None else keep_folder(args.keep)
        line = progress_line("verify", "case")
        try:
            return engine_verify.run(args, keep, line)
        finally:
            if line is not None:
                line.close()
    if args.mode == Mode.CHECKPOINT or args.key == KeyStability.NONE or args.step_retries:
        raise UsageError(
            f"{PREFIX} the reference implementation runs the naive and durable runtimes with a "
            f"key; the checkpoint runtime, --key none and {option(ENGINE_SETTING)} run on an "
            "engine (--engine dbos)"
        )
    keep = None if args.keep is None else keep_folder(args.keep)
    cases = matrix(
        chosen(Fault, args.fault),
        SEED_MODES if args.mode is None else (Mode(args.mode),),
        REFERENCE_KEYS if args.key is None else (KeyStability(args.key),),
        chosen(RecordWrite, args.record),
        chosen(ReceiverContract, args.receiver),
    )
    line = progress_line("verify", "case")
    try:
        with ExitStack() as stack:
            # Without --keep, the cases run in a folder of the temporary directory that this run
            # owns and removes (scratch.py: a killed run's folder goes at the next run).
            root = keep if keep is not None else stack.enter_context(scratch_folder())
            verification = verify(cases, args.deliveries, args.jobs, root, line)
    except (ReferenceFailure, OSError) as error:
        # The reference itself could not run (a process, a file, a socket): not the model's
        # fault, and not a disagreement either.
        raise Unsuccessful(f"{PREFIX} the reference implementation failed: {error}") from None
    finally:
        if line is not None:
            line.close()
    text = (
        render_text(verification)
        if args.format == OutputFormat.TEXT
        else to_json(verification.model_dump(mode="json"))
    )
    if not verification.agrees:
        raise Unsuccessful(
            disagreement_line(len(verification.rows), verification.disagreements), output=text
        )
    return text


Choice = TypeVar("Choice", bound=StrEnum)


def chosen(kind: type[Choice], value: str | None) -> tuple[Choice, ...]:
    """The one value an option names, or every value of its kind when it is left out."""
    return tuple(kind) if value is None else (kind(value),)


def refuse_unsupported(args: argparse.Namespace) -> None:
    """Bad input: a setting the reference implementation does not run (it keeps the seed's)."""
    given = [
        option(name)
        for name in LabSettings.model_fields
        if name not in (*SUPPORTED_SETTINGS, ENGINE_SETTING) and getattr(args, name) is not None
    ]
    if given:
        raise UsageError(f"{PREFIX} argument {given[0]}: {RUNS_ONLY}")


def _any_value(text: str) -> str:
    """A setting the reference implementation does not run takes any value: ``run`` refuses
    the option itself (``refuse_unsupported``)."""
    return text


def keep_folder(text: str) -> Path:
    """``--keep DIR`` by ``KEEP_RULE``: the folder, ready; UsageError otherwise."""
    path = Path(text)
    try:
        path.mkdir(parents=True, exist_ok=True)
        empty = not any(path.iterdir())
        if empty:
            # Try it: permission bits say nothing for root, nor for a read-only mount.
            (path / ".asyncfail-probe").mkdir()
            (path / ".asyncfail-probe").rmdir()
    except (OSError, ValueError) as error:
        reason = getattr(error, "strerror", None) or str(error)
        raise UsageError(
            f"{PREFIX} argument --keep: cannot use {echoed(text)} as a folder: {reason}; "
            f"{KEEP_RULE}"
        ) from None
    if not empty:
        raise UsageError(f"{PREFIX} argument --keep: {echoed(text)} is not empty; {KEEP_RULE}")
    return path


HEADERS: Final = (
    "fault",
    "mode",
    "key",
    "record",
    "receiver",
    "model",
    "real",
    "workers",
    "verdict",
)


def exits_text(figures: Figures) -> str:
    """How the workers ended, then (if any died) the receivers: ``SIGKILL acknowledged``."""
    receiver = f" (receiver {' '.join(figures.receiver)})" if figures.receiver else ""
    return " ".join(figures.workers) + receiver


def row_cells(row: Row) -> tuple[str, ...]:
    case = row.case
    return (
        case.fault,
        case.mode,
        case.key,
        case.record,
        case.receiver,
        figures_text(row.model),
        figures_text(row.real),
        exits_text(row.real),
        verdict(row),
    )


def render_text(verification: Verification) -> str:
    """A table for the terminal: one line per case, a model's line under each that disagrees
    on how the processes ended, then the verdict."""
    rows = [row_cells(row) for row in verification.rows]
    widths = [max(len(cells[i]) for cells in [HEADERS, *rows]) for i in range(len(HEADERS))]
    lines = [
        "Does the model tell the truth? The reference implementation on real processes, "
        f"up to {counted(verification.deliveries, 'delivery')} per case",
        "model, real: attempts effects tool-calls lookups outcome; workers: how each "
        "delivery's real worker process ended",
        "",
    ]
    for cells in [HEADERS, *rows]:
        lines.append("  ".join(c.ljust(w) for c, w in zip(cells, widths, strict=True)).rstrip())
    for row in verification.rows:
        if exits_text(row.model) != exits_text(row.real):
            lines.append(f"  {row.case.name}: the model's workers {exits_text(row.model)}")
    lines += [
        "",
        *verdict_lines(
            len(verification.rows), verification.disagreements, verification.inconclusive
        ),
    ]
    return "\n".join(lines) + "\n"
