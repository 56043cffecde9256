"""Amounts inside a quoted sentence, and whether each equals an XBRL fact of the same filing.

Why: every figure Footnote states is an XBRL fact. A filing sentence that carries an amount ("Revenue
for fiscal 2025 was $130.5 billion, driven by ...") may still be quoted whole when every amount in it
is the filing's own fact, shown at its scale: the footnote then cites that fact beside the chunk. A
sentence with an amount no fact of its filing equals keeps the clause rule (only the words after
the last figure are quoted).

Equal means value and scale: "$130.5 billion" is a USD fact whose absolute value lies within half a
unit of the last shown digit of 130.5 billion; "24.1%" a pure fact (a rate as a fraction) within half
a unit of 0.241. A figure shown with fewer than three significant digits ("$65 billion", "$1.4
billion") says too little to be told apart from the thousands of other values a 10-K tags, so it must
equal the fact exactly. The sign is the sentence's words ("a loss of $1.2 billion"), so absolute
values are compared. And the fact must be what the sentence calls it: the words before the amount or
after it (up to the next amount) share a word with the fact's concept name or the row labels the filing
printed for it ("Cash provided by operating activities was $64.1 billion" and
NetCashProvidedByUsedInOperatingActivities), so a look-alike value of another line never verifies.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

_SCALES = {"thousand": Decimal(10) ** 3, "million": Decimal(10) ** 6, "billion": Decimal(10) ** 9,
           "trillion": Decimal(10) ** 12}
# "$130.5 billion", "$ 47,405 million", "$2.94", "24.1%", "24.1 percent"
_AMOUNT = re.compile(
    r"(?P<dollar>[$])\s?(?P<num>\d[\d,]*(?:\.\d+)?)(?:\s?(?P<scale>thousand|million|billion|trillion)\b)?"
    r"|(?<![\w.$])(?P<pnum>\d[\d,]*(?:\.\d+)?)\s?(?:%|percent\b)",
    re.I,
)
MONEY_UNITS = ("USD", "USD/shares")
SIGNIFICANT = 3  # fewer significant digits than this: only an exact fact will do
RATE_UNITS = ("pure",)


@dataclass(frozen=True)
class Amount:
    """One figure as the sentence shows it: its value in the fact's terms and the half-width of
    the rounding its last digit allows."""

    shown: str
    start: int
    end: int
    value: Decimal
    half_step: Decimal
    exact: bool  # one significant digit: only an exact fact will do
    units: tuple[str, ...]

    @property
    def low(self) -> Decimal:
        return self.value - self.half_step

    @property
    def high(self) -> Decimal:
        return self.value + self.half_step

    def equals(self, value: Decimal, unit: str) -> bool:
        if unit not in self.units:
            return False
        v = abs(value)
        if self.exact:
            return v == self.value
        return self.low <= v <= self.high


def _number(text: str) -> tuple[Decimal, int, int] | None:
    """(value, decimals shown, significant digits) of '47,405' or '130.5'."""
    plain = text.replace(",", "")
    try:
        value = Decimal(plain)
    except InvalidOperation:
        return None
    decimals = len(plain.split(".")[1]) if "." in plain else 0
    digits = plain.replace(".", "").lstrip("0")
    if "." not in plain:
        digits = digits.rstrip("0")  # "60 billion": one significant digit, not two
    return value, decimals, len(digits)


def amounts(sentence: str) -> list[Amount]:
    """The money amounts and percentages of `sentence`, in order."""
    out = []
    for m in _AMOUNT.finditer(sentence):
        if m.group("dollar"):
            parsed = _number(m.group("num"))
            if parsed is None:
                continue
            value, decimals, digits = parsed
            scale = _SCALES[m.group("scale").lower()] if m.group("scale") else Decimal(1)
            units = MONEY_UNITS
        else:
            parsed = _number(m.group("pnum"))
            if parsed is None:
                continue
            value, decimals, digits = parsed
            scale, units = Decimal("0.01"), RATE_UNITS
        half = Decimal(5) * Decimal(10) ** (-decimals - 1) * scale
        out.append(Amount(m.group(0), m.start(), m.end(), value * scale, half, digits < SIGNIFICANT, units))
    return out


_WORD = re.compile(r"[a-z]{4,}")
_CAMEL = re.compile(r"[A-Z][a-z]+|[A-Z]+(?![a-z])")
# Words of concept names and labels that say nothing of what is measured.
_PLAIN = frozenset("total value amount other period during including excluding assessed from with into "
                   "customer contract year years fiscal ended continuing current noncurrent gross".split())


def _stem(word: str) -> str:
    for suffix in ("ies", "es", "s", "ing", "ed"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 4:
            return word[: -len(suffix)]
    return word


def _words(text: str) -> set[str]:
    return {_stem(w) for w in _WORD.findall(text.lower()) if w not in _PLAIN}


def name_words(name: str) -> set[str]:
    """The words a fact is called by: its concept split at capitals, and its labels."""
    return _words(" ".join(_CAMEL.findall(name)) + " " + name)


def verified(sentence: str, facts: list[tuple[str, Decimal, str, str]]) -> list[str] | None:
    """The ids of the facts (id, value, unit, name: concept and labels) the sentence's amounts
    equal and name, one per amount, or None when some amount has no such fact (or the sentence
    shows no amount)."""
    found = amounts(sentence)
    if not found:
        return None
    ids = []
    for i, amount in enumerate(found):
        right = found[i + 1].start if i + 1 < len(found) else len(sentence)
        around = _words(sentence[:amount.start] + " " + sentence[amount.end:right])  # "X was A, compared with B"
        match = next((fid for fid, value, unit, name in facts
                      if amount.equals(value, unit) and around & name_words(name)), None)
        if match is None:
            return None
        ids.append(match)
    return list(dict.fromkeys(ids))


def ranges(texts: list[str]) -> list[tuple[Decimal, Decimal, tuple[str, ...]]]:
    """The value ranges a fact must fall in to equal one of the amounts of `texts` (deduplicated)."""
    out = {}
    for text in texts:
        for a in amounts(text):
            out[(a.low, a.high, a.units)] = None
    return list(out)
