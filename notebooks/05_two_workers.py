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
    from asyncfail.charts.sequence_drawing import sequence_view
    from asyncfail.charts.specs import time_timeline_spec
    from asyncfail.charts.tables import timeline_table
    from asyncfail.course import controls, page, reveal
    from asyncfail.course import lesson05_two_workers as lesson05
    from asyncfail.course.catalog import lesson
    from asyncfail.ground.durations import MAX_DURATION_TEXT
    from asyncfail.ground.quiz import Question
    from asyncfail.lab.scenario import command_lines
    from asyncfail.lab.simulation import simulate_each_mode

    return (
        MAX_DURATION_TEXT,
        Mode,
        Question,
        command_lines,
        controls,
        lesson,
        lesson05,
        page,
        reveal,
        simulate_each_mode,
        sequence_view,
        time_timeline_spec,
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
    page.heading(mo, lesson("05_two_workers"), snapshot)
    return


@app.cell(hide_code=True)
def recall_question(Question):
    # Retrieval practice: one question on an earlier lesson, before this one's new material.
    earlier = "lesson 4"
    recall = Question(
        prompt="For each invariant a run breaks, what does the explorer report?",
        options=(
            "The chance that a random run breaks it.",
            (
                "The smallest counterexample: fewest injections, then fewest events, with"
                " its command."
            ),
            "The first run it found, however long.",
        ),
        answer=(
            "The smallest counterexample: fewest injections, then fewest events, with its command."
        ),
        explanation=(
            "The explorer runs every fault plan up to its bound and keeps the smallest "
            "run that breaks each invariant: a real run of the lab that a command "
            "replays."
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
    A worker is slow, not dead: a garbage-collection pause, a stalled network call. Its
    **lease** on the delivery runs out while it is still working, so the channel hands the same
    operation to a **second worker**. Now two workers hold it, and neither knows about the
    other.

    Choose where worker 1 stalls and which safeguards are on, predict, then watch both workers
    on the timeline: each has its own lane, each delivery's lease is a green band, the stall a
    grey one.
    """)
    return


@app.cell
def _(MAX_DURATION_TEXT, controls, lesson05, mo, snapshot):
    _stalls = lesson05.stall_options()
    stall = mo.ui.dropdown(
        options=_stalls,
        value=next(k for k, v in _stalls.items() if v == lesson05.DEFAULT_STALL.value),
        label="**Worker 1 stalls**",
        disabled=snapshot,
    )
    pause = mo.ui.text(
        value=str(lesson05.PAUSE_TEXT),
        max_length=MAX_DURATION_TEXT,
        label=f"{controls.setting_label('pause')} (seconds)",
        disabled=snapshot,
    )
    lease = mo.ui.text(
        value=str(lesson05.LEASE_TEXT),
        max_length=MAX_DURATION_TEXT,
        label=f"{controls.setting_label('lease')} (seconds)",
        disabled=snapshot,
    )
    safeguards = mo.ui.dictionary(
        {
            name: mo.ui.dropdown(
                options=controls.choice_options(name),
                value=controls.choice_options(name)[0],
                label=controls.setting_label(name),
                disabled=snapshot,
            )
            for name in lesson05.SAFEGUARDS
        }
    )
    # One control first, where worker 1 stalls; the timing and the safeguards wait, folded,
    # for a learner who wants to change one.
    mo.vstack(
        [
            stall,
            mo.accordion(
                {
                    "**More settings**: the stall, the lease and the safeguards": mo.vstack(
                        [
                            mo.hstack([pause, lease], justify="start", gap=2),
                            mo.md(
                                "**Safeguards** (the durable runtime's; the naive loop uses none)"
                            ),
                            *(safeguards[name] for name in lesson05.SAFEGUARDS),
                        ]
                    )
                }
            ),
        ]
    )
    return lease, pause, safeguards, stall


@app.cell
def _(lease, lesson05, mo, page, pause, safeguards):
    # The timing and the safeguards, apart from the stall: the explorer below asks about these
    # alone, so moving the stall does not ask it again.
    settings, _errors = lesson05.settings_from_controls(pause.value, lease.value, safeguards.value)
    page.errors(mo, _errors)
    return (settings,)


@app.cell
def _(mo, reveal):
    prediction = reveal.prediction_form(
        mo,
        "**Predict first.** With two workers, how many debits reach the ledger? "
        "Naive runtime: {naive} Durable runtime: {durable}",
    )
    return (prediction,)


@app.cell
def _(mo, reveal, snapshot):
    skip_prediction = reveal.skip_switch(
        mo, "Skip predicting: show the runs as the settings change", snapshot
    )
    return (skip_prediction,)


@app.cell
def _(mo, prediction, reveal, skip_prediction, snapshot):
    revealed, _asking = reveal.ask(mo, prediction, skip_prediction, snapshot)
    _asking
    return (revealed,)


@app.cell
def _(
    command_lines,
    lesson05,
    mo,
    page,
    prediction,
    reveal,
    revealed,
    sequence_view,
    settings,
    simulate_each_mode,
    stall,
    time_timeline_spec,
    timeline_table,
):
    # The runs, and all that shows them, in one cell: a stall's change re-runs this cell alone
    # (in the WebAssembly page every re-run cell costs marimo's machinery 10-15 ms).
    scenario = lesson05.stalled(stall.value, settings)
    results = simulate_each_mode(scenario)
    # The sequence view first (who sent what to whom), then the leases and the stall in time.
    _runs = reveal.reveal(
        mo,
        revealed,
        "Commit a guess for each runtime, or switch on *skip predicting*, to see the runs.",
        results,
        prediction.value,
        # The two views of a run as two tabs, the sequence view first: one screen, not two.
        extra=lambda result: [
            mo.ui.tabs(
                {
                    "Message by message": page.chart(mo, *sequence_view(result, width=380)),
                    # Drawn when its tab opens: a change redraws the tab on screen.
                    "Against time": page.on_open(
                        mo,
                        lambda: page.chart(
                            mo, time_timeline_spec(result, width=380), timeline_table(result)
                        ),
                    ),
                }
            )
        ],
        above=[mo.md("## Both workers, message by message, then against time")],
        feedback_first=True,
    )
    mo.vstack(
        [
            _runs,
            # Made when the fold opens: a change does not highlight commands nobody opened.
            page.fold(
                mo,
                "**The same runs in a terminal**",
                lambda: mo.md(f"```sh\n{command_lines(scenario)}\n```"),
            ),
        ]
    )
    return results, scenario


@app.cell
def _(
    Mode,
    lesson05,
    mo,
    page,
    revealed,
    settings,
    simulate_each_mode,
    snapshot,
    time_timeline_spec,
    timeline_table,
):
    if revealed:
        with mo.status.spinner(title="Exploring every plan"):
            _found = lesson05.explored(settings)
        _text, _example, _command = lesson05.verdict(_found)
        _parts = [mo.md("## Could a stall elsewhere still debit twice?"), mo.md(_text)]
        if _example is not None and _command is not None:
            _label = "**The smallest such run**, and the command that replays it"

            def _run():
                _result = simulate_each_mode(_example)[Mode.DURABLE]
                return mo.vstack(
                    [
                        mo.md(f"```sh\n{_command}\n```"),
                        page.chart(
                            mo, time_timeline_spec(_result, width=560), timeline_table(_result)
                        ),
                    ]
                )

            # Folded, and made when the fold opens: the page stays under a few screens, and a
            # change redraws no run nobody opened. A snapshot, a document to read, shows it (a
            # chart in a closed fold would be drawn at no size).
            _parts.append(
                mo.vstack([mo.md(_label), _run()]) if snapshot else page.fold(mo, _label, _run)
            )
        _view = mo.vstack(_parts)
    else:
        _view = mo.md("")
    _view
    return


@app.cell(hide_code=True)
def _(mo, revealed):
    # What to notice says which stalls debit twice: after the guess only.
    mo.md(r"""
    ## What to notice

    *What to notice shows once you commit your guess.*
    """) if not revealed else mo.md(r"""
    ## What to notice

    - **Slow is not dead.** No crash, no lost message: a stall longer than the lease is enough
      for the naive loop to debit twice.
    - **A lease is checked before the act, not during it.** With a claim, a worker that stalls
      before dispatching finds its claim gone and stops; one whose request stalls after the
      check still lands (Martin Kleppmann's point about leases).
    - **Fencing makes the resource check.** Each claim carries a larger token and the receiver
      refuses an older one, so the stale request is turned away at the ledger's door.
    - **Fencing orders writes; it does not deduplicate them.** Without a claim check, two
      workers that both looked before either wrote can both write, in token order. Ask the
      explorer for two stalls.
    - **The receiver's in-progress record** turns the second request away with 409, *retry
      later*: not a failure and not a duplicate.
    """)
    return


@app.cell(hide_code=True)
def check_question(Question):
    question = Question(
        prompt=(
            "The durable runtime claims the operation with a lease and checks the claim right "
            "before it dispatches. Worker 1's request stalls at the receiver after that check, "
            "past the lease, and worker 2 takes over. What keeps the debit single?"
        ),
        options=(
            "Nothing more is needed: the claim check already stopped worker 1.",
            "A fencing token the receiver checks, or a receiver that refuses a key already in "
            "progress: the check must happen where the debit happens.",
            "A longer pause.",
        ),
        answer="A fencing token the receiver checks, or a receiver that refuses a key already "
        "in progress: the check must happen where the debit happens.",
        explanation=(
            "The claim check was passed before the stall, so worker 1 does not know it lost the "
            "operation. Only the receiver sees both requests: with fencing it refuses the older "
            "token, with an in-progress record it tells the second request to retry later."
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
