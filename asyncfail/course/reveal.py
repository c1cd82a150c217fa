"""Predict, then reveal, as every lesson page asks it: the prediction form (two counts, or one
choice among a few), the skip switch, what the page shows while it waits, the reveal with each
runtime's counts and the feedback on the guess, and the state that tells the cells further down
that the answer is shown.

Each helper takes the ``marimo`` module as its first argument (the library never imports
marimo). The rules a guess is judged by are ``course.prediction``'s; a lesson's own words (its
prompts, its waiting note) are the lesson's: it hands them in.
"""

from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from typing import Any, Final

from asyncfail.course.prediction import (
    GUESS_RANGE,
    PredictionCheck,
    check_predictions,
    choice_feedback,
    set_feedback,
)
from asyncfail.lab.reading import Outcome
from asyncfail.lab.results import LabResult
from asyncfail.lab.scenario import Mode

# Predict, then reveal. The form and the switch each in a cell of its own, then one cell that
# asks and reveals, so marimo reruns only what a change touches and a test can substitute
# either control:
#
#     prediction = reveal.prediction_form(mo, PROMPT)          # {naive} and {durable} fields
#     skip_prediction = reveal.skip_switch(mo, SKIP, snapshot)
#     revealed, _asking = reveal.ask(mo, prediction, skip_prediction, snapshot)
#     mo.vstack([_asking, reveal.reveal(mo, revealed, WAITING, results, prediction.value)])
#
# Where the question changes with a choice (lesson 1's fault), one form per choice, made once
# (``prediction_forms``), and the cell that asks shows the choice's:
#
#     predictions = reveal.prediction_forms(mo, {fault: PROMPT.format(...) for fault in ...})
#     _form = predictions[fault.value]
#     revealed, _asking = reveal.ask(mo, _form, skip_prediction, snapshot)
#     mo.vstack([_asking, reveal.reveal(mo, revealed, WAITING, results, _form.value)])
#
# The cells further down that wait for the guess but read nothing a control changes (what to
# notice, a check) read a state instead of ``revealed`` (``keep_revealed``), so a change that
# leaves the reveal as it was reruns none of them.

DEFAULT_GUESS: Final = 1
"""Where each runtime's guess starts."""
COMMIT_LABEL: Final = "Commit my guess"
SNAPSHOT_NOTE: Final = (
    "*Static snapshot: the counts are shown without the prediction step. Open the interactive "
    "page to predict first.*"
)
RUNTIME_HEADING: Final = "### {mode} runtime"
ATTEMPTS_LABEL: Final = "Delivery attempts"
EFFECTS_LABEL: Final = "Business effects"
FIGURES_LINE: Final = "Tool calls {tool_calls} · lookups {lookups} · outcome **{outcome}**"
OUTCOME_KIND: Final[dict[Outcome, str]] = {
    Outcome.EXACTLY_ONCE: "success",
    Outcome.DUPLICATE: "danger",
    Outcome.LOST: "warn",
    Outcome.UNKNOWN: "warn",
    Outcome.PARKED: "info",
}
"""The callout kind of each outcome: a duplicate is danger, a lost or unknown one a warning, a
parked one (safe, waiting for an operator) information."""


def prediction_form(mo: Any, prompt: str, label: str = COMMIT_LABEL) -> Any:
    """The prediction form: ``prompt`` (Markdown) whose ``{naive}`` and ``{durable}`` become a
    number field each (a whole number in ``GUESS_RANGE``, starting at ``DEFAULT_GUESS``), and a
    button labelled ``label`` that commits both at once."""
    low, high = GUESS_RANGE

    def field() -> Any:
        return mo.ui.number(start=low, stop=high, step=1, value=DEFAULT_GUESS)

    return (
        mo.md(prompt)
        .batch(naive=field(), durable=field())
        .form(submit_button_label=label, bordered=True)
    )


