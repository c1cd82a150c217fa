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
    from asyncfail.charts.sequence_drawing import sequence_view
    from asyncfail.charts.specs import time_timeline_spec
    from asyncfail.charts.tables import timeline_table
    from asyncfail.course import controls, page, reveal, warmup
    from asyncfail.course import lesson02_break_the_assumptions as lesson02
    from asyncfail.course.catalog import lesson
    from asyncfail.ground.durations import MAX_DURATION_TEXT
    from asyncfail.ground.quiz import Question
    from asyncfail.lab.assumptions import (
        LOOKUP_AND_STORE,
        NOT_MODELED,
        RETAINED_ATOMIC,
        STABLE_KEY,
    )
    from asyncfail.lab.faults import MAX_PLAN_TEXT, describe_fault
    from asyncfail.lab.scenario import command_lines
    from asyncfail.lab.simulation import simulate_each_mode

    return (
        Fault,
        LOOKUP_AND_STORE,
        MAX_DURATION_TEXT,
        MAX_PLAN_TEXT,
        Mode,
        NOT_MODELED,
        Question,
        RETAINED_ATOMIC,
        STABLE_KEY,
        command_lines,
        controls,
        describe_fault,
        lesson,
        lesson02,
        page,
        reveal,
        sequence_view,
        simulate_each_mode,
        time_timeline_spec,
        timeline_table,
        warmup,
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
    page.heading(mo, lesson("02_break_the_assumptions"), snapshot)
    return


@app.cell(hide_code=True)
def recall_question(Question):
    # Retrieval practice: one question on an earlier lesson, before this one's new material.
    earlier = "lesson 1"
    recall = Question(
        prompt="What is the difference between a delivery attempt and a business effect?",
        options=(
            "They are two names for the same count.",
            (
                "An attempt is the operation reaching a worker; an effect is the ledger "
                "being debited."
            ),
            "An attempt is a debit that failed; an effect is one that succeeded.",
        ),
        answer=(
            "An attempt is the operation reaching a worker; an effect is the ledger being debited."
        ),
        explanation=(
            "The model keeps the two counts apart: under `crash-after-effect` both "
            "runtimes make two delivery attempts, and only the naive loop turns them into"
            " two debits."
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
    The durable runtime of the Async Failure Lab ends in **Recovered by operation key**, but only
    under five assumptions. Each is a setting here. Pick one to break, predict what each runtime
    does, then see the traces against time, with the receiver's idempotency record drawn for as
    long as it counts.

    Every setting is one option of `asyncfail lab`, and every result below is the model's.
    """)
    return


@app.cell(hide_code=True)
def _(lesson02, mo, page):
    # Folded: the first screen holds the starting point and the prediction it asks for. The
    # debits and the fixes are what the learner predicts: the table with them follows the runs.
    # Made when opened (page.fold): its runs were some 70 ms of the lesson's first run under
    # Node, of about 470 ms (exports/README.md).
    page.fold(
        mo,
        "**The five assumptions, and what breaks them**",
        lambda: mo.md(
            lesson02.assumption_table(answers=False)
            + "\n\n*What each starting point gives, and what restores it, follows the runs.*"
        ),
    )
    return


@app.cell
def _(lesson02, mo, snapshot):
    start = mo.ui.dropdown(
        options=list(lesson02.start_options()),
        value=lesson02.DEFAULT_START_LABEL,
        label="**Start from**: a broken assumption, or none",
        disabled=snapshot,
    )
    start
    return (start,)


@app.cell
def _(mo, snapshot):
    # The dozen settings a starting point sets wait behind one switch for a learner who wants
    # to change one. While it is off, the runs are the starting point's as it is, and a new
    # starting point makes no control again (each control made costs the WebAssembly page
    # 2-3 ms). A snapshot shows every setting's value.
    more = mo.ui.switch(
        value=snapshot,
        label="**More settings**: the fault, the delivery budget and each assumption's settings",
        disabled=snapshot,
    )
    more
    return (more,)


@app.cell
def _(lesson02, mo, reveal):
    # The prediction, one form per starting point, the run a learner chose to break, made
    # once (reveal.prediction_forms): a new starting point shows its own form, asked afresh; a
    # guess stays with the starting point it answers (changing a setting afterwards updates
    # the runs without asking again).
    predictions = reveal.prediction_forms(
        mo,
        {
            label: f"**Predict first.** Starting from *{label}*: how many debits reach the "
            "ledger? Naive runtime: {naive} Durable runtime: {durable}"
            for label in lesson02.start_options()
        },
    )
    return (predictions,)


@app.cell
def _(
    Fault,
    LOOKUP_AND_STORE,
    MAX_DURATION_TEXT,
    MAX_PLAN_TEXT,
    NOT_MODELED,
    RETAINED_ATOMIC,
    STABLE_KEY,
    controls,
    lesson02,
    mo,
    more,
    snapshot,
    start,
):
    # Every setting, starting at the starting point's value, made and laid out when the switch
    # is on; each group headed by the assumption its settings break. While it is off there are
    # none, and the runs are the starting point's.
    def _settings():
        scenario = lesson02.start_options()[start.value]
        values = lesson02.choices_of(scenario)

        def choice(name, options, label):
            return mo.ui.dropdown(options, value=values[name], label=label, disabled=snapshot)

        # One value for the runs' cell to read; a dictionary holds copies of what it is given,
        # so the page shows its copies.
        choices = mo.ui.dictionary(
            {
                "fault": choice(
                    "fault", [f.value for f in Fault], "Fault injected into the first delivery"
                ),
                **{
                    name: choice(name, controls.choice_options(name), controls.setting_label(name))
                    for names in lesson02.GROUPS.values()
                    for name in names
                    if name in values
                },
            }
        )
        retention = mo.ui.text(
            value=lesson02.seconds_of(scenario.settings.retention),
            placeholder=controls.KEPT_WHOLE_RUN,
            max_length=MAX_DURATION_TEXT,
            label=controls.setting_label("retention"),
            disabled=snapshot,
        )
        delay = mo.ui.text(
            value=lesson02.seconds_of(scenario.settings.redelivery_delay),
            placeholder="seconds, e.g. 60 or 0.5",
            max_length=MAX_DURATION_TEXT,
            label=controls.setting_label("redelivery_delay"),
            disabled=snapshot,
        )
        deliveries = controls.delivery_budget(mo, scenario.deliveries, snapshot)
        plan = mo.ui.text(
            value=lesson02.plan_of(scenario),
            placeholder="e.g. 1:after-effect,2:lookup",
            max_length=MAX_PLAN_TEXT,
            label=(
                "**Fault plan** (optional): injections as `ATTEMPT:POINT`, comma-separated; "
                "it replaces the fault above"
            ),
            full_width=True,
            disabled=snapshot,
        )
        titles = {
            "key": f"**Assumption {STABLE_KEY}**: a stable key, and a receiver that can look it up",
            "record": f"**Assumption {RETAINED_ATOMIC}**: a record tied atomically to its debit",
            "outage": f"**Assumption {LOOKUP_AND_STORE}**: lookups answer, storage can be written",
            "clock": f"**Assumption {NOT_MODELED}**: records that never expire; the clock",
        }
        texts = {"retention": retention, "redelivery_delay": delay}
        groups = [
            mo.vstack(
                [mo.md("**The fault and the delivery budget**"), choices["fault"], plan, deliveries]
            ),
            *(
                mo.vstack(
                    [mo.md(titles[group]), *(texts[n] if n in texts else choices[n] for n in names)]
                )
                for group, names in lesson02.GROUPS.items()
            ),
        ]
        return (choices, delay, deliveries, plan, retention), groups

    (choices, delay, deliveries, plan, retention), _groups = (
        _settings() if more.value else ((None,) * 5, [])
    )
    mo.vstack(_groups, gap=1.25) if _groups else None
    return choices, delay, deliveries, plan, retention


@app.cell
def _(mo, reveal, snapshot):
    skip_prediction = reveal.skip_switch(
        mo, "Skip predicting: show the runs as the settings change", snapshot
    )
    return (skip_prediction,)


@app.cell
def _(mo):
    # Whether the guess is in, for the cells further down that wait for it but read no
    # control: set only when it changes (reveal.keep_revealed), so a change reruns none of them.
    get_revealed, set_revealed = mo.state(False)
    return get_revealed, set_revealed


@app.cell
def start_views(
    Mode,
    lesson02,
    mo,
    page,
    reveal,
    sequence_view,
    simulate_each_mode,
    snapshot,
    warmup,
):
    # What a starting point's runs show, written once for the cell below that shows them and
    # for the page's start, which makes every starting point's once (warmup.warm): the first
    # pick of a starting point then answers as quickly as a return to it.
    def counts(revealed, results, guess):
        return reveal.reveal(
            mo,
            revealed,
            "Commit a guess for each runtime, or switch on *skip predicting*, to see the runs.",
            results,
            guess,
            below=[mo.md(lesson02.broken_text(results[Mode.DURABLE]))],
        )

    def sequence_panel(result):
        return page.chart(mo, *sequence_view(result, width=380))

    def restored(scenario, results):
        return mo.callout(
            mo.md(lesson02.restore_text(scenario, results[Mode.DURABLE])), kind="success"
        )

    def _shown(label):
        scenario = lesson02.start_options()[label]
        results = simulate_each_mode(scenario)
        return [
            counts(True, results, None),
            *(sequence_panel(r) for r in results.values()),
            restored(scenario, results),
        ]

    warmup.warm(mo, snapshot, _shown, lesson02.start_options())
    return counts, restored, sequence_panel


@app.cell
def predict_then_reveal(
    Fault,
    choices,
    command_lines,
    counts,
    delay,
    deliveries,
    describe_fault,
    get_revealed,
    lesson02,
    mo,
    page,
    plan,
    predictions,
    restored,
    retention,
    reveal,
    sequence_panel,
    set_revealed,
    simulate_each_mode,
    skip_prediction,
    snapshot,
    start,
    time_timeline_spec,
    timeline_table,
):
    # The runs the settings give, the question, and what its answer shows (the counts, the
    # traces, the commands) in one cell: each cell a change re-runs costs the WebAssembly page
    # 15-30 ms, and a change of any setting redoes all of them.
    if choices is None:
        scenario, _errors, _notes = lesson02.start_options()[start.value], (), []
    else:
        scenario, _errors = lesson02.scenario_from_controls(
            choices.value, deliveries.value, retention.value, delay.value, plan.value
        )
        # What the settings above mean for these runs: the fault chosen, and whether the
        # delay is read.
        _schedule = choices.value["schedule"]
        _notes = [
            mo.md(
                f"<small>The fault, `{choices.value['fault']}`: "
                f"{describe_fault(Fault(choices.value['fault']))}</small>"
            ),
            *(
                [
                    mo.md(
                        f"*The {_schedule} schedule has its own delays: the redelivery "
                        "delay is not read.*"
                    )
                ]
                if _schedule != "fixed"
                else []
            ),
        ]
    results = simulate_each_mode(scenario)
    _form = predictions[start.value]
    revealed, _asking = reveal.ask(mo, _form, skip_prediction, snapshot)
    reveal.keep_revealed(revealed, get_revealed, set_revealed)
    _counts = counts(revealed, results, _form.value)

    def _sequence_panel(mode):
        return sequence_panel(results[mode])

    def _trace_panel(mode):
        result = results[mode]
        return page.chart(mo, time_timeline_spec(result, width=380), timeline_table(result))

    def _runs(note, panel):
        # One view of the traces: what it shows, then both runtimes side by side.
        return mo.vstack(
            [
                mo.md(note),
                mo.hstack([panel(m) for m in results], widths="equal", gap=2, align="start"),
            ]
        )

    if revealed:
        # The two views of the traces as two tabs, the sequence view first: one screen, not two.
        _view = mo.vstack(
            [
                mo.md("## The traces"),
                mo.ui.tabs(
                    {
                        "Message by message": _runs(
                            "Each actor is a lane; each message an arrow from sender to "
                            "receiver, in step order. A crash or a timeout is marked where it "
                            "cuts an arrow.",
                            _sequence_panel,
                        ),
                        # Drawn when its tab opens: a change redraws the tab on screen.
                        "Against time": page.on_open(
                            mo,
                            lambda: _runs(
                                "Each dashed line is a delivery; the events of one delivery "
                                "happen at the same instant. The blue band on the receiver's "
                                "lane is how long each idempotency record counts: where a "
                                "record expires the band breaks, so a redelivery that comes in "
                                "the gap finds no record.",
                                _trace_panel,
                            ),
                        ),
                    }
                ),
                restored(scenario, results),
            ]
        )
    else:
        _view = mo.md("")
    mo.vstack(
        [
            page.errors(mo, _errors, kind="danger"),
            *_notes,
            _asking,
            _counts,
            _view,
            # Made when the fold opens: a change does not highlight commands nobody opened.
            page.fold(
                mo,
                "**The same runs in a terminal**",
                lambda: mo.md(f"```sh\n{command_lines(scenario)}\n```"),
            ),
        ]
    )
    return results, revealed, scenario


@app.cell(hide_code=True)
def _(get_revealed, lesson02, mo):
    # Every starting point's answer, run by the model: after the guess only, and folded (the
    # runs above are this starting point's). It reads no control, so a change reruns it only
    # when the guess is asked again.
    mo.accordion(
        {
            "**The five assumptions, run by the model**: what each starting point gives, and "
            "what restores it": mo.md(lesson02.assumption_table())
        }
    ) if get_revealed() else mo.md("")
    return


@app.cell(hide_code=True)
def _(get_revealed, mo):
    # What to notice names the fix for the starting point: after the guess only.
    mo.md(r"""
    ## What to notice

    *What to notice shows once you commit your guess.*
    """) if not get_revealed() else mo.md(r"""
    ## What to notice

    - **The lookup is only as good as the key.** With a key per delivery attempt the lookup asks
      for a key that was never stored: it finds nothing, honestly, and the runtime calls again.
      Temporal's advice is a key built from the workflow and activity ids, which survive
      retries.
    - **A record is a promise with an end date.** Once the record expires, a lookup and a keyed
      request both find nothing: the receiver cannot tell a redelivery from a new debit. Records
      must outlive the last redelivery, strictly under the seed's boundary convention.
    - **Atomic or nothing.** A record written in its own transaction can be lost while its debit
      stays; in the same transaction, a crash takes both away and the redelivery is safe.
    - **Failing open trades safety for liveness; failing closed trades liveness for safety.**
      With lookups down, calling again is a bet; parking the operation keeps the ledger right
      and hands the unknown to a person.
    - **The receiver is the last line of defence.** A receiver that deduplicates by a retained
      key saves every case above where the key is stable and the record is still there.
    """)
    return


@app.cell(hide_code=True)
def check_question(Question):
    question = Question(
        prompt=(
            "The receiver keeps idempotency records for 60 s, redeliveries come 60 s apart, and "
            "the worker crashes after the debit. Which single change stops the second debit?"
        ),
        options=(
            "A receiver that deduplicates repeated keyed requests.",
            "Keeping the records longer than the last redelivery can come.",
            "Failing closed when a lookup fails.",
            "A new operation key for each delivery attempt.",
        ),
        answer="Keeping the records longer than the last redelivery can come.",
        explanation=(
            "At exactly 60 s the record has expired under the seed's convention, so the lookup "
            "finds nothing and the runtime calls again. A deduplicating receiver needs that same "
            "record, so it cannot help; no lookup failed, so failing closed changes nothing; a "
            "key per attempt would miss even a retained record. Records must outlive the last "
            "redelivery (or the boundary convention must count the expiry instant)."
        ),
    )
    return (question,)


@app.cell
def _(mo, page, question):
    understanding = page.check_radio(mo, question)
    return (understanding,)


@app.cell
def _(get_revealed, mo, page, question, snapshot, understanding):
    # The check's question states the starting point's duplicate: asked after the guess.
    page.check(mo, question, understanding, snapshot) if get_revealed() else mo.md("")
    return


if __name__ == "__main__":
    app.run()
