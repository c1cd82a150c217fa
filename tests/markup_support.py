"""Shared by the document tests: a tiny HTML tree, a well-formedness check, Markdown through
the engines the course uses, and hostile text that hits every markup character they know."""

from collections.abc import Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser

import marimo as mo
import markdown
from hypothesis import strategies as st

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
        "track", "wbr"}  # fmt: skip


@dataclass
class Node:
    tag: str
    attrs: dict[str, str | None] = field(default_factory=dict)
    children: list["Node | str"] = field(default_factory=list)

    def text(self) -> str:
        return "".join(c if isinstance(c, str) else c.text() for c in self.children)

    def iter(self) -> Iterator["Node"]:
        yield self
        for child in self.children:
            if isinstance(child, Node):
                yield from child.iter()

    def find_all(self, tag: str, cls: str | None = None) -> list["Node"]:
        return [
            n
            for n in self.iter()
            if n.tag == tag and (cls is None or cls in (n.attrs.get("class") or "").split())
        ]

    def elements(self) -> list["Node"]:
        return [c for c in self.children if isinstance(c, Node)]


class _TreeBuilder(HTMLParser):
    """Builds a tree and records every way the markup is not well formed."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Node("#root")
        self.stack = [self.root]
        self.errors: list[str] = []
        self.doctype: str | None = None

    def handle_decl(self, decl: str) -> None:
        self.doctype = decl

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        node = Node(tag, dict(attrs))
        self.stack[-1].children.append(node)
        if tag not in VOID:
            self.stack.append(node)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.stack[-1].children.append(Node(tag, dict(attrs)))

    def handle_endtag(self, tag: str) -> None:
        if tag in VOID:
            self.errors.append(f"end tag for void element {tag}")
        elif len(self.stack) == 1 or self.stack[-1].tag != tag:
            self.errors.append(f"unexpected </{tag}> inside <{self.stack[-1].tag}>")
        else:
            self.stack.pop()

    def handle_data(self, data: str) -> None:
        self.stack[-1].children.append(data)


def parse_html(text: str) -> tuple[Node, list[str]]:
    """The tree of ``text`` and the list of well-formedness errors (empty when balanced)."""
    builder = _TreeBuilder()
    builder.feed(text)
    builder.close()
    errors = list(builder.errors)
    errors += [f"<{n.tag}> never closed" for n in builder.stack[1:]]
    return builder.root, errors


EXTERNAL_TAGS = {"script", "link", "img", "iframe", "object", "embed", "audio", "video", "source",
                 "base", "form"}  # fmt: skip


def assert_self_contained_page(text: str) -> Node:
    """A complete, balanced HTML page that loads nothing from anywhere."""
    assert text.startswith("<!doctype html>\n")
    root, errors = parse_html(text)
    assert errors == []
    assert [n.tag for n in root.elements()] == ["html"]
    html_node = root.elements()[0]
    assert [n.tag for n in html_node.elements()] == ["head", "body"]
    assert_loads_nothing(root)
    return root


def assert_loads_nothing(root: Node) -> None:
    for node in root.iter():
        assert node.tag not in EXTERNAL_TAGS, f"<{node.tag}> in a self-contained document"
        for name, value in node.attrs.items():
            assert not name.startswith("on"), f"event handler {name}"
            if name in {"src", "href", "action", "srcset", "poster", "data"}:
                raise AssertionError(f"{name}={value!r} references a resource")
            assert "url(" not in (value or ""), f"{name}={value!r}"
    for style in root.find_all("style"):
        css = style.text()
        for banned in ("@import", "url(", "http:", "https:", "//"):
            assert banned not in css, banned


def markdown_engines(text: str) -> dict[str, str]:
    """``text`` rendered to HTML by plain Python-Markdown (tables) and by marimo's ``mo.md``."""
    return {
        "python-markdown": markdown.markdown(text, extensions=["tables"]),
        "marimo": mo.md(text).text,
    }


# Text that hits every markup character the engines know, plus anything at all.
MARKUP = [
    *"\\`*_{}[]()<>#+-.!|~^$@:=/&;\"' \n\t\r",
    "<script>alert(1)</script>", "| a | b |", "```", "~~~", "$$", "\\[", "\\(", "[^1]", "[ ]",
    "++ctrl++", ":smile:", ":+1:", "{++", "{==", "^^", "~~", "www.", "ftp.", "https://x.test",
    "a@b.test", "&amp;", "&#124;", "&#x3C;", "1. ", "- ", "# ", "> ", "///", "---", "===",
    "<!--", "-->", "\x00", "\x02", "\x03", "\u2028", "\u00a0", "\x85", "[TOC]", "::icon::",
]  # fmt: skip
hostile_text = st.lists(
    st.sampled_from(MARKUP) | st.text(max_size=5) | st.text(alphabet="ab1", min_size=1),
    max_size=12,
).map("".join)

HOSTILE = [
    "<script>alert(1)</script>",
    "| a | b |",
    "| a | b |\n|---|---|\n| c | d |",
    "line one\nline two\r\n\nline three",
    "x" * 10_000,
    "`code` **bold** _em_ [link](https://example.test) ![img](https://example.test/i.png)",
    "<img src=x onerror=alert(1)>",
    "$x^2$ \\(y\\) \\[z\\] $$w$$",
    ":smile: ++ctrl++ {++ins++} ~~del~~ ^^sup^^ www.example.test a@b.test",
    "1. not a list",
    "- not a list",
    "# not a heading",
    "&lt;already escaped&gt; &amp; &#124;",
]
