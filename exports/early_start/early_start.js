// marimo's kernel worker, started as the page opens (exports/early_start.py).
//
// marimo's page script creates the worker that runs Python, and asks it to boot Pyodide, only
// once that script and its 300-odd modules have loaded and run: 1.5-2 s into the page, with the
// worker idle until then. This script, first in the page, creates that same worker at once (the
// worker's script, as marimo names it) and sends it the request marimo would send, word for word
// (`bootstrap`, in marimo's transport envelope: marimo's version and the addresses of the site's
// Pyodide mirror, as marimo reads them from <marimo-wasm>). When marimo's page script creates its
// worker, it is given this one; the `bootstrap` it sends again is ignored by the worker, which
// acts on the first. What the worker said before marimo listened (that it is ready, that it is
// loading) is kept and given, in order, to every listener added in that turn, before anything it
// says later. Not from file://, nor without WebAssembly: the preview says why (preview.js).
// With `data-after` (a lesson's preview frame), the worker is started once that frame has
// loaded: the snapshot is the page's first content, and over HTTP/1.1 the worker's 25 MB of
// Pyodide and marimo would otherwise come before it. If marimo creates its worker first, it
// creates its own, and nothing is started.
(() => {
  const notes = document.currentScript.dataset;
  const Native = window.Worker;
  if (location.protocol === "file:" || typeof WebAssembly !== "object") return;
  if (typeof Native !== "function") return;
  const absolute = (value) => new URL(value, document.baseURI).href;
  const kernel = absolute(notes.kernel);
  let worker = null;
  let late = false; // marimo created its worker before this script started one
  const kept = [];
  let given = false;
  const listeners = [];
  const relays = new Map();
  const deliver = (listener, event) =>
    typeof listener === "function" ? listener.call(worker, event) : listener.handleEvent(event);

  function start() {
    if (worker || late) return;
    try {
      worker = new Native(kernel, { name: notes.name, type: "module" });
    } catch {
      late = true; // marimo creates its worker itself, as without this script
      return;
    }
    worker.addEventListener("message", (event) => given || kept.push(event));
    const add = worker.addEventListener;
    const remove = worker.removeEventListener;
    worker.addEventListener = function (type, listener, options) {
      if (type !== "message" || given || !listener) return add.call(this, type, listener, options);
      // Until the kept messages are given, what the worker says is kept too: this listener
      // hears it all then, in order, and only later messages as they come.
      const relay = (event) => given && deliver(listener, event);
      listeners.push(listener);
      relays.set(listener, relay);
      return add.call(this, type, relay, options);
    };
    worker.removeEventListener = function (type, listener, options) {
      const relay = type === "message" ? relays.get(listener) : undefined;
      if (relay) listeners.splice(listeners.indexOf(listener), 1);
      return remove.call(this, type, relay || listener, options);
    };
    worker.postMessage({
      [notes.envelope]: notes.transport,
      data: {
        type: "message",
        id: "bootstrap",
        payload: {
          version: notes.version,
          pyodideIndexUrl: absolute(notes.pyodideIndexUrl),
          pyodideLockfileUrl: absolute(notes.pyodideLockfileUrl),
          pypiIndexUrl: absolute(notes.pypiIndexUrl).replaceAll("%7Bpackage_name%7D", "{package_name}"),
        },
      },
    });
  }

  function give() {
    for (const event of kept.splice(0)) for (const listener of [...listeners]) deliver(listener, event);
    given = true;
  }

  let adopted = false;
  window.Worker = class extends Native {
    constructor(url, options) {
      if (!adopted && absolute(url) === kernel) {
        adopted = true;
        if (worker) {
          setTimeout(give); // the next task: marimo has set up its listeners by then
          return worker;
        }
        late = true;
      }
      super(url, options);
    }
  };

  const after = notes.after;
  if (!after) return start();
  // The frame's `load` does not bubble: heard on its way down, from the document.
  document.addEventListener("load", (event) => event.target.matches?.(after) && start(), true);
})();
