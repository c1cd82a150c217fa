"""A small document model, and the text normalization both of its renderings share.

Every piece of text in a document is plain text, whether it came from the model or from a
learner; the renderings (``asyncfail.document.markdown``, ``asyncfail.document.html_page``) escape
it, and nothing else does, so no text can become markup.
"""

import re
import unicodedata
from dataclasses import dataclass
from enum import StrEnum
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


class Tone(StrEnum):
    """How a callout is coloured: neutral, by priority, or by a check's status."""

    NEUTRAL = "neutral"
    P0 = "p0"
    P1 = "p1"
    MET = "met"
    UNMET = "unmet"
    UNKNOWN = "unknown"


@dataclass(frozen=True, slots=True)
class Callout:
    """One prioritized item: a short badge (``P0``), a title, and a body."""

    badge: str
    title: str
    body: Rich
    tone: Tone = Tone.NEUTRAL

    def __post_init__(self) -> None:
        # The tone becomes an HTML class name: only the closed set may reach the attribute.
        if not isinstance(self.tone, Tone):
            raise TypeError(f"a callout's tone must be a Tone, got {self.tone!r}")


@dataclass(frozen=True, slots=True)
class Callouts:
    items: tuple[Callout, ...]


@dataclass(frozen=True, slots=True)
class Subsection:
    title: str
    blocks: tuple["Block", ...]


Block: TypeAlias = "Paragraph | Bullets | Facts | Table | Steps | Callouts | Subsection"
"""Every kind of block a section holds; each rendering handles each kind (``assert_never``)."""


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


# ---------------------------------------------------------------------------------------------
# Text normalization, shared by both renderings


_WHITESPACE = re.compile(r"\s+")

BIDI_CONTROLS: Final = frozenset(
    "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
)
"""Unicode's bidirectional formatting characters (marks, embeddings, overrides, isolates): in a
learner's text a right-to-left override would reverse the model's sentence after it."""


def _shown(char: str) -> bool:
    return char.isspace() or (unicodedata.category(char) != "Cc" and char not in BIDI_CONTROLS)


def _collapse(text: str) -> str:
    return _WHITESPACE.sub(" ", "".join(filter(_shown, text)))


def plain(text: str) -> str:
    """The text as both renderings show it.

    Rules: control characters (Unicode category Cc, which includes NUL and the placeholders
    some Markdown engines use internally) and bidirectional formatting characters
    (``BIDI_CONTROLS``) are dropped; every run of whitespace, line breaks
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
