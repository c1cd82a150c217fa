// The preview of a lesson's interactive page while Python starts (exports/preview.py).
//
// The page opens on a static page of the same notebook (a lesson's snapshot, `static.html`; the
// presenter view's starting state, `start.html`) in a frame over the live app, which boots
// underneath, hidden. Once the live app is connected and has drawn an output for every cell
// the preview has one for (matched by cell id: both pages come from the same notebook, and the
// same cells give an output whatever its content), and either marimo's kernel has said its first
// run is over or the app has been quiet for a moment, the preview goes and the live app is
// shown, scrolled to the cell the reader was at. Nothing is requested from anywhere for this but
// a HEAD request for each of Pyodide's core files (a missing one is said at once), and the
// packages the kernel will load, fetched from the site while marimo starts.
// `<html data-lesson-state>` says "starting", then "live", or "failed" when the page cannot
// start (from file://, without WebAssembly, a core file missing): the note then says why, what
// to do, and links the static snapshot. Not live after a long while, the note says that too
// (and the page keeps trying).
(() => {
  const QUIET_MS = 200; // no change in the live app for this long: its outputs are drawn
  const RUN_OVER = '{"op": "completed-run"'; // marimo's kernel: every cell of a run has finished
  const SETTLE_MS = 2000; // every output is there but the app keeps changing: show it anyway
  const FALLBACK_QUIET_MS = 3000; // the cells differ from the preview's, app quiet: show it
  const PREFETCH_AFTER = "Loading notebook"; // marimo's worker: marimo loaded, the notebook next
  const root = document.documentElement;
  const overlay = document.getElementById("lesson-preview");
  const frame = overlay.querySelector("iframe");
  const note = overlay.querySelector("p");
  const notes = overlay.dataset;
  root.dataset.lessonState = "starting";

  // The page cannot go live: say why, what to do, and link the snapshot (the notes are the
  // build's HTML, from asyncfail.course.site). `data-lesson-state` becomes "failed".
  let slow = null;
  let late = null;
  function fail(html) {
    clearTimeout(slow);
    clearTimeout(late);
    note.innerHTML = html;
    overlay.dataset.stopped = "";
    root.dataset.lessonState = "failed";
  }
  if (location.protocol === "file:") return fail(notes.file);
  if (typeof WebAssembly !== "object") return fail(notes.noWebassembly);
  slow = setTimeout(() => (note.textContent = notes.slow), notes.slowAfter * 1000);
  // Not live after a long while: say so, with what to do; keep trying (it may still go live).
  late = setTimeout(() => {
    note.innerHTML = notes.stopped;
    overlay.dataset.stopped = "";
  }, notes.stopAfter * 1000);

  // Python cannot start without the mirror's core files: ask for each (HEAD, no body), and say
  // so at once if one is missing, instead of waiting for ever.
  const wasm = document.querySelector("marimo-wasm");
  const mirror = new URL(wasm ? wasm.dataset.pyodideIndexUrl : "", location.href);
  for (const file of notes.runtime.split(" ")) {
    fetch(new URL(file, mirror), { method: "HEAD", cache: "no-store" }).then(
      (response) => {
        if (!response.ok && root.dataset.lessonState === "starting")
          fail(notes.missing.replace("{file}", file));
      },
      () => {}, // unreachable: the page says so when it is late
    );
  }

  // Offline on the second visit: the site's service worker (exports/offline.py) keeps what this
  // page loads. Once live, the page posts it every file it loaded, as a performance observer
  // saw them (the page's own timeline keeps the first 250, and a lesson loads some 310), then in
  // batches what it loads later. `<html data-offline="kept">` once the worker has kept the first.
  const worker =
    "serviceWorker" in navigator && notes.sw
      ? navigator.serviceWorker
          .register(notes.sw)
          .then(() => navigator.serviceWorker.ready)
          .catch(() => null)
      : Promise.resolve(null);
  worker.then((registration) => {
    if (!registration) return;
    navigator.serviceWorker.addEventListener("message", (event) => {
      if (event.data && event.data.kept) root.dataset.offline = "kept";
    });
  });
  const loaded = [location.href, frame.src];
  let posting = null;
  function keep() {
    posting = null;
    const urls = loaded.splice(0);
    worker.then((registration) => registration?.active?.postMessage({ keep: urls }));
  }
  new PerformanceObserver((list) => {
    loaded.push(...list.getEntries().map((entry) => entry.name));
    if (root.dataset.lessonState === "live") posting ??= setTimeout(keep, 500);
  }).observe({ type: "resource", buffered: true });

  // The preview's controls do nothing: make them inert to the pointer, links included (a link
  // would open inside the frame). Reading and scrolling still work.
  frame.addEventListener("load", () => {
    const style = frame.contentDocument.createElement("style");
    style.textContent =
      "marimo-ui-element, a, button, input, select, textarea, [role=switch] " +
      "{ pointer-events: none !important; }";
    frame.contentDocument.head.append(style);
  });

  const outputs = (scope) => [...scope.querySelectorAll('[id^="output-"]')];

  // The packages the notebook imports (the library, pydantic and theirs: 3.5 MB for a lesson),
  // fetched while marimo starts, so that Pyodide finds them in the browser's cache: marimo's
  // kernel asks for them only once it is ready, when on a slow link their download came after
  // all the rest (lesson 1 over a 20 Mbps link went live 1.3 s sooner, exports/README.md).
  // Asked when marimo's worker says it loads the notebook (marimo itself is loaded by then),
  // not before: they would share the link with Pyodide's core and marimo, which come first.
  let prefetched = false;
  function prefetchOn(said) {
    if (prefetched || said?.id !== "initializingMessage") return;
    if (!String(said.payload?.message).startsWith(PREFETCH_AFTER)) return;
    prefetched = true;
    for (const file of (notes.prefetch || "").split(" ").filter(Boolean)) {
      // Read to the end, so the whole file is in the cache; a failure is the kernel's to say.
      fetch(new URL(file, mirror)).then((response) => response.blob(), () => {}).catch(() => {});
    }
  }

  // The kernel's word that its first run is over (every cell has run and sent its output) ends
  // the wait at once: without it, the app's last change is known only once it has been quiet
  // for QUIET_MS (checked every 100 ms), which kept a lesson's reader from the live page some
  // 0.3 s after its kernel had finished. marimo creates the kernel's worker after this script
  // (its page script is a module), so the page's workers report their messages here first (a
  // lesson's page started that worker as it opened, exports/early_start.py: marimo is given it
  // through this class, and it hears what the worker said before, in order); a marimo that
  // speaks otherwise leaves the quiet moment to decide.
  let ran = false;
  const NativeWorker = window.Worker;
  if (typeof NativeWorker === "function") {
    const heard = (event) => {
      prefetchOn(event.data?.data);
      const message = event.data?.data?.payload?.message;
      if (ran || typeof message !== "string" || !message.startsWith(RUN_OVER)) return;
      ran = true;
      // Two frames: the run's last outputs are drawn before the preview goes.
      requestAnimationFrame(() => requestAnimationFrame(check));
    };
    window.Worker = class extends NativeWorker {
      constructor(...args) {
        super(...args);
        this.addEventListener("message", heard);
      }
    };
  }

  let changed = performance.now();
  let complete = null; // when the live app first had every output the preview has
  const observer = new MutationObserver(() => (changed = performance.now()));
  observer.observe(document.body, {
    subtree: true,
    childList: true,
    characterData: true,
    attributes: true,
  });

  function ready(now) {
    const app = document.querySelector('#App[data-connection-state="OPEN"]');
    if (!app) return false;
    const live = new Set(outputs(app).map((el) => el.id));
    if (live.size === 0) return false;
    const doc = frame.contentDocument;
    const expected = doc ? outputs(doc).map((el) => el.id) : [];
    const quiet = now - changed;
    if (expected.length > 0 && expected.every((id) => live.has(id))) {
      complete ??= now;
      return ran || quiet >= QUIET_MS || now - complete >= SETTLE_MS;
    }
    complete = null;
    return quiet >= FALLBACK_QUIET_MS;
  }

  // The first output the reader sees at the top of the preview (a sliver of one does not
  // count), and how far below the top of the view it starts: the live app is scrolled to put
  // the same cell at the same place. The two pages may differ above it or in it (a snapshot
  // shows results the live page asks for first): a cell the live page draws shorter than the
  // part the reader had scrolled past is shown from its top.
  const SLIVER = 8;
  function anchor() {
    // marimo's pages scroll inside #App; the snapshot document scrolls as a page.
    const doc = frame.contentDocument;
    const app = doc && doc.getElementById("App");
    const view = app && app.scrollTop > 0 ? app : doc && doc.scrollingElement;
    if (!view || view.scrollTop === 0) return null;
    const top = view === app ? app.getBoundingClientRect().top : 0;
    const first = outputs(doc).find((el) => el.getBoundingClientRect().bottom > top + SLIVER);
    return first ? { id: first.id, offset: first.getBoundingClientRect().top - top } : null;
  }

  function scrollTo(place) {
    const view = document.getElementById("App");
    const target = place && document.getElementById(place.id);
    if (!view || !target) return;
    const box = target.getBoundingClientRect();
    const wanted = place.offset < SLIVER - box.height ? 0 : place.offset;
    view.scrollTop += box.top - view.getBoundingClientRect().top - wanted;
  }

  function swap() {
    clearInterval(timer);
    if (window.Worker !== NativeWorker) window.Worker = NativeWorker;
    clearTimeout(slow);
    clearTimeout(late);
    observer.disconnect();
    const place = anchor();
    root.dataset.lessonState = "live";
    scrollTo(place);
    keep();
    overlay.remove();
  }

  function check() {
    if (root.dataset.lessonState !== "starting") return clearInterval(timer);
    if (ready(performance.now())) swap();
  }
  const timer = setInterval(check, 100);
})();
