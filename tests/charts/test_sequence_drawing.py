"""The sequence view's drawing, read back as SVG: every arrow between the lanes it names, in the
order the hand-derived diagrams give (test_sequence.py's EXPECTED), each lost one dashed and
stopping halfway, the step being shown drawn larger and the rows still to come faded."""

import math
import re
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

from asyncfail import Fault, Mode, Scenario, simulate
from asyncfail.charts.drawing import SHAPES, Drawing, symbol, wrapped
from asyncfail.charts.look import MARKER_COLOURS, MARKER_SHAPES
from asyncfail.charts.sequence import describe_sequence, sequence_table
from asyncfail.charts.sequence_drawing import FADED, sequence_drawing, sequence_view
from asyncfail.charts.timeline import Marker
from asyncfail.lab.faults import parse_plan
from asyncfail.lab.results import LabResult
from asyncfail.lab.settings import LabSettings
from tests.charts.test_sequence import EXPECTED, RUNS

SVG = "{http://www.w3.org/2000/svg}"


def parsed(drawing: Drawing) -> ET.Element:
    root = ET.fromstring(drawing.svg)
    assert root.tag == f"{SVG}svg"
    return root


def lanes(root: ET.Element) -> dict[float, str]:
    """Each lane's x, read from its heading: the bold 12-pixel texts above the rows."""
    return {
        float(t.attrib["x"]): str(t.text)
        for t in root.findall(f"{SVG}text")
        if t.attrib.get("font-size") == "12"
    }


def lane_at(x: float, where: dict[float, str]) -> str:
    (name,) = [n for at, n in where.items() if abs(at - x) < 6]
    return name


def read_back(drawing: Drawing) -> list[tuple[object, ...]]:
    """The drawing as (step, from, to, message, fate) rows, from its geometry alone: an arrow's
    ends are the lanes nearest its line's ends (a lost one's end lies halfway, so its recipient
    is the lane as far beyond the ✗ again), a note is on the lane beside it, the step the last
    number written to the left."""
    root = parsed(drawing)
    where = lanes(root)
    rows: list[tuple[object, ...]] = []
    step: object = None
    for group in root.findall(f"{SVG}g"):
        texts = group.findall(f"{SVG}text")
        numbers = [t for t in texts if t.attrib.get("fill") == "#666666"]
        if numbers:
            step = int(str(numbers[0].text))
        elif group.attrib["data-row"] == "0" or "delivery" in str(texts[-1].text):
            step = None
        message = str(texts[-1].text)
        line = group.find(f"{SVG}line")
        if line is None:
            (note,) = [t for t in texts if t.attrib.get("font-style") == "italic"]
            x = float(note.attrib["x"]) + (10 if note.attrib["text-anchor"] == "end" else -10)
            lane = lane_at(x, where)
            rows.append((step, lane, lane, message, "local"))
            continue
        start, end = float(line.attrib["x1"]), float(line.attrib["x2"])
        lost = line.attrib.get("stroke-dasharray") is not None
        if lost:
            cut = [t for t in texts if t.text == "✗"]
            assert cut and float(cut[0].attrib["x"]) == end
            end = 2 * end - start
        else:
            end += 5 if end > start else -5  # the head's tip lies on the lane
        rows.append(
            (
                step,
                lane_at(start, where),
                lane_at(end, where),
                message,
                "lost" if lost else "delivered",
            )
        )
    return rows


def run(fault: Fault, mode: Mode) -> LabResult:
    return simulate(Scenario(fault=fault, mode=mode))


@pytest.mark.parametrize(("fault", "mode"), list(EXPECTED))
def test_the_drawing_reads_back_as_the_hand_derived_diagram(fault: Fault, mode: Mode) -> None:
    drawing = sequence_drawing(run(fault, mode), width=380)
    assert read_back(drawing) == EXPECTED[fault, mode]


def test_a_lost_message_is_dashed_red_and_cut_halfway_between_the_lanes() -> None:
    root = parsed(sequence_drawing(run(Fault.RESPONSE_LOST, Mode.NAIVE), width=425))
    where = {name: x for x, name in lanes(root).items()}
    reply = root.findall(f"{SVG}g")[2]
    assert reply.attrib["data-fate"] == "lost"
    line = reply.find(f"{SVG}line")
    assert line is not None and line.attrib["stroke"] == "#c0392b"
    half = (where["receiver"] + where["worker"]) / 2
    assert float(line.attrib["x1"]) == where["receiver"] and float(line.attrib["x2"]) == half
    # No arrowhead on a lost message: only the ✗ (and the debit's marker on its tail's lane).
    heads = [p for p in reply.findall(f"{SVG}path") if p.attrib["fill"] == "#333333"]
    assert heads == []


