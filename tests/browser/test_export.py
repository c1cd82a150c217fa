"""`make export` without a browser: lesson discovery, the course home, page titles, lesson copies,
self-contained pages, reproducible builds. (The build itself draws the lessons' pictures in
Chromium, so every test of a built site needs it.)"""

from __future__ import annotations

import ast
import hashlib
import html
import json
import re
import struct
import sys
import zipfile
from concurrent.futures import ThreadPoolExecutor
from html.parser import HTMLParser
from pathlib import Path

import pytest

import asyncfail
from asyncfail.course import reveal
from asyncfail.course.catalog import LESSONS, LessonInfo
from asyncfail.course.site import PageKind, page_title

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "exports"))

from build import (  # noqa: E402
    BuildReport,
    build_site,
    normalise,
    prefetched,
    require_mirrored_imports,
)
from bytecode import STDLIB  # noqa: E402
from copies import configured, write_copy  # noqa: E402
from home import PICTURE_SIZE  # noqa: E402
from lessons import PRESENTED, Lesson, discover, third_party_imports  # noqa: E402
from pictures import PICTURE, require_chromium  # noqa: E402
from pyodide_mirror import CACHE, CORE_DIR  # noqa: E402
from wheels import library_wheel  # noqa: E402

from tests.browser.conftest import BASE_URL, PREFETCHED  # noqa: E402

PAGES = discover()
LAB = PAGES[0]
# Every page the site publishes for a lesson, by file, and the kind of page each is.
LESSON_PAGES = {"index.html": PageKind.LIVE, "static.html": PageKind.SNAPSHOT}
PRESENTER_PAGE = "present/index.html"
# A tag that makes the browser fetch something from another host.
FETCHES_ELSEWHERE = re.compile(
    r"<(?:script|link|img|iframe|source|audio|video)\b[^>]*\b(?:src|href)=[\"'](?:https?:)?//",
    re.IGNORECASE,
)


def info(stem: str, title: str) -> LessonInfo:
    return LessonInfo(stem, title, f"About {title}.", 5, (f"do {title}",))


def test_lessons_are_the_numbered_notebooks_in_order_as_the_catalog_tells(tmp_path: Path) -> None:
    (tmp_path / "02_second.py").write_text('"""Not the title"""\n')
    (tmp_path / "01_first_lesson.py").write_text("import marimo\n")
    (tmp_path / "helper.py").write_text('"""Not a lesson."""\n')
    (tmp_path / "3_short.py").write_text('"""Not a lesson either."""\n')
    catalog = [info("01_first_lesson", "First"), info("02_second", "Second")]
    lessons = discover(tmp_path, catalog)
    assert [(x.slug, x.number, x.title, x.summary) for x in lessons] == [
        ("01_first_lesson", "01", "First", "About First."),
        ("02_second", "02", "Second", "About Second."),
    ]
    assert [x.info for x in lessons] == catalog
    assert [x.site_dir for x in lessons] == ["lessons/01_first_lesson", "lessons/02_second"]


def test_the_real_lessons_are_the_catalogs() -> None:
    assert [(p.slug, p.title, p.summary, p.info) for p in PAGES] == [
        (i.stem, i.title, i.summary, i) for i in LESSONS
    ]


@pytest.mark.parametrize(
    ("files", "catalog", "says"),
    [
        (["01_a.py", "02_b.py"], ["01_a"], "02_b.py not in the course catalog"),
        (["01_a.py"], ["01_a", "02_b"], "the course catalog lists 02_b, but"),
        (["01_a.py", "02_b.py"], ["02_b", "01_a"], "is not the notebooks' file-name order"),
    ],
)
def test_notebooks_and_catalog_must_agree(
    tmp_path: Path, files: list[str], catalog: list[str], says: str
) -> None:
    for name in files:
        (tmp_path / name).write_text("import marimo\n")
    with pytest.raises(SystemExit) as stop:
        discover(tmp_path, [info(stem, stem) for stem in catalog])
    message = str(stop.value.code)
    assert says in message and "\n" not in message


