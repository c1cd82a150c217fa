"""The instructor guide's plan for How long must records live?: every claim true of the risk
wing, and every demo set as the lesson, or the terminal, sets it.

The expected figures are worked out by hand where the rules give them (Wilson's interval with
nothing seen, the log-normal replay delay, the channel's schedule), independently of the demos,
which print whatever the risk wing says; the demos' settings are checked by running the lesson
headless and the terminal demos by running the command.
"""

import inspect
import io
import json
import math
from statistics import NormalDist
from typing import Any

import marimo as mo
import pytest

from asyncfail import Fault, Mode, Scenario, simulate
from asyncfail.cli.main import main
from asyncfail.contract.rules import Finding
from asyncfail.course import questions, record_lesson, records_teaching
from asyncfail.course.timed_demos import RiskDemo, RiskView
from asyncfail.ground.durations import MAX_DURATION, Duration, parse_duration
from asyncfail.handoff.markup import Code
from asyncfail.lab.reading import Outcome
from asyncfail.lab.settings import DEFAULT_SETTINGS, LabSettings
from asyncfail.risk.estimates import Z95, wilson
from asyncfail.risk.exact import exact_duplicate
from asyncfail.risk.inputs import DEFAULT_INPUTS
from asyncfail.risk.report import REAL_RETENTIONS, RiskRun, trials_needed
from tests.notebook_support import load_notebook, run_lesson, visible_text

PLAN = records_teaching.PLAN
T = records_teaching
TARGET = 1e-4
DAY = 86_400_000
AFTER = Fault.CRASH_AFTER_EFFECT


def all_demos() -> list[Any]:
    return [d for r in PLAN.reveals for d in r.demos] + [
        d for m in PLAN.misconceptions for d in m.demos
    ]


def risk_demos() -> list[RiskDemo]:
    return list(dict.fromkeys(d for d in all_demos() if isinstance(d, RiskDemo)))


def below(run: RiskRun) -> dict[str, bool]:
    """Whether each real default keeps the estimated duplicate risk below the target, counted
    from the trials."""
    n = len(run.trials)
    return {
        name: sum(t.at(r).outcome is Outcome.DUPLICATE for t in run.trials) / n < TARGET
        for name, r in REAL_RETENTIONS
    }


# ---------------------------------------------------------------------------------------------
# The demos are the lesson's own controls, or the terminal's command


def lesson_controls(demo: RiskDemo) -> dict[str, object]:
    changes = dict(demo.changes)
    texts = {k: changes.get(k, v) for k, v in record_lesson.CONTROL_TEXTS.items()}
    trials = int(changes.get("trials", record_lesson.TRIAL_CHOICES[1]))
    return {
        "texts": mo.ui.dictionary({k: mo.ui.text(value=v) for k, v in texts.items()}),
        "deliveries": mo.ui.number(1, 9, value=int(changes.get("deliveries", 2))),
        "jitter": mo.ui.dropdown(["none", "full", "equal"], value=changes.get("jitter", "none")),
        "target": mo.ui.dropdown(list(record_lesson.TARGETS), value=changes.get("target", "1e-4")),
        "trials": mo.ui.dropdown({f"{trials:,}": trials}, value=f"{trials:,}"),
        "seed": mo.ui.number(0, 10**9, value=int(changes.get("seed", 0))),
        "skip_prediction": mo.ui.switch(value=True),
    }


def test_every_lesson_demo_is_the_report_the_lesson_shows_for_its_controls() -> None:
    nb = load_notebook(RiskDemo.lesson)
    demos = [d for d in risk_demos() if d.fault is None]
    assert len(demos) >= 9
    for demo in demos:
        page, defs = run_lesson(nb, **lesson_controls(demo))
        assert defs["inputs"] == demo.inputs(), demo
        assert defs["run"].report == demo.run().report, demo
        text = visible_text(page)
        if RiskView.REQUIRED in demo.views:
            assert demo.view(RiskView.REQUIRED).split(" for ")[0] in text, demo


def test_every_terminal_demo_prints_what_the_guide_says() -> None:
    demos = [d for d in risk_demos() if d.fault is not None]
    assert len(demos) >= 3
    for demo in demos:
        (command,) = [p.text for p in demo.setting() if isinstance(p, Code)]
        assert command == demo.command() and command.endswith(" --format text")
        out = io.StringIO()
        assert main(command.split()[1:], stdout=out) == 0
        printed = " ".join(out.getvalue().split())
        for line in demo.shows()[0].split("; "):
            assert line in printed, (demo, line)
        out = io.StringIO()
        assert main(command.removesuffix(" --format text").split()[1:], stdout=out) == 0
        assert json.loads(out.getvalue()) == demo.run().report.model_dump(mode="json")


