"""How numbers look to a reader, parsed back: "$391.04 billion", "46.2%", "(1,234)", "1.07x".

Compared as displayed, never with a tolerance: a shown figure must equal the exact expected value
rounded to the digits shown (half-up or half-even), at the scale its word says.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import ROUND_HALF_EVEN, ROUND_HALF_UP, Decimal, InvalidOperation

SCALES = {
    "trillion": Decimal(10) ** 12,
    "tn": Decimal(10) ** 12,
    "t": Decimal(10) ** 12,
    "billion": Decimal(10) ** 9,
    "bn": Decimal(10) ** 9,
    "b": Decimal(10) ** 9,
    "million": Decimal(10) ** 6,
    "mm": Decimal(10) ** 6,
    "m": Decimal(10) ** 6,
    "thousand": Decimal(10) ** 3,
    "k": Decimal(10) ** 3,
}

_NUMBER = re.compile(
    r"(?P<neg>[-−–(])?\s?(?P<cur>\$)?\s?(?P<neg2>[-−])?(?P<digits>\d[\d,]*(?:\.\d+)?)"
    r"(?:\s?(?P<pct>%|percent\b|pct\b|pp\b|percentage points?\b)"
    r"|\s?(?P<scale>trillion|billion|million|thousand|bn|tn|mm|[tbmk])\b)?(?P<x>x\b)?",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Shown:
    """A number as a reader sees it: digits, how many decimals, scale word, percent sign."""

    digits: Decimal  # signed, before the scale
    decimals: int
    scale: Decimal
    percent: bool
    raw: str

    @property
    def value(self) -> Decimal:
        return self.digits * self.scale


def parse_display(text: str) -> Shown | None:
    """Parse one displayed number ("$391.04 billion", "(1,234)", "46.2%", "1.07x")."""
    if text is None:
        return None
    match = _NUMBER.search(str(text).strip())
    if not match:
        return None
    return _shown(match)


def _shown(match: re.Match) -> Shown | None:
    digits = match.group("digits").replace(",", "")
    try:
        value = Decimal(digits)
    except InvalidOperation:
        return None
    neg = (match.group("neg") or match.group("neg2") or "") in ("-", "−", "–", "(")
    decimals = len(digits.split(".", 1)[1]) if "." in digits else 0
    scale_word = (match.group("scale") or "").lower()
    return Shown(
        digits=-value if neg else value,
        decimals=decimals,
        scale=SCALES.get(scale_word, Decimal(1)),
        percent=bool(match.group("pct")),
        raw=match.group(0).strip(),
    )


def _round(value: Decimal, decimals: int, mode) -> Decimal:
    return value.quantize(Decimal(1).scaleb(-decimals), rounding=mode)


def equals_as_displayed(expected: Decimal, shown: Shown) -> bool:
    """True when `shown` is `expected` rounded to the digits shown (half-up or half-even)."""
    target = expected / shown.scale
    for mode in (ROUND_HALF_UP, ROUND_HALF_EVEN):
        if _round(target, shown.decimals, mode) == shown.digits:
            return True
    return False


def to_decimal(value) -> Decimal | None:
    if value is None:
        return None
    try:
        return Decimal(str(value).replace(",", "").strip())
    except InvalidOperation:
        shown = parse_display(str(value))
        return shown.value if shown else None


def same_value(expected: Decimal, given: str, *, exact: bool) -> bool:
    """An exact fact must match exactly; a computed value may be shown rounded."""
    plain = to_decimal(given)
    if exact:
        if plain is not None and plain == expected:
            return True
        return False
    shown = parse_display(given)
    if shown is None:
        return False
    if shown.scale == 1 and not shown.percent and plain is not None and plain == expected:
        return True
    return equals_as_displayed(expected, shown)


_MARKER = re.compile(r"\[\d+\]")
_NOT_AMOUNTS = re.compile(
    r"\bFY\s?'?\d{2,4}\b|\bfiscal(?:\s+year)?\s+\d{4}\b|\bItems?\s+\d+[A-C]?\b|\b10-[KQ](?:/A)?\b"
    r"|\b\d{4}-\d{2}-\d{2}\b|\bQ[1-4]\b"
    r"|\b(?:January|February|March|April|May|June|July|August|September|October|November|December)\s+\d{1,2},\s+\d{4}\b"
    r"|\b(?:19|20)\d{2}\b(?![.,]\d|\s?%)|\bCIK\s?\d+|\bus-gaap:\S+|\b\d{10}-\d{2}-\d{6}\b"
    r"|\bstep\s+\d+\b|^\s*\d+[.)]\s",
    re.IGNORECASE | re.MULTILINE,
)


def shown_numbers(text: str) -> list[Shown]:
    """Amounts in prose: markers, years, Item numbers, form names and dates are not amounts."""
    cleaned = _NOT_AMOUNTS.sub(" ", _MARKER.sub(" ", text or ""))
    out = []
    for match in _NUMBER.finditer(cleaned):
        shown = _shown(match)
        if shown is not None:
            out.append(shown)
    return out
