"""A learner's hostile text, typed into a served lesson in Chromium, stays text: no script runs
and no request leaves 127.0.0.1 (issue 21, "Learner text"). The headless tests
(tests/course/test_learner_text.py) feed every payload to every box; this one checks, once, in
a real browser, that what they parse is what the page does.

The course is served as `make serve` serves it (the ``server`` fixture of
test_course_server.py, imported here so both files share one way to start it).
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from asyncfail.course.catalog import LESSONS
from tests.browser.test_course_server import Server, server  # noqa: F401 (a fixture)

LESSON = LESSONS[1]  # lesson 2, "Break the assumptions": its plan box
PLAN_PLACEHOLDER = "e.g. 1:after-effect,2:lookup"
PAYLOAD = "<img src=x onerror=alert(1)><script>alert(2)</script>![](//example.com/x.png)"
"""An event handler, a script and a remote image, without the colon or comma that would make
the plan parser echo only part of it (a style sheet needs a colon: the headless tests try it)."""
REFUSAL = "is not ATTEMPT:POINT"
RUN_MS = 60_000  # the lesson reruns on a busy two-core machine


@pytest.mark.browser
def test_a_hostile_plan_is_shown_as_text_and_nothing_runs(
    guarded_page: Any,
    server: Server,  # noqa: F811 (the imported fixture)
    screenshots: Any,
) -> None:
    assert LESSON.stem == "02_break_the_assumptions"
    page, guard = guarded_page
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    page.goto(f"{server.url}lessons/{LESSON.stem}/")
    # A served lesson runs its cells first (5 s, the default wait, once passed with only
    # marimo's menu drawn on a busy machine).
    expect(page.get_by_role("heading", name=LESSON.title)).to_be_visible(timeout=RUN_MS)
    # The plan box waits behind "More settings" (lesson 2's first screen holds one control).
    page.get_by_role("switch", name="More settings").click()
    box = page.get_by_placeholder(PLAN_PLACEHOLDER)
    box.scroll_into_view_if_needed()
    box.fill(PAYLOAD)
    box.press("Enter")
    refusal = page.get_by_text(REFUSAL, exact=False)
    expect(refusal).to_be_visible(timeout=RUN_MS)
    # Nothing the payload holds became an element: no image, no script.
    assert page.locator('img[src="x"], img[src*="example.com"]').count() == 0
    # (Playwright's locators reach into marimo's shadow roots, where the lesson's output is.)
    assert page.locator("script", has_text="alert(2)").count() == 0
    page.wait_for_timeout(500)  # an image's error handler would have fired by now
    assert dialogs == []
    assert guard.blocked == []
    # The payload is on the page as the characters typed, inside the refusal.
    expect(refusal).to_contain_text(repr(PAYLOAD))
    refusal.scroll_into_view_if_needed()
    page.screenshot(path=screenshots / "served-lesson-2-hostile-plan.png")