def test_lanes_sit_where_vega_placed_them_and_everything_stays_inside() -> None:
    for width in (340, 380, 520):
        result = simulate(
            Scenario(plan=parse_plan("1:pause-after-effect"), settings=LabSettings(workers=2))
        )
        drawing = sequence_drawing(result, width=width)
        root = parsed(drawing)
        # Lane i of n at (i + 0.75) / (n + 0.25) of the width.
        assert sorted(lanes(root)) == [round((i + 0.75) / 5.25 * width, 1) for i in range(5)]
        assert root.attrib["viewBox"] == f"0 0 {width} {drawing.height}"
        for element in root.iter():
            for name in ("x", "x1", "x2"):
                if name in element.attrib:
                    assert 0 <= float(element.attrib[name]) <= width, element.attrib
            for name in ("y", "y1", "y2"):
                if name in element.attrib:
                    assert 0 <= float(element.attrib[name]) <= drawing.height, element.attrib


def test_stepping_fades_the_rows_to_come_and_draws_the_shown_step_larger() -> None:
    result = run(Fault.CRASH_AFTER_EFFECT, Mode.DURABLE)
    groups = parsed(sequence_drawing(result, step=4)).findall(f"{SVG}g")
    # By hand (test_sequence.py): delivery 1, steps 1 (two rows), 2, 3, delivery 2, then step
    # 4 (row 6), 5 (two rows), 6.
    faded = [g.attrib.get("opacity") == str(FADED) for g in groups]
    assert faded == [False] * 7 + [True] * 3
    assert [g.attrib["data-state"] for g in groups][5:8] == ["past", "current", "future"]
    (note,) = [t for t in groups[6].findall(f"{SVG}text") if t.attrib.get("font-style")]
    assert note.attrib["font-size"] == "12" and note.text == "replays its run"
    assert all(
        t.attrib["font-size"] == "10"
        for g in groups[:6]
        for t in g.findall(f"{SVG}text")
        if t.text != "✗"
    )
    # Without a step, nothing is faded or larger: the drawing is the whole run's.
    whole = parsed(sequence_drawing(result)).findall(f"{SVG}g")
    assert {g.attrib["data-state"] for g in whole} == {"past"}
    assert not any("opacity" in g.attrib for g in whole)


def test_markers_keep_every_charts_colours_and_shapes_and_the_legend_lists_those_drawn() -> None:
    result = run(Fault.RESPONSE_LOST, Mode.DURABLE)
    root = parsed(sequence_drawing(result, width=520))
    legend = [t.text for t in root.findall(f"{SVG}text")]
    at = legend.index("Event type")
    # Drawn in this run: the debit, the timeout, the lookup and the delivery facts.
    expected = [Marker.BUSINESS_EFFECT, Marker.TIMEOUT, Marker.LOOKUP, Marker.DELIVERY_FACT]
    assert legend[at + 1 :] == [m.value for m in expected]
    fills = [p.attrib["fill"] for p in root.findall(f"{SVG}path")]
    look = dict(zip(Marker, MARKER_COLOURS, strict=True))
    assert fills[-4:] == [look[m] for m in expected]
    # The debit's marker, on the receiver's lane, is a diamond: drawn from the shape's outline.
    (debit,) = [
        p
        for g in root.findall(f"{SVG}g")
        for p in g.findall(f"{SVG}path")
        if p.attrib["fill"] == look[Marker.BUSINESS_EFFECT]
    ]
    assert debit.attrib["d"].count("L") == len(SHAPES["diamond"]) - 1
    assert dict(zip(Marker, MARKER_SHAPES, strict=True))[Marker.BUSINESS_EFFECT] == "diamond"