def prediction_forms(mo: Any, prompts: Mapping[str, str]) -> Any:
    """A prediction form per choice (``prediction_form``, its prompt from ``prompts``, keyed
    by the choice), in one ``mo.ui.dictionary``, for a lesson whose question changes with a
    choice (lesson 1's fault): made once, by a cell no choice re-runs, and the cell that asks
    shows and reads ``forms[choice]``. A new choice then asks afresh and makes no form (made
    afresh, a form is two number fields, their batch and the form, each cloned: an eighth of
    the Python that lesson 1's fault ran in the WebAssembly page, exports/README.md), and a
    guess stays with the choice it answers."""
    return mo.ui.dictionary({choice: prediction_form(mo, p) for choice, p in prompts.items()})


def skip_switch(mo: Any, label: str, snapshot: bool) -> Any:
    """The switch that shows the results without predicting (inert in a snapshot). A lesson
    builds it from nothing the learner changes, so a learner who skips keeps skipping."""
    return mo.ui.switch(label=label, disabled=snapshot)


def ask(
    mo: Any, prediction: Any, skip: Any, snapshot: bool, note: str = SNAPSHOT_NOTE
) -> tuple[bool, Any]:
    """Whether the results are revealed (a committed prediction, the skip switch on, or a
    snapshot), and what the page shows to ask: the form above the switch, or in a snapshot,
    which cannot take a prediction, ``note``."""
    revealed = prediction.value is not None or bool(skip.value) or snapshot
    return revealed, mo.md(note) if snapshot else mo.vstack([prediction, skip])


def keep_revealed(
    revealed: bool, get_revealed: Callable[[], bool], set_revealed: Callable[[bool], None]
) -> None:
    """Hand ``revealed`` to the state ``get_revealed, set_revealed = mo.state(False)``, only
    when it differs from what the state holds.

    marimo reruns the cells that read a state each time its setter is called, and the cells
    downstream of a changed control each time the control changes, whatever their inputs'
    values. A cell that waits for the guess but shows nothing a control changes (what to
    notice, the recorded table, the check) reads ``get_revealed()``, not ``revealed``: a new
    fault with the guess still shown (the skip switch on) reruns none of them, and a new fault
    that asks again hides them in the run that follows. Each cell a change reruns costs the
    WebAssembly page 15-30 ms of marimo's own work (exports/README.md). Run as a script
    (``app.run()``), marimo reruns nothing on a state's change, but the state holds the new
    value at once and marimo runs the first ready cell in the file's order, so a reader below
    the cell that calls this one reads it, as long as each cell that cell does not feed reads
    only cells above it (tests/course/test_page.py holds the lessons to both)."""
    if get_revealed() != revealed:
        set_revealed(revealed)


def feedback(mo: Any, checks: Sequence[PredictionCheck]) -> list[Any]:
    """A callout per judged guess: right, wrong (information), or no guess to judge (a
    warning)."""
    return [
        mo.callout(
            mo.md(c.message),
            kind="success" if c.correct else "info" if c.guess is not None else "warn",
        )
        for c in checks
    ]


PANELS_KEPT: Final = 64
"""How many runtime panels without ``extra`` ``runtime_panel`` keeps (the most recently
asked)."""


def runtime_panel(
    mo: Any, result: LabResult, figures: bool = False, extra: Sequence[Any] = ()
) -> Any:
    """One runtime's results: its heading, delivery attempts and business effects as figures,
    with ``figures`` the tool calls, lookups and outcome in a line, its status in a callout
    coloured by the outcome, then ``extra`` (a chart, say).

    A panel without ``extra`` is plain HTML, a function of the run and ``figures`` alone (no
    control in it, and a run is frozen), so it is made once and shown again when a lesson
    shows that run again: in the WebAssembly page the two panels were a tenth of the Python of
    a change of lesson 2's starting point, each a dozen marimo objects (cProfile in the page,
    2026-12-05). One with ``extra`` is made each time: a chart's table fold is a control."""
    if extra:
        return _panel(mo, result, figures, extra)
    return _kept_panel(mo, result, figures)


