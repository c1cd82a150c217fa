"""The Async Failure Lab

The debit succeeds, the worker crashes: should the next attempt call the tool again?
"""

import marimo

__generated_with = "0.25.2"
app = marimo.App(width="medium", app_title="Async Failure Lab")


@app.cell
def _():
    import marimo as mo

    return (mo,)


@app.cell
def _():
    from asyncfail import ASSUMPTIONS, Fault, Mode, Scenario, simulate
    from asyncfail.assumptions import DISCLAIMER
    from asyncfail.charts import VegaLite, timeline_spec
    from asyncfail.commands.lab import command_line
    from asyncfail.commands.render import to_json
    from asyncfail.faults import FAULT_DESCRIPTIONS
    from asyncfail.prediction import check_predictions
    from asyncfail.quiz import LAB_QUESTION
    from asyncfail.results import Outcome
    from asyncfail.timeline import describe_timeline, narrate, timeline_rows

    return (
        ASSUMPTIONS,
        DISCLAIMER,
        FAULT_DESCRIPTIONS,
        Fault,
        LAB_QUESTION,
        Mode,
        Outcome,
        Scenario,
        VegaLite,
        check_predictions,
        command_line,
        describe_timeline,
        narrate,
        simulate,
        timeline_rows,
        timeline_spec,
        to_json,
    )


@app.cell
def _(ASSUMPTIONS, DISCLAIMER, mo):
    _assumptions = "\n".join(f"- {a}" for a in ASSUMPTIONS)
    mo.vstack(
        [
            mo.md(r"""
    # The Async Failure Lab

    > **The debit succeeds. The worker crashes before recording the result.
    > Should the next attempt call the tool again?**

    Choose a failure, compare two runtimes, and follow the event trace. The model keeps two
    counts apart: **delivery attempts** (how often the operation reached a worker) and
    **business effects** (how often the ledger was debited).

    - The **naive** runtime is a retry loop: it calls the debit tool on every delivery and
      keeps the result in process memory.
    - The **durable** runtime records a dispatch intent under a stable operation key, and
      after a crash or a timeout looks that key up at the receiver before any call that
      could debit again.
    """),
            mo.md(f"### What this model assumes\n\n{_assumptions}\n\n*{DISCLAIMER}*"),
        ]
    )
    return


@app.cell
def _(Fault, mo):
    fault = mo.ui.dropdown(
        options=[f.value for f in Fault],
        value=Fault.CRASH_AFTER_EFFECT.value,
        label="Fault injected into the first delivery",
    )
    return (fault,)


@app.cell
def _(FAULT_DESCRIPTIONS, Fault, fault, mo):
    mo.md(f"{fault}\n\n**{fault.value}**: {FAULT_DESCRIPTIONS[Fault(fault.value)]}")
    return


@app.cell
def _(Fault, Mode, Scenario, fault, simulate):
    results = {mode: simulate(Scenario(fault=Fault(fault.value), mode=mode)) for mode in Mode}
    return (results,)


@app.cell
def _(fault, mo):
    prediction = (
        mo.md(
            f"**Predict first.** Under **{fault.value}**, how many debits reach the ledger? "
            "Naive runtime: {naive} Durable runtime: {durable}"
        )
        .batch(
            naive=mo.ui.number(start=0, stop=9, step=1, value=1),
            durable=mo.ui.number(start=0, stop=9, step=1, value=1),
        )
        .form(submit_button_label="Commit my guess", bordered=True)
    )
    return (prediction,)


@app.cell
def _(fault, mo):
    skip_prediction = mo.ui.switch(label=f"Skip predicting; show the counts for {fault.value}")
    return (skip_prediction,)


@app.cell
def _(mo):
    # `marimo export html ... -- --snapshot` (the published static page) shows the results: a
    # snapshot cannot take a prediction. Served or edited, the lesson asks first.
    snapshot = "snapshot" in mo.cli_args()
    return (snapshot,)


@app.cell
def prediction_controls(mo, prediction, skip_prediction, snapshot):
    revealed = prediction.value is not None or bool(skip_prediction.value) or snapshot
    mo.vstack(
        [
            mo.md(
                "*Static snapshot: the counts are shown without the prediction step. "
                "Open the interactive page to predict first.*"
            )
            if snapshot
            else mo.vstack([prediction, skip_prediction])
        ]
    )
    return (revealed,)


