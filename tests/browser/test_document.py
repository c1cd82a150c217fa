"""The snapshot document (exports/document.py), without a browser: a marimo static page's outputs
written as plain HTML, parsed back and compared with what each element held."""

from __future__ import annotations

import html
import json
import sys
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "exports"))

from document import SVG_LIMIT, document  # noqa: E402


def attr(value: Any) -> str:
    """A data-* attribute as marimo writes it: JSON, HTML-escaped."""
    return html.escape(json.dumps(value), quote=True)


def label(text: str) -> str:
    return attr(f'<span class="markdown"><span class="paragraph">{text}</span></span>')


def page(*outputs: dict[str, str], title: str = "Lesson 9: Test") -> str:
    """A page shaped like `marimo export html`'s: a title and the session it embeds."""
    cells = [
        {"id": f"c{index}", "outputs": [{"type": "data", "data": output}]}
        for index, output in enumerate(outputs)
    ]
    session = json.dumps({"cells": cells})
    script = f'<script>x = {{"session": {session}, "y": 1}}</script>'
    return f"<html><head><title>{title}</title></head><body>{script}</body></html>"


class Parsed(HTMLParser):
    """Tags (name and attributes) in order, and the text."""

    def __init__(self, source: str) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str]]] = []
        self.text: list[str] = []
        self.in_style = False
        self.feed(source)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, {k: v or "" for k, v in attrs}))
        self.in_style = tag == "style"

    def handle_endtag(self, tag: str) -> None:
        self.in_style = False

    def handle_data(self, data: str) -> None:
        if data.strip() and not self.in_style:
            self.text.append(data.strip())

    def find(self, name: str) -> list[dict[str, str]]:
        return [attrs for tag, attrs in self.tags if tag == name]


def fake_chart(spec: dict[str, Any]) -> str:
    return f'<svg width="10" data-marks="{len(spec.get("data", {}).get("values", []))}"></svg>'


def test_cells_become_sections_in_order_with_marimos_ids_and_the_title() -> None:
    doc = Parsed(
        document(
            page(
                {"text/markdown": "<h1>Title</h1>"},
                {"text/plain": ""},  # an empty output: no section
                {"text/html": "<p>Second</p>"},
            ),
            header='<nav><a href="./">Live</a></nav>',
        )
    )
    assert [a["id"] for a in doc.find("section")] == ["output-c0", "output-c2"]
    assert doc.text[:4] == ["Lesson 9: Test", "Live", "Title", "Second"]
    assert doc.find("main") == [{"id": "App"}]
    assert doc.find("script") == [] and doc.find("link") == []


def test_controls_show_their_value_disabled() -> None:
    dropdown = (
        f"<marimo-ui-element><marimo-dropdown data-label='{label('Fault')}' "
        f"data-options='{attr(['none', 'crash', 'lost'])}' "
        f"data-initial-value='{attr(['crash'])}'></marimo-dropdown></marimo-ui-element>"
    )
    radio = (
        f"<marimo-radio data-label='{label('Scope')}' data-options='{attr(['a', 'b'])}' "
        f"data-initial-value='{attr('b')}'></marimo-radio>"
    )
    number = (
        f"<marimo-number data-label='{label('Budget')}' data-initial-value='3' "
        "data-start='1' data-stop='9' data-step='1'></marimo-number>"
    )
    doc = Parsed(document(page({"text/html": dropdown + radio + number})))
    options = [attrs for tag, attrs in doc.tags if tag == "option"]
    assert ["selected" in o for o in options] == [False, True, False]
    assert doc.find("select") == [{"disabled": ""}]
    radios = doc.find("input")[:2]
    assert ["checked" in r for r in radios] == [False, True]
    assert doc.find("input")[2] == {
        "type": "number",
        "value": "3",
        "min": "1",
        "max": "9",
        "step": "1",
        "disabled": "",
    }
    assert doc.find("fieldset") == [{"class": "control", "disabled": ""}]
    assert {"Fault", "Scope", "Budget", "none", "crash", "lost"} <= set(doc.text)


@pytest.mark.parametrize(("value", "checked"), [("true", True), ("false", False)])
def test_a_switch_is_a_disabled_checkbox_in_the_switch_role(value: str, checked: bool) -> None:
    switch = f"<marimo-switch data-label='{label('More settings')}' data-initial-value='{value}'>"
    doc = Parsed(document(page({"text/html": switch + "</marimo-switch>"})))
    (box,) = doc.find("input")
    assert box == {"type": "checkbox", "role": "switch", "disabled": ""} | (
        {"checked": ""} if checked else {}
    )
    assert "More settings" in doc.text


def test_tables_stats_callouts_accordions_and_downloads_are_plain_html() -> None:
    rows = [{"step": 1, "event": "ToolCalled"}, {"step": 2, "event": "DebitApplied"}]
    table = f"<marimo-table data-label='null' data-data='{attr(json.dumps(rows))}'></marimo-table>"
    stat = "<marimo-stat data-label='\"Attempts\"' data-value='2'></marimo-stat>"
    callout = f"<marimo-callout-output data-kind='\"warn\"' data-html='{attr('<b>Careful</b>')}'>"
    accordion = (
        f"<marimo-accordion data-labels='{attr(['<span>Show</span>'])}'>"
        "<div><p>Hidden</p></div></marimo-accordion>"
    )
    download = (
        f"<marimo-download data-label='{label('Get it')}' data-filename='\"r.md\"' "
        "data-data='\"data:text/markdown;base64,eA==\"'></marimo-download>"
    )
    doc = Parsed(
        document(
            page(
                {
                    "text/html": table
                    + stat
                    + callout
                    + "</marimo-callout-output>"
                    + accordion
                    + download
                }
            )
        )
    )
    assert [a for t, a in doc.tags if t == "th"] == [{"scope": "col"}, {"scope": "col"}]
    text = doc.text
    assert text[text.index("step") : text.index("step") + 6] == [
        "step",
        "event",
        "1",
        "ToolCalled",
        "2",
        "DebitApplied",
    ]
    assert text[text.index("Attempts") + 1] == "2"
    assert {"class": "callout callout-warn"} in doc.find("div") and "Careful" in text
    assert doc.find("details") == [{}] and text[text.index("Show") + 1] == "Hidden"
    assert doc.find("a") == [{"href": "data:text/markdown;base64,eA==", "download": "r.md"}]


