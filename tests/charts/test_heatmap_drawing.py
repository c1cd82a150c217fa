"""The retention heatmap drawn as SVG, read back: every cell against the single evaluator."""

import re
import xml.etree.ElementTree as ET
from itertools import pairwise

import pytest

from asyncfail.charts.heatmap import findings_present, overview_axis
from asyncfail.charts.heatmap_drawing import (
    heatmap_drawing,
    tick_label,
    tick_step,
    tick_values,
)
from asyncfail.charts.look import FINDING_COLOURS
from asyncfail.contract.experiment import ContractScenario, evaluate
from asyncfail.contract.rules import CORRECT_FINDINGS, Finding
from asyncfail.contract.sweep import RetentionSweep, sweep_around_boundary, sweep_retention
from asyncfail.ground.durations import Duration

SVG = "{http://www.w3.org/2000/svg}"


def overview(scenario: ContractScenario) -> RetentionSweep:
    axis = overview_axis(scenario)
    return sweep_retention(scenario, axis, axis)


SCENARIOS = {
    "seed": ContractScenario(),
    "key per attempt": ContractScenario(scope="attempt", retention_seconds=100, delay_seconds=30),
    "other tenant, operation key": ContractScenario(
        scope="operation", second="other-tenant", retention_seconds="7.5", delay_seconds=7
    ),
    "ignored conflict, retained at the boundary": ContractScenario(
        second="different-amount", policy="ignore", boundary="retained-at-boundary"
    ),
}
SWEEPS = {
    f"{name}, {view}": sweep
    for name, scenario in SCENARIOS.items()
    for view, sweep in (
        ("overview", overview(scenario)),
        ("zoom", sweep_around_boundary(scenario, radius_seconds=5)),
    )
}


def parsed(sweep: RetentionSweep, title: str = "Heatmap") -> ET.Element:
    return ET.fromstring(heatmap_drawing(sweep, title).svg)


def cell_rects(svg: ET.Element) -> list[ET.Element]:
    return [r for r in svg.iter(f"{SVG}rect") if "data-finding" in r.attrib]


def single(sweep: RetentionSweep, retention_ms: int, delay_ms: int) -> Finding:
    """The finding of one cell by the single-request evaluator, not the sweep."""
    scenario = sweep.scenario.model_copy(
        update={"retention_seconds": Duration(retention_ms), "delay_seconds": Duration(delay_ms)}
    )
    return evaluate(scenario).finding


@pytest.mark.parametrize("name", SWEEPS)
def test_every_cell_is_drawn_once_with_the_single_evaluators_finding(name: str) -> None:
    sweep = SWEEPS[name]
    delays = [d.millis for d in sweep.delays]
    covered: list[tuple[int, int]] = []
    for rect in cell_rects(parsed(sweep)):
        retention = int(rect.get("data-retention-ms", ""))
        first = delays.index(int(rect.get("data-delay-from-ms", "")))
        last = delays.index(int(rect.get("data-delay-to-ms", "")))
        finding = Finding(rect.get("data-finding"))
        assert rect.get("fill") == FINDING_COLOURS[finding], "one colour per finding"
        for delay in delays[first : last + 1]:
            assert single(sweep, retention, delay) is finding, (retention, delay)
            covered.append((retention, delay))
    grid = [(r.millis, d) for r in sweep.retentions for d in delays]
    assert covered == grid, "every cell once, retention-major, delays upwards"


@pytest.mark.parametrize("name", SWEEPS)
def test_a_column_draws_one_rectangle_per_run_of_equal_outcomes(name: str) -> None:
    sweep = SWEEPS[name]
    outcomes = list(zip(sweep.record, sweep.disposition, sweep.effects, sweep.finding, strict=True))
    size = len(sweep.delays)
    runs = sum(
        1 + sum(a != b for a, b in pairwise(outcomes[i * size : (i + 1) * size]))
        for i in range(len(sweep.retentions))
    )
    assert len(cell_rects(parsed(sweep))) == runs


@pytest.mark.parametrize("name", SWEEPS)
def test_the_rectangles_tile_the_frame_without_a_seam(name: str) -> None:
    svg = parsed(SWEEPS[name])
    frame = next(r for r in svg.iter(f"{SVG}rect") if r.get("stroke") == "#888888")
    left, top = float(frame.get("x", "")), float(frame.get("y", ""))
    right, bottom = left + float(frame.get("width", "")), top + float(frame.get("height", ""))
    columns: dict[str, list[ET.Element]] = {}
    for rect in cell_rects(svg):
        columns.setdefault(rect.get("data-retention-ms", ""), []).append(rect)

    def edges(rect: ET.Element, start: str, length: str) -> tuple[float, float]:
        low = float(rect.get(start, ""))
        return low, round(low + float(rect.get(length, "")), 1)

    xs = [edges(rects[0], "x", "width") for rects in columns.values()]
    assert xs[0][0] == pytest.approx(left, abs=0.05) and xs[-1][1] == pytest.approx(right, abs=0.05)
    assert all(a[1] == b[0] for a, b in pairwise(xs)), "neighbouring columns share an edge"
    for rects in columns.values():
        assert {edges(r, "x", "width") for r in rects} == {edges(rects[0], "x", "width")}
        ys = [edges(r, "y", "height") for r in rects]  # from the bottom up
        assert ys[0][1] == pytest.approx(bottom, abs=0.05)
        assert ys[-1][0] == pytest.approx(top, abs=0.05)
        assert all(lower[0] == upper[1] for lower, upper in pairwise(ys))


