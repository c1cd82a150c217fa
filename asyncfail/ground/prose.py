"""How the course writes small pieces of English: counts, plurals, lists, capitals, quotes.

Every sentence the library builds uses these, so a count or a list reads the same in a lesson,
the CLI, the review handoff and the readiness report.
"""

from collections.abc import Sequence
from decimal import Decimal
from typing import Final

_NUMBER_WORDS: Final = (
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
)


def number_word(n: int) -> str:
    """A count as the seed writes it in prose: a word up to twelve, digits beyond."""
    return _NUMBER_WORDS[n] if 0 <= n < len(_NUMBER_WORDS) else str(n)


def plural(n: int | float | Decimal, noun: str) -> str:
    """``noun`` for exactly one, its plural otherwise (zero included): ``1 effect``,
    ``2 effects``, ``0 effects``, ``3 deliveries``. Rule: a consonant then ``y`` becomes
    ``ies``; every other noun the library counts takes a plain ``s``."""
    if n == 1:
        return noun
    if noun.endswith("y") and noun[-2:-1] not in tuple("aeiou"):
        return f"{noun[:-1]}ies"
    return f"{noun}s"


def counted(n: int | Decimal, noun: str, *, words: bool = False) -> str:
    """A count and its noun: ``2 effects``; with ``words``, as the seed writes it in prose:
    ``two attempts``, ``one modeled effect``."""
    shown = number_word(int(n)) if words and n == int(n) else n
    return f"{shown} {plural(n, noun)}"


def capitalised(text: str) -> str:
    """``text`` with its first character upper-cased and the rest left alone (unlike
    ``str.capitalize``, which lower-cases the rest: "DurableRuntime" must survive)."""
    return text[:1].upper() + text[1:]


def joined(items: Sequence[str], conjunction: str = "and") -> str:
    """A list as prose: ``a``, ``a and b``, ``a, b and c`` (no serial comma, as the seed)."""
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} {conjunction} {items[-1]}"


def quoted(text: str) -> str:
    """``text`` between typographic double quotes, as the seed quotes a status."""
    return f"\u201c{text}\u201d"


ECHO_LIMIT: Final = 100
"""The most characters an error message spends on one value it echoes, quotes included: a value
typed by mistake can be 100 kB long, and the message must stay one short line."""


def echoed(value: str) -> str:
    """``value`` as an error message echoes it: quoted and escaped as by ``repr`` (a newline or
    NUL byte cannot break the line); when that is longer than ``ECHO_LIMIT``, its start, an
    ellipsis and the value's length: ``'1111…' (4301 characters)``."""
    whole = repr(value)
    if len(whole) <= ECHO_LIMIT:
        return whole
    end = ECHO_LIMIT
    # Escapes make a character up to ten long ("\U000e0001"): shorten until the quote fits.
    while len(repr(value[:end] + "…")) > ECHO_LIMIT:
        end -= 1
    return f"{value[:end] + '…'!r} ({counted(len(value), 'character')})"
