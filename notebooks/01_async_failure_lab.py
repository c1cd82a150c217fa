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
    from asyncfail import ASSUMPTIONS, Fault, Mode, Scenario
    from asyncfail.charts.specs import timeline_spec
    from asyncfail.charts.tables import timeline_table
    from asyncfail.charts.timeline import narrate
    from asyncfail.course import lab_lesson as words
    from asyncfail.course import page
    from asyncfail.course import truth_lesson as truth
    from asyncfail.course.catalog import lesson
    from asyncfail.course.prediction import GUESS_RANGE, check_predictions
    from asyncfail.course.questions import LAB_QUESTION
    from asyncfail.ground.canonical import to_json
    from asyncfail.ground.seed import DISCLAIMER
    from asyncfail.lab.faults import describe_fault
    from asyncfail.lab.scenario import command_lines
    from asyncfail.lab.simulation import simulate_each_mode

    return (
        ASSUMPTIONS,
        DISCLAIMER,
        Fault,
        GUESS_RANGE,
        LAB_QUESTION,
        Mode,
        Scenario,
        check_predictions,
        command_lines,
        describe_fault,
        lesson,
        narrate,
        page,
        simulate_each_mode,
        timeline_spec,
        timeline_table,
        to_json,
        truth,
        words,
    )


@app.cell
def _(mo):
    # `marimo export html ... -- --snapshot` (the published static page) shows the results and
    # the check's answer: a snapshot cannot take a prediction. Served or edited, it asks first.
    snapshot = "snapshot" in mo.cli_args()
    return (snapshot,)


@app.cell
def _(ASSUMPTIONS, DISCLAIMER, lesson, mo, page, snapshot, words):
    _assumptions = "\n".join(f"- {a}" for a in ASSUMPTIONS)
    mo.vstack(
        [
            page.heading(mo, lesson("01_async_failure_lab"), snapshot),
            mo.md(words.INTRO),
            mo.md(f"### {words.ASSUMPTIONS_TITLE}\n\n{_assumptions}\n\n*{DISCLAIMER}*"),
        ]
    )
    return


@app.cell
def _(Fault, mo, snapshot, words):
    fault = mo.ui.dropdown(
        options=[f.value for f in Fault],
        value=words.DEFAULT_FAULT.value,
        label=words.FAULT_LABEL,
        disabled=snapshot,
    )
    return (fault,)


@app.cell
def _(Fault, describe_fault, fault, mo):
    mo.md(f"{fault}\n\n**{fault.value}**: {describe_fault(Fault(fault.value))}")
    return


@app.cell
def _(Fault, Scenario, fault, simulate_each_mode):
    results = simulate_each_mode(Scenario(fault=Fault(fault.value)))
    return (results,)


@app.cell
def _(GUESS_RANGE, fault, mo, words):
    _low, _high = GUESS_RANGE
    prediction = (
        mo.md(words.PREDICT_PROMPT.format(fault=fault.value))
        .batch(
            naive=mo.ui.number(start=_low, stop=_high, step=1, value=words.DEFAULT_GUESS),
            durable=mo.ui.number(start=_low, stop=_high, step=1, value=words.DEFAULT_GUESS),
        )
        .form(submit_button_label=words.COMMIT_LABEL, bordered=True)
    )
    return (prediction,)


@app.cell
def _(mo, snapshot, words):
    # Not built from the fault: a learner who skips predicting keeps skipping as they try
    # other faults (the prediction itself is asked per fault).
    skip_prediction = mo.ui.switch(label=words.SKIP_LABEL, disabled=snapshot)
    return (skip_prediction,)


@app.cell
def prediction_controls(mo, prediction, skip_prediction, snapshot, words):
    revealed = prediction.value is not None or bool(skip_prediction.value) or snapshot
    mo.vstack(
        [mo.md(words.SNAPSHOT_NOTE) if snapshot else mo.vstack([prediction, skip_prediction])]
    )
    return (revealed,)


