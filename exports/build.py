"""Build the publishable site (``make export``): static and WebAssembly pages of every lesson.

Layout of the site (default ``exports/site/``):

- ``index.html``: the course home (``home.py``): the course, what a learner will be able to
  do, and every lesson in order with its picture and links;
- ``_marimo/``: one shared copy of marimo's frontend assets, used by every page;
- ``pyodide/``: the site's own Pyodide mirror (see ``pyodide_mirror.py``);
- ``wheels/``: the asyncfail wheel every WebAssembly page installs, built once per site build
  by setuptools (see ``wheels.py``);
- ``lessons/NN_name/``: ``index.html`` (WebAssembly, ``--mode run``), which shows the static
  snapshot until Python is ready (``preview.py``); ``static.html`` (a snapshot with outputs);
  ``picture.png`` (the top of the snapshot, ``pictures.py``); ``sequence.svg`` at the root, the
  home's sequence view;
- ``lessons/01_async_failure_lab/present/``: lesson 1 in marimo's slides layout, for a
  projector: ``index.html``, which shows ``start.html`` (its slides as they start) until
  Python is ready.

Every page is exported from a build-time copy of its notebook titled as the course writes it
(``copies.py``).
"""

from __future__ import annotations

import argparse
import hashlib
import html
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any
from urllib.parse import quote

import marimo

sys.path.insert(0, str(Path(__file__).resolve().parent))

from a11y import accessible
from assets import patch_idle_icon, patch_rpc_timeout
from bytecode import BYTECODE_CACHE, add_bytecode
from copies import write_copy
from document import document
from early_start import kernel_script, with_early_start
from home import HomeLinks, SequencePicture, base_url, home_page
from lessons import (
    LIBRARY,
    PRESENTED,
    PRESENTER_DIR,
    ROOT,
    Lesson,
    discover,
    third_party_imports,
    top_level_imports,
)
from offline import SERVICE_WORKER, write_service_worker
from pictures import PICTURE, draw_sequence, take_pictures
from prerender import PRERENDER_CACHE, prerender
from preview import FRAME, START_PAGE, start_page, with_preview
from pyodide_mirror import CACHE, add_library, mirror_inputs, write_mirror
from wheels import LIBRARY_FILES, library_wheel

from asyncfail.course import site
from asyncfail.course.site import PageKind, page_title

HERE = Path(__file__).resolve().parent
DEFAULT_OUT = HERE / "site"
MARIMO_STATIC = Path(marimo.__file__).resolve().parent / "_static"
CDN_PREFIX = f"https://cdn.jsdelivr.net/npm/@marimo-team/frontend@{marimo.__version__}/dist"
ASSETS_DIR = "_marimo"
MIRROR_DIR = "pyodide"
WHEELS_DIR = "wheels"
SNAPSHOT_PAGE = "static.html"
# marimo's server template and a note for code assistants: not part of any exported page.
STATIC_SKIP = {"index.html", "CLAUDE.md"}
SITE_MARKER = ".asyncfail-site"
EXPORT_JOBS = max(1, min(4, os.cpu_count() or 1))
"""Lessons exported at once: one per core, at most four."""
# UI elements of a static page get an unseeded random id; the only difference between builds.
RANDOM_ID = re.compile(r"random-id=(\\u0027|'|&#x27;|&quot;|\")[0-9a-f-]{36}")


@dataclass
class BuildReport:
    out: Path
    pages: list[Lesson] = field(default_factory=list)
    seconds: float = 0.0
    # digest of the checkout's inputs, "" if they changed while the build ran
    source: str = ""


