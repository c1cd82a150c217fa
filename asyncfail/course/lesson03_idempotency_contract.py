"""Lesson 3, "Stress the idempotency contract" (``notebooks/03_idempotency_contract.py``): its
controls' defaults and parsing, and the captions and table it derives from a result.

The controls' options are the contract wing's own words (``contract.terms``,
``contract.requests``); each knob's control starts at the value the chosen profile's system sets
(``contract.settings.resolve``), so picking a profile sets every knob it fixes, and changing one
afterwards is reported as a departure from that system. With the default profile the controls
are the seed's example, as ``ContractScenario()`` is.
"""

from functools import lru_cache
from typing import Final

from asyncfail.charts.drawing import Drawing
from asyncfail.charts.heatmap import overview_axis
from asyncfail.charts.heatmap_drawing import heatmap_drawing
from asyncfail.contract.experiment import ContractResult, ContractScenario
from asyncfail.contract.profiles import PROFILES
from asyncfail.contract.settings import ContractSettings, resolve
from asyncfail.contract.sweep import RetentionSweep, sweep_around_boundary, sweep_retention
from asyncfail.contract.terms import (
    DEFAULT_DELAY,
    PROFILE_NAMES,
    REQUESTS_HEADER,
    REQUESTS_TITLE,
    ContractProfile,
)
from asyncfail.document.markdown import md_table
from asyncfail.document.markup import Table
from asyncfail.ground.durations import duration_error, parse_duration

DEFAULTS: Final = ContractScenario()
"""The seed's example row: the profile, second request and delay controls start here."""

DISPOSITION_CAPTION: Final = "applied, reused, or conflict"
ZOOM_RADIUS_SECONDS: Final = 5
"""How far the zoomed heatmap reaches either side of the retention, in seconds."""
HEATMAPS: Final = 64
"""How many scenarios' heatmaps ``heatmaps`` keeps (the most recently asked)."""


@lru_cache(maxsize=HEATMAPS)
def heatmaps(
    scenario: ContractScenario, titles: tuple[str, str]
) -> tuple[tuple[RetentionSweep, Drawing], tuple[RetentionSweep, Drawing]]:
    """The lesson's two heatmaps of ``scenario``, each its sweep (whose table the lesson makes
    when its fold opens) and its drawing, titled ``titles``: the overview (``overview_axis``
    on both axes) and the zoom on the retention boundary (``ZOOM_RADIUS_SECONDS`` either side).

    A scenario is frozen and both sweeps and drawings are functions of it, so a scenario asked
    again (a profile set back, a knob moved back) gets what was made before: in the browser,
    where Python runs several times slower, the 1,681 cells of the overview were swept and
    drawn again at every change, about a third of the kernel's time for a profile's change.
    """
    overview, zoom = titles
    axis = overview_axis(scenario)
    wide = sweep_retention(scenario, axis, axis)
    near = sweep_around_boundary(scenario, radius_seconds=ZOOM_RADIUS_SECONDS)
    return (wide, heatmap_drawing(wide, overview)), (near, heatmap_drawing(near, zoom))


def profile_label(profile: ContractProfile) -> str:
    """A profile as the lesson offers it: its name, and the HTTP status of its conflict."""
    status = PROFILES[profile].conflict.status_code
    return PROFILE_NAMES[profile] + ("" if status is None else f" ({status})")


def rejection_caption(result: ContractResult) -> str:
    """Under the disposition: the profile's report of a conflict, or what the figure can be."""
    if result.rejection is None:
        return DISPOSITION_CAPTION
    return f"{result.rejection.status_code or 'no HTTP status'}: {result.rejection.error}"


def requests_table(result: ContractResult) -> str:
    """The seed's table of the two requests, their receiver keys and fingerprints (Markdown)."""
    rows = tuple(
        (
            (str(r.attempt),),
            (r.business_identity,),
            (str(r.amount_minor_units),),
            (r.receiver_key,),
            (r.fingerprint_tuple,),
        )
        for r in result.requests
    )
    return f"**{REQUESTS_TITLE}**\n\n{md_table(Table(header=REQUESTS_HEADER, rows=rows))}"


def controls_for(profile: ContractProfile) -> ContractSettings:
    """Where each knob's control starts once ``profile`` is chosen: the settings in force with
    nothing explicit."""
    return resolve(profile, scope=None, policy=None, retention=None, boundary=None)


def seconds_text(settings: ContractSettings) -> str:
    """The retention as its text field starts: ``3600``."""
    return str(settings.retention.json_number)


DELAY_TEXT: Final = str(DEFAULT_DELAY.json_number)
"""The delay as its text field starts."""


def profile_scenario(profile: ContractProfile) -> ContractScenario:
    """The scenario the lesson starts from once ``profile`` is chosen: every knob where the
    profile sets it (``controls_for``, as the knobs start), the second request and its delay
    where the page starts them (``DEFAULTS``, ``DELAY_TEXT``). What the page's start makes for
    each profile (``course.warmup.warm``), so a profile picked the first time finds its
    heatmaps made."""
    start = controls_for(profile)
    scenario, _ = scenario_from_controls(
        {
            "profile": profile.value,
            "second": DEFAULTS.second.value,
            "scope": start.scope.value,
            "policy": start.policy.value,
            "boundary": start.boundary.value,
        },
        seconds_text(start),
        DELAY_TEXT,
    )
    return scenario


def scenario_from_controls(
    controls: dict[str, str], retention_text: str, delay_text: str
) -> tuple[ContractScenario, tuple[str, ...]]:
    """The scenario the controls describe, and a line for each duration that cannot be read.

    ``controls`` holds the choice controls' values (profile, second, scope, policy, boundary),
    every knob explicit, so a value that differs from what the profile's system fixes shows as
    a departure. A duration that cannot be read is reported (``duration_error``) and replaced:
    the retention by the profile's, the delay by the default delay.
    """
    errors: list[str] = []
    durations: dict[str, object] = {}
    for field, label, text in (
        ("retention_seconds", "Retention", retention_text),
        ("delay_seconds", "Delay", delay_text),
    ):
        try:
            durations[field] = parse_duration(text)
        except ValueError as error:
            errors.append(duration_error(label, text, str(error)))
    return ContractScenario.model_validate(controls | durations), tuple(errors)
