"""Where a lesson's recompute spends its Python time inside the WebAssembly page: cProfile.

`python bench/page_profile.py --site DIR --lesson 01 [--changes 8] [--sort cumulative]` exports
a copy of the lesson (with the bench's probe cells, and two more: a "profile" dropdown and a
cell that switches `cProfile` on, or off and prints its table) into `DIR/bench/profile-NN/`,
opens it in Chromium, switches "Skip predicting" on where the lesson has it, then switches the
profiler on, changes the lesson's first dropdown (the one `export_bench.py` times) `--changes`
times, switches it off and prints the table Pyodide's own `pstats` wrote in the page. `DIR` is
a site built before (`make export`, or `build_site`): its wheel is the library the page loads.

The table counts the profiler's own cost, which weighs most on many small Python calls: read
its shares, not its seconds, and time a lever with `export_bench.py`, alternating.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "exports"))
sys.path.insert(0, str(ROOT / "bench"))

import export_bench  # noqa: E402
from browser import launch  # noqa: E402
from build import export_wasm  # noqa: E402
from lessons import Lesson  # noqa: E402
from serve import serving  # noqa: E402

SORTS = ("tottime", "cumulative", "ncalls")
ROWS = 60
# The profiler lives in `builtins`: a cell's private names do not outlive its run, and the run
# that prints must find the profiler an earlier run of the same cell switched on.
PROFILE_CELLS = """

@app.cell
def _():
    import marimo as _mo

    bench_profile = _mo.ui.dropdown(["off", "on", "print"], value="off", label="bench profile")
    bench_profile
    return (bench_profile,)


@app.cell
def _(bench_profile):
    import builtins as _builtins
    import cProfile as _cProfile
    import html as _html
    import io as _io
    import pstats as _pstats

    import marimo as _mo

    _table = ""
    if bench_profile.value == "on":
        _builtins.bench_profiler = _cProfile.Profile()
        _builtins.bench_profiler.enable()
    elif bench_profile.value == "print":
        _builtins.bench_profiler.disable()
        _out = _io.StringIO()
        _pstats.Stats(_builtins.bench_profiler, stream=_out).sort_stats(SORT).print_stats(ROWS)
        _table = _out.getvalue()
    _mo.Html(f"<pre data-bench-profile>{_html.escape(_table)}</pre>")
    return
"""


def profile_copy(lesson: Lesson, folder: Path, sort: str) -> Lesson:
    """``lesson`` with the bench's probe cells and the profiler's, to be exported."""
    cells = PROFILE_CELLS.replace("SORT", repr(sort)).replace("ROWS", str(ROWS))
    return export_bench.probe_copy(lesson, folder, cells, f"bench/profile-{lesson.number}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", type=Path, required=True, help="a site built before")
    parser.add_argument("--lesson", required=True, metavar="NN", help="a lesson's number, as 01")
    parser.add_argument("--changes", type=int, default=8, help="changes profiled (1-50)")
    parser.add_argument("--sort", default="tottime", choices=SORTS, help="the table's order")
    args = parser.parse_args()
    if not 1 <= args.changes <= 50:
        parser.error(f"--changes {args.changes}: a whole number from 1 to 50")
    wheel, lesson, chromium = export_bench.site_lesson_chromium(parser, args.site, args.lesson)
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        copy = profile_copy(lesson, Path(tmp), args.sort)
        (args.site / copy.site_dir).mkdir(parents=True, exist_ok=True)
        export_wasm(copy, args.site / copy.site_dir, wheel)
    with serving(args.site) as url, sync_playwright() as playwright:
        browser = launch(playwright, chromium)
        context, page, _live = export_bench.booted(
            browser, f"{url}{copy.site_dir}/", "[data-bench-profile]"
        )
        export_bench.skip_predicting(page)
        control = export_bench.lesson_dropdown(page, ("bench profile",))
        if control is None:
            raise SystemExit(
                f"lesson {args.lesson}: no dropdown outside a form to change (did the page's"
                " cells fail? the site's wheel must be the library the notebooks import)"
            )
        switch = export_bench.select_of(page.get_by_label("bench profile"))
        export_bench.settle_ms(page, lambda: switch.select_option("on"))
        times = [export_bench.change(page, control).total for _ in range(args.changes)]
        export_bench.settle_ms(page, lambda: switch.select_option("print"))
        label = control.evaluate(export_bench.LABEL)
        print(f"lesson {args.lesson}: {args.changes} changes of {label[:40]!r}, profiled")
        print("each change (ms, profiler on):", ", ".join(f"{t:.0f}" for t in times))
        print(page.locator("[data-bench-profile]").inner_text())
        context.close()
        browser.close()


if __name__ == "__main__":
    main()
