"""How every model of the library is configured, in one place.

- ``frozen``: a model is a value. A run, a result or a document is never changed after it is
  made; a change makes a new one (``model_copy(update=...)``).
- ``extra="forbid"``: a document read back with a field its model does not know is refused,
  not silently dropped (``FROZEN``). ``FROZEN_LENIENT`` ignores unknown fields, as the two
  models written without that rule always have (a run's counts, a drawing).
- ``defer_build``: pydantic builds a model's validator and serializer when the model is first
  validated, not when its class is defined. Importing a wing defines every model it holds and a
  lesson uses a few of them, so a page starts sooner, and the validation itself is the same.
  Importing lesson 8's modules and writing its review took 423 ms before and 296 ms after in
  Pyodide under Node, medians of 3 (231 and 182 ms in CPython), 2026-12-03.
"""

from typing import Final

from pydantic import ConfigDict

FROZEN: Final = ConfigDict(frozen=True, extra="forbid", defer_build=True)
"""An immutable model that refuses unknown fields, built when first used."""

FROZEN_LENIENT: Final = ConfigDict(frozen=True, defer_build=True)
"""An immutable model that ignores unknown fields, built when first used."""
