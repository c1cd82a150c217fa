"""The lab's settings as lesson controls, written once for every lesson that offers them
(lessons 2, 4 and 5): a setting's label and the values its control offers, and the delivery
budget, read from the lab (``lab.settings``, ``lab.scenario``), so a control says what
``asyncfail lab`` says.
"""

from enum import StrEnum
from typing import Any, Final

from asyncfail.lab.scenario import MAX_DELIVERIES, option
from asyncfail.lab.settings import SETTING_DESCRIPTIONS, LabSettings

KEPT_WHOLE_RUN: Final = "empty: kept for the whole run"
"""The placeholder of a retention field: left empty, records never expire."""
DELIVERIES_LABEL: Final = "**Delivery budget**: how often the channel may deliver the operation"
"""The delivery budget's label, as lessons 2 and 4 show it (``delivery_budget``)."""


def delivery_budget(mo: Any, value: int, snapshot: bool) -> Any:
    """The delivery budget's control (``mo`` is the imported ``marimo``): a whole number from 1
    to ``MAX_DELIVERIES``, starting at ``value``, inert in a snapshot."""
    return mo.ui.number(
        start=1, stop=MAX_DELIVERIES, step=1, value=value, label=DELIVERIES_LABEL, disabled=snapshot
    )


def setting_label(name: str) -> str:
    """A setting's control label: its CLI option and its sentence from ``SETTING_DESCRIPTIONS``:
    ``\\`--key\\`: ...``."""
    return f"`{option(name)}`: {SETTING_DESCRIPTIONS[name]}"


def choice_options(name: str) -> list[str]:
    """The values a choice control offers: the setting's closed set, in declaration order."""
    kind = LabSettings.model_fields[name].annotation
    assert isinstance(kind, type) and issubclass(kind, StrEnum)
    return [member.value for member in kind]
