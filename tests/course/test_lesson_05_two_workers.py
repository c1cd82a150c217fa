"""Lesson 5, "Two workers, one debit", runs headless: the stall and the safeguards drive both
runtimes, both workers have lanes, and the explorer's verdict is its own."""

import json
from typing import Any

import marimo as mo
import pytest

from asyncfail import Mode, Scenario, simulate
from asyncfail.charts.sequence_drawing import sequence_view
from asyncfail.charts.specs import time_timeline_spec
from asyncfail.explore.explorer import explore
from asyncfail.ground.prose import counted
from asyncfail.ground.quiz import Question
from asyncfail.lab.faults import parse_plan
from asyncfail.lab.scenario import SEED_MODES
from asyncfail.lab.settings import LabSettings
from tests.cli_support import run_main
from tests.course.conftest import Lessons
from tests.notebook_support import (
    RUNTIMES,
    cells_rerun_by,
    load_notebook,
    run_lesson,
    sequence_drawings,
    stats,
    unescape_nested,
    vega_specs,
    visible_text,
)

STEM = "05_two_workers"
nb = load_notebook(STEM)
SKIP = mo.ui.switch(value=True)


def controls(
    stall: str = "pause-in-request", pause: str = "60", lease: str = "30", **safeguards: str
) -> dict[str, object]:
    chosen = {"claim": "none", "receiver": "lookup-only", "fencing": "none"} | safeguards
    return {
        "stall": mo.ui.dropdown({stall: stall}, value=stall),
        "pause": mo.ui.text(value=pause),
        "lease": mo.ui.text(value=lease),
        "safeguards": mo.ui.dictionary({k: mo.ui.text(value=v) for k, v in chosen.items()}),
    }


def run(**controls_: object) -> tuple[str, dict[str, Any]]:
    return run_lesson(nb, **controls_)


def test_it_asks_before_it_shows(lessons: Lessons) -> None:
    page, defs = lessons.run(STEM)
    assert defs["revealed"] is False and vega_specs(page) == [] and sequence_drawings(page) == []


def test_a_stalled_request_without_safeguards_debits_twice_in_both_runtimes() -> None:
    page, defs = run(**controls(), skip_prediction=SKIP)
    # Worked by hand: worker 1's request stalls at the receiver for 60 s; at 30 s worker 2
    # takes over (naive: calls again; durable: looks up, finds nothing, calls again) and
    # debits; then worker 1's request lands.
    assert [v for label, v in stats(page) if label == "Business effects"] == ["2", "2"]
    scenario = Scenario(
        plan=parse_plan("1:pause-in-request"), settings=LabSettings(workers=2, pause="60")
    )
    assert defs["scenario"] == scenario
    # Per runtime: its sequence view, then its view against time.
    results = [simulate(scenario.model_copy(update={"mode": mode})) for mode in SEED_MODES]
    assert sequence_drawings(page) == [
        unescape_nested(sequence_view(result, width=380)[0].svg) for result in results
    ]
    specs = vega_specs(page)[:2]  # the third is the explorer's counterexample
    for result, spec in zip(results, specs, strict=True):
        assert spec["datasets"] == time_timeline_spec(result, width=380)["datasets"]
        lanes = {r["lane_name"] for r in spec["datasets"]["events"]}
        assert {"worker 1", "worker 2"} <= lanes
        assert {b["kind"] for b in spec["datasets"]["bands"]} >= {"lease held", "paused"}


@pytest.mark.parametrize(
    ("safeguards", "durable_effects", "status"),
    [
        ({"claim": "lease", "fencing": "token"}, "1", "a stale worker's request was fenced off"),
        ({"receiver": "dedupe"}, "1", "a concurrent request was told to retry later"),
        ({"claim": "lease"}, "2", "Duplicate debit"),
    ],
)
def test_each_safeguard_shows_what_it_does(
    safeguards: dict[str, str], durable_effects: str, status: str
) -> None:
    page, _ = run(**controls(**safeguards), skip_prediction=SKIP)
    effects = [v for label, v in stats(page) if label == "Business effects"]
    assert effects == ["2", durable_effects] and status in visible_text(page)