def test_a_demo_the_lesson_cannot_set_is_refused() -> None:
    with pytest.raises(ValueError, match="not a control"):
        RiskDemo((("fault", "crash-after-effect"),))
    with pytest.raises(ValueError, match="offers no such choice"):
        RiskDemo((("trials", "5000"),))
    with pytest.raises(ValueError, match="offers no such choice"):
        RiskDemo((("target", "1e-6"),))
    with pytest.raises(ValueError, match="readable"):
        RiskDemo((("retention", "a week"),))
    with pytest.raises(ValueError, match="no exact answer"):
        RiskDemo(views=(RiskView.EXACT,)).shows()


def test_a_demo_names_its_controls_as_the_lesson_labels_them() -> None:
    demo = RiskDemo((("replay", T.WEEK), ("trials", "20000")))
    assert demo.setting() == ("Median replay delay: 604800; Trials: 20,000",)
    assert RiskDemo().setting() == ("The lesson's controls as they start",)


def test_the_lesson_has_no_control_for_a_certain_fault() -> None:
    assert "fault" not in inspect.signature(record_lesson.read_controls).parameters
    _, defs = run_lesson(load_notebook(RiskDemo.lesson))
    assert defs["inputs"].fault is None
    assert defs["run"] is None and defs["revealed"] is False
    assert defs["skip_prediction"].value is False  # type: ignore[attr-defined]
    # Without a fault in every trial there is no exact answer, random failures or none.
    exact_inputs = T.EXACT_DAY.inputs()
    assert exact_duplicate(exact_inputs) is not None
    assert exact_duplicate(exact_inputs.model_copy(update={"fault": None})) is None


def test_the_plan_fills_a_class_and_ends_on_the_lessons_check() -> None:
    assert PLAN.stem == "06_record_lifetime"
    assert sum(s.minutes for s in PLAN.segments) == 50
    assert PLAN.check is questions.RECORDS_QUESTION


def test_where_the_lessons_controls_start_and_end() -> None:
    # Records kept a day, replays a day late at the median, 4,000 trials, a target of 1e-4.
    assert record_lesson.CONTROL_TEXTS["retention"] == "86400"
    assert DEFAULT_INPUTS.replay_median == Duration(DAY)
    assert DEFAULT_INPUTS.replay_spread == 1.0 and DEFAULT_INPUTS.target == TARGET
    assert record_lesson.TRIAL_CHOICES == (1000, 4000, 20_000)
    assert RiskDemo().inputs().trials == 4000
    # 30 days is the longest retention the field takes; 604800 s is a week, 3600 s an hour.
    assert parse_duration(T.MONTH) == MAX_DURATION == Duration(30 * DAY)
    with pytest.raises(ValueError):
        parse_duration("2592001")
    assert (int(T.WEEK), int(T.HOUR)) == (7 * 86_400, 3600)


# ---------------------------------------------------------------------------------------------
# What no duplicate shows


def test_nothing_seen_bounds_the_risk_at_about_3_84_over_n() -> None:
    for n in (4000, 20_000):
        low, high = wilson(0, n)
        assert low == 0 and high == pytest.approx(Z95**2 / (n + Z95**2))
        assert high == pytest.approx(3.84 / n, rel=0.01)
    assert 9 * TARGET < wilson(0, 4000)[1] < 10 * TARGET  # about 9.6 in 10,000
    assert trials_needed(TARGET) == math.floor(Z95**2 * (1 - TARGET) / TARGET) + 1 == 38_411


def test_replays_a_week_late_against_30_days() -> None:
    none = T.NONE_SEEN.run().report.duplicate
    assert (none.count, none.probability) == (0, 0.0)
    some = RiskDemo((*T._WEEKLY_MONTH, T._MORE)).run().report.duplicate
    assert some.count > 0 and some.low > TARGET  # the whole interval above the target