def test_page_titles_name_the_lesson_its_kind_and_the_course() -> None:
    first, second = LESSONS[0], LESSONS[1]
    assert page_title(second) == "Lesson 2: Break the assumptions · The Async Failure Lab"
    assert page_title(second, PageKind.SNAPSHOT) == (
        "Lesson 2: Break the assumptions (static snapshot) · The Async Failure Lab"
    )
    # Lesson 1 is titled as the course: its name is not written twice.
    assert page_title(first) == "Lesson 1: The Async Failure Lab"
    assert (
        page_title(first, PageKind.PRESENTER) == "Lesson 1: The Async Failure Lab (presenter view)"
    )


NOTEBOOK = """\
import marimo

app = marimo.App(
    width="medium",
    app_title="Old title",
)


@app.cell
def _():
    return
"""


def test_a_copy_changes_only_the_app_configuration(tmp_path: Path) -> None:
    changed = configured(NOTEBOOK, "x.py", {"app_title": "New: 'quoted' title"})
    assert changed.splitlines()[2] == (
        "app = marimo.App(width='medium', app_title=\"New: 'quoted' title\")"
    )
    assert changed.split("\n\n\n", 1)[1] == NOTEBOOK.split("\n\n\n", 1)[1]
    ast.parse(changed)
    notebook = tmp_path / "01_x.py"
    notebook.write_text(NOTEBOOK, encoding="utf-8")
    copy = write_copy(notebook, tmp_path / "present", "Slides", slides=True)
    assert copy == tmp_path / "present" / "01_x.py"
    assert "layout_file='layouts/01_x.slides.json'" in copy.read_text(encoding="utf-8")
    layout = json.loads((copy.parent / "layouts" / "01_x.slides.json").read_text())
    assert layout == {"type": "slides", "data": {}}
    assert str(ROOT) in (copy.parent / "pyproject.toml").read_text(encoding="utf-8")
    assert notebook.read_text(encoding="utf-8") == NOTEBOOK


class Finalised:
    """Garbage in a reference cycle whose finaliser runs Python: what the build's other threads
    leave behind (a finished process, a closed file), freed by the collector at any moment."""

    def __init__(self) -> None:
        self.me = self

    def __del__(self) -> None:
        sum(range(50))


def test_copies_made_at_once_in_threads_are_made_whole() -> None:
    """The build exports the lessons in threads, each making its copies. CPython 3.11 keeps the
    AST constructor's recursion depth for the whole interpreter (python/cpython#106905): a
    collection running Python in one thread's ``ast.parse`` while another thread parses made
    a clean clone's build fail with "AST constructor recursion depth mismatch". Each copy is
    parsed under a lock; without it, this test raised that error in every run of three."""
    source = (ROOT / "notebooks" / f"{PAGES[0].slug}.py").read_text(encoding="utf-8")
    expected = configured(source, "x.py", {"app_title": "T"})

    def copies(_: int) -> list[str]:
        made = []
        for _ in range(150):
            for _ in range(200):
                Finalised()
            made.append(configured(source, "x.py", {"app_title": "T"}))
        return made

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # threads take turns as often as the interpreter allows
    try:
        with ThreadPoolExecutor(max_workers=4) as pool:
            made = [copy for batch in pool.map(copies, range(4)) for copy in batch]
    finally:
        sys.setswitchinterval(interval)
    assert made == [expected] * 600


@pytest.mark.parametrize(
    ("source", "says"),
    [
        ("import marimo\n", "has no module-level `app = marimo.App(...)`"),
        (
            "import marimo\napp = marimo.App(width=WIDTH)\n",
            "marimo.App(width=...) is not a literal",
        ),
    ],
)
def test_a_notebook_that_cannot_be_copied_stops_the_build(source: str, says: str) -> None:
    with pytest.raises(SystemExit) as stop:
        configured(source, "x.py", {"app_title": "T"})
    assert str(stop.value.code) == f"export: x.py{': ' if 'literal' in says else ' '}{says}"


def test_no_chromium_stops_the_build_in_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CHROMIUM", "/nonexistent/chromium")
    with pytest.raises(SystemExit) as stop:
        require_chromium()
    assert stop.value.code == (
        "export: the lesson pictures need Chromium: `apt-get install chromium` "
        "(or set CHROMIUM to a Chromium binary)"
    )


