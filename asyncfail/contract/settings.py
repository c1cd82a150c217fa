"""The knobs in force for one run: what was asked, else what the profile's system does, else
the seed's default; and where an explicit choice departs from what that system does."""

from dataclasses import dataclass
from typing import Final, TypeVar

from asyncfail.contract.profiles import PROFILES, Knob
from asyncfail.contract.rules import phase_decides
from asyncfail.contract.terms import (
    DEFAULT_BOUNDARY,
    DEFAULT_POLICY,
    DEFAULT_RETENTION,
    DEFAULT_SCOPE,
    PROFILE_NAMES,
    ContractProfile,
    KeyScope,
    PayloadPolicy,
)
from asyncfail.ground.durations import Duration, human
from asyncfail.ground.retention import BoundaryConvention

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class ContractSettings:
    """Every knob of one run, resolved: none is left to a default."""

    scope: KeyScope
    policy: PayloadPolicy
    retention: Duration
    boundary: BoundaryConvention


def _in_force(asked: T | None, knob: Knob[T], default: T) -> T:
    """Rule: an explicit choice wins; else the value the profile's system sets; else the seed's
    default."""
    if asked is not None:
        return asked
    return default if knob.value is None else knob.value


def resolve(
    profile: ContractProfile,
    *,
    scope: KeyScope | None,
    policy: PayloadPolicy | None,
    retention: Duration | None,
    boundary: BoundaryConvention | None,
) -> ContractSettings:
    """The settings in force (``_in_force`` for each knob)."""
    info = PROFILES[profile]
    return ContractSettings(
        scope=_in_force(scope, info.scope, DEFAULT_SCOPE),
        policy=_in_force(policy, info.policy, DEFAULT_POLICY),
        retention=_in_force(retention, info.retention, DEFAULT_RETENTION),
        boundary=_in_force(boundary, info.boundary, DEFAULT_BOUNDARY),
    )


KNOB_NAMES: Final = {
    "scope": "the key scope",
    "policy": "the payload policy",
    "retention": "the retention",
    "boundary": "the boundary convention",
}
"""Each knob as a departure names it."""


def _departure(name: str, asked: object, knob: Knob[object], profile: ContractProfile) -> str:
    return f"{KNOB_NAMES[name]} is {asked}, where {PROFILE_NAMES[profile]} has {knob.value}"


def departures(
    profile: ContractProfile,
    *,
    scope: KeyScope | None,
    policy: PayloadPolicy | None,
    retention: Duration | None,
    boundary: BoundaryConvention | None,
) -> tuple[str, ...]:
    """Where an explicit choice departs from what the profile's system does.

    Rule: a knob the system fixes (``Knob.fixed``) set explicitly to another value departs from
    it; a knob its users may configure (Powertools' retention and validation) does not, and a
    knob the system leaves open never does. One sentence per departure, in knob order.
    """
    info = PROFILES[profile]
    asked = {"scope": scope, "policy": policy, "retention": retention, "boundary": boundary}
    knobs: dict[str, Knob[object]] = {
        "scope": info.scope,
        "policy": info.policy,
        "retention": info.retention,
        "boundary": info.boundary,
    }
    return tuple(
        _departure(name, asked[name], knob, profile)
        for name, knob in knobs.items()
        if knob.fixed and asked[name] is not None and asked[name] != knob.value
    )


def clock_departure(
    profile: ContractProfile, settings: ContractSettings, delay: Duration
) -> str | None:
    """The sentence that says the run's answer rests on the model's choice of write phase, or
    None. Rule: on a profile whose clock ticks coarser than milliseconds (Powertools: whole
    epoch seconds), where the write's place within its tick decides whether the record still
    counts at ``delay`` (``rules.phase_decides``); the model takes the write at the start of a
    tick, the real system at whatever instant the request came."""
    clock = PROFILES[profile].clock
    if clock is None or not phase_decides(
        settings.retention.millis, delay.millis, settings.boundary, clock.millis
    ):
        return None
    return (
        f"{PROFILE_NAMES[profile]} stores expiry in whole epoch seconds: at a delay of "
        f"{human(delay)} a real record still counts if it was written early enough in its "
        "second and has expired otherwise; this run takes the write at the start of a second"
    )
