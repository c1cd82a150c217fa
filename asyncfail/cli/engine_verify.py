"""``asyncfail verify --engine NAME``: a real durable-execution engine, case by case, beside the
model, with the engine's own records (``asyncfail.engines``).

The same output formats, exit statuses, ``--keep`` and clean-up as ``asyncfail verify``: 0 when
no case disagrees (an inconclusive one is said apart), 1 when one does (naming them) or the
engine cannot run, 2 for a runtime, key or receiver the engine does not run, 130 on Ctrl-C.
"""

import argparse
from collections.abc import Callable
from enum import StrEnum
from pathlib import Path
from typing import Final, TypeVar

from asyncfail.cli.output import OutputFormat, Unsuccessful, UsageError
from asyncfail.cli.verdicts import disagreement_line, figures_text, verdict, verdict_lines
from asyncfail.engines.adapter import Engine, EngineUnavailable, engine_matrix
from asyncfail.engines.registry import ENGINES
from asyncfail.engines.verification import EngineRow, EngineVerification, verify_engine
from asyncfail.ground.canonical import to_json
from asyncfail.ground.prose import counted, joined
from asyncfail.lab.faults import Fault
from asyncfail.lab.scenario import Mode
from asyncfail.lab.settings import KeyStability, ReceiverContract, RecordWrite, StepRetries
from asyncfail.reference.supervisor import ReferenceFailure
from asyncfail.reference.verification import Case

PREFIX: Final = "asyncfail verify: error:"

Choice = TypeVar("Choice", bound=StrEnum)


def narrowed(kind: type[Choice], value: str | None) -> tuple[Choice, ...] | None:
    return None if value is None else (kind(value),)


def supported_cases(engine: Engine, args: argparse.Namespace) -> tuple[Case, ...]:
    """The engine's matrix narrowed by the options; an option it does not run is bad input."""
    if args.record is not None and args.record != RecordWrite.ATOMIC:
        raise UsageError(f"{PREFIX} argument --record: the {engine.name} engine runs atomic only")
    modes = narrowed(Mode, args.mode)
    if modes is not None and modes[0] not in engine.modes():
        raise UsageError(
            f"{PREFIX} argument --mode: the {engine.name} engine runs "
            f"{joined([m.value for m in engine.modes()])}"
        )
    faults = (Fault(args.fault),) if args.fault is not None else tuple(Fault)
    cases = engine_matrix(
        engine,
        faults,
        modes,
        narrowed(KeyStability, args.key),
        narrowed(ReceiverContract, args.receiver),
        StepRetries(args.step_retries or StepRetries.ONCE),
    )
    if not cases:
        raise UsageError(
            f"{PREFIX} the {engine.name} engine runs no case with these options ({runs(engine)})"
        )
    return cases


def runs(engine: Engine) -> str:
    """What ``engine`` runs, runtime by runtime, from the engine itself: ``checkpoint: --key
    none or stable, --receiver lookup-only or dedupe, --step-retries once or off; durable:
    ...``."""
    return "; ".join(
        f"{mode}: --key {_either(engine.keys(mode))}, --receiver {_either(engine.receivers(mode))}"
        f", --step-retries {_either(engine.step_retries(mode))}"
        for mode in engine.modes()
    )


def _either(values: tuple[StrEnum, ...]) -> str:
    return " or ".join(v.value for v in values)


def run(
    args: argparse.Namespace, keep: Path | None, progress: Callable[[int, int], None] | None
) -> str:
    engine = ENGINES[args.engine]
    cases = supported_cases(engine, args)
    try:
        verification = verify_engine(
            engine,
            cases,
            args.deliveries,
            args.jobs,
            keep,
            progress,
        )
    except EngineUnavailable as error:
        raise Unsuccessful(f"{PREFIX} {error}") from None
    except (ReferenceFailure, OSError) as error:
        raise Unsuccessful(f"{PREFIX} the {engine.name} engine failed: {error}") from None
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


STEP_RETRIES_OFF_LINE: Final = (
    "--step-retries off: the checkpoint step may not retry a call without a reply (DBOS's "
    "default); in the engine and in the model"
)
HEADERS: Final = ("fault", "mode", "key", "receiver", "model", "real", "processes", "verdict")


def row_cells(row: EngineRow) -> tuple[str, ...]:
    case, model, real = row.case, row.model, row.real
    return (
        case.fault,
        case.mode,
        case.key,
        case.receiver,
        figures_text(model),
        figures_text(real),
        " ".join(real.workers),
        verdict(row),
    )


def render_text(verification: EngineVerification) -> str:
    """A table for the terminal: one line per case, then under it what the engine recorded
    (and the note, where it differs from the model by design), then the verdict."""
    v = verification
    rows = [row_cells(row) for row in v.rows]
    widths = [max(len(cells[i]) for cells in [HEADERS, *rows]) for i in range(len(HEADERS))]
    lines = [
        f"Does the model tell the truth? {v.engine} {v.version} on real processes, up to "
        f"{counted(v.deliveries, 'delivery')} per case",
        "model, real: attempts effects tool-calls lookups outcome; processes: how each "
        "delivery's process ended",
        *(
            [STEP_RETRIES_OFF_LINE]
            if any(row.case.step_retries is StepRetries.OFF for row in v.rows)
            else []
        ),
        "",
        "  ".join(h.ljust(w) for h, w in zip(HEADERS, widths, strict=True)).rstrip(),
    ]
    for row, cells in zip(v.rows, rows, strict=True):
        lines.append("  ".join(c.ljust(w) for c, w in zip(cells, widths, strict=True)).rstrip())
        lines.append(
            f"    {v.engine}: workflow {', '.join(row.workflows) or 'none'}; steps "
            f"{', '.join(row.steps) or 'none'}"
        )
        if row.note is not None:
            lines.append(f"    by design: {row.note}")
    lines += ["", *verdict_lines(len(v.rows), v.disagreements, v.inconclusive)]
    return "\n".join(lines) + "\n"
