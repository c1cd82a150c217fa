"""Two workers, one debit

A slow worker's lease runs out and a second worker takes the operation over: which safeguard
keeps the debit single?
"""

import marimo

__generated_with = "0.25.2"
app = marimo.App(width="medium", app_title="Two workers, one debit")


@app.cell
def _():
    import marimo as mo

    return (mo,)


@app.cell
def _():
    from asyncfail import Mode
    from asyncfail.charts.specs import time_timeline_spec
    from asyncfail.charts.tables import timeline_table
    from asyncfail.course import assumptions_lesson, lab_lesson, page
    from asyncfail.course import workers_lesson as words
    from asyncfail.course.catalog import lesson
    from asyncfail.course.prediction import GUESS_RANGE, check_predictions
    from asyncfail.course.questions import WORKERS_QUESTION
    from asyncfail.lab.scenario import command_lines
    from asyncfail.lab.simulation import simulate_each_mode

    return (
        GUESS_RANGE,
        Mode,
        WORKERS_QUESTION,
        assumptions_lesson,
        check_predictions,
        command_lines,
        lab_lesson,
        lesson,
        page,
        simulate_each_mode,
        time_timeline_spec,
        timeline_table,
        words,
    )


@app.cell
def _(mo):
    # `marimo export html ... -- --snapshot` (the published static page) shows the results and
    # the check's answer: a snapshot cannot take a prediction. Served or edited, it asks first.
    snapshot = "snapshot" in mo.cli_args()
    return (snapshot,)


@app.cell
def _(lesson, mo, page, snapshot, words):
    mo.vstack([page.heading(mo, lesson("05_two_workers"), snapshot), mo.md(words.INTRO)])
    return


@app.cell
def _(assumptions_lesson, mo, snapshot, words):
    _stalls = words.stall_options()
    stall = mo.ui.dropdown(
        options=_stalls,
        value=next(k for k, v in _stalls.items() if v == words.DEFAULT_STALL.value),
        label=words.STALL_LABEL,
        disabled=snapshot,
    )
    pause = mo.ui.text(value=str(words.PAUSE_TEXT), label=words.PAUSE_LABEL, disabled=snapshot)
    lease = mo.ui.text(value=str(words.LEASE_TEXT), label=words.LEASE_LABEL, disabled=snapshot)
    safeguards = mo.ui.dictionary(
        {
            name: mo.ui.dropdown(
                options=assumptions_lesson.choice_options(name),
                value=assumptions_lesson.choice_options(name)[0],
                label=assumptions_lesson.setting_label(name),
                disabled=snapshot,
            )
            for name in words.SAFEGUARDS
        }
    )
    mo.vstack(
        [
            stall,
            mo.hstack([pause, lease], justify="start", gap=2),
            mo.md(words.SAFEGUARDS_TITLE),
            *(safeguards[name] for name in words.SAFEGUARDS),
        ]
    )
    return lease, pause, safeguards, stall


@app.cell
def _(lease, mo, pause, safeguards, simulate_each_mode, stall, words):
    scenario, _errors = words.scenario_from_controls(
        stall.value, pause.value, lease.value, safeguards.value
    )
    results = simulate_each_mode(scenario)
    mo.callout(mo.md("\n\n".join(_errors)), kind="warn") if _errors else mo.md("")
    return results, scenario


@app.cell
def _(GUESS_RANGE, lab_lesson, mo, words):
    _low, _high = GUESS_RANGE
    prediction = (
        mo.md(words.PREDICT_PROMPT)
        .batch(
            naive=mo.ui.number(start=_low, stop=_high, step=1, value=lab_lesson.DEFAULT_GUESS),
            durable=mo.ui.number(start=_low, stop=_high, step=1, value=lab_lesson.DEFAULT_GUESS),
        )
        .form(submit_button_label=lab_lesson.COMMIT_LABEL, bordered=True)
    )
    return (prediction,)


@app.cell
def _(mo, snapshot, words):
    skip_prediction = mo.ui.switch(label=words.SKIP_LABEL, disabled=snapshot)
    return (skip_prediction,)


@app.cell
def _(lab_lesson, mo, prediction, skip_prediction, snapshot):
    revealed = prediction.value is not None or bool(skip_prediction.value) or snapshot
    mo.md(lab_lesson.SNAPSHOT_NOTE) if snapshot else mo.vstack([prediction, skip_prediction])
    return (revealed,)


@app.cell
def _(
    Mode,
    check_predictions,
    lab_lesson,
    mo,
    page,
    prediction,
    results,
    revealed,
    time_timeline_spec,
    timeline_table,
    words,
):
    def _panel(mode):
        result = results[mode]
        counts = result.counts
        return mo.vstack(
            [
                mo.md(lab_lesson.runtime_heading(mode)),
                mo.hstack(
                    [
                        mo.stat(counts.attempts, label=lab_lesson.ATTEMPTS_LABEL, bordered=True),
                        mo.stat(counts.effects, label=lab_lesson.EFFECTS_LABEL, bordered=True),
                    ],
                    justify="start",
                ),
                mo.callout(
                    mo.md(f"**{result.status.value}**"),
                    kind=lab_lesson.OUTCOME_KIND[result.outcome],
                ),
                page.chart(mo, time_timeline_spec(result, width=380), timeline_table(result)),
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
        _view = mo.vstack(
            [
                mo.md(words.TRACES_TITLE),
                *_feedback,
                mo.hstack([_panel(m) for m in results], widths="equal", gap=2, align="start"),
            ]
        )
    else:
        _view = mo.callout(mo.md(words.REVEAL_PROMPT), kind="neutral")
    _view
    return


@app.cell
def _(
    Mode,
    mo,
    page,
    revealed,
    scenario,
    simulate_each_mode,
    time_timeline_spec,
    timeline_table,
    words,
):
    if revealed:
        with mo.status.spinner(title=words.EXPLORING):
            _found = words.explored(scenario.settings)
        _text, _example, _command = words.verdict(_found)
        _parts = [mo.md(words.EXPLORER_TITLE), mo.md(_text)]
        if _example is not None and _command is not None:
            _result = simulate_each_mode(_example)[Mode.DURABLE]
            _parts += [
                mo.md(f"```sh\n{_command}\n```"),
                page.chart(mo, time_timeline_spec(_result, width=560), timeline_table(_result)),
            ]
        _view = mo.vstack(_parts)
    else:
        _view = mo.md("")
    _view
    return


@app.cell
def _(assumptions_lesson, command_lines, mo, scenario):
    mo.md(f"{assumptions_lesson.TERMINAL_TEXT}\n\n```sh\n{command_lines(scenario)}\n```")
    return


@app.cell
def _(mo, words):
    mo.md(words.NOTICE)
    return


@app.cell
def _(WORKERS_QUESTION, mo, page):
    understanding = page.check_radio(mo, WORKERS_QUESTION)
    return (understanding,)


@app.cell
def _(WORKERS_QUESTION, mo, page, snapshot, understanding):
    page.check(mo, WORKERS_QUESTION, understanding, snapshot)
    return


if __name__ == "__main__":
    app.run()
