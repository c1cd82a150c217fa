"""marimo's check for a reusable top-level function, made without parsing cells that cannot be one.

After every run of a cell, marimo asks whether the cell defines one top-level function or
class, which its editor offers to keep as a reusable definition
(``marimo._ast.cell.CellImpl.toplevel_variable``, read by the post-execution hook
``render_toplevel_defs`` in marimo 0.25.2). The check parses the cell's whole code with ``ast``
first, and only then counts the names the cell defines. The cells a lesson's control re-runs
define several names, and their code is long: timed inside the WebAssembly page (lesson 2, 12
changes of "Start from", alternating with the lesson as it was, 2026-12-06), each change took
23.6 ms of the kernel's time with the count made first, against 25.8 ms; the bench's trivial
cell, two lines, is parsed in no time, so the parse was a share of a lesson's recompute that
the trivial update does not have.

The rule, marimo's own in another order: a cell whose definitions and temporaries (as marimo
counts them) are other than exactly one name has no top-level variable, whatever its code; for
every other cell marimo's check decides, parse and all. So the answer is marimo's for every
cell (a cell that does not parse has none either way). ``install`` puts the count in front of
marimo's check, once per process. The library never imports marimo: ``install`` takes the
module a lesson already imported, and patches nothing where marimo has no such check (another
version), so a lesson is never broken by it, only slower.
"""

from __future__ import annotations

import functools
import inspect
import sys
from typing import Any, Final

OWNER_MODULE: Final = "marimo._ast.cell"
OWNER: Final = "CellImpl"
CHECK: Final = "toplevel_variable"
"""Where marimo 0.25.2 keeps its check: a property of the compiled cell."""


def may_be_toplevel(cell: Any) -> bool:
    """Whether marimo's check could find a top-level variable in ``cell`` (a compiled cell):
    only if it defines exactly one name, counting its temporaries."""
    return len(cell.defs | cell.temporaries) == 1


def install(mo: Any) -> bool:
    """Make marimo count a cell's names before it parses the cell's code for a top-level
    variable (``mo`` is the imported ``marimo``), once; whether it does now."""
    del mo  # imported by the lesson: the check's module is loaded with it
    owner = getattr(sys.modules.get(OWNER_MODULE), OWNER, None)
    check = inspect.getattr_static(owner, CHECK, None) if owner is not None else None
    if not isinstance(check, property) or check.fget is None:
        return False
    if hasattr(check.fget, "__wrapped__"):
        return True
    marimos = check.fget

    @functools.wraps(marimos)
    def counted_first(cell: Any) -> Any:
        return marimos(cell) if may_be_toplevel(cell) else None

    setattr(owner, CHECK, property(counted_first, doc=check.__doc__))
    return True
