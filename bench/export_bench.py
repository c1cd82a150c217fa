"""Benchmarks of the published site (`make bench`): medians and ratios, never pass/fail.

- build time of the whole site, its total size and the size of the asyncfail wheel it ships;
- time from navigation to the first rendered result of lesson 1's WebAssembly page (the JSON
  `asyncfail lab` prints, computed in the browser), as a ratio to a trivial marimo WebAssembly
  page served from the same site in the same run (goal within 1.2x: the library and its wheel
  must add little to start-up). Each load runs in a
  fresh browser context (cold cache); the two pages alternate so machine noise hits both alike.
Needs Debian's Chromium (`apt-get install chromium`); without it only the build is measured.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "exports"))

from browser import LoopbackGuard, find_chromium, launch  # noqa: E402
from build import build_site, export_wasm  # noqa: E402
from lessons import Lesson  # noqa: E402
from serve import serving  # noqa: E402

RUNS = 5
TRIVIAL = '''"""Trivial page

The baseline of the start-up benchmark: marimo alone, one output.
"""

import marimo

app = marimo.App()


@app.cell
def _():
    import marimo as mo

    return (mo,)


@app.cell
def _(mo):
    mo.Html("<p data-bench-ready>ready</p>")
    return


if __name__ == "__main__":
    app.run()
'''
FIRST_RESULT = {
    "trivial": "[data-bench-ready]",
    "lab": "text=JSON printed by",
}


def load_seconds(browser, url: str, selector: str) -> float:  # type: ignore[no-untyped-def]
    context = browser.new_context()
    guard = LoopbackGuard()
    guard.install(context)
    page = context.new_page()
    start = time.perf_counter()
    page.goto(url)
    page.locator(selector).first.wait_for(timeout=300_000)
    seconds = time.perf_counter() - start
    context.close()
    if guard.blocked:
        raise SystemExit(f"{url} made third-party requests: {guard.blocked[:3]}")
    return seconds


def main() -> None:
    chromium = find_chromium()
    with tempfile.TemporaryDirectory() as tmp:
        site = Path(tmp) / "site"
        start = time.perf_counter()
        report = build_site(site, log=lambda _msg: None, pictures=chromium is not None)
        build_s = time.perf_counter() - start
        size = sum(p.stat().st_size for p in site.rglob("*") if p.is_file())
        wheels = sorted(site.glob("lessons/01_*/public/wheels/asyncfail-*.whl"))
        print(f"export: site build ({len(report.pages)} pages)      {build_s:8.1f} s")
        print(f"export: site total size                {size / 1e6:8.1f} MB  (goal < 60 MB)")
        for wheel in wheels:
            print(f"export: asyncfail wheel                {wheel.stat().st_size / 1e3:8.1f} kB")

        notebook = Path(tmp) / "trivial_wasm.py"
        notebook.write_text(TRIVIAL, encoding="utf-8")
        trivial = Lesson(notebook, "trivial", "", "Trivial page", "", "bench/trivial")
        (site / trivial.site_dir).mkdir(parents=True)
        export_wasm(trivial, site / trivial.site_dir, wheels[0])

        if chromium is None:
            print("export: WebAssembly start-up skipped (apt-get install chromium to measure)")
            return
        from playwright.sync_api import sync_playwright

        samples: dict[str, list[float]] = {"trivial": [], "lab": []}
        with serving(site) as url, sync_playwright() as playwright:
            browser = launch(playwright, chromium)
            lab = next(p.site_dir for p in report.pages if p.slug.startswith("01_"))
            pages = {"trivial": f"{url}bench/trivial/", "lab": f"{url}{lab}/"}
            for run in range(RUNS):
                order = ["trivial", "lab"] if run % 2 == 0 else ["lab", "trivial"]
                for name in order:
                    samples[name].append(load_seconds(browser, pages[name], FIRST_RESULT[name]))
            browser.close()
        trivial_s = statistics.median(samples["trivial"])
        lab_s = statistics.median(samples["lab"])
        print(f"export: trivial WASM page first output median {trivial_s:6.2f} s  ({RUNS} runs)")
        print(f"export: WASM lesson 1 first result     median {lab_s:6.2f} s  ({RUNS} runs)")
        print(
            f"export: WASM lab / trivial ratio              {lab_s / trivial_s:6.2f}x "
            "(goal <= 1.2x)"
        )


if __name__ == "__main__":
    main()
