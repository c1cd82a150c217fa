"""Break the assumptions

The durable runtime recovers by operation key only under five assumptions: break each one, see
the promise fail, and find what restores it.
"""

import marimo

__generated_with = "0.25.2"
app = marimo.App(width="medium", app_title="Break the assumptions")


@app.cell
def _():
    import marimo as mo

    return (mo,)


@app.cell
def _():
    from asyncfail import Fault, Mode
    from asyncfail.charts.specs import time_timeline_spec
    from asyncfail.charts.tables import timeline_table
    from asyncfail.course import assumptions_lesson as words
    from asyncfail.course import lab_lesson, page
    from asyncfail.course.catalog import lesson
    from asyncfail.course.prediction import GUESS_RANGE, check_predictions
    from asyncfail.course.questions import ASSUMPTIONS_QUESTION
    from asyncfail.lab.faults import describe_fault
    from asyncfail.lab.scenario import MAX_DELIVERIES, command_lines
    from asyncfail.lab.simulation import simulate_each_mode

    return (
        ASSUMPTIONS_QUESTION,
        Fault,
        GUESS_RANGE,
        MAX_DELIVERIES,
        Mode,
        check_predictions,
        command_lines,
        describe_fault,
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
    mo.vstack(
        [
            page.heading(mo, lesson("02_break_the_assumptions"), snapshot),
            mo.md(words.INTRO),
            mo.md(words.assumption_table()),
        ]
    )
    return


@app.cell
def _(mo, snapshot, words):
    start = mo.ui.dropdown(
        options=list(words.start_options()),
        value=words.DEFAULT_START_LABEL,
        label=words.START_LABEL,
        disabled=snapshot,
    )
    return (start,)


@app.cell
def _(Fault, MAX_DELIVERIES, mo, snapshot, start, words):
    # Rebuilt when the starting point changes: every control starts at that point's value.
    _scenario = words.start_options()[start.value]
    _choices = words.choices_of(_scenario)

    def _choice(name):
        return mo.ui.dropdown(
            options=words.choice_options(name),
            value=_choices[name],
            label=words.setting_label(name),
            disabled=snapshot,
        )

    choices = mo.ui.dictionary(
        {
            "fault": mo.ui.dropdown(
                options=[f.value for f in Fault],
                value=_choices["fault"],
                label=words.FAULT_LABEL,
                disabled=snapshot,
            ),
            **{
                name: _choice(name)
                for names in words.GROUPS.values()
                for name in names
                if name in _choices
            },
        }
    )
    deliveries = mo.ui.number(
        start=1,
        stop=MAX_DELIVERIES,
        step=1,
        value=_scenario.deliveries,
        label=words.DELIVERIES_LABEL,
        disabled=snapshot,
    )
    retention = mo.ui.text(
        value=words.seconds_of(_scenario.settings.retention),
        placeholder=words.KEPT_WHOLE_RUN,
        label=words.setting_label("retention"),
        disabled=snapshot,
    )
    delay = mo.ui.text(
        value=words.seconds_of(_scenario.settings.redelivery_delay),
        placeholder=words.SECONDS_PLACEHOLDER,
        label=words.setting_label("redelivery_delay"),
        disabled=snapshot,
    )
    plan = mo.ui.text(
        value=words.plan_of(_scenario),
        placeholder=words.PLAN_PLACEHOLDER,
        label=words.PLAN_LABEL,
        full_width=True,
        disabled=snapshot,
    )
    return choices, delay, deliveries, plan, retention


@app.cell
def _(choices, delay, deliveries, describe_fault, Fault, mo, plan, retention, start, words):
    _texts = {"retention": retention, "redelivery_delay": delay}

    def _control(name):
        if name in _texts:
            return _texts[name]
        return choices[name]

    _fixed = choices.value["schedule"] == "fixed"
    _groups = [
        mo.vstack(
            [
                mo.md(words.GROUP_TITLES["run"]),
                choices["fault"],
                mo.md(f"<small>{describe_fault(Fault(choices.value['fault']))}</small>"),
                plan,
                deliveries,
            ]
        ),
        *(
            mo.vstack(
                [
                    mo.md(words.GROUP_TITLES[group]),
                    *(_control(n) for n in names),
                    *(
                        [mo.md(words.DELAY_NOT_READ.format(schedule=choices.value["schedule"]))]
                        if group == "clock" and not _fixed
                        else []
                    ),
                ]
            )
            for group, names in words.GROUPS.items()
        ),
    ]
    mo.vstack([mo.md(words.CONTROLS_TITLE), start, *_groups], gap=1.25)
    return


@app.cell
def _(choices, delay, deliveries, mo, plan, retention, simulate_each_mode, words):
    scenario, _errors = words.scenario_from_controls(
        choices.value, deliveries.value, retention.value, delay.value, plan.value
    )
    results = simulate_each_mode(scenario)
    mo.callout(mo.md("\n\n".join(_errors)), kind="danger") if _errors else mo.md("")
    return results, scenario


@app.cell
def _(GUESS_RANGE, lab_lesson, mo, start, words):
    # Built from the starting point only: the guess is about the run a learner chose to break;
    # changing a setting afterwards updates the runs without asking again.
    _low, _high = GUESS_RANGE
    _ = start.value
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
def _(Mode, check_predictions, lab_lesson, mo, prediction, results, revealed, words):
    def _runtime_panel(mode):
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
                mo.hstack([_runtime_panel(m) for m in results], widths="equal"),
                *_feedback,
                mo.md(words.broken_text(results[Mode.DURABLE])),
            ]
        )
    else:
        _view = mo.callout(mo.md(words.REVEAL_PROMPT), kind="neutral")
    _view
    return


@app.cell
def _(Mode, mo, page, results, revealed, scenario, time_timeline_spec, timeline_table, words):
    def _trace_panel(mode):
        result = results[mode]
        return page.chart(mo, time_timeline_spec(result, width=380), timeline_table(result))

    if revealed:
        _view = mo.vstack(
            [
                mo.md(words.TRACES_TITLE),
                mo.md(words.TRACES_TEXT),
                mo.hstack([_trace_panel(m) for m in results], widths="equal", gap=2, align="start"),
                mo.callout(
                    mo.md(words.restore_text(scenario, results[Mode.DURABLE])), kind="success"
                ),
            ]
        )
    else:
        _view = mo.md("")
    _view
    return


@app.cell
def _(command_lines, mo, scenario, words):
    mo.md(f"{words.TERMINAL_TEXT}\n\n```sh\n{command_lines(scenario)}\n```")
    return


@app.cell
def _(mo, words):
    mo.md(words.NOTICE)
    return


@app.cell
def _(ASSUMPTIONS_QUESTION, mo, page):
    understanding = page.check_radio(mo, ASSUMPTIONS_QUESTION)
    return (understanding,)


@app.cell
def _(ASSUMPTIONS_QUESTION, mo, page, snapshot, understanding):
    page.check(mo, ASSUMPTIONS_QUESTION, understanding, snapshot)
    return


if __name__ == "__main__":
    app.run()
