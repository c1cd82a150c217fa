"""A lesson's static snapshot as a document: plain HTML the build writes from marimo's outputs.

marimo's static export (``marimo export html``) holds every cell's output, but its JavaScript
draws them: 300+ requests and seconds before the title shows, blank with JavaScript off or from
``file://``. The snapshot the site publishes (``static.html``) is instead written here from the
outputs that export holds (its embedded session), in order, one ``<section id="output-<cell>">``
per cell (the ids marimo uses, so the interactive page's preview can match cells): the lesson's
text as marimo rendered it, its tables as ``<table>``, its Vega-Lite charts as inline SVG drawn
at build time by ``vl-convert`` (with the chart's description as its name; a sequence view is
already the library's SVG, and stays as it is), its controls as native
controls showing their value, disabled (a snapshot does not recompute), accordions as
``<details>``, downloads as ``data:`` links. It loads nothing: one request, no script, readable
by a printer, a feed reader, a search engine and a screen reader, and on a phone (it reflows at
320 CSS px, as every page of the site does: ``a11y/reflow.css``).

Every marimo element the lessons use has a rendering here; an unknown one stops the build in one
line naming it (a new element must be rendered, not dropped).
"""

from __future__ import annotations

import base64
import html
import json
import re
from collections.abc import Callable
from typing import Any

from a11y import REFLOW
from bs4 import BeautifulSoup, Tag

SESSION_KEY = '"session": '
TITLE = re.compile(r"<title>(.*?)</title>", re.S)
# Outputs by preference: what marimo would show.
MIMES = ("text/html", "text/markdown", "text/plain")
SVG_LIMIT = 200_000
VEGA_LITE = re.compile(r"application/vnd\.vegalite\.v\d+\+json")

STYLE = """\
body { font-family: system-ui, sans-serif; max-width: 50rem; margin: 0 auto; padding: 1rem;
       line-height: 1.5; color: #1f2328; background: #fff; }
a { color: #0550ae; }
:focus-visible { outline: 2px solid #0550ae; outline-offset: 2px; }
header.snapshot { border-bottom: 1px solid #d0d7de; margin-bottom: 1rem; font-size: 0.95rem; }
section.cell { margin: 0 0 1rem; }
.paragraph { display: block; margin: 0.75em 0; }
.markdown, .contents { display: contents; }
code { font-size: 0.9em; background: #f6f8fa; padding: 0.1em 0.3em; border-radius: 4px; }
pre { background: #f6f8fa; padding: 0.75rem; overflow-x: auto; }
pre code { background: none; padding: 0; }
table { border-collapse: collapse; margin: 0.5rem 0; font-size: 0.9rem; display: block;
        overflow-x: auto; }
th, td { border: 1px solid #d0d7de; padding: 0.25rem 0.5rem; text-align: left;
         vertical-align: top; }
th { background: #f6f8fa; }
.callout { border: 1px solid #d0d7de; border-left-width: 4px; border-radius: 6px;
           padding: 0.25rem 1rem; margin: 0.75rem 0; }
.callout-info { border-left-color: #0969da; } .callout-success { border-left-color: #1a7f37; }
.callout-warn { border-left-color: #9a6700; } .callout-danger { border-left-color: #cf222e; }
.stat { display: inline-block; border: 1px solid #d0d7de; border-radius: 6px;
        padding: 0.4rem 0.8rem; margin: 0.25rem; min-width: 8rem; }
.stat-value { font-size: 1.4rem; font-weight: 600; display: block; }
.stat-label, .stat-caption { display: block; font-size: 0.85rem; color: #57606a; }
label.control, fieldset.control { display: block; margin: 0.5rem 0; }
fieldset.control { border: 1px solid #d0d7de; border-radius: 6px; }
fieldset.control label { display: block; }
.chart { margin: 0.5rem 0; }
.chart svg, .chart img { max-width: 100%; height: auto; }
summary .paragraph { display: inline; }
details { margin: 0.5rem 0; } summary { cursor: pointer; }
@media print { header.snapshot { display: none; } details > * { display: block; } }
""" + REFLOW.read_text(encoding="utf-8")
"""The snapshot's style: its own, then the reflow every page of the site has (WCAG 1.4.10)."""


def session_of(page: str) -> dict[str, Any]:
    """The session (every cell's outputs) a ``marimo export html`` page embeds."""
    start = page.find(SESSION_KEY)
    if start < 0:
        raise SystemExit("export: the static export holds no session to make a document from")
    session, _end = json.JSONDecoder().raw_decode(page, start + len(SESSION_KEY))
    return dict(session)


def _json(tag: Tag, name: str, default: Any = None) -> Any:
    value = tag.get(name)
    if value is None:
        return default
    return json.loads(str(value))


