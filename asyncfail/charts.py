"""Altair charts for the lessons, built from the library's plain-data rows.

This module imports altair, so nothing on the CLI path imports it; lessons import it directly.
Every chart comes with a text description (``asyncfail.timeline.describe_timeline``).

Converting an altair chart to its Vega-Lite spec takes tens of milliseconds, too slow to redo on
every slider move. So each chart's spec is built by altair once, against a named data source,
and a lesson update only swaps the rows in (``*_spec`` functions); ``VegaLite`` hands that spec
to marimo, which renders it exactly as it renders an altair chart.
"""

import json
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Final

import altair as alt

from asyncfail.contract_rules import Finding
from asyncfail.results import LabResult
from asyncfail.timeline import LANES, Marker, describe_timeline, timeline_rows

_DATA: Final = "events"

if TYPE_CHECKING:
    from asyncfail.retention_sweep import RetentionSweep

# Fixed scales so the same marker looks the same in every chart and both runtimes align.
_MARKERS: Final = [m.value for m in Marker]
_COLOURS: Final = ["#c0392b", "#111111", "#e67e22", "#8e44ad", "#2c7fb8"]
_SHAPES: Final = ["diamond", "cross", "triangle-up", "square", "circle"]


def timeline_chart(result: LabResult, step: int | None = None, width: int = 420) -> alt.LayerChart:
    """Events on a sequence axis, one lane per actor, business effects and crashes distinct.

    With ``step`` set, the current event is enlarged and later events are faded, so stepping
    through the trace reads like a replay. Tooltips carry the full event.
    """
    rows = timeline_rows(result, step)
    data = alt.Data(values=rows)  # type: ignore[no-untyped-call]  # altair's stubs omit it
    return _timeline_layers(data, len(rows), width).properties(title=_timeline_title(result))


def _timeline_title(result: LabResult) -> str:
    return f"{result.mode.value} runtime: {result.fault.value}"


def _timeline_layers(data: alt.Data | alt.NamedData, events: int, width: int) -> alt.LayerChart:
    lanes = [a.value for a in LANES]
    x = alt.X(
        "seq:Q",
        title="Event sequence",
        scale=alt.Scale(domain=[0.5, max(events, 1) + 0.5]),
        axis=alt.Axis(tickMinStep=1, format="d"),
    )
    y = alt.Y("actor:N", title="Actor", sort=lanes, scale=alt.Scale(domain=lanes))
    marker = alt.Color(
        "marker:N",
        title="Event type",
        scale=alt.Scale(domain=_MARKERS, range=_COLOURS),
        legend=alt.Legend(orient="bottom", columns=3),
    )
    shape = alt.Shape("marker:N", scale=alt.Scale(domain=_MARKERS, range=_SHAPES), legend=None)
    fade = alt.condition("datum.state == 'future'", alt.value(0.2), alt.value(1.0))
    tooltip = [
        alt.Tooltip("seq:Q", title="Step"),
        alt.Tooltip("attempt:Q", title="Delivery attempt"),
        alt.Tooltip("actor:N", title="Actor"),
        alt.Tooltip("kind:N", title="Event"),
        alt.Tooltip("layer:N", title="Layer"),
        alt.Tooltip("description:N", title="What happens"),
    ]
    points = (
        alt.Chart(data)
        .mark_point(filled=True, stroke="#000000")
        .encode(
            x=x,
            y=y,
            color=marker,
            shape=shape,
            opacity=fade,
            size=alt.condition("datum.state == 'current'", alt.value(420), alt.value(160)),
            strokeWidth=alt.condition("datum.state == 'current'", alt.value(2), alt.value(0)),
            tooltip=tooltip,
        )
    )
    # Labels alternate above and below their point so neighbouring events never overlap.
    labels = [
        alt.Chart(data)
        .transform_filter(f"datum.seq % 2 == {parity}")
        .mark_text(dy=dy, fontSize=10)
        .encode(x=x, y=y, text="kind:N", opacity=fade, tooltip=tooltip)
        for parity, dy in ((1, -16), (0, 18))
    ]
    return alt.LayerChart(layer=[points, *labels]).properties(width=width, height=210)


@lru_cache(maxsize=64)
def _timeline_template(events: int, width: int) -> str:
    # Cached as JSON text so every caller gets a fresh, unshared dict.
    spec = _timeline_layers(alt.NamedData(name=_DATA), events, width).to_dict()
    return json.dumps(spec)


def timeline_spec(result: LabResult, step: int | None = None, width: int = 420) -> dict[str, Any]:
    """The Vega-Lite spec of ``timeline_chart(result, step, width)``, fast after the first call.

    Same encodings and data; the rows sit in the top-level ``datasets`` under a name, and the
    text description travels in the spec's ``description``.
    """
    spec: dict[str, Any] = json.loads(_timeline_template(len(result.events), width))
    spec["title"] = _timeline_title(result)
    spec["description"] = describe_timeline(result)
    spec["datasets"] = {_DATA: timeline_rows(result, step)}
    return spec


class VegaLite:
    """A ready Vega-Lite spec that marimo displays like an altair chart (same mime type)."""

    def __init__(self, spec: dict[str, Any]) -> None:
        self.spec = spec

    def _mime_(self) -> tuple[str, str]:
        version = "v6" if "/v6" in str(self.spec.get("$schema", "")) else "v5"
        return f"application/vnd.vegalite.{version}+json", json.dumps(self.spec)


