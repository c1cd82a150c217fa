"""Take the replay-readiness checklist to your own design

Describe your own design and get a readiness report; read the review handoff the model writes.
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
    from asyncfail.charts import VegaLite, retention_heatmap_spec, timeline_spec
    from asyncfail.faults import FAULT_DESCRIPTIONS, Fault
    from asyncfail.heatmap import describe_heatmap, overview_axis
    from asyncfail.readiness import (
        MAX_TEXT,
        Answer,
        CheckId,
        ReplayDesign,
        ScopeAnswer,
        TimeUnit,
        assess,
        duration_from_text,
    )
    from asyncfail.retention_sweep import sweep_retention
    from asyncfail.review import build_review
    from asyncfail.review_markup import html_text
    from asyncfail.timeline import describe_timeline

    return (
        Answer,
        CheckId,
        FAULT_DESCRIPTIONS,
        Fault,
        MAX_TEXT,
        ReplayDesign,
        ScopeAnswer,
        TimeUnit,
        VegaLite,
        assess,
        build_review,
        describe_heatmap,
        describe_timeline,
        duration_from_text,
        html_text,
        overview_axis,
        retention_heatmap_spec,
        sweep_retention,
        timeline_spec,
    )


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    # Take the replay-readiness checklist to your own design

    The lab's durable runtime was safe **under its assumptions**: one key carried across every
    delivery attempt, an unknown outcome kept apart from a failure, a lookup by key at the
    effect boundary, records retained for the whole replay window, and people who own the
    replay. Describe your own design below and the checklist tells you which of the sample
    handoff's recommendations it meets, in your own terms, running your retention and replay
    window through the idempotency contract experiment.

    Answer what you know; leave the rest as *unknown*. Your answers stay in this page's memory:
    nothing is written to the address bar or sent anywhere, and the report downloads as a file
    made in your browser.
    """)
    return


@app.cell
def _(Answer, mo):
    key_across_attempts = mo.ui.radio(
        options=[a.value for a in Answer],
        value=Answer.UNKNOWN.value,
        inline=True,
        label="Is **one operation key** carried across every delivery attempt?",
    )
    return (key_across_attempts,)


@app.cell
def _(ScopeAnswer, mo):
    key_scope = mo.ui.dropdown(
        options={
            "the delivery attempt (a new id per attempt)": ScopeAnswer.ATTEMPT.value,
            "the business operation id alone": ScopeAnswer.OPERATION.value,
            "the tenant and the business operation": ScopeAnswer.TENANT_OPERATION.value,
            "unknown": ScopeAnswer.UNKNOWN.value,
        },
        value="unknown",
        label="What does the key identify?",
    )
    return (key_scope,)


@app.cell
def _(Answer, mo):
    unknown_outcome_separate = mo.ui.radio(
        options=[a.value for a in Answer],
        value=Answer.UNKNOWN.value,
        inline=True,
        label="Is an **unknown outcome** represented separately from *failed*?",
    )
    return (unknown_outcome_separate,)


@app.cell
def _(Answer, mo):
    lookup_by_key = mo.ui.radio(
        options=[a.value for a in Answer],
        value=Answer.UNKNOWN.value,
        inline=True,
        label="Can the worker **look the key up** at the effect boundary before calling again?",
    )
    return (lookup_by_key,)


@app.cell
def _(mo):
    retention_amount = mo.ui.text(
        placeholder="e.g. 24 (blank: unknown)",
        label="Deduplication records are retained for",
    )
    return (retention_amount,)


@app.cell
def _(TimeUnit, mo):
    retention_unit = mo.ui.dropdown(
        options=[u.value for u in TimeUnit], value=TimeUnit.HOURS.value, label="unit"
    )
    return (retention_unit,)


@app.cell
def _(mo):
    window_amount = mo.ui.text(
        placeholder="e.g. 72 (blank: unknown)",
        label="The longest replay window (how late a retry or manual replay can come)",
    )
    return (window_amount,)


@app.cell
def _(TimeUnit, mo):
    window_unit = mo.ui.dropdown(
        options=[u.value for u in TimeUnit], value=TimeUnit.HOURS.value, label="unit"
    )
    return (window_unit,)


@app.cell
def _(Answer, mo):
    fingerprint_compared = mo.ui.radio(
        options=[a.value for a in Answer],
        value=Answer.UNKNOWN.value,
        inline=True,
        label="Is a **request fingerprint** compared when a key is reused?",
    )
    return (fingerprint_compared,)


@app.cell
def _(MAX_TEXT, mo):
    pause_owner = mo.ui.text(
        placeholder="a role or a team", max_length=MAX_TEXT, label="Who can pause dispatch?"
    )
    return (pause_owner,)


@app.cell
def _(MAX_TEXT, mo):
    replay_approver = mo.ui.text(
        placeholder="a role or a team", max_length=MAX_TEXT, label="Who approves a replay?"
    )
    return (replay_approver,)


