"""Read the review handoff the model writes

The reliability review handoff, generated from both runtimes under the fault you pick: every
figure in it is the model's.
"""

import marimo

__generated_with = "0.25.2"
app = marimo.App(width="medium", app_title="Review handoff")


@app.cell
def _():
    import marimo as mo

    return (mo,)


@app.cell
def _():
    from asyncfail.charts.sequence_drawing import sequence_view
    from asyncfail.course import page, reveal
    from asyncfail.course.catalog import lesson
    from asyncfail.ground.quiz import Question
    from asyncfail.ground.seed import BEFORE_REPLAY, RECOMMENDATIONS, Priority
    from asyncfail.lab.faults import Fault, describe_fault
    from asyncfail.lab.scenario import MODE_TITLES, SEED_FAULT, Mode
    from asyncfail.review.handoff import build_review
    from asyncfail.review.runtimes import REVIEWED_MODES

    return (
        BEFORE_REPLAY,
        Fault,
        MODE_TITLES,
        Mode,
        Priority,
        Question,
        RECOMMENDATIONS,
        REVIEWED_MODES,
        SEED_FAULT,
        build_review,
        describe_fault,
        lesson,
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
    page.heading(mo, lesson("08_review_handoff"), snapshot)
    return


@app.cell(hide_code=True)
def recall_question(Question):
    # Retrieval practice: one question on an earlier lesson, before this one's new material.
    earlier = "lesson 7"
    recall = Question(
        prompt="What does the readiness checklist make of a question left blank?",
        options=(
            "It counts it as met.",
            "It treats it as unknown: neither met nor broken.",
            "It counts it as failed.",
        ),
        answer="It treats it as unknown: neither met nor broken.",
        explanation=(
            "The checklist credits only what a design states and calls nothing broken "
            "that it was not told: every blank is an unknown, a question to take to the "
            "review."
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
    This is the sample reliability review handoff, generated now from running both runtimes
    under one fault: every figure and event in it is the model's, and every sentence about where
    the failure struck is read off the two traces. Pick another fault to read the same review of
    a different failure. Under *More settings*, put a durable engine's step (as DBOS, Restate or
    Temporal run one, lesson 9) under review in the naive loop's place.

    A handoff ends in a decision. Draft it first, as the reviewer would, then compare your
    draft with the one the model writes.
    """)
    return


@app.cell
def _(BEFORE_REPLAY, Priority, RECOMMENDATIONS):
    # The model's decision: its P0 recommendations and its conditions before a replay.
    model_p0 = [r.title for r in RECOMMENDATIONS.values() if r.priority is Priority.P0]
    model_replay = list(BEFORE_REPLAY)
    # Offered in alphabetical order, so the seed's order gives nothing away; the replay
    # conditions mixed with moves a hurried operator makes, which the model does not ask for.
    p0_options = sorted(r.title for r in RECOMMENDATIONS.values())
    replay_options = sorted(
        [
            *BEFORE_REPLAY,
            "Raise the retry limit so the replay gets through.",
            "Give the replayed operation a fresh operation key.",
            "Clear the idempotency records so the replay starts clean.",
        ]
    )
    return model_p0, model_replay, p0_options, replay_options


@app.cell
def _(mo, p0_options, replay_options, snapshot):
    draft = (
        mo.md(
            "**Draft the decision first.**\n\n"
            "Which recommendations are **P0**, to fix before anything else? {p0}\n\n"
            "What must hold **before anyone replays** the operation? {replay}"
        )
        .batch(
            p0=mo.ui.multiselect(options=p0_options, full_width=True, disabled=snapshot),
            replay=mo.ui.multiselect(options=replay_options, full_width=True, disabled=snapshot),
        )
        .form(submit_button_label="Compare my draft", bordered=True)
    )
    return (draft,)


@app.cell
def _(mo, reveal, snapshot):
    skip_prediction = reveal.skip_switch(mo, "Skip drafting: show the handoff", snapshot)
    return (skip_prediction,)


@app.cell
def _(draft, mo, page, reveal, skip_prediction, snapshot):
    revealed, _asking = reveal.ask(
        mo,
        draft,
        skip_prediction,
        snapshot,
        note="*Static snapshot: the handoff is shown without the drafting step. Open the "
        "interactive page to draft the decision first.*",
    )
    _asking
    return (revealed,)


@app.cell
def _(Fault, SEED_FAULT, mo, snapshot):
    handoff_fault = mo.ui.dropdown(
        options=[f.value for f in Fault],
        value=SEED_FAULT.value,
        label="Fault the handoff reviews",
        disabled=snapshot,
    )
    return (handoff_fault,)


@app.cell
def _(MODE_TITLES, REVIEWED_MODES, mo, snapshot):
    # The runtime under review: the seed's naive loop, or an engine's step in its place; the
    # durable runtime is the other side of every handoff.
    handoff_mode = mo.ui.radio(
        options={MODE_TITLES[m]: m.value for m in REVIEWED_MODES},
        value=MODE_TITLES[REVIEWED_MODES[0]],
        label="Runtime under review, beside the durable runtime",
        disabled=snapshot,
    )
    return (handoff_mode,)


@app.cell
def _(
    Fault,
    Mode,
    build_review,
    describe_fault,
    draft,
    handoff_fault,
    handoff_mode,
    mo,
    model_p0,
    model_replay,
    page,
    reveal,
    revealed,
    sequence_view,
):
    review = build_review(Fault(handoff_fault.value), mode=Mode(handoff_mode.value))
    _evidence = mo.hstack(
        [page.chart(mo, *sequence_view(r, width=340)) for r in review.runs],
        widths="equal",
        gap=2,
        align="start",
    )
    _compared = (
        [
            reveal.set_callout(mo, "P0", draft.value["p0"], model_p0),
            reveal.set_callout(mo, "Before a replay", draft.value["replay"], model_replay),
        ]
        if draft.value is not None
        else []
    )
    _fault = [
        handoff_fault,
        mo.md(f"*{describe_fault(Fault(handoff_fault.value))}*"),
        mo.accordion({"**More settings**: the runtime under review": handoff_mode}),
    ]
    _name = "-".join([handoff_fault.value, *([] if review.mode is Mode.NAIVE else [review.mode])])
    _waiting = mo.callout(
        mo.md("Compare your draft, or switch on *skip drafting*, to read the handoff."),
        kind="neutral",
    )
    mo.vstack([*_fault, _waiting]) if not revealed else mo.vstack(
        [
            *_fault,
            *_compared,
            mo.download(
                data=review.markdown().encode("utf-8"),
                filename=f"review-handoff-{_name}.md",
                mimetype=page.MARKDOWN_MIME,
                label="Download the handoff (Markdown)",
            ),
            mo.md("**The evidence, message by message** (the same runs the handoff reports):"),
            _evidence,
            # Folded: the whole handoff is four screens long; the decision is compared above.
            mo.accordion({"**Read the whole handoff**": mo.Html(review.html(standalone=False))}),
        ]
    )
    return


@app.cell(hide_code=True)
def check_question(Question):
    question = Question(
        prompt=(
            "In the handoff for `response-lost`, the naive loop debits twice within one "
            "delivery attempt. Why?"
        ),
        options=(
            "The channel delivered the operation twice.",
            "After the timeout it called the tool again, but the receiver had already applied "
            "the debit: the reply was lost, not the request.",
            "The durable runtime crashed and the naive loop took over.",
        ),
        answer="After the timeout it called the tool again, but the receiver had already "
        "applied the debit: the reply was lost, not the request.",
        explanation=(
            "A timeout does not say which message was lost. The naive loop treats it as a "
            "failure and retries in the same delivery, so attempts stay at one while effects "
            "become two; the durable runtime looks the operation key up instead and finds the "
            "debit."
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
