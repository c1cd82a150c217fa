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
    from asyncfail.course import controls, page, reveal
    from asyncfail.course import lesson04_explore_every_failure as lesson04
    from asyncfail.course.catalog import lesson
    from asyncfail.explore.explorer import explore
    from asyncfail.explore.invariants import Invariant
    from asyncfail.ground.durations import MAX_DURATION_TEXT
    from asyncfail.ground.quiz import Question
    from asyncfail.lab.scenario import Mode
    from asyncfail.lab.simulation import simulate

    return (
        Invariant,
        MAX_DURATION_TEXT,
        Mode,
        Question,
        controls,
        explore,
        lesson,
        lesson04,
        page,
        reveal,
        simulate,
        timeline_spec,
        timeline_table,
    )


@app.cell
def _(mo, page):
    # A recompute renders each Markdown text once, not again (course/markdown_cache.py),
    # parses no cell that cannot be a reusable function (course/toplevel_hint.py), and in the
    # WebAssembly page gathers no data for editor panels it has none of (course/editor_data.py);
    # private to this cell, which defines `snapshot` alone (a test may substitute it).
    from asyncfail.course import editor_data as _editor_data
    from asyncfail.course import markdown_cache as _markdown_cache
    from asyncfail.course import toplevel_hint as _toplevel_hint

    _markdown_cache.install(mo)
    _toplevel_hint.install(mo)
    _editor_data.install(mo)
    snapshot = page.is_snapshot(mo)
    return (snapshot,)


@app.cell(hide_code=True)
def _(lesson, mo, page, snapshot):
    page.heading(mo, lesson("04_explore_every_failure"), snapshot)
    return


@app.cell(hide_code=True)
def recall_question(Question):
    # Retrieval practice: one question on an earlier lesson, before this one's new material.
    earlier = "lesson 3"
    recall = Question(
        prompt="What must an idempotency key identify?",
        options=(
            "The delivery attempt.",
            "The business intent: the tenant and the operation.",
            "The worker process that handles it.",
        ),
        answer="The business intent: the tenant and the operation.",
        explanation=(
            "A key per delivery attempt is never found again, so the same intent is "
            "applied twice; a key without the tenant lets one tenant's request hit "
            "another's record."
        ),
    )
    return earlier, recall


@app.cell
def _(earlier, mo, page, recall, snapshot):
    remembered = page.recall_radio(mo, recall, earlier, snapshot)
    return (remembered,)


