// Bytecode for what every lesson page unpacks (exports/bytecode.py): run by Node with Pyodide's
// own core, so each module is compiled by the very Python that will import it.
//
//   node bytecode.mjs CORE_DIR [--source-only REGEX] WHEEL [...]
//   node bytecode.mjs CORE_DIR --stdlib STDLIB_ZIP OUT_ZIP
//
// Each wheel is rewritten in place, every module `pkg/mod.py` compiled to unchecked-hash
// bytecode (no timestamp, never checked again: a page's files never change under it), in its
// place, as `pkg/mod.pyc` (as Pyodide ships its own packages), under the name the page imports
// it by (`/lib/python3.14/site-packages/pkg/mod.py`), so a traceback names the same file. With
// --source-only, a module whose path in the wheel the pattern matches whole stays as it was;
// the option applies to the wheel it precedes. RECORD then lists what the wheel holds. With
// --stdlib, the core's standard library (STDLIB_ZIP) is written to OUT_ZIP with each module's
// bytecode in its source's place, each compiled under the name Pyodide imports it by
// (`/lib/python314.zip/json/decoder.py`), so a traceback names the same file. Hash seed 0 and
// the entries' own dates: the same input gives the same bytes.
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [core, ...rest] = process.argv.slice(2);
const stdlib = rest[0] === "--stdlib" ? resolve(rest[2]) : null;
const wheels = [];
const sourceOnly = [];
if (stdlib === null) {
  let sourceNext = "";
  for (let index = 0; index < rest.length; index += 1) {
    if (rest[index] === "--source-only") sourceNext = rest[(index += 1)];
    else {
      wheels.push(resolve(rest[index]));
      sourceOnly.push(sourceNext);
      sourceNext = "";
    }
  }
}
const { loadPyodide } = await import(pathToFileURL(resolve(core, "pyodide.mjs")).href);
const pyodide = await loadPyodide({
  indexURL: resolve(core) + "/",
  env: { PYTHONHASHSEED: "0" },
  stdout: () => {},
  stderr: (line) => process.stderr.write(line + "\n"),
});
const written = stdlib ? [stdlib] : wheels;
const folders = [...new Set(written.map((path) => dirname(path)))];
folders.forEach((folder, index) => {
  pyodide.FS.mkdirTree(`/wheels/${index}`);
  pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root: folder }, `/wheels/${index}`);
});
const inside = (wheel) =>
  `/wheels/${folders.indexOf(dirname(wheel))}/${wheel.slice(dirname(wheel).length + 1)}`;
pyodide.globals.set("WHEELS", pyodide.toPy(wheels.map(inside)));
pyodide.globals.set("SOURCE_ONLY", pyodide.toPy(sourceOnly));
pyodide.globals.set("STDLIB_IN", stdlib ? "/stdlib-source.zip" : "");
pyodide.globals.set("STDLIB_OUT", stdlib ? inside(stdlib) : "");
if (stdlib) {
  pyodide.FS.writeFile("/stdlib-source.zip", readFileSync(resolve(rest[1])));
}
pyodide.runPython(String.raw`
import base64
import hashlib
import importlib._bootstrap_external as external
import importlib.util
import os
import re
import site
import sys
import zipfile

# Where a page installs a wheel's modules: each is compiled under the name it is imported by
# there, so a traceback names the module's file as it would from the source.
(INSTALLED,) = site.getsitepackages()


def entry(like, name, data):
    info = zipfile.ZipInfo(name, date_time=like.date_time)
    info.external_attr = 0o644 << 16
    return info, data


def bytecode(data, filename):
    """The unchecked-hash pyc of the source data, compiled under the file name given."""
    code = compile(data, filename, "exec", dont_inherit=True)
    return external._code_to_hash_pyc(code, importlib.util.source_hash(data), False)


def write_zip(path, entries):
    """Write the entries (info, data) to path: beside it first, so none is read half-written."""
    with zipfile.ZipFile(path + ".part", "w") as target:
        for info, data in entries:
            info.compress_type = zipfile.ZIP_DEFLATED
            target.writestr(info, data)
    os.replace(path + ".part", path)


def record_line(name, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}\n"


for wheel, source_only in zip(WHEELS, SOURCE_ONLY):
    entries, record = [], None
    left = re.compile(source_only) if source_only else None
    with zipfile.ZipFile(wheel) as source:
        for info in source.infolist():
            data = source.read(info)
            if info.filename.endswith(".dist-info/RECORD"):
                record = info
            elif not info.filename.endswith(".py"):
                entries.append((info, data))
            elif left is not None and left.fullmatch(info.filename):
                entries.append((info, data))
            else:
                pyc = bytecode(data, f"{INSTALLED}/{info.filename}")
                entries.append(entry(info, info.filename + "c", pyc))
    if record is None:
        raise SystemExit(f"{os.path.basename(wheel)}: no RECORD")
    listed = "".join(record_line(info.filename, data) for info, data in entries)
    entries.append((record, (listed + f"{record.filename},,\n").encode()))
    write_zip(wheel, entries)

if STDLIB_OUT:
    # Where this Python imports its standard library from: the zip's entry on sys.path.
    (mounted,) = [path for path in sys.path if path.endswith(".zip")]
    with zipfile.ZipFile(STDLIB_IN) as source:
        entries = [(info, source.read(info)) for info in source.infolist()]
    write_zip(STDLIB_OUT, [
        entry(info, info.filename + "c", bytecode(data, f"{mounted}/{info.filename}"))
        if info.filename.endswith(".py") else (info, data)
        for info, data in entries
    ])
`);
