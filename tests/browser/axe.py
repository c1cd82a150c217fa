"""axe-core in a Playwright page: every violation of any rule it runs by default and of target
size (``ENABLED``), any impact.

axe-core is pinned in ``tests/browser/package-lock.json``; ``make pytest`` installs it with
``npm ci`` (``make test`` runs it). It walks shadow DOM (marimo draws outputs in it) and
same-origin frames.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

# Violations in the lessons' own content (the notebooks', not the site's): the site cannot fix
# them, and they are listed here so that nothing else is tolerated. A listed one that no longer
# occurs fails the test: take it off the list.
CONTENT_ISSUES: dict[str, set[str]] = {}
# On the live pages only (marimo draws them; the snapshot document has none): none since every
# lesson's heading ends in an "##" for screen readers (course/page.py, LESSON_HEADING), which
# marimo's accordion items (Radix heads them with <h3>) then follow in order.
LIVE_ISSUES: dict[str, set[str]] = {}


def known_issues(slug: str, live: bool) -> set[str]:
    """The violations tolerated on a page of lesson ``slug`` (and required to occur)."""
    return CONTENT_ISSUES.get(slug, set()) | (LIVE_ISSUES.get(slug, set()) if live else set())


AXE_JS = Path(__file__).resolve().parent / "node_modules" / "axe-core" / "axe.min.js"

ENABLED = ("target-size",)
"""Rules axe-core ships switched off, switched on here: target size (WCAG 2.5.8, one of the
criteria WCAG 2.2 adds at AA: a pointer target at least 24 by 24 CSS px, or that far from the
next), off in axe 4.14 by default. Every other rule axe runs by default runs; those tagged
experimental do not."""

RUN = """async (enabled) => {
  const rules = Object.fromEntries(enabled.map((id) => [id, { enabled: true }]));
  const result = await axe.run(document, { resultTypes: ["violations"], rules });
  return result.violations.map((v) => ({
    id: v.id,
    impact: v.impact,
    help: v.help,
    nodes: v.nodes.slice(0, 5).map((n) => n.target.join(" >> ") + " :: " + n.html.slice(0, 160)),
  }));
}"""


def violations(page: Any) -> list[dict[str, Any]]:
    """Every axe violation on ``page`` as it stands (inject axe first if the page lacks it)."""
    if not page.evaluate("() => typeof axe === 'object'"):
        page.add_script_tag(content=AXE_JS.read_text(encoding="utf-8"))
    return list(page.evaluate(RUN, list(ENABLED)))


def summary(found: list[dict[str, Any]]) -> str:
    """One line per violation and its first nodes, for an assertion message."""
    return "\n".join(
        f"{v['id']} ({v['impact']}): {v['help']}\n  " + "\n  ".join(v["nodes"]) for v in found
    )
