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
    from asyncfail import ASSUMPTIONS, Fault, Scenario
    from asyncfail.charts.sequence_drawing import sequence_view
    from asyncfail.charts.timeline import narrate
    from asyncfail.course import page, reveal, warmup
    from asyncfail.course.catalog import lesson
    from asyncfail.course.lesson01_async_failure_lab import verification
    from asyncfail.ground.canonical import to_json
    from asyncfail.ground.quiz import Question
    from asyncfail.ground.seed import DISCLAIMER, QUESTION
    from asyncfail.lab.faults import describe_fault
    from asyncfail.lab.scenario import SEED_FAULT, command_lines
    from asyncfail.lab.simulation import simulate_each_mode

    return (
        ASSUMPTIONS,
        DISCLAIMER,
        Fault,
        QUESTION,
        Question,
        SEED_FAULT,
        Scenario,
        command_lines,
        describe_fault,
        lesson,
        narrate,
        page,
        reveal,
        sequence_view,
        simulate_each_mode,
        to_json,
        verification,
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
    page.heading(mo, lesson("01_async_failure_lab"), snapshot)
    return


@app.cell(hide_code=True)
def _(QUESTION, mo):
    mo.md(f"""
    > **{QUESTION}**

    Choose a failure, compare two runtimes, and follow the event trace. The model keeps two
    counts apart: **delivery attempts** (how often the operation reached a worker) and
    **business effects** (how often the ledger was debited).

    - The **naive** runtime is a retry loop: it calls the debit tool on every delivery and
      keeps the result in process memory.
    - The **durable** runtime records a dispatch intent under a stable operation key, and after
      a crash or a timeout looks that key up at the receiver before any call that could debit
      again.
    """)
    return


@app.cell(hide_code=True)
def _(ASSUMPTIONS, DISCLAIMER, mo):
    # Folded: the first screen holds the fault and the prediction it asks for.
    _assumptions = "\n".join(f"- {a}" for a in ASSUMPTIONS)
    mo.accordion({"**What this model assumes**": mo.md(f"{_assumptions}\n\n*{DISCLAIMER}*")})
    return


@app.cell
def _(Fault, SEED_FAULT, mo, snapshot):
    fault = mo.ui.dropdown(
        options=[f.value for f in Fault],
        value=SEED_FAULT.value,
        label="Fault injected into the first delivery",
        disabled=snapshot,
    )
    # Shown by its own cell, which a change of it never reruns: placed inside the description's
    # Markdown instead, its HTML was rendered as Markdown again on every change.
    fault
    return (fault,)


@app.cell
def _(Fault, mo, reveal):
    # The prediction, one form per fault, made once (reveal.prediction_forms): a new fault shows
    # its own form, asked afresh, and makes none; a guess stays with the fault it answers.
    predictions = reveal.prediction_forms(
        mo,
        {
            f.value: f"**Predict first.** Under **{f.value}**, how many debits reach the ledger? "
            "Naive runtime: {naive} Durable runtime: {durable}"
            for f in Fault
        },
    )
    return (predictions,)


@app.cell
def _(mo, reveal, snapshot):
    # Not built from the fault: a learner who skips predicting keeps skipping as they try
    # other faults (the prediction itself is asked per fault).
    skip_prediction = reveal.skip_switch(
        mo, "Skip predicting: show the counts and the traces for every fault", snapshot
    )
    return (skip_prediction,)


@app.cell
def _(mo):
    # Whether the guess is in, for the cells further down that wait for it but read no
    # control: set only when it changes (reveal.keep_revealed), so a new fault reruns none of them.
    get_revealed, set_revealed = mo.state(False)
    return get_revealed, set_revealed


@app.cell
def fault_views(
    Fault,
    Scenario,
    describe_fault,
    mo,
    narrate,
    page,
    reveal,
    sequence_view,
    simulate_each_mode,
    snapshot,
    warmup,
):
    # What a fault shows, written once for the cells below that show it (its step slider reads
    # its runs' length) and for the page's start, which makes every fault's once (warmup.warm):
    # the first pick of a fault then answers as quickly as a return to it.
    def fault_runs(value):
        """The fault's runs under both runtimes, and the events in the longer trace."""
        results = simulate_each_mode(Scenario(fault=Fault(value)))
        return results, max(len(r.events) for r in results.values())

    def fault_note(value):
        return mo.md(f"**{value}**: {describe_fault(Fault(value))}")

    def counts(revealed, results, guess):
        return reveal.reveal(
            mo,
            revealed,
            "Commit a guess of the business effects for each runtime, or switch on *skip "
            "predicting*, to see the counts and the traces.",
            results,
            guess,
            figures=True,
        )

    # The sequence view: actors as lanes, each message an arrow in step order.
    def trace_panel(result, step):
        return page.chart(
            mo,
            *sequence_view(result, step, width=380),
            caption=f"**{result.mode.value}**: {narrate(result, step)}",
        )

    def _shown(value):
        results, longest = fault_runs(value)
        return [
            fault_note(value),
            counts(True, results, None),
            *(trace_panel(r, longest) for r in results.values()),
        ]

    warmup.warm(mo, snapshot, _shown, [f.value for f in Fault])
    return counts, fault_note, fault_runs, trace_panel


@app.cell
def _(Fault, fault_runs, mo, snapshot):
    # A step slider per fault, each reaching that fault's longest trace and starting there,
    # made once, in one dictionary, by a cell no fault re-runs: a fault's change then re-runs
    # one cell, not this one too (each cell a change re-runs costs the WebAssembly page 15-30
    # ms), and a step stays with the fault it shows, as a guess stays with the fault it answers.
    def _slider(value):
        longest = fault_runs(value)[1]
        return mo.ui.slider(
            start=1,
            stop=longest,
            step=1,
            value=longest,
            show_value=True,
            label="Step through the traces (arrow keys move one event)",
            disabled=snapshot,
        )

    steps = mo.ui.dictionary({f.value: _slider(f.value) for f in Fault})
    return (steps,)


@app.cell
def predict_then_reveal(
    Fault,
    Scenario,
    command_lines,
    counts,
    fault,
    fault_note,
    fault_runs,
    get_revealed,
    mo,
    page,
    predictions,
    reveal,
    set_revealed,
    skip_prediction,
    snapshot,
    steps,
    to_json,
    trace_panel,
):
    # Everything a fault's change shows, in one cell: its description, its question, the
    # counts its answer shows, the traces with the fault's step slider and the same run in a
    # terminal. A step of the slider redraws it too.
    results, _ = fault_runs(fault.value)
    _form = predictions[fault.value]
    revealed, _asking = reveal.ask(mo, _form, skip_prediction, snapshot)
    reveal.keep_revealed(revealed, get_revealed, set_revealed)
    _traces = (
        mo.vstack(
            [
                mo.md("## The event traces"),
                steps[fault.value],
                mo.hstack(
                    [trace_panel(r, steps.value[fault.value]) for r in results.values()],
                    widths="equal",
                    gap=2,
                    align="start",
                ),
            ]
        )
        if revealed
        else mo.md("")
    )
    _commands = command_lines(Scenario(fault=Fault(fault.value)))

    # The JSON holds the counts: shown once the learner has committed a guess (or skipped).
    # Folded, and made when opened: the page stays one idea long; the terminal is for the
    # learner who wants it, and a fault's change does not redo it for nobody.
    def _terminal():
        return mo.vstack(
            [
                mo.md(
                    "The CLI runs the same model and prints the same result as JSON (from a "
                    "checkout, after `make test` or `make serve` created `.venv`):"
                ),
                mo.md(f"```sh\n{_commands}\n```"),
                mo.accordion(
                    {
                        # Highlighted when its fold opens: a fault's change does not redo both.
                        f"JSON printed by `asyncfail lab` ({m.value})": page.on_open(
                            mo,
                            lambda m=m: mo.md(
                                f"```json\n{to_json(results[m].model_dump(mode='json'))}```"
                            ),
                        )
                        for m in results
                    }
                )
                if revealed
                else mo.md("*The JSON each command prints shows once you commit your guess.*"),
            ]
        )

    mo.vstack(
        [
            fault_note(fault.value),
            _asking,
            counts(revealed, results, _form.value),
            _traces,
            page.fold(mo, "**The same run in a terminal**", _terminal),
        ]
    )
    return results, revealed


@app.cell(hide_code=True)
def _(get_revealed, mo):
    # What to notice names the counts the learner is asked to predict: after the guess only.
    mo.md(r"""
    ## What to notice

    *What to notice shows once you commit your guess.*
    """) if not get_revealed() else mo.md(r"""
    ## What to notice

    - **Attempts are not effects.** Under `crash-after-effect` both runtimes make two delivery
      attempts; only the naive loop turns them into two debits.
    - **A missing result is not a failed call.** After a crash or a timeout the debit may or may
      not have happened. The durable runtime treats that as *unknown* and asks the receiver by
      operation key; the naive loop guesses "failed" and calls again. Jepsen's Maelstrom calls
      such an operation *info*; FoundationDB calls it `commit_unknown_result`.
    - **Memory is not a record.** Under `crash-after-record` the naive worker had the result, in
      memory, and lost it with the process: same duplicate.
    - **Real engines behave like the naive loop unless the effect is idempotent.** Temporal
      documents this exact case (activity succeeds, worker crashes before reporting, duplicate
      charge) and recommends an idempotency key of Workflow Run ID + Activity ID enforced by the
      called service; DBOS and Inngest re-execute a step whose result was not checkpointed.
    - Try `request-lost` and `response-lost`: the naive loop's blind retry is safe in one and
      duplicates in the other, and from inside the worker the two look identical.
    """)
    return


@app.cell(hide_code=True)
def _(mo):
    # The section's heading and its first fold in one cell, never a cell of Markdown alone:
    # marimo shows such a cell before any other cell runs, and the presenter view opened on the
    # first slide it had, this one, and stayed there (tests/browser/test_presenter.py).
    mo.vstack(
        [
            mo.md(r"""
    ## Does the model tell the truth?

    Everything above is a model. The **reference implementation** (`asyncfail/reference/`) runs
    both runtimes on real parts, killed at the same points, and sets each case beside the model.
    """),
            mo.accordion(
                {
                    "**How the reference implementation runs it on real parts**": mo.md(r"""
    - a **worker process** per delivery, with a real HTTP client and a real timeout; the durable
      one writes its dispatch intent to its own SQLite journal *before* the call, and looks the
      key up at the receiver *before* any second call;
    - a **receiver process** serving the debit over HTTP on 127.0.0.1, with its ledger and
      idempotency records in SQLite;
    - a **durable queue** in SQLite with a visibility timeout and a delivery budget.

    The faults are real: a crash is the worker killing itself with `SIGKILL` at the named point;
    a lost request or reply is a receiver that goes silent until the worker's timeout fires; a
    receiver crash is the receiver killing itself between the debit and its record.
    `asyncfail verify` runs every fault under both runtimes, with each key, record and receiver
    setting, reads the real ledger, journal and queue afterwards, and sets each case beside the
    model.
    """)
                }
            ),
        ]
    )
    return


@app.cell
def _(mo, verification):
    # Only a lesson served by CPython can start processes: exports and the browser never can.
    live_run = (
        mo.ui.run_button(label="Run the verification here")
        if verification.live_chance(mo.app_meta().request) is verification.LiveChance.CAN_RUN
        else None
    )
    return (live_run,)


@app.cell
def _(get_revealed, live_run, mo, verification):
    # The recorded table gives every case's outcome, the predicted ones included.
    mo.vstack(
        [
            verification.verdict_view(mo, verification.recorded())
            if get_revealed()
            else mo.md("*The recorded table shows once you commit your guess.*"),
            # Folded where the page cannot run it: then it only says how to, from a checkout
            # (in the WebAssembly page made when opened: verification.live_view).
            verification.live_view(mo, live_run is not None, mo.app_meta().request),
            *([] if live_run is None else [live_run]),
        ]
    )
    return


@app.cell
def _(live_run, mo, verification):
    mo.stop(live_run is None or not live_run.value)
    # Reached only after the button, which exists only where processes can start.
    from asyncfail.reference import live as _live

    _cases = len(_live.default_cases())
    try:
        with mo.status.progress_bar(
            total=_cases, title=verification.running(_cases), remove_on_exit=True
        ) as _bar:
            _document = _live.run(lambda _done, _total: _bar.update())
    except _live.ReferenceFailure as _failure:
        _view = mo.callout(
            mo.md(f"**The reference implementation could not run here.** {_failure}"),
            kind="danger",
        )
    else:
        _view = verification.verdict_view(mo, verification.from_document(_document, date=None))
    _view
    return


@app.cell(hide_code=True)
def _(mo):
    mo.accordion(
        {
            "**What the table shows, and what it does not**": mo.md(r"""
    - **Attempts, effects and outcome are counted on real state**: deliveries in the queue, rows
      in the ledger, the journal's result. The model's definitions read them the same way.
    - **The workers' exits are the crashes**: `SIGKILL` where the model records
      `ProcessCrashed`. Nothing in the worker's memory survives it, so the durable runtime's
      journal is all it has.
    - **What it does not show**: the settings it cannot run for real (retention, outages, two
      workers) keep the seed's values, and one run per case shows what happened, not everything
      that could; timing it never exercised stays the model's claim.
    """)
        }
    )
    return


@app.cell(hide_code=True)
def check_question(Question):
    question = Question(
        prompt=(
            "Under `crash-after-effect`, what lets the durable runtime's second attempt avoid a "
            "second debit?"
        ),
        options=(
            "It retries more slowly than the naive loop.",
            "It looks the stable operation key up at the receiver before calling the tool again.",
            "Its worker does not crash.",
            "The receiver rejects every second request.",
        ),
        answer=(
            "It looks the stable operation key up at the receiver before calling the tool again."
        ),
        explanation=(
            "The crash happens in both runtimes and both get a second delivery. Only the "
            "durable runtime treats the missing result as unknown and reconciles by key: the "
            "lookup finds the debit, so it records the result instead of repeating the effect."
        ),
    )
    return (question,)


@app.cell
def _(mo, page, question):
    understanding = page.check_radio(mo, question)
    return (understanding,)


@app.cell
def _(get_revealed, mo, page, question, snapshot, understanding):
    # The check's question names what the durable runtime avoids: asked after the guess.
    page.check(mo, question, understanding, snapshot) if get_revealed() else mo.md("")
    return


if __name__ == "__main__":
    app.run()
