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
    from asyncfail.charts.specs import timeline_spec
    from asyncfail.charts.tables import timeline_table
    from asyncfail.course import page
    from asyncfail.course.catalog import lesson
    from asyncfail.ground.quiz import Question
    from asyncfail.lab.faults import Fault, describe_fault
    from asyncfail.lab.scenario import SEED_FAULT
    from asyncfail.review.handoff import build_review

    return (
        Fault,
        Question,
        SEED_FAULT,
        build_review,
        describe_fault,
        lesson,
        page,
        timeline_spec,
        timeline_table,
    )


@app.cell
def _(mo, page):
    snapshot = page.is_snapshot(mo)
    return (snapshot,)


@app.cell(hide_code=True)
def _(lesson, mo, page, snapshot):
    page.heading(mo, lesson("08_review_handoff"), snapshot)
    return


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    This is the sample reliability review handoff, generated now from running both runtimes
    under one fault: every figure and event in it is the model's, and every sentence about where
    the failure struck is read off the two traces. Pick another fault to read the same review of
    a different failure.
    """)
    return


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
def _(
    Fault,
    build_review,
    describe_fault,
    handoff_fault,
    mo,
    page,
    timeline_spec,
    timeline_table,
):
    review = build_review(Fault(handoff_fault.value))
    _evidence = mo.hstack(
        [page.chart(mo, timeline_spec(r, width=340), timeline_table(r)) for r in review.runs],
        widths="equal",
        gap=2,
        align="start",
    )
    mo.vstack(
        [
            handoff_fault,
            mo.md(f"*{describe_fault(Fault(handoff_fault.value))}*"),
            mo.download(
                data=review.markdown().encode("utf-8"),
                filename=f"review-handoff-{handoff_fault.value}.md",
                mimetype=page.MARKDOWN_MIME,
                label="Download the handoff (Markdown)",
            ),
            mo.md(
                "**The evidence, as timelines** (the same runs the handoff reports):"
            ),
            _evidence,
            mo.Html(review.html(standalone=False)),
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