@app.cell
def _(MAX_TEXT, mo):
    state_verifier = mo.ui.text(
        placeholder="a role or a team",
        max_length=MAX_TEXT,
        label="Who verifies the final business state?",
    )
    return (state_verifier,)


@app.cell
def _(
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
    mo.vstack(
        [
            mo.md("## Your design"),
            key_across_attempts,
            key_scope,
            unknown_outcome_separate,
            lookup_by_key,
            mo.hstack([retention_amount, retention_unit], justify="start"),
            mo.hstack([window_amount, window_unit], justify="start"),
            fingerprint_compared,
            mo.md("**Who owns recovery?**"),
            mo.hstack([pause_owner, replay_approver, state_verifier], widths="equal"),
        ]
    )
    return


@app.cell
def _(
    ReplayDesign,
    duration_from_text,
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
    input_errors = []
    durations = {}
    for _field, _label, _amount, _unit in (
        ("retention", "Retention", retention_amount, retention_unit),
        ("replay_window", "Replay window", window_amount, window_unit),
    ):
        try:
            durations[_field] = duration_from_text(_label, _amount.value, _unit.value)
        except ValueError as _error:
            input_errors.append(str(_error))
            durations[_field] = None
    design = ReplayDesign(
        key_across_attempts=key_across_attempts.value,
        key_scope=key_scope.value,
        unknown_outcome_separate=unknown_outcome_separate.value,
        lookup_by_key=lookup_by_key.value,
        fingerprint_compared=fingerprint_compared.value,
        pause_owner=pause_owner.value,
        replay_approver=replay_approver.value,
        state_verifier=state_verifier.value,
        **durations,
    )
    return design, input_errors


@app.cell
def _(assess, design, html_text, input_errors, mo):
    report = assess(design)
    _errors = [
        mo.callout(
            mo.Html(f"<strong>Not read; treated as unknown.</strong> {html_text(e)}"),
            kind="danger",
        )
        for e in input_errors
    ]
    mo.vstack(
        [
            mo.md("## Your readiness report"),
            *_errors,
            mo.md(report.summary()),
            mo.download(
                data=report.markdown().encode("utf-8"),
                filename="replay-readiness.md",
                mimetype="text/markdown",
                label="Download the report (Markdown)",
            ),
            mo.Html(report.html(standalone=False)),
        ]
    )
    return (report,)


@app.cell
def _(
    CheckId,
    VegaLite,
    describe_heatmap,
    mo,
    overview_axis,
    report,
    retention_heatmap_spec,
    sweep_retention,
):
    # The retention check already ran your numbers through the contract experiment: chart that
    # very run (its scenario), over the retentions and delays around it.
    _probes = report.check(CheckId.RETENTION_COVERS_REPLAY).probes
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
                VegaLite(retention_heatmap_spec(_sweep, "Your retention and replay window")),
                mo.md(f"<small>{describe_heatmap(_sweep)}</small>"),
            ]
        )
    else:
        _view = mo.md(
            "*Give both the retention and the longest replay window to see whether a late "
            "replay can become a second debit.*"
        )
    _view
    return


@app.cell
def _(Fault, mo):
    handoff_fault = mo.ui.dropdown(
        options=[f.value for f in Fault],
        value=Fault.CRASH_AFTER_EFFECT.value,
        label="Fault the handoff reviews",
    )
    return (handoff_fault,)


@app.cell
def _(
    FAULT_DESCRIPTIONS,
    Fault,
    VegaLite,
    build_review,
    describe_timeline,
    handoff_fault,
    mo,
    timeline_spec,
):
    review = build_review(Fault(handoff_fault.value))
    _evidence = mo.hstack(
        [
            mo.vstack(
                [
                    VegaLite(timeline_spec(r, width=340)),
                    mo.md(f"<small>{describe_timeline(r)}</small>"),
                ]
            )
            for r in review.runs
        ],
        widths="equal",
        gap=2,
    )
    mo.vstack(
        [
            mo.md(
                "## The model's own case: the review handoff\n\n"
                "This is the sample handoff, generated now from running both runtimes: every "
                "figure and event in it is the model's. Pick another fault to see the same "
                "review of a different failure."
            ),
            handoff_fault,
            mo.md(f"*{FAULT_DESCRIPTIONS[Fault(handoff_fault.value)]}*"),
            mo.download(
                data=review.markdown().encode("utf-8"),
                filename=f"review-handoff-{handoff_fault.value}.md",
                mimetype="text/markdown",
                label="Download the handoff (Markdown)",
            ),
            mo.md("**The evidence, as timelines** (the same runs the handoff reports):"),
            _evidence,
            mo.Html(review.html(standalone=False)),
        ]
    )
    return


if __name__ == "__main__":
    app.run()
