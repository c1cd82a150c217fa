"""The lessons' charts as altair objects: the one place their encodings are written.

Lessons do not import this module (altair cannot be loaded in an offline browser): they draw
``asyncfail.charts.specs`` specs, whose templates ``templates()`` produces and ``make golden``
writes into ``asyncfail/charts/templates.json``; a test keeps the two identical. What varies from
one drawing to the next (its data, its size, the ends of an axis, the findings in a legend) is a
named dataset or a top-level parameter, so a drawing fills in top-level keys and nothing deeper.
"""

from typing import Any, Final

import altair as alt

from asyncfail.charts.bands import BandKind
from asyncfail.charts.encodings import marker_channels
from asyncfail.charts.lanes import ACTOR_LANES, LANES, WORKER_LANES
from asyncfail.charts.look import (
    BAND_COLOURS,
    BAND_EDGES,
    timeline_title,
)
from asyncfail.charts.risk_builders import replay_histogram_layers, risk_curve_layers
from asyncfail.charts.timeline import Marker, markers_present, timeline_rows
from asyncfail.lab.results import LabResult

TEMPLATE_EVENTS: Final = 1
TEMPLATE_WIDTH: Final = 420


def timeline_chart(result: LabResult, step: int | None = None, width: int = 420) -> alt.LayerChart:
    """Events on a sequence axis, one lane per actor, business effects and crashes distinct.

    With ``step`` set, the current event is enlarged and later events are faded, so stepping
    through the trace reads like a replay. Tooltips carry the full event.
    """
    rows = timeline_rows(result, step)
    data = alt.Data(values=rows)  # type: ignore[no-untyped-call]  # altair's stubs omit it
    layers = timeline_layers(data, len(rows), width, markers_present(result))
    return layers.properties(title=timeline_title(result))


def _event_encodings() -> tuple[alt.Color, alt.Shape, Any, list[alt.Tooltip]]:
    """How an event's point looks in either timeline: colour and shape by marker
    (``encodings.marker_channels``), faded in the future, and the full event in its tooltip."""
    marker, shape = marker_channels()
    fade = alt.condition("datum.state == 'future'", alt.value(0.2), alt.value(1.0))
    tooltip = [
        alt.Tooltip("seq:Q", title="Step"),
        alt.Tooltip("attempt:Q", title="Delivery attempt"),
        alt.Tooltip("at_text:N", title="Time"),
        alt.Tooltip("lane_name:N", title="Actor"),
        alt.Tooltip("kind:N", title="Event"),
        alt.Tooltip("layer:N", title="Layer"),
        alt.Tooltip("description:N", title="What happens"),
    ]
    return marker, shape, fade, tooltip


def timeline_layers(
    data: alt.Data | alt.NamedData, events: int, width: int, present: list[str]
) -> alt.LayerChart:
    """The timeline's layers; the parameter ``events`` sets where the sequence axis ends, and
    ``present`` which markers the legend lists."""
    lanes = [a.value for a in LANES]
    events_param = alt.param(name="events", value=max(events, 1))
    present_param = alt.param(name="present", value=present)
    x = alt.X(
        "seq:Q",
        title="Event sequence",
        scale=alt.Scale(domain=alt.ExprRef(expr="[0.5, events + 0.5]")),
        axis=alt.Axis(tickMinStep=1, format="d"),
    )
    y = alt.Y("actor:N", title="Actor", sort=lanes, scale=alt.Scale(domain=lanes))
    marker, shape, fade, tooltip = _event_encodings()
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
    return (
        alt.LayerChart(layer=[points, *labels])
        .add_params(events_param, present_param)
        .properties(width=width, height=210)
    )