class Renderer:
    """Turns marimo's HTML outputs into plain HTML; ``chart`` draws a Vega-Lite spec as SVG."""

    def __init__(
        self,
        chart: Callable[[dict[str, Any]], str],
        picture: Callable[[dict[str, Any]], bytes],
    ) -> None:
        self.chart = chart
        self.picture = picture
        self.charts = 0

    def fragment(self, source: str) -> str:
        soup = BeautifulSoup(source, "html.parser")
        while (element := soup.find(lambda t: t.name.startswith("marimo-"))) is not None:
            self.replace(soup, element)
        return str(soup)

    def label(self, tag: Tag) -> str:
        text = _json(tag, "data-label")
        return self.fragment(text) if text else ""

    def replace(self, soup: BeautifulSoup, tag: Tag) -> None:
        name = tag.name
        handler = getattr(self, "r_" + name.removeprefix("marimo-").replace("-", "_"), None)
        if handler is None:
            raise SystemExit(f"export: the document cannot render <{name}>: add it to document.py")
        new = handler(tag)
        if new is None:
            tag.unwrap()
        else:
            tag.replace_with(BeautifulSoup(new, "html.parser"))

    # wrappers: their children are the content
    def r_ui_element(self, tag: Tag) -> None:
        return None

    r_dict = r_ui_element

    def r_form(self, tag: Tag) -> str:
        inner = self.fragment(tag.decode_contents())
        button = html.escape(str(_json(tag, "data-submit-button-label", "Submit")))
        return f'<div class="form">{inner}<button type="button" disabled>{button}</button></div>'

    def r_callout_output(self, tag: Tag) -> str:
        kind = re.sub(r"[^a-z]", "", str(_json(tag, "data-kind", "neutral")))
        inner = self.fragment(_json(tag, "data-html", ""))
        return f'<div class="callout callout-{kind}">{inner}</div>'

    def r_stat(self, tag: Tag) -> str:
        parts = [
            f'<span class="stat-label">{html.escape(str(_json(tag, "data-label") or ""))}</span>',
            f'<span class="stat-value">{html.escape(str(_json(tag, "data-value")))}</span>',
        ]
        caption = _json(tag, "data-caption")
        if caption:
            parts.append(f'<span class="stat-caption">{html.escape(str(caption))}</span>')
        return f'<div class="stat">{"".join(parts)}</div>'

    def r_accordion(self, tag: Tag) -> str:
        labels = _json(tag, "data-labels", [])
        panels = [child for child in tag.children if isinstance(child, Tag)]
        items = [
            f"<details><summary>{self.fragment(label)}</summary>"
            f"{self.fragment(panel.decode_contents())}</details>"
            for label, panel in zip(labels, panels, strict=False)
        ]
        return "".join(items)

    def r_tabs(self, tag: Tag) -> str:
        # A snapshot shows every tab, one after another, each under its label.
        labels = _json(tag, "data-tabs", [])
        panels = [child for child in tag.children if isinstance(child, Tag)]
        return "".join(
            f'<div class="tab"><p class="tab-label"><strong>{self.fragment(label)}</strong></p>'
            f"{self.fragment(panel.decode_contents())}</div>"
            for label, panel in zip(labels, panels, strict=False)
        )

    def r_dropdown(self, tag: Tag) -> str:
        chosen = _json(tag, "data-initial-value", [])
        options = "".join(
            f"<option{' selected' if option in chosen else ''}>{html.escape(option)}</option>"
            for option in _json(tag, "data-options", [])
        )
        return (
            f'<label class="control">{self.label(tag)} <select disabled>{options}</select></label>'
        )

    def r_radio(self, tag: Tag) -> str:
        chosen = _json(tag, "data-initial-value")
        options = "".join(
            f'<label><input type="radio" disabled{" checked" if option == chosen else ""}> '
            f"{html.escape(option)}</label>"
            for option in _json(tag, "data-options", [])
        )
        legend = f"<legend>{self.label(tag)}</legend>"
        return f'<fieldset class="control" disabled>{legend}{options}</fieldset>'

    def _input(self, tag: Tag, kind: str) -> str:
        value = html.escape(str(_json(tag, "data-initial-value", "")), quote=True)
        extra = "".join(
            f' {attr}="{html.escape(str(_json(tag, "data-" + key)), quote=True)}"'
            for attr, key in (("min", "start"), ("max", "stop"), ("step", "step"))
            if _json(tag, "data-" + key) is not None
        )
        shown = f" <output>{value}</output>" if kind == "range" else ""
        return (
            f'<label class="control">{self.label(tag)} '
            f'<input type="{kind}" value="{value}"{extra} disabled>{shown}</label>'
        )

    def r_switch(self, tag: Tag) -> str:
        # A native checkbox in the switch role: a screen reader says "switch, on" as it does
        # in the live page, which draws marimo's switch as a button of that role.
        on = " checked" if _json(tag, "data-initial-value") is True else ""
        return (
            f'<label class="control"><input type="checkbox" role="switch"{on} disabled> '
            f"{self.label(tag)}</label>"
        )

    def r_slider(self, tag: Tag) -> str:
        return self._input(tag, "range")

    def r_number(self, tag: Tag) -> str:
        return self._input(tag, "number")

    def r_text(self, tag: Tag) -> str:
        return self._input(tag, "text")

    def r_download(self, tag: Tag) -> str:
        href = html.escape(str(_json(tag, "data-data", "")), quote=True)
        name = html.escape(str(_json(tag, "data-filename", "download")), quote=True)
        return f'<p><a href="{href}" download="{name}">{self.label(tag)}</a></p>'

    def r_table(self, tag: Tag) -> str:
        data = _json(tag, "data-data", "[]")
        rows = json.loads(data) if isinstance(data, str) else data
        if not isinstance(rows, list):
            raise SystemExit("export: the document can render only tables held inline")
        columns = list(rows[0]) if rows else []
        head = "".join(f'<th scope="col">{html.escape(str(c))}</th>' for c in columns)
        body = "".join(
            "<tr>"
            + "".join(f"<td>{html.escape(str(row.get(c, '')))}</td>" for c in columns)
            + "</tr>"
            for row in rows
        )
        label = self.label(tag)
        caption = f"<caption>{label}</caption>" if label else ""
        return f"<table>{caption}<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"

    def r_mime_renderer(self, tag: Tag) -> str:
        mime = str(_json(tag, "data-mime", ""))
        data = _json(tag, "data-data", "")
        if VEGA_LITE.fullmatch(mime):
            spec = json.loads(data) if isinstance(data, str) else data
            return self.vega(spec)
        if mime in ("text/html", "text/markdown"):
            return self.fragment(str(data))
        if mime == "text/plain":
            return f"<pre>{html.escape(str(data))}</pre>"
        raise SystemExit(f"export: the document cannot render a {mime} output")

    def vega(self, spec: dict[str, Any]) -> str:
        """The chart as inline SVG (a PNG when the SVG would be over ``SVG_LIMIT`` bytes, as a
        chart of thousands of marks would be), named by its description (its title otherwise)."""
        self.charts += 1
        title = spec.get("title")
        name = spec.get("description") or (title.get("text") if isinstance(title, dict) else title)
        name = html.escape(str(name or "Chart"), quote=True)
        svg = self.chart(spec)
        if len(svg) > SVG_LIMIT:
            png = base64.b64encode(self.picture(spec)).decode("ascii")
            img = f'<img src="data:image/png;base64,{png}" alt="{name}">'
            return f'<figure class="chart">{img}</figure>'
        svg = local_ids(svg, f"chart{self.charts}-")
        # Vega's own ARIA inside the SVG is hidden: the figure is one image, named.
        svg = re.sub(r"<svg\b", '<svg aria-hidden="true" focusable="false"', svg, count=1)
        return f'<figure class="chart" role="img" aria-label="{name}">{svg}</figure>'