@pytest.mark.parametrize("lesson", PAGES, ids=lambda lesson: lesson.slug)
def test_every_lesson_needs_only_what_the_mirror_ships(lesson) -> None:  # type: ignore[no-untyped-def]
    # pydantic_core comes with pydantic (the mirror ships both).
    assert third_party_imports(lesson.path) <= {"marimo", "pydantic", "pydantic_core"}


def test_a_library_module_is_followed_only_as_far_as_importing_it_goes(tmp_path: Path) -> None:
    (tmp_path / "asyncfail").mkdir()
    (tmp_path / "asyncfail" / "wing.py").write_text(
        "from typing import TYPE_CHECKING\nimport altair\nif TYPE_CHECKING:\n"
        "    import pandas\ndef frame():\n    import numpy\n",
        encoding="utf-8",
    )
    page = tmp_path / "01_page.py"
    page.write_text("def _():\n    import marimo\n    from asyncfail import wing\n")
    assert third_party_imports(page, tmp_path) == {"marimo", "altair"}


def test_a_page_importing_what_the_mirror_lacks_stops_the_build(tmp_path: Path) -> None:
    path = tmp_path / "09_charts.py"
    path.write_text("import marimo\nimport pandas\nimport asyncfail\n", encoding="utf-8")
    page = Lesson(path, "09_charts", "09", "Charts", "", "lessons/09_charts")
    require_mirrored_imports(page, {"marimo", "pandas", "pydantic", "pydantic_core"})
    with pytest.raises(SystemExit, match="09_charts imports pandas, which the site's Pyodide"):
        require_mirrored_imports(page, {"marimo", "pydantic", "pydantic_core"})


def test_random_ids_are_the_only_thing_normalised() -> None:
    a = "<x random-id='0b9c7a51-3f0e-4e5e-8a3e-2c1d2d0f6a11'> 12 </x>"
    b = "<x random-id='7d3e2b14-aaaa-bbbb-cccc-0123456789ab'> 12 </x>"
    assert normalise(a) == normalise(b)
    assert normalise(a) != normalise(b.replace("12", "13"))


@pytest.mark.parametrize("lesson", PAGES, ids=lambda lesson: lesson.slug)
def test_every_page_fetches_only_from_the_site(built_site: BuildReport, lesson) -> None:  # type: ignore[no-untyped-def]
    folder = built_site.out / lesson.site_dir
    pages = sorted(folder.rglob("*.html"))
    assert {p.relative_to(folder).as_posix() for p in pages} >= set(LESSON_PAGES)
    for path in pages:
        text = path.read_text(encoding="utf-8")
        assert FETCHES_ELSEWHERE.findall(text) == [], path
        assert "cdn.jsdelivr.net/npm/@marimo-team" not in text, path
    wasm = (folder / "index.html").read_text(encoding="utf-8")
    assert 'data-pyodide-lockfile-url="' in wasm


def test_one_library_wheel_serves_every_page(built_site: BuildReport) -> None:
    """The wheel setuptools builds, once in the site's wheels/, named by every WebAssembly
    page (relative to marimo's worker, two folders below the site's root)."""
    out = built_site.out
    name = f"asyncfail-{asyncfail.__version__}"
    wheel = f"{name}-py3-none-any.whl"
    assert [p.relative_to(out).as_posix() for p in out.rglob("asyncfail-*.whl")] == [
        f"wheels/{wheel}"
    ]
    with zipfile.ZipFile(out / "wheels" / wheel) as zf:
        metadata = zf.read(f"{name}.dist-info/METADATA").decode()
        generator = zf.read(f"{name}.dist-info/WHEEL").decode()
    # Pyodide installs what the wheel declares: pydantic comes with it.
    assert "\nRequires-Dist: pydantic" in metadata
    assert "Generator: setuptools" in generator
    pages = [out / lesson.site_dir / "index.html" for lesson in PAGES]
    pages.append(out / LAB.site_dir / PRESENTER_PAGE)
    for path in pages:
        page = path.read_text(encoding="utf-8")
        assert f"asyncfail @ ../../wheels/{wheel}" in page, path
        assert "+marimo." not in page and "%2Bmarimo." not in page, path
    assert not list(out.glob("lessons/**/public")), "no page keeps a folder of its own"


