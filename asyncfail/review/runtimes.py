"""Which runtimes a review compares: the runtime under review (the seed's naive loop, or a
durable engine's step) beside the durable runtime, under one set of settings."""

from typing import Final

from asyncfail.lab.scenario import Mode, key_refusal
from asyncfail.lab.settings import LabSettings

REVIEWED_MODES: Final[tuple[Mode, ...]] = (Mode.NAIVE, Mode.CHECKPOINT)
"""The runtimes a review may put under review, the seed's first: each is compared with the
durable runtime, the pattern the seed's recommendations describe (so the durable runtime is
never under review itself: it is the other side of every handoff)."""

COMPARED_WITH: Final = Mode.DURABLE
"""What every review compares the runtime under review with."""


def review_refusal(mode: Mode, settings: LabSettings) -> str | None:
    """Why a review of ``mode`` cannot run under ``settings``, or None. Rules: the runtime under
    review is one of ``REVIEWED_MODES``; both runs share the settings, so a setting the durable
    runtime refuses (``key=none``: it has nothing to look up, ``lab.scenario.key_refusal``) is
    refused for the review whatever runtime is under review."""
    if mode not in REVIEWED_MODES:
        accepted = " or ".join(m.value for m in REVIEWED_MODES)
        return (
            f"a review compares the runtime under review with the {COMPARED_WITH} runtime; "
            f"the runtime under review is {accepted}, not {mode}"
        )
    if key_refusal(COMPARED_WITH, settings) is not None:
        return (
            f"key={settings.key} sends no operation key, and the {COMPARED_WITH} runtime the "
            "review compares with needs one to look up (use --key stable or per-attempt)"
        )
    return None
