"""How the course replaces a function of marimo's runtime: in the module marimo has loaded, once,
and nowhere marimo has no such function.

Five switches make the lessons quicker, in the published pages above all, by replacing one
function each that marimo 0.25.2 looks up by name in its own module at each call: its Markdown
renderer, memoized (``course/markdown_cache.py``) and answered from the build's memo
(``course/prerendered.py``), its editor's panel data (``course/editor_data.py``), its execution
notices (``course/execution_notices.py``) and its Pyodide bridge's decoder of each message's
name (``course/message_names.py``). The rule they share:

- The library never imports marimo, so a switch replaces the function in the module marimo's
  runtime has already loaded (``sys.modules``), never loading one itself.
- Where that module is not loaded, or has no such function, or the name is not callable
  (another marimo version), nothing is replaced: a page is never broken by a switch, only
  slower.
- A function is replaced once: a switch installed again (a lesson's cell run again, or the
  site's kernel lifespan and then the lesson) finds its own replacement there (``done``) and
  leaves it, so no wrapper ever wraps itself.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any, Final

Function = Callable[..., Any]
PYODIDE: Final = "emscripten"
"""``sys.platform`` where marimo runs in Pyodide, as in every WebAssembly page: where the
switches of the published pages act."""


def replace_once(
    module_name: str,
    name: str,
    done: Callable[[Function], bool],
    replace: Callable[[Function], Function],
) -> bool:
    """Put ``replace(function)`` in place of the function ``name`` of the loaded module
    ``module_name``, unless ``done(function)`` says it is this switch's replacement already;
    whether the switch's replacement is in place now (False where there is no such function,
    and then nothing is touched)."""
    module = sys.modules.get(module_name)
    function = getattr(module, name, None)
    if module is None or not callable(function):
        return False
    if not done(function):
        setattr(module, name, replace(function))
    return True


def is_wrapper(function: Function) -> bool:
    """Whether ``function`` wraps another (``functools.wraps`` sets ``__wrapped__``): the mark of
    a switch's replacement where marimo's own function wraps none."""
    return hasattr(function, "__wrapped__")
