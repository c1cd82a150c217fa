"""Async Failure Lab, in your browser

Pick a fault and watch both runtimes handle it, computed live in your browser by the asyncfail
library running in WebAssembly, with nothing loaded from other sites.

This page imports only marimo, pydantic and asyncfail, so it boots from the site's own Pyodide
mirror without any third-party request.
"""

import marimo

__generated_with = "0.25.2"
app = marimo.App(width="medium")


@app.cell
def _():
    import marimo as mo

    return (mo,)


@app.cell
def _():
    from asyncfail import Fault, Mode, Scenario, simulate
    from asyncfail.charts.specs import VegaLite, timeline_spec
    from asyncfail.charts.timeline import describe_timeline

    return (
        Fault,
        Mode,
        Scenario,
        VegaLite,
        describe_timeline,
        simulate,
        timeline_spec,
    )


@app.cell
def _(mo):
    mo.md(r"""
    # Async Failure Lab, in your browser

    *The debit succeeds. The worker crashes before recording the result. Should the next
    attempt call the tool again?* Choose where the first delivery fails; both runtimes below
    are recomputed in your browser by the same library the command line uses.
    """)
    return


@app.cell
def _(Fault, mo):
    fault = mo.ui.dropdown(
        options=[f.value for f in Fault],
        value=Fault.CRASH_AFTER_EFFECT.value,
        label="Fault injected into the first delivery",
    )
    fault
    return (fault,)


@app.cell
def _(Fault, Mode, Scenario, fault, simulate):
    results = {mode: simulate(Scenario(fault=Fault(fault.value), mode=mode)) for mode in Mode}
    return (results,)


@app.function
def result_html(result) -> str:
    """One runtime's counts, status and trace as an HTML block the browser tests can read."""
    from html import escape

    cell = 'style="padding:3px 12px 3px 0;text-align:left;border-bottom:1px solid #e5e7eb"'
    c = result.counts
    rows = "".join(
        f"<tr><td {cell}>{e.seq}</td><td {cell}>{e.attempt}</td>"
        f"<td {cell}>{escape(e.actor.value)}</td><td {cell}>{escape(e.layer.value)}</td>"
        f"<td {cell} data-kind>{escape(e.kind.value)}</td></tr>"
        for e in result.events
    )
    head = "".join(f"<th {cell}>{h}</th>" for h in ("seq", "attempt", "actor", "layer", "event"))
    return (
        f'<section data-lab-mode="{result.mode.value}">'
        f'<p style="font-size:1.2em;margin:0 0 .4em"><b>{result.mode.value} runtime</b></p>'
        f'<p data-lab-counts="{c.attempts} {c.effects} {c.tool_calls} {c.lookups}">'
        f"attempts <b>{c.attempts}</b> · effects <b>{c.effects}</b> · "
        f"tool calls <b>{c.tool_calls}</b> · lookups <b>{c.lookups}</b></p>"
        f"<p>outcome <b data-lab-outcome>{escape(result.outcome.value)}</b> · "
        f"status: <b data-lab-status>{escape(result.status.value)}</b></p>"
        f'<table style="border-collapse:collapse;margin-top:.5em"><thead><tr>{head}</tr></thead>'
        f"<tbody>{rows}</tbody></table>"
        "</section>"
    )


@app.cell
def _(mo, results):
    mo.hstack([mo.Html(result_html(r)) for r in results.values()], widths="equal", gap=2)
    return


@app.cell
def _(VegaLite, describe_timeline, mo, results, timeline_spec):
    mo.hstack(
        [
            mo.vstack(
                [
                    VegaLite(timeline_spec(r, width=360)),
                    mo.md(f"<small>{describe_timeline(r)}</small>"),
                ]
            )
            for r in results.values()
        ],
        widths="equal",
        gap=2,
    )
    return


@app.cell
def _(mo):
    mo.md(r"""
    **What to notice.** Delivery attempts and business effects are counted separately: a
    runtime can repeat a delivery without repeating the debit. Which faults make the naive loop
    debit twice, and what does the durable runtime do instead?
    """)
    return


if __name__ == "__main__":
    app.run()
