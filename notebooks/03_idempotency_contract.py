"""Stress the idempotency contract

Key scope, fingerprints and the retention boundary: when is a second request a second debit?
"""

import marimo

__generated_with = "0.25.2"
app = marimo.App(width="medium", app_title="Stress the idempotency contract")


@app.cell
def _():
    import marimo as mo

    return (mo,)


@app.cell
def _():
    from asyncfail.charts.heatmap import overview_axis
    from asyncfail.charts.specs import retention_heatmap_spec
    from asyncfail.charts.tables import heatmap_table
    from asyncfail.contract.experiment import evaluate
    from asyncfail.contract.requests import SECOND_WORDS
    from asyncfail.contract.sweep import sweep_around_boundary, sweep_retention
    from asyncfail.contract.terms import (
        BOUNDARY_WORDS,
        DISPOSITION_LABEL,
        EFFECTS_LABEL,
        ONE_INTENT_LABEL,
        POLICY_WORDS,
        PROFILE_NAMES,
        RECORD_LABEL,
        SCOPE_WORDS,
        ContractProfile,
    )
    from asyncfail.course import contract_lesson as words
    from asyncfail.course import page
    from asyncfail.course.catalog import lesson
    from asyncfail.course.questions import CONTRACT_QUESTION
    from asyncfail.document.markdown import md_text

    return (
        BOUNDARY_WORDS,
        CONTRACT_QUESTION,
        ContractProfile,
        DISPOSITION_LABEL,
        EFFECTS_LABEL,
        ONE_INTENT_LABEL,
        POLICY_WORDS,
        PROFILE_NAMES,
        RECORD_LABEL,
        SCOPE_WORDS,
        SECOND_WORDS,
        evaluate,
        heatmap_table,
        lesson,
        md_text,
        overview_axis,
        page,
        retention_heatmap_spec,
        sweep_around_boundary,
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
    mo.vstack([page.heading(mo, lesson("03_idempotency_contract"), snapshot), mo.md(words.INTRO)])
    return


@app.cell
def _(ContractProfile, mo, snapshot, words):
    profile = mo.ui.dropdown(
        options={words.profile_label(p): p.value for p in ContractProfile},
        value=words.profile_label(words.DEFAULTS.profile),
        label=words.PROFILE_LABEL,
        disabled=snapshot,
    )
    return (profile,)


@app.cell
def _(ContractProfile, profile, words):
    # Every knob's control starts at what the chosen profile's system does.
    start = words.controls_for(ContractProfile(profile.value))
    return (start,)


@app.cell
def _(SCOPE_WORDS, mo, snapshot, start, words):
    scope = mo.ui.radio(
        options={text: scope.value for scope, text in SCOPE_WORDS.items()},
        value=SCOPE_WORDS[start.scope],
        label=words.SCOPE_LABEL,
        disabled=snapshot,
    )
    return (scope,)


@app.cell
def _(SECOND_WORDS, mo, snapshot, words):
    second = mo.ui.radio(
        options={text: second.value for second, text in SECOND_WORDS.items()},
        value=SECOND_WORDS[words.DEFAULTS.second],
        label=words.SECOND_LABEL,
        disabled=snapshot,
    )
    return (second,)


@app.cell
def _(POLICY_WORDS, mo, snapshot, start, words):
    policy = mo.ui.radio(
        options={text: policy.value for policy, text in POLICY_WORDS.items()},
        value=POLICY_WORDS[start.policy],
        label=words.POLICY_LABEL,
        disabled=snapshot,
    )
    return (policy,)


@app.cell
def _(mo, snapshot, start, words):
    retention = mo.ui.text(
        value=words.seconds_text(start),
        placeholder=words.SECONDS_PLACEHOLDER,
        label=words.RETENTION_LABEL,
        disabled=snapshot,
    )
    return (retention,)


@app.cell
def _(mo, snapshot, words):
    delay = mo.ui.text(
        value=words.DELAY_TEXT,
        placeholder=words.SECONDS_PLACEHOLDER,
        label=words.DELAY_LABEL,
        disabled=snapshot,
    )
    return (delay,)


@app.cell
def _(BOUNDARY_WORDS, mo, snapshot, start, words):
    boundary = mo.ui.radio(
        options={text: b.value for b, text in BOUNDARY_WORDS.items()},
        value=BOUNDARY_WORDS[start.boundary],
        label=words.BOUNDARY_LABEL,
        disabled=snapshot,
    )
    return (boundary,)


@app.cell
def _(boundary, delay, mo, policy, profile, retention, scope, second):
    mo.vstack(
        [
            profile,
            mo.hstack([scope, second], widths="equal", align="start"),
            mo.hstack([policy, boundary], widths="equal", align="start"),
            mo.hstack([retention, delay], widths="equal", align="start"),
        ]
    )
    return


@app.cell
def _(
    boundary,
    delay,
    evaluate,
    policy,
    profile,
    retention,
    scope,
    second,
    words,
):
    scenario, input_errors = words.scenario_from_controls(
        {
            "profile": profile.value,
            "second": second.value,
            "scope": scope.value,
            "policy": policy.value,
            "boundary": boundary.value,
        },
        retention.value,
        delay.value,
    )
    result = evaluate(scenario)
    return input_errors, result, scenario


@app.cell
def _(
    DISPOSITION_LABEL,
    EFFECTS_LABEL,
    ONE_INTENT_LABEL,
    PROFILE_NAMES,
    RECORD_LABEL,
    input_errors,
    md_text,
    mo,
    result,
    words,
):
    _notes = [
        mo.callout(mo.md(f"{words.INPUT_NOT_READ} {md_text(e)}"), kind="warn") for e in input_errors
    ]
    if result.departures:
        _title = words.DEPARTURES_TITLE.format(profile=PROFILE_NAMES[result.scenario.profile])
        _notes.append(
            mo.callout(
                mo.md("\n".join([_title, *(f"- {md_text(d)}" for d in result.departures)])),
                kind="info",
            )
        )
    mo.vstack(
        [
            *_notes,
            mo.callout(
                mo.md(f"### {result.finding.value}"),
                kind="success" if result.correct else "danger",
            ),
            mo.hstack(
                [
                    mo.stat(result.record.value, label=RECORD_LABEL, bordered=True),
                    mo.stat(
                        result.disposition.value,
                        label=DISPOSITION_LABEL,
                        caption=words.rejection_caption(result),
                        bordered=True,
                    ),
                    mo.stat(result.effects, label=EFFECTS_LABEL, bordered=True),
                    mo.stat(
                        words.YES_NO[result.one_intent],
                        label=ONE_INTENT_LABEL,
                        bordered=True,
                    ),
                ],
                widths="equal",
            ),
            mo.md(f"*{result.boundary_rule}*"),
            mo.md(words.requests_table(result)),
        ]
    )
    return


@app.cell
def _(
    heatmap_table,
    mo,
    overview_axis,
    page,
    retention_heatmap_spec,
    scenario,
    sweep_around_boundary,
    sweep_retention,
    words,
):
    _axis = overview_axis(scenario)
    overview = sweep_retention(scenario, _axis, _axis)
    zoom = sweep_around_boundary(scenario, radius_seconds=words.ZOOM_RADIUS_SECONDS)
    mo.vstack(
        [
            mo.md(words.BOUNDARY_TEXT),
            mo.hstack(
                [
                    page.chart(mo, retention_heatmap_spec(sweep, title), heatmap_table(sweep))
                    for sweep, title in (
                        (overview, words.OVERVIEW_TITLE),
                        (zoom, words.ZOOM_TITLE),
                    )
                ],
                widths="equal",
                gap=2,
                align="start",
            ),
        ]
    )
    return


@app.cell(hide_code=True)
def _(mo, words):
    mo.md(words.NOTICE)
    return


@app.cell
def _(CONTRACT_QUESTION, mo, page):
    understanding = page.check_radio(mo, CONTRACT_QUESTION)
    return (understanding,)


@app.cell
def _(CONTRACT_QUESTION, mo, page, snapshot, understanding):
    page.check(mo, CONTRACT_QUESTION, understanding, snapshot)
    return


if __name__ == "__main__":
    app.run()