@lru_cache(maxsize=PANELS_KEPT)
def _kept_panel(mo: Any, result: LabResult, figures: bool) -> Any:
    return _panel(mo, result, figures, ())


def _panel(mo: Any, result: LabResult, figures: bool, extra: Sequence[Any]) -> Any:
    counts = result.counts
    line = FIGURES_LINE.format(
        tool_calls=counts.tool_calls, lookups=counts.lookups, outcome=result.outcome.value
    )
    return mo.vstack(
        [
            mo.md(RUNTIME_HEADING.format(mode=result.mode.value)),
            mo.hstack(
                [
                    mo.stat(counts.attempts, label=ATTEMPTS_LABEL, bordered=True),
                    mo.stat(counts.effects, label=EFFECTS_LABEL, bordered=True),
                ],
                justify="start",
            ),
            *([mo.md(line)] if figures else []),
            mo.callout(mo.md(f"**{result.status.value}**"), kind=OUTCOME_KIND[result.outcome]),
            *extra,
        ]
    )


def reveal(
    mo: Any,
    revealed: bool,
    waiting: str,
    results: Mapping[Mode, LabResult],
    guess: Mapping[str, object] | None,
    *,
    figures: bool = False,
    extra: Callable[[LabResult], Sequence[Any]] | None = None,
    above: Sequence[Any] = (),
    below: Sequence[Any] = (),
    feedback_first: bool = False,
) -> Any:
    """The reveal: until ``revealed``, a callout saying ``waiting`` (how to reveal); then the
    runtimes' panels side by side in ``results``' order (``runtime_panel``, with ``figures``
    and ``extra(result)``)
    and the feedback on ``guess``, the committed guesses by runtime name, if any (before the
    panels with ``feedback_first``), between ``above`` and ``below``."""
    if not revealed:
        return mo.callout(mo.md(waiting), kind="neutral")
    checks = check_predictions(guess, results) if guess is not None else ()
    panels = mo.hstack(
        [runtime_panel(mo, r, figures, extra(r) if extra else ()) for r in results.values()],
        widths="equal",
        gap=2,
        align="start",
    )
    # The judged guesses side by side, one per runtime, as the panels are: a line, not a column.
    said = [mo.hstack(feedback(mo, checks), widths="equal", gap=2, align="start")] if checks else []
    middle = [*said, panels] if feedback_first else [panels, *said]
    return mo.vstack([*above, *middle, *below])


# ---------------------------------------------------------------------------------------------
# Predict a choice, then compare: for a lesson whose answer is one of a few outcomes (what a
# receiver does with a second request, which finding comes first) rather than two counts.


def choice_form(mo: Any, prompt: str, options: Sequence[str], label: str = COMMIT_LABEL) -> Any:
    """A prediction among ``options``: a radio under ``prompt`` (Markdown), none chosen, and a
    button labelled ``label`` that commits it. Its value is ``None`` until committed (so
    ``ask`` reads it as it reads ``prediction_form``), then the chosen option (``None`` if
    the learner committed without choosing)."""
    return mo.ui.radio(options=list(options), label=prompt).form(
        submit_button_label=label, bordered=True
    )


def judged(mo: Any, said: tuple[str, bool | None]) -> Any:
    """A judgement (Markdown, right?) as a callout: success when right, information when
    wrong, a warning when there was nothing to judge (``None``)."""
    text, right = said
    kind = "warn" if right is None else "success" if right else "info"
    return mo.callout(mo.md(text), kind=kind)


def choice_callout(mo: Any, guess: object, answer: str) -> Any:
    """``choice_feedback`` as a callout (``judged``)."""
    return judged(mo, choice_feedback(guess, answer))


def set_callout(mo: Any, title: str, chosen: object, expected: Sequence[str]) -> Any:
    """``set_feedback`` as a callout (``judged``)."""
    return judged(mo, set_feedback(title, chosen, expected))