def time_timeline_layers(
    width: int, lanes: tuple[str, ...], with_bands: bool = True
) -> alt.LayerChart:
    """The timeline against time: the events on an axis of virtual time, one lane per name in
    ``lanes`` (a run with two workers gives each its lane), each delivery as a dashed vertical
    rule, and bands for how long things last: a record retained (on the receiver's lane, from
    its write until it expires; to the end of the axis when it never does), a lease held and a
    worker paused (on that worker's lane). Where a record expires, a white break crosses its
    band, so a record written at that instant reads as a second one.

    Every mark sits at its exact time. Steps within one delivery take no time, so the events of
    one lane at one instant are one mark labelled with their steps (``instants.instant_rows``;
    the order of the steps is the sequence view's). Data is in seconds; layers divide by the
    parameter ``unit`` (seconds per unit, named ``unit_name`` on the labels); ``x_max`` is
    where the axis ends, in that unit; ``present`` lists the markers the legend shows, and
    ``bands_present`` the kinds of band. Without ``with_bands`` (for a run that draws none), the
    chart has no band layers and so no band legend: an empty legend would still be laid out.
    """
    names = ("x_max", "unit", "unit_name", "present", "bands_present")
    params = [alt.param(name=name, value=0) for name in names]
    x = alt.X(
        "x:Q",
        title="Virtual time",
        scale=alt.Scale(domain=alt.ExprRef(expr="[0, x_max]"), nice=False),
        axis=alt.Axis(labelExpr="format(datum.value, ',~f') + ' ' + unit_name", labelOverlap=True),
    )
    y = alt.Y(
        "y:Q",
        title="Actor",
        scale=alt.Scale(domain=[-0.5, len(lanes) - 0.5], reverse=True, nice=False, zero=False),
        axis=alt.Axis(
            values=list(range(len(lanes))),
            labelExpr="[" + ",".join(f"'{lane}'" for lane in lanes) + "][datum.value]",
            grid=False,
            domain=False,
        ),
    )
    marker, shape = marker_channels()
    fade = alt.condition("datum.state == 'future'", alt.value(0.2), alt.value(1.0))
    tooltip = [
        alt.Tooltip("steps:N", title="Steps"),
        alt.Tooltip("attempt:Q", title="Delivery attempt"),
        alt.Tooltip("at_text:N", title="Time"),
        alt.Tooltip("lane_name:N", title="Actor"),
        alt.Tooltip("kinds:N", title="Events"),
        alt.Tooltip("description:N", title="What happens"),
    ]
    events = alt.Chart(alt.NamedData(name="events")).transform_calculate(
        x="datum.at_seconds / unit", y="datum.lane_y"
    )
    kinds = [k.value for k in BandKind]

    def band_legend() -> alt.Legend:
        return alt.Legend(
            orient="bottom", title=None, labelLimit=0, values=alt.ExprRef(expr="bands_present")
        )

    bands = (
        alt.Chart(alt.NamedData(name="bands"))
        .transform_calculate(
            x="datum.from_seconds / unit",
            x2="datum.to_seconds == null ? x_max : datum.to_seconds / unit",
            y="datum.y0",
            y2="datum.y1",
        )
        .mark_rect(opacity=0.4, strokeWidth=1.5, clip=True)
        .encode(
            x=x,
            x2="x2:Q",
            y=y,
            y2="y2:Q",
            fill=alt.Fill(
                "kind:N",
                title="Band",
                scale=alt.Scale(domain=kinds, range=list(BAND_COLOURS)),
                legend=band_legend(),
            ),
            stroke=alt.Stroke(
                "kind:N",
                title="Band",
                scale=alt.Scale(domain=kinds, range=list(BAND_EDGES)),
                legend=band_legend(),
            ),
            tooltip=[alt.Tooltip("kind:N", title="Band"), alt.Tooltip("text:N", title="What")],
        )
    )
    expiry = alt.Chart(alt.NamedData(name="expiries")).transform_calculate(
        x="datum.at_seconds / unit", y="datum.y0", y2="datum.y1"
    )
    said = [alt.Tooltip("text:N", title="Expiry")]
    breaks = expiry.mark_rule(color="#ffffff", strokeWidth=4).encode(
        x=x, y=y, y2="y2:Q", tooltip=said
    )
    break_labels = expiry.mark_text(
        align="right", baseline="top", dx=-4, dy=2, fontSize=9, color="#08519c"
    ).encode(x=x, y=y, text=alt.value("record expires"), tooltip=said)
    deliveries = alt.Chart(alt.NamedData(name="deliveries")).transform_calculate(
        x="datum.at_seconds / unit"
    )
    rules = deliveries.mark_rule(color="#777777", strokeDash=[4, 3]).encode(
        x=x, tooltip=[alt.Tooltip("text:N", title="Delivery")]
    )
    rule_labels = deliveries.mark_text(
        align="left", baseline="top", dx=3, y=2, fontSize=10, color="#555555"
    ).encode(x=x, text="label:N", tooltip=[alt.Tooltip("text:N", title="Delivery")])
    points = events.mark_point(filled=True, stroke="#000000").encode(
        x=x,
        y=y,
        color=marker,
        shape=shape,
        opacity=fade,
        size=alt.condition("datum.state == 'current'", alt.value(300), alt.value(110)),
        strokeWidth=alt.condition("datum.state == 'current'", alt.value(2), alt.value(0)),
        tooltip=tooltip,
    )
    steps = events.mark_text(align="left", dx=8, dy=-9, fontSize=9).encode(
        x=x, y=y, text="steps:N", opacity=fade, tooltip=tooltip
    )
    spans = [bands, breaks, break_labels] if with_bands else []
    chart: alt.LayerChart = (
        alt.LayerChart(layer=[*spans, rules, rule_labels, points, steps])
        .add_params(*params)
        .properties(width=width, height=46 * len(lanes) + 30)
    )
    return chart


def templates() -> dict[str, dict[str, Any]]:
    """The Vega-Lite spec of every chart against named data sources, for ``charts.templates``.

    Sizes, parameters and data are placeholders that ``asyncfail.charts.specs`` fills per
    drawing; everything else (marks, encodings, scales, tooltips) is taken as is.
    """
    events = alt.NamedData(name="events")
    every = [m.value for m in Marker]
    timeline: dict[str, Any] = timeline_layers(
        events, TEMPLATE_EVENTS, TEMPLATE_WIDTH, every
    ).to_dict()
    by_actor: dict[str, Any] = time_timeline_layers(TEMPLATE_WIDTH, ACTOR_LANES).to_dict()
    by_worker: dict[str, Any] = time_timeline_layers(TEMPLATE_WIDTH, WORKER_LANES).to_dict()
    bare: dict[str, Any] = time_timeline_layers(TEMPLATE_WIDTH, ACTOR_LANES, False).to_dict()
    return {
        "timeline": timeline,
        "time_timeline": by_actor,
        "workers_timeline": by_worker,
        "bare_timeline": bare,
        "risk_curve": risk_curve_layers(TEMPLATE_WIDTH).to_dict(),
        "replay_histogram": replay_histogram_layers(TEMPLATE_WIDTH).to_dict(),
    }
