"""Take the replay-readiness checklist to your own design

Describe your own design and get a readiness report, with your retention and replay window run
through the contract experiment.
"""

import marimo

__generated_with = "0.25.2"
app = marimo.App(width="medium", app_title="Replay readiness")


@app.cell
def _():
    import marimo as mo

    return (mo,)


@app.cell
def _():
    from asyncfail.charts.heatmap import overview_axis
    from asyncfail.charts.heatmap_drawing import heatmap_drawing
    from asyncfail.charts.tables import heatmap_table
    from asyncfail.contract.sweep import sweep_retention
    from asyncfail.contract.terms import SCOPE_WORDS
    from asyncfail.course import lesson07_readiness_checklist as lesson07
    from asyncfail.course import page, reveal
    from asyncfail.course.catalog import lesson
    from asyncfail.document.html_page import html_text
    from asyncfail.ground.quiz import Question
    from asyncfail.ground.seed import RecommendationId
    from asyncfail.readiness.design import (
        HINTS,
        MAX_TEXT,
        QUESTIONS,
        UNKNOWN_SCOPE,
        Role,
        design_from_answers,
    )
    from asyncfail.readiness.report import assess

    return (
        HINTS,
        MAX_TEXT,
        QUESTIONS,
        Question,
        RecommendationId,
        Role,
        SCOPE_WORDS,
        UNKNOWN_SCOPE,
        assess,
        design_from_answers,
        heatmap_drawing,
        heatmap_table,
        html_text,
        lesson,
        lesson07,
        overview_axis,
        page,
        reveal,
        sweep_retention,
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
    page.heading(mo, lesson("07_readiness_checklist"), snapshot)
    return


@app.cell(hide_code=True)
def recall_question(Question):
    # Retrieval practice: one question on an earlier lesson, before this one's new material.
    earlier = "lesson 6"
    recall = Question(
        prompt="What decides how long idempotency records must live?",
        options=(
            "The typical replay delay.",
            "The late replays: the tail of the replay delays.",
            "The number of workers.",
        ),
        answer="The late replays: the tail of the replay delays.",
        explanation=(
            "Most replays come soon, but the duplicate risk is set by the few that come "
            "much later: a retention must outlast the delays you will actually see, not "
            "the typical one."
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
    The lab's durable runtime was safe **under its assumptions**; the readiness checklist asks a
    design for each of them and says which of the sample handoff's recommendations it meets.
    Assess a team's design by hand first, then your own.
    """)
    return


@app.cell
def _(lesson07):
    team = lesson07.team_report()
    return (team,)


@app.cell
def _(lesson07, mo, snapshot):
    prediction = lesson07.prediction_form(mo, snapshot)
    return (prediction,)


@app.cell
def _(mo, reveal, snapshot):
    skip_prediction = reveal.skip_switch(
        mo, "Skip predicting: show the checklist's answers and your report", snapshot
    )
    return (skip_prediction,)


@app.cell
def _(lesson07, mo, page, prediction, reveal, skip_prediction, snapshot, team):
    revealed, _asking = reveal.ask(
        mo,
        prediction,
        skip_prediction,
        snapshot,
        note="*Static snapshot: the checklist's answers are shown without the prediction "
        "step. Open the interactive page to predict first.*",
    )
    # The team's answers beside the question on them: both on the first screen.
    mo.vstack(
        [
            mo.md("**A team's design.** A team has answered every question of the checklist:"),
            mo.hstack([mo.md(lesson07.team_table(team)), _asking], widths="equal", gap=1.5),
        ]
    )
    return (revealed,)


@app.cell
def _(lesson07, mo, prediction, revealed, team):
    # The checklist's answer on the team's design: after the guess only.
    lesson07.team_answer(mo, team, lesson07.chosen(prediction.value)) if revealed else mo.callout(
        mo.md(
            "Commit your prediction, or switch on *skip predicting*, to see the checklist's "
            "answers for the team's design and the report on your own."
        ),
        kind="neutral",
    )
    return


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    ## Your design

    Answer what you know; leave the rest as *unknown* (a blank duration is unknown too). Your
    answers stay in this page's memory: nothing is written to the address bar or sent anywhere,
    and the report downloads as a file made in your browser.
    """)
    return


@app.cell
def _(lesson07, mo, snapshot):
    key_across_attempts = lesson07.answer_control(mo, "key_across_attempts", snapshot)
    return (key_across_attempts,)


@app.cell
def _(QUESTIONS, SCOPE_WORDS, UNKNOWN_SCOPE, mo, snapshot):
    key_scope = mo.ui.dropdown(
        options={text: scope.value for scope, text in SCOPE_WORDS.items()}
        | {UNKNOWN_SCOPE: UNKNOWN_SCOPE},
        value=UNKNOWN_SCOPE,
        label=QUESTIONS["key_scope"],
        disabled=snapshot,
    )
    return (key_scope,)


@app.cell
def _(lesson07, mo, snapshot):
    unknown_outcome_separate = lesson07.answer_control(mo, "unknown_outcome_separate", snapshot)
    return (unknown_outcome_separate,)


@app.cell
def _(lesson07, mo, snapshot):
    lookup_by_key = lesson07.answer_control(mo, "lookup_by_key", snapshot)
    return (lookup_by_key,)


@app.cell
def _(lesson07, mo, snapshot):
    retention_amount = lesson07.amount_control(mo, "retention", snapshot)
    return (retention_amount,)


@app.cell
def _(lesson07, mo, snapshot):
    retention_unit = lesson07.unit_control(mo, snapshot)
    return (retention_unit,)


@app.cell
def _(lesson07, mo, snapshot):
    window_amount = lesson07.amount_control(mo, "replay_window", snapshot)
    return (window_amount,)


@app.cell
def _(lesson07, mo, snapshot):
    window_unit = lesson07.unit_control(mo, snapshot)
    return (window_unit,)


@app.cell
def _(lesson07, mo, snapshot):
    fingerprint_compared = lesson07.answer_control(mo, "fingerprint_compared", snapshot)
    return (fingerprint_compared,)


@app.cell
def _(MAX_TEXT, Role, mo, snapshot):
    pause_owner = mo.ui.text(
        placeholder="a role or a team",
        label=Role.PAUSE_OWNER.question,
        full_width=True,
        max_length=MAX_TEXT,
        disabled=snapshot,
    )
    return (pause_owner,)


@app.cell
def _(MAX_TEXT, Role, mo, snapshot):
    replay_approver = mo.ui.text(
        placeholder="a role or a team",
        label=Role.REPLAY_APPROVER.question,
        full_width=True,
        max_length=MAX_TEXT,
        disabled=snapshot,
    )
    return (replay_approver,)


@app.cell
def _(MAX_TEXT, Role, mo, snapshot):
    state_verifier = mo.ui.text(
        placeholder="a role or a team",
        label=Role.STATE_VERIFIER.question,
        full_width=True,
        max_length=MAX_TEXT,
        disabled=snapshot,
    )
    return (state_verifier,)


@app.cell
def _(
    HINTS,
    fingerprint_compared,
    key_across_attempts,
    key_scope,
    lookup_by_key,
    mo,
    pause_owner,
    replay_approver,
    retention_amount,
    retention_unit,
    state_verifier,
    unknown_outcome_separate,
    window_amount,
    window_unit,
):
    # One folded section per part of the design: the questions take one screen, not three,
    # above the report.
    mo.vstack(
        [
            mo.accordion(
                {
                    "**1. The operation key**": mo.vstack([key_across_attempts, key_scope]),
                    "**2. A result nobody saw**": mo.vstack(
                        [unknown_outcome_separate, lookup_by_key]
                    ),
                    "**3. How long records live, and how late replays come**": mo.vstack(
                        [
                            mo.hstack([retention_amount, retention_unit], justify="start"),
                            mo.md(f"<small>{HINTS['retention']}</small>"),
                            mo.hstack([window_amount, window_unit], justify="start"),
                            mo.md(f"<small>{HINTS['replay_window']}</small>"),
                            fingerprint_compared,
                        ]
                    ),
                    "**4. Who owns recovery?**": mo.hstack(
                        [pause_owner, replay_approver, state_verifier], widths="equal"
                    ),
                },
                multiple=True,
            ),
        ]
    )
    return


@app.cell
def _(
    design_from_answers,
    fingerprint_compared,
    key_across_attempts,
    key_scope,
    lookup_by_key,
    pause_owner,
    replay_approver,
    retention_amount,
    retention_unit,
    state_verifier,
    unknown_outcome_separate,
    window_amount,
    window_unit,
):
    design, input_errors = design_from_answers(
        {
            "key_across_attempts": key_across_attempts.value,
            "key_scope": key_scope.value,
            "unknown_outcome_separate": unknown_outcome_separate.value,
            "lookup_by_key": lookup_by_key.value,
            "retention": (retention_amount.value, retention_unit.value),
            "replay_window": (window_amount.value, window_unit.value),
            "fingerprint_compared": fingerprint_compared.value,
            "pause_owner": pause_owner.value,
            "replay_approver": replay_approver.value,
            "state_verifier": state_verifier.value,
        }
    )
    return design, input_errors


@app.cell
def _(assess, design, input_errors, lesson07, mo, page, revealed):
    report = assess(design)
    _errors = [
        page.errors(mo, input_errors, kind="danger", lead="**Not read; treated as unknown.**")
    ]
    # An unreadable answer is said at once; the report waits for the guess on the team's design.
    mo.vstack(
        [
            mo.md("## Your readiness report"),
            *_errors,
            mo.md("*Your report shows once you commit your prediction above, or skip it.*"),
        ]
    ) if not revealed else mo.vstack(
        [
            mo.md("## Your readiness report"),
            *_errors,
            mo.download(
                data=report.markdown().encode("utf-8"),
                filename="replay-readiness.md",
                mimetype=page.MARKDOWN_MIME,
                label="Download the report (Markdown)",
            ),
            mo.md(lesson07.status_table(report)),
            # Folded: the whole report is three screens long; its verdicts are in the table.
            mo.accordion({"**Read the whole report**": mo.Html(report.html(standalone=False))}),
        ]
    )
    return (report,)


@app.cell
def _(
    RecommendationId,
    heatmap_drawing,
    heatmap_table,
    mo,
    overview_axis,
    page,
    report,
    revealed,
    sweep_retention,
):
    mo.stop(not revealed)
    # The retention check already ran your numbers through the contract experiment: chart that
    # very run (its scenario), over the retentions and delays around it.
    _probes = report.check(RecommendationId.RETENTION_COVERS_REPLAY).probes
    if _probes:
        _scenario = _probes[0].result.scenario
        _axis = overview_axis(_scenario)
        _sweep = sweep_retention(_scenario, _axis, _axis)
        _view = mo.vstack(
            [
                mo.md(
                    "### Your retention against your replay window\n\n"
                    "The ring is a replay as late as your longest replay window, against your "
                    "retention; below the dashed diagonal the record is still there."
                ),
                page.chart(
                    mo,
                    heatmap_drawing(_sweep, "Your retention and replay window"),
                    heatmap_table(_sweep),
                ),
            ]
        )
    else:
        _view = mo.md(
            "*Give both the retention and the longest replay window to see whether a late "
            "replay can become a second debit.*"
        )
    _view
    return


@app.cell(hide_code=True)
def check_question(Question):
    question = Question(
        prompt=(
            "Deduplication records are kept for 24 hours, and an operator may replay an "
            "abandoned delivery exactly 24 hours after the first request. Under the seed's "
            "boundary convention, does the retention cover that replay?"
        ),
        options=(
            "Yes: 24 hours is at least as long as 24 hours.",
            "No: at exactly the boundary the record has already expired, so the replay is "
            "applied as a second debit.",
            "It depends on whether a request fingerprint is compared.",
        ),
        answer="No: at exactly the boundary the record has already expired, so the replay is "
        "applied as a second debit.",
        explanation=(
            "The seed's convention keeps a record only while the delay is strictly shorter than "
            "the retention, so records must outlive the longest replay window. (Under "
            "Powertools' convention, equal would be enough.) A fingerprint decides only what "
            "happens to a retained record, and this one is gone."
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
