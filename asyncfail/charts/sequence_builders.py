"""The sequence view as altair layers, for ``make golden`` to turn into a template (see
``asyncfail.charts.builders``): never imported by a lesson."""

from typing import Literal

import altair as alt

from asyncfail.charts.encodings import marker_channels
from asyncfail.charts.look import ROW_HEIGHT


def sequence_layers(width: int, lanes: tuple[str, ...]) -> alt.LayerChart:
    """A run as a sequence diagram (rows from ``sequence.sequence_rows``, named ``rows``): one
    vertical line per lane in ``lanes``, headed by its name; each message an arrow from its
    sender's lane to its recipient's, in row order from the top, labelled above its middle; a
    lost message dashed and red, ending halfway in a ✗; an event's marker (crash, business
    effect, timeout...) on its own lane, in the timeline's colours and shapes; a fact on one
    lane labelled beside its marker; each step's number at the left. Rows of the ``future``
    (when a lesson steps through the run) are faded, the ``current`` one's arrow, label and
    marker drawn larger, so stepping reads like a replay.

    The parameter ``rows`` is how many rows there are (where the vertical axis ends), and
    ``present`` which markers the legend lists.
    """
    rows_param = alt.param(name="rows", value=1)
    present_param = alt.param(name="present", value=[])
    x_scale = alt.Scale(domain=[-0.75, len(lanes) - 0.5], nice=False, zero=False)
    names = "[" + ",".join(f"'{lane}'" for lane in lanes) + "]"
    lane_axis = alt.Axis(
        orient="top",
        values=list(range(len(lanes))),
        labelExpr=f"{names}[datum.value]",
        labelFontSize=12,
        labelFontWeight="bold",
        grid=False,
        domain=False,
        ticks=False,
        title=None,
    )
    y = alt.Y(
        "row:Q",
        scale=alt.Scale(domain=alt.ExprRef(expr="[-0.7, rows - 0.3]"), reverse=True, nice=False),
        axis=None,
    )
    tooltip = [
        alt.Tooltip("step:Q", title="Step"),
        alt.Tooltip("attempt:Q", title="Delivery attempt"),
        alt.Tooltip("at_text:N", title="Time"),
        alt.Tooltip("sender:N", title="From"),
        alt.Tooltip("recipient:N", title="To"),
        alt.Tooltip("message:N", title="Message"),
        alt.Tooltip("fate:N", title="Fate"),
        alt.Tooltip("description:N", title="What happens"),
    ]
    lane_lines = (
        alt.Chart(alt.Data(values=[{"lane": i} for i in range(len(lanes))]))  # type: ignore[no-untyped-call]  # altair's stubs omit it
        .mark_rule(color="#bbbbbb", strokeWidth=1.5)
        .encode(x=alt.X("lane:Q", scale=x_scale, axis=lane_axis))
    )
    rows = alt.Chart(alt.NamedData(name="rows"))
    lost = "datum.fate == 'lost'"
    current = "datum.state == 'current'"
    fade = alt.condition("datum.state == 'future'", alt.value(0.15), alt.value(1.0))
    text_size = alt.condition(current, alt.value(12), alt.value(10))
    arrows = (
        rows.transform_filter("datum.fate != 'local'")
        .mark_rule(strokeWidth=1.5)
        .encode(
            x=alt.X("from_x:Q", scale=x_scale),
            x2="head_x:Q",
            y=y,
            color=alt.condition(lost, alt.value("#c0392b"), alt.value("#333333")),
            strokeDash=alt.condition(lost, alt.value([5, 3]), alt.value([1, 0])),
            strokeWidth=alt.condition(current, alt.value(3), alt.value(1.5)),
            opacity=fade,
            tooltip=tooltip,
        )
    )
    # One layer per direction, each with its fixed shape: a shape channel here would share its
    # scale with the markers' and take their legend away.
    heads = [
        rows.transform_filter(f"datum.fate == 'delivered' && datum.to_x {side} datum.from_x")
        .mark_point(shape=shape, filled=True, size=70, color="#333333")
        .encode(x=alt.X("head_x:Q", scale=x_scale), y=y, opacity=fade, tooltip=tooltip)
        for side, shape in ((">", "triangle-right"), ("<", "triangle-left"))
    ]
    cuts = (
        rows.transform_filter(lost)
        .mark_text(text="✗", fontSize=15, fontWeight="bold", color="#c0392b")
        .encode(x=alt.X("head_x:Q", scale=x_scale), y=y, opacity=fade, tooltip=tooltip)
    )
    labels = (
        rows.transform_filter("datum.fate != 'local'")
        .mark_text(dy=-7, color="#222222")
        .encode(
            x=alt.X("label_x:Q", scale=x_scale),
            y=y,
            text="message:N",
            size=text_size,
            opacity=fade,
            tooltip=tooltip,
        )
    )
    # A fact on the last lane is labelled to its left, so the label stays inside the chart.
    last = len(lanes) - 1
    sides: tuple[tuple[str, Literal["left", "right"], int], ...] = (
        ("<", "left", 10),
        ("==", "right", -10),
    )
    notes = [
        rows.transform_filter(f"datum.fate == 'local' && datum.from_x {side} {last}")
        .mark_text(align=align, dx=dx, fontStyle="italic", color="#222222")
        .encode(
            x=alt.X("from_x:Q", scale=x_scale),
            y=y,
            text="message:N",
            size=text_size,
            opacity=fade,
            tooltip=tooltip,
        )
        for side, align, dx in sides
    ]
    marker, shape = marker_channels()
    points = (
        rows.transform_filter("datum.marker != null")
        .mark_point(filled=True, stroke="#000000")
        .encode(
            x=alt.X("point_x:Q", scale=x_scale),
            y=y,
            color=marker,
            shape=shape,
            size=alt.condition(current, alt.value(260), alt.value(110)),
            strokeWidth=alt.condition(current, alt.value(2), alt.value(0.5)),
            opacity=fade,
            tooltip=tooltip,
        )
    )
    steps = (
        rows.transform_filter("datum.step_label != ''")
        .transform_calculate(left="-0.7")
        .mark_text(align="left", fontSize=10, color="#666666")
        .encode(x=alt.X("left:Q", scale=x_scale), y=y, text="step_label:N", opacity=fade)
    )
    chart: alt.LayerChart = (
        alt.LayerChart(layer=[lane_lines, arrows, *heads, cuts, labels, *notes, points, steps])
        .add_params(rows_param, present_param)
        .properties(width=width, height=ROW_HEIGHT)
        .configure_view(stroke=None)
    )
    return chart
