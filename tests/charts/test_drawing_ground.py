"""Every drawing of the library carries its own ground, and its text reads on it: WCAG 2.2's
contrast (1.4.3, AA: 4.5:1 for text under 18 pt) computed from the SVG read back, by the
criterion's own formula (``tests/contrast.py``), not by the library. How the drawings look in a
contrast theme, in Chromium: ``tests/browser/test_forced_colours.py``."""

import xml.etree.ElementTree as ET

import pytest

from asyncfail import Fault, Mode, Scenario, simulate
from asyncfail.charts.drawing import Drawing
from asyncfail.charts.heatmap import overview_axis
from asyncfail.charts.heatmap_drawing import heatmap_drawing
from asyncfail.charts.sequence_drawing import FADED, sequence_drawing
from asyncfail.contract.experiment import ContractScenario
from asyncfail.contract.sweep import sweep_around_boundary, sweep_retention
from asyncfail.lab.faults import parse_plan
from asyncfail.lab.settings import LabSettings
from tests.contrast import contrast, parse_colour

SVG = "{http://www.w3.org/2000/svg}"
WHITE = (255, 255, 255)


def test_the_contrast_formula_gives_the_criterions_known_values() -> None:
    # Black on white is 21:1; #777777 on white is the classic just-failing grey (4.48:1).
    assert contrast((0, 0, 0), WHITE) == pytest.approx(21.0)
    assert contrast(parse_colour("#777777"), WHITE) == pytest.approx(4.48, abs=0.01)
    assert contrast(parse_colour("#767676"), WHITE) == pytest.approx(4.54, abs=0.01)


def drawings() -> dict[str, Drawing]:
    two_workers = Scenario(plan=parse_plan("1:pause-after-effect"), settings=LabSettings(workers=2))
    seed = ContractScenario()
    axis = overview_axis(seed)
    return {
        "sequence, whole run": sequence_drawing(simulate(Scenario(fault=Fault.RESPONSE_LOST))),
        "sequence, stepped": sequence_drawing(
            simulate(Scenario(fault=Fault.CRASH_AFTER_EFFECT, mode=Mode.DURABLE)), step=4
        ),
        "sequence, two workers": sequence_drawing(simulate(two_workers), width=520),
        "heatmap, overview": heatmap_drawing(sweep_retention(seed, axis, axis), "Overview"),
        "heatmap, zoom": heatmap_drawing(sweep_around_boundary(seed, radius_seconds=5), "Zoom"),
    }


DRAWINGS = drawings()


@pytest.mark.parametrize("name", list(DRAWINGS))
def test_a_drawing_is_painted_on_its_own_ground_under_everything(name: str) -> None:
    drawing = DRAWINGS[name]
    root = ET.fromstring(drawing.svg)
    first = root[0]
    # The first thing painted, so under every mark, and over the whole view box.
    assert first.tag == f"{SVG}rect"
    assert root.attrib["viewBox"] == f"0 0 {drawing.width} {drawing.height}"
    assert float(first.attrib.get("x", 0)) == 0 and float(first.attrib.get("y", 0)) == 0
    assert (float(first.attrib["width"]), float(first.attrib["height"])) == (
        drawing.width,
        drawing.height,
    )
    assert contrast(parse_colour(first.attrib["fill"]), WHITE) == 1.0


@pytest.mark.parametrize("name", list(DRAWINGS))
def test_every_text_of_a_drawing_reads_at_4_5_to_1_on_its_ground(name: str) -> None:
    root = ET.fromstring(DRAWINGS[name].svg)
    ground = parse_colour(root[0].attrib["fill"])
    parents = {child: parent for parent in root.iter() for child in parent}
    seen = 0
    for element in root.iter(f"{SVG}text"):
        # Its fill is its own, or the nearest enclosing element's (SVG inherits fill).
        chain = [element]
        while chain[-1] in parents:
            chain.append(parents[chain[-1]])
        if any(e.attrib.get("opacity") == str(FADED) for e in chain):
            continue  # a row still to come, faded on purpose while a lesson steps
        fill = next(e.attrib["fill"] for e in chain if "fill" in e.attrib)
        ratio = contrast(parse_colour(fill), ground)
        assert ratio >= 4.5, f"{element.text!r} in {fill}: {ratio:.2f}:1"
        seen += 1
    assert seen > 5
