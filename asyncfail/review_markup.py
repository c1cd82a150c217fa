"""A small document model and its two renderings: Markdown and self-contained HTML.

Every piece of text in a document is plain text, whether it came from the model or from a
learner; the renderers escape it here and nowhere else, so no text can become markup. The HTML
page carries its own style sheet and loads nothing: no scripts, fonts, images or links.
"""

import html
import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Final, TypeAlias

# ---------------------------------------------------------------------------------------------
# The document model


@dataclass(frozen=True, slots=True)
class Code:
    """An identifier shown in a monospace face (an event kind, a command)."""

    text: str


@dataclass(frozen=True, slots=True)
class Strong:
    """Text shown in bold."""

    text: str


Inline: TypeAlias = str | Code | Strong
Rich: TypeAlias = tuple[Inline, ...]


@dataclass(frozen=True, slots=True)
class Paragraph:
    parts: Rich


@dataclass(frozen=True, slots=True)
class Bullets:
    items: tuple[Rich, ...]


@dataclass(frozen=True, slots=True)
class Facts:
    """Term and definition pairs, such as ``Attempts: 2``."""

    items: tuple[tuple[str, Rich], ...]


@dataclass(frozen=True, slots=True)
class Table:
    """A table; every row has as many cells as the header."""

    header: tuple[str, ...]
    rows: tuple[tuple[Rich, ...], ...]

    def __post_init__(self) -> None:
        for row in self.rows:
            if len(row) != len(self.header):
                raise ValueError(f"a row has {len(row)} cells, the header {len(self.header)}")


@dataclass(frozen=True, slots=True)
class Steps:
    """A numbered list whose numbers are given (a trace's sequence numbers), shown as ``01``.

    Rule: the numbers count from 1 without gaps, so a Markdown ordered list that renumbers its
    items shows the same numbers.
    """

    items: tuple[tuple[int, Rich], ...]

    def __post_init__(self) -> None:
        numbers = [n for n, _ in self.items]
        if numbers != list(range(1, len(numbers) + 1)):
            raise ValueError(f"step numbers must count from 1 without gaps, got {numbers}")


@dataclass(frozen=True, slots=True)
class Callout:
    """One prioritized item: a short badge (``P0``), a title, and a body."""

    badge: str
    title: str
    body: Rich
    tone: str = "neutral"


@dataclass(frozen=True, slots=True)
class Callouts:
    items: tuple[Callout, ...]


@dataclass(frozen=True, slots=True)
class Subsection:
    title: str
    blocks: tuple["Block", ...]


Block: TypeAlias = "Paragraph | Bullets | Facts | Table | Steps | Callouts | Subsection"


@dataclass(frozen=True, slots=True)
class Section:
    title: str
    blocks: tuple[Block, ...]


@dataclass(frozen=True, slots=True)
class Document:
    """A whole document: a kicker line above the title, an introduction, then sections."""

    kicker: str
    title: str
    intro: tuple[Paragraph, ...]
    sections: tuple[Section, ...]


def rich(*parts: Inline) -> Rich:
    """A run of inline parts, written ``rich("Status: ", Strong("met"))``."""
    return parts


# ---------------------------------------------------------------------------------------------
# Text normalization, shared by both renderings


_WHITESPACE = re.compile(r"\s+")


def _collapse(text: str) -> str:
    kept = "".join(c for c in text if c.isspace() or unicodedata.category(c) != "Cc")
    return _WHITESPACE.sub(" ", kept)


def plain(text: str) -> str:
    """The text as both renderings show it.

    Rules: control characters (Unicode category Cc, which includes NUL and the placeholders
    some Markdown engines use internally) are dropped; every run of whitespace, line breaks
    included, becomes one space; leading and trailing whitespace is removed. So a learner's text
    stays on one line and cannot end a table row, a list item or a paragraph.
    """
    return _collapse(text).strip(" ")


def normalize(parts: Rich) -> Rich:
    """A run of inline parts as it is shown: each part normalized as ``plain`` describes, except
    that a space between two parts is kept; adjacent text parts merged; empty parts dropped."""
    items: list[Inline] = []
    for part in parts:
        if isinstance(part, str):
            text = _collapse(part)
            if items and isinstance(items[-1], str):
                items[-1] = _WHITESPACE.sub(" ", items[-1] + text)
            elif text:
                items.append(text)
        elif text := plain(part.text):
            items.append(type(part)(text))
    if items and isinstance(items[0], str):
        items[0] = items[0].lstrip(" ")
    if items and isinstance(items[-1], str):
        items[-1] = items[-1].rstrip(" ")
    return tuple(item for item in items if item)


# ---------------------------------------------------------------------------------------------
# Markdown

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
_SAFE_CODE: Final = re.compile(r"[A-Za-z0-9][A-Za-z0-9 .,=/-]*")


