"""The name people use for a company, derived from the registrant name SEC records.

SEC's names are legal names, often in capitals ("WALMART INC.", "NVIDIA CORP", "WELLS FARGO &
COMPANY/MN"); an answer that says "WALMART INC.'s revenue" reads like a database dump. Every
surface (answers, refusals, coverage lists) shows `display_name`, so the rule lives here once; the
legal name stays in the store and is still what company matching reads.
"""

from __future__ import annotations

import re

# Legal-form words at the end of a name; removed repeatedly ("Foo Holdings Co., Inc." keeps Holdings).
_SUFFIX = re.compile(
    r"(?:[\s,]+(?:inc|incorporated|corp|corporation|co|company|companies inc|ltd|limited|plc|llc|l\.?p|n\.?v|s\.?a|ag|se)\.?)$",
    re.IGNORECASE,
)
_STATE_TAG = re.compile(r"\s*/(?:[A-Z]{2,3}/?)?\s*$")  # SEC's "/MN", "/DE/" disambiguators
_LEADING_THE = re.compile(r"^the\s+", re.IGNORECASE)
# Short words that stay in capitals when the rest of a capitalised name is softened.
_SMALL_WORDS = {"AND", "OF", "THE", "FOR", "NEW", "ONE", "OIL", "GAS", "CAR", "BIG", "AIR", "SEA", "TOP", "ALL", "BAY"}
_LOWER_WORDS = {"AND", "OF", "THE", "FOR"}


def display_name(registrant: str | None) -> str:
    """'WALMART INC.' -> 'Walmart', 'Apple Inc.' -> 'Apple', 'NVIDIA CORP' -> 'Nvidia',
    'WELLS FARGO & COMPANY/MN' -> 'Wells Fargo', 'McDONALD’S CORPORATION' -> 'McDonald’s'."""
    name = " ".join((registrant or "").split())
    if not name:
        return ""
    name = _STATE_TAG.sub("", name)
    # "Companies" is part of a name ("Rocket Companies"), "Company" alone is a legal form.
    stripped = name
    while True:
        shorter = _SUFFIX.sub("", stripped).rstrip(" ,&")
        if shorter == stripped or not shorter:
            break
        stripped = shorter
    stripped = _LEADING_THE.sub("", stripped) or stripped
    return _soften_capitals(stripped)


def _soften_capitals(name: str) -> str:
    """Title-case the words of a name written in capitals; mixed-case names are the company's own
    spelling and stay as they are (NIKE, McDonald's, AbbVie)."""
    letters = [ch for ch in name if ch.isalpha()]
    if sum(ch.islower() for ch in letters) > len(letters) // 5:
        return name
    words = name.split(" ")
    out = []
    for i, word in enumerate(words):
        letters = re.sub(r"[^A-Za-z]", "", word)
        if len(letters) <= 3 and word.upper() not in _SMALL_WORDS or not letters.isalpha() or "&" in word:
            out.append(word)  # an acronym: IBM, AMC, 3M, AT&T
        elif i and word.upper() in _LOWER_WORDS:
            out.append(word.lower())
        else:
            out.append(_title_word(word))
    return " ".join(out)


def _title_word(word: str) -> str:
    """'AMAZON.COM' -> 'Amazon.com', 'COLGATE-PALMOLIVE' -> 'Colgate-Palmolive',
    'McDONALD’S' -> 'McDonald’S' -> 'McDonald’s' (a lowercase prefix is the company's own)."""
    lower_at = [i for i, ch in enumerate(word) if ch.islower()]
    if lower_at:
        head, tail = word[: lower_at[-1] + 1], word[lower_at[-1] + 1 :]
        return head + tail[:1] + tail[1:].lower()
    parts = re.split(r"([-/])", word.lower())
    return "".join(p[:1].upper() + p[1:] for p in parts)
