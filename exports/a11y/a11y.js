// Names and landmarks marimo's frontend and vega-embed leave out (exports/a11y.py).
//
// marimo draws the page with React, and outputs inside shadow roots (<marimo-mime-renderer>),
// so the exported HTML cannot carry these names: this script, first in the head, watches the
// document and every shadow root as it is attached, and names what has no name:
// - vega-embed's chart actions menu, a <summary> holding only an icon (axe summary-name);
// - a button holding only an icon, such as marimo's app menu and its toasts' close button
//   (axe button-name), from its tooltip or test id when it has one, else a generic name;
// - a radio group, which marimo names "Radio Group" whatever its label says (named by it);
// - a tab list, which marimo leaves without a name (named by the heading before it);
// - a control whose name marimo wrote as its label's HTML, and a number field set in a
//   sentence, which marimo names "Number input" (named by the words before it);
// - the slides' scroll container, which the keyboard could not reach (made focusable);
// gives every shadow root the page's style (its focus ring, reduced motion and reflow); and
// moves a radio group's choice and a tab list's tab with the arrows (see `GROUPS` below).
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
  const GENERIC_NUMBER = "Number input"; // marimo's name for a number field without a label
  const squeezed = (text) => text.replace(/\s+/g, " ").trim();
  const textOf = (markup) =>
    squeezed(new DOMParser().parseFromString(markup, "text/html").body.textContent);
  // The words just before a field's element in its sentence, back to the sentence's start:
  // "..., how many debits reach the ledger? Naive runtime: " names it "Naive runtime".
  const wordsBefore = (input) => {
    const root = input.getRootNode();
    const host = root instanceof ShadowRoot ? root.host : null;
    const element = host && (host.closest("marimo-ui-element") || host);
    const before = element && element.previousSibling;
    if (!before || before.nodeType !== Node.TEXT_NODE) return "";
    const clause = before.textContent.split(/[.?!]/).pop();
    return clause.replace(/[:\s]+$/, "").trim();
  };
  // The text of the last heading before an element in its cell's output ("" when none): the
  // element is taken out of its shadow roots first, as the cell's Markdown is not in them.
  const headingBefore = (el) => {
    let host = el;
    while (host.getRootNode() instanceof ShadowRoot) host = host.getRootNode().host;
    const output = host.closest(".output-area");
    const before = output
      ? [...output.querySelectorAll("h1, h2, h3, h4, h5, h6")].filter(
          (h) => h.compareDocumentPosition(host) & Node.DOCUMENT_POSITION_FOLLOWING,
        )
      : [];
    return before.length ? squeezed(before[before.length - 1].textContent) : "";
  };
  // The page's own style (the element just before this script, exports/a11y.py: the focus
  // ring, reduced motion, reflow) does not reach into shadow roots: each gets it too.
  const own = document.currentScript.previousElementSibling;
  const shared = new CSSStyleSheet();
  shared.replaceSync(own instanceof HTMLStyleElement ? own.textContent : "");
  function fix(scope) {
    if (scope instanceof ShadowRoot && !scope.adoptedStyleSheets.includes(shared)) {
      scope.adoptedStyleSheets = [...scope.adoptedStyleSheets, shared];
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
    // marimo writes a control's label into its aria-label as HTML (a labelled number field
    // was announced as "<span class=...>"), and names a number field without a label "Number
    // input", its arrows "Increase Number input" and "Decrease Number input". A label's HTML
    // becomes its text; a field set in a sentence, as a lesson's guesses are ("Naive runtime:
    // {naive}"), is named by the words just before it, and its arrows after it (WCAG 4.1.2).
    for (const el of scope.querySelectorAll("[aria-label]")) {
      const label = el.getAttribute("aria-label");
      if (/<[a-z]/i.test(label)) el.setAttribute("aria-label", textOf(label));
    }
    for (const input of scope.querySelectorAll(`input[aria-label="${GENERIC_NUMBER}"]`)) {
      const name = wordsBefore(input);
      if (!name) continue;
      input.setAttribute("aria-label", name);
      for (const button of scope.querySelectorAll("button[aria-label]")) {
        const was = button.getAttribute("aria-label");
        if (was.endsWith(` ${GENERIC_NUMBER}`))
          button.setAttribute("aria-label", `${was.slice(0, -GENERIC_NUMBER.length)}${name}`);
      }
    }
    // marimo names every radio group "Radio Group" and points its visible label's <label for>
    // at an id no element has, so a screen reader announced each question and setting as
    // "Radio Group": the group takes its name from that label instead (WCAG 4.1.2, 1.3.1).
    // aria-labelledby outranks the generic aria-label, which React keeps writing.
    for (const group of scope.querySelectorAll('[role="radiogroup"]:not([aria-labelledby])')) {
      const label = group.closest(".mo-label")?.querySelector(':scope > [part="label"] label');
      if (!label || !label.htmlFor || label.textContent.trim() === "") continue;
      if (!label.id) label.id = `${label.htmlFor}-name`;
      group.setAttribute("aria-labelledby", label.id);
    }
    // marimo's tab lists have no name: a screen reader said "tab list" and nothing of what
    // the tabs show. Each is named by the heading just before it in its cell's output
    // (lesson 2's "The traces", lesson 5's "naive runtime"), as the tabs pattern asks of a
    // tab list with a visible label (WAI-ARIA APG; WCAG 1.3.1, 4.1.2). An id cannot reach
    // across the shadow root, so the name is the heading's text, not aria-labelledby.
    for (const list of scope.querySelectorAll(
      '[role="tablist"]:not([aria-label]):not([aria-labelledby])',
    )) {
      const name = headingBefore(list);
      if (name) list.setAttribute("aria-label", name);
    }
    // marimo's slides scroll inside a container the keyboard cannot reach (axe
    // scrollable-region-focusable): make it focusable, so arrows scroll a tall slide.
    for (const slide of scope.querySelectorAll('[data-testid="slide-scroll-container"]')) {
      if (!slide.hasAttribute("tabindex")) slide.setAttribute("tabindex", "0");
    }
  }
  // Radio groups and tab lists in a shadow root (every marimo radio and mo.ui.tabs): Radix's
  // roving focus compares document.activeElement, which is the shadow host whatever item has
  // the focus, so the arrows did not move, and Tab entered the group by focusing each item in
  // turn, stopping on the last (a tab list showed its last tab, and the others could not be
  // reached). Here, before Radix sees them (WAI-ARIA radio group and tabs patterns): Tab into
  // the group lands on its current item (else the first); the arrows move to the next or
  // previous item, wrapping, Home and End to the first and last, and choose it (a radio is
  // checked; a tab shows its panel as it takes the focus).
  const GROUPS = {
    radiogroup: {
      item: "radio",
      current: "aria-checked",
      keys: { ArrowDown: 1, ArrowRight: 1, ArrowUp: -1, ArrowLeft: -1 },
      choose: (radio) => radio.click(),
    },
    tablist: { item: "tab", current: "aria-selected", keys: { ArrowRight: 1, ArrowLeft: -1 } },
  };
  const items = (group, kind) =>
    [...group.querySelectorAll(`[role="${kind.item}"]`)].filter(
      (item) =>
        item.closest(`[role="${group.getAttribute("role")}"]`) === group &&
        !item.disabled &&
        item.getAttribute("aria-disabled") !== "true",
    );
  function steer(root) {
    root.addEventListener(
      "focusin",
      (event) => {
        const group = event.composedPath()[0];
        const kind = group instanceof Element && GROUPS[group.getAttribute("role")];
        const all = kind ? items(group, kind) : [];
        if (all.length === 0) return;
        event.stopPropagation();
        (all.find((item) => item.getAttribute(kind.current) === "true") || all[0]).focus();
      },
      true,
    );
    root.addEventListener(
      "keydown",
      (event) => {
        const item = event.composedPath()[0];
        if (!(item instanceof Element)) return;
        const role = Object.keys(GROUPS).find((r) => GROUPS[r].item === item.getAttribute("role"));
        const kind = GROUPS[role];
        const move = kind && (kind.keys[event.key] ?? { Home: "first", End: "last" }[event.key]);
        const group = move && item.closest(`[role="${role}"]`);
        const all = group ? items(group, kind) : [];
        const at = all.indexOf(item);
        if (at < 0) return;
        event.preventDefault();
        event.stopPropagation();
        const to = move === "first" ? 0 : move === "last" ? all.length - 1 : at + move;
        const next = all[(to + all.length) % all.length];
        next.focus();
        if (kind.choose) kind.choose(next);
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
