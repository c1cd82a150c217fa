"""Lesson "Read the review handoff the model writes": every word it shows, and its default."""

from typing import Final

from asyncfail.lab.scenario import SEED_FAULT

INTRO: Final = (
    "This is the sample reliability review handoff, generated now from running both runtimes "
    "under one fault: every figure and event in it is the model's, and every sentence about "
    "where the failure struck is read off the two traces. Pick another fault to read the same "
    "review of a different failure."
)
FAULT_LABEL: Final = "Fault the handoff reviews"
DEFAULT_FAULT: Final = SEED_FAULT
DOWNLOAD: Final = "Download the handoff (Markdown)"
FILE: Final = "review-handoff-{fault}.md"
EVIDENCE_TITLE: Final = "**The evidence, as timelines** (the same runs the handoff reports):"
