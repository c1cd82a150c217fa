"""Lesson 3, "Stress the idempotency contract": it runs headless with its defaults and with
substituted controls, and an unreadable input is one inline line."""

import re
from decimal import Decimal
from types import SimpleNamespace
from typing import Any

import marimo as mo
import pytest

from asyncfail.charts.heatmap import overview_axis
from asyncfail.charts.heatmap_drawing import heatmap_drawing
from asyncfail.contract.experiment import ContractScenario, evaluate
from asyncfail.contract.rules import Disposition
from asyncfail.contract.sweep import sweep_around_boundary, sweep_retention
from asyncfail.contract.terms import ContractProfile
from asyncfail.course import lesson03_idempotency_contract as lesson03
from asyncfail.ground.quiz import Question
from tests.course.conftest import Lessons
from tests.notebook_support import (
    NOTEBOOKS,
    cells_rerun_by,
    heatmap_drawings,
    load_notebook,
    run_lesson,
    stats,
    unescape_nested,
    vega_specs,
    visible_text,
)

STEM = "03_idempotency_contract"
nb = load_notebook(STEM)


SKIP = mo.ui.switch(value=True)


# The knobs a profile sets: the lesson makes them once for every profile (``knob_sets``, with
# the prediction forms, ``predictions``), and shows the chosen profile's.
KNOBS = ("scope", "policy", "boundary", "retention")
PROFILE_MADE = ("knob_sets", "outcome_words", "predictions")
SECOND_REQUEST = ("second", "delay")
"""The second request's controls; their cell makes their row for the knobs' fold too."""


class KnobSets(dict[str, dict[str, Any]]):
    """``knob_sets`` as the experiment's cell reads it: a profile's controls by
    ``[profile]``, their values by ``.value[profile]``."""

    @property
    def value(self) -> dict[str, dict[str, object]]:
        return {p: {name: knob.value for name, knob in knobs.items()} for p, knobs in self.items()}


def run(**controls: object) -> tuple[str, dict[str, Any]]:
    """The lesson with ``controls`` substituted, predicting skipped unless they say. A knob
    (``KNOBS``) is substituted under every profile, the others at what the lesson makes; a
    ``prediction`` is the guess under every profile; a control made in one cell with others
    comes with them as the lesson makes them, so one may be substituted alone."""
    knobs = {name: controls.pop(name) for name in KNOBS if name in controls}
    if "prediction" in controls:
        guess = controls.pop("prediction")
        controls["predictions"] = {p.value: guess for p in ContractProfile}
    if knobs:
        made = run_lesson(nb)[1]["knob_sets"]
        controls["knob_sets"] = KnobSets(
            {p.value: {k: knobs.get(k, made[p.value][k]) for k in KNOBS} for p in ContractProfile}
        )
    for together in (PROFILE_MADE, SECOND_REQUEST):
        if set(together) & set(controls) and not set(together) <= set(controls):
            _, made_now = run_lesson(nb)
            controls = {name: made_now[name] for name in together} | controls
    if "second" in controls:
        row = mo.hstack([controls["second"], controls["delay"]])
        controls = controls | {"second_request_row": row}
    return run_lesson(nb, **({"skip_prediction": SKIP} | controls))


def test_nothing_on_the_page_gives_the_answer_before_the_guess(lessons: Lessons) -> None:
    # The reveal's words, from the model: the finding, the four figures, the heatmaps.
    page, defs = lessons.run(STEM)
    result = defs["result"]
    assert defs["revealed"] is False
    text = visible_text(page)
    assert "Predict first." in text and "what does the receiver do with request 2?" in text
    assert result.finding.value not in unescape_nested(page)
    assert result.boundary_rule not in unescape_nested(page)
    assert stats(page) == [] and heatmap_drawings(page) == [] and vega_specs(page) == []
    after, _ = run()
    assert result.finding.value in visible_text(after) and len(heatmap_drawings(after)) == 2