def test_the_lessons_verdict_reads_estimates_not_intervals() -> None:
    run = T.FIRST.run()
    month = next(r for name, r in REAL_RETENTIONS if name == "Temporal Cloud")
    assert month == MAX_DURATION
    assert sum(t.at(month).outcome is Outcome.DUPLICATE for t in run.trials) == 0
    assert record_lesson.judge(run, "Temporal Cloud (30 d)")[0]
    assert wilson(0, len(run.trials))[1] > TARGET


def test_the_exact_case_at_30_days_hides_from_4000_trials() -> None:
    report = T._EXACT_MONTH.run().report
    assert report.duplicate.count == 0 and report.exact is not None
    # By hand: P(replay >= 30 d) for a log-normal of median 1 d and sigma 1, whole ms.
    by_hand = 1 - NormalDist().cdf(math.log(30 * DAY - 0.5) - math.log(DAY))
    assert report.exact.probability == pytest.approx(by_hand, rel=1e-9)
    assert report.exact.probability > 3 * TARGET


# ---------------------------------------------------------------------------------------------
# The tail decides


def required(demo: RiskDemo) -> Duration:
    found = demo.run().report.required.estimate
    assert found is not None
    return found


def test_the_retention_the_target_requires_grows_with_the_spread_and_the_trials() -> None:
    # Every replay exactly a day after the channel gives up, which is at most 30 s after the
    # debit (two deliveries, 30 s apart): records must outlive a day and no more than 30 s.
    assert DEFAULT_SETTINGS.redelivery_delay == Duration.of_seconds(30)
    assert Duration(DAY) < required(T._EVEN) <= Duration(DAY + 30_001)
    assert Duration(4 * DAY) < required(T._SPREAD) < Duration(7 * DAY)
    assert required(T._WIDE) > MAX_DURATION
    assert required(T._REQUIRED) < required(T._SPREAD)  # 4,000 trials, then 20,000


# ---------------------------------------------------------------------------------------------
# Replay habits, not one default


def test_which_default_is_enough_depends_on_the_replays() -> None:
    hourly, daily, weekly = (d.run() for d in (T._HOURLY, T._DAILY, T._WEEKLY))
    assert below(hourly)["Powertools"] is False and below(hourly)["Stripe"] is True
    assert [name for name, ok in below(daily).items() if ok] == ["Temporal Cloud"]
    assert not any(below(weekly).values())


def test_in_the_lessons_runs_a_longer_retention_never_raises_the_risk() -> None:
    for demo in risk_demos():
        counts = [p.duplicate.count for p in demo.run().report.curve]
        assert counts == sorted(counts, reverse=True), demo


def test_a_longer_retention_lengthens_a_leak_to_another_tenant() -> None:
    assert T._LEAKING.result().finding is Finding.OTHER_TENANTS_RESULT
    assert T._LEAK_OVER.result().finding is Finding.NEW_INTENT_APPLIED


# ---------------------------------------------------------------------------------------------
# The exact case


def test_the_exact_case_debits_twice_exactly_when_the_replay_reaches_the_retention() -> None:
    for retention in (Duration(DAY), Duration(3 * DAY)):
        for replay, debits in ((retention, 2), (Duration(retention.millis - 1), 1)):
            settings = LabSettings(retention=retention, replay_after=replay)
            scenario = Scenario(fault=AFTER, mode=Mode.DURABLE, deliveries=1, settings=settings)
            assert simulate(scenario).counts.effects == debits


def test_the_exact_answers_are_a_half_and_the_normal_tail_beyond_ln_3() -> None:
    day, three = T.EXACT_DAY.run().report, T._EXACT_THREE_DAYS.run().report
    assert day.exact is not None and three.exact is not None
    assert day.exact.probability == pytest.approx(0.5, abs=1e-6)
    assert three.exact.probability == pytest.approx(1 - NormalDist().cdf(math.log(3)), abs=1e-6)
    assert round(three.exact.probability, 3) == 0.136
    for report in (day, three):
        assert report.duplicate.low <= report.exact.probability <= report.duplicate.high


# ---------------------------------------------------------------------------------------------
# The check


def test_the_checks_case_is_the_lessons_most_trials_and_longest_retention() -> None:
    prompt = questions.RECORDS_QUESTION.prompt
    assert "20,000 trials" in prompt and "30 days" in prompt
    report = RiskDemo((("trials", "20000"), ("retention", T.MONTH))).run().report
    assert report.duplicate.count == 0
    assert report.duplicate.high == pytest.approx(3.84 / 20_000, rel=0.01)
