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
    from asyncfail.charts.tables import heatmap_table
    from asyncfail.contract.experiment import evaluate
    from asyncfail.contract.requests import SECOND_WORDS
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
    from asyncfail.course import lesson03_idempotency_contract as lesson03
    from asyncfail.course import page, reveal, warmup
    from asyncfail.course.catalog import lesson
    from asyncfail.document.markdown import md_text
    from asyncfail.ground.durations import MAX_DURATION_TEXT
    from asyncfail.ground.quiz import Question

    return (
        BOUNDARY_WORDS,
        ContractProfile,
        DISPOSITION_LABEL,
        EFFECTS_LABEL,
        MAX_DURATION_TEXT,
        ONE_INTENT_LABEL,
        POLICY_WORDS,
        PROFILE_NAMES,
        Question,
        RECORD_LABEL,
        SCOPE_WORDS,
        SECOND_WORDS,
        evaluate,
        heatmap_table,
        lesson,
        lesson03,
        md_text,
        page,
        reveal,
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
    page.heading(mo, lesson("03_idempotency_contract"), snapshot)
    return


@app.cell(hide_code=True)
def recall_question(Question):
    # Retrieval practice: one question on an earlier lesson, before this one's new material.
    earlier = "lesson 2"
    recall = Question(
        prompt=(
            "A record kept 60 s met a redelivery 60 s after the first delivery. Why did "
            "the durable runtime debit twice?"
        ),
        options=(
            "The operation key changed between deliveries.",
            "The record had expired, so the lookup found nothing and the runtime called again.",
            "The lookup service was down.",
        ),
        answer="The record had expired, so the lookup found nothing and the runtime called again.",
        explanation=(
            "Under the seed's convention a record no longer counts at its retention "
            "boundary: the lookup honestly found nothing. Records must outlive the last "
            "redelivery."
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
    The Async Failure Lab assumes a **stable key** and a **retained record**. This separate
    two-request experiment relaxes those assumptions at the receiver. Request 1 (tenant-a /
    order-42, 1200 minor units) is applied and its idempotency record is committed with the
    debit; request 2 arrives later. Does the receiver reuse the first result, reject the
    request, or apply a second debit?

    All requests are fictional. The experiment's inputs stay in page memory: they are never
    written to the address bar, a file, or anywhere else.
    """)
    return


@app.cell
def _(ContractProfile, lesson03, mo, snapshot):
    profile = mo.ui.dropdown(
        options={lesson03.profile_label(p): p.value for p in ContractProfile},
        value=lesson03.profile_label(lesson03.DEFAULTS.profile),
        label="**Contract profile**: how a rejected reuse is reported",
        disabled=snapshot,
    )
    return (profile,)


@app.cell
def second_request(MAX_DURATION_TEXT, SECOND_WORDS, lesson03, mo, snapshot):
    # The second request is the experiment's, not the profile's: one pair for every profile,
    # made here, not with the knobs. The experiment's cell shows it in the knobs' fold as
    # `second_request_row`, a layout made once here.
    second = mo.ui.radio(
        options={text: second.value for second, text in SECOND_WORDS.items()},
        value=SECOND_WORDS[lesson03.DEFAULTS.second],
        label="**Second request**: fictional requests only.",
        disabled=snapshot,
    )
    delay = mo.ui.text(
        value=lesson03.DELAY_TEXT,
        placeholder="seconds, e.g. 3600 or 0.5",
        max_length=MAX_DURATION_TEXT,
        label="**Second request after (seconds)**",
        disabled=snapshot,
    )
    second_request_row = mo.hstack([second, delay], widths="equal", align="start")
    return delay, second, second_request_row


@app.cell
def knobs(
    BOUNDARY_WORDS,
    ContractProfile,
    MAX_DURATION_TEXT,
    POLICY_WORDS,
    SCOPE_WORDS,
    lesson03,
    mo,
    reveal,
    snapshot,
):
    # Every knob a profile sets, starting at what its system does, and the prediction, made
    # once for every profile by a cell no control re-runs: the experiment's cell below shows
    # the chosen profile's, so a new profile re-runs that one cell and makes no control (each
    # cell a change re-runs, and each control it makes, costs the WebAssembly page). A new
    # profile asks afresh; a guess stays with the profile it answers, and a knob keeps what a
    # learner set it to under its profile (changing a knob afterwards updates the result
    # without asking again).
    outcome_words = {
        "reused": "It reuses the first result: no second debit.",
        "conflict": "It refuses request 2 as a conflict: no second debit.",
        "applied": "It applies request 2: a second debit.",
    }

    def _radio(words, chosen, label):
        # A knob among a closed set: each option in its words, starting at the profile's.
        return mo.ui.radio(
            options={text: term.value for term, text in words.items()},
            value=words[chosen],
            label=label,
            disabled=snapshot,
        )

    def _knobs(start):
        return mo.ui.dictionary(
            {
                "scope": _radio(
                    SCOPE_WORDS,
                    start.scope,
                    "**Idempotency key scope**: a delivery attempt is not the identity of a "
                    "business intent.",
                ),
                "policy": _radio(
                    POLICY_WORDS,
                    start.policy,
                    "**Retained payload conflict policy**: does the receiver compare fingerprints?",
                ),
                "boundary": _radio(
                    BOUNDARY_WORDS,
                    start.boundary,
                    "**Boundary convention**: at exactly the retention boundary, is the record "
                    "there?",
                ),
                "retention": mo.ui.text(
                    value=lesson03.seconds_text(start),
                    placeholder="seconds, e.g. 3600 or 0.5",
                    max_length=MAX_DURATION_TEXT,
                    label=(
                        "**Idempotency retention (seconds)**: only the record expires, never "
                        "the effect"
                    ),
                    disabled=snapshot,
                ),
            }
        )

    knob_sets = mo.ui.dictionary(
        {p.value: _knobs(lesson03.controls_for(p)) for p in ContractProfile}
    )
    predictions = mo.ui.dictionary(
        {
            p.value: reveal.choice_form(
                mo,
                "**Predict first.** With these settings, what does the receiver do with request 2?",
                list(outcome_words.values()),
            )
            for p in ContractProfile
        }
    )
    return knob_sets, outcome_words, predictions


@app.cell
def _(ContractProfile, lesson03, mo, snapshot, warmup):
    # The heatmaps' titles, and every profile's heatmaps made as the page starts (warmup.warm):
    # a profile picked the first time then finds made the slowest part of its result.
    heatmap_titles = ("Overview", "Zoom: the seconds around the boundary")
    warmup.warm(
        mo,
        snapshot,
        lambda value: lesson03.heatmaps(
            lesson03.profile_scenario(ContractProfile(value)), heatmap_titles
        ),
        [p.value for p in ContractProfile],
    )
    return (heatmap_titles,)


@app.cell
def _(mo, reveal, snapshot):
    skip_prediction = reveal.skip_switch(
        mo, "Skip predicting: show the result as the knobs change", snapshot
    )
    return (skip_prediction,)


@app.cell
def _(mo):
    # Whether the guess is in, for the cells further down that wait for it but read no
    # control: set only when it changes (reveal.keep_revealed), so a change reruns none of them.
    get_revealed, set_revealed = mo.state(False)
    return get_revealed, set_revealed


@app.cell
def experiment(
    DISPOSITION_LABEL,
    EFFECTS_LABEL,
    ONE_INTENT_LABEL,
    PROFILE_NAMES,
    RECORD_LABEL,
    delay,
    evaluate,
    get_revealed,
    heatmap_table,
    heatmap_titles,
    knob_sets,
    lesson03,
    md_text,
    mo,
    outcome_words,
    page,
    predictions,
    profile,
    reveal,
    second,
    second_request_row,
    set_revealed,
    skip_prediction,
    snapshot,
):
    # The profile with its knobs, the question, the experiment, its result and its heatmaps in
    # one cell: a change of any control re-runs this cell alone, so the page answers sooner.
    _knobs, _set = knob_sets[profile.value], knob_sets.value[profile.value]
    prediction = predictions[profile.value]
    revealed, _asking = reveal.ask(mo, prediction, skip_prediction, snapshot)
    reveal.keep_revealed(revealed, get_revealed, set_revealed)
    scenario, input_errors = lesson03.scenario_from_controls(
        {
            "profile": profile.value,
            "second": second.value,
            "scope": _set["scope"],
            "policy": _set["policy"],
            "boundary": _set["boundary"],
        },
        _set["retention"],
        delay.value,
    )
    # One control first, the profile the guess is about; the knobs it sets wait, folded, for a
    # learner who wants to change one.
    _settings = mo.vstack(
        [
            profile,
            mo.accordion(
                {
                    "**More settings**: the second request, the key scope, the fingerprint "
                    "policy, the boundary convention and the durations": mo.vstack(
                        [
                            second_request_row,
                            mo.hstack(
                                [_knobs["scope"], _knobs["policy"]], widths="equal", align="start"
                            ),
                            mo.hstack(
                                [_knobs["boundary"], _knobs["retention"]],
                                widths="equal",
                                align="start",
                            ),
                        ]
                    )
                }
            ),
        ]
    )
    result = evaluate(scenario)
    _notes = [page.errors(mo, input_errors, lead="**Not read; the profile's value is used.**")]
    if result.departures:
        _title = f"**Not what {PROFILE_NAMES[result.scenario.profile]} does:**"
        _notes.append(
            mo.callout(
                mo.md("\n".join([_title, *(f"- {md_text(d)}" for d in result.departures)])),
                kind="info",
            )
        )
    if not revealed:
        _shown = [
            *_notes,
            mo.callout(
                mo.md("Commit your prediction, or switch on *skip predicting*, to see the result."),
                kind="neutral",
            ),
        ]
    else:
        _judged = (
            [reveal.choice_callout(mo, prediction.value, outcome_words[result.disposition.value])]
            if prediction.value is not None
            else []
        )
        # Every cell of the heatmaps is a result, the predicted one included: after the guess.
        _heatmaps = lesson03.heatmaps(scenario, heatmap_titles)
        _shown = [
            *_notes,
            *_judged,
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
                        caption=lesson03.rejection_caption(result),
                        bordered=True,
                    ),
                    mo.stat(result.effects, label=EFFECTS_LABEL, bordered=True),
                    mo.stat(
                        "yes" if result.one_intent else "no",
                        label=ONE_INTENT_LABEL,
                        bordered=True,
                    ),
                ],
                widths="equal",
            ),
            mo.md(f"*{result.boundary_rule}*"),
            mo.md(lesson03.requests_table(result)),
            mo.md(
                "## The retention boundary\n\n"
                "Every cell is the same experiment with another retention and delay; the dashed "
                "diagonal is the exact boundary (delay = retention) and the ring marks your "
                "inputs. The right-hand view zooms into the seconds around your retention, where "
                "the boundary convention decides the diagonal."
            ),
            mo.hstack(
                [
                    # A heatmap's table is made when its fold opens: a change redraws the
                    # drawings (kept per scenario), not two tables nobody opened.
                    page.chart(mo, drawing, lambda sweep=sweep: heatmap_table(sweep))
                    for sweep, drawing in _heatmaps
                ],
                widths="equal",
                gap=2,
                align="start",
            ),
        ]
    mo.vstack([_settings, _asking, *_shown])
    return input_errors, prediction, result, revealed, scenario


@app.cell(hide_code=True)
def _(get_revealed, mo):
    # What to notice says what each knob does to request 2: after the guess only.
    mo.md(r"""
    ## What to notice

    *What to notice shows once you commit your prediction.*
    """) if not get_revealed() else mo.md(r"""
    ## What to notice

    - **Key scope is identity.** With a key per delivery attempt the receiver never finds the
      first record, so the same intent is applied twice at any delay. Dapr's activity execution
      id changes on each retry, which is exactly this mistake.
    - **A key without the tenant leaks results.** With the operation id alone, tenant-b's
      order-42 hits tenant-a's record: without a fingerprint it receives tenant-a's result. The
      IETF draft's security note asks for keys combined with client-specific attributes.
    - **Ignoring the fingerprint hides conflicts.** AWS Lambda Powertools validates payloads only
      when configured; the draft asks for 422, Stripe returns an `idempotency_error`, Brandur
      Leach's design a 409.
    - **Retention expiry does not make repeating an effect correct.** Stripe prunes keys after
      24 h, Brandur Leach's reaper after 72 h, Powertools after 3600 s by default: a retry or a
      manual replay after that is a new request. The boundary convention only decides the
      instant delay = retention exactly: under the seed's convention records must outlive every
      replay window (strictly longer); under Powertools' and Brandur Leach's, equal is enough.

    *Identity experiment boundaries: two sequential requests; the record and effect commit
    atomically; a canonical tuple stands in for a request fingerprint, not a production
    cryptographic hash; concurrent claims (the draft's and Stripe's 409 for a request still in
    flight) are not modeled.*
    """)
    return


@app.cell(hide_code=True)
def check_question(Question):
    question = Question(
        prompt=(
            "The key is the delivery attempt id, retention is 3600 s, and the same intent "
            "arrives again 60 s later. What does the receiver do?"
        ),
        options=(
            "It reuses the retained result: 60 s is well within the retention.",
            "It applies the debit a second time.",
            "It rejects the request with 422.",
        ),
        answer="It applies the debit a second time.",
        explanation=(
            "The second delivery attempt has a new id, so no record was ever stored under its "
            "key: it was never stored, not expired, and no retention can help. The key must "
            "identify the business intent, (tenant, operation), not the delivery."
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
