"""How the course writes small pieces of English: counts, plurals, lists, capitals, quotes.

Every sentence the library builds uses these, so a count or a list reads the same in a lesson,
the CLI, the review handoff and the readiness report.
"""

import math
from collections.abc import Sequence
from decimal import ROUND_HALF_EVEN, Decimal, localcontext
from functools import lru_cache
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


def significant(x: float | Decimal, digits: int = 2) -> str:
    """A non-negative number rounded to ``digits`` significant figures and written out in full,
    never with an exponent, trailing zeros dropped and thousands grouped: ``0.0025``,
    ``0.19``, ``520``, ``1,000,000``. Rounding is half to even on the number's exact decimal
    value (a float's ``repr``), so the same number always gives the same text."""
    value = x if isinstance(x, Decimal) else Decimal(repr(x))
    if value == 0:
        return "0"
    with localcontext(prec=1000):
        rounded = value
        # Twice: rounding can carry into a new digit (9.96 -> 10.0), which moves the last place.
        for _ in range(2):
            step = Decimal(1).scaleb(rounded.adjusted() - digits + 1)
            rounded = rounded.quantize(step, rounding=ROUND_HALF_EVEN)
        text = f"{rounded:,f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


CHANCE_FLOOR: Final = 1e-6
"""The smallest chance ``chance`` and ``percent`` write out: below one in a million they say
only that."""
WRITTEN: Final = 4096
"""How many probabilities ``percent`` and ``chance`` keep the text of (the most recently
asked). Each is a function of its number alone, and writing one costs decimal arithmetic at a
precision of a thousand digits: lesson 6 writes its risk curve's 41 rows (some 200 texts)
again for each change of its target, the same texts each time (the curve does not depend on
the target), and that was about a fifth of the change's Python in the WebAssembly page
(cProfile in the page, 2026-12-05). A value refused is refused every time: an exception is
never kept."""


@lru_cache(maxsize=WRITTEN, typed=True)
def percent(p: float) -> str:
    """A probability as a percentage to two significant figures, never an exponent and never
    ``100 %`` short of certainty (more figures then): ``0.25 %``, ``99.6 %``, ``0 %``; below
    ``CHANCE_FLOOR``, ``less than 0.0001 %``."""
    if math.isnan(p) or not 0 <= p <= 1:
        raise ValueError(f"a probability is a number from 0 to 1, not {p!r}")
    if 0 < p < CHANCE_FLOOR:
        return "less than 0.0001 %"
    exact = Decimal(repr(p))
    digits = 2
    while p < 1 and significant(exact * 100, digits) == "100":
        digits += 1
    return f"{significant(exact * 100, digits)} %"


@lru_cache(maxsize=WRITTEN, typed=True)
def chance(p: float) -> str:
    """A probability as a learner reads it: how many times in how many, then a percentage,
    to two significant figures and never with an exponent.

    Rule: 0 is ``never (0 %)`` and 1 is ``every time (100 %)``; up to one half, ``1 in N``
    with N = 1/p to two significant figures, then to a whole number (0.0025 is ``1 in 400
    (0.25 %)``, 0.003 is ``1 in 330 (0.3 %)``, 0.45 is ``1 in 2 (45 %)``); above one half, ``K
    in 100`` with K = 100 p rounded, at most 99 (0.73 is ``73 in 100 (73 %)``), in lowest
    terms when K is a multiple of ten (0.7 is ``7 in 10``, 0.503 is ``1 in 2 (50 %)``); below
    ``CHANCE_FLOOR``, ``less than 1 in 1,000,000``. The percentage is ``percent``'s: one
    that would round to 100 % without being 1 takes more figures (0.996 is ``99.6 %``). A value
    outside 0..1 (or not a number) is a ``ValueError``: a probability that is not one is a
    defect.
    """
    share = percent(p)
    if p == 0:
        return f"never ({share})"
    if p == 1:
        return f"every time ({share})"
    if p < CHANCE_FLOOR:
        return f"less than 1 in 1,000,000 ({share})"
    if p <= 0.5:
        with localcontext(prec=1000):
            times = Decimal(significant(1 / Decimal(repr(p))).replace(",", "")).to_integral_value()
        return f"1 in {times:,} ({share})"
    k = min(round(p * 100), 99)
    if k == 50:
        return f"1 in 2 ({share})"
    return f"{k // 10} in 10 ({share})" if k % 10 == 0 else f"{k} in 100 ({share})"
