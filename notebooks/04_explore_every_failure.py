"""Explore every failure

Every fault plan up to a few injections, checked against three invariants: the smallest
counterexample, or the number of plans that could not find one.
"""

import marimo

__generated_with = "0.25.2"
app = marimo.App(width="medium", app_title="Explore every failure")


@app.cell
def _():
    import marimo as mo

    return (mo,)


@app.cell
def _():
    from asyncfail.charts.specs import timeline_spec
    from asyncfail.charts.tables import timeline_table
    from asyncfail.course import assumptions_lesson, page
    from asyncfail.course import explore_lesson as words
    from asyncfail.course.catalog import lesson
    from asyncfail.course.questions import EXPLORE_QUESTION
    from asyncfail.explore.explorer import explore
    from asyncfail.explore.invariants import Invariant
    from asyncfail.lab.scenario import MAX_DELIVERIES, Mode
    from asyncfail.lab.simulation import simulate

    return (
        EXPLORE_QUESTION,
        Invariant,
        MAX_DELIVERIES,
        Mode,
        assumptions_lesson,
        explore,
        lesson,
        page,
        simulate,
        timeline_spec,
        timeline_table,
        words,
    )


@app.cell
def _(mo):
    # `marimo export html ... -- --snapshot` (the published static page) shows the results and
    # the check's answer. Served or edited, the exercise and the check ask first.
    snapshot = "snapshot" in mo.cli_args()
    return (snapshot,)


@app.cell
def _(lesson, mo, page, snapshot, words):
    mo.vstack(
        [
            page.heading(mo, lesson("04_explore_every_failure"), snapshot),
            mo.md(words.INTRO),
            mo.md(words.invariants_text()),
        ]
    )
    return


@app.cell
def _(MAX_DELIVERIES, mo, snapshot, words):
    _low, _high = words.MAX_FAULTS_RANGE
    max_faults = mo.ui.slider(
        start=_low,
        stop=_high,
        step=1,
        value=words.DEFAULT_MAX_FAULTS,
        show_value=True,
        label=words.MAX_FAULTS_LABEL,
        disabled=snapshot,
    )
    deliveries = mo.ui.number(
        start=1,
        stop=MAX_DELIVERIES,
        step=1,
        value=words.DEFAULT_DELIVERIES_SHOWN,
        label=words.DELIVERIES_LABEL,
        disabled=snapshot,
    )
    return deliveries, max_faults


@app.cell
def _(deliveries, max_faults, mo, words):
    _budget = words.budget_of(deliveries.value)
    explorations = {
        row.title: words.explore_row(row, _budget, int(max_faults.value))
        for row in mo.status.progress_bar(
            words.ROWS, title=words.EXPLORING, remove_on_exit=True
        )
    }
    mo.vstack(
        [
            mo.md(words.MATRIX_TITLE),
            mo.hstack([max_faults, deliveries], justify="start", gap=2),
            mo.md(words.matrix_text(explorations)),
        ]
    )
    return (explorations,)


@app.cell
def _(Invariant, mo, snapshot, words):
    row = mo.ui.dropdown(
        options=words.row_labels(),
        value=words.row_labels()[words.DEFAULT_ROW],
        label=words.ROW_LABEL,
        disabled=snapshot,
    )
    invariant = mo.ui.radio(
        options=[i.value for i in Invariant],
        value=Invariant.AT_MOST_ONCE.value,
        label=words.INVARIANT_LABEL,
        inline=True,
        disabled=snapshot,
    )
    return invariant, row


@app.cell
def _(
    Invariant,
    explorations,
    invariant,
    mo,
    page,
    row,
    simulate,
    timeline_spec,
    timeline_table,
    words,
):
    _found = explorations[row.value]
    _chosen = Invariant(invariant.value)
    _text, _command = words.counterexample_text(_found, _chosen)
    _scenario = words.counterexample_scenario(_found, _chosen)
    _parts = [mo.md(words.COUNTEREXAMPLE_TITLE), row, invariant, mo.md(_text)]
    if _command is not None and _scenario is not None:
        _result = simulate(_scenario)
        _parts += [
            mo.md(f"```sh\n{_command}\n```"),
            page.chart(mo, timeline_spec(_result, width=560), timeline_table(_result)),
        ]
    mo.vstack(_parts)
    return


@app.cell
def _(mo):
    get_attempts, set_attempts = mo.state(0)
    return get_attempts, set_attempts


@app.cell
def _(MAX_DELIVERIES, Mode, assumptions_lesson, mo, set_attempts, snapshot, words):
    _start = words.EXERCISE_START
    _choices = {
        name: mo.ui.dropdown(
            options=assumptions_lesson.choice_options(name),
            value=str(_start[name]),
            label=assumptions_lesson.setting_label(name),
            disabled=snapshot,
        )
        for name in words.EXERCISE_SETTINGS
    }
    exercise = (
        mo.md(words.EXERCISE_FORM)
        .batch(
            mode=mo.ui.dropdown(
                options=[m.value for m in Mode],
                value=str(_start["mode"]),
                label=words.RUNTIME_LABEL,
                disabled=snapshot,
            ),
            deliveries=mo.ui.number(
                start=1,
                stop=MAX_DELIVERIES,
                step=1,
                value=int(_start["deliveries"]),
                label=words.DELIVERIES_LABEL,
                disabled=snapshot,
            ),
            **_choices,
            retention=mo.ui.text(
                value=str(_start["retention"]),
                placeholder=words.KEPT_WHOLE_RUN,
                label=words.RETENTION_LABEL,
                disabled=snapshot,
            ),
        )
        .form(
            submit_button_label=words.CHECK_LABEL,
            bordered=True,
            on_change=lambda _: set_attempts(lambda n: n + 1),
        )
    )
    mo.vstack(
        [
            mo.md(words.EXERCISE_TITLE),
            mo.md(words.EXERCISE_TEXT.format(faults=words.EXERCISE_FAULTS)),
            exercise,
        ]
    )
    return (exercise,)


@app.cell
def _(exercise, explore, get_attempts, mo, snapshot, words):
    _parts = []
    _failed = 0
    if exercise.value is not None:
        _mode, _budget, _settings, _errors = words.exercise_settings(exercise.value)
        _passed, _said = words.verdict(
            explore(_mode, _settings, _budget, words.EXERCISE_FAULTS)
        )
        _failed = 0 if _passed else get_attempts()
        _parts += [mo.callout(mo.md(e), kind="warn") for e in _errors]
        _parts.append(mo.callout(mo.md(_said), kind="success" if _passed else "danger"))
    if _failed:
        _parts.append(mo.md(words.hints_text(_failed)))
    if exercise.value is not None or snapshot:
        _parts.append(mo.accordion({words.ANSWER_LABEL: mo.md(words.answer_text())}))
    mo.vstack(_parts)
    return


@app.cell
def _(EXPLORE_QUESTION, mo, page):
    understanding = page.check_radio(mo, EXPLORE_QUESTION)
    return (understanding,)


@app.cell
def _(EXPLORE_QUESTION, mo, page, snapshot, understanding):
    page.check(mo, EXPLORE_QUESTION, understanding, snapshot)
    return


if __name__ == "__main__":
    app.run()