def test_each_row_says_on_hover_what_the_table_says() -> None:
    result = run(Fault.RESPONSE_LOST, Mode.NAIVE)
    groups = parsed(sequence_drawing(result)).findall(f"{SVG}g")
    hovers = [str(g.findtext(f"{SVG}title")) for g in groups]
    table = sequence_table(result)
    assert len(hovers) == len(table)
    for hover, row in zip(hovers, table, strict=True):
        assert row["message"] in hover and str(row["what happens"]) in hover
        assert hover.startswith(f"Step {row['step']}, " if row["step"] != "" else "delivery ")
    assert hovers[2].startswith(
        "Step 2, delivery 1, at 0 s. receiver → worker: debited; reply (lost)."
    )


def test_the_view_is_the_drawing_its_description_and_its_table() -> None:
    result = run(Fault.CRASH_AFTER_EFFECT, Mode.NAIVE)
    drawing, table = sequence_view(result, width=380)
    assert drawing == sequence_drawing(result, width=380) and list(table) == sequence_table(result)
    # Asked again, the same view: the run is frozen, so it is not drawn twice.
    assert sequence_view(result, width=380) is sequence_view(result, width=380)
    assert sequence_view(result, 2, 380)[0] == sequence_drawing(result, 2, 380)
    root = parsed(drawing)
    assert drawing.description == describe_sequence(result)
    assert root.attrib["role"] == "img"
    assert (
        root.attrib["aria-label"]
        == drawing.title
        == ("naive runtime: crash-after-effect, message by message")
    )
    assert (root.attrib["width"], root.attrib["height"]) == ("380", str(drawing.height))
    assert drawing._mime_() == ("text/html", drawing.svg)
    # At a step, the rows made once for both still give the whole run's table and sentence.
    stepped, table = sequence_view(result, step=2)
    assert stepped == sequence_drawing(result, step=2) and list(table) == sequence_table(result)
    assert stepped.description == describe_sequence(result)


def test_the_title_wraps_between_words_within_the_width() -> None:
    # 23 characters a line at 13 pixels (0.52 of 13 a character) in 160 pixels.
    assert wrapped("naive runtime: crash-after-effect, message by message", 13, 160) == [
        "naive runtime:",
        "crash-after-effect,",
        "message by message",
    ]
    assert wrapped("a " + "x" * 40 + " b", 10, 100) == ["a", "x" * 40, "b"]
    root = parsed(sequence_drawing(run(Fault.CRASH_AFTER_EFFECT, Mode.NAIVE), width=200))
    titles = [t.text for t in root.findall(f"{SVG}text") if t.attrib.get("font-size") == "13"]
    assert " ".join(map(str, titles)) == "naive runtime: crash-after-effect, message by message"


def test_symbols_are_centred_and_sized_and_an_unknown_one_is_named() -> None:
    # A square of 100 square pixels: 10 pixels a side around its centre.
    assert symbol("square", 50, 20, 100) == "M45.0,15.0L55.0,15.0L55.0,25.0L45.0,25.0Z"
    # An arrowhead's tip points its way, 1.2 half-sides from its centre.
    assert symbol("triangle-right", 50, 20, 100).startswith("M56.0,20.0")
    assert symbol("triangle-left", 50, 20, 100).startswith("M44.0,20.0")
    r = math.sqrt(100 / math.pi)
    assert symbol("circle", 50, 20, 100).startswith(f"M{50 - r:.1f},20.0a{r:.1f},{r:.1f}")
    with pytest.raises(ValueError, match="no symbol 'star': one of circle, cross, diamond"):
        symbol("star", 0, 0, 10)


@pytest.mark.parametrize("scenario", RUNS[::5], ids=lambda s: f"{s.fault}-{s.mode}")
def test_every_run_draws_one_group_per_row_in_well_formed_svg(scenario: Scenario) -> None:
    result = simulate(scenario)
    drawing, table = sequence_view(result, width=380)
    root = parsed(drawing)
    assert [g.attrib["data-row"] for g in root.findall(f"{SVG}g")] == [
        str(i) for i in range(len(table))
    ]
    # One decimal everywhere: the same text in any process.
    assert not re.search(r"\d\.\d{2,}", drawing.svg)


def test_the_same_run_draws_the_same_text_in_another_process() -> None:
    code = (
        "from asyncfail import Fault, Mode, Scenario, simulate;"
        "from asyncfail.charts.sequence_drawing import sequence_drawing;"
        "print(sequence_drawing(simulate(Scenario(fault=Fault.RESPONSE_LOST)), step=3).svg)"
    )
    other = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    here = sequence_drawing(simulate(Scenario(fault=Fault.RESPONSE_LOST)), step=3).svg
    assert other == here + "\n"
