"""The publishing kit, without building a site: the base URL (`make export BASE_URL=...`), the
course home's OpenGraph tags and landmarks, what `make export` installs, pictures optional."""

from __future__ import annotations

import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "exports"))

from build import home_links  # noqa: E402
from home import base_url, home_page  # noqa: E402
from lessons import discover  # noqa: E402

PAGES = discover()
LAB = PAGES[0]


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ("", ""),
        ("https://example.org/course/", "https://example.org/course/"),
        ("https://example.org/course", "https://example.org/course/"),
        ("https://owner.github.io/repo", "https://owner.github.io/repo/"),
        ("http://127.0.0.1:8000", "http://127.0.0.1:8000/"),
    ],
)
def test_a_base_url_is_an_absolute_folder(given: str, expected: str) -> None:
    assert base_url(given) == expected


@pytest.mark.parametrize(
    "given",
    [
        "example.org/course",  # no scheme
        "/course/",  # a path only
        "ftp://example.org/",
        "file:///srv/site/",
        "https:///course",  # no host
        "https://example.org/?x=1",
        "https://example.org/#top",
        "https://example.org/#",
    ],
)
def test_anything_else_is_refused_saying_what_is_accepted(given: str) -> None:
    with pytest.raises(ValueError) as refused:
        base_url(given)
    assert str(refused.value) == (
        f"base URL {given!r}: expected an http(s) URL with a host and no query or fragment, "
        "such as https://example.org/course/"
    )


VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"}


class Home(HTMLParser):
    """The home's meta properties, and the tags directly inside its body."""

    def __init__(self) -> None:
        super().__init__()
        self.meta: dict[str, str] = {}
        self.depth = 0
        self.in_body = False
        self.body_children: list[str] = []
        self.mains = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        named = {key: value or "" for key, value in attrs}
        if tag == "meta" and "property" in named:
            self.meta[named["property"]] = named.get("content", "")
        if tag == "main":
            self.mains += 1
        if tag == "body":
            self.in_body, self.depth = True, 0
        elif self.in_body:
            if self.depth == 0:
                self.body_children.append(tag)
            self.depth += tag not in VOID

    def handle_endtag(self, tag: str) -> None:
        if tag == "body":
            self.in_body = False
        elif self.in_body:
            self.depth -= 1


def parsed(page: str) -> Home:
    home = Home()
    home.feed(page)
    return home


def test_published_home_names_its_url_and_an_absolute_picture() -> None:
    base = "https://example.org/course/"
    home = parsed(home_page(PAGES, home_links(PAGES, pictures=True, base=base)))
    assert home.meta["og:url"] == "https://example.org/course/"
    assert home.meta["og:image"] == f"https://example.org/course/{LAB.site_dir}/picture.png"
    assert home.meta["og:image:width"] == "1280"


def test_home_without_a_base_url_names_no_host_and_no_relative_picture() -> None:
    # A relative og:image breaks link previews: without the site's address there is none.
    home = parsed(home_page(PAGES, home_links(PAGES, pictures=True)))
    assert "og:url" not in home.meta
    assert not any(name.startswith("og:image") for name in home.meta)
    assert home.meta["og:title"] == "The Async Failure Lab"


def test_home_without_pictures_shows_none_and_claims_none() -> None:
    page = home_page(PAGES, home_links(PAGES, pictures=False, base="https://example.org/"))
    home = parsed(page)
    assert "<img" not in page
    assert home.meta["og:url"] == "https://example.org/"
    assert "og:image" not in home.meta


@pytest.mark.parametrize("pictures", [True, False])
def test_home_content_is_all_inside_landmarks(pictures: bool) -> None:
    # axe's landmark-one-main and region (WCAG 1.3.1): one main; nothing outside a landmark.
    home = parsed(home_page(PAGES, home_links(PAGES, pictures=pictures)))
    assert home.mains == 1
    assert home.body_children == ["header", "main", "footer"]


def test_a_bad_base_url_stops_the_build_before_it_writes(tmp_path: Path) -> None:
    out = tmp_path / "site"
    argv = [sys.executable, "exports/build.py", "--out", str(out), "--base-url", "ftp://x/"]
    result = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, check=False)
    assert result.returncode == 2
    assert result.stderr.splitlines()[-1] == (
        "build.py: error: base URL 'ftp://x/': expected an http(s) URL with a host and no "
        "query or fragment, such as https://example.org/course/"
    )
    assert "Traceback" not in result.stderr
    assert not out.exists()


def make_dry_run(*args: str) -> list[str]:
    """The commands `make export ARGS` would run after its install step (`make -n`, forced)."""
    argv = ["make", "-n", "-B", "export", *args]
    out = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, check=True).stdout
    return [line for line in out.splitlines() if "pip install" in line or "build.py" in line]


def test_make_export_installs_only_the_publishing_extras_and_passes_the_options() -> None:
    install, build = make_dry_run()[-2:]
    assert install.endswith("pip install --quiet -e '.[publish,pictures]'")
    assert build.split() == [".venv/bin/python", "exports/build.py"]
    install, build = make_dry_run("PICTURES=no", "BASE_URL=https://example.org/c/")[-2:]
    assert install.endswith("pip install --quiet -e '.[publish]'")
    assert build.split()[2:] == ["--base-url", "'https://example.org/c/'", "--no-pictures"]


def test_the_publish_extras_hold_no_development_tool() -> None:
    import tomllib

    extras = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"][
        "optional-dependencies"
    ]
    names = {spec.split("[")[0].split("=")[0].split(">")[0] for spec in extras["publish"]}
    assert names == {
        "asyncfail",
        "uv",
        "setuptools",
        "pyodide-lock",
        "pkginfo",
        "beautifulsoup4",
        "vl-convert-python",
    }
    assert extras["pictures"] == ["playwright>=1.45"]
    assert "asyncfail[publish,pictures]" in extras["dev"]
