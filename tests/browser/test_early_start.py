"""A lesson's page starts marimo's kernel worker as it opens (exports/early_start.py): on a
small page of its own, with stand-ins for marimo's page script (late, as marimo's is) and for its
kernel's worker; and the build's reading of marimo's assets. The real lessons are checked booting
so in test_site.py."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from importlib.metadata import version
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "exports"))

from early_start import (  # noqa: E402
    ENVELOPE,
    PAGE_TEXTS,
    TRANSPORT,
    WORKER_NAME,
    WORKER_TEXTS,
    kernel_script,
    with_early_start,
)
from preview import FRAME  # noqa: E402
from serve import serving  # noqa: E402

MIRROR = {
    "pyodide-index-url": "../pyodide/",
    "pyodide-lockfile-url": "../pyodide/pyodide-lock.json",
    "pypi-index-url": "../pyodide/simple/{package_name}/",
}
# marimo's page script, reduced to what the early start meets: a module (run once the document
# is read, after every classic script), late as marimo's is once its modules have loaded (here,
# once the test lets it); it creates its kernel's worker, listens to it and asks it to boot, as
# marimo 0.25.2 does. The frame stands for a lesson's preview, loaded when the test says.
PAGE = """<!doctype html><html lang="en"><head><title>Lesson</title></head><body>
<div id="lesson-preview"><iframe src="frame.html" title="preview"></iframe></div>
<script type="module">
await new Promise((done) => (window.letMarimo = done));
window.heard = [];
const url = new URL("kernel.js", location.href).href;
const worker = new Worker(url, {name: "marimo", type: "module"});
window.listener = (event) => {
  const said = event.data.data;
  window.heard.push(said.payload?.n === undefined ? said.id : `${said.id}:${said.payload.n}`);
};
worker.addEventListener("message", window.listener);
worker.postMessage({"[transport-id]": "marimo-transport",
  data: {type: "message", id: "bootstrap", payload: {marimo: true}}});
window.kernel = worker;
</script></body></html>"""
# A stand-in for marimo's kernel worker: it says it is ready and loading as it starts (marimo's
# says so before anyone may listen), answers each `bootstrap` with the count so far and the
# request it got, and each `say` with its number.
KERNEL = """let boots = 0;
const post = (id, payload = {}) =>
  postMessage({"[transport-id]": "marimo-transport", data: {type: "message", id, payload}});
post("ready");
post("initializingMessage", {message: "Loading marimo..."});
onmessage = (event) => {
  const asked = event.data.data;
  if (asked.id === "bootstrap") post("booted", {n: ++boots, asked: asked.payload});
  if (asked.id === "say") post("said", {n: asked.payload.n});
};"""
# Each worker the page really created (the init script runs before any of the page's own).
CREATED = """window.created = [];
window.booted = [];
window.Worker = class extends window.Worker {
  constructor(url, options) {
    super(url, options);
    window.created.push([String(url), options && options.name]);
    this.addEventListener("message", (event) => {
      const said = event.data.data;
      if (said.id === "booted") window.booted.push(said.payload);
    });
  }
};"""
SAY = """(n) => kernel.postMessage({"[transport-id]": "marimo-transport",
  data: {type: "message", id: "say", payload: {n}}})"""


LET_MARIMO = "() => { window.letMarimo(); }"
# What marimo's listener hears: given the early worker, what it said before marimo listened and
# the answers to both `bootstrap`s; with a worker of its own, its own answer only.
GIVEN_EARLY = ["ready", "initializingMessage", "booted:1", "booted:2"]
ITS_OWN = ["ready", "initializingMessage", "booted:1"]
MARIMO_READY = "() => window.kernel !== undefined"


def early_page(tmp_path: Path, after: str = "") -> Path:
    """The small site: the page, with the early start, and the stand-in worker."""
    site = tmp_path / "site"
    lesson = site / "lesson"
    lesson.mkdir(parents=True)
    (lesson / "kernel.js").write_text(KERNEL, encoding="utf-8")
    (lesson / "frame.html").write_text("<!doctype html><title>f</title><p>f", encoding="utf-8")
    page = with_early_start(PAGE, "test", "kernel.js", MIRROR, after)
    (lesson / "index.html").write_text(page, encoding="utf-8")
    return site


@contextmanager
def loaded(
    browser: Any, tmp_path: Path, init: str = "", after: str = ""
) -> Iterator[tuple[Any, Callable[[], None]]]:
    """The page loaded in a fresh context, marimo's stand-in not yet let run; the frame's page
    held back until the test calls the function given with it."""
    context = browser.new_context()
    context.add_init_script(CREATED + init)
    held: list[Any] = []
    context.route("**/frame.html", lambda route: held.append(route))
    try:
        with serving(early_page(tmp_path, after)) as url:
            page = context.new_page()
            page.goto(f"{url}lesson/", wait_until="domcontentloaded")
            page.wait_for_function("() => typeof window.letMarimo === 'function'")
            yield page, lambda: held.pop().continue_()
    finally:
        context.close()


@contextmanager
def opened(browser: Any, tmp_path: Path, init: str = "") -> Iterator[Any]:
    """The page loaded, then (0.3 s later, as marimo comes late) marimo's stand-in let run."""
    with loaded(browser, tmp_path, init) as (page, load_frame):
        load_frame()
        page.wait_for_timeout(300)
        page.evaluate(LET_MARIMO)
        page.wait_for_function(MARIMO_READY)
        yield page