# A lock as Pyodide's reads, by hand: a page importing `lib` and `json` (the standard library's)
# loads lib, its dependencies and theirs, not what marimo loaded before (marimo-base and its
# own), nor what nothing it imports needs.
HAND_LOCK = {
    "packages": {
        "marimo-base": {"imports": ["marimo"], "depends": ["shared"], "file_name": "m.whl"},
        "shared": {"imports": ["shared"], "depends": [], "file_name": "s.whl"},
        "lib": {"imports": ["lib"], "depends": ["mid", "shared"], "file_name": "../w/lib.whl"},
        "mid": {"imports": ["mid"], "depends": ["leaf"], "file_name": "mid.whl"},
        "leaf": {"imports": ["leaf_module"], "depends": [], "file_name": "leaf.whl"},
        "unused": {"imports": ["unused"], "depends": [], "file_name": "unused.whl"},
    }
}


@pytest.mark.parametrize(
    ("imports", "files"),
    [
        ({"marimo", "lib", "json"}, ["../w/lib.whl", "leaf.whl", "mid.whl"]),
        ({"marimo", "leaf_module"}, ["leaf.whl"]),  # by its import name, not its package's
        ({"marimo", "json"}, []),
    ],
    ids=["closure-less-boot", "import-name", "nothing-to-load"],
)
def test_a_page_prefetches_what_its_kernel_will_load(imports: set[str], files: list[str]) -> None:
    assert prefetched(HAND_LOCK, imports) == files


def test_every_interactive_page_prefetches_the_librarys_packages(built_site: BuildReport) -> None:
    out = built_site.out
    pages = [out / lesson.site_dir / "index.html" for lesson in PAGES]
    pages.append(out / LAB.site_dir / PRESENTER_PAGE)
    for path in pages:
        (listed,) = re.findall(r'data-prefetch="([^"]*)"', path.read_text(encoding="utf-8"))
        files = html.unescape(listed).split()
        assert sorted(Path(f).name.split("-")[0] for f in files) == PREFETCHED, path
        for file in files:
            assert (out / "pyodide" / file).resolve().is_file(), (path, file)


def test_building_the_library_wheel_leaves_no_litter(tmp_path: Path) -> None:
    # Other tests write beside it while it runs (screenshots, caches): those are not litter.
    elsewhere = {".venv", ".git", "screenshots", "__pycache__", ".hypothesis", ".pytest_cache"}

    def listing() -> list[Path]:
        return sorted(p for p in ROOT.rglob("*") if not elsewhere & set(p.parts))

    before = listing()
    wheel = library_wheel(tmp_path)
    assert listing() == before
    assert wheel.parent == tmp_path and wheel.name.startswith("asyncfail-")


def test_the_mirror_lock_lists_every_wheel_it_ships(built_site: BuildReport) -> None:
    mirror = built_site.out / "pyodide"
    lock = json.loads((mirror / "pyodide-lock.json").read_text(encoding="utf-8"))
    entries = lock["packages"].values()
    (library,) = (built_site.out / "wheels").glob("asyncfail-*.whl")
    shipped = [p.name for p in mirror.glob("*.whl")] + [f"../wheels/{library.name}"]
    assert sorted(e["file_name"] for e in entries) == sorted(shipped)
    for entry in entries:
        data = (mirror / entry["file_name"]).read_bytes()
        assert hashlib.sha256(data).hexdigest() == entry["sha256"], entry["name"]
        assert set(entry["depends"]) <= set(lock["packages"]), entry["name"]
    # Requirements as Pyodide judges them, a WebAssembly wheel's too; server-only ones left out.
    assert lock["packages"]["pydantic-core"]["depends"] == ["typing-extensions"]
    assert "msgspec" in lock["packages"]["marimo-base"]["depends"]
    assert "uvicorn" not in lock["packages"]["marimo-base"]["depends"]
    assert lock["packages"]["pyyaml"]["imports"] == ["yaml"]
    # The library too, beside the mirror: `import asyncfail` loads it with pydantic at once.
    assert lock["packages"]["asyncfail"]["imports"] == ["asyncfail"]
    assert lock["packages"]["asyncfail"]["depends"] == ["pydantic"]