def test_tabs_show_every_panel_in_turn_under_its_label() -> None:
    # A snapshot cannot switch tabs: lessons 2 and 5 show two views of a trace as tabs.
    tabs = (
        f"<marimo-tabs data-tabs='{attr(['<span>First</span>', '<span>Second</span>'])}'>"
        "<div data-kind='tab'><p>one</p></div><div data-kind='tab'><p>two</p></div></marimo-tabs>"
    )
    text = Parsed(document(page({"text/html": tabs}))).text
    assert text[text.index("First") :] == ["First", "one", "Second", "two"]


def test_a_chart_is_drawn_at_build_time_and_named_by_its_description() -> None:
    spec = {"description": "Two events", "data": {"values": [{"x": 1}, {"x": 2}]}}
    chart = (
        "<marimo-mime-renderer data-mime='\"application/vnd.vegalite.v6+json\"' "
        f"data-data='{attr(json.dumps(spec))}'></marimo-mime-renderer>"
    )
    doc = Parsed(document(page({"text/html": chart}), chart=fake_chart))
    assert doc.find("figure") == [{"class": "chart", "role": "img", "aria-label": "Two events"}]
    assert doc.find("svg")[0]["data-marks"] == "2"
    assert doc.find("svg")[0]["aria-hidden"] == "true"


def test_chart_ids_are_the_charts_own_whatever_the_renderer_counted_before() -> None:
    # vl-convert numbers clip paths across calls: clip7 in one build is clip1 in the next.
    spec = {"description": "x"}
    chart = (
        "<marimo-mime-renderer data-mime='\"application/vnd.vegalite.v6+json\"' "
        f"data-data='{attr(json.dumps(spec))}'></marimo-mime-renderer>"
    )

    def drawn(first: int) -> str:
        return (
            f'<svg><clipPath id="clip{first}"></clipPath><clipPath id="clip{first + 1}"></clipPath>'
            f'<g clip-path="url(#clip{first + 1})"></g><use href="#clip{first}"></use></svg>'
        )

    one = document(page({"text/html": chart * 2}), chart=lambda _s: drawn(7))
    two = document(page({"text/html": chart * 2}), chart=lambda _s: drawn(1))
    assert one == two
    doc = Parsed(one)
    assert [a["id"] for a in doc.find("clippath")] == [
        "chart1-1",
        "chart1-2",
        "chart2-1",
        "chart2-2",
    ]
    assert [a["clip-path"] for a in doc.find("g")] == ["url(#chart1-2)", "url(#chart2-2)"]
    assert [a["href"] for a in doc.find("use")] == ["#chart1-1", "#chart2-1"]


def test_a_chart_too_large_as_svg_is_a_picture() -> None:
    spec = {"title": {"text": "Heatmap"}}
    chart = (
        "<marimo-mime-renderer data-mime='\"application/vnd.vegalite.v5+json\"' "
        f"data-data='{attr(json.dumps(spec))}'></marimo-mime-renderer>"
    )
    huge = "<svg>" + " " * SVG_LIMIT + "</svg>"
    doc = Parsed(
        document(page({"text/html": chart}), chart=lambda _s: huge, picture=lambda _s: b"PNG")
    )
    assert doc.find("img") == [{"src": "data:image/png;base64,UE5H", "alt": "Heatmap"}]
    assert doc.find("svg") == []


def test_an_element_the_document_cannot_render_stops_the_build() -> None:
    with pytest.raises(SystemExit) as stop:
        document(page({"text/html": "<marimo-plotly></marimo-plotly>"}))
    assert (
        stop.value.code
        == "export: the document cannot render <marimo-plotly>: add it to document.py"
    )


def test_a_page_without_a_session_stops_the_build() -> None:
    with pytest.raises(SystemExit, match="holds no session"):
        document("<html><title>x</title></html>")


def test_the_real_renderer_draws_vega_lite_as_svg() -> None:
    pytest.importorskip("vl_convert")
    spec = {
        "$schema": "https://vega.github.io/schema/vega-lite/v5.json",
        "description": "Bars",
        "data": {"values": [{"a": "x", "b": 1}, {"a": "y", "b": 3}]},
        "mark": "bar",
        "encoding": {
            "x": {"field": "a", "type": "nominal"},
            "y": {"field": "b", "type": "quantitative"},
        },
    }
    chart = (
        "<marimo-mime-renderer data-mime='\"application/vnd.vegalite.v5+json\"' "
        f"data-data='{attr(json.dumps(spec))}'></marimo-mime-renderer>"
    )
    doc = document(page({"text/html": chart}))
    assert doc.count("<svg") == 1 and "<path" in doc and "https://" not in doc.split("<svg", 1)[1]