# ---------------------------------------------------------------------------------------------
# The retention-boundary heatmap of the contract experiment

# Right outcomes in greens and blue, wrong ones in warm colours: a glance tells which is which.
FINDING_COLOURS: Final[dict[Finding, str]] = {
    Finding.SAME_INTENT_REUSED: "#1a9850",
    Finding.NEW_INTENT_APPLIED: "#4575b4",
    Finding.CONFLICT_REJECTED: "#91cf60",
    Finding.APPLIED_TWICE_RECORD_EXPIRED: "#d73027",
    Finding.APPLIED_TWICE_KEY_PER_ATTEMPT: "#a50026",
    Finding.CONFLICT_APPLIED_RECORD_EXPIRED: "#f46d43",
    Finding.CONFLICT_APPLIED_KEY_PER_ATTEMPT: "#fdae61",
    Finding.CONFLICT_HIDDEN: "#762a83",
    Finding.OTHER_TENANTS_RESULT: "#c51b7d",
    Finding.OTHER_TENANT_REJECTED: "#e08214",
}


def _heatmap_layers(width: int) -> alt.LayerChart:
    cells = alt.NamedData(name="cells")
    tooltip = [
        alt.Tooltip("retention_seconds:Q", title="Retention (s)"),
        alt.Tooltip("delay_seconds:Q", title="Second request after (s)"),
        alt.Tooltip("record:N", title="Record"),
        alt.Tooltip("disposition:N", title="Disposition"),
        alt.Tooltip("effects:Q", title="Total effects"),
        alt.Tooltip("finding:N", title="Finding"),
    ]
    rect = (
        alt.Chart(cells)
        .mark_rect()
        .encode(
            x=alt.X("retention_from:Q", title="Idempotency retention (seconds)"),
            x2="retention_to:Q",
            y=alt.Y("delay_from:Q", title="Second request after (seconds)"),
            y2="delay_to:Q",
            color=alt.Color(
                "finding:N", title="Finding", legend=alt.Legend(orient="bottom", columns=1)
            ),
            tooltip=tooltip,
        )
    )
    boundary = (
        alt.Chart(alt.NamedData(name="boundary"))
        .mark_line(color="#000000", strokeDash=[6, 3], strokeWidth=1.5, clip=True)
        .encode(x="retention_seconds:Q", y="delay_seconds:Q")
    )
    # The ring is filled with the current inputs' own finding: a coarse cell on the diagonal
    # straddles the boundary, so its colour alone can differ from the exact result.
    current = (
        alt.Chart(alt.NamedData(name="current"))
        .mark_point(shape="circle", size=220, filled=True, stroke="#000000", strokeWidth=2.5)
        .encode(
            x="retention_seconds:Q",
            y="delay_seconds:Q",
            fill=alt.Fill("colour:N", scale=None),
            tooltip=[
                alt.Tooltip("label:N", title="Current inputs"),
                alt.Tooltip("finding:N", title="Finding"),
            ],
        )
    )
    return alt.LayerChart(layer=[rect, boundary, current]).properties(width=width, height=width)


@lru_cache(maxsize=8)
def _heatmap_template(width: int) -> str:
    return json.dumps(_heatmap_layers(width).to_dict())


def retention_heatmap_spec(sweep: "RetentionSweep", title: str, width: int = 360) -> dict[str, Any]:
    """The Vega-Lite spec of a retention x delay heatmap of the finding.

    Layers: one rectangle per cell coloured by finding (fixed colours per finding, legend limited
    to the findings present), the exact boundary delay = retention as a dashed diagonal, and the
    scenario's own (retention, delay) as a ringed point. Tooltips name the finding.
    """
    from asyncfail.contract import evaluate
    from asyncfail.heatmap import describe_heatmap, findings_present, heatmap_cells

    spec: dict[str, Any] = json.loads(_heatmap_template(width))
    present = findings_present(sweep)
    spec["layer"][0]["encoding"]["color"]["scale"] = {
        "domain": present,
        "range": [FINDING_COLOURS[Finding(f)] for f in present],
    }
    cells = heatmap_cells(sweep)
    # The axes end where the grid ends; a point outside the grid (a zoom elsewhere) is clipped.
    x_domain = [cells[0]["retention_from"], cells[-1]["retention_to"]]
    y_domain = [cells[0]["delay_from"], cells[-1]["delay_to"]]
    encoding = spec["layer"][0]["encoding"]
    encoding["x"]["scale"] = {"domain": x_domain, "nice": False, "zero": False}
    encoding["y"]["scale"] = {"domain": y_domain, "nice": False, "zero": False}
    low = max(x_domain[0], y_domain[0])
    high = min(x_domain[1], y_domain[1])
    scenario = sweep.scenario
    current_finding = evaluate(scenario).finding
    spec["title"] = title
    spec["description"] = describe_heatmap(sweep)
    spec["datasets"] = {
        "cells": cells,
        "boundary": [
            {"retention_seconds": low, "delay_seconds": low},
            {"retention_seconds": high, "delay_seconds": high},
        ],
        "current": [
            {
                "retention_seconds": scenario.retention_seconds,
                "delay_seconds": scenario.delay_seconds,
                "label": f"retention {scenario.retention_seconds:g} s, "
                f"delay {scenario.delay_seconds:g} s",
                "finding": current_finding.value,
                "colour": FINDING_COLOURS[current_finding],
            }
        ],
    }
    return spec
