"""What does your engine do?

The seed's crash in a durable-execution engine: a plain step, a step with a key, and the
course's pattern, in the model and in DBOS.
"""

import marimo

__generated_with = "0.25.2"
app = marimo.App(width="medium", app_title="What does your engine do?")


@app.cell
def _():
    import marimo as mo

    return (mo,)


@app.cell
def _():
    from asyncfail.charts.sequence_drawing import sequence_view
    from asyncfail.course import lesson09_what_does_your_engine_do as engine_lesson
    from asyncfail.course import live, page, reveal
    from asyncfail.course.catalog import lesson
    from asyncfail.ground.quiz import Question
    from asyncfail.lab.faults import describe_fault

    return (
        Question,
        describe_fault,
        engine_lesson,
        lesson,
        live,
        page,
        reveal,
        sequence_view,
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
    page.heading(mo, lesson("09_what_does_your_engine_do"), snapshot)
    return


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    > **Does my engine already make the debit happen once?**

    If your work runs on a durable-execution engine (Temporal, DBOS, Restate, AWS Step
    Functions), this is the first question the course raises. The engine runs a **workflow** of
    **steps**, and writes each step's result to its journal (a **checkpoint**) *after the step
    returns*. When a worker dies, the engine recovers the workflow on another process: a step
    whose result is in the journal is not run again, its result is reused; a step without one
    runs again.
    """)
    return


@app.cell(hide_code=True)
def _(describe_fault, engine_lesson, mo):
    mo.md(
        f"The fault is the seed's, **{engine_lesson.FAULT.value}**: "
        f"{describe_fault(engine_lesson.FAULT)}"
    )
    return


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    Three ways to run the debit, each under that crash, each given up to three deliveries:

    - **Plain engine step**: the debit is a step; it sends no key; the receiver is the seed's,
      which debits every request and answers lookups.
    - **Step with a key at a deduplicating receiver**: the same step sends the stable key
      `debit:tenant-a:order-42:step-1`, and the receiver keeps one debit per key.
    - **The course's durable pattern** on the engine: the dispatch intent is a step of its own,
      written before the call; the debit's step looks the operation key up before it calls
      again after an unknown outcome.
    """)
    return


@app.cell
def _(engine_lesson, mo):
    prediction = engine_lesson.prediction_form(
        mo,
        "**Predict first.** Under the seed's crash, how many debits reach the ledger?\n\n"
        "- Plain engine step: {plain}\n"
        "- Step with a key at a deduplicating receiver: {keyed}\n"
        "- The course's durable pattern: {durable}",
        label="Commit my guesses",
    )
    return (prediction,)


@app.cell
def _(mo, reveal, snapshot):
    skip_prediction = reveal.skip_switch(
        mo, "Skip predicting: show the model's runs and DBOS's", snapshot
    )
    return (skip_prediction,)


@app.cell
def prediction_controls(mo, prediction, reveal, skip_prediction, snapshot):
    revealed, _asking = reveal.ask(mo, prediction, skip_prediction, snapshot)
    _asking
    return (revealed,)


@app.cell(hide_code=True)
def _(mo):
    # After the prediction, folded: the first screen holds the three runs and the question.
    mo.accordion(
        {
            "**How the lab runs an engine**": mo.md(r"""
    The lab runs this as a third runtime, `--mode checkpoint`: a journal written after the call
    returns, no dispatch intent, no lookup. The key the step sends is a setting: none, or a
    stable key made of the workflow id and the step's position (DBOS exposes both, as
    `DBOS.workflow_id` and `DBOS.step_id`), which only a receiver that deduplicates honours.
    """)
        }
    )
    return