def cross_centres(svg: ET.Element) -> list[tuple[float, float]]:
    """The vertices of the path that draws a cross at each (``M x,y`` then ``V y``), once the
    path is checked to draw the white cross marker at every vertex and nothing else."""
    (path,) = [p for p in svg.iter(f"{SVG}path") if p.get("marker-mid")]
    marker = path.get("marker-mid", "")
    assert path.get("marker-start") == path.get("marker-end") == marker
    assert (path.get("stroke"), path.get("fill")) == ("none", "none"), "only the markers show"
    (defined,) = [m for m in svg.iter(f"{SVG}marker") if f"url(#{m.get('id')})" == marker]
    assert {p.get("stroke") for p in defined.iter(f"{SVG}path")} == {"#ffffff"}
    centres: list[tuple[float, float]] = []
    for command, x, y in re.findall(r"([MV])(?:([\d.]+),)?([\d.]+)", path.get("d", "")):
        centres.append((float(x) if command == "M" else centres[-1][0], float(y)))
    return centres


@pytest.mark.parametrize("name", SWEEPS)
def test_every_wrong_cell_carries_a_cross_so_colour_is_not_all_that_says_it(name: str) -> None:
    sweep = SWEEPS[name]
    svg = parsed(sweep)
    wrong = [r for r in cell_rects(svg) if Finding(r.get("data-finding")) not in CORRECT_FINDINGS]

    def inside(rect: ET.Element, x: float, y: float) -> bool:
        left, top = float(rect.get("x", "")), float(rect.get("y", ""))
        right, bottom = left + float(rect.get("width", "")), top + float(rect.get("height", ""))
        return left < x < right and top < y < bottom

    centres = cross_centres(svg)
    assert len(centres) == sum(f not in CORRECT_FINDINGS for f in sweep.finding)
    assert len(set(centres)) == len(centres), "one cross per cell"
    for x, y in centres:
        assert any(inside(rect, x, y) for rect in wrong), (x, y)
    # Every wrong rectangle holds as many crosses as it covers delays.
    delays = [d.millis for d in sweep.delays]
    for rect in wrong:
        covered = delays.index(int(rect.get("data-delay-to-ms", ""))) - delays.index(
            int(rect.get("data-delay-from-ms", ""))
        )
        assert sum(inside(rect, x, y) for x, y in centres) == covered + 1


def test_a_rectangle_says_on_hover_which_cells_it_covers_and_what_they_found() -> None:
    sweep = SWEEPS["seed, zoom"]
    hovers = [r.findtext(f"{SVG}title") for r in cell_rects(parsed(sweep))]
    # Expired at the boundary: retention 3595 s has expired for every delay from 3595 s; at
    # 3596 s the record is still there 3595 s on, and expired from 3596 s.
    assert hovers[:3] == [
        "Retention 3595 s; second request after 3595 s to 3605 s: record expired, applied, "
        "2 effects in all. ✗ One intent applied twice because the record expired",
        "Retention 3596 s; second request after 3595 s: record retained, reused, 1 effect in "
        "all. ✓ Same intent reused its retained result",
        "Retention 3596 s; second request after 3596 s to 3605 s: record expired, applied, "
        "2 effects in all. ✗ One intent applied twice because the record expired",
    ]


def test_the_legend_lists_the_findings_present_in_order_each_marked_right_or_wrong() -> None:
    sweep = SWEEPS["other tenant, operation key, zoom"]
    words = " ".join(t.text or "" for t in parsed(sweep).iter(f"{SVG}text"))
    present = findings_present(sweep)
    assert present == [Finding.NEW_INTENT_APPLIED.value, Finding.OTHER_TENANT_REJECTED.value]
    at = [words.index(f"✓ {present[0]}"), words.index("✗ Another tenant's new intent")]
    assert "Finding (✓ right, ✗ wrong)" in words and at == sorted(at)
    for absent in set(Finding) - {Finding(f) for f in present}:
        assert absent.value not in words