@pytest.mark.parametrize(
    ("choice", "said"),
    [
        ("reused", "Right: It reuses the first result: no second debit."),
        ("applied", "You chose: It applies request 2: a second debit. The model: It reuses"),
    ],
)
def test_a_committed_prediction_is_compared_with_the_model(
    lessons: Lessons, choice: str, said: str
) -> None:
    # The default run reuses the first result (the seed's example row).
    words = lessons.run(STEM)[1]["outcome_words"]
    guess = SimpleNamespace(value=words[choice])
    page, _ = run(prediction=guess, outcome_words=words)  # committed: revealed
    assert said in visible_text(page)


def test_the_prediction_offers_every_disposition_the_model_has(lessons: Lessons) -> None:
    assert set(lessons.run(STEM)[1]["outcome_words"]) == {d.value for d in Disposition}


def test_defaults_are_the_seeds_example_row(lessons: Lessons) -> None:
    page, defs = lessons.run(STEM, snapshot=True)
    seed = evaluate(ContractScenario())
    result = defs["result"]
    assert result.settings == seed.settings and result.departures == ()
    assert (result.record, result.disposition, result.finding) == (
        seed.record,
        seed.disposition,
        seed.finding,
    )
    text = visible_text(page)
    assert "Same intent reused its retained result" in text
    assert stats(page) == [
        ("Record at second request", '"retained"'),
        ("Second disposition", '"reused"'),
        ("Total effects", "1"),
        ("Both requests express one intent", '"yes"'),
    ]
    row = '1 tenant-a / order-42 1200 ["tenant-a","order-42"] ["tenant-a","order-42",1200]'
    assert row in text
    assert "2 tenant-a / order-42 1200" in text


CASES = [
    dict(scope="attempt", second="same-intent", profile="ietf-draft", policy="enforce",
         retention="3600", delay="60", boundary="expired-at-boundary"),
    dict(scope="operation", second="other-tenant", profile="powertools", policy="ignore",
         retention="3600", delay="10", boundary="expired-at-boundary"),
    dict(scope="tenant-operation", second="different-amount", profile="stripe", policy="enforce",
         retention="86400", delay="86400", boundary="retained-at-boundary"),
    dict(scope="tenant-operation", second="same-intent", profile="brandur-postgres",
         policy="ignore", retention="300", delay="300", boundary="expired-at-boundary"),
    dict(scope="tenant-operation", second="same-intent", profile="ietf-draft", policy="enforce",
         retention="2592000", delay="2592000", boundary="retained-at-boundary"),
    dict(scope="operation", second="new-operation", profile="stripe", policy="enforce",
         retention="1250001", delay="7", boundary="expired-at-boundary"),
    dict(scope="tenant-operation", second="same-intent", profile="ietf-draft", policy="enforce",
         retention="3599.999", delay="3599.998", boundary="expired-at-boundary"),
]  # fmt: skip


def _controls(case: dict[str, object]) -> dict[str, object]:
    # Real UI elements with the chosen values; the notebook reads only `.value`.
    return {
        "scope": mo.ui.dropdown([case["scope"]], value=case["scope"]),
        "second": mo.ui.dropdown([case["second"]], value=case["second"]),
        "profile": mo.ui.dropdown([case["profile"]], value=case["profile"]),
        "policy": mo.ui.dropdown([case["policy"]], value=case["policy"]),
        "retention": mo.ui.text(value=case["retention"]),
        "delay": mo.ui.text(value=case["delay"]),
        "boundary": mo.ui.dropdown([case["boundary"]], value=case["boundary"]),
    }


