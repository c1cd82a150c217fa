// A lesson's first run in the page's own Python, for the Markdown it renders (exports/prerender.py):
//
//   node prerender.mjs CORE LIBRARY_WHEEL NOTEBOOK
//
// Pyodide's core from the site's mirror (CORE), with every wheel of the mirror and the library's
// wheel, then marimo's own Pyodide session, the calls the page's worker makes: `create_session`,
// `instantiate`, the session started. Every text marimo's Markdown renderer is given until the
// kernel says its first run is over (`completed-run`), Markdown-only cells included, is printed
// with the HTML it gave, as one JSON object on stdout (keys sorted), and so is every text the
// lesson's warm-up renders just after that message (asyncfail/course/warmup.py), until a callback
// handed to the kernel's event loop then has run: the warm-up was handed to it before (the loop
// keeps its order, warmup.after_this_run), so it is over. The output is the same at every run.
import { readFileSync, readdirSync } from "node:fs";
import { basename, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [core, library, notebook] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(resolve(core, "pyodide.mjs")).href);
const pyodide = await loadPyodide({
  indexURL: resolve(core) + "/",
  env: { PYTHONHASHSEED: "0" },
  stdout: () => {},
  stderr: (line) => process.stderr.write(line + "\n"),
});
const wheels = readdirSync(core)
  .filter((name) => name.endsWith(".whl"))
  .sort()
  .map((name) => pathToFileURL(resolve(core, name)).href);
await pyodide.loadPackage([...wheels, pathToFileURL(resolve(library)).href], {
  messageCallback: () => {},
});
pyodide.FS.writeFile(`/home/pyodide/${basename(notebook)}`, readFileSync(notebook, "utf8"));
pyodide.globals.set("NOTEBOOK", `/home/pyodide/${basename(notebook)}`);
await pyodide.runPythonAsync(`
import asyncio
import json

import marimo._output.md as markdown
from marimo._pyodide.bootstrap import create_session, instantiate

render = markdown._render_markdown
rendered = {}
done = []
over = []


def kept(text):
    html = render(text)
    if not over:
        rendered[text] = html
    return html


def received(message):
    if not done and '"completed-run"' in message:
        done.append(True)


markdown._render_markdown = kept
session, _bridge = create_session(
    filename=NOTEBOOK, query_params={}, message_callback=received, user_config={}
)
instantiate(session)
task = asyncio.create_task(session.start())
while not done:
    await asyncio.sleep(0.005)
after = asyncio.get_running_loop().create_future()
asyncio.get_running_loop().call_soon(after.set_result, None)
await after
over.append(True)
with open("/home/pyodide/rendered.json", "w", encoding="utf-8") as file:
    json.dump(rendered, file, sort_keys=True)
`);
process.stdout.write(pyodide.FS.readFile("/home/pyodide/rendered.json", { encoding: "utf8" }));
process.exit(0);
