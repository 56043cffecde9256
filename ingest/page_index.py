"""Find 10-K Items through a cross-reference index of printed pages.

A few filers (GE, Intel) do not head their text by Item at all: a "Form 10-K Cross Reference
Index" maps each Item to printed page numbers. The pages are found from the page footers
("2023 FORM 10-K 26", "MD&A 21"), the longest run of consecutive numbers at line ends, and an
Item's text is its pages, trimmed to its own heading on the first page and to the next Item's
heading on the last.
"""

from __future__ import annotations

import re

from ingest.sections import TITLE_WORDS, ItemText

XREF_HEADING = re.compile(r"cross[- ]reference\s+index", re.IGNORECASE)
_INDEX_ITEM = re.compile(r"^\s*item\s+(\d{1,2}[a-d]?)\b\.?(.*)$", re.IGNORECASE)
_INDEX_STOP = re.compile(r"^\s*(?:signatures|exhibits?\s+index)\b", re.IGNORECASE)
_PAGE_SPEC = re.compile(
    r"(?:^|\s{2,}|pages?\s+)((?<!\d)\d{1,3}(?:\s*[-–]\s*\d{1,3})?(?:\s*,\s*\d{1,3}(?:\s*[-–]\s*\d{1,3})?)*)"
    r"(?:\s*,?\s*\([a-z]\))?\s*$",
    re.IGNORECASE,
)
_FOOTER = re.compile(r"^[^\n]{0,80}?(?<![\d,.$])(\d{1,3})[ \t]*$", re.MULTILINE)


def find_items_by_index(full: str) -> dict[str, ItemText]:
    """Items located through a cross-reference index of printed pages; {} when there is none."""
    pages_by_item = _index_pages(full)
    if not pages_by_item:
        return {}
    pages = _page_spans(full)
    if len(pages) < 10:
        return {}
    if index_has_ranges(pages_by_item) is False:
        pages_by_item = _extend_start_pages(pages_by_item)
    out: dict[str, ItemText] = {}
    for item, wanted in pages_by_item.items():
        spans = [pages[p] for p in sorted(set(wanted)) if p in pages]
        if not spans or len(spans) < len(set(wanted)) / 2:
            continue
        # A page holds the end of the Item before too: start at the Item's own heading if the
        # first page shows one.
        a, b = spans[0]
        head = _title_line(full, item, a, b)
        if head is not None:
            spans[0] = (head, b)
        # ...and stop at the heading of an Item that starts on the last page.
        a, b = spans[-1]
        last_page = max(p for p in wanted if p in pages)
        for other, other_pages in pages_by_item.items():
            if other == item or not other_pages or min(other_pages) != last_page:
                continue
            tail = _title_line(full, other, a, b)
            if tail is not None and tail > a:
                b = tail
        spans[-1] = (a, b)
        text = "\n\n".join(full[a:b].strip() for a, b in spans)
        out[item] = ItemText(text, spans[0][0], spans[-1][1], relocated=True)
    return out


def _title_line(full: str, item: str, start: int, end: int) -> int | None:
    """Where a heading naming the Item's subject begins within [start, end), if anywhere."""
    words = TITLE_WORDS.get(item)
    if not words:
        return None
    for m in re.finditer(rf"^[ \t]*(?:item\s+{item}\b\.?\s*)?(?:{words})[^\n]*", full[start:end],
                         re.IGNORECASE | re.MULTILINE):
        line = m.group(0).strip()
        lead = line.split(".")[0]
        if len(line) <= 100 or (lead.isupper() and len(lead) <= 100):
            return start + m.start()
    return None


def index_has_ranges(pages_by_item: dict[str, list[int]]) -> bool | None:
    """True when the index gives page ranges (authoritative extents), False when it gives only
    start pages like a table of contents (McDonald's), None without an index."""
    if not pages_by_item:
        return None
    multi = sum(1 for pages in pages_by_item.values() if len(set(pages)) > 1)
    return multi >= 3


def _extend_start_pages(pages_by_item: dict[str, list[int]]) -> dict[str, list[int]]:
    """Start pages only: an Item runs to the page where the next Item starts."""
    starts = sorted({min(p) for p in pages_by_item.values() if p})
    out = {}
    for item, pages in pages_by_item.items():
        if not pages:
            continue
        first = min(pages)
        later = [s for s in starts if s > first]
        out[item] = list(range(first, later[0] + 1)) if later else [first]
    return out


def cross_reference_items(full: str) -> dict[str, ItemText]:
    """Items from a cross-reference index that gives page ranges (GE, Intel); {} otherwise.

    Such an index is the filer's own authoritative map, better than anchors or headings."""
    if index_has_ranges(_index_pages(full)):
        return find_items_by_index(full)
    return {}


def _index_pages(full: str) -> dict[str, list[int]]:
    best: dict[str, list[int]] = {}
    for m in XREF_HEADING.finditer(full):
        found: dict[str, list[int]] = {}
        current: str | None = None
        for line in full[m.end(): m.end() + 20000].split("\n"):
            if _INDEX_STOP.match(line):
                break
            im = _INDEX_ITEM.match(line)
            if im:
                current = im.group(1).upper()
                rest = im.group(2)
            elif re.match(r"^\s*part\s+[ivx]+\b", line, re.IGNORECASE):
                continue
            else:
                rest = line
            if current is None:
                continue
            spec = _PAGE_SPEC.search(rest)
            if spec:
                found.setdefault(current, []).extend(_expand(spec.group(1)))
        if len(found) > len(best):
            best = found
    return best if len(best) >= 5 else {}


def _expand(spec: str) -> list[int]:
    out: list[int] = []
    for part in spec.split(","):
        bounds = [int(x) for x in re.findall(r"\d+", part)]
        if len(bounds) == 1:
            out.append(bounds[0])
        elif len(bounds) == 2 and 0 <= bounds[1] - bounds[0] <= 150:
            out.extend(range(bounds[0], bounds[1] + 1))
    return out


def _page_spans(full: str) -> dict[int, tuple[int, int]]:
    """Printed page number -> (start, end) of its text, from the longest run of page footers."""
    cands = [(int(m.group(1)), m.start(), m.end()) for m in _FOOTER.finditer(full)]
    best_at: dict[int, tuple[int, int]] = {}  # page -> (chain length, candidate index)
    parent: list[int | None] = []
    length: list[int] = []
    for i, (n, _, _) in enumerate(cands):
        prev = best_at.get(n - 1) or best_at.get(n - 2)
        length.append(prev[0] + 1 if prev else 1)
        parent.append(prev[1] if prev else None)
        if n not in best_at or length[i] > best_at[n][0]:
            best_at[n] = (length[i], i)
    if not cands:
        return {}
    i: int | None = max(range(len(cands)), key=lambda k: length[k])
    chain = []
    while i is not None:
        chain.append(cands[i])
        i = parent[i]
    chain.reverse()
    spans: dict[int, tuple[int, int]] = {}
    prev_end = None  # the first page's beginning is unknown (cover, contents): left out
    for n, start, end in chain:
        if prev_end is not None:
            spans[n] = (prev_end, start)  # the footer line itself is left out
        prev_end = end
    return spans
