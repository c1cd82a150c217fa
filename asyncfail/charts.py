"""Vega-Lite specs of the lessons' charts, drawn from the library's plain-data rows.

No altair here: a spec is a template (built by altair in ``asyncfail.chart_builders`` and kept
in ``asyncfail.chart_templates``) with the rows, sizes and titles of one drawing filled in. That
keeps a slider move to a fraction of a millisecond and lets the lessons run in an offline
browser, where altair cannot be installed. ``VegaLite`` hands a spec to marimo, which renders it
exactly as it renders an altair chart. Every chart comes with a text description.
"""

import copy
import json
from typing import TYPE_CHECKING, Any, Final

from asyncfail.chart_templates import TEMPLATES_JSON
from asyncfail.contract_rules import Finding
from asyncfail.results import LabResult
from asyncfail.timeline import describe_timeline, timeline_rows

if TYPE_CHECKING:
    from asyncfail.retention_sweep import RetentionSweep

_TEMPLATES: Final[dict[str, dict[str, Any]]] = json.loads(TEMPLATES_JSON)


def _template(name: str) -> dict[str, Any]:
    # A deep copy: callers fill it in, and the shared template must stay as generated.
    return copy.deepcopy(_TEMPLATES[name])


def timeline_title(result: LabResult) -> str:
    return f"{result.mode.value} runtime: {result.fault.value}"


def timeline_spec(result: LabResult, step: int | None = None, width: int = 420) -> dict[str, Any]:
    """The Vega-Lite spec of ``chart_builders.timeline_chart(result, step, width)``.

    Same encodings and data; the rows sit in the top-level ``datasets`` under a name, and the
    text description travels in the spec's ``description``.
    """
    spec = _template("timeline")
    spec["width"] = width
    for layer in spec["layer"]:
        layer["encoding"]["x"]["scale"]["domain"] = [0.5, max(len(result.events), 1) + 0.5]
    spec["title"] = timeline_title(result)
    spec["description"] = describe_timeline(result)
    spec["datasets"] = {"events": timeline_rows(result, step)}
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


def retention_heatmap_spec(sweep: "RetentionSweep", title: str, width: int = 360) -> dict[str, Any]:
    """The Vega-Lite spec of a retention x delay heatmap of the finding.

    Layers: one rectangle per cell coloured by finding (fixed colours per finding, legend limited
    to the findings present), the exact boundary delay = retention as a dashed diagonal, and the
    scenario's own (retention, delay) as a ringed point. Tooltips name the finding.
    """
    from asyncfail.contract import evaluate
    from asyncfail.heatmap import describe_heatmap, findings_present, heatmap_cells

    spec = _template("heatmap")
    spec["width"] = spec["height"] = width
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
