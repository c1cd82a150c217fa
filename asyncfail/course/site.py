"""The words the course's pages add around the lessons: the course home (the published site's
and the one ``make serve`` shows), the note a lesson's interactive page shows while Python
starts in the browser, and how every page's title is written.

The lessons' titles, summaries, minutes and outcomes, and the course's title, line and question,
are the catalog's (``course.catalog``); nothing here repeats them. The site's build and the
course server read this module and write no words of their own. Texts are plain (the build
escapes them for HTML) unless a name ends in ``_HTML``.
"""

from enum import StrEnum
from typing import Final

from asyncfail.course.catalog import COURSE_TITLE, LESSONS, LessonInfo
from asyncfail.ground.prose import counted

# ---------------------------------------------------------------------------------------------
# Page titles


class PageKind(StrEnum):
    """The pages a lesson has: the live lesson, its static snapshot, its presenter view."""

    LIVE = "live"
    SNAPSHOT = "snapshot"
    PRESENTER = "presenter"


LESSON_PAGE_TITLE: Final = "Lesson {number}: {title}{kind}"
"""A lesson page's title: its number and title first (a browser tab shows the start), then
what kind of page it is, then the course unless the lesson's title already names it."""
PAGE_KIND_SUFFIX: Final = {
    PageKind.LIVE: "",
    PageKind.SNAPSHOT: " (static snapshot)",
    PageKind.PRESENTER: " (presenter view)",
}
COURSE_SUFFIX: Final = " · {course}"


def lesson_number(info: LessonInfo) -> int:
    """The lesson's place in the course, from 1."""
    return LESSONS.index(info) + 1


def page_title(info: LessonInfo, kind: PageKind = PageKind.LIVE) -> str:
    """The ``<title>`` of a lesson's page: ``Lesson 2: Stress the idempotency contract · The
    Async Failure Lab``. Rule: the course's name is added unless the lesson's title is it."""
    title = LESSON_PAGE_TITLE.format(
        number=lesson_number(info), title=info.title, kind=PAGE_KIND_SUFFIX[kind]
    )
    if info.title == COURSE_TITLE:
        return title
    return title + COURSE_SUFFIX.format(course=COURSE_TITLE)


HOME_PAGE_TITLE: Final = COURSE_TITLE
"""The course home's ``<title>`` (and its social preview's title)."""

# ---------------------------------------------------------------------------------------------
# The course home

COURSE_LENGTH: Final = "{lessons}, about {minutes} minutes in all."
OUTCOMES_TITLE: Final = "After the course you will be able to"
LESSONS_TITLE: Final = "Lessons"
LESSON_HEADING: Final = "Lesson {number}: {title}"
LESSON_MINUTES: Final = "{minutes} min"
LIVE_LINK: Final = "Open the lesson"
LIVE_LINK_NOTE: Final = "interactive: Python runs in your browser"
SERVED_LINK_NOTE: Final = "interactive: Python runs on this server"
HOME_LINK: Final = "All lessons of the course"
SNAPSHOT_NAV_NAME: Final = "The lesson's other pages"
SNAPSHOT_LINK: Final = "Static snapshot"
SNAPSHOT_LINK_NOTE: Final = "results computed once; no WebAssembly needed"
PRESENTER_LINK: Final = "Presenter view"
PRESENTER_LINK_NOTE: Final = "the lesson as slides, for a projector"
PICTURE_ALT: Final = "The top of the lesson “{title}”"
SITE_PRIVACY_NOTE: Final = (
    "Every page is served from this site: no analytics, no cookies, no third-party requests, "
    "and nothing you choose is written into the URL. Interactive pages run Python in your "
    "browser with WebAssembly; static snapshots need no WebAssembly."
)
SERVED_PRIVACY_NOTE: Final = (
    "Every lesson runs on the computer serving this page: what you choose stays in the page "
    "and on that computer, nothing is written into the URL, and nothing is sent anywhere else."
)


def course_length(minutes: int, lessons: int) -> str:
    """``4 lessons, about 65 minutes in all.``"""
    return COURSE_LENGTH.format(lessons=counted(lessons, "lesson"), minutes=minutes)


# ---------------------------------------------------------------------------------------------
# An interactive page while Python starts

STARTING_NOTE: Final = (
    "The live lesson is starting: Python is loading in your browser. Until it is ready, this "
    "is a preview and its controls do nothing."
)
SLOW_NOTE: Final = (
    "The live lesson is taking longer than usual to start. You can keep reading the preview; "
    "it will be replaced as soon as Python is ready."
)
PREVIEW_FRAME_TITLE: Final = "Preview of the lesson while it starts"
STOPPED_NOTE_HTML: Final = (
    "The live lesson has not started after {seconds} seconds. Reload the page to try again, "
    'or <a href="{snapshot}" target="_top">read the static snapshot</a>, which needs no Python.'
)
"""Shown, in place of the starting note, when the live lesson is not live after a while (the
preview script's deadline): plain words, what to do, and the snapshot's link."""
FILE_NOTE_HTML: Final = (
    "The live lesson cannot start from a file on this computer: browsers load Python only "
    "over http(s). Serve the site (<code>python exports/serve.py</code>) or open it on the web, "
    'or <a href="{snapshot}" target="_top">read the static snapshot</a>.'
)
"""Shown at once when the page was opened from ``file://``."""
MISSING_RUNTIME_NOTE_HTML: Final = (
    "The live lesson cannot start: this copy of the site is missing a file Python needs "
    "({file}). Whoever published it should build it again; meanwhile, "
    '<a href="{snapshot}" target="_top">read the static snapshot</a>.'
)
"""Shown at once when the site's Python runtime (Pyodide's WebAssembly file) is missing."""
NO_WEBASSEMBLY_NOTE_HTML: Final = (
    "This browser cannot run the live lesson: it has no WebAssembly. Use a current browser, "
    'or <a href="{snapshot}" target="_top">read the static snapshot</a>.'
)
"""Shown at once in a browser without WebAssembly."""

# ---------------------------------------------------------------------------------------------
# Accessible names the site gives what marimo and vega-embed leave unnamed (exports/a11y.py)

CHART_ACTIONS_NAME: Final = "Chart actions"
MENU_BUTTON_NAME: Final = "Menu"
CLOSE_BUTTON_NAME: Final = "Close"
OTHER_BUTTON_NAME: Final = "Button"