def test_the_diagonal_runs_corner_to_corner_where_both_axes_are_one() -> None:
    svg = parsed(SWEEPS["seed, overview"])
    frame = next(r for r in svg.iter(f"{SVG}rect") if r.get("stroke") == "#888888")
    left, top = float(frame.get("x", "")), float(frame.get("y", ""))
    size = float(frame.get("width", ""))
    (line,) = [ln for ln in svg.iter(f"{SVG}line") if ln.get("stroke-dasharray") == "6,3"]
    ends = [float(line.get(k, "")) for k in ("x1", "y1", "x2", "y2")]
    assert ends == pytest.approx([left, top + size, left + size, top], abs=0.05)


def test_the_ring_shows_the_inputs_own_finding_even_inside_a_straddling_cell() -> None:
    # 3500 s after a 3600 s retention is reused, but the overview's diagonal cell around
    # (3500, 3500) sits exactly on the boundary and is coloured "applied twice".
    scenario = ContractScenario(retention_seconds=3600, delay_seconds=3500)
    sweep = overview(scenario)
    svg = parsed(sweep)
    (ring,) = svg.iter(f"{SVG}circle")
    assert evaluate(scenario).finding is Finding.SAME_INTENT_REUSED
    assert ring.get("data-finding") == Finding.SAME_INTENT_REUSED.value
    assert ring.get("fill") == FINDING_COLOURS[Finding.SAME_INTENT_REUSED]
    assert (ring.get("data-retention-ms"), ring.get("data-delay-ms")) == ("3600000", "3500000")
    x, y = float(ring.get("cx", "")), float(ring.get("cy", ""))
    (under,) = [
        r
        for r in cell_rects(svg)
        if float(r.get("x", "")) <= x <= float(r.get("x", "")) + float(r.get("width", ""))
        and float(r.get("y", "")) <= y <= float(r.get("y", "")) + float(r.get("height", ""))
    ]
    assert under.get("data-finding") == Finding.APPLIED_TWICE_RECORD_EXPIRED.value


def test_the_ring_is_whole_at_the_corner_and_absent_off_the_grid() -> None:
    corner = ContractScenario(retention_seconds=2_592_000, delay_seconds=2_592_000)
    svg = parsed(overview(corner))
    (ring,) = svg.iter(f"{SVG}circle")
    x, y, r = (float(ring.get(k, "")) for k in ("cx", "cy", "r"))
    assert x + r <= float(svg.get("width", "")) and y - r >= 0
    off = ContractScenario(retention_seconds=3600, delay_seconds=60)
    assert list(parsed(sweep_around_boundary(off, radius_seconds=5)).iter(f"{SVG}circle")) == []


TICK = re.compile(r"^(\d{1,3}(,\d{3})*(\.\d+)?) (s|min|h|d)$")


@pytest.mark.parametrize(
    ("retention", "delay", "unit"),
    [(5, 1, "s"), (30, 60, "min"), (3600, 60, "h"), (86_400, 60, "d"), (2_592_000, 60, "d")],
)
def test_axes_read_in_one_human_unit_and_never_in_exponents(
    retention: int, delay: int, unit: str
) -> None:
    scenario = ContractScenario(retention_seconds=retention, delay_seconds=delay)
    texts = [t.text or "" for t in parsed(overview(scenario)).iter(f"{SVG}text")]
    ticks = [TICK.match(t) for t in texts]
    labels = [m for m in ticks if m]
    assert len(labels) >= 6, texts  # both axes, three or more each
    assert {m[4] for m in labels} == {unit}
    assert all(float(m[1].replace(",", "")) < 1000 for m in labels)
    assert "0 " + unit in texts and "-0 " + unit not in texts


@pytest.mark.parametrize(
    ("span", "step"),
    [(10, 2), (7, 2), (2.78, 1), (100, 20), (0.5, 0.1), (3, 1), (12, 5), (1000, 200)],
)
def test_a_tick_step_is_one_two_or_five_times_a_power_of_ten(span: float, step: float) -> None:
    assert tick_step(span) == pytest.approx(step)


def test_tick_values_and_labels() -> None:
    assert tick_values(-0.125, 2.6) == pytest.approx([0, 1, 2])
    assert tick_values(3594.5, 3605.5) == pytest.approx([3595, 3600, 3605])
    assert tick_label(2500, 500, "s") == "2,500 s"
    assert tick_label(1.5, 0.5, "h") == "1.5 h"
    assert tick_label(-0.0, 1, "d") == "0 d"
    assert tick_label(0.30000000000000004, 0.1, "s") == "0.3 s"


def test_the_drawing_is_named_and_described() -> None:
    sweep = SWEEPS["seed, zoom"]
    drawing = heatmap_drawing(sweep, "Zoom: the seconds around the boundary")
    svg = ET.fromstring(drawing.svg)
    assert svg.get("role") == "img" and svg.get("class") == "heatmap-view"
    assert svg.get("aria-label") == drawing.title == "Zoom: the seconds around the boundary"
    assert drawing.description.startswith("Heatmap of the finding over retention 3595 s")
    assert (int(svg.get("width", "")), int(svg.get("height", ""))) == (
        drawing.width,
        drawing.height,
    )
