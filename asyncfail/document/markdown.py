"""The Markdown rendering of a document: every text escaped so that it stays text.

Escaping is written for the engines a handoff meets: CommonMark, Python-Markdown and the
extensions marimo's ``mo.md`` enables.
"""

import re
from collections.abc import Iterator
from typing import Final, assert_never

from asyncfail.document.markup import (
    Block,
    Bullets,
    Callouts,
    Code,
    Document,
    Facts,
    Paragraph,
    Rich,
    Steps,
    Strong,
    Subsection,
    Table,
    normalize,
    plain,
)

# Characters that start or end markup in CommonMark, in Python-Markdown, or in the extensions
# marimo's ``mo.md`` enables (tables, LaTeX, emoji, keys, critic, tilde, caret, magic links,
# footnotes, task lists, blocks). Backslash escapes are not portable across these engines (in
# marimo ``\[`` starts LaTeX, and Python-Markdown shows ``\$`` literally), so every one of them
# is written as a numeric character reference, which all of them decode to the character.
_MD_ALWAYS: Final = frozenset("\\`*_{}[]<>&|$~^@#+!")
_MD_AT_START: Final = frozenset("-=/:.)")
_LEADING_ORDINAL = re.compile(r"\d+[.)](?= |$)")
_AUTOLINK_DOT = re.compile(r"(?i)(?<![0-9a-z])(?:www|ftp)\.")


def _reference(char: str) -> str:
    return {"&": "&amp;", "<": "&lt;", ">": "&gt;"}.get(char, f"&#{ord(char)};")


def _md_escape(text: str, *, at_start: bool) -> str:
    escape = [c in _MD_ALWAYS for c in text]
    for i, c in enumerate(text):
        if c == ":" and i + 1 < len(text) and not text[i + 1].isspace():
            escape[i] = True
    for match in _AUTOLINK_DOT.finditer(text):
        escape[match.end() - 1] = True
    if at_start and text:
        if text[0] in _MD_AT_START:
            escape[0] = True
        if ordinal := _LEADING_ORDINAL.match(text):
            escape[ordinal.end() - 1] = True
    return "".join(_reference(c) if e else c for c, e in zip(text, escape, strict=True))


def md_text(text: str) -> str:
    """Escape plain text for any inline position of a Markdown document, table cells included.

    The text is normalized first (``plain``). Then these characters become character
    references: every character in ``\\`*_{}[]<>&|$~^@#+!`` anywhere; a colon followed by a
    non-space (emoji shortcodes, ``https:``); the dot of ``www.`` or ``ftp.`` (magic links); the
    first character if it could open a block (``-``, ``=``, ``/``, ``:``, ``.``, ``)``); and the
    delimiter of a leading list number such as ``1.`` before a space. Everything else is
    unchanged, so ordinary prose stays readable in the raw file.
    """
    return _md_escape(plain(text), at_start=True)


# Code spans are literal in Markdown (no escapes apply inside them), so only identifiers that
# need no escaping are shown as code; anything else falls back to escaped plain text.
_SAFE_CODE: Final = re.compile(r"[A-Za-z0-9-][A-Za-z0-9 .,:=/-]*")


def md_rich(parts: Rich) -> str:
    """Render a run of inline parts as escaped Markdown on one line."""
    out: list[str] = []
    for i, part in enumerate(normalize(parts)):
        match part:
            case Code() if _SAFE_CODE.fullmatch(part.text):
                out.append(f"`{part.text}`")
            case Code():
                out.append(_md_escape(part.text, at_start=i == 0))
            case Strong():
                out.append(f"**{_md_escape(part.text, at_start=False)}**")
            case str():
                out.append(_md_escape(part, at_start=i == 0))
            case _:
                assert_never(part)
    return "".join(out)


def _md_cell(parts: Rich) -> str:
    return md_rich(parts) or " "


def _md_block(block: Block) -> Iterator[str]:
    match block:
        case Paragraph():
            yield md_rich(block.parts)
        case Bullets():
            yield "\n".join(f"- {md_rich(item)}" for item in block.items)
        case Facts():
            yield "\n".join(
                f"- **{md_text(term)}:** {md_rich(value)}" for term, value in block.items
            )
        case Table():
            yield md_table(block)
        case Steps():
            yield "\n".join(f"{number:02d}. {md_rich(item)}" for number, item in block.items)
        case Callouts():
            yield "\n".join(
                f"- **{md_text(c.badge)} · {md_text(c.title)}.** {md_rich(c.body)}"
                for c in block.items
            )
        case Subsection():
            yield f"### {md_text(block.title)}"
            for inner in block.blocks:
                yield from _md_block(inner)
        case _:
            assert_never(block)


def md_table(table: Table, *, left: bool = False) -> str:
    """One table as Markdown lines (every cell escaped; an empty cell is a space); ``left``
    aligns every column to the left (for prose cells, which some renderers right-align)."""
    rule = ":---" if left else "---"
    lines = [
        "| " + " | ".join(md_text(h) or " " for h in table.header) + " |",
        "|" + "|".join(rule for _ in table.header) + "|",
    ]
    lines += ["| " + " | ".join(_md_cell(cell) for cell in row) + " |" for row in table.rows]
    return "\n".join(lines)


def to_markdown(document: Document) -> str:
    """Render a document as Markdown: blocks separated by blank lines, ending in a newline."""
    chunks = [f"*{md_text(document.kicker)}*", f"# {md_text(document.title)}"]
    chunks += [md_rich(p.parts) for p in document.intro]
    for section in document.sections:
        chunks.append(f"## {md_text(section.title)}")
        for block in section.blocks:
            chunks.extend(_md_block(block))
    return "\n\n".join(chunks) + "\n"
