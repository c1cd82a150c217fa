"""No Vega warnings: the causes of "Conflicting legend property" and "Infinite extent", read
from the templates; and, in headless Chromium (marked ``browser``), every kind of drawing
rendered by vega-embed with its console read."""

import json
import shutil
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from asyncfail import Fault, Mode, Scenario, simulate
from asyncfail.charts import specs
from asyncfail.charts.templates import TEMPLATES as LOADED
from asyncfail.lab.faults import parse_plan
from asyncfail.lab.settings import LabSettings

TEMPLATES: dict[str, dict[str, Any]] = LOADED
LEGEND_CHANNELS = ("color", "fill", "stroke", "shape", "size", "opacity", "strokeDash")


def legends_by_field(template: dict[str, Any]) -> dict[str, list[Any]]:
    """Every legend-bearing channel of every layer, by field: Vega-Lite merges them into one
    legend per field, so their legend properties must agree."""
    found: dict[str, list[Any]] = {}
    for layer in template["layer"]:
        for channel in LEGEND_CHANNELS:
            encoding = layer.get("encoding", {}).get(channel)
            if not isinstance(encoding, dict) or "field" not in encoding:
                continue
            if encoding.get("scale", {}) is None:
                continue  # no scale, no legend
            found.setdefault(encoding["field"], []).append(encoding.get("legend", {}))
    return found


@pytest.mark.parametrize("name", sorted(TEMPLATES))
def test_channels_of_one_field_agree_on_their_legend(name: str) -> None:
    # "Conflicting legend property disable": one channel showed the legend, another hid it.
    for field, legends in legends_by_field(TEMPLATES[name]).items():
        assert all(legend == legends[0] for legend in legends), (name, field, legends)


def scales(value: Any) -> list[dict[str, Any]]:
    if isinstance(value, dict):
        found = [value["scale"]] if isinstance(value.get("scale"), dict) else []
        return found + [s for v in value.values() for s in scales(v)]
    if isinstance(value, list):
        return [s for v in value for s in scales(v)]
    return []


@pytest.mark.parametrize("name", sorted(TEMPLATES))
def test_no_axis_end_is_left_to_the_data(name: str) -> None:
    # With only domainMin or domainMax set, Vega reads the other end from the data as well,
    # and an empty dataset (a run without records, a zoom without the current inputs) gives
    # "Infinite extent". A parameter's ends are one expression: "[0, x_max]".
    for scale in scales(TEMPLATES[name]):
        assert "domainMin" not in scale and "domainMax" not in scale, (name, scale)


def drawings() -> dict[str, dict[str, Any]]:
    """One drawing of every template, with the empty datasets that used to warn."""
    naive = simulate(Scenario(fault=Fault.CRASH_AFTER_EFFECT, mode=Mode.NAIVE))
    expiring = simulate(
        Scenario(
            fault=Fault.CRASH_AFTER_EFFECT,
            settings=LabSettings(retention="60", redelivery_delay="60"),
        )
    )
    two = simulate(
        Scenario(plan=parse_plan("1:pause-after-effect"), settings=LabSettings(workers=2))
    )
    return {
        "timeline": specs.timeline_spec(naive, step=3),
        "bare timeline": specs.time_timeline_spec(naive),
        "time timeline": specs.time_timeline_spec(expiring, step=4),
        "workers timeline": specs.time_timeline_spec(two),
    }


@pytest.mark.browser
def test_vega_embed_prints_no_warning_for_any_chart() -> None:
    vl_convert = pytest.importorskip("vl_convert")
    sync_api = pytest.importorskip("playwright.sync_api")
    chromium = shutil.which("chromium") or "/usr/bin/chromium"
    if shutil.which(chromium) is None:
        pytest.skip("Chromium is not installed (apt-get install chromium)")
    bundle = vl_convert.javascript_bundle().replace("</script>", "<\\/script>")

    def render() -> dict[str, list[str]]:
        # In a thread of its own: another test's Playwright page on this worker may hold the
        # main thread's event loop, where the sync API refuses to start.
        said: dict[str, list[str]] = {}
        with sync_api.sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=chromium)
            for name, spec in drawings().items():
                page = browser.new_page()
                # Nothing leaves the machine: the bundle holds every library, the spec its data.
                page.route("**/*", lambda route: route.abort())
                messages: list[str] = []
                page.on(
                    "console", lambda m, messages=messages: messages.append(f"{m.type}: {m.text}")
                )
                page.set_content(
                    f"<div id=v></div><script>{bundle}</script><script>"
                    f"vegaEmbed('#v', {json.dumps(spec)}).then(() => {{ window.done = 1 }})"
                    ".catch(e => { console.error(String(e)); window.done = 1 })</script>"
                )
                page.wait_for_function("window.done === 1", timeout=30_000)
                said[name] = messages
                page.close()
            browser.close()
        return said

    with ThreadPoolExecutor(max_workers=1) as pool:
        said = pool.submit(render).result()
    assert said == {name: [] for name in said}