@app.cell
def _(earlier, mo, page, recall, remembered, snapshot):
    page.recall(mo, recall, remembered, earlier, snapshot)
    return


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    Six hand-picked faults teach the idea; they do not prove it. Here the **explorer** runs
    every fault plan: every set of up to *k* injections, at every fault point of every delivery
    the channel may make, including one-off outages of the lookup service and of the journal. It
    checks three invariants on every run and, for each one a run breaks, finds the **smallest
    counterexample**: fewest injections, then fewest events. Every counterexample is a real run
    of the lab, with the command that replays it. The same search runs in a terminal:
    `asyncfail explore --mode durable --max-faults 2`.
    """)
    return


@app.cell
def predict(lesson04, mo, reveal):
    # Asked at the controls' starting values, before anything is explored; the matrix controls
    # appear with the answer, so the guess is about the scope the matrix first shows.
    prediction = mo.ui.multiselect(
        options=lesson04.row_labels(),
        label=(
            f"**Predict first.** With {lesson04.starting_scope_text()}, under which of "
            f"these runtimes and settings does **no** plan break "
            f"**{lesson04.PREDICTED.value}** (no second debit)? Choose every row you expect to "
            "hold."
        ),
        full_width=True,
    ).form(submit_button_label=reveal.COMMIT_LABEL, bordered=True)
    return (prediction,)


@app.cell
def _(mo, reveal, snapshot):
    skip_prediction = reveal.skip_switch(mo, "Skip predicting: show the matrix", snapshot)
    return (skip_prediction,)


@app.cell
def _(mo, page, prediction, reveal, skip_prediction, snapshot):
    revealed, _asking = reveal.ask(
        mo,
        prediction,
        skip_prediction,
        snapshot,
        note=(
            "*Static snapshot: the matrix and its counterexamples are shown without the "
            "prediction step, and the prediction's answer is labelled below. Open the "
            "interactive page to predict first.*"
        ),
    )
    _asking
    return (revealed,)


@app.cell(hide_code=True)
def _(lesson04, mo):
    mo.vstack(
        [
            mo.md(f"## Three invariants\n\n{lesson04.invariants_text()}"),
            mo.accordion({"Why each one matters": mo.md(lesson04.reasons_text())}),
        ]
    )
    return


@app.cell
def starting_matrix(lesson04, mo, prediction, reveal, revealed):
    mo.stop(
        not revealed,
        mo.callout(
            mo.md(
                "Commit your prediction, or switch on *skip predicting*, to see the matrix "
                "and its counterexamples."
            ),
            kind="neutral",
        ),
    )
    # The starting scope, explored once: the prediction's answer, and the matrix until a
    # control changes (the controls are not read here, so changing them never reruns this).
    starting = {
        row.title: lesson04.explore_row(
            row, lesson04.DEFAULT_DELIVERIES_SHOWN, lesson04.DEFAULT_MAX_FAULTS
        )
        for row in mo.status.progress_bar(
            lesson04.ROWS, title="Exploring every plan", remove_on_exit=True
        )
    }
    _holding = lesson04.keeping_rows(starting, lesson04.PREDICTED)
    _title = f"Rows where no plan breaks {lesson04.PREDICTED.value}"
    if prediction.value is not None:
        _said = reveal.set_callout(mo, _title, prediction.value, _holding)
    else:
        _listed = "".join(f"\n- {title}" for title in _holding)
        _said = mo.callout(
            mo.md(
                f"**The prediction's answer** ({lesson04.starting_scope_text()}). "
                f"{_title}:{_listed}"
            ),
            kind="info",
        )
    _said
    return (starting,)


@app.cell
def matrix_controls(controls, lesson04, mo, revealed, snapshot):
    # The matrix's controls live here, apart from the matrix: recomputing it never reruns this
    # cell, so they stay on screen (and usable) while it runs.
    mo.stop(not revealed)
    _low, _high = lesson04.MAX_FAULTS_RANGE
    max_faults = mo.ui.slider(
        start=_low,
        stop=_high,
        step=1,
        value=lesson04.DEFAULT_MAX_FAULTS,
        show_value=True,
        label="**Faults per plan**: at most",
        disabled=snapshot,
    )
    deliveries = controls.delivery_budget(mo, lesson04.DEFAULT_DELIVERIES_SHOWN, snapshot)
    mo.vstack(
        [
            mo.md("## Which settings break which invariant"),
            mo.hstack([max_faults, deliveries], justify="start", gap=2),
        ]
    )
    return deliveries, max_faults


@app.cell(hide_code=True)
def _(mo, revealed, snapshot):
    mo.stop(not revealed or snapshot)  # a snapshot's controls do nothing
    mo.md(r"""
    *While the matrix recomputes, a bar counts its rows and these controls stay. Python in the
    page does one thing at a time: a change made meanwhile waits, and the matrix ends on the
    newest values.*
    """)
    return


@app.cell
def matrix(deliveries, lesson04, max_faults, mo, starting):
    _scope = (lesson04.budget_of(deliveries.value), int(max_faults.value))
    if _scope == (lesson04.DEFAULT_DELIVERIES_SHOWN, lesson04.DEFAULT_MAX_FAULTS):
        explorations = starting
    else:
        # Every setting is explored in full (lesson04.MATRIX_RUNS says what that costs).
        explorations = {
            row.title: lesson04.explore_row(row, *_scope)
            for row in mo.status.progress_bar(
                lesson04.ROWS, title="Exploring every plan", remove_on_exit=True
            )
        }
    mo.md(lesson04.matrix_text(explorations))
    return (explorations,)


@app.cell
def view_controls(Invariant, lesson04, mo, revealed, snapshot):
    # The view's controls, apart from the matrix like its own: they stay while it recomputes.
    mo.stop(not revealed)
    row = mo.ui.dropdown(
        options=lesson04.row_labels(),
        value=lesson04.row_labels()[lesson04.DEFAULT_ROW],
        label="**Runtime and settings**",
        disabled=snapshot,
    )
    invariant = mo.ui.radio(
        options=[i.value for i in Invariant],
        value=Invariant.AT_MOST_ONCE.value,
        label="**Invariant**",
        inline=True,
        disabled=snapshot,
    )
    mo.vstack([mo.md("## The smallest counterexample"), row, invariant])
    return invariant, row


@app.cell
def _(
    Invariant,
    explorations,
    invariant,
    lesson04,
    mo,
    page,
    row,
    simulate,
    timeline_spec,
    timeline_table,
):
    _found = explorations[row.value]
    _chosen = Invariant(invariant.value)
    _text, _command = lesson04.counterexample_text(_found, _chosen)
    _scenario = lesson04.counterexample_scenario(_found, _chosen)
    _parts = [mo.md(_text)]
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
def _(
    MAX_DURATION_TEXT,
    Mode,
    controls,
    lesson04,
    mo,
    set_attempts,
    snapshot,
):
    _start = lesson04.EXERCISE_START
    _choices = {
        name: mo.ui.dropdown(
            options=controls.choice_options(name),
            value=str(_start[name]),
            label=controls.setting_label(name),
            disabled=snapshot,
        )
        for name in lesson04.EXERCISE_SETTINGS
    }
    exercise = (
        mo.md(lesson04.EXERCISE_FORM)
        .batch(
            mode=mo.ui.dropdown(
                options=[m.value for m in Mode],
                value=str(_start["mode"]),
                label="**Runtime**",
                disabled=snapshot,
            ),
            deliveries=controls.delivery_budget(mo, int(_start["deliveries"]), snapshot),
            **_choices,
            retention=mo.ui.text(
                value=str(_start["retention"]),
                placeholder=controls.KEPT_WHOLE_RUN,
                max_length=MAX_DURATION_TEXT,
                label=controls.setting_label("retention"),
                disabled=snapshot,
            ),
        )
        .form(
            submit_button_label="Check with the explorer",
            bordered=True,
            on_change=lambda _: set_attempts(lambda n: n + 1),
        )
    )
    # Folded: the page stays under about 3,000 px once the matrix shows; its title says what
    # is inside, and the verdict shows below it once checked.
    mo.accordion(
        {
            "Exercise: settings no fault can break": mo.vstack(
                [
                    mo.md(
                        f"Choose a runtime and settings so that **no plan of up to "
                        f"{lesson04.EXERCISE_FAULTS} faults** breaks any of the three "
                        "invariants. The explorer checks your choice."
                    ),
                    exercise,
                ]
            )
        }
    )
    return (exercise,)


@app.cell
def _(exercise, explore, get_attempts, lesson04, mo, page, snapshot):
    # One more hint after each attempt that fails, in this order.
    _hints = (
        "A loop that cannot tell a lost request from a lost reply calls again after either. "
        "Which runtime looks before it calls?",
        "Two faults can spoil two deliveries. How many must the channel allow for one to run "
        "clean?",
        "A lookup helps only if it asks for the key that was stored, while the record still "
        "counts, and if no crash can leave a debit without its record.",
        "When the lookup service or the journal does not answer, calling anyway is a bet.",
    )
    _parts = []
    _failed = 0
    if exercise.value is not None:
        _mode, _budget, _settings, _errors = lesson04.exercise_settings(exercise.value)
        _passed, _said = lesson04.verdict(
            explore(_mode, _settings, _budget, lesson04.EXERCISE_FAULTS)
        )
        _failed = 0 if _passed else get_attempts()
        _parts.append(page.errors(mo, _errors))
        _parts.append(mo.callout(mo.md(_said), kind="success" if _passed else "danger"))
    if _failed:
        _parts.append(mo.md(f"**Hints**\n\n{lesson04.hints_text(_hints, _failed)}"))
    if exercise.value is not None or snapshot:
        _parts.append(mo.accordion({"Show an answer": mo.md(lesson04.answer_text())}))
    mo.vstack(_parts)
    return


@app.cell(hide_code=True)
def check_question(Question):
    question = Question(
        prompt=(
            "The explorer ran every plan of up to 2 faults for the durable runtime under the "
            "seed's assumptions and found no second debit. What does that show?"
        ),
        options=(
            "The durable runtime can never debit twice.",
            "No combination of up to two of the modeled faults, at any point of any delivery, "
            "makes this model debit twice; more faults, other settings or unmodeled failures "
            "may.",
            "Two faults were tried at random and both were harmless.",
        ),
        answer="No combination of up to two of the modeled faults, at any point of any "
        "delivery, makes this model debit twice; more faults, other settings or unmodeled "
        "failures may.",
        explanation=(
            "An exhaustive search is a proof only within its bounds: every plan of up to k "
            "injections, over the modeled points and deliveries, under these settings. Change a "
            "setting (a key per attempt, a short retention, a second worker) and the same "
            "search finds a counterexample of one injection; a failure at a point the model "
            "does not name is outside the search altogether."
        ),
    )
    return (question,)


@app.cell
def _(mo, page, question, revealed):
    # After the guess: the check's question says what the seed's durable row found.
    mo.stop(not revealed)
    understanding = page.check_radio(mo, question)
    return (understanding,)


@app.cell
def _(mo, page, question, snapshot, understanding):
    page.check(mo, question, understanding, snapshot)
    return


if __name__ == "__main__":
    app.run()
