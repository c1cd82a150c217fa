// A notebook's kernel start under Node, as a page's worker starts it (bench/export_bench.py):
//
//   node kernel_start.mjs SITE NOTEBOOK
//
// Pyodide's core from the site's mirror, with every wheel of the mirror (and the library's
// wheel, below) unpacked first (so no package is loaded while timed), then marimo's own Pyodide
// session, the calls the page's worker makes: `create_session`, `instantiate`, the session
// started. Prints one line of JSON: milliseconds from `instantiate` to the kernel's
// `completed-run` message (`run_ms`), and of it, marimo rendering the Markdown-only cells
// (`markdown_ms`). No browser: the kernel's own work, without the page's drawing or the
// machine's other tabs.
import { readFileSync, readdirSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [site, notebook] = process.argv.slice(2);
const core = resolve(site, "pyodide");
const { loadPyodide } = await import(pathToFileURL(resolve(core, "pyodide.mjs")).href);
const pyodide = await loadPyodide({
  indexURL: core + "/",
  env: { PYTHONHASHSEED: "0" },
  stdout: (line) => {
    if (line.startsWith("{")) console.log(line);
  },
  stderr: () => {},
});
const wheels = (folder) =>
  readdirSync(folder)
    .filter((name) => name.endsWith(".whl"))
    .sort()
    .map((name) => pathToFileURL(resolve(folder, name)).href);
// The library's wheel only for a notebook that imports it, as the page's worker loads it
// (Pyodide's `loadPackagesFromImports`): its entry point makes marimo's kernel import the
// library as it starts (asyncfail/course/prerendered.py), which the trivial notebook's must not.
const code = readFileSync(notebook, "utf8");
const imports = /^\s*(from|import)\s+asyncfail\b/m.test(code);
const library = imports ? wheels(resolve(site, "wheels")) : [];
await pyodide.loadPackage([...wheels(core), ...library], { messageCallback: () => {} });
pyodide.FS.writeFile("/home/pyodide/notebook.py", code);
await pyodide.runPythonAsync(`
import asyncio
import json
import time

import marimo._runtime.runtime as runtime
from marimo._pyodide.bootstrap import create_session, instantiate

render = runtime.Kernel._handle_markdown_cells_on_instantiate
spent = {}


def timed(kernel, *args, **kwargs):
    start = time.perf_counter()
    try:
        return render(kernel, *args, **kwargs)
    finally:
        spent["markdown"] = time.perf_counter() - start


runtime.Kernel._handle_markdown_cells_on_instantiate = timed
done = []


def received(message):
    if not done and '"completed-run"' in message:
        done.append(time.perf_counter())


session, _bridge = create_session(
    filename="/home/pyodide/notebook.py",
    query_params={},
    message_callback=received,
    user_config={},
)
start = time.perf_counter()
instantiate(session)
asyncio.create_task(session.start())
while not done:
    await asyncio.sleep(0.005)
print(json.dumps({
    "run_ms": round((done[0] - start) * 1000, 1),
    "markdown_ms": round(spent.get("markdown", 0.0) * 1000, 1),
}))
`);
process.exit(0);