@pytest.mark.browser
def test_the_page_starts_the_worker_marimo_is_then_given(browser: Any, tmp_path: Path) -> None:
    """One worker, created as the page opens and asked to boot as marimo asks (the mirror's
    addresses made absolute against the page, marimo's version); marimo's page script is given
    it, and hears everything it said before marimo listened, in order, then what it says later,
    each once."""
    with opened(browser, tmp_path) as page:
        page.wait_for_function("() => window.heard.length >= 4")
        for n in (1, 2, 3):
            page.evaluate(SAY, n)
        page.wait_for_function("() => window.heard.length >= 7")
        page.wait_for_timeout(300)
        origin = page.url.removesuffix("lesson/")
        assert page.evaluate("window.created") == [[f"{origin}lesson/kernel.js", WORKER_NAME]]
        assert page.evaluate("window.heard") == [*GIVEN_EARLY, "said:1", "said:2", "said:3"]
        first, second = page.evaluate("window.booted")
        assert first["asked"] == {
            "version": version("marimo"),
            "pyodideIndexUrl": f"{origin}pyodide/",
            "pyodideLockfileUrl": f"{origin}pyodide/pyodide-lock.json",
            "pypiIndexUrl": f"{origin}pyodide/simple/{{package_name}}/",
        }
        assert second["asked"] == {"marimo": True}


@pytest.mark.browser
def test_after_the_preview_the_worker_starts_once_the_frame_has_loaded(
    browser: Any, tmp_path: Path
) -> None:
    """With a frame to wait for (a lesson's preview, the page's first content), nothing starts
    before it has loaded; then the worker starts, and marimo is given it as before."""
    with loaded(browser, tmp_path, after=FRAME) as (page, load_frame):
        page.wait_for_timeout(500)
        assert page.evaluate("window.created") == []
        load_frame()
        page.wait_for_function("() => window.booted.length >= 1")
        page.evaluate(LET_MARIMO)
        page.wait_for_function("() => window.heard && window.heard.length >= 4")
        assert len(page.evaluate("window.created")) == 1
        assert page.evaluate("window.heard") == GIVEN_EARLY


@pytest.mark.browser
def test_marimo_first_then_nothing_starts_early(browser: Any, tmp_path: Path) -> None:
    """marimo creates its worker before the frame has loaded: it creates its own, and the frame
    loading later starts nothing."""
    with loaded(browser, tmp_path, after=FRAME) as (page, load_frame):
        page.evaluate(LET_MARIMO)
        page.wait_for_function("() => window.heard && window.heard.length >= 3")
        load_frame()
        page.wait_for_timeout(500)
        assert len(page.evaluate("window.created")) == 1
        assert page.evaluate("window.heard") == ITS_OWN
        assert page.evaluate("window.booted") == [{"n": 1, "asked": {"marimo": True}}]


@pytest.mark.browser
def test_a_listener_taken_off_hears_no_more(browser: Any, tmp_path: Path) -> None:
    with opened(browser, tmp_path) as page:
        page.wait_for_function("() => window.heard.length >= 4")
        page.evaluate("() => kernel.removeEventListener('message', window.listener)")
        page.evaluate(SAY, 1)
        page.wait_for_function("() => window.booted.length >= 2")
        page.wait_for_timeout(500)
        assert page.evaluate("window.heard") == GIVEN_EARLY