@app.cell
def _(engine_lesson):
    results = engine_lesson.model_runs()
    table = engine_lesson.recorded()
    return results, table


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    ## The model and DBOS, side by side

    Each column is one way of running the debit: first what the model does, then what a real
    DBOS application did with the same crash, read back from its ledger and from DBOS's own
    tables. The application (`asyncfail/engines/dbos_app.py`, short enough to read) runs each
    delivery in a fresh process, with DBOS's journal in SQLite; the crash is the process
    killing itself with `SIGKILL` inside the step, after the debit's reply arrived and before
    the step returned; the next process starts DBOS, which recovers the workflow by itself.
    """)
    return


@app.cell
def comparison_panel(engine_lesson, mo, prediction, results, reveal, revealed, table):
    if revealed:
        _checks = (
            engine_lesson.judge(prediction.value, results) if prediction.value is not None else ()
        )
        _view = mo.vstack(
            [
                # The judged guesses side by side, as the runs are.
                mo.hstack(reveal.feedback(mo, _checks), widths="equal", gap=2, align="start"),
                engine_lesson.engine_view(mo, results, table),
            ]
        )
    else:
        _view = mo.callout(
            mo.md(
                "Commit a guess for each of the three runs, or switch on *skip predicting*, to "
                "see the model's runs and DBOS's."
            ),
            kind="neutral",
        )
    _view
    return


@app.cell
def _(engine_lesson, mo, snapshot):
    trace_choice = mo.ui.dropdown(
        options={run.name: run.field for run in engine_lesson.RUNS},
        value=engine_lesson.RUNS[0].name,
        label="Which run's trace",
        disabled=snapshot,
    )
    return (trace_choice,)


@app.cell
def trace_panel(mo, page, results, revealed, sequence_view, trace_choice):
    mo.stop(not revealed)
    _drawing, _rows = sequence_view(results[trace_choice.value])
    mo.vstack(
        [
            mo.md(
                "### The model's trace, message by message\n\n"
                "Each arrow is a message between the worker, its journal and the receiver; "
                "each delivery opens with an arrow from the channel."
            ),
            trace_choice,
            page.chart(mo, _drawing, _rows),
        ]
    )
    return


@app.cell(hide_code=True)
def _(mo, revealed):
    mo.stop(not revealed)
    mo.md(r"""
    ## Where the pattern stops protecting you

    - **A plain engine step debits twice.** The engine checkpoints a step *after it returns*.
      The crash came between the debit and the checkpoint, so the journal holds no result, and
      recovery runs the step again: a second debit, under the same workflow id and step id.
      DBOS says so in its documentation: steps are executed *at least once*. Restate ("the
      number of actual retries may be higher") and Temporal (an activity may run more than
      once) say the same of theirs.
    - **A key helps only where the receiver keeps it.** The stable step key makes the second
      call recognisable, and a deduplicating receiver answers it with the first debit. The same
      key at a receiver that does not deduplicate debits twice (row `crash-after-effect
      checkpoint stable lookup-only` of the table); a key with the delivery attempt in it is a
      new key every time.
    - **The durable pattern asks before it calls again.** Its intent is journaled before the
      call, so the recovered workflow knows the outcome is unknown, and looks the operation key
      up at the receiver: one debit, at a receiver that only answers lookups. It still rests on
      the assumptions lesson 2 breaks: a stable key, a record kept as long as replays come, and
      lookups that answer.
    - **After the checkpoint, the engine is enough.** Under `crash-after-record` (the crash
      after the step returned) every run debits once: the journal holds the result, and
      recovery reuses it.
    """)
    return


@app.cell(hide_code=True)
def _(mo, page):
    # Made when opened: its highlighted command cost the WebAssembly page's start some 60 ms
    # (Pygments finding its lexer), for a fold most readers leave shut.
    page.fold(
        mo,
        "**Run DBOS yourself**",
        lambda: mo.md(r"""
    The table is recorded by `make engine-record`, with the date, the DBOS version and the
    platform it ran on; `tests/engines/` compares a fresh run with it. From a checkout (after
    `make test` or `make lab` created `.venv`; a minute or two):

    ```sh
    .venv/bin/asyncfail verify --engine dbos --format text
    ```
    """),
    )
    return


@app.cell
def live_button(live, mo, revealed):
    # Only a lesson served by CPython can start processes: exports and the browser never can.
    # Offered once the runs are revealed: DBOS's debits are the answer to the prediction.
    live_run = (
        mo.ui.run_button(label="Run DBOS here")
        if revealed and live.live_chance(mo.app_meta().request) is live.LiveChance.CAN_RUN
        else None
    )
    live_run
    return (live_run,)


@app.cell
def _(engine_lesson, live_run, mo, results):
    mo.stop(live_run is None or not live_run.value)
    # Reached only after the button, which exists only where processes can start.
    from asyncfail.engines import live as _engine_live

    _cases = len(_engine_live.default_cases())
    try:
        with mo.status.progress_bar(
            total=_cases, title=engine_lesson.running(_cases), remove_on_exit=True
        ) as _bar:
            _document = _engine_live.run(lambda _done, _total: _bar.update())
    except (_engine_live.EngineUnavailable, _engine_live.ReferenceFailure) as _failure:
        # Not installed, another live run holding the server's one lock, or a part that
        # cannot start: one line, and the recorded table stays above.
        _view = mo.callout(mo.md(f"**DBOS could not run here.** {_failure}"), kind="danger")
    else:
        _view = engine_lesson.engine_view(
            mo, results, engine_lesson.from_document(_document, date=None)
        )
    _view
    return


@app.cell(hide_code=True)
def check_question(Question):
    question = Question(
        prompt=(
            "A DBOS workflow's debit step is killed after the debit succeeded and before the "
            "step returned. What does recovery do?"
        ),
        options=(
            "It reuses the step's checkpointed result: the debit happens once.",
            "It runs the step again, since no result was checkpointed: a second debit unless "
            "the receiver deduplicates the step's key.",
            "It marks the workflow failed and asks an operator.",
            "It looks the debit up at the receiver before calling again.",
        ),
        answer=(
            "It runs the step again, since no result was checkpointed: a second debit unless "
            "the receiver deduplicates the step's key."
        ),
        explanation=(
            "An engine checkpoints a step after it returns. A crash between the effect and the "
            "checkpoint leaves no result in the journal, so recovery re-runs the step: steps "
            "are at least once. A stable key at a deduplicating receiver, or the course's "
            "intent and lookup, is what keeps the second run from debiting again."
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
