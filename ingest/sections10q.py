"""Find a 10-Q's Items, Part by Part, and key them so no 10-K Item can be mistaken for them.

edgartools splits most 10-Qs into Part I/Part II Items by itself. Where it misses one, or
files an Item under the wrong Part (Mastercard's Part II Items came back as Part I), the
document's own headings decide: a heading's title words tell the Parts apart (Part I Item 2 is
MD&A, Part II Item 2 is share repurchases), and a bare "Item 2." takes the Part of the last
"PART I"/"PART II" line above it. As for 10-Ks, the body heading beats the table of contents
because the longest run of text follows it.
"""

from __future__ import annotations

import re

from ingest.sections import HEADING, ItemText, body_of, overlap_ratio
from store.items import QUARTERLY_ITEMS

# (Item number, title words, key). The title words are matched at the start of the heading's text.
_TITLES = (
    ("1", r"(?:condensed\s+|consolidated\s+|interim\s+)*financial\s+statements|financial\s+information", "I-1"),
    ("2", r"management", "I-2"),
    ("3", r"quantitative|qualitative|market\s+risk", "I-3"),
    ("4", r"controls", "I-4"),
    ("1", r"legal", "II-1"),
    ("1A", r"risk\s+factors", "II-1A"),
    ("2", r"unregistered|issuer|purchases|sales|repurchase|changes\s+in\s+securities", "II-2"),
    ("3", r"defaults", "II-3"),
    ("4", r"mine|removed|reserved|submission", "II-4"),
    ("5", r"other\s+(?:information|items|matters)", "II-5"),
    ("6", r"exhibits", "II-6"),
)
_PART = re.compile(r"^[ \t]*part[ \t\u00a0]+(ii|i)\b", re.IGNORECASE | re.MULTILINE)
_ONLY_PART_II = {"1A", "5", "6"}

# Part I's statements and MD&A run to pages; shorter text from edgartools is a missed boundary,
# and a heading split that finds several times more of them found what edgartools cut short.
MIN_CHARS = {"I-1": 2500, "I-2": 2500}


def edgar_key(part: str | None, item: str | None) -> str | None:
    """edgartools' (part, item) as our key, or None for an Item Footnote does not read."""
    if not item:
        return None
    item = item.upper()
    part = (part or "").upper() or ("II" if item in _ONLY_PART_II else None)
    if part == "I" and item in _ONLY_PART_II:
        part = "II"  # Part I has only Items 1-4: a Part II Item mis-filed
    key = f"{part}-{item}" if part else None
    return key if key in QUARTERLY_ITEMS else None


def classify(item: str, rest: str, part: str | None) -> str | None:
    """The key of a heading 'Item <item>. <rest>' under Part `part` (None: not yet seen)."""
    item = item.upper()
    rest = " ".join(rest.split())
    if rest:
        for number, words, key in _TITLES:
            if number == item and re.match(rf"[\W\d]*(?:{words})", rest, re.IGNORECASE):
                return key
        if len(rest) > 3 and re.match(r"[A-Za-z]", rest):
            return None  # a title that names something else: a cross-reference, not a heading
    if part is None:
        part = "II" if item in _ONLY_PART_II else "I"
    key = f"{part}-{item}"
    return key if any(k == key for _, _, k in _TITLES) else None


# Whole heading lines without an "Item" (Colgate-Palmolive's Part I): only for an Item that no
# "Item N." heading names, and only in its own Part.
_TITLE_LINES = {
    "I-2": r"management[’']s\s+discussion\s+and\s+analysis\b.{0,90}",
    "I-3": r"quantitative\s+and\s+qualitative\s+disclosures?\s+about\s+market\s+risks?",
    "I-4": r"controls\s+and\s+procedures",
    "II-1": r"legal\s+proceedings",
    "II-1A": r"risk\s+factors",
    "II-5": r"other\s+information",
}
_MIN_STATEMENT_AMOUNTS = 10


def find_quarterly_items(full: str) -> dict[str, ItemText]:
    """Each 10-Q Item's text in `full`, located by its body heading."""
    parts = [(m.start(), m.group(1).upper()) for m in _PART.finditer(full)]
    part_ii = _part_ii_start(full, parts)
    heads: list[tuple[int, str]] = []
    for m in HEADING.finditer(full):
        rest = m.group(2)
        if len(" ".join(rest.split())) > 200:
            continue
        prefix = re.match(r"[ \t]*part[ \t\u00a0]+(ii|i)\b", m.group(0), re.IGNORECASE)
        part = prefix.group(1).upper() if prefix else next((p for pos, p in reversed(parts) if pos <= m.start()), None)
        key = classify(m.group(1), rest, part)
        if key is not None:
            heads.append((m.start(), key))
    named = {key for _, key in heads}
    for key, words in _TITLE_LINES.items():
        if key in named:
            continue
        for m in re.finditer(rf"^[ \t]*(?:{words})[ \t.:]*$", full, re.IGNORECASE | re.MULTILINE):
            if part_ii is not None and (m.start() < part_ii) != key.startswith("I-"):
                continue  # the title in the other Part (a contents line, a cross-reference)
            heads.append((m.start(), key))
    heads.sort()
    best: dict[str, tuple[int, int, int]] = {}
    for i, (pos, key) in enumerate(heads):
        end = len(full)
        for npos, nkey in heads[i + 1:]:
            if nkey != key:
                end = npos
                break
        if key.startswith("I-") and part_ii is not None and pos < part_ii < end:
            end = part_ii  # Part II's heading is not part of the last Part I Item
        span = end - pos
        if key not in best or span > best[key][0]:
            best[key] = (span, pos, end)
    out = {key: ItemText(full[start:end].strip(), start, end) for key, (_, start, end) in best.items()}
    if "I-1" not in out and "I-2" in out:
        statements = _statements_before(full, parts, best["I-2"][1])
        if statements is not None:
            out["I-1"] = statements
    return out


def _part_ii_start(full: str, parts: list[tuple[int, str]]) -> int | None:
    """Where the body's Part II begins: its first heading past the contents (the first 40%)."""
    return next((pos for pos, name in parts if name == "II" and pos > 0.4 * len(full)), None)


def _statements_before(full: str, parts: list[tuple[int, str]], mdna: int) -> ItemText | None:
    """Part I's statements when they carry no Item heading: from the last 'PART I' line before
    MD&A to MD&A, if that is tables of amounts."""
    start = next((pos for pos, name in reversed(parts) if name == "I" and pos < mdna), None)
    if start is None or mdna - start < 2500:
        return None
    if len(re.findall(r"\d{1,3},\d{3}", full[start:mdna])) < _MIN_STATEMENT_AMOUNTS:
        return None
    return ItemText(full[start:mdna].strip(), start, mdna)


def has_body(text: str) -> bool:
    """More than a heading: an Item that says anything at all ("None.", "Not applicable.") counts."""
    return len(" ".join(body_of(text.strip()).split())) >= 4


def better(candidate: str, current: str | None, key: str, found_texts: list[str]) -> bool:
    """Whether the heading split's text should replace edgartools' (or fill a gap)."""
    if not has_body(candidate):
        return False
    if any(overlap_ratio(candidate, o) > 0.3 for o in found_texts):
        return False  # ran into an Item already found
    if current is None:
        return True
    if key in MIN_CHARS:  # statements and MD&A: a much longer body heading's run is the real Item
        return len(candidate) > (1.5 if len(current) < MIN_CHARS[key] else 2.5) * len(current)
    return False
