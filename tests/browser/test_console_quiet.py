"""What keeps a page's console clean on a normal load: the mirror's package index (no 404 when
micropip asks it for a package first), marimo's worker timeout lifted (no uncaught "RPC request
timed out." on a slow start) and its idle icon pointed at the one the site ships (no 404 for
favicon.ico in every lesson's folder); then every interactive page, loaded once in Chromium,
with no response of 400 or more, no console error and no uncaught error."""

from __future__ import annotations

import hashlib
import re
import sys
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "exports"))

from assets import (  # noqa: E402
    IDLE_ICON,
    RPC_NO_TIMEOUT,
    RPC_TIMEOUT,
    SITE_ICON,
    patch_idle_icon,
    patch_rpc_timeout,
)
from build import BuildReport  # noqa: E402
from pyodide_mirror import shipped_digests, write_simple_index  # noqa: E402


class Anchors(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.hrefs: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "a":
            self.hrefs += [value or "" for key, value in attrs if key == "href"]


def index_links(mirror: Path, project: str) -> list[str]:
    anchors = Anchors()
    anchors.feed((mirror / "simple" / project / "index.html").read_text(encoding="utf-8"))
    return anchors.hrefs


def check_link(mirror: Path, project: str, href: str) -> None:
    """``href`` (from ``simple/<project>/``) names a wheel of the mirror with its sha256."""
    base = "http://site/pyodide/simple/" + project + "/"
    url = urlsplit(urljoin(base, href))
    assert url.path.startswith("/pyodide/") and url.path.count("/") == 2, href
    wheel = mirror / url.path.removeprefix("/pyodide/")
    assert re.fullmatch(r"sha256=[0-9a-f]{64}", url.fragment), href
    assert hashlib.sha256(wheel.read_bytes()).hexdigest() == url.fragment.removeprefix("sha256=")


def test_the_index_lists_each_wheel_under_its_normalised_name(tmp_path: Path) -> None:
    wheels = []
    for name in ("pydantic_core-2.50.5-cp314-cp314-x.whl", "Typing.Extensions-4-py3-none-any.whl"):
        wheels.append(tmp_path / name)
        wheels[-1].write_bytes(name.encode())
    write_simple_index(tmp_path, wheels, shipped_digests(wheels))
    assert sorted(p.name for p in (tmp_path / "simple").iterdir()) == [
        "pydantic-core",
        "typing-extensions",
    ]
    for project in ("pydantic-core", "typing-extensions"):
        (href,) = index_links(tmp_path, project)
        check_link(tmp_path, project, href)


def test_the_sites_mirror_indexes_every_wheel_it_ships(built_site: BuildReport) -> None:
    mirror = built_site.out / "pyodide"
    shipped = sorted(p.name for p in mirror.glob("*.whl"))
    listed = []
    for folder in sorted((mirror / "simple").iterdir()):
        for href in index_links(mirror, folder.name):
            check_link(mirror, folder.name, href)
            listed.append(href.split("#")[0].removeprefix("../../"))
    assert sorted(listed) == shipped
    assert (mirror / "simple" / "pydantic" / "index.html").is_file()


def assets(tmp_path: Path, *texts: str) -> Path:
    folder = tmp_path / "assets"
    folder.mkdir()
    for index, text in enumerate(texts):
        (folder / f"chunk-{index}.js").write_text(text, encoding="utf-8")
    return tmp_path


def test_the_worker_timeout_is_lifted_where_marimo_sets_it(tmp_path: Path) -> None:
    root = assets(tmp_path, "a()", f"F({{transport:t,{RPC_TIMEOUT},x:1}})")
    patch_rpc_timeout(root)
    assert (
        root / "assets" / "chunk-1.js"
    ).read_text() == f"F({{transport:t,{RPC_NO_TIMEOUT},x:1}})"
    assert (root / "assets" / "chunk-0.js").read_text() == "a()"


@pytest.mark.parametrize(
    ("texts", "names"),
    [
        (["a()", "b()"], "none"),
        ([RPC_TIMEOUT, RPC_TIMEOUT], "chunk-0.js, chunk-1.js"),
        ([RPC_TIMEOUT * 2], "chunk-0.js"),
    ],
)
def test_a_marimo_that_moved_the_timeout_stops_the_build(
    tmp_path: Path, texts: list[str], names: str
) -> None:
    root = assets(tmp_path, *texts)
    with pytest.raises(SystemExit) as stop:
        patch_rpc_timeout(root)
    assert stop.value.code == (
        f"export: marimo's worker timeout ({RPC_TIMEOUT}) is not in one asset once: {names}"
    )


def test_the_sites_marimo_waits_for_its_worker(built_site: BuildReport) -> None:
    scripts = [
        p.read_text(encoding="utf-8") for p in (built_site.out / "_marimo" / "assets").glob("*.js")
    ]
    assert sum(RPC_TIMEOUT in text for text in scripts) == 0
    assert sum(text.count(RPC_NO_TIMEOUT) for text in scripts) == 1


def test_the_idle_icon_is_the_sites_resolved_from_the_asset(tmp_path: Path) -> None:
    root = assets(tmp_path, "a()", f"var Pt={{{IDLE_ICON},success:`data:x`}}")
    (root / "favicon.ico").write_bytes(b"icon")
    patch_idle_icon(root)
    assert (
        root / "assets" / "chunk-1.js"
    ).read_text() == f"var Pt={{{SITE_ICON},success:`data:x`}}"
    assert (root / "assets" / "chunk-0.js").read_text() == "a()"


def test_an_idle_icon_the_site_does_not_ship_stops_the_build(tmp_path: Path) -> None:
    root = assets(tmp_path, f"var Pt={{{IDLE_ICON}}}")
    with pytest.raises(SystemExit) as stop:
        patch_idle_icon(root)
    assert stop.value.code == f"export: {root / 'favicon.ico'} is missing: marimo's idle icon"


def test_the_sites_marimo_asks_for_its_icon_beside_its_assets(built_site: BuildReport) -> None:
    marimo = built_site.out / "_marimo"
    scripts = [p.read_text(encoding="utf-8") for p in (marimo / "assets").glob("*.js")]
    assert sum(IDLE_ICON in text for text in scripts) == 0
    assert sum(text.count(SITE_ICON) for text in scripts) == 1
    # `../favicon.ico` from an asset in _marimo/assets/ is the icon the pages' heads link.
    assert (marimo / "favicon.ico").is_file()
