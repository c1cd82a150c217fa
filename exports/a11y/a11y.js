// Names and landmarks marimo's frontend and vega-embed leave out (exports/a11y.py).
//
// marimo draws the page with React, and outputs inside shadow roots (<marimo-mime-renderer>),
// so the exported HTML cannot carry these names: this script, first in the head, watches the
// document and every shadow root as it is attached, and names what has no name:
// - vega-embed's chart actions menu, a <summary> holding only an icon (axe summary-name);
// - a button holding only an icon, such as marimo's app menu and its toasts' close button
//   (axe button-name), from its tooltip or test id when it has one, else a generic name;
// - the slides' scroll container, which the keyboard could not reach (made focusable);
// gives every shadow root the page's visible focus ring; and moves a radio group's choice
// with the arrows (see `radios` below).
// Words come from the page (data-* attributes of this script's element, written by the build
// from asyncfail.course.site). It requests nothing.
(() => {
  const words = document.currentScript.dataset;
  // A <label for> names a control too (marimo's switch: its label sits beside it); an
  // aria-label put on it would hide that name behind a generic one.
  const named = (el) =>
    (el.labels && el.labels.length > 0) ||
    el.hasAttribute("aria-label") ||
    el.hasAttribute("aria-labelledby") ||
    el.hasAttribute("title") ||
    el.textContent.trim() !== "";
  // The page's focus ring (a11y.css) does not reach into shadow roots: each gets it too.
  const ring = new CSSStyleSheet();
  ring.replaceSync(":focus-visible { outline: 2px solid #0550ae !important; outline-offset: 2px; }");
  function fix(scope) {
    if (scope instanceof ShadowRoot && !scope.adoptedStyleSheets.includes(ring)) {
      scope.adoptedStyleSheets = [...scope.adoptedStyleSheets, ring];
    }
    for (const summary of scope.querySelectorAll("summary")) {
      if (!named(summary)) summary.setAttribute("aria-label", words.chartActions);
    }
    for (const button of scope.querySelectorAll("button")) {
      if (named(button)) continue;
      const hint = button.getAttribute("data-testid") || "";
      let label = words.button;
      if (button.hasAttribute("toast-close")) label = words.close;
      else if (/menu/i.test(hint) || button.getAttribute("aria-haspopup") === "menu")
        label = words.menu;
      button.setAttribute("aria-label", label);
    }
    // marimo's slides scroll inside a container the keyboard cannot reach (axe
    // scrollable-region-focusable): make it focusable, so arrows scroll a tall slide.
    for (const slide of scope.querySelectorAll('[data-testid="slide-scroll-container"]')) {
      if (!slide.hasAttribute("tabindex")) slide.setAttribute("tabindex", "0");
    }
  }
  // A radio group in a shadow root (every marimo radio): Radix's roving focus compares
  // document.activeElement, which is the shadow host whatever radio has the focus, so the
  // arrows did not move and Tab entered the group at its last option. Here, before Radix
  // sees them: Tab into the group lands on its checked radio (else the first), and the
  // arrows move to the next or previous radio (wrapping) and check it (WAI-ARIA radio group).
  const radios = (group) =>
    [...group.querySelectorAll('[role="radio"]')].filter(
      (radio) => radio.closest('[role="radiogroup"]') === group && !radio.disabled,
    );
  const STEP = { ArrowDown: 1, ArrowRight: 1, ArrowUp: -1, ArrowLeft: -1 };
  function steer(root) {
    root.addEventListener(
      "focusin",
      (event) => {
        const group = event.composedPath()[0];
        if (!(group instanceof Element) || group.getAttribute("role") !== "radiogroup") return;
        const all = radios(group);
        if (all.length === 0) return;
        event.stopPropagation();
        (all.find((radio) => radio.getAttribute("aria-checked") === "true") || all[0]).focus();
      },
      true,
    );
    root.addEventListener(
      "keydown",
      (event) => {
        const radio = event.composedPath()[0];
        const step = STEP[event.key];
        if (!step || !(radio instanceof Element) || radio.getAttribute("role") !== "radio") return;
        const group = radio.closest('[role="radiogroup"]');
        const all = group ? radios(group) : [];
        const at = all.indexOf(radio);
        if (at < 0) return;
        event.preventDefault();
        event.stopPropagation();
        const next = all[(at + step + all.length) % all.length];
        next.focus();
        next.click();
      },
      true,
    );
  }
  let pending = new Set();
  let scheduled = false;
  function later(scope) {
    pending.add(scope);
    if (scheduled) return;
    scheduled = true;
    queueMicrotask(() => {
      scheduled = false;
      const scopes = pending;
      pending = new Set();
      scopes.forEach(fix);
    });
  }
  function watch(scope) {
    new MutationObserver(() => later(scope)).observe(scope, { subtree: true, childList: true });
    later(scope);
  }
  const attach = Element.prototype.attachShadow;
  Element.prototype.attachShadow = function (init) {
    const root = attach.call(this, init);
    steer(root);
    watch(root);
    return root;
  };
  watch(document.documentElement);
})();