SVG_ID = re.compile(r'\bid="([^"]+)"')


def local_ids(svg: str, prefix: str) -> str:
    """``svg`` with its ids (and what refers to them) renamed ``<prefix>1``, ``<prefix>2``... in
    order: vl-convert numbers clip paths with a counter that runs across charts and builds, so
    two builds would differ, and two charts of a page could share an id."""
    names = {old: f"{prefix}{index}" for index, old in enumerate(SVG_ID.findall(svg), 1)}
    for old, new in names.items():
        for before, after in ((f'id="{old}"', f'id="{new}"'), (f"#{old})", f"#{new})")):
            svg = svg.replace(before, after)
        svg = svg.replace(f'href="#{old}"', f'href="#{new}"')
    return svg


def draw_vega_lite(spec: dict[str, Any]) -> str:
    import vl_convert

    return str(vl_convert.vegalite_to_svg(spec))


def picture_vega_lite(spec: dict[str, Any]) -> bytes:
    import vl_convert

    return bytes(vl_convert.vegalite_to_png(spec, scale=2))


def cell_output(renderer: Renderer, cell: dict[str, Any]) -> str:
    for output in cell.get("outputs", []):
        data = output.get("data") or {}
        for mime in MIMES:
            value = data.get(mime)
            if not value:
                continue
            if mime == "text/plain":
                return f"<pre>{html.escape(str(value))}</pre>"
            return renderer.fragment(str(value))
        for mime, value in data.items():
            if VEGA_LITE.fullmatch(mime):
                return renderer.vega(value if isinstance(value, dict) else json.loads(value))
    return ""


def document(
    page: str,
    header: str = "",
    chart: Callable[[dict[str, Any]], str] = draw_vega_lite,
    picture: Callable[[dict[str, Any]], bytes] = picture_vega_lite,
) -> str:
    """The static document of ``page`` (a ``marimo export html`` page): its title, ``header``
    (HTML the site puts first, such as the link to the live lesson), then every cell's output."""
    found = TITLE.search(page)
    title = found.group(1).strip() if found else ""
    renderer = Renderer(chart, picture)
    cells = []
    for cell in session_of(page).get("cells", []):
        body = cell_output(renderer, cell)
        if body.strip():
            ident = html.escape(str(cell["id"]), quote=True)
            cells.append(f'<section class="cell" id="output-{ident}">{body}</section>')
    sections = "\n".join(cells)
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<style>
{STYLE}</style>
</head>
<body>
<header class="snapshot">{header}</header>
<main id="App">
{sections}
</main>
</body>
</html>
"""
