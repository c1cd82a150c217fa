"""The text formats of `explore` and `risk` read as sentences: each term said where it
appears, chances as "1 in N (p %)", no exponent, lines that fit a terminal."""

import re

import pytest

from asyncfail.cli.plain_text import WIDTH, explore_text, risk_text, wrapped
from asyncfail.explore.explorer import explore
from asyncfail.lab.scenario import Mode
from asyncfail.lab.settings import LabSettings
from asyncfail.risk.estimates import Estimate
from asyncfail.risk.exact import ExactAnswer
from asyncfail.risk.inputs import DEFAULT_INPUTS
from asyncfail.risk.report import assess
from asyncfail.risk.sentences import estimate_sentence, exact_sentence
from tests.cli_support import run_main

EXPONENT = re.compile(r"\d[eE][-+]?\d")


def prose_lines(text: str) -> list[str]:
    """The lines a learner reads, without the replay commands and traces of counterexamples."""
    return [
        line for line in text.splitlines() if not line.startswith(("  replay it:", "  seq", "    "))
    ]


def folded(text: str) -> str:
    return " ".join(text.split())


def test_explore_says_what_its_terms_mean() -> None:
    found = explore()
    text = explore_text(found)
    fired = found.explored - found.unreachable
    said = folded(text)
    assert (
        f"It tried {found.explored} fault plans: every way to inject up to 2 faults (a crash, a "
        "lost message, an outage, a pause) at the points of a delivery." in said
    )
    assert (
        f"{found.unreachable} of them never fired: one of their faults is set at a point the "
        "run never reaches" in said
    )
    assert (
        f"The {fired} plans that fired gave {found.distinct_runs} distinct runs (different "
        "traces: plans that lead to the same trace count once)." in said
    )
    assert "With one worker, its steps ran in one order (1 interleaving)." in said
    # Each invariant's verdict, then its rule.
    assert "at-most-once holds in every one of" in said
    assert "No more than one business effect: the ledger is debited at most once" in said
    assert "plans explored" not in text and "distinct runs 65" not in text
    assert run_main("explore", "--format", "text")[1] == text


def test_explore_with_two_workers_counts_the_orders_they_took_turns_in() -> None:
    found = explore(Mode.DURABLE, LabSettings(workers=2, claim="lease", fencing="token"), 3, 1)
    assert found.interleavings > 1
    assert (
        f"The workers took turns in {found.interleavings} different orders "
        f"({found.interleavings} interleavings)." in folded(explore_text(found))
    )


def test_explore_counterexamples_say_how_to_replay_them() -> None:
    text = explore_text(explore(Mode.NAIVE))
    assert (
        "at-most-once: the smallest plan that breaks it is 1:response (2 effects, Duplicate "
        "debit)\n  replay it: asyncfail lab --plan 1:response --mode naive\n" in text
    )


@pytest.mark.parametrize("retention", [None, "60"])
def test_risk_reads_as_sentences_without_exponents(retention: str | None) -> None:
    argv = ["risk", "--format", "text", "--trials", "2000"]
    code, out, _ = run_main(*argv, *(["--retention", retention] if retention else []))
    assert code == 0
    assert EXPONENT.search(out) is None
    assert all(len(line) <= WIDTH for line in out.splitlines())
    said = folded(out)
    assert "A 95 % interval is a range that holds the true chance in 19 of 20" in said
    assert "for the estimated duplicate risk to fall below 1 in 10,000 (0.01 %)." in said


def test_risk_report_at_one_minute_reads_as_worked_out_by_hand() -> None:
    # 10 duplicates in 2,000 trials: 2,000 / 10 = 200; 10 / 2,000 = 0.5 %.
    at_minute = assess(
        DEFAULT_INPUTS.model_copy(update={"trials": 2000, "settings": LabSettings(retention="60")})
    ).report
    assert at_minute.duplicate.count == 10
    assert "Debited twice or more: 10 of 2,000 trials, 1 in 200 (0.5 %); 95 % interval" in (
        folded(risk_text(at_minute))
    )


def test_an_outcome_never_seen_claims_no_chance_only_an_interval() -> None:
    none = Estimate(count=0, probability=0.0, low=0.0, high=0.001917)
    assert estimate_sentence("Never debited", none, 2000) == (
        "Never debited: in none of 2,000 trials; 95 % interval 0 % to 0.19 %."
    )
    some = Estimate(count=5, probability=0.0025, low=0.00107, high=0.00584)
    assert estimate_sentence("Debited twice or more", some, 2000) == (
        "Debited twice or more: 5 of 2,000 trials, 1 in 400 (0.25 %); 95 % interval 0.11 % to "
        "0.58 %."
    )
    exact = ExactAnswer(case="replay", probability=0.000335)
    assert exact_sentence(exact, none) == (
        "Exact answer (replay): 1 in 3,000 (0.034 %), inside the 95 % interval."
    )
    assert exact_sentence(ExactAnswer(case="replay", probability=0.5), none).endswith(
        "1 in 2 (50 %), outside the 95 % interval."
    )


def test_lines_never_part_a_number_from_its_unit() -> None:
    text = "x" * (WIDTH - 3) + " 1 min and 0.25 % and 3.77 d"  # "1" alone would fit
    lines = wrapped(text)
    assert lines[1].startswith("1 min") and all(len(line) <= WIDTH for line in lines)
    assert wrapped("a " * 60, "  ")[1].startswith("  a")
    assert prose_lines("a\n  replay it: x\n    1 2") == ["a"]


def test_edge_counts_read_as_english() -> None:
    none = explore_text(explore(max_faults=0))
    assert "It ran the one plan without a fault.\nThe 1 plan that fired gave 1 distinct run" in none
    assert "never fired" not in none
    code, out, _ = run_main("risk", "--format", "text", "--trials", "1")
    said = folded(out)
    assert code == 0 and said.startswith("Risk: 1 simulated run (trials) of the durable runtime")
    assert "Never debited: in none of 1 trial; 95 % interval 0 % to 79 %." in said
    assert "To be 95 % sure of it, 1 trial is too few: at least 38,411 trials" in said
