"""The course home: the published site's ``index.html``, and the page ``make serve`` opens at ``/``.

It shows the course's title, question and line, how long the course takes, what a learner
will be able to do (every lesson's outcomes, in course order), then each lesson in order: its
number, title, minutes and summary, its links and, on the published site, its picture. Every
word comes from the library (``asyncfail.course.catalog``, ``asyncfail.course.site``); this
module lays them out and escapes them. It needs only the standard library and asyncfail, so
the course server (``make serve``, the ``course`` extra) can use it.

Links are relative to the home page, so the same page works at any site root. Link previews
(OpenGraph) need absolute URLs: with a base URL (``make export BASE_URL=https://host/path/``)
``og:url`` is that URL and ``og:image`` the first lesson's picture under it; without one, the
page names no host and has neither (a relative ``og:image`` breaks previews).

Landmarks: a ``<header>``, one ``<main>`` holding everything else but the closing note, which
is the ``<footer>`` (WCAG 1.3.1; axe's ``landmark-one-main`` and ``region``).
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from urllib.parse import urljoin, urlsplit

from lessons import Lesson

from asyncfail.course import site
from asyncfail.course.catalog import COURSE_LINE, COURSE_QUESTION, COURSE_TITLE

PICTURE_SIZE = (1280, 800)
"""Width and height of a lesson's picture, in pixels: its first screen, the 1280 x 800 window
the browser tests hold the main control and its result in (tests/browser/test_lessons.py)."""

SEQUENCE_TITLE = "A trace, read like a conversation"
SEQUENCE_CAPTION = (
    "The sequence view, the first view of every trace in the lessons: {lesson}'s {mode} runtime "
    "under {fault}, which ends as “{status}”. The actors are lanes; each message is an arrow "
    "from sender to receiver in step order; a crash or a timeout is marked where it cuts one."
)
"""The caption under the sequence view's picture; its figures are the run's."""


@dataclass(frozen=True)
class SequencePicture:
    """The home's picture of the sequence view: where it is, its size, its text alternative
    (the chart's own description) and its caption."""

    src: str
    width: int
    height: int
    alt: str
    caption: str


STYLE = """\
body { font-family: system-ui, sans-serif; max-width: 62rem; margin: 2rem auto; padding: 0 1rem;
       line-height: 1.5; color: #1f2328; }
h1 { margin-bottom: 0.25rem; line-height: 1.2; }
h2 { margin-top: 2rem; border-bottom: 1px solid #d0d7de; }
.question { font-size: 1.15rem; font-style: italic; margin-top: 0; }
.length, small, .note { color: #57606a; }
.outcomes { columns: 2 24rem; column-gap: 2.5rem; padding-left: 1.2rem; }
.outcomes li { break-inside: avoid; margin: 0 0 0.4rem; }
ol.lessons { list-style: none; padding-left: 0; }
ol.lessons > li { display: grid; grid-template-columns: minmax(0, 20rem) minmax(0, 1fr);
                  gap: 1.5rem; align-items: start; margin: 0 0 2rem; }
ol.lessons > li.no-picture { grid-template-columns: minmax(0, 1fr); }
ol.lessons img, figure.sequence img { width: 100%; height: auto; border: 1px solid #d0d7de;
                                     border-radius: 6px; }
figure.sequence { margin: 1rem 0; max-width: 40rem; }
figure.sequence figcaption { color: #57606a; margin-top: 0.5rem; }
ol.lessons h3 { margin: 0 0 0.25rem; font-size: 1.2rem; }
.minutes { font-weight: normal; font-size: 0.9rem; color: #57606a; white-space: nowrap; }
ol.lessons p { margin: 0.25rem 0; }
ul.links { list-style: none; padding-left: 0; margin: 0.5rem 0 0; }
ul.links li { margin: 0.2rem 0; }
a { color: #0550ae; }
:focus-visible { outline: 2px solid #0550ae; outline-offset: 2px; }
@media (max-width: 40rem) { ol.lessons > li { grid-template-columns: minmax(0, 1fr); } }
"""


@dataclass(frozen=True)
class HomeLinks:
    """What the home links to besides each lesson's live page (``NN_name/`` under lessons/)."""

    served: bool = False
    """The course server's home: lessons run on the server, and there are no snapshots."""
    pictures: Mapping[str, str] = field(default_factory=dict)
    """Lesson slug -> its picture's URL."""
    presenters: Mapping[str, str] = field(default_factory=dict)
    """Lesson slug -> its presenter view's URL."""
    base_url: str = ""
    """Where the site is published (``https://host/path/``, see ``base_url``), or "" if unsaid."""
    sequence: SequencePicture | None = None
    """The sequence view's picture, or None (the course server's home shows none)."""


def base_url(value: str) -> str:
    """``value`` as the site's absolute base URL, ending in ``/``; "" stays "" (not published).

    Accepted: an ``http`` or ``https`` URL with a host and no query or fragment, such as
    ``https://example.org/course`` (a missing final ``/`` is added: the site is a folder).
    Anything else raises ``ValueError`` saying so.
    """
    if value == "":
        return ""
    parts = urlsplit(value)
    if (
        parts.scheme not in {"http", "https"}
        or not parts.hostname
        or parts.query
        or (parts.fragment or value.endswith("#"))
    ):
        raise ValueError(
            f"base URL {value!r}: expected an http(s) URL with a host and no query or "
            "fragment, such as https://example.org/course/"
        )
    return value if value.endswith("/") else value + "/"


def text(value: str) -> str:
    return html.escape(value, quote=True)


def link(href: str, label: str, note: str) -> str:
    return f'<li><a href="{text(href)}">{text(label)}</a> <small>({text(note)})</small></li>'


def lesson_item(lesson: Lesson, links: HomeLinks) -> str:
    """One lesson: picture, number and title, minutes, summary, then its links."""
    info = lesson.info
    assert info is not None, lesson.slug  # discover() gives every lesson its catalog entry
    live = f"{lesson.site_dir}/"
    rows = [
        link(
            live,
            site.LIVE_LINK,
            site.SERVED_LINK_NOTE if links.served else site.LIVE_LINK_NOTE,
        )
    ]
    if not links.served:
        rows.append(
            link(f"{lesson.site_dir}/static.html", site.SNAPSHOT_LINK, site.SNAPSHOT_LINK_NOTE)
        )
    if lesson.slug in links.presenters:
        rows.append(
            link(links.presenters[lesson.slug], site.PRESENTER_LINK, site.PRESENTER_LINK_NOTE)
        )
    picture = links.pictures.get(lesson.slug)
    width, height = PICTURE_SIZE
    figure = (
        f'<img src="{text(picture)}" width="{width}" height="{height}" loading="lazy" '
        f'alt="{text(site.PICTURE_ALT.format(title=info.title))}">'
        if picture
        else ""
    )
    heading = site.LESSON_HEADING.format(number=site.lesson_number(info), title=info.title)
    minutes = site.LESSON_MINUTES.format(minutes=info.minutes)
    shape = "" if picture else ' class="no-picture"'
    return (
        f'<li data-lesson="{text(lesson.slug)}"{shape}>'
        f"{figure}<div><h3>{text(heading)} "
        f'<span class="minutes">{text(minutes)}</span></h3>'
        f"<p>{text(info.summary)}</p>"
        f'<ul class="links">{"".join(rows)}</ul></div></li>'
    )


def social_meta(links: HomeLinks, lessons: Sequence[Lesson]) -> str:
    """OpenGraph metadata: the course's title and line and, when the site's base URL is known,
    the page's URL and the first lesson's picture (absolute: previews ignore relative ones)."""
    tags = [
        ("og:type", "website"),
        ("og:title", site.HOME_PAGE_TITLE),
        ("og:description", COURSE_LINE),
    ]
    if links.base_url:
        tags.append(("og:url", links.base_url))
    first = links.pictures.get(lessons[0].slug) if lessons else None
    if first and links.base_url and lessons[0].info is not None:
        first = urljoin(links.base_url, first)
        width, height = PICTURE_SIZE
        tags += [
            ("og:image", first),
            ("og:image:width", str(width)),
            ("og:image:height", str(height)),
            ("og:image:alt", site.PICTURE_ALT.format(title=lessons[0].info.title)),
        ]
    return "\n".join(f'<meta property="{name}" content="{text(value)}">' for name, value in tags)


def sequence_figure(picture: SequencePicture | None) -> str:
    """The sequence view's picture under its heading, with its text alternative and caption;
    nothing without one."""
    if picture is None:
        return ""
    return (
        f"<h2>{text(SEQUENCE_TITLE)}</h2>\n"
        f'<figure class="sequence"><img src="{text(picture.src)}" width="{picture.width}" '
        f'height="{picture.height}" loading="lazy" alt="{text(picture.alt)}">'
        f"<figcaption>{text(picture.caption)}</figcaption></figure>\n"
    )


def home_page(lessons: Sequence[Lesson], links: HomeLinks) -> str:
    """The course home as one HTML document."""
    outcomes = "\n".join(
        f"<li>{text(outcome)}</li>"
        for lesson in lessons
        if lesson.info is not None
        for outcome in lesson.info.outcomes
    )
    minutes = sum(lesson.info.minutes for lesson in lessons if lesson.info is not None)
    items = "\n".join(lesson_item(lesson, links) for lesson in lessons)
    note = site.SERVED_PRIVACY_NOTE if links.served else site.SITE_PRIVACY_NOTE
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{text(site.HOME_PAGE_TITLE)}</title>
<meta name="description" content="{text(COURSE_LINE)}">
{social_meta(links, lessons)}
<style>
{STYLE}</style>
</head>
<body>
<header>
<h1>{text(COURSE_TITLE)}</h1>
<p class="question">{text(COURSE_QUESTION)}</p>
<p>{text(COURSE_LINE)}</p>
<p class="length">{text(site.course_length(minutes, len(lessons)))}</p>
</header>
<main>
<h2>{text(site.OUTCOMES_TITLE)}</h2>
<ul class="outcomes">
{outcomes}
</ul>
{sequence_figure(links.sequence)}<h2>{text(site.LESSONS_TITLE)}</h2>
<ol class="lessons">
{items}
</ol>
</main>
<footer><p class="note"><small>{text(note)}</small></p></footer>
</body>
</html>
"""