@app.cell
def counts_panel(
    Mode,
    Outcome,
    check_predictions,
    mo,
    prediction,
    results,
    revealed,
):
    def _runtime_panel(mode):
        result = results[mode]
        kind = {
            Outcome.EXACTLY_ONCE: "success",
            Outcome.DUPLICATE: "danger",
            Outcome.LOST: "warn",
            Outcome.UNKNOWN: "warn",
        }[result.outcome]
        return mo.vstack(
            [
                mo.md(f"### {mode.value} runtime"),
                mo.hstack(
                    [
                        mo.stat(result.counts.attempts, label="Delivery attempts", bordered=True),
                        mo.stat(result.counts.effects, label="Business effects", bordered=True),
                    ],
                    justify="start",
                ),
                mo.md(
                    f"Tool calls {result.counts.tool_calls} · lookups {result.counts.lookups}"
                    f" · outcome **{result.outcome.value}**"
                ),
                mo.callout(mo.md(f"**{result.status.value}**"), kind=kind),
            ]
        )

    if revealed:
        _checks = (
            check_predictions(
                {Mode(k): int(v) for k, v in prediction.value.items()}, results
            )
            if prediction.value is not None
            else ()
        )
        _feedback = [
            mo.callout(mo.md(c.message), kind="success" if c.correct else "info")
            for c in _checks
        ]
        counts_view = mo.vstack(
            [mo.hstack([_runtime_panel(m) for m in Mode], widths="equal"), *_feedback]
        )
    else:
        counts_view = mo.callout(
            mo.md(
                "Commit a guess of the business effects for each runtime, "
                "or switch on *skip predicting*, to see the counts and the traces."
            ),
            kind="neutral",
        )
    counts_view
    return


@app.cell
def _(mo, results):
    _longest = max(len(r.events) for r in results.values())
    step = mo.ui.slider(
        start=1,
        stop=_longest,
        step=1,
        value=_longest,
        show_value=True,
        label="Step through the traces (arrow keys move one event)",
    )
    return (step,)


@app.cell
def _(
    Mode,
    VegaLite,
    describe_timeline,
    mo,
    narrate,
    results,
    revealed,
    step,
    timeline_rows,
    timeline_spec,
):
    def _trace_panel(mode):
        result = results[mode]
        return mo.vstack(
            [
                mo.md(f"**{mode.value}**: {narrate(result, step.value)}"),
                VegaLite(timeline_spec(result, step.value, width=380)),
                mo.md(f"<small>{describe_timeline(result)}</small>"),
                mo.ui.table(
                    [
                        {
                            "step": r["seq"],
                            "attempt": r["attempt"],
                            "actor": r["actor"],
                            "event": r["kind"],
                            "layer": r["layer"],
                        }
                        for r in timeline_rows(result)
                    ],
                    selection=None,
                    pagination=False,
                    show_column_summaries=False,
                    label=f"{mode.value} trace",
                ),
            ]
        )

    trace_view = (
        mo.vstack(
            [
                mo.md("## The event traces"),
                step,
                mo.hstack([_trace_panel(m) for m in Mode], widths="equal", gap=2),
            ]
        )
        if revealed
        else mo.md("")
    )
    trace_view
    return


@app.cell
def _(Fault, Mode, Scenario, command_line, fault, mo, results, to_json):
    _commands = "\n".join(
        command_line(Scenario(fault=Fault(fault.value), mode=m)) for m in Mode
    )
    mo.vstack(
        [
            mo.md(
                "## The same run in a terminal\n\n"
                "The CLI runs the same model and prints the same result as JSON "
                "(from a checkout, after `make test` or `make serve` created `.venv`):\n\n"
                f"```sh\n{_commands}\n```"
            ),
            mo.accordion(
                {
                    f"JSON printed by `asyncfail lab` ({m.value})": mo.md(
                        f"```json\n{to_json(results[m].model_dump(mode='json'))}```"
                    )
                    for m in Mode
                }
            ),
        ]
    )
    return


@app.cell
def _(mo):
    mo.md(r"""
    ## What to notice

    - **Attempts are not effects.** Under `crash-after-effect` both runtimes make two
      delivery attempts; only the naive loop turns them into two debits.
    - **A missing result is not a failed call.** After a crash or a timeout the debit may
      or may not have happened. The durable runtime treats that as *unknown* and asks the
      receiver by operation key; the naive loop guesses "failed" and calls again. Jepsen's
      Maelstrom calls such an operation *info*; FoundationDB calls it
      `commit_unknown_result`.
    - **Memory is not a record.** Under `crash-after-record` the naive worker had the
      result, in memory, and lost it with the process: same duplicate.
    - **Real engines behave like the naive loop unless the effect is idempotent.**
      Temporal documents this exact case (activity succeeds, worker crashes before
      reporting, duplicate charge) and recommends an idempotency key of Workflow Run ID +
      Activity ID enforced by the called service; DBOS and Inngest re-execute a step whose
      result was not checkpointed.
    - Try `request-lost` and `response-lost`: the naive loop's blind retry is safe in one
      and duplicates in the other, and from inside the worker the two look identical.
    """)
    return


@app.cell
def _(LAB_QUESTION, mo):
    understanding = mo.ui.radio(
        options=list(LAB_QUESTION.options), label=f"**Check:** {LAB_QUESTION.prompt}"
    )
    return (understanding,)


@app.cell
def _(LAB_QUESTION, mo, understanding):
    _feedback = LAB_QUESTION.feedback(understanding.value)
    mo.vstack(
        [
            understanding,
            mo.callout(
                mo.md(_feedback),
                kind="success" if understanding.value == LAB_QUESTION.answer else "info",
            )
            if _feedback
            else mo.md(""),
        ]
    )
    return


if __name__ == "__main__":
    app.run()
