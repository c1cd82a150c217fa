"""How long must records live?

Seeded Monte Carlo trials of the timed model: how likely a second debit is at each retention,
and the retention a target risk requires.
"""

import marimo

__generated_with = "0.25.2"
app = marimo.App(width="medium", app_title="How long must records live?")


@app.cell
def _():
    import marimo as mo

    return (mo,)


@app.cell
def _():
    from asyncfail.charts.specs import VegaLite, replay_histogram_spec, risk_curve_spec
    from asyncfail.course import page
    from asyncfail.course import record_lesson as words
    from asyncfail.course.catalog import lesson
    from asyncfail.course.questions import RECORDS_QUESTION
    from asyncfail.risk.inputs import Jitter, command_line
    from asyncfail.risk.report import assess

    return (
        Jitter,
        RECORDS_QUESTION,
        VegaLite,
        assess,
        command_line,
        lesson,
        page,
        replay_histogram_spec,
        risk_curve_spec,
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
    mo.vstack([page.heading(mo, lesson("06_record_lifetime"), snapshot), mo.md(words.INTRO)])
    return


@app.cell
def _(Jitter, mo, snapshot, words):
    texts = mo.ui.dictionary(
        {
            "retention": mo.ui.text(
                value=words.CONTROL_TEXTS["retention"],
                label=words.RETENTION_LABEL,
                disabled=snapshot,
            ),
            "crash": mo.ui.text(
                value=words.CONTROL_TEXTS["crash"], label=words.CRASH_LABEL, disabled=snapshot
            ),
            "replay": mo.ui.text(
                value=words.CONTROL_TEXTS["replay"], label=words.REPLAY_LABEL, disabled=snapshot
            ),
            "spread": mo.ui.text(
                value=words.CONTROL_TEXTS["spread"], label=words.SPREAD_LABEL, disabled=snapshot
            ),
        }
    )
    deliveries = mo.ui.number(
        start=1,
        stop=9,
        step=1,
        value=words.DEFAULT_DELIVERIES,
        label=words.DELIVERIES_LABEL,
        disabled=snapshot,
    )
    jitter = mo.ui.dropdown(
        options=[j.value for j in Jitter],
        value=Jitter.NONE.value,
        label=words.JITTER_LABEL,
        disabled=snapshot,
    )
    target = mo.ui.dropdown(
        options=list(words.TARGETS),
        value=words.DEFAULT_TARGET,
        label=words.TARGET_LABEL,
        disabled=snapshot,
    )
    trials = mo.ui.dropdown(
        options={f"{n:,}": n for n in words.TRIAL_CHOICES},
        value=f"{words.TRIAL_CHOICES[1]:,}",
        label=words.TRIALS_LABEL,
        disabled=snapshot,
    )
    seed = mo.ui.number(start=0, stop=10**9, step=1, value=0, label=words.SEED_LABEL,
                        disabled=snapshot)  # fmt: skip
    mo.vstack(
        [
            *(texts[name] for name in ("retention", "crash", "replay", "spread")),
            mo.hstack([deliveries, jitter], justify="start", gap=2),
            mo.hstack([target, trials, seed], justify="start", gap=2),
        ]
    )
    return deliveries, jitter, seed, target, texts, trials


@app.cell
def _(deliveries, jitter, mo, seed, target, texts, trials, words):
    inputs, _errors = words.read_controls(
        texts.value, deliveries.value, jitter.value, target.value, trials.value, seed.value
    )
    mo.callout(mo.md("\n\n".join(_errors)), kind="warn") if _errors else mo.md("")
    return (inputs,)


@app.cell
def _(mo, words):
    prediction = mo.ui.radio(options=words.prediction_options(), label=words.PREDICT_PROMPT).form(
        submit_button_label=words.COMMIT_LABEL, bordered=True
    )
    return (prediction,)


@app.cell
def _(mo, snapshot, words):
    skip_prediction = mo.ui.switch(label=words.SKIP_LABEL, disabled=snapshot)
    return (skip_prediction,)


@app.cell
def _(mo, prediction, skip_prediction, snapshot):
    revealed = prediction.value is not None or bool(skip_prediction.value) or snapshot
    mo.md("") if snapshot else mo.vstack([prediction, skip_prediction])
    return (revealed,)


@app.cell
def _(assess, inputs, mo, revealed, words):
    if revealed:
        with mo.status.progress_bar(
            total=inputs.trials, title=words.RUNNING, remove_on_exit=True
        ) as _bar:
            run = assess(inputs, progress=lambda done: _bar.update(increment=done))
    else:
        run = None
    return (run,)


@app.cell
def _(
    VegaLite,
    mo,
    page,
    prediction,
    replay_histogram_spec,
    revealed,
    risk_curve_spec,
    run,
    words,
):
    if revealed and run is not None:
        _curve, _defaults, _chosen, _bins = words.chart_data(run)
        _parts = []
        if prediction.value is not None:
            _right, _said = words.judge(run, prediction.value)
            _parts.append(mo.callout(mo.md(_said), kind="success" if _right else "info"))
        _parts += [
            mo.md(words.estimate_lines(run)),
            page.chart(
                mo,
                risk_curve_spec(
                    _curve,
                    _defaults,
                    _chosen,
                    run.report.required.target,
                    words.curve_description(run),
                ),
                _curve,
            ),
            mo.callout(mo.md(words.required_text(run)), kind="neutral"),
            VegaLite(replay_histogram_spec(_bins, _chosen, words.curve_description(run))),
        ]
        _view = mo.vstack(_parts)
    else:
        _view = mo.callout(mo.md(words.REVEAL_PROMPT), kind="neutral")
    _view
    return


@app.cell
def _(command_line, inputs, mo, words):
    mo.md(f"{words.TERMINAL_TEXT}\n\n```sh\n{command_line(inputs)}\n```")
    return


@app.cell
def _(mo, words):
    mo.md(words.NOTICE)
    return


@app.cell
def _(RECORDS_QUESTION, mo, page):
    understanding = page.check_radio(mo, RECORDS_QUESTION)
    return (understanding,)


@app.cell
def _(RECORDS_QUESTION, mo, page, snapshot, understanding):
    page.check(mo, RECORDS_QUESTION, understanding, snapshot)
    return


if __name__ == "__main__":
    app.run()