@pytest.mark.parametrize("case", CASES)
def test_substituted_controls_show_the_librarys_result_and_heatmaps(
    case: dict[str, object],
) -> None:
    page, defs = run(**_controls(case))
    scenario = ContractScenario(
        scope=case["scope"],
        second=case["second"],
        profile=case["profile"],
        policy=case["policy"],
        retention_seconds=case["retention"],
        delay_seconds=case["delay"],
        boundary=case["boundary"],
    )
    expected = evaluate(scenario)
    assert defs["result"] == expected
    text = visible_text(page)
    assert expected.finding.value in text
    assert expected.boundary_rule in text
    assert ("Total effects", str(expected.effects)) in stats(page)
    for row in expected.requests:
        assert row.receiver_key in text and row.fingerprint_tuple in text
    if expected.rejection is not None:
        assert expected.rejection.error in text
    axis = overview_axis(scenario)
    assert heatmap_drawings(page) == [
        unescape_nested(heatmap_drawing(sweep_retention(scenario, axis, axis), "Overview").svg),
        unescape_nested(
            heatmap_drawing(
                sweep_around_boundary(scenario, 5), "Zoom: the seconds around the boundary"
            ).svg
        ),
    ]
    # The ring sits at the learner's own delay, read exactly.
    ring = re.search(r'<circle [^>]*data-delay-ms="(\d+)"', heatmap_drawings(page)[0])
    assert ring is not None and Decimal(ring[1]) / 1000 == Decimal(case["delay"])


def test_check_question_matches_the_model(lessons: Lessons) -> None:
    question: Question = lessons.run(STEM)[1]["question"]
    answer = evaluate(ContractScenario(scope="attempt", retention_seconds=3600, delay_seconds=60))
    assert answer.effects == 2 and question.answer.endswith("a second time.")
    page, _ = run(understanding=mo.ui.radio(list(question.options), value=question.answer))
    assert "Right." in visible_text(page)


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
    page, defs = run(**{control: mo.ui.text(value=text)})
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
    page, defs = run(profile=mo.ui.dropdown([profile], value=profile))
    assert defs["knob_sets"].value[profile]["retention"] == retention
    assert defs["knob_sets"].value[profile]["boundary"] == boundary
    assert defs["result"].departures == (), "the profile's own settings depart from nothing"
    # The page shows the chosen profile's knobs, at its values.
    texts = re.findall(r"<marimo-text data-initial-value='\"([^\"]*)\"'", unescape_nested(page))
    assert sorted(texts) == sorted([retention, lesson03.DELAY_TEXT]), texts


def test_each_profile_has_its_knobs_and_its_question_and_keeps_them() -> None:
    # Made once for every profile: a knob set under one profile stays with it, another
    # profile shows its own; a guess answers the profile it was given in.
    _, defs = run()
    sets = defs["knob_sets"]
    assert set(sets.value) == {p.value for p in ContractProfile}
    for p in ContractProfile:
        start = lesson03.controls_for(p)
        assert sets.value[p.value]["retention"] == lesson03.seconds_text(start), p
    moved = KnobSets({p: dict(knobs.items()) for p, knobs in sets.items()})
    moved["stripe"]["retention"] = mo.ui.text(value="3600")
    words = defs["outcome_words"]
    forms = {p.value: SimpleNamespace(value=None) for p in ContractProfile}
    forms["stripe"] = SimpleNamespace(value=words["applied"])
    for profile, departed, asked in (("stripe", True, False), ("powertools", False, True)):
        page, after = run_lesson(
            nb,
            profile=mo.ui.dropdown([profile], value=profile),
            knob_sets=moved,
            predictions=forms,
            outcome_words=words,
        )
        assert bool(after["result"].departures) is departed, profile
        assert ("Commit your prediction" in visible_text(page)) is asked, profile


def test_a_knob_set_against_the_profile_is_named_as_a_departure() -> None:
    page, defs = run(
        profile=mo.ui.dropdown(["stripe"], value="stripe"),
        retention=mo.ui.text(value="3600"),
    )
    assert defs["result"].departures == ("the retention is 3600 s, where Stripe has 86400 s",)
    assert "Not what Stripe does" in visible_text(page)


def test_no_record_is_ever_called_absent(lessons: Lessons) -> None:
    # "Absent" meant two things; the model's words are now "never stored" and "expired".
    source = (NOTEBOOKS / f"{STEM}.py").read_text(encoding="utf-8")
    assert "never stored" in source and "absent" not in source.lower()
    assert "absent" not in lessons.run(STEM)[1]["question"].explanation.lower()