def source_fingerprint() -> str:
    """A digest of everything a build reads from the checkout (to spot edits during a build)."""
    digest = hashlib.sha256()
    for folder in ("asyncfail", "notebooks"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            digest.update(path.relative_to(ROOT).as_posix().encode() + path.read_bytes())
    for name in LIBRARY_FILES:
        digest.update((ROOT / name).read_bytes())
    return digest.hexdigest()


def marimo_env() -> dict[str, str]:
    """The environment for marimo's exporter: the venv's tools (uv) first, no update check."""
    env = dict(os.environ)
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    env["MARIMO_SKIP_UPDATE_CHECK"] = "1"
    return env


def marimo_cmd(*args: str) -> None:
    argv = [sys.executable, "-m", "marimo", "-q", "-y", "export", *args]
    result = subprocess.run(argv, cwd=ROOT, env=marimo_env(), capture_output=True, text=True)
    if result.returncode != 0:
        sys.stderr.write(result.stdout + result.stderr)
        raise SystemExit(f"marimo export failed ({result.returncode}): {' '.join(args)}")


def normalise(text: str) -> str:
    """A static page with marimo's random UI ids replaced, for comparing two builds."""
    return RANDOM_ID.sub("random-id=<id>", text)


def reproducible_content(path: Path) -> bytes:
    """What of a site file two builds of one checkout reproduce: an HTML page without marimo's
    random UI ids; a picture's size only (Chromium's anti-aliasing may vary); other files whole."""
    if path.suffix == ".html":
        return normalise(path.read_text(encoding="utf-8")).encode("utf-8")
    if path.name == PICTURE:
        return str(path.stat().st_size).encode()
    return path.read_bytes()


def up(depth: int) -> str:
    return "../" * depth


def export_static(lesson: Lesson, target: Path, snapshot: bool = True) -> None:
    """A static page with outputs: with ``snapshot``, the published snapshot, a document the
    build writes from the outputs (``document.py``); without, the lesson as an interactive page
    starts, drawn by marimo's frontend from the site's shared assets."""
    with tempfile.TemporaryDirectory() as tmp:
        raw = Path(tmp) / "static.html"
        # `--snapshot` (read by lessons through mo.cli_args) shows results that an interactive
        # page keeps behind a control, such as lesson 1's predict-then-reveal step.
        extra = ["--", "--snapshot"] if snapshot else []
        marimo_cmd("html", str(lesson.path), "-o", str(raw), "--no-include-code", *extra)
        text = raw.read_text(encoding="utf-8")
    text = text.replace(CDN_PREFIX, up(lesson.depth) + ASSETS_DIR)
    if "cdn.jsdelivr.net" in text:
        raise SystemExit(f"{lesson.slug}: a CDN reference survived the rewrite")
    if snapshot:
        text = document(text, snapshot_header(lesson.depth))
    else:
        text = accessible(text, lesson.slug)
    target.write_text(text, encoding="utf-8")


def snapshot_header(depth: int) -> str:
    """What a snapshot shows above the lesson: links to the live lesson and the course home."""
    home = html.escape(up(depth) or "./", quote=True)
    return (
        f'<nav aria-label="{html.escape(site.SNAPSHOT_NAV_NAME, quote=True)}">'
        f'<a href="./">{html.escape(site.LIVE_LINK)}</a> '
        f"<small>({html.escape(site.LIVE_LINK_NOTE)})</small> · "
        f'<a href="{home}">{html.escape(site.HOME_LINK)}</a></nav>'
    )


def export_wasm(
    lesson: Lesson, target_dir: Path, library: Path, early: bool = True, after: str = ""
) -> None:
    """The interactive page: marimo's html-wasm export, pointed at the shared assets.

    It installs ``library`` (the asyncfail wheel, from the site's ``wheels/``) and loads Pyodide
    and every package from the site's own mirror (and a package index inside the site, so a
    missing package fails instead of reaching out). With ``early``, the page starts marimo's
    kernel worker as it opens, or once the frame ``after`` selects has loaded
    (``early_start.py``); without, it is marimo's page as it is.
    """
    with tempfile.TemporaryDirectory() as tmp:
        raw = Path(tmp) / "wasm"
        marimo_cmd("html-wasm", str(lesson.path), "-o", str(raw), "--mode", "run")
        text = (raw / "index.html").read_text(encoding="utf-8")
        built = [wheel.name for wheel in sorted(raw.glob("public/wheels/*.whl"))]
        others = [p for p in raw.glob("public/**/*") if p.is_file() and p.suffix != ".whl"]
        if others:
            ignore = shutil.ignore_patterns("*.whl")
            shutil.copytree(raw / "public", target_dir / "public", ignore=ignore)
    if built:
        text = ship_library(text, lesson, built, library)
    prefix = up(lesson.depth) + ASSETS_DIR + "/"
    text = re.sub(r'(href|src)="\./(?!public/)', rf'\1="{prefix}', text)
    mirror = up(lesson.depth) + MIRROR_DIR + "/"
    addresses = {
        "pyodide-index-url": mirror,
        "pyodide-lockfile-url": f"{mirror}pyodide-lock.json",
        "pypi-index-url": f"{mirror}simple/{{package_name}}/",
    }
    attrs = " ".join(f'data-{key}="{value}"' for key, value in addresses.items())
    if text.count("<marimo-wasm hidden=") != 1:
        raise SystemExit(f"{lesson.slug}: no single <marimo-wasm> element to configure")
    text = text.replace("<marimo-wasm hidden=", f"<marimo-wasm {attrs} hidden=")
    text = accessible(text, lesson.slug)
    if early:
        assets = target_dir / up(lesson.depth) / ASSETS_DIR
        kernel = f"{up(lesson.depth)}{ASSETS_DIR}/assets/{kernel_script(assets)}"
        text = with_early_start(text, lesson.slug, kernel, addresses, after)
    (target_dir / "index.html").write_text(text, encoding="utf-8")


def ship_library(text: str, lesson: Lesson, built: list[str], library: Path) -> str:
    """Point the page at the library's own wheel (the site's ``wheels/``) instead of the one
    marimo built.

    marimo builds ``asyncfail-0.0.0+marimo.<hash>`` of the modules the notebook reaches, with
    no dependencies declared, and Pyodide installs a wheel's declared dependencies, not what its
    modules import: ``import asyncfail`` would fail for want of pydantic. The library's wheel
    declares it (pyproject.toml). The page's header names the wheel twice,
    URL-quoted in the notebook code and quoted once more in ``<marimo-code>``, relative to
    marimo's worker script, which lives in the shared assets folder two levels below the root.
    One copy serves every page (``build_site`` puts it there).
    """
    if [name.split("-")[0] for name in built] != [LIBRARY]:
        raise SystemExit(f"export: {lesson.slug}: marimo built {built}, not one {LIBRARY} wheel")
    before = f"../public/wheels/{quote(built[0])}"
    after = f"../../{WHEELS_DIR}/{quote(library.name)}"
    for old, new in ((before, after), (quote(before, safe=""), quote(after, safe=""))):
        if text.count(old) != 1:
            raise SystemExit(f"export: {lesson.slug}: the page does not name {old} once")
        text = text.replace(old, new)
    return text


def mirror_imports(mirror: Path) -> set[str]:
    lock = json.loads((mirror / "pyodide-lock.json").read_text(encoding="utf-8"))
    return {name for entry in lock["packages"].values() for name in entry["imports"]}


BOOT_PACKAGE = "marimo-base"
"""The package marimo's worker loads, with all it depends on, before it reads the notebook."""


def prefetched(lock: dict[str, Any], imports: set[str]) -> list[str]:
    """The files a page's kernel will load once it is ready, as the mirror's ``lock`` names
    them (relative to the mirror), sorted: the packages whose import names the notebook's
    ``imports`` hold, with every package they depend on, less those marimo loaded before (the
    ``BOOT_PACKAGE`` and its dependencies). Pyodide chooses the same (``loadPackagesFromImports``:
    the lock's packages a page's code imports, with their dependencies, that are not loaded)."""
    packages = lock["packages"]

    def closure(names: set[str]) -> set[str]:
        found: set[str] = set()
        todo = sorted(names)
        while todo:
            name = todo.pop()
            if name not in found:
                found.add(name)
                todo.extend(packages[name].get("depends", []))
        return found

    wanted = {name for name, entry in packages.items() if imports & set(entry["imports"])}
    return sorted(
        packages[name]["file_name"]
        for name in closure(wanted) - closure({BOOT_PACKAGE} & set(packages))
    )


def require_mirrored_imports(lesson: Lesson, available: set[str]) -> None:
    """Stop the build if a page imports a package the site's Pyodide mirror does not hold.

    Every page boots from the mirror, and publishing is unattended (the Pages workflow deploys
    what this writes): such a page would fail in the reader's browser, so it fails the build.
    """
    missing = sorted(third_party_imports(lesson.path) - available)
    if missing:
        raise SystemExit(
            f"export: {lesson.slug} imports {', '.join(missing)}, which the site's Pyodide "
            "mirror does not hold (exports/pyodide-wheels.txt)"
        )


def export_interactive(
    lesson: Lesson, target: Path, library: Path, preview: str, snapshot: str = SNAPSHOT_PAGE
) -> None:
    """The interactive page, ``index.html``, showing ``preview`` (a static page of the same
    notebook, in the same folder) until Python is ready; if it cannot start, it says so and
    links ``snapshot`` (the lesson's static snapshot, relative to the page)."""
    export_wasm(lesson, target, library, after=FRAME)
    page = target / "index.html"
    worker = up(lesson.depth) + SERVICE_WORKER
    lock_file = target / up(lesson.depth) / MIRROR_DIR / "pyodide-lock.json"
    files = prefetched(
        json.loads(lock_file.read_text(encoding="utf-8")), top_level_imports(lesson.path)
    )
    text = with_preview(
        page.read_text(encoding="utf-8"), lesson.slug, preview, snapshot, worker, files
    )
    page.write_text(text, encoding="utf-8")


def titled(lesson: Lesson, copies: Path, kind: PageKind) -> Lesson:
    """``lesson`` exported from a copy titled for a ``kind`` of page (see copies.py)."""
    assert lesson.info is not None, lesson.slug  # discover() gives every lesson its entry
    title = page_title(lesson.info, kind)
    copy = write_copy(lesson.path, copies / kind, title, slides=kind is PageKind.PRESENTER)
    return replace(lesson, path=copy)


def export_lesson(lesson: Lesson, out: Path, library: Path, copies: Path) -> None:
    """A lesson's pages: its static snapshot, and its interactive page, which shows the
    snapshot until Python is ready."""
    target = out / lesson.site_dir
    target.mkdir(parents=True)
    export_static(titled(lesson, copies, PageKind.SNAPSHOT), target / SNAPSHOT_PAGE)
    export_interactive(titled(lesson, copies, PageKind.LIVE), target, library, SNAPSHOT_PAGE)


def presenter(lesson: Lesson) -> Lesson:
    """Where a lesson's presenter view goes: ``present/`` inside the lesson's folder."""
    return replace(
        lesson,
        slug=f"{lesson.slug}/{PRESENTER_DIR}",
        site_dir=f"{lesson.site_dir}/{PRESENTER_DIR}",
    )


def export_presenter(lesson: Lesson, out: Path, library: Path, copies: Path) -> Lesson:
    """A lesson in marimo's slides layout, as an interactive page that shows ``start.html``
    (the slides as they start: a snapshot would reveal results before the class predicts)
    until Python is ready."""
    page = presenter(titled(lesson, copies, PageKind.PRESENTER))
    target = out / page.site_dir
    target.mkdir(parents=True)
    export_static(page, target / START_PAGE, snapshot=False)
    start = target / START_PAGE
    start.write_text(start_page(start.read_text(encoding="utf-8")), encoding="utf-8")
    export_interactive(page, target, library, START_PAGE, f"../{SNAPSHOT_PAGE}")
    return page


def home_links(
    pages: list[Lesson], pictures: bool, base: str = "", sequence: SequencePicture | None = None
) -> HomeLinks:
    return HomeLinks(
        pictures={p.slug: f"{p.site_dir}/{PICTURE}" for p in pages} if pictures else {},
        presenters={p.slug: f"{presenter(p).site_dir}/" for p in pages if p.slug in PRESENTED},
        base_url=base,
        sequence=sequence,
    )


def build_site(  # type: ignore[no-untyped-def]
    out: Path = DEFAULT_OUT,
    cache: Path = CACHE,
    log=print,
    pictures: bool = True,
    base: str = "",
) -> BuildReport:
    """Build the site into ``out``. ``pictures=False`` skips the lessons' pictures (and so
    Chromium and Playwright): the home then shows none and has no ``og:image``. ``base`` is the
    URL the site is published at (``home.base_url``), for the home's absolute OpenGraph URLs."""
    started = time.perf_counter()
    base = base_url(base)
    report = BuildReport(out)
    source = source_fingerprint()
    if out.exists() and any(out.iterdir()) and not (out / SITE_MARKER).exists():
        # Only a folder this build made is ever wiped: `--out .` must not delete a checkout.
        raise SystemExit(f"export: {out} is not empty and is not a site built here; refusing")
    pages = discover()
    # Every download is checked against exports/artifacts.lock before the old site goes: a
    # corrupted cache stops the build in one line and leaves no half-built site.
    log("export: checking every download against artifacts.lock")
    inputs = mirror_inputs(cache)
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    (out / SITE_MARKER).write_text("built by exports/build.py\n", encoding="utf-8")
    log(f"export: Pyodide mirror -> {MIRROR_DIR}/")
    mirror = write_mirror(out / MIRROR_DIR, inputs)
    available = mirror_imports(mirror)
    log(f"export: marimo assets -> {ASSETS_DIR}/")
    shutil.copytree(
        MARIMO_STATIC, out / ASSETS_DIR, ignore=lambda _d, names: STATIC_SKIP & set(names)
    )
    patch_rpc_timeout(out / ASSETS_DIR)
    patch_idle_icon(out / ASSETS_DIR)
    with tempfile.TemporaryDirectory() as tmp:
        built = library_wheel(Path(tmp) / "built")
        library = Path(shutil.copy(built, Path(tmp) / built.name))
        add_bytecode(inputs.core, [library], inputs.cache / BYTECODE_CACHE)
        log(f"export: {library.name} (setuptools, with its bytecode) -> {WHEELS_DIR}/")
        (out / WHEELS_DIR).mkdir()
        shipped = out / WHEELS_DIR / library.name
        shutil.copyfile(library, shipped)
        log("export: the lessons' first runs under Node, for the Markdown they render ...")
        texts = prerender(mirror, shipped, [p.path for p in pages], inputs.cache / PRERENDER_CACHE)
        log(f"export: {texts} Markdown texts rendered -> {WHEELS_DIR}/{library.name}")
        add_library(mirror, shipped, built)
        for lesson in pages:
            require_mirrored_imports(lesson, available)

        def export_pages(index: int, lesson: Lesson) -> None:
            page_started = time.perf_counter()
            log(f"export: [{index}/{len(pages)}] {lesson.slug}: snapshot, interactive page ...")
            export_lesson(lesson, out, library, Path(tmp) / "copies" / lesson.slug)
            if lesson.slug in PRESENTED:
                log(f"export: [{index}/{len(pages)}] {lesson.slug}: presenter view ...")
                export_presenter(lesson, out, library, Path(tmp) / "copies" / lesson.slug)
            seconds = time.perf_counter() - page_started
            log(f"export: [{index}/{len(pages)}] {lesson.slug}: done in {seconds:.1f} s")

        # Each page is marimo's exporter in a process of its own, most of it CPU: one per core
        # (the lessons with a presenter view, the longest, first). Every page goes to its own
        # folder, so the site is the same whatever order they finish in.
        jobs = sorted(enumerate(pages, 1), key=lambda job: job[1].slug not in PRESENTED)
        pool = ThreadPoolExecutor(max_workers=EXPORT_JOBS, thread_name_prefix="export")
        try:
            for future in [pool.submit(export_pages, index, lesson) for index, lesson in jobs]:
                future.result()
        finally:
            pool.shutdown(wait=True, cancel_futures=True)
        report.pages.extend(pages)
    if pictures:
        log(f"export: pictures of every lesson (Chromium) -> lessons/*/{PICTURE}")
        take_pictures(out, pages)
    sequence = draw_sequence(out)  # the library's SVG, no Chromium: with or without pictures
    (out / "index.html").write_text(
        home_page(pages, home_links(pages, pictures, base, sequence)), encoding="utf-8"
    )
    # GitHub Pages would hide folders starting with "_" (such as _marimo/) from Jekyll.
    (out / ".nojekyll").write_text("", encoding="utf-8")
    # Last: its version is a digest of every other file.
    write_service_worker(out, MIRROR_DIR, WHEELS_DIR, reproducible_content)
    report.seconds = time.perf_counter() - started
    report.source = source if source_fingerprint() == source else ""
    size = sum(p.stat().st_size for p in out.rglob("*") if p.is_file())
    log(f"export: {len(pages)} pages in {report.seconds:.1f} s, {size / 1e6:.1f} MB at {out}")
    return report


def copy_picture(report: BuildReport, target: Path) -> None:
    """The first lesson's picture, copied to ``target`` (``make picture``: the README's)."""
    if not report.pages:
        raise SystemExit("export: no lessons, so no picture")
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(report.out / report.pages[0].site_dir / PICTURE, target)
    print(f"export: {report.pages[0].slug}'s picture -> {target}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="site folder to (re)write")
    parser.add_argument(
        "--picture", type=Path, help="also copy the first lesson's picture here (make picture)"
    )
    parser.add_argument(
        "--base-url",
        default="",
        help="the URL the site is published at (https://host/path/): absolute og:url, og:image",
    )
    parser.add_argument(
        "--no-pictures",
        action="store_true",
        help="skip the lessons' pictures (no Chromium needed; the home then shows none)",
    )
    args = parser.parse_args()
    try:
        base = base_url(args.base_url)
    except ValueError as error:
        parser.error(str(error))
    if args.picture and args.no_pictures:
        parser.error("--picture needs the pictures: drop --no-pictures")
    report = build_site(args.out, pictures=not args.no_pictures, base=base)
    if args.picture:
        copy_picture(report, args.picture)


if __name__ == "__main__":
    main()
