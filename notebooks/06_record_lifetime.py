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
    from asyncfail.charts.specs import replay_histogram_spec, risk_curve_spec
    from asyncfail.course import lesson06_record_lifetime as lesson06
    from asyncfail.course import page, reveal
    from asyncfail.course.catalog import lesson
    from asyncfail.ground.durations import MAX_DURATION_TEXT
    from asyncfail.ground.quiz import Question
    from asyncfail.risk.inputs import MAX_NUMBER_TEXT, Jitter, command_line
    from asyncfail.risk.report import report_of, tallied

    return (
        Jitter,
        MAX_DURATION_TEXT,
        MAX_NUMBER_TEXT,
        Question,
        command_line,
        lesson,
        lesson06,
        page,
        reveal,
        replay_histogram_spec,
        report_of,
        risk_curve_spec,
        tallied,
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
    page.heading(mo, lesson("06_record_lifetime"), snapshot)
    return


@app.cell(hide_code=True)
def recall_question(Question):
    # Retrieval practice: one question on an earlier lesson, before this one's new material.
    earlier = "lesson 5"
    recall = Question(
        prompt="What let a second worker take the operation while the first was still working?",
        options=(
            "The first worker crashed.",
            "The first worker's lease ran out during its stall.",
            "The receiver told the channel to deliver again.",
        ),
        answer="The first worker's lease ran out during its stall.",
        explanation=(
            "Slow is not dead: a stall longer than the lease is enough for the channel to"
            " hand the same operation to a second worker, with no crash and no lost "
            "message."
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
    An expired record turns a replay into a second debit. So the practical question is: with
    your retry schedule, your crash rate and your operators' habit of replaying dead letters
    hours or days later, **how likely is a duplicate, and how long must idempotency records
    live** to make it negligible?
    """)
    return


@app.cell
def _(Jitter, MAX_DURATION_TEXT, MAX_NUMBER_TEXT, lesson06, mo, snapshot):
    _start = lesson06.CONTROL_TEXTS
    texts = mo.ui.dictionary(
        {
            "retention": mo.ui.text(
                value=_start["retention"],
                max_length=MAX_DURATION_TEXT,
                label="**Idempotency retention** (seconds)",
                disabled=snapshot,
            ),
            "crash": mo.ui.text(
                value=_start["crash"],
                max_length=MAX_NUMBER_TEXT,
                label="**Crash probability**, at each crash point of each delivery",
                disabled=snapshot,
            ),
            "replay": mo.ui.text(
                value=_start["replay"],
                max_length=MAX_DURATION_TEXT,
                label="**Median replay delay** (seconds): operators replay dead letters this late",
                disabled=snapshot,
            ),
            "spread": mo.ui.text(
                value=_start["spread"],
                max_length=MAX_NUMBER_TEXT,
                label="**Replay spread** (log-normal sigma, 0 to 4)",
                disabled=snapshot,
            ),
        }
    )
    deliveries = mo.ui.number(
        start=1,
        stop=9,
        step=1,
        value=lesson06.DEFAULT_DELIVERIES,
        label="**Delivery budget**: deliveries before the channel gives up",
        disabled=snapshot,
    )
    jitter = mo.ui.dropdown(
        options=[j.value for j in Jitter],
        value=Jitter.NONE.value,
        label="**Redelivery jitter**",
        disabled=snapshot,
    )
    target = mo.ui.dropdown(
        options=list(lesson06.TARGETS),
        value=lesson06.DEFAULT_TARGET,
        label="**Target duplicate risk**",
        disabled=snapshot,
    )
    trials = mo.ui.dropdown(
        options={f"{n:,}": n for n in lesson06.TRIAL_CHOICES},
        value=f"{lesson06.TRIAL_CHOICES[1]:,}",
        label="**Trials** (more is slower and narrower)",
        disabled=snapshot,
    )
    seed = mo.ui.number(start=0, stop=10**9, step=1, value=0, label="**Seed**",
                        disabled=snapshot)  # fmt: skip
    # The two settings the prediction turns on first, the replay delay and the target; the
    # rest wait, folded, for a learner who wants to change one.
    mo.vstack(
        [
            mo.hstack([texts["replay"], target], justify="start", gap=2, wrap=True),
            mo.accordion(
                {
                    "**More settings**: your retention, the crash rate, the replay spread, the "
                    "delivery budget, jitter, trials and seed": mo.vstack(
                        [
                            *(texts[name] for name in ("retention", "crash", "spread")),
                            mo.hstack([deliveries, jitter], justify="start", gap=2),
                            mo.hstack([trials, seed], justify="start", gap=2),
                        ]
                    )
                }
            ),
        ]
    )
    return deliveries, jitter, seed, target, texts, trials


@app.cell
def _(deliveries, jitter, lesson06, mo, page, seed, texts, trials):
    # The trials asked for: every setting but the target, which changes no trial, so moving
    # the target alone neither reads these again nor reruns the trials.
    asked, _errors = lesson06.read_controls(
        texts.value, deliveries.value, jitter.value, trials.value, seed.value
    )
    # Heavy settings run fewer trials, so a change recomputes in about a second; the results
    # say so and give the command that runs them all.
    fitted_question, _ = lesson06.fitted(asked)
    page.errors(mo, _errors)
    return asked, fitted_question


@app.cell
def _(lesson06, mo):
    prediction = mo.ui.radio(
        options=lesson06.prediction_options(),
        label=(
            "**Predict first.** Which real system's default retention keeps the duplicate risk "
            "below the target here?"
        ),
    ).form(submit_button_label="Commit my prediction", bordered=True)
    return (prediction,)


@app.cell
def _(mo, reveal, snapshot):
    skip_prediction = reveal.skip_switch(
        mo, "Skip predicting: run the trials as the settings change", snapshot
    )
    return (skip_prediction,)


@app.cell
def _(mo, prediction, reveal, skip_prediction, snapshot):
    revealed, _asking = reveal.ask(mo, prediction, skip_prediction, snapshot, note="")
    _asking
    return (revealed,)


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    Each trial draws, from a seeded generator, where failures strike, how redeliveries are
    jittered and when an operator replays an abandoned delivery; then it runs the lab's model.
    Every estimate comes with its 95% interval, and where an exact answer exists the lesson
    shows it beside the estimate.
    """)
    return


@app.cell
def _(fitted_question, mo, revealed, tallied):
    # The trials, tallied once per question: a target's change reports again from the tally.
    if revealed:
        with mo.status.progress_bar(
            total=fitted_question.trials, title="Running trials", remove_on_exit=True
        ) as _bar:
            tally = tallied(fitted_question, progress=lambda done: _bar.update(increment=done))
    else:
        tally = None
    return (tally,)


@app.cell
def _(
    asked,
    command_line,
    lesson06,
    mo,
    page,
    prediction,
    report_of,
    risk_curve_spec,
    tally,
    target,
):
    # The report and its command in one cell: a target's change re-runs this cell alone (each
    # cell a change re-runs costs the WebAssembly page 15-30 ms).
    inputs, _cut = lesson06.fitted(lesson06.aimed(asked, target.value))
    run = None if tally is None else report_of(inputs, tally)
    _parts = [] if _cut is None else [mo.callout(mo.md(_cut), kind="info")]
    if run is not None:
        _curve, _defaults, _chosen = lesson06.chart_data(run)
        if prediction.value is not None:
            _right, _said = lesson06.judge(run, prediction.value)
            _parts.append(mo.callout(mo.md(_said), kind="success" if _right else "info"))
        _parts += [
            mo.md(lesson06.estimate_lines(run)),
            page.chart(
                mo,
                risk_curve_spec(
                    _curve,
                    _defaults,
                    _chosen,
                    run.report.required.target,
                    lesson06.curve_description(run),
                ),
                _curve,
            ),
            mo.callout(mo.md(lesson06.required_text(run)), kind="neutral"),
        ]
    else:
        _parts.append(
            mo.callout(
                mo.md("Commit a prediction, or switch on *skip predicting*, to run the trials."),
                kind="neutral",
            )
        )
    _parts.append(
        mo.md(f"## The same estimate in a terminal\n\n```sh\n{command_line(inputs)}\n```")
    )
    mo.vstack(_parts)
    return inputs, run


@app.cell
def _(fitted_question, lesson06, mo, page, replay_histogram_spec, tally):
    # The replay delays are the trials' draws: a target's change leaves this chart alone.
    if tally is not None:
        _bins = lesson06.histogram_data(fitted_question)
        _view = page.chart(
            mo,
            replay_histogram_spec(
                _bins,
                lesson06.chosen_mark(fitted_question),
                lesson06.histogram_description(fitted_question, _bins),
            ),
            _bins,
        )
    else:
        _view = mo.md("")
    _view
    return


@app.cell(hide_code=True)
def _(mo, revealed):
    # What to notice says what sets the retention: after the guess only.
    mo.md(r"""
    ## What to notice

    *What to notice shows once you commit your guess.*
    """) if not revealed else mo.md(r"""
    ## What to notice

    - **The tail decides.** Most replays come within a day, but the duplicate risk is set by the
      few that come days later: a retention must outlast the replay delays you will actually
      see, not the typical one.
    - **No duplicate seen is not a zero risk.** With n trials and nothing seen, the 95% interval
      still reaches about 3.84 / n; showing a risk below 1 in 10,000 takes tens of thousands of
      trials.
    - **Exact where it can be.** With one certain fault the risk is just the chance that the
      delay reaches the retention, and the library computes it exactly: the estimate must agree.
    - **Defaults are choices.** Powertools keeps records 1 hour, Stripe 24 hours, Restate a day,
      Brandur Leach's design 72 hours, Temporal Cloud 30 days. Which one is safe depends on your
      replay habits, not on the library.
    """)
    return


@app.cell(hide_code=True)
def check_question(Question):
    question = Question(
        prompt=(
            "20,000 trials with records kept 30 days show no duplicate at all. What may you "
            "conclude about the duplicate risk?"
        ),
        options=(
            "It is zero.",
            "It is probably below about 1.9 in 10,000 (3.84 / 20,000), the 95% interval's "
            "upper end: too few trials to show 1 in 10,000.",
            "It is exactly 1 in 20,000.",
        ),
        answer="It is probably below about 1.9 in 10,000 (3.84 / 20,000), the 95% interval's "
        "upper end: too few trials to show 1 in 10,000.",
        explanation=(
            "Seeing nothing in n trials bounds the risk, it does not rule it out: Wilson's 95% "
            "interval then runs from 0 to about 3.84 / n. Showing a risk below 1 in 10,000 with "
            "that confidence takes more than 38,000 trials without a duplicate."
        ),
    )
    return (question,)


@app.cell
def _(mo, page, question):
    understanding = page.check_radio(mo, question)
    return (understanding,)


@app.cell
def _(mo, page, question, snapshot, understanding):
    page.check(mo, question, understanding, snapshot)
    return


if __name__ == "__main__":
    app.run()
