"""How the lessons' charts look: colours, shapes and titles, fixed so a mark means the same thing
in every chart. Read by the altair builders (when templates are generated), by the specs
(when a Vega-Lite chart is drawn) and by the SVG drawings (``drawing``, ``sequence_drawing``,
``heatmap_drawing``), so none depends on another.
"""

from typing import Final

from asyncfail.contract.rules import CORRECT_FINDINGS, Finding
from asyncfail.lab.results import LabResult

MARKER_COLOURS: Final = (
    "#c0392b",
    "#111111",
    "#e67e22",
    "#8e44ad",
    "#7f7f7f",
    "#1a9850",
    "#2c7fb8",
)
"""One colour per ``timeline.Marker``, in its order: business effects red, crashes black."""

MARKER_SHAPES: Final = (
    "diamond",
    "cross",
    "triangle-up",
    "square",
    "triangle-down",
    "triangle-left",
    "circle",
)
"""One shape per ``timeline.Marker``, in its order, so the markers survive colour blindness."""

BAND_COLOURS: Final = ("#9ecae1", "#c7e9c0", "#d9d9d9")
"""One fill per ``bands.BandKind``, in its order: a record retained blue, a lease held green, a
pause grey."""

BAND_EDGES: Final = ("#3182bd", "#31a354", "#969696")
"""The outline of each kind of band, a shade darker than its fill."""

GROUND: Final = "#ffffff"
"""What every drawing of the library (``drawing.svg_root``) is painted on, as Vega-Lite paints
its charts on white by default: the colours above, and text in ``#222222`` and ``#666666``,
were chosen against it (15.9:1 and 5.7:1). A drawing that took the page's ground instead lost
its text wherever the page is dark: Windows' contrast themes (forced colours) paint the page
black and leave an SVG's own fills as they are, and lesson 1's sequence views read at 1.3:1 in
Chromium (``tests/browser/test_forced_colours.py``)."""

ROW_HEIGHT: Final = 26
"""Pixels per row of the sequence view: a drawing's height is its rows times this."""

FINDING_COLOURS: Final[dict[Finding, str]] = {
    Finding.SAME_INTENT_REUSED: "#1a9850",
    Finding.NEW_INTENT_APPLIED: "#4575b4",
    Finding.CONFLICT_REJECTED: "#5aae61",
    Finding.APPLIED_TWICE_RECORD_EXPIRED: "#d73027",
    Finding.APPLIED_TWICE_KEY_PER_ATTEMPT: "#a50026",
    Finding.CONFLICT_APPLIED_RECORD_EXPIRED: "#f46d43",
    Finding.CONFLICT_APPLIED_KEY_PER_ATTEMPT: "#fdae61",
    Finding.CONFLICT_HIDDEN: "#e08214",
    Finding.OTHER_TENANTS_RESULT: "#b35806",
    Finding.OTHER_TENANT_REJECTED: "#7f3b08",
}
"""One colour per finding, the same in every chart: the right findings in greens and blue, the
wrong ones in reds, oranges and browns, so colour alone says right or wrong; the ✓ and ✗ of
``finding_label`` say it again without colour."""


def finding_label(finding: Finding) -> str:
    """A finding as a legend and a tooltip show it: ``✓ Same intent reused its retained
    result``, ``✗ One intent applied twice because the record expired``."""
    return f"{'✓' if finding in CORRECT_FINDINGS else '✗'} {finding.value}"


def timeline_title(result: LabResult) -> str:
    """The title of a run's timeline: ``durable runtime: crash-after-effect``."""
    return f"{result.mode.value} runtime: {result.subject}"


def time_timeline_title(result: LabResult) -> str:
    """The title of a run's timeline against time: ``durable runtime: crash-after-effect, over
    time``."""
    return f"{timeline_title(result)}, over time"


def sequence_title(result: LabResult) -> str:
    """The title of a run's sequence view: ``naive runtime: crash-after-effect, message by
    message``."""
    return f"{timeline_title(result)}, message by message"
