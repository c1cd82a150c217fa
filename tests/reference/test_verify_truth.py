"""Issue 20, defects 7 and 8: the real side reads its outcome with rules of its own, so a wrong
rule in the model shows as a disagreement; and a timeout no injection explains (a slow
machine) is run again and, if it persists, inconclusive: never a disagreement, never exit 1."""

import ast
import json
from pathlib import Path
from typing import Any

import pytest

from asyncfail.lab import reading
from asyncfail.lab.faults import Fault
from asyncfail.lab.reading import Outcome
from asyncfail.lab.scenario import Mode
from asyncfail.reference import supervisor, verification
from asyncfail.reference.supervisor import RealRun
from asyncfail.reference.verification import Case, real_outcome, verify
from tests.cli_support import run_main

UNKNOWN_CASE = Case(fault=Fault.CRASH_AFTER_EFFECT, mode=Mode.NAIVE)


def broken_rule(effects: int, *, parked: bool, kept: bool) -> Outcome:
    # On purpose: a debit nobody kept is called done.
    return Outcome.EXACTLY_ONCE if effects == 1 else reading.Outcome.DUPLICATE


def test_a_wrong_outcome_rule_in_the_model_is_a_disagreement(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # By hand: one delivery, the naive worker debits and dies; the queue gives up and nothing
    # kept the result: unknown, for real. The broken model calls it exactly-once.
    monkeypatch.setattr(reading, "outcome_from", broken_rule)
    monkeypatch.setattr(verification, "outcome_from", broken_rule, raising=False)
    found = verify([UNKNOWN_CASE], deliveries=1, jobs=1)
    (row,) = found.rows
    assert (row.model.outcome, row.real.outcome) == (Outcome.EXACTLY_ONCE, Outcome.UNKNOWN)
    assert found.disagreements == (UNKNOWN_CASE.name,) and not found.agrees


def test_the_real_side_imports_nothing_of_the_models_reading() -> None:
    tree = ast.parse(Path(verification.__file__).read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "asyncfail.lab.reading":
            assert {a.name for a in node.names} <= {"Outcome"}


def real(effects: int, acknowledged: bool, recorded: bool) -> RealRun:
    return RealRun(1, effects, 1, 0, acknowledged, recorded, ("acknowledged",), ())


@pytest.mark.parametrize(
    ("effects", "acknowledged", "recorded", "outcome"),
    [
        (0, True, False, Outcome.LOST),
        (0, False, False, Outcome.LOST),
        (1, True, False, Outcome.EXACTLY_ONCE),
        (1, False, True, Outcome.EXACTLY_ONCE),
        (1, False, False, Outcome.UNKNOWN),
        (2, True, True, Outcome.DUPLICATE),
        (3, False, False, Outcome.DUPLICATE),
    ],
)
def test_the_real_outcome_table(
    effects: int, acknowledged: bool, recorded: bool, outcome: Outcome
) -> None:
    assert real_outcome(real(effects, acknowledged, recorded)) is outcome


# --- a slow machine -------------------------------------------------------------------------------

SEED_CASE = ["--fault", "none", "--mode", "durable", "--key", "stable", "--record", "atomic"]


def test_a_timeout_no_injection_explains_is_inconclusive_never_a_disagreement(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A timeout of zero makes the worker's socket non-blocking: its debit call never gets a
    # reply (it does not even connect), so every try has an unanswered call and no injection
    # struck. The figures differ from the model's, yet nothing disagrees. (A timeout of a
    # microsecond is not that: the kernel's poll waits a whole millisecond, time enough for a
    # reply on a quiet machine, and CI's got one.)
    monkeypatch.setattr(supervisor, "TIMEOUT", 0)
    code, out, err = run_main("verify", *SEED_CASE, "--receiver", "lookup-only")
    document: dict[str, Any] = json.loads(out)
    (row,) = document["rows"]
    assert (code, err) == (0, "")
    assert row["inconclusive"] is True and row["agrees"] is False
    assert document["disagreements"] == [] and document["agrees"] is True
    assert document["inconclusive"] == ["none durable stable atomic lookup-only"]


def test_a_clean_rerun_settles_the_case(monkeypatch: pytest.MonkeyPatch) -> None:
    # The first try's debit call gets no reply (a timeout of zero, as above), the second's does:
    # the second try's figures are the row's.
    tries: list[int] = []
    real_run_case = verification.run_case

    def first_slow(*args: Any, **kwargs: Any) -> RealRun:
        tries.append(1)
        monkeypatch.setattr(supervisor, "TIMEOUT", 0 if len(tries) == 1 else 0.5)
        return real_run_case(*args, **kwargs)

    monkeypatch.setattr(verification, "run_case", first_slow)
    found = verify([Case(fault=Fault.NONE, mode=Mode.DURABLE)], jobs=1)
    assert len(tries) == 2
    (row,) = found.rows
    assert row.agrees and not row.inconclusive and found.inconclusive == ()


def test_planned_timeouts_are_not_unplanned() -> None:
    # A lost reply leaves one call unanswered, and one injection struck: nothing unplanned.
    found = verify([Case(fault=Fault.RESPONSE_LOST, mode=Mode.DURABLE)], jobs=1)
    (row,) = found.rows
    assert row.agrees and not row.inconclusive


def test_a_real_disagreement_still_exits_1(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(reading, "outcome_from", broken_rule)
    monkeypatch.setattr(verification, "outcome_from", broken_rule, raising=False)
    code, _, err = run_main(
        "verify", "--fault", "crash-after-effect", "--mode", "naive", "--key", "stable",
        "--record", "atomic", "--receiver", "lookup-only", "--deliveries", "1",
    )  # fmt: skip
    assert code == 1
    assert "disagree with the model" in err
