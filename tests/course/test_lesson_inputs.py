"""Every control of every lesson, emptied, at its limits or given nonsense: an inline message
saying what is accepted, and the rest of the lesson keeps working (run headless)."""

from types import SimpleNamespace
from typing import Any

import marimo as mo
import pytest

from asyncfail import Scenario, simulate
from asyncfail.lab.scenario import SEED_MODES
from asyncfail.readiness.design import MAX_TEXT
from asyncfail.readiness.report import assess
from tests.notebook_support import load_notebook, run_lesson, stats, visible_text

LAB = load_notebook("01_async_failure_lab")
CONTRACT = load_notebook("03_idempotency_contract")
READINESS = load_notebook("07_readiness_checklist")


# --- lesson 1 -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "guesses",
    [
        {"naive": None, "durable": None},
        {"naive": 2.5, "durable": -1},
        {"naive": "x", "durable": 99},
    ],
)
def test_a_committed_guess_that_is_not_a_count_is_explained_not_judged(
    guesses: dict[str, object],
) -> None:
    results = {m: simulate(Scenario(mode=m)) for m in SEED_MODES}
    view, _ = LAB.counts_panel.run(
        prediction=SimpleNamespace(value=guesses), revealed=True, results=results
    )
    text = visible_text(view.text)
    for mode in SEED_MODES:
        assert f"{mode.value}: no guess to judge; enter a whole number" in text
    assert ("Business effects", "2") in stats(view.text), "the counts still show"


# --- the idempotency contract ----------------------------------------------------------------


def run_contract(**controls: object) -> tuple[str, dict[str, Any]]:
    return run_lesson(CONTRACT, **controls)


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "is empty"),
        ("abc", "is not a number"),
        ("-3", "must not be negative"),
        ("1e999999", "exponent"),
        ("3599.9999", "finer than a millisecond"),
        ("1,5", "comma"),
        ("\u0663", "digits other than 0-9"),
        ("9" * 10_000, "longer than 30 days"),
    ],
)
@pytest.mark.parametrize("control", ["retention", "delay"])
def test_a_bad_duration_is_reported_inline_and_the_lesson_keeps_working(
    control: str, text: str, reason: str
) -> None:
    page, defs = run_contract(**{control: mo.ui.text(value=text)})
    visible = visible_text(page)
    assert "Not read; the profile's value is used." in visible
    assert reason in visible
    assert "Same intent reused its retained result" in visible, "the result still shows"
    assert len(defs["input_errors"]) == 1 and len(defs["input_errors"][0]) < 500


@pytest.mark.parametrize(
    ("profile", "retention", "boundary"),
    [
        ("stripe", "86400", "expired-at-boundary"),
        ("brandur-postgres", "259200", "retained-at-boundary"),
        ("powertools", "3600", "retained-at-boundary"),
    ],
)
def test_the_controls_follow_the_chosen_profile(
    profile: str, retention: str, boundary: str
) -> None:
    _, defs = run_contract(profile=mo.ui.dropdown([profile], value=profile))
    assert defs["retention"].value == retention
    assert defs["boundary"].value == boundary
    assert defs["result"].departures == (), "the profile's own settings depart from nothing"


def test_a_knob_set_against_the_profile_is_named_as_a_departure() -> None:
    page, defs = run_contract(
        profile=mo.ui.dropdown(["stripe"], value="stripe"),
        retention=mo.ui.text(value="3600"),
    )
    assert defs["result"].departures == ("the retention is 3600 s, where Stripe has 86400 s",)
    assert "Not what Stripe does" in visible_text(page)


# --- the readiness checklist -----------------------------------------------------------------


def run_readiness(**controls: object) -> tuple[str, dict[str, Any]]:
    return run_lesson(READINESS, **controls)


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("1e999999", "exponent"),
        ("1e-999999", "exponent"),
        ("\u0663", "digits other than 0-9"),
        ("\uff13", "digits other than 0-9"),
        ("\u0967\u0968", "digits other than 0-9"),
        ("1,5", "dot as the decimal mark"),
        ("-3", "must not be negative"),
        ("31", "longer than 30 days"),
        ("0.0000001", "finer than a millisecond"),
    ],
)
def test_a_bad_duration_in_the_checklist_is_reported_and_left_unknown(
    text: str, reason: str
) -> None:
    page, defs = run_readiness(
        retention_amount=mo.ui.text(value=text),
        retention_unit=mo.ui.dropdown(["days"], value="days"),
    )
    assert defs["design"].retention is None
    (error,) = defs["input_errors"]
    assert error.startswith("Retention: ") and reason in error and len(error) < 500
    assert "Not read; treated as unknown." in visible_text(page)
    assert defs["report"] == assess(defs["design"]), "the rest of the report still runs"


def test_owner_text_over_the_limit_is_reported_not_raised() -> None:
    # The page's JavaScript can bypass maxlength: the lesson must not trust it.
    page, defs = run_readiness(pause_owner=mo.ui.text(value="x" * (MAX_TEXT + 1)))
    assert defs["design"].pause_owner == ""
    (error,) = defs["input_errors"]
    assert error.startswith("Who can pause dispatch: ") and "10,000" in error
    assert "Not read; treated as unknown." in visible_text(page)


def test_a_right_to_left_override_never_reaches_the_report() -> None:
    hostile = "Payments \u202eteam lead\u202c"
    _, defs = run_readiness(replay_approver=mo.ui.text(value=hostile))
    html = defs["report"].html(standalone=False)
    markdown = defs["report"].markdown()
    for text in (html, markdown):
        assert "\u202e" not in text and "\u202c" not in text
        assert "Payments team lead" in text