def test_the_explorer_verdict_is_the_explorers() -> None:
    text = visible_text(run(**controls(claim="lease", fencing="token"), skip_prediction=SKIP)[0])
    found = explore(Mode.DURABLE, LabSettings(workers=2, claim="lease", fencing="token"), 3, 2)
    assert found.invariants[0].violations == 0
    assert f"{found.explored} plans, {found.explored - found.unreachable} of them fired" in text
    page, _ = run(**controls(claim="lease"), skip_prediction=SKIP)
    text = visible_text(page)
    assert "Yes. The explorer found" in text and "The smallest is 1:pause-in-request" in text
    # Both runtimes (two views each), then the counterexample against time.
    assert (len(sequence_drawings(page)), len(vega_specs(page))) == (2, 3)


def test_a_change_of_stall_does_not_ask_the_explorer_again() -> None:
    # The explorer's question is the safeguards and the timing, never where worker 1 stalls:
    # moving the stall reruns one cell, the runs with their views and their commands (each
    # re-run cell costs marimo's machinery 10-15 ms in the page), not the explorer.
    (rerun,) = cells_rerun_by(nb, "stall")
    assert "simulate_each_mode(scenario)" in rerun and "command_lines(scenario)" in rerun
    assert "sequence_view(" in rerun and "lesson05.explored(" not in rerun
    for control in ("pause", "lease", "safeguards"):
        assert any("lesson05.explored(" in code for code in cells_rerun_by(nb, control)), control


def test_the_commands_shown_print_the_runs() -> None:
    page, defs = run(**controls(claim="lease", fencing="token"), skip_prediction=SKIP)
    for mode in RUNTIMES:
        command = (
            "asyncfail lab --plan 1:pause-in-request --mode "
            f"{mode.value} --workers 2 --claim lease --fencing token"
        )
        assert command.replace(" ", "") in visible_text(page).replace(" ", "")
        code, out, _ = run_main(*command.split()[1:])
        assert code == 0
        assert json.loads(out) == defs["results"][mode].model_dump(mode="json")


@pytest.mark.parametrize(("field", "text"), [("pause", "soon"), ("lease", "-1")])
def test_an_unreadable_duration_gets_one_line_and_the_default(field: str, text: str) -> None:
    page, defs = run(**controls(**{field: text}), skip_prediction=SKIP)
    assert f"{field.capitalize()}: '{text}'" in visible_text(page)
    assert defs["scenario"].settings.pause.json_number == 60


def test_the_check_feedback(lessons: Lessons) -> None:
    question: Question = lessons.run(STEM)[1]["question"]
    page, _ = run(understanding=mo.ui.radio(list(question.options), value=question.answer))
    assert "Right." in visible_text(page)


def test_the_checks_answer_is_what_the_model_does() -> None:
    # The question's run: a claim with a lease, worker 1's request stalling after the check.
    plan = parse_plan("1:pause-in-request")
    claim_only = LabSettings(workers=2, claim="lease")
    assert simulate(Scenario(plan=plan, settings=claim_only)).counts.effects == 2
    for safeguard in ({"fencing": "token"}, {"receiver": "dedupe"}):
        settings = LabSettings.model_validate(claim_only.model_dump(mode="json") | safeguard)
        assert simulate(Scenario(plan=plan, settings=settings)).counts.effects == 1
    longer = claim_only.model_copy(update={"pause": claim_only.pause + claim_only.lease})
    assert simulate(Scenario(plan=plan, settings=longer)).counts.effects == 2


def test_what_to_notice_waits_for_the_guess(lessons: Lessons) -> None:
    # It says which stall debits twice in which runtime: the answer to the prediction.
    before = visible_text(lessons.run(STEM)[0])
    assert "What to notice shows once you commit your guess." in before
    assert "Slow is not dead" not in before and "debit twice" not in before
    assert "Slow is not dead" in visible_text(run(**controls(), skip_prediction=SKIP)[0])


def test_nothing_on_the_page_gives_the_answer_before_the_guess(lessons: Lessons) -> None:
    # The reveal's words, from the model's runs: each runtime's status and debits.
    page, defs = lessons.run(STEM)
    words = {r.status.value for r in defs["results"].values()}
    words |= {counted(r.counts.effects, "debit") for r in defs["results"].values()}
    assert words >= {"Duplicate debit", "2 debits"}
    assert [w for w in words if w in unescape_nested(page)] == []
    after = visible_text(run(**controls(), skip_prediction=SKIP)[0])
    assert "Duplicate debit" in after