def test_a_change_re_runs_few_cells_so_the_page_answers_soon() -> None:
    # Each cell a change re-runs, and each control it makes, costs marimo's machinery in the
    # WebAssembly page (exports/README.md): the knobs and the forms are made once for every
    # profile, by a cell no control re-runs, and the profile, a knob, the second request or
    # its delay re-runs one cell, the experiment's, which shows the chosen profile's.
    (asked,) = cells_rerun_by(nb, "profile")
    assert "evaluate(scenario)" in asked and "lesson03.heatmaps(" in asked
    assert "reveal.keep_revealed(revealed, get_revealed, set_revealed)" in asked
    assert "knob_sets[profile.value]" in asked and "predictions[profile.value]" in asked
    assert "mo.ui." not in asked and "reveal.choice_form(" not in asked, "it makes no control"
    for control in ("knob_sets", "predictions", *SECOND_REQUEST):
        assert cells_rerun_by(nb, control) == [asked], control
    nb.app._maybe_initialize()
    graph = nb.app._graph
    (made,) = [c for c in graph.cells.values() if "knob_sets" in c.defs]
    assert "predictions" in made.defs and "reveal.choice_form(" in made.code
    assert not made.refs & {"profile", "second", "delay", "skip_prediction"}
    # What to notice waits for the guess and reads no control: it reads the state, below the
    # cell that sets it, and a change does not re-run it.
    (waiting,) = [c for c in cells_rerun_by(nb, "get_revealed") if c != asked]
    assert "What to notice" in waiting and "get_revealed()" in waiting


def test_a_profile_picked_the_first_time_finds_its_heatmaps_made_at_the_start() -> None:
    # warmup.warm: the page's start makes every profile's heatmaps (lesson03.profile_scenario),
    # the slowest part of a profile's result, so its first pick answers sooner. That scenario
    # is the one the knobs give as the profile starts them.
    for profile in ContractProfile:
        _, defs = run(profile=SimpleNamespace(value=profile.value))
        assert defs["scenario"] == lesson03.profile_scenario(profile), profile
    for snapshot, new in ((False, 0), (True, len(ContractProfile) - 1)):
        lesson03.heatmaps.cache_clear()
        run(snapshot=snapshot)
        made = lesson03.heatmaps.cache_info().misses
        for profile in ContractProfile:
            run(profile=SimpleNamespace(value=profile.value), snapshot=snapshot)
        # A snapshot makes only its own; the others are new to it.
        assert lesson03.heatmaps.cache_info().misses - made == new, snapshot


def test_a_scenarios_heatmaps_are_its_sweeps_drawn_once() -> None:
    titles = ("Overview", "Zoom")
    scenario = ContractScenario()
    (wide, wide_drawing), (near, near_drawing) = lesson03.heatmaps(scenario, titles)
    # What the lesson drew before it kept them: both sweeps, the zoom 5 s either side.
    axis = overview_axis(scenario)
    assert wide == sweep_retention(scenario, axis, axis)
    assert near == sweep_around_boundary(scenario, radius_seconds=5)
    assert wide_drawing == heatmap_drawing(wide, "Overview")
    assert near_drawing == heatmap_drawing(near, "Zoom")
    # An equal scenario asked again gets them without sweeping or drawing again.
    kept = lesson03.heatmaps(scenario.model_copy(), titles)
    assert kept[0][1] is wide_drawing and kept[1][0] is near
    # Another profile, or other titles, are made anew.
    stripe = ContractScenario(profile=ContractProfile.STRIPE)
    (other, other_drawing), _ = lesson03.heatmaps(stripe, titles)
    assert other_drawing == heatmap_drawing(
        sweep_retention(stripe, *[overview_axis(stripe)] * 2), "Overview"
    )
    assert other != wide
    assert lesson03.heatmaps(scenario, ("Wide", "Near"))[0][1].title == "Wide"
