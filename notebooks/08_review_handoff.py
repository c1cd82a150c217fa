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
    from asyncfail.course import handoff_lesson as words
    from asyncfail.course import page
    from asyncfail.course.catalog import lesson
    from asyncfail.course.questions import HANDOFF_QUESTION
    from asyncfail.lab.faults import Fault, describe_fault
    from asyncfail.review.handoff import build_review

    return (
        Fault,
        HANDOFF_QUESTION,
        build_review,
        describe_fault,
        lesson,
        page,
        timeline_spec,
        timeline_table,
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
    mo.vstack([page.heading(mo, lesson("08_review_handoff"), snapshot), mo.md(words.INTRO)])
    return


@app.cell
def _(Fault, mo, snapshot, words):
    handoff_fault = mo.ui.dropdown(
        options=[f.value for f in Fault],
        value=words.DEFAULT_FAULT.value,
        label=words.FAULT_LABEL,
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
    words,
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
                filename=words.FILE.format(fault=handoff_fault.value),
                mimetype=page.MARKDOWN_MIME,
                label=words.DOWNLOAD,
            ),
            mo.md(words.EVIDENCE_TITLE),
            _evidence,
            mo.Html(review.html(standalone=False)),
        ]
    )
    return


@app.cell
def _(HANDOFF_QUESTION, mo, page):
    understanding = page.check_radio(mo, HANDOFF_QUESTION)
    return (understanding,)


@app.cell
def _(HANDOFF_QUESTION, mo, page, snapshot, understanding):
    page.check(mo, HANDOFF_QUESTION, understanding, snapshot)
    return


if __name__ == "__main__":
    app.run()
