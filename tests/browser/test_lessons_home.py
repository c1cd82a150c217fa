"""The course home's pictures (issue 23: "a picture of each lesson's first screen and of the
sequence view is in the course home"): a lesson's picture is its first screen, and the sequence
view's picture, drawn without a browser, is on the home with its caption and text alternative."""

from __future__ import annotations

import sys
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "exports"))

from build import BuildReport  # noqa: E402
from home import PICTURE_SIZE, HomeLinks, home_page  # noqa: E402
from lessons import discover  # noqa: E402
from pictures import SEQUENCE, draw_sequence  # noqa: E402

from asyncfail.charts.sequence_drawing import sequence_view  # noqa: E402
from asyncfail.lab.scenario import SEED_FAULT, Mode, Scenario  # noqa: E402
from asyncfail.lab.simulation import simulate_each_mode  # noqa: E402
from tests.browser.test_lessons import VIEWPORT  # noqa: E402


class Figures(HTMLParser):
    """Each ``<img>``'s attributes, and each figure caption's text."""

    def __init__(self) -> None:
        super().__init__()
        self.images: list[dict[str, str | None]] = []
        self.captions: list[str] = []
        self._in_caption = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "img":
            self.images.append(dict(attrs))
        self._in_caption = tag == "figcaption"

    def handle_endtag(self, tag: str) -> None:
        if tag == "figcaption":
            self._in_caption = False

    def handle_data(self, data: str) -> None:
        if self._in_caption:
            self.captions.append(data)


def figures(page: str) -> Figures:
    parser = Figures()
    parser.feed(page)
    return parser


def the_run() -> tuple[str, str]:
    """Lesson 1's seed case under the naive loop, from the model: its sequence view's text
    description and its status."""
    result = simulate_each_mode(Scenario(fault=SEED_FAULT))[Mode.NAIVE]
    drawing, _ = sequence_view(result)
    return drawing.description, result.status.value


def svg_size(data: bytes) -> tuple[int, int]:
    """An SVG file's width and height, read as XML (which it must be, to show in an <img>)."""
    root = ET.fromstring(data)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    return int(root.attrib["width"]), int(root.attrib["height"])


def sequence_image(page: str) -> dict[str, str | None]:
    (image,) = [i for i in figures(page).images if i.get("src") == SEQUENCE]
    return image


def test_a_lessons_picture_is_its_first_screen() -> None:
    assert (VIEWPORT["width"], VIEWPORT["height"]) == PICTURE_SIZE


def test_the_sequence_view_is_drawn_without_a_browser_the_same_each_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # No Playwright, so no Chromium: `make export PICTURES=no` still draws it.
    monkeypatch.setitem(sys.modules, "playwright", None)
    first = draw_sequence(tmp_path)
    data = (tmp_path / SEQUENCE).read_bytes()
    # An SVG file, well formed (an <img> shows nothing of one that is not), at its own size.
    assert svg_size(data) == (first.width, first.height)
    again = draw_sequence(tmp_path)
    assert again == first and (tmp_path / SEQUENCE).read_bytes() == data
    description, status = the_run()
    assert first.alt == description and "2 debits applied" in description
    assert status in first.caption and SEED_FAULT.value in first.caption


def test_the_home_shows_it_with_its_caption_and_text_alternative(tmp_path: Path) -> None:
    picture = draw_sequence(tmp_path)
    page = home_page(discover(), HomeLinks(sequence=picture))
    image = sequence_image(page)
    description, status = the_run()
    assert image["alt"] == description
    assert (image["width"], image["height"]) == (str(picture.width), str(picture.height))
    assert any(status in caption for caption in figures(page).captions)
    # The course server's home has none.
    assert SEQUENCE not in home_page(discover(), HomeLinks(served=True))


def test_the_built_home_shows_the_sequence_view(built_site: BuildReport) -> None:
    out = built_site.out
    data = (out / SEQUENCE).read_bytes()
    image = sequence_image((out / "index.html").read_text(encoding="utf-8"))
    assert image["alt"] == the_run()[0]
    width, height = svg_size(data)
    assert (image["width"], image["height"]) == (str(width), str(height))
