"""What restores the durable runtime's promise: the single setting changes that undo a
duplicate debit, found by running the model with each one.

A change is a setting back to the seed's value, or a safeguard a real system can turn on (a
deduplicating receiver, failing closed, a retention long enough for every redelivery). Each
candidate is one run of the model; nothing here is a rule of thumb.
"""

from dataclasses import dataclass
from typing import Final

from asyncfail.ground.durations import Duration
from asyncfail.ground.retention import BoundaryConvention, retained
from asyncfail.lab.reading import Outcome
from asyncfail.lab.results import LabResult
from asyncfail.lab.scenario import MAX_DELIVERIES, Mode, Scenario, option, option_value
from asyncfail.lab.schedules import delivery_times
from asyncfail.lab.settings import (
    DEFAULT_SETTINGS,
    LabSettings,
    OutagePolicy,
    ReceiverContract,
)
from asyncfail.lab.simulation import simulate

SAFE: Final = frozenset({Outcome.EXACTLY_ONCE, Outcome.PARKED})
"""Outcomes that keep the promise of at most one debit without losing track of it: applied once
(and known), or parked for an operator (safe, though not live)."""


@dataclass(frozen=True, slots=True)
class Restoration:
    """One setting changed, and the durable run it gives."""

    setting: str
    value: object
    result: LabResult

    @property
    def change(self) -> str:
        """The change as the CLI writes it: ``--key stable``; a retention back to the seed's
        (records kept for the whole run) is leaving the option out: ``without --retention``."""
        if self.value is None:
            return f"without {option(self.setting)}"
        return f"{option(self.setting)} {option_value(self.value)}"


def enough_retention(settings: LabSettings, deliveries: int) -> Duration:
    """The shortest retention that keeps a record written at the first delivery until the last
    one the channel may make, under the boundary convention in force."""
    last = delivery_times(settings.schedule, settings.redelivery_delay, deliveries)[-1]
    if retained(last, last, settings.boundary):
        return last
    return Duration(last.millis + 1)


def _candidates(settings: LabSettings, deliveries: int) -> list[tuple[str, object]]:
    """Every single change worth trying, in the settings' declaration order."""
    changes: list[tuple[str, object]] = [
        (name, getattr(DEFAULT_SETTINGS, name)) for name in settings.changed()
    ]
    safeguards: list[tuple[str, object]] = [
        ("receiver", ReceiverContract.DEDUPE),
        ("on_lookup_outage", OutagePolicy.FAIL_CLOSED),
        ("on_store_outage", OutagePolicy.FAIL_CLOSED),
        ("boundary", BoundaryConvention.RETAINED_AT_BOUNDARY),
    ]
    if settings.retention is not None:
        safeguards.append(("retention", enough_retention(settings, deliveries)))
    changes += [(n, v) for n, v in safeguards if getattr(settings, n) != v]
    order = list(LabSettings.model_fields)
    unique = {(n, str(v)): (n, v) for n, v in changes}
    return sorted(unique.values(), key=lambda change: order.index(change[0]))


BUDGET: Final = "deliveries"
"""The one change that is not a setting: one more delivery than the budget allows."""


def restorations(scenario: Scenario) -> tuple[Restoration, ...]:
    """The single changes under which the durable runtime keeps its promise for this scenario's
    fault or plan (``SAFE`` outcomes), each with its run: every setting candidate, then one
    more delivery (a plan that spends every delivery leaves nothing applied, and only a larger
    budget outlasts it). Empty when the run is already safe, or when no single change is
    enough."""
    durable = scenario.model_copy(update={"mode": Mode.DURABLE})
    if simulate(durable).outcome in SAFE:
        return ()
    found = []
    for name, value in _candidates(scenario.settings, scenario.deliveries):
        changed = scenario.settings.model_copy(update={name: value})
        result = simulate(durable.model_copy(update={"settings": changed}))
        if result.outcome in SAFE:
            found.append(Restoration(name, value, result))
    if scenario.deliveries < MAX_DELIVERIES:
        more = scenario.deliveries + 1
        result = simulate(durable.model_copy(update={BUDGET: more}))
        if result.outcome in SAFE:
            found.append(Restoration(BUDGET, more, result))
    return tuple(found)
