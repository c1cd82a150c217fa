// The framed side of an interactive page's preview (exports/preview.py): a page made for the
// frame only (a lesson's snapshot as `preview.html`, the presenter view's `start.html`).
//
// A lesson's preview is sandboxed (an opaque origin: Chromium draws it in its own process, so
// it does not slow the live app starting underneath), and its page cannot reach into it. Once
// the interactive page at this site says hello ({preview: true}, preview.js), this script:
//   - makes the page's controls and links inert to the pointer (they do nothing in a preview,
//     and a link would open inside the frame); reading and scrolling still work;
//   - posts the reader's place on each scroll ({place}): the first output at the top of the
//     view (a sliver of one does not count) and how far below the top of the view it starts,
//     or null at the top, so that the live app opens at the same place.
// Opened on its own, or framed by another site, the page stays as it is.
(() => {
  const SLIVER = 8;
  const outputs = () => [...document.querySelectorAll('[id^="output-"]')];

  function place() {
    // marimo's pages scroll inside #App; the snapshot document scrolls as a page.
    const app = document.getElementById("App");
    const view = app && app.scrollTop > 0 ? app : document.scrollingElement;
    if (!view || view.scrollTop === 0) return null;
    const top = view === app ? app.getBoundingClientRect().top : 0;
    const first = outputs().find((el) => el.getBoundingClientRect().bottom > top + SLIVER);
    return first ? { id: first.id, offset: first.getBoundingClientRect().top - top } : null;
  }

  let awake = false;
  let asked = false;
  function post() {
    asked = false;
    parent.postMessage({ place: place() }, location.origin);
  }

  addEventListener("message", (event) => {
    const hello = event.data && event.data.preview === true;
    if (awake || !hello || event.source !== parent || event.origin !== location.origin) return;
    awake = true;
    const style = document.createElement("style");
    style.textContent =
      "marimo-ui-element, a, button, input, select, textarea, [role=switch] " +
      "{ pointer-events: none !important; }";
    document.head.append(style);
    // Scrolling inside #App does not bubble: listen on the way down.
    const later = () => asked || ((asked = true), requestAnimationFrame(post));
    addEventListener("scroll", later, { capture: true, passive: true });
    post();
  });
})();
