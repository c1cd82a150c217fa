"""Which of the seed's five assumptions a run's settings break, and how.

The seed's durable runtime is "Recovered by operation key" only under its stated assumptions;
every result says which of them its settings (or its fault plan) set aside, in the seed's own
words plus one clause per setting that breaks it.
"""

from typing import Final

from pydantic import BaseModel, Field

from asyncfail.ground.durations import human
from asyncfail.ground.frozen import FROZEN
from asyncfail.ground.retention import retained
from asyncfail.ground.seed import ASSUMPTIONS
from asyncfail.lab.schedules import delivery_times
from asyncfail.lab.settings import Availability, KeyStability, LabSettings, RecordWrite

SINGLE_FAULT, STABLE_KEY, RETAINED_ATOMIC, LOOKUP_AND_STORE, NOT_MODELED = range(1, 6)
"""The seed's assumptions by their number (1-based, in the seed's order)."""


class BrokenAssumption(BaseModel):
    """One of the seed's assumptions a run sets aside, and the settings that do it."""

    model_config = FROZEN

    assumption: int = Field(ge=1, le=len(ASSUMPTIONS), description="Its number, from 1.")
    text: str = Field(description="The seed's sentence, word for word.")
    by: tuple[str, ...] = Field(description="What breaks it, one clause per setting.")


def _reasons(settings: LabSettings, deliveries: int, injections: int) -> dict[int, list[str]]:
    reasons: dict[int, list[str]] = {n: [] for n in range(1, len(ASSUMPTIONS) + 1)}
    if injections > 1:
        reasons[SINGLE_FAULT].append(f"a fault plan of {injections} injections")
    if settings.key is KeyStability.PER_ATTEMPT:
        reasons[STABLE_KEY].append("key per-attempt: a new operation key on every redelivery")
    if settings.key is KeyStability.NONE:
        reasons[STABLE_KEY].append("key none: requests carry no operation key at all")
    times = delivery_times(settings.schedule, settings.redelivery_delay, deliveries)
    retention = settings.retention
    if retention is not None and not retained(times[-1], retention, settings.boundary):
        reasons[RETAINED_ATOMIC].append(
            f"retention {human(retention)}: a record can expire before delivery {len(times)} "
            f"at {human(times[-1])} ({settings.boundary})"
        )
    if settings.record is RecordWrite.SEPARATE:
        reasons[RETAINED_ATOMIC].append(
            "record separate: a debit can commit without its idempotency record"
        )
    if settings.lookup is Availability.OUTAGE:
        reasons[LOOKUP_AND_STORE].append("lookup outage: no lookup by key ever answers")
    if settings.store is Availability.OUTAGE:
        reasons[LOOKUP_AND_STORE].append(
            "store outage: the journal cannot be written during the first delivery"
        )
    modeled = [
        name
        for name, on in (
            ("an outage of the lookup service", settings.lookup is Availability.OUTAGE),
            ("expiring deduplication records", retention is not None),
            ("two workers at once", settings.workers > 1),
        )
        if on
    ]
    if modeled:
        reasons[NOT_MODELED].append(f"this run models {' and '.join(modeled)}")
    return reasons


def broken_assumptions(
    settings: LabSettings, deliveries: int, injections: int = 1
) -> tuple[BrokenAssumption, ...]:
    """The seed's assumptions the settings set aside, in the seed's order.

    Rules: (1) a single injected fault: broken by a plan of more than one injection; (2) a
    stable key: broken by ``key=per-attempt``, and by ``key=none`` (the checkpoint runtime
    only); (3) a record retained throughout the retry window and atomic with the effect: broken
    by a retention that lets the record expire by the latest delivery the channel may make
    (under the boundary convention in force), and by ``record=separate``; (4) lookups succeed
    and storage is available: broken by either outage; (5) outages, expiry and concurrency are
    not modeled: no longer so once a lookup outage, a finite retention or a second worker is
    set. Settings that only strengthen the runtime (``receiver=dedupe``) or only move the clock
    break nothing.
    """
    reasons = _reasons(settings, deliveries, injections)
    return tuple(
        BrokenAssumption(assumption=n, text=ASSUMPTIONS[n - 1], by=tuple(by))
        for n, by in reasons.items()
        if by
    )


BREAKS: Final[dict[int, str]] = {
    SINGLE_FAULT: "several injections in one run (a fault plan)",
    STABLE_KEY: "key per-attempt",
    RETAINED_ATOMIC: "a retention shorter than the redelivery window, or record separate",
    LOOKUP_AND_STORE: "lookup outage, or store outage",
    NOT_MODELED: "a lookup outage, a finite retention, or two workers",
}
"""For each assumption, the settings that break it, in words (the lesson's table)."""
