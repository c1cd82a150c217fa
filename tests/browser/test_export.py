"""`make export` without a browser: lesson discovery, self-contained pages, reproducible builds."""

from __future__ import annotations

import hashlib
import json
import re
import sys
import zipfile
from pathlib import Path

import pytest

import asyncfail

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "exports"))

from build import BuildReport, build_site, normalise, require_mirrored_imports  # noqa: E402
from lessons import (  # noqa: E402
    Lesson,
    discover,
    third_party_imports,
    title_and_summary,
)
from wheels import library_wheel  # noqa: E402

PAGES = discover()
# A tag that makes the browser fetch something from another host.
FETCHES_ELSEWHERE = re.compile(
    r"<(?:script|link|img|iframe|source|audio|video)\b[^>]*\b(?:src|href)=[\"'](?:https?:)?//",
    re.IGNORECASE,
)


def test_lessons_are_the_numbered_notebooks_in_order(tmp_path: Path) -> None:
    (tmp_path / "02_second.py").write_text('"""Second\n\nThe summary,\nin two lines.\n"""\n')
    (tmp_path / "01_first_lesson.py").write_text("import marimo\n")
    (tmp_path / "helper.py").write_text('"""Not a lesson."""\n')
    (tmp_path / "3_short.py").write_text('"""Not a lesson either."""\n')
    lessons = discover(tmp_path)
    assert [(x.slug, x.title, x.summary) for x in lessons] == [
        ("01_first_lesson", "First lesson", ""),
        ("02_second", "Second", "The summary, in two lines."),
    ]
    assert [x.site_dir for x in lessons] == ["lessons/01_first_lesson", "lessons/02_second"]


def test_title_is_the_docstrings_first_line(tmp_path: Path) -> None:
    path = tmp_path / "05_x.py"
    path.write_text('"""Title here\nmore of the first paragraph\n\nOne line.\n\nMore."""\n')
    assert title_and_summary(path) == ("Title here", "One line.")


@pytest.mark.parametrize("lesson", PAGES, ids=lambda lesson: lesson.slug)
def test_every_lesson_needs_only_what_the_mirror_ships(lesson) -> None:  # type: ignore[no-untyped-def]
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
    for name in ("index.html", "static.html"):
        text = (folder / name).read_text(encoding="utf-8")
        assert FETCHES_ELSEWHERE.findall(text) == [], name
        assert "cdn.jsdelivr.net/npm/@marimo-team" not in text, name
    wasm = (folder / "index.html").read_text(encoding="utf-8")
    assert 'data-pyodide-lockfile-url="' in wasm
    assert list(folder.glob("public/wheels/asyncfail-*.whl")), "asyncfail ships as a wheel"


@pytest.mark.parametrize("lesson", PAGES, ids=lambda lesson: lesson.slug)
def test_every_page_installs_the_library_wheel_setuptools_built(
    built_site: BuildReport, lesson: Lesson
) -> None:
    folder = built_site.out / lesson.site_dir
    name = f"asyncfail-{asyncfail.__version__}"
    wheels = [p.name for p in folder.glob("public/wheels/*.whl")]
    assert wheels == [f"{name}-py3-none-any.whl"]
    with zipfile.ZipFile(folder / "public" / "wheels" / wheels[0]) as zf:
        metadata = zf.read(f"{name}.dist-info/METADATA").decode()
        generator = zf.read(f"{name}.dist-info/WHEEL").decode()
    # Pyodide installs what the wheel declares: pydantic comes with it.
    assert "\nRequires-Dist: pydantic" in metadata
    assert "Generator: setuptools" in generator
    page = (folder / "index.html").read_text(encoding="utf-8")
    assert f"asyncfail @ ../../{lesson.site_dir}/public/wheels/{wheels[0]}" in page
    assert "+marimo." not in page and "%2Bmarimo." not in page


def test_building_the_library_wheel_leaves_no_litter(tmp_path: Path) -> None:
    def listing() -> list[Path]:
        return sorted(
            p for p in ROOT.rglob("*") if ".venv" not in p.parts and ".git" not in p.parts
        )

    before = listing()
    wheel = library_wheel(tmp_path)
    assert listing() == before
    assert wheel.parent == tmp_path and wheel.name.startswith("asyncfail-")


def test_the_mirror_lock_lists_every_wheel_it_ships(built_site: BuildReport) -> None:
    mirror = built_site.out / "pyodide"
    lock = json.loads((mirror / "pyodide-lock.json").read_text(encoding="utf-8"))
    entries = lock["packages"].values()
    assert sorted(e["file_name"] for e in entries) == sorted(p.name for p in mirror.glob("*.whl"))
    for entry in entries:
        data = (mirror / entry["file_name"]).read_bytes()
        assert hashlib.sha256(data).hexdigest() == entry["sha256"], entry["name"]
        assert set(entry["depends"]) <= set(lock["packages"]), entry["name"]
    # Requirements as Pyodide judges them, a WebAssembly wheel's too; server-only ones left out.
    assert lock["packages"]["pydantic-core"]["depends"] == ["typing-extensions"]
    assert "msgspec" in lock["packages"]["marimo-base"]["depends"]
    assert "uvicorn" not in lock["packages"]["marimo-base"]["depends"]
    assert lock["packages"]["pyyaml"]["imports"] == ["yaml"]


def test_site_has_one_copy_of_marimo_assets_and_stays_small(built_site: BuildReport) -> None:
    out = built_site.out
    assert [p.relative_to(out) for p in out.rglob("assets") if p.is_dir()] == [
        Path("_marimo/assets")
    ]
    size = sum(p.stat().st_size for p in out.rglob("*") if p.is_file())
    assert size < 60e6, f"site is {size / 1e6:.1f} MB"


def site_files(root: Path) -> dict[str, bytes]:
    files = {}
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        data = path.read_bytes()
        if path.suffix == ".html":
            data = normalise(data.decode("utf-8")).encode("utf-8")
        files[path.relative_to(root).as_posix()] = data
    return files


def test_two_builds_are_identical(built_site: BuildReport, tmp_path: Path) -> None:
    progress: list[str] = []
    again = build_site(tmp_path / "site", log=progress.append)
    # Both builds read the same checkout (a source edited mid-test would make this fail).
    assert again.source == built_site.source != ""
    first, second = site_files(built_site.out), site_files(again.out)
    assert sorted(first) == sorted(second)
    assert [name for name in first if first[name] != second[name]] == []
    for lesson in PAGES:
        assert any(lesson.slug in line and "done" in line for line in progress), lesson.slug


def test_build_refuses_to_wipe_a_folder_it_did_not_make(tmp_path: Path) -> None:
    keep = tmp_path / "notes.txt"
    keep.write_text("not a site", encoding="utf-8")
    with pytest.raises(SystemExit, match="not a site built here"):
        build_site(tmp_path, log=lambda _line: None)
    assert keep.read_text(encoding="utf-8") == "not a site"