@pytest.mark.browser
def test_without_webassembly_the_page_starts_nothing_early(browser: Any, tmp_path: Path) -> None:
    """The page cannot run Python (preview.js says so): nothing is started early, and marimo's
    page script creates its worker itself, which hears only marimo."""
    with opened(browser, tmp_path, init="\ndelete window.WebAssembly;") as page:
        page.wait_for_function("() => window.heard.length >= 3")
        page.wait_for_timeout(300)
        assert len(page.evaluate("window.created")) == 1
        assert page.evaluate("window.heard") == ITS_OWN
        assert page.evaluate("window.booted")[0]["asked"] == {"marimo": True}


@pytest.mark.browser
def test_from_a_file_the_page_starts_nothing(browser: Any, tmp_path: Path) -> None:
    context = browser.new_context()
    context.add_init_script(CREATED)
    try:
        page = context.new_page()
        page.goto((early_page(tmp_path) / "lesson" / "index.html").as_uri())
        page.wait_for_timeout(1000)
        assert page.evaluate("window.created") == []  # marimo's own script cannot load there
    finally:
        context.close()


def test_the_script_comes_first_with_what_it_sends() -> None:
    page = with_early_start("<html><head><title>t</title></head></html>", "t", "k.js", MIRROR)
    assert page.startswith(
        '<html><head>\n<link rel="preload" href="k.js" as="script">\n<script data-kernel="k.js" '
    )
    assert page.index("</script>") < page.index("<title>")
    for key, value in MIRROR.items():
        assert f'data-{key}="{value}"' in page
    assert f'data-envelope="{ENVELOPE}"' in page and f'data-transport="{TRANSPORT}"' in page


def test_a_page_without_one_head_stops_the_build() -> None:
    with pytest.raises(SystemExit, match="no single <head>"):
        with_early_start("<html><body></body></html>", "lesson", "k.js", MIRROR)


def marimo_assets(root: Path, page: str, worker: str) -> Path:
    """A folder laid out as marimo's frontend assets: the page script and the kernel worker."""
    folder = root / "assets"
    folder.mkdir(parents=True)
    (folder / "state-x.js").write_text(page, encoding="utf-8")
    (folder / "worker-Ab1_c.js").write_text(worker, encoding="utf-8")
    (folder / "save-worker-Zz9.js").write_text(worker, encoding="utf-8")
    return root


PAGE_ASSET = (
    "P=`[transport-id]`,De=`marimo-transport`;function Le(){return`marimo${''}`}"
    "Pe=new URL(`save-worker-Zz9.js`,import.meta.url).href,"
    "Fe=new URL(`worker-Ab1_c.js`,import.meta.url).href"
)
WORKER_ASSET = "ne({transportId:`marimo-transport`});Q.addMessageListener(`bootstrap`,e=>r(e))"


def test_the_kernel_worker_is_the_one_marimos_page_script_creates(tmp_path: Path) -> None:
    assets = marimo_assets(tmp_path, PAGE_ASSET, WORKER_ASSET)
    assert kernel_script(assets) == "worker-Ab1_c.js"


@pytest.mark.parametrize(
    "text", [*PAGE_TEXTS, *WORKER_TEXTS, "Fe=new URL(`worker-Ab1_c.js`,import.meta.url)"]
)
def test_a_marimo_that_starts_its_worker_otherwise_stops_the_build(
    tmp_path: Path, text: str
) -> None:
    page, worker = PAGE_ASSET.replace(text, ""), WORKER_ASSET.replace(text, "")
    assert (page, worker) != (PAGE_ASSET, WORKER_ASSET), text
    with pytest.raises(SystemExit, match="kernel worker"):
        kernel_script(marimo_assets(tmp_path, page, worker))


def test_two_kernel_workers_named_stop_the_build(tmp_path: Path) -> None:
    page = PAGE_ASSET + ",X=new URL(`worker-Other.js`,import.meta.url)"
    with pytest.raises(SystemExit, match="no single kernel worker"):
        kernel_script(marimo_assets(tmp_path, page, WORKER_ASSET))


def test_the_site_assets_hold_what_the_build_reads() -> None:
    """marimo's own assets, as the site copies them: one kernel worker, every text present."""
    import marimo

    static = Path(marimo.__file__).parent / "_static"
    assert kernel_script(static).startswith("worker-")
