"""Every name DESIGN.md gives in backticks exists: modules and files by path, dotted names of
the library (``lab.simulation.simulate``, ``channel.Run``) by import, and calls by a definition
of that name in the library."""

import ast
import builtins
import importlib
import re
from pathlib import Path

import asyncfail

LIBRARY = Path(asyncfail.__file__).parent
ROOT = LIBRARY.parent
DESIGN = (ROOT / "DESIGN.md").read_text(encoding="utf-8")
SPANS = sorted(set(re.findall(r"`([^`\n]+)`", DESIGN)))
IDENTIFIER = r"[A-Za-z_][A-Za-z0-9_]*"


def library_modules() -> list[str]:
    """Every module and package of the library, dotted, without ``asyncfail.``."""
    found = []
    for path in sorted(LIBRARY.rglob("*.py")):
        parts = path.relative_to(LIBRARY).with_suffix("").parts
        found.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return [name for name in found if name]


MODULES = library_modules()
DEFINED = {
    node.name
    for path in LIBRARY.rglob("*.py")
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
    if isinstance(node, ast.FunctionDef | ast.ClassDef)
}


def modules_for(dotted: str) -> list[str]:
    """The library modules ``dotted`` may name, in full or by their last parts (``channel``
    is ``lab.channel`` or ``reference.channel``)."""
    dotted = dotted.removeprefix("asyncfail.")
    return [m for m in MODULES if m == dotted or m.endswith("." + dotted)]


def has_attributes(module: str, attributes: list[str]) -> bool:
    value: object = importlib.import_module(f"asyncfail.{module}")
    for attribute in attributes:
        if not hasattr(value, attribute):
            return False
        value = getattr(value, attribute)
    return True


def resolves(dotted: str) -> bool | None:
    """Whether a dotted name resolves in the library: True, False, or None when it does not
    start with a library module (``http.client``, ``random.Random``) and is not checked."""
    parts = dotted.split(".")
    for i in range(len(parts), 0, -1):
        modules = modules_for(".".join(parts[:i]))
        if modules:
            return any(has_attributes(m, parts[i:]) for m in modules)
    return None


def path_exists(span: str) -> bool:
    """A file or folder named by path: from the repository root, from the library, or (a bare
    ``name.py``) anywhere in the library."""
    path = span.rstrip("/")
    if (ROOT / path).exists() or (LIBRARY / path).exists():
        return True
    return "/" not in path and any(LIBRARY.rglob(path))


def problems() -> list[str]:
    found = []
    for span in SPANS:
        if re.fullmatch(r"[\w./-]+(\.py|\.json|\.md|/)", span):
            if not path_exists(span):
                found.append(f"no such file: {span}")
            continue
        call = re.fullmatch(rf"({IDENTIFIER}(?:\.{IDENTIFIER})*)\(.*\)", span)
        name = call.group(1) if call else span
        if not re.fullmatch(rf"{IDENTIFIER}(?:\.{IDENTIFIER})+|{IDENTIFIER}", name):
            continue
        if "." in name:
            if resolves(name) is False:
                found.append(f"no such name: {span}")
        elif call and name not in DEFINED and not hasattr(builtins, name):
            found.append(f"no such function: {span}")
    return found


def test_design_md_names_only_what_exists() -> None:
    assert problems() == []


def test_a_name_that_does_not_exist_is_found() -> None:
    assert resolves("simulation.drive") is False
    assert resolves("channel.Run") is True
    assert resolves("http.client") is None
    assert not path_exists("lab/interpreter.py")
    assert path_exists("lab/simulation.py") and path_exists("seed.py")


def test_the_package_docstring_names_every_wing_and_no_other() -> None:
    """``asyncfail``'s docstring lists its wings: exactly the subpackages on disk (it named
    ``handoff`` for a round after that wing was split into document, review and readiness)."""
    doc = asyncfail.__doc__ or ""
    listed = re.search(r"wings \(([^)]*)\)", doc)
    assert listed is not None, "the docstring no longer lists the wings"
    named = set(re.findall(r"``(\w+)``", listed.group(1)))
    on_disk = {p.parent.name for p in LIBRARY.glob("*/__init__.py")}
    assert named == on_disk
