"""The risk lesson's charts as altair objects, for ``make golden`` to turn into templates (see
``asyncfail.charts.builders``): never imported by a lesson."""

import altair as alt

from asyncfail.charts.risk_charts import AXIS_TICKS, RISK_FLOOR


def _time_axis(title: str) -> alt.X:
    """A log axis of seconds from 1 s to 30 days, ticking at 1 s, 1 min, 1 h, 1 d and 30 d."""
    names = {1: "1 s", 60: "1 min", 3600: "1 h", 86_400: "1 d", 2_592_000: "30 d"}
    label = " : ".join(f"datum.value == {v} ? '{n}'" for v, n in names.items()) + " : ''"
    return alt.X(
        "retention_s:Q",
        title=title,
        scale=alt.Scale(type="log", domain=[1, 2_592_000], nice=False),
        axis=alt.Axis(values=list(AXIS_TICKS), labelExpr=label, grid=True),
    )


def risk_curve_layers(width: int) -> alt.LayerChart:
    """The duplicate risk against retention: the estimate as a line over its 95% interval band
    (both on a log scale of risk, zero drawn at ``RISK_FLOOR``), real systems' defaults as grey
    rules, the chosen retention as a black rule, and the target risk as a dashed line. The
    parameter ``target`` is the target risk."""
    target = alt.param(name="target", value=1e-4)
    x = _time_axis("Idempotency retention")
    risk = alt.Scale(type="log", domain=[RISK_FLOOR, 1], nice=False)
    # Percentages written out (0.0001 %), as the prose says them (`prose.percent`): no exponent.
    percent = alt.Axis(
        values=[10.0**-k for k in range(6, -1, -1)],
        labelExpr="format(datum.value * 100, '~r') + ' %'",
    )
    y = alt.Y("p:Q", title="Duplicate risk", scale=risk, axis=percent)
    curve = alt.Chart(alt.NamedData(name="curve"))
    tooltip = [alt.Tooltip("text:N", title="Estimate")]
    band = curve.mark_area(opacity=0.25, color="#d73027").encode(
        x=x, y=alt.Y("low:Q", scale=risk, title="Duplicate risk"), y2="high:Q", tooltip=tooltip
    )
    line = curve.mark_line(color="#d73027", point=True).encode(x=x, y=y, tooltip=tooltip)
    defaults = alt.Chart(alt.NamedData(name="defaults"))
    rules = defaults.mark_rule(color="#888888", strokeDash=[2, 2]).encode(
        x=x, tooltip=[alt.Tooltip("text:N", title="Default")]
    )
    # Written down the rule from the top, inside the plot, so no label leaves the chart.
    names = defaults.mark_text(
        angle=270, align="right", baseline="bottom", dx=-4, fontSize=9, color="#555555"
    ).encode(x=x, y=alt.value(0), text="label:N")
    chosen = (
        alt.Chart(alt.NamedData(name="chosen"))
        .mark_rule(color="#000000", strokeWidth=2)
        .encode(x=x, tooltip=[alt.Tooltip("text:N", title="Your retention")])
    )
    goal = (
        alt.Chart(alt.NamedData(name="chosen"))
        .mark_rule(color="#1a9850", strokeDash=[6, 3])
        .encode(y=alt.Y("t:Q", scale=risk))
        .transform_calculate(t="target")
    )
    chart: alt.LayerChart = (
        alt.LayerChart(layer=[band, line, rules, names, chosen, goal])
        .add_params(target)
        .properties(width=width, height=260)
    )
    return chart


def replay_histogram_layers(width: int) -> alt.LayerChart:
    """Replay delays in log-spaced bins, with the chosen retention as a black rule: a replay
    right of the rule finds its record gone."""
    x = _time_axis("Delay before an operator replays")
    bars = (
        alt.Chart(alt.NamedData(name="bins"))
        .transform_calculate(retention_s="datum.from_s", right="datum.to_s")
        .mark_rect(color="#4575b4")
        .encode(
            x=x,
            x2="right:Q",
            y=alt.Y("count:Q", title="Trials"),
            tooltip=[alt.Tooltip("text:N", title="Replays")],
        )
    )
    chosen = (
        alt.Chart(alt.NamedData(name="chosen"))
        .mark_rule(color="#000000", strokeWidth=2)
        .encode(x=x, tooltip=[alt.Tooltip("text:N", title="Your retention")])
    )
    chart: alt.LayerChart = alt.LayerChart(layer=[bars, chosen]).properties(width=width, height=180)
    return chart
