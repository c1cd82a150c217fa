"""Lesson 5, "Two workers, one debit" (``notebooks/05_two_workers.py``): its controls' defaults
and parsing, and the explorer's verdict for the chosen safeguards (cached per setting
combination).

The lesson runs worker 1 into a stall at one named step; its lease runs out and the channel
hands the operation to worker 2. What happens to the ledger is the model's; which stall (or two)
could still break the safeguards is the explorer's.
"""

from collections.abc import Mapping
from functools import lru_cache
from typing import Final

from asyncfail.explore.explorer import Exploration, explore
from asyncfail.ground.durations import duration_error, parse_duration
from asyncfail.ground.prose import counted
from asyncfail.lab.faults import POINT_PROSE, FaultPlan, FaultPoint, Injection, plan_text
from asyncfail.lab.scenario import Mode, Scenario
from asyncfail.lab.settings import DEFAULT_LEASE, DEFAULT_PAUSE, LabSettings

STALLS: Final[tuple[FaultPoint, ...]] = (
    FaultPoint.PAUSE_BEFORE_DISPATCH,
    FaultPoint.PAUSE_IN_REQUEST,
    FaultPoint.PAUSE_AFTER_EFFECT,
)
"""Where worker 1 can stall, in the order a delivery reaches them."""
DEFAULT_STALL: Final = FaultPoint.PAUSE_IN_REQUEST

SAFEGUARDS: Final = ("claim", "receiver", "fencing")
"""The settings the lesson offers as safeguards, in the order they are shown."""

EXPLORE_FAULTS: Final = 2
"""How many injections (stalls, crashes, lost messages, outages) the explorer combines."""

PAUSE_TEXT: Final = DEFAULT_PAUSE.json_number
LEASE_TEXT: Final = DEFAULT_LEASE.json_number
INPUT_ERROR: Final = "{error}; the lesson uses {used} meanwhile"

HOLDS: Final = (
    "**No.** The explorer ran every plan of up to {faults} injections (stalls at any step of "
    "either worker, crashes, lost messages, one-off outages): {explored} plans, {fired} of "
    "them fired in full, in {interleavings} different orders of the two workers' steps. None "
    "debits twice with these safeguards."
)
BREAKS: Final = (
    "**Yes.** The explorer found {violations} that debit twice with these safeguards, among "
    "{explored} it ran. The smallest is **{plan}**: {effects}, *{status}*. Replay it in a "
    "terminal:"
)


def stall_label(point: FaultPoint) -> str:
    """A stall as the dropdown offers it: ``pause-in-request: the request stalls at ...``."""
    return f"{point.value}: {POINT_PROSE[point].clause}"


def stall_options() -> dict[str, str]:
    """The stalls by label, each to its point's value."""
    return {stall_label(p): p.value for p in STALLS}


def read_seconds(label: str, text: str, fallback: str) -> tuple[str, list[str]]:
    """A duration field's text if it reads, else the fallback, with a line saying why."""
    try:
        parse_duration(text)
    except ValueError as error:
        line = INPUT_ERROR.format(error=duration_error(label, text, str(error)), used=fallback)
        return fallback, [line]
    return text, []


def settings_from_controls(
    pause_text: str, lease_text: str, safeguards: Mapping[str, str]
) -> tuple[LabSettings, tuple[str, ...]]:
    """The two workers' settings the controls describe (the timing and the safeguards, not
    where worker 1 stalls, which is the fault plan's: ``stalled``), and a line for each
    duration that cannot be read (the default is used)."""
    pause, errors = read_seconds("Pause", pause_text, str(PAUSE_TEXT))
    lease, more = read_seconds("Lease", lease_text, str(LEASE_TEXT))
    knobs = dict(safeguards) | {"workers": 2, "pause": pause, "lease": lease}
    return LabSettings.model_validate(knobs), tuple(errors + more)


def stalled(stall: str, settings: LabSettings) -> Scenario:
    """The scenario in which worker 1 stalls at ``stall`` in its delivery, under ``settings``."""
    plan = FaultPlan.of(Injection(attempt=1, point=FaultPoint(stall)))
    return Scenario(plan=plan, settings=settings)


@lru_cache(maxsize=64)
def explored(settings: LabSettings) -> Exploration:
    """The durable runtime explored under ``settings`` (cached: the same safeguards ask the
    same question)."""
    return explore(Mode.DURABLE, settings, 3, EXPLORE_FAULTS)


def verdict(found: Exploration) -> tuple[str, Scenario | None, str | None]:
    """What the explorer says (Markdown), and the smallest counterexample's scenario and
    replay command when there is one."""
    report = found.invariants[0]
    example = report.counterexample
    if example is None:
        return (
            HOLDS.format(
                faults=found.max_faults,
                explored=found.explored,
                fired=found.explored - found.unreachable,
                interleavings=found.interleavings,
            ),
            None,
            None,
        )
    plan = FaultPlan(injections=example.plan)
    scenario = Scenario(plan=plan, deliveries=found.deliveries, settings=found.settings)
    text = BREAKS.format(
        violations=counted(report.violations, "plan"),
        explored=found.explored,
        plan=plan_text(plan),
        effects=counted(example.counts.effects, "business effect"),
        status=example.status.value,
    )
    return text, scenario, example.command
