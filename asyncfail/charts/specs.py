"""Vega-Lite specs of the lessons' charts, drawn from the library's plain-data rows.

No altair here: a spec is a template (built by altair in ``asyncfail.charts.builders`` and kept
in ``asyncfail/charts/templates.json``) with one drawing's data, sizes, parameters and titles filled
in at its top level. That keeps a slider move to a fraction of a millisecond and lets the
lessons run in an offline browser, where altair cannot be installed. ``VegaLite`` hands a spec
to marimo, which renders it exactly as it renders an altair chart. Every chart comes with a
text description.
"""

import json
from typing import Any, Final

from asyncfail.charts.bands import (
    band_kinds_present,
    bands,
    delivery_marks,
    describe_records,
    expiries,
    time_end,
)
from asyncfail.charts.instants import instant_markers, instant_rows
from asyncfail.charts.lanes import has_workers
from asyncfail.charts.look import (
    time_timeline_title,
    timeline_title,
)
from asyncfail.charts.risk_charts import Bin, CurveRow, Mark
from asyncfail.charts.templates import TEMPLATES
from asyncfail.charts.timeline import describe_timeline, markers_present, timeline_rows
from asyncfail.ground.durations import human_unit
from asyncfail.lab.results import LabResult

_TEMPLATES: Final[dict[str, dict[str, Any]]] = TEMPLATES
# Each template as JSON text: a fill parses its own copy, several times quicker than a deep copy
# (a slider move in the WebAssembly page redraws up to three charts).
_TEMPLATE_TEXT: Final[dict[str, str]] = {name: json.dumps(t) for name, t in TEMPLATES.items()}


def fill(
    name: str,
    *,
    params: dict[str, Any],
    datasets: dict[str, Any],
    **top: Any,
) -> dict[str, Any]:
    """Template ``name`` with one drawing filled in: each parameter's value by name, the named
    datasets, and the other top-level keys (title, description, width, height).

    Only top-level keys change, and every parameter must be one the template declares, so a
    template can never be edited out of shape.
    """
    spec: dict[str, Any] = json.loads(_TEMPLATE_TEXT[name])
    declared = {p["name"] for p in spec.get("params", ())}
    if set(params) != declared:
        raise ValueError(f"{name} takes parameters {sorted(declared)}, got {sorted(params)}")
    spec["params"] = [{**p, "value": params[p["name"]]} for p in spec.get("params", ())]
    spec["datasets"] = datasets
    return spec | top


def timeline_spec(result: LabResult, step: int | None = None, width: int = 420) -> dict[str, Any]:
    """The Vega-Lite spec of ``builders.timeline_chart(result, step, width)``.

    Same encodings and data; the rows sit in the top-level ``datasets`` under a name, and the
    text description travels in the spec's ``description``.
    """
    return fill(
        "timeline",
        params={"events": max(len(result.events), 1), "present": markers_present(result)},
        datasets={"events": timeline_rows(result, step)},
        width=width,
        title=timeline_title(result),
        description=describe_timeline(result),
    )


def time_timeline_spec(
    result: LabResult, step: int | None = None, width: int = 420
) -> dict[str, Any]:
    """The Vega-Lite spec of ``builders.time_timeline_layers`` for one run: its events against
    virtual time (one mark per lane and instant), its deliveries as rules, and its bands
    (records retained, broken where one expires; with two workers, leases held and pauses,
    each worker in its own lane). The axis reads in one human unit chosen for the run's span
    (``human_unit``); the legends list only the markers and bands the chart draws."""
    end = time_end(result)
    unit_name, unit = human_unit(end)
    drawn = bands(result)
    instants = instant_rows(result, step)
    template = "time_timeline" if drawn else "bare_timeline"
    return fill(
        "workers_timeline" if has_workers(result) else template,
        params={
            "x_max": float(end.seconds) / unit,
            "unit": unit,
            "unit_name": unit_name,
            "present": instant_markers(instants),
            "bands_present": band_kinds_present(drawn),
        },
        datasets={
            "events": instants,
            "bands": drawn,
            "expiries": expiries(result),
            "deliveries": delivery_marks(result),
        },
        width=width,
        title=time_timeline_title(result),
        description=f"{describe_timeline(result)} {describe_records(result)}".strip(),
    )


def risk_curve_spec(
    curve: list[CurveRow],
    defaults: list[Mark],
    chosen: Mark,
    target: float,
    description: str,
    width: int = 560,
) -> dict[str, Any]:
    """The Vega-Lite spec of ``builders.risk_curve_layers``: the curve, the real systems'
    defaults, the chosen retention and the target risk."""
    return fill(
        "risk_curve",
        params={"target": target},
        datasets={"curve": curve, "defaults": defaults, "chosen": [chosen]},
        width=width,
        title="Duplicate risk against retention",
        description=description,
    )


def replay_histogram_spec(
    bins: list[Bin], chosen: Mark, description: str, width: int = 560
) -> dict[str, Any]:
    """The Vega-Lite spec of ``builders.replay_histogram_layers``."""
    return fill(
        "replay_histogram",
        params={},
        datasets={"bins": bins, "chosen": [chosen]},
        width=width,
        title="When operators replay, against the retention",
        description=description,
    )


BROWSER_TOOLTIPS: Final = {"embedOptions": {"tooltip": False}}
"""The ``usermeta`` a displayed chart carries: its tooltips are drawn by the browser, not by
vega-tooltip. vega-embed takes options from a spec's ``usermeta.embedOptions`` over those marimo
passes it, and with ``tooltip: false`` it leaves Vega's own handler, which sets the hovered
mark's text as the chart's ``title``. WCAG 2.2's 1.4.13 (content on hover) asks that a tooltip
can be dismissed without moving the pointer, and hovered; vega-tooltip's box follows the
pointer and Escape does not close it. A tooltip the user agent draws is the criterion's
exception. Every chart's data is also in its table (``course.page.chart``)."""


class VegaLite:
    """A ready Vega-Lite spec that marimo displays like an altair chart (same mime type), with
    its tooltips left to the browser (``BROWSER_TOOLTIPS``)."""

    def __init__(self, spec: dict[str, Any]) -> None:
        self.spec = spec

    def _mime_(self) -> tuple[str, str]:
        version = "v6" if "/v6" in str(self.spec.get("$schema", "")) else "v5"
        shown = self.spec | {"usermeta": self.spec.get("usermeta", {}) | BROWSER_TOOLTIPS}
        return f"application/vnd.vegalite.{version}+json", json.dumps(shown)
