"""Encodings more than one chart builder shares (altair; never imported by a lesson)."""

import altair as alt

from asyncfail.charts.look import MARKER_COLOURS, MARKER_SHAPES
from asyncfail.charts.timeline import Marker


def marker_channels() -> tuple[alt.Color, alt.Shape]:
    """An event's colour and shape by its marker, with one legend listing the markers in the
    parameter ``present``.

    Both channels carry the same legend: Vega-Lite merges two channels of one field into one
    legend, and a legend shown on one and hidden on the other is the "Conflicting legend
    property" warning (the merged legend then draws each marker in its colour and shape)."""
    markers = [m.value for m in Marker]

    def legend() -> alt.Legend:
        return alt.Legend(
            orient="bottom", columns=3, labelLimit=0, values=alt.ExprRef(expr="present")
        )

    colour = alt.Color(
        "marker:N",
        title="Event type",
        scale=alt.Scale(domain=markers, range=list(MARKER_COLOURS)),
        legend=legend(),
    )
    shape = alt.Shape(
        "marker:N",
        title="Event type",
        scale=alt.Scale(domain=markers, range=list(MARKER_SHAPES)),
        legend=legend(),
    )
    return colour, shape
