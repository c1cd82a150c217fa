"""The HTML rendering of a document: a self-contained page, or an embeddable fragment.

The page carries its own style sheet and loads nothing: no scripts, fonts, images or links.
Every text is escaped here.
"""

import html
from collections.abc import Iterator
from typing import Final, assert_never

from asyncfail.document.markup import (
    Block,
    Bullets,
    Callouts,
    Code,
    Document,
    Facts,
    Inline,
    Paragraph,
    Rich,
    Steps,
    Strong,
    Subsection,
    Table,
    normalize,
    plain,
)


def html_text(text: str) -> str:
    """Escape plain text for HTML element content or a quoted attribute value (after ``plain``)."""
    return html.escape(plain(text), quote=True)


def _html_inline(part: Inline) -> str:
    match part:
        case Code():
            return f"<code>{html.escape(part.text)}</code>"
        case Strong():
            return f"<strong>{html.escape(part.text)}</strong>"
        case str():
            return html.escape(part)
        case _:
            assert_never(part)


def html_rich(parts: Rich) -> str:
    """Render a run of inline parts as escaped HTML (normalized as ``normalize`` describes)."""
    return "".join(_html_inline(p) for p in normalize(parts))


def _html_block(block: Block) -> Iterator[str]:
    match block:
        case Paragraph():
            yield f"<p>{html_rich(block.parts)}</p>"
        case Bullets():
            yield "<ul>"
            yield from (f"<li>{html_rich(item)}</li>" for item in block.items)
            yield "</ul>"
        case Facts():
            yield '<dl class="facts">'
            for term, value in block.items:
                yield f"<div><dt>{html_text(term)}</dt><dd>{html_rich(value)}</dd></div>"
            yield "</dl>"
        case Table():
            yield '<div class="table"><table>'
            yield "<thead><tr>" + "".join(
                f'<th scope="col">{html_text(h)}</th>' for h in block.header
            )
            yield "</tr></thead><tbody>"
            for row in block.rows:
                yield "<tr>" + "".join(f"<td>{html_rich(cell)}</td>" for cell in row) + "</tr>"
            yield "</tbody></table></div>"
        case Steps():
            yield '<ol class="steps">'
            for number, item in block.items:
                yield (
                    f'<li value="{number}"><span class="seq">{number:02d}</span>'
                    f"{html_rich(item)}</li>"
                )
            yield "</ol>"
        case Callouts():
            yield '<ul class="callouts">'
            for c in block.items:
                yield (
                    f'<li class="callout {c.tone.value}"><span class="badge">'
                    f"{html_text(c.badge)}</span><strong>{html_text(c.title)}</strong>"
                    f"<p>{html_rich(c.body)}</p></li>"
                )
            yield "</ul>"
        case Subsection():
            yield f"<h3>{html_text(block.title)}</h3>"
            for inner in block.blocks:
                yield from _html_block(inner)
        case _:
            assert_never(block)


# Every rule is scoped to the article's class, so the fragment can be embedded in a page (a
# notebook cell) without restyling anything around it. Colours only; no fonts are loaded. The
# page alone sets a font and a column: embedded, a document takes the page's.
_PAGE_STYLE: Final = """
.asyncfail-doc{max-width:46rem;margin:2rem auto;padding:0 1rem;
 font-family:system-ui,-apple-system,"Segoe UI",sans-serif;color:#1d2430;background:#fff}
""".strip()
_STYLE: Final = """
.asyncfail-doc{line-height:1.5}
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
        f"<title>{html_text(document.title)}</title>\n<style>{_PAGE_STYLE}\n{_STYLE}</style>\n"
        "</head>\n<body>\n"
    )
    return head + "\n".join(_article(document)) + "\n</body>\n</html>\n"