@app.cell
def counts_panel(
    Mode,
    check_predictions,
    mo,
    prediction,
    results,
    revealed,
    words,
):
    def _runtime_panel(mode):
        result = results[mode]
        counts = result.counts
        return mo.vstack(
            [
                mo.md(words.runtime_heading(mode)),
                mo.hstack(
                    [
                        mo.stat(counts.attempts, label=words.ATTEMPTS_LABEL, bordered=True),
                        mo.stat(counts.effects, label=words.EFFECTS_LABEL, bordered=True),
                    ],
                    justify="start",
                ),
                mo.md(
                    words.FIGURES_LINE.format(
                        tool_calls=counts.tool_calls,
                        lookups=counts.lookups,
                        outcome=result.outcome.value,
                    )
                ),
                mo.callout(
                    mo.md(f"**{result.status.value}**"),
                    kind=words.OUTCOME_KIND[result.outcome],
                ),
            ]
        )

    if revealed:
        _checks = (
            check_predictions(prediction.value, results) if prediction.value is not None else ()
        )
        _feedback = [
            mo.callout(
                mo.md(c.message),
                kind="success" if c.correct else "info" if c.guess is not None else "warn",
            )
            for c in _checks
        ]
        counts_view = mo.vstack(
            [mo.hstack([_runtime_panel(m) for m in results], widths="equal"), *_feedback]
        )
    else:
        counts_view = mo.callout(mo.md(words.REVEAL_PROMPT), kind="neutral")
    counts_view
    return


@app.cell
def _(mo, results, snapshot, words):
    _longest = max(len(r.events) for r in results.values())
    step = mo.ui.slider(
        start=1,
        stop=_longest,
        step=1,
        value=_longest,
        show_value=True,
        label=words.STEP_LABEL,
        disabled=snapshot,
    )
    return (step,)


@app.cell
def _(
    Mode,
    mo,
    narrate,
    page,
    results,
    revealed,
    step,
    timeline_spec,
    timeline_table,
    words,
):
    def _trace_panel(mode):
        result = results[mode]
        return page.chart(
            mo,
            timeline_spec(result, step.value, width=380),
            timeline_table(result),
            caption=f"**{mode.value}**: {narrate(result, step.value)}",
        )

    trace_view = (
        mo.vstack(
            [
                mo.md(words.TRACES_TITLE),
                step,
                mo.hstack([_trace_panel(m) for m in results], widths="equal", gap=2, align="start"),
            ]
        )
        if revealed
        else mo.md("")
    )
    trace_view
    return


@app.cell
def _(Fault, Mode, Scenario, command_lines, fault, mo, results, to_json, words):
    _commands = command_lines(Scenario(fault=Fault(fault.value)))
    mo.vstack(
        [
            mo.md(f"{words.TERMINAL_TEXT}\n\n```sh\n{_commands}\n```"),
            mo.accordion(
                {
                    words.JSON_LABEL.format(mode=m.value): mo.md(
                        f"```json\n{to_json(results[m].model_dump(mode='json'))}```"
                    )
                    for m in results
                }
            ),
        ]
    )
    return


@app.cell
def _(mo, words):
    mo.md(words.NOTICE)
    return


@app.cell
def _(mo, truth):
    # Only a lesson served by CPython can start processes: exports and the browser never can.
    live_run = (
        mo.ui.run_button(label=truth.RUN_LABEL)
        if truth.live_chance(mo.app_meta().request) is truth.LiveChance.CAN_RUN
        else None
    )
    return (live_run,)


@app.cell
def _(live_run, mo, truth):
    _found = truth.recorded()
    mo.vstack(
        [
            mo.md(f"{truth.TITLE}\n\n{truth.INTRO}"),
            truth.verdict_view(mo, _found),
            mo.md(truth.live_text(live_run is not None, mo.app_meta().request)),
            *([] if live_run is None else [live_run]),
        ]
    )
    return


@app.cell
def _(live_run, mo, truth):
    mo.stop(live_run is None or not live_run.value)
    # Reached only after the button, which exists only where processes can start.
    from asyncfail.reference import live as _live

    _cases = len(_live.default_cases())
    try:
        with mo.status.progress_bar(
            total=_cases, title=truth.running(_cases), remove_on_exit=True
        ) as _bar:
            _document = _live.run(lambda _done, _total: _bar.update())
    except _live.ReferenceFailure as _failure:
        _view = mo.callout(mo.md(truth.CANNOT_RUN.format(reason=_failure)), kind="danger")
    else:
        _view = truth.verdict_view(mo, truth.from_document(_document, date=None))
    _view
    return


@app.cell
def _(mo, truth):
    mo.md(truth.NOTICE)
    return


@app.cell
def _(LAB_QUESTION, mo, page):
    understanding = page.check_radio(mo, LAB_QUESTION)
    return (understanding,)


@app.cell
def _(LAB_QUESTION, mo, page, snapshot, understanding):
    page.check(mo, LAB_QUESTION, understanding, snapshot)
    return


if __name__ == "__main__":
    app.run()