def test_the_sites_standard_library_is_the_cores_compiled(built_site: BuildReport) -> None:
    """Every page's Python imports its standard library as bytecode (exports/bytecode.py): the
    site's zip holds each of the core's modules, none as source."""
    shipped = zipfile.ZipFile(built_site.out / "pyodide" / STDLIB).namelist()
    stock = zipfile.ZipFile(CACHE / CORE_DIR / STDLIB).namelist()
    assert shipped == [n + "c" if n.endswith(".py") else n for n in stock]


def test_the_sites_library_wheel_holds_bytecode_in_place_of_its_sources(
    built_site: BuildReport,
) -> None:
    """A page unpacks every file of the library's wheel before it imports one: it ships each
    module as bytecode alone (exports/bytecode.py), the lessons' Markdown memo beside them."""
    (library,) = (built_site.out / "wheels").glob("asyncfail-*.whl")
    names = zipfile.ZipFile(library).namelist()
    assert "asyncfail/lab/faults.pyc" in names
    assert "asyncfail/course/prerendered_markdown.json" in names
    assert [n for n in names if n.endswith(".py") or "__pycache__" in n] == []


def test_site_has_one_copy_of_marimo_assets_and_stays_small(built_site: BuildReport) -> None:
    out = built_site.out
    assert [p.relative_to(out) for p in out.rglob("assets") if p.is_dir()] == [
        Path("_marimo/assets")
    ]
    size = sum(p.stat().st_size for p in out.rglob("*") if p.is_file())
    assert size < 60e6, f"site is {size / 1e6:.1f} MB"


