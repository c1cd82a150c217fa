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
    from asyncfail.charts.specs import retention_heatmap_spec
    from asyncfail.charts.tables import heatmap_table
    from asyncfail.contract.sweep import sweep_retention
    from asyncfail.contract.terms import SCOPE_WORDS
    from asyncfail.course import page
    from asyncfail.course import readiness_lesson as words
    from asyncfail.course.catalog import lesson
    from asyncfail.course.questions import READINESS_QUESTION
    from asyncfail.document.html_page import html_text
    from asyncfail.ground.seed import RecommendationId
    from asyncfail.readiness.design import (
        HINTS,
        QUESTIONS,
        UNKNOWN_SCOPE,
        Role,
        design_from_answers,
    )
    from asyncfail.readiness.report import assess

    return (
        HINTS,
        QUESTIONS,
        READINESS_QUESTION,
        RecommendationId,
        Role,
        SCOPE_WORDS,
        UNKNOWN_SCOPE,
        assess,
        design_from_answers,
        heatmap_table,
        html_text,
        lesson,
        overview_axis,
        page,
        retention_heatmap_spec,
        sweep_retention,
        words,
    )


@app.cell
def _(mo):
    # `marimo export html ... -- --snapshot` (the published static page) says it is a snapshot
    # and shows the check's answer; served or edited, the lesson is live.
    snapshot = "snapshot" in mo.cli_args()
    return (snapshot,)


@app.cell(hide_code=True)
def _(lesson, mo, page, snapshot, words):
    mo.vstack([page.heading(mo, lesson("07_readiness_checklist"), snapshot), mo.md(words.INTRO)])
    return


@app.cell
def _(mo, snapshot, words):
    key_across_attempts = words.answer_control(mo, "key_across_attempts", snapshot)
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
def _(mo, snapshot, words):
    unknown_outcome_separate = words.answer_control(mo, "unknown_outcome_separate", snapshot)
    return (unknown_outcome_separate,)


@app.cell
def _(mo, snapshot, words):
    lookup_by_key = words.answer_control(mo, "lookup_by_key", snapshot)
    return (lookup_by_key,)


@app.cell
def _(mo, snapshot, words):
    retention_amount = words.amount_control(mo, "retention", snapshot)
    return (retention_amount,)


@app.cell
def _(mo, snapshot, words):
    retention_unit = words.unit_control(mo, snapshot)
    return (retention_unit,)


@app.cell
def _(mo, snapshot, words):
    window_amount = words.amount_control(mo, "replay_window", snapshot)
    return (window_amount,)


@app.cell
def _(mo, snapshot, words):
    window_unit = words.unit_control(mo, snapshot)
    return (window_unit,)


@app.cell
def _(mo, snapshot, words):
    fingerprint_compared = words.answer_control(mo, "fingerprint_compared", snapshot)
    return (fingerprint_compared,)


@app.cell
def _(Role, mo, snapshot, words):
    pause_owner = mo.ui.text(
        placeholder=words.OWNER_PLACEHOLDER, label=Role.PAUSE_OWNER.question, full_width=True,
        disabled=snapshot,
    )
    return (pause_owner,)


@app.cell
def _(Role, mo, snapshot, words):
    replay_approver = mo.ui.text(
        placeholder=words.OWNER_PLACEHOLDER, label=Role.REPLAY_APPROVER.question, full_width=True,
        disabled=snapshot,
    )
    return (replay_approver,)


@app.cell
def _(Role, mo, snapshot, words):
    state_verifier = mo.ui.text(
        placeholder=words.OWNER_PLACEHOLDER, label=Role.STATE_VERIFIER.question, full_width=True,
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
    words,
):
    mo.vstack(
        [
            mo.md(words.DESIGN_TITLE),
            key_across_attempts,
            key_scope,
            unknown_outcome_separate,
            lookup_by_key,
            mo.hstack([retention_amount, retention_unit], justify="start"),
            mo.md(f"<small>{HINTS['retention']}</small>"),
            mo.hstack([window_amount, window_unit], justify="start"),
            mo.md(f"<small>{HINTS['replay_window']}</small>"),
            fingerprint_compared,
            mo.md(words.OWNERS_TITLE),
            mo.hstack([pause_owner, replay_approver, state_verifier], widths="equal"),
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
def _(assess, design, html_text, input_errors, mo, page, words):
    report = assess(design)
    _errors = [
        mo.callout(
            mo.Html(f"<strong>{html_text(words.INPUT_ERROR)}</strong> {html_text(e)}"),
            kind="danger",
        )
        for e in input_errors
    ]
    _label, _filename = words.REPORT_DOWNLOAD
    mo.vstack(
        [
            mo.md(words.REPORT_TITLE),
            *_errors,
            mo.download(
                data=report.markdown().encode("utf-8"),
                filename=_filename,
                mimetype=page.MARKDOWN_MIME,
                label=_label,
            ),
            mo.Html(report.html(standalone=False)),
        ]
    )
    return (report,)


@app.cell
def _(
    RecommendationId,
    heatmap_table,
    mo,
    overview_axis,
    page,
    report,
    retention_heatmap_spec,
    sweep_retention,
    words,
):
    # The retention check already ran your numbers through the contract experiment: chart that
    # very run (its scenario), over the retentions and delays around it.
    _probes = report.check(RecommendationId.RETENTION_COVERS_REPLAY).probes
    if _probes:
        _scenario = _probes[0].result.scenario
        _axis = overview_axis(_scenario)
        _sweep = sweep_retention(_scenario, _axis, _axis)
        _view = mo.vstack(
            [
                mo.md(words.RETENTION_CHART_TEXT),
                page.chart(
                    mo,
                    retention_heatmap_spec(_sweep, words.RETENTION_CHART_TITLE),
                    heatmap_table(_sweep),
                ),
            ]
        )
    else:
        _view = mo.md(words.RETENTION_CHART_MISSING)
    _view
    return


@app.cell
def _(READINESS_QUESTION, mo, page):
    understanding = page.check_radio(mo, READINESS_QUESTION)
    return (understanding,)


@app.cell
def _(READINESS_QUESTION, mo, page, snapshot, understanding):
    page.check(mo, READINESS_QUESTION, understanding, snapshot)
    return


if __name__ == "__main__":
    app.run()
