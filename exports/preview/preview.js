// The preview of a lesson's interactive page while Python starts (exports/preview.py).
//
// The page opens on `start.html`, the lesson's starting state exported by marimo at build time,
// in a frame over the live app, which boots underneath (hidden). Once the live app is connected
// and shows every output the preview shows (matched by cell id: both pages come from the same
// notebook), and has been quiet for a moment, the preview goes and the live app is shown, at
// the preview's scroll position. Nothing is requested from anywhere for this: it reads the two
// documents of this page. `<html data-lesson-state>` says "starting", then "live".
(() => {
  const QUIET_MS = 200; // no change in the live app for this long: its cells have rendered
  const SETTLE_MS = 2000; // every output is there but the app keeps changing: show it anyway
  const FALLBACK_QUIET_MS = 3000; // outputs differ from the preview's, app quiet: show it
  const SLOW_MS = 60000; // say so if it takes this long
  const root = document.documentElement;
  const overlay = document.getElementById("lesson-preview");
  const frame = overlay.querySelector("iframe");
  const note = overlay.querySelector("p");
  root.dataset.lessonState = "starting";
  if (typeof WebAssembly !== "object") {
    note.textContent = overlay.dataset.noWebassembly;
    overlay.dataset.stopped = "";
    return;
  }
  const slow = setTimeout(() => (note.textContent = overlay.dataset.slow), SLOW_MS);

  // The preview's controls do nothing: make them inert to the pointer, links included (a link
  // would open inside the frame). Reading and scrolling still work.
  frame.addEventListener("load", () => {
    const style = frame.contentDocument.createElement("style");
    style.textContent =
      "marimo-ui-element, a, button, input, select, textarea, [role=switch] " +
      "{ pointer-events: none !important; }";
    frame.contentDocument.head.append(style);
  });

  const filled = (el) =>
    el.textContent.trim() !== "" || el.querySelector("canvas, svg, img, marimo-ui-element");
  const outputs = (scope) =>
    [...scope.querySelectorAll('[id^="output-"]')].filter(filled).map((el) => el.id);

  let changed = performance.now();
  let complete = null; // when the live app first showed every output the preview shows
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
    const live = new Set(outputs(app));
    if (live.size === 0) return false;
    const doc = frame.contentDocument;
    const expected = doc ? outputs(doc) : [];
    const quiet = now - changed;
    if (expected.length > 0 && expected.every((id) => live.has(id))) {
      complete ??= now;
      return quiet >= QUIET_MS || now - complete >= SETTLE_MS;
    }
    complete = null;
    return quiet >= FALLBACK_QUIET_MS;
  }

  function scroller(doc) {
    return doc && doc.getElementById("App");
  }

  function swap() {
    clearInterval(timer);
    clearTimeout(slow);
    observer.disconnect();
    const from = scroller(frame.contentDocument);
    const to = scroller(document);
    root.dataset.lessonState = "live";
    if (from && to) to.scrollTop = from.scrollTop;
    overlay.remove();
  }

  const timer = setInterval(() => {
    if (ready(performance.now())) swap();
  }, 100);
})();
