"""The readiness report as Markdown and HTML: structure, and the learner's text kept as text."""

import re
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from asyncfail.document.markup import plain
from asyncfail.ground.seed import RecommendationId
from asyncfail.readiness.design import MAX_TEXT, ReplayDesign, StatedDuration
from asyncfail.readiness.report import assess
from asyncfail.readiness.verdict import STATUS_LABELS
from tests.markup_support import (
    HOSTILE,
    Node,
    assert_loads_nothing,
    assert_self_contained_page,
    hostile_text,
    markdown_engines,
    parse_html,
)

SECTIONS = [
    "Checks",
    "Why, check by check",
    "Through the idempotency contract experiment",
    "Your design",
    "Remaining unknowns",
    "What this checklist cannot decide",
    "Use the shape, not a verdict",
]

FULL = ReplayDesign(
    key_across_attempts="yes",
    key_scope="tenant-operation",
    unknown_outcome_separate="yes",
    lookup_by_key="yes",
    retention=StatedDuration(amount=Decimal(36), unit="hours"),
    replay_window=StatedDuration(amount=Decimal("1.5"), unit="days"),
    fingerprint_compared="yes",
    pause_owner="Payments on-call",
    replay_approver="Ledger lead",
    state_verifier="Finance ops",
)


def design_with_owners(text: str) -> ReplayDesign:
    return FULL.model_copy(
        update={"pause_owner": text, "replay_approver": text, "state_verifier": text}
    )


def shown(text: str) -> str:
    return f"\u201c{plain(text)}\u201d" if plain(text) else "not named"


def design_table(root: Node) -> list[list[str]]:
    tables = root.find_all("table")
    (table,) = [t for t in tables if t.find_all("th")[0].text() == "Question"]
    rows = table.find_all("tr")
    return [[c.text().strip() for c in r.elements()] for r in rows[1:]]


def assert_owner_cells(rows: list[list[str]], text: str) -> None:
    assert len(rows) == 10
    assert all(len(row) == 2 for row in rows)
    assert [row[1] for row in rows[-3:]] == [shown(text)] * 3


def test_markdown_has_every_section_and_a_row_per_check() -> None:
    text = assess(FULL).markdown()
    assert [line[3:] for line in text.splitlines() if line.startswith("## ")] == SECTIONS
    assert text.startswith("*Replay-readiness checklist")
    rows = re.findall(r"^\| (P0|P1|Contract) \| (.+?) \| (Met|Not met|Unknown) \|$", text, re.M)
    report = assess(FULL)
    assert rows == [
        (c.priority.value if c.priority else "Contract", c.title, STATUS_LABELS[c.status])
        for c in report.checks
    ]


def test_summary_counts_match_the_checks() -> None:
    report = assess(FULL)
    tally = report.tally()
    first = report.markdown().split("\n\n")[2]
    assert first.startswith(
        f"{tally['met']} met, {tally['unmet']} not met and {tally['unknown']} unknown, of 6 checks"
    )


def test_the_retention_run_is_shown_with_the_learners_units() -> None:
    text = assess(FULL).markdown()
    assert "1.5 days (129,600 seconds)" in text
    assert "36 hours (129,600 seconds)" in text
    row = next(line for line in text.splitlines() if line.startswith("| Make retention"))
    assert "| expired | applied | 2 | One intent applied twice because the record expired |" in row
    assert "Boundary convention: At exactly the retention boundary" in text


def test_every_open_question_is_listed_and_none_when_all_are_answered() -> None:
    empty = assess(ReplayDesign()).markdown()
    section = empty.split("## Remaining unknowns\n\n")[1].split("\n\n## ")[0]
    assert section.count("\n- ") + 1 == 10
    assert "None: every question has an answer." in assess(FULL).markdown()


def test_html_report_is_a_self_contained_page_with_the_same_content() -> None:
    report = assess(FULL)
    root = assert_self_contained_page(report.html())
    assert [h.text() for h in root.find_all("h2")] == SECTIONS
    callouts = root.find_all("li", "callout")
    assert [c.attrs["class"] for c in callouts] == [f"callout {c.status}" for c in report.checks]
    assert [c.find_all("p")[0].text() for c in callouts] == [c.reason for c in report.checks]
    fragment, errors = parse_html(report.html(standalone=False))
    assert errors == [] and [n.tag for n in fragment.elements()] == ["style", "article"]


# ---------------------------------------------------------------------------------------------
# Hostile free text


@pytest.mark.parametrize("text", HOSTILE)
def test_hostile_owner_names_stay_text_in_markdown(text: str) -> None:
    source = assess(design_with_owners(text)).markdown()
    assert "<script" not in source and "<img" not in source
    for html in markdown_engines(source).values():
        root, errors = parse_html(html)
        assert errors == []
        assert_loads_nothing(root)
        assert all(n.tag not in {"script", "a", "img", "code"} for n in root.iter())
        assert len(root.find_all("em")) == 1, "only the kicker is emphasized"
        assert_owner_cells(design_table(root), text)
        reasons = [li.text() for li in root.find_all("li") if "can pause dispatch" in li.text()]
        assert len(reasons) == 1 and shown(text) in reasons[0]


@pytest.mark.parametrize("text", HOSTILE)
def test_hostile_owner_names_stay_text_in_html(text: str) -> None:
    page = assess(design_with_owners(text)).html()
    assert "<script>" not in page and "<img" not in page
    root = assert_self_contained_page(page)
    assert_owner_cells(design_table(root), text)


def test_a_ten_thousand_character_name_is_kept_whole() -> None:
    text = "ab|" * (MAX_TEXT // 3)
    report = assess(design_with_owners(text))
    assert report.check(RecommendationId.RECOVERY_OWNER).status.value == "met"
    root = assert_self_contained_page(report.html())
    assert_owner_cells(design_table(root), text)
    (html,) = [markdown_engines(report.markdown())["python-markdown"]]
    assert_owner_cells(design_table(parse_html(html)[0]), text)


@settings(max_examples=60, deadline=None)
@given(hostile_text, st.sampled_from(["pause_owner", "replay_approver", "state_verifier"]))
def test_any_owner_text_round_trips_through_both_renderings(text: str, field: str) -> None:
    report = assess(FULL.model_copy(update={field: text}))
    index = ["pause_owner", "replay_approver", "state_verifier"].index(field) - 3
    root = assert_self_contained_page(report.html())
    rows = design_table(root)
    assert len(rows) == 10 and rows[index][1] == shown(text)
    for html in markdown_engines(report.markdown()).values():
        rendered, errors = parse_html(html)
        assert errors == []
        rows = design_table(rendered)
        assert all(len(row) == 2 for row in rows) and len(rows) == 10
        assert rows[index][1] == shown(text)