def md_rich(parts: Rich) -> str:
    """Render a run of inline parts as escaped Markdown on one line."""
    out: list[str] = []
    for i, part in enumerate(normalize(parts)):
        if isinstance(part, Code) and _SAFE_CODE.fullmatch(part.text):
            out.append(f"`{part.text}`")
        elif isinstance(part, Strong):
            out.append(f"**{_md_escape(part.text, at_start=False)}**")
        else:
            text = part if isinstance(part, str) else part.text
            out.append(_md_escape(text, at_start=i == 0))
    return "".join(out)


def _md_cell(parts: Rich) -> str:
    return md_rich(parts) or " "


def _md_block(block: Block) -> Iterator[str]:
    if isinstance(block, Paragraph):
        yield md_rich(block.parts)
    elif isinstance(block, Bullets):
        yield "\n".join(f"- {md_rich(item)}" for item in block.items)
    elif isinstance(block, Facts):
        yield "\n".join(f"- **{md_text(term)}:** {md_rich(value)}" for term, value in block.items)
    elif isinstance(block, Table):
        lines = [
            "| " + " | ".join(md_text(h) or " " for h in block.header) + " |",
            "|" + "|".join("---" for _ in block.header) + "|",
        ]
        lines += ["| " + " | ".join(_md_cell(cell) for cell in row) + " |" for row in block.rows]
        yield "\n".join(lines)
    elif isinstance(block, Steps):
        yield "\n".join(f"{number:02d}. {md_rich(item)}" for number, item in block.items)
    elif isinstance(block, Callouts):
        yield "\n".join(
            f"- **{md_text(c.badge)} · {md_text(c.title)}.** {md_rich(c.body)}" for c in block.items
        )
    else:
        yield f"### {md_text(block.title)}"
        for inner in block.blocks:
            yield from _md_block(inner)


def to_markdown(document: Document) -> str:
    """Render a document as Markdown: blocks separated by blank lines, ending in a newline."""
    chunks = [f"*{md_text(document.kicker)}*", f"# {md_text(document.title)}"]
    chunks += [md_rich(p.parts) for p in document.intro]
    for section in document.sections:
        chunks.append(f"## {md_text(section.title)}")
        for block in section.blocks:
            chunks.extend(_md_block(block))
    return "\n\n".join(chunks) + "\n"


# ---------------------------------------------------------------------------------------------
# HTML


def html_text(text: str) -> str:
    """Escape plain text for HTML element content or a quoted attribute value (after ``plain``)."""
    return html.escape(plain(text), quote=True)


def _html_inline(part: Inline) -> str:
    if isinstance(part, Code):
        return f"<code>{html.escape(part.text)}</code>"
    if isinstance(part, Strong):
        return f"<strong>{html.escape(part.text)}</strong>"
    return html.escape(part)


def html_rich(parts: Rich) -> str:
    """Render a run of inline parts as escaped HTML (normalized as ``normalize`` describes)."""
    return "".join(_html_inline(p) for p in normalize(parts))


_TONES: Final = frozenset({"neutral", "p0", "p1", "met", "unmet", "unknown"})


def _tone(tone: str) -> str:
    # Class names come from a closed set, so an unexpected value cannot reach an attribute.
    return tone if tone in _TONES else "neutral"


def _html_block(block: Block) -> Iterator[str]:
    if isinstance(block, Paragraph):
        yield f"<p>{html_rich(block.parts)}</p>"
    elif isinstance(block, Bullets):
        yield "<ul>"
        yield from (f"<li>{html_rich(item)}</li>" for item in block.items)
        yield "</ul>"
    elif isinstance(block, Facts):
        yield '<dl class="facts">'
        for term, value in block.items:
            yield f"<div><dt>{html_text(term)}</dt><dd>{html_rich(value)}</dd></div>"
        yield "</dl>"
    elif isinstance(block, Table):
        yield '<div class="table"><table>'
        yield "<thead><tr>" + "".join(f'<th scope="col">{html_text(h)}</th>' for h in block.header)
        yield "</tr></thead><tbody>"
        for row in block.rows:
            yield "<tr>" + "".join(f"<td>{html_rich(cell)}</td>" for cell in row) + "</tr>"
        yield "</tbody></table></div>"
    elif isinstance(block, Steps):
        yield '<ol class="steps">'
        for number, item in block.items:
            yield (
                f'<li value="{number}"><span class="seq">{number:02d}</span>{html_rich(item)}</li>'
            )
        yield "</ol>"
    elif isinstance(block, Callouts):
        yield '<ul class="callouts">'
        for c in block.items:
            yield (
                f'<li class="callout {_tone(c.tone)}"><span class="badge">{html_text(c.badge)}'
                f"</span><strong>{html_text(c.title)}</strong>"
                f"<p>{html_rich(c.body)}</p></li>"
            )
        yield "</ul>"
    else:
        yield f"<h3>{html_text(block.title)}</h3>"
        for inner in block.blocks:
            yield from _html_block(inner)


