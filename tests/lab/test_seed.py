"""The seed's case, exactly: event kinds, figures and the golden JSON documents."""

import json

import pytest

from asyncfail import ASSUMPTIONS, Fault, Mode, Scenario, simulate
from tests.golden.regenerate import cli_output, golden_path

SEED = Scenario(fault=Fault.CRASH_AFTER_EFFECT)

# Copied from the seed review handoff (001_…), not from the code under test.
SEED_NAIVE_KINDS = ["ToolCalled", "DebitApplied", "ProcessCrashed", "ToolCalledAgain",
                    "DebitAppliedAgain"]  # fmt: skip
SEED_DURABLE_KINDS = ["DispatchIntentRecorded", "DebitApplied", "ProcessCrashed", "RunReplayed",
                      "OperationLookupFound", "ToolResultRecorded"]  # fmt: skip


def test_seed_naive_trace_and_figures() -> None:
    result = simulate(SEED.model_copy(update={"mode": Mode.NAIVE}))
    assert [e.kind.value for e in result.events] == SEED_NAIVE_KINDS
    assert (result.counts.attempts, result.counts.effects) == (2, 2)
    assert result.status == "Duplicate debit"
    assert result.outcome == "duplicate"


def test_seed_durable_trace_and_figures() -> None:
    result = simulate(SEED.model_copy(update={"mode": Mode.DURABLE}))
    assert [e.kind.value for e in result.events] == SEED_DURABLE_KINDS
    assert (result.counts.attempts, result.counts.effects) == (2, 1)
    assert result.status == "Recovered by operation key"
    assert result.outcome == "exactly-once"


def test_seed_events_separate_delivery_facts_from_business_effects() -> None:
    naive = simulate(SEED.model_copy(update={"mode": Mode.NAIVE}))
    layers = [(e.kind.value, e.layer.value, e.attempt) for e in naive.events]
    assert layers == [
        ("ToolCalled", "delivery", 1),
        ("DebitApplied", "business-effect", 1),
        ("ProcessCrashed", "delivery", 1),
        ("ToolCalledAgain", "delivery", 2),
        ("DebitAppliedAgain", "business-effect", 2),
    ]


def test_assumptions_are_the_seeds_word_for_word(seed_page: str) -> None:
    assert len(ASSUMPTIONS) == 5
    for assumption in ASSUMPTIONS:
        assert assumption in seed_page
    doc = json.loads(cli_output(Fault.NONE, Mode.NAIVE))
    assert doc["assumptions"] == list(ASSUMPTIONS)


@pytest.mark.parametrize("mode", list(Mode))
@pytest.mark.parametrize("fault", list(Fault))
def test_cli_output_matches_golden_file(fault: Fault, mode: Mode) -> None:
    golden = golden_path(fault, mode)
    assert golden.exists(), f"missing {golden.name}: run `make golden`"
    assert cli_output(fault, mode) == golden.read_text(encoding="utf-8")


def test_seed_golden_files_hold_the_seed_traces() -> None:
    naive = json.loads(golden_path(Fault.CRASH_AFTER_EFFECT, Mode.NAIVE).read_text())
    durable = json.loads(golden_path(Fault.CRASH_AFTER_EFFECT, Mode.DURABLE).read_text())
    assert [e["kind"] for e in naive["events"]] == SEED_NAIVE_KINDS
    assert [e["kind"] for e in durable["events"]] == SEED_DURABLE_KINDS
    assert naive["counts"]["attempts"] == 2 and naive["counts"]["effects"] == 2
    assert durable["counts"]["attempts"] == 2 and durable["counts"]["effects"] == 1