def png_size(path: Path) -> tuple[int, int]:
    """A PNG's width and height, from its header."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR", path
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def site_files(root: Path) -> dict[str, bytes]:
    """Every file of a site, to compare two builds: HTML normalised (marimo's random UI ids), and
    each lesson's picture by its size only. Chromium draws a picture, and nothing promises that
    its anti-aliasing and font rasterising give the same bytes on every run (they did on this
    machine); what a build must reproduce is the page drawn, which the HTML comparison covers."""
    files = {}
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        data = path.read_bytes()
        if path.suffix == ".html":
            data = normalise(data.decode("utf-8")).encode("utf-8")
        if path.name == PICTURE:
            data = b"PNG %d x %d" % png_size(path)
        files[path.relative_to(root).as_posix()] = data
    return files


def test_two_builds_are_identical(built_site: BuildReport, tmp_path: Path) -> None:
    progress: list[str] = []
    again = build_site(tmp_path / "site", log=progress.append, base=BASE_URL)
    # Both builds read the same checkout (a source edited mid-test would make this fail).
    assert again.source == built_site.source != ""
    first, second = site_files(built_site.out), site_files(again.out)
    assert sorted(first) == sorted(second)
    assert [name for name in first if first[name] != second[name]] == []
    for lesson in PAGES:
        assert any(lesson.slug in line and "done" in line for line in progress), lesson.slug


def html_title(path: Path) -> str:
    match = re.search(r"<title>([^<]*)</title>", path.read_text(encoding="utf-8"))
    assert match, path
    return html.unescape(match.group(1))


@pytest.mark.parametrize("lesson", PAGES, ids=lambda lesson: lesson.slug)
def test_every_page_is_titled_as_the_course_writes_it(
    built_site: BuildReport, lesson: Lesson
) -> None:
    assert lesson.info is not None
    folder = built_site.out / lesson.site_dir
    for name, kind in LESSON_PAGES.items():
        assert html_title(folder / name) == page_title(lesson.info, kind), name
    if lesson.slug in PRESENTED:
        assert html_title(folder / PRESENTER_PAGE) == page_title(lesson.info, PageKind.PRESENTER)


@pytest.mark.parametrize("lesson", PAGES, ids=lambda lesson: lesson.slug)
def test_a_lessons_interactive_page_opens_on_its_snapshot(
    built_site: BuildReport, lesson: Lesson
) -> None:
    """The snapshot is already published: the preview adds no page to the site."""
    folder = built_site.out / lesson.site_dir
    text = (folder / "index.html").read_text(encoding="utf-8")
    assert text.count('<div id="lesson-preview"') == 1
    assert '<iframe src="static.html"' in text
    assert not (folder / "start.html").exists()


def test_the_presenter_view_opens_on_its_slides_as_they_start(built_site: BuildReport) -> None:
    """Its preview, start.html, is exported without --snapshot: shown on a projector before
    the class has predicted, it must reveal nothing the live slides keep behind a control."""
    folder = built_site.out / LAB.site_dir
    text = (folder / PRESENTER_PAGE).read_text(encoding="utf-8")
    assert '<iframe src="start.html"' in text
    start = (folder / "present" / "start.html").read_text(encoding="utf-8")
    assert '<meta name="robots" content="noindex">' in start
    assert '"layout": {"data": {}, "type": "slides"}' in start
    snapshot = (folder / "static.html").read_text(encoding="utf-8")
    # Lesson 1's snapshot shows the counts; as it starts, it asks for a prediction first.
    assert reveal.EFFECTS_LABEL in snapshot
    assert reveal.EFFECTS_LABEL not in start
    assert reveal.COMMIT_LABEL in start


def test_the_presenter_view_is_lesson_1_in_slides(built_site: BuildReport) -> None:
    page = (built_site.out / LAB.site_dir / PRESENTER_PAGE).read_text(encoding="utf-8")
    assert page.count('"layout": {"data": {}, "type": "slides"}') == 1


class Links(HTMLParser):
    """Every URL a page names (href, src, and OpenGraph's image), and its meta properties."""

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []
        self.meta: dict[str, str] = {}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        named = {key: value or "" for key, value in attrs}
        self.urls += [named[key] for key in ("href", "src") if key in named]
        if tag == "meta" and "property" in named:
            self.meta[named["property"]] = named.get("content", "")


def test_the_course_home_links_only_into_the_site(built_site: BuildReport) -> None:
    out = built_site.out
    links = Links()
    links.feed((out / "index.html").read_text(encoding="utf-8"))
    assert links.meta["og:title"] == "The Async Failure Lab"
    # Link previews need absolute URLs: the published address (BASE_URL) and the picture in it.
    assert links.meta["og:url"] == BASE_URL
    assert links.meta["og:image"] == f"{BASE_URL}{LAB.site_dir}/{PICTURE}"
    assert links.urls and f"{LAB.site_dir}/{PICTURE}" in links.urls
    for url in links.urls:
        assert "//" not in url and not url.startswith("/"), url  # relative, inside the site
        target = out / (url + "index.html" if url.endswith("/") else url)
        assert target.is_file(), url
    assert f"{LAB.site_dir}/present/" in links.urls


@pytest.mark.parametrize("lesson", PAGES, ids=lambda lesson: lesson.slug)
def test_every_lesson_has_its_picture(built_site: BuildReport, lesson: Lesson) -> None:
    assert png_size(built_site.out / lesson.site_dir / PICTURE) == PICTURE_SIZE


def test_the_readme_shows_lesson_1s_picture() -> None:
    """`make picture` writes it from the build's picture; the README's opening shows it."""
    picture = ROOT / "docs" / "images" / "lesson-01.png"
    assert png_size(picture) == PICTURE_SIZE
    opening = (ROOT / "README.md").read_text(encoding="utf-8").split("\n## ", 1)[0]
    assert "](docs/images/lesson-01.png)" in opening


def test_build_refuses_to_wipe_a_folder_it_did_not_make(tmp_path: Path) -> None:
    keep = tmp_path / "notes.txt"
    keep.write_text("not a site", encoding="utf-8")
    with pytest.raises(SystemExit, match="not a site built here"):
        build_site(tmp_path, log=lambda _line: None)
    assert keep.read_text(encoding="utf-8") == "not a site"