# Every rule is scoped to the article's class, so the fragment can be embedded in a page (a
# notebook cell) without restyling anything around it. Colours only; no fonts are loaded.
_STYLE: Final = """
.asyncfail-doc{max-width:46rem;margin:2rem auto;padding:0 1rem;line-height:1.5;
 font-family:system-ui,-apple-system,"Segoe UI",sans-serif;color:#1d2430;background:#fff}
.asyncfail-doc .kicker{font-size:.8rem;letter-spacing:.06em;text-transform:uppercase;
 color:#5b6472;margin:0}
.asyncfail-doc h1{font-size:1.8rem;line-height:1.2;margin:.3rem 0 1rem}
.asyncfail-doc h2{font-size:1.25rem;margin:2rem 0 .6rem;border-top:1px solid #d9dde3;
 padding-top:1rem}
.asyncfail-doc h3{font-size:1.05rem;margin:1.2rem 0 .4rem}
.asyncfail-doc code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;
 font-size:.9em;background:#f1f3f6;padding:0 .25em;border-radius:3px}
.asyncfail-doc .facts{display:grid;gap:.2rem;margin:0}
.asyncfail-doc .facts div{display:grid;grid-template-columns:10rem 1fr;gap:1rem}
.asyncfail-doc dt{font-weight:600;color:#3a4250}
.asyncfail-doc dd{margin:0;overflow-wrap:anywhere}
.asyncfail-doc .table{overflow-x:auto}
.asyncfail-doc table{border-collapse:collapse;width:100%;font-size:.95rem}
.asyncfail-doc th,.asyncfail-doc td{border:1px solid #d9dde3;padding:.35rem .5rem;
 text-align:left;vertical-align:top}
.asyncfail-doc td{overflow-wrap:break-word}
.asyncfail-doc th{background:#f1f3f6}
.asyncfail-doc .steps{list-style:none;padding:0;margin:.4rem 0}
.asyncfail-doc .steps li{padding:.15rem 0}
.asyncfail-doc .seq{display:inline-block;min-width:2rem;color:#5b6472;
 font-variant-numeric:tabular-nums}
.asyncfail-doc .callouts{list-style:none;padding:0}
.asyncfail-doc .callout{border-left:4px solid #9aa3af;padding:.3rem .8rem;margin:.6rem 0;
 overflow-wrap:anywhere}
.asyncfail-doc .callout p{margin:.2rem 0 0}
.asyncfail-doc .badge{display:inline-block;font-size:.75rem;font-weight:700;padding:0 .4rem;
 margin-right:.5rem;border-radius:3px;background:#e4e7ec}
.asyncfail-doc .p0{border-color:#b42318}.asyncfail-doc .p0 .badge{background:#fde2e0}
.asyncfail-doc .p1{border-color:#b54708}.asyncfail-doc .p1 .badge{background:#fdead7}
.asyncfail-doc .met{border-color:#067647}.asyncfail-doc .met .badge{background:#dcfae6}
.asyncfail-doc .unmet{border-color:#b42318}.asyncfail-doc .unmet .badge{background:#fde2e0}
.asyncfail-doc .unknown{border-color:#6941c6}.asyncfail-doc .unknown .badge{background:#ebe9fe}
""".strip()


def _article(document: Document) -> list[str]:
    lines = ['<article class="asyncfail-doc">']
    lines.append(f'<p class="kicker">{html_text(document.kicker)}</p>')
    lines.append(f"<h1>{html_text(document.title)}</h1>")
    lines += [f'<p class="lead">{html_rich(p.parts)}</p>' for p in document.intro]
    for section in document.sections:
        lines.append("<section>")
        lines.append(f"<h2>{html_text(section.title)}</h2>")
        for block in section.blocks:
            lines.extend(_html_block(block))
        lines.append("</section>")
    lines.append("</article>")
    return lines


def to_html_fragment(document: Document) -> str:
    """The document as one ``<article>`` after its scoped style sheet, for embedding in a page."""
    return "\n".join([f"<style>{_STYLE}</style>", *_article(document)]) + "\n"


def to_html(document: Document) -> str:
    """The document as a complete, self-contained HTML page (inline style, no external loads)."""
    head = (
        "<!doctype html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{html_text(document.title)}</title>\n<style>{_STYLE}</style>\n"
        "</head>\n<body>\n"
    )
    return head + "\n".join(_article(document)) + "\n</body>\n</html>\n"
