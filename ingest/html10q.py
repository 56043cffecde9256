"""Read one inline-XBRL 10-Q primary document: its cover, its Part I/Part II Items, its facts.

The cover and the facts are read exactly as a 10-K's (ingest.html10k): a 10-Q's facts keep
their own periods (the quarter's three months, the year to date, the balance-sheet instants),
and which fiscal year and quarter each belongs to is decided when it is stored, from the
company's fiscal-year anchors. The Items are keyed with their Part ('I-2' MD&A, 'II-1A' risk
factors; store.items), found by edgartools and, where it misses, by the document's headings.
"""

from __future__ import annotations

import hashlib
from dataclasses import replace
from datetime import date

from store.fiscal import quarter_before_year_end, year_end_after
from ingest.html10k import FilingParseError, _cover, _decode, _facts, _parse
from ingest.line_items import parse_line_items
from store.parsed import FilingMeta, ParsedFiling, Section
from ingest.sections import ItemText, is_stub, normalize_item_text, overlap_ratio
from ingest.sections10q import MIN_CHARS, better, edgar_key, find_quarterly_items, has_body
from store.items import QUARTERLY_ITEMS, QUARTERLY_TITLES

QUARTERS = ("Q1", "Q2", "Q3")


def parse_10q(
    html: bytes | str,
    *,
    source: str,
    accession: str | None = None,
    filed: date | None = None,
    url: str | None = None,
) -> ParsedFiling:
    """Parse a 10-Q (or 10-Q/A) primary document (`source` names it in errors)."""
    raw = html.encode("utf-8") if isinstance(html, str) else html
    content_hash = hashlib.sha256(raw).hexdigest()
    text = html if isinstance(html, str) else _decode(raw)
    if "<" not in text:
        raise FilingParseError(f"{source}: not an HTML document")
    doc = _parse(text, source, form="10-Q")
    xfacts = doc.xbrl_facts
    meta = _quarter(_cover(xfacts, source=source, accession=accession, filed=filed, url=url, kind="10-Q"), source)
    sections, missing = quarterly_sections(doc)
    return ParsedFiling(meta=meta, sections=sections, facts=_facts(xfacts, meta), missing_items=missing,
                        content_hash=content_hash, line_items=parse_line_items(text))  # fmt: skip


def _quarter(meta: FilingMeta, source: str) -> FilingMeta:
    """The cover's fiscal quarter (Q1-Q3), or, when the cover does not say, the one the period end
    falls on before the fiscal year end the cover gives."""
    if meta.fiscal_period in QUARTERS:
        return meta
    if meta.fiscal_year_end:
        year_end = year_end_after(meta.period_end, meta.fiscal_year_end)
        q = quarter_before_year_end(meta.period_end, year_end)
        if q in (1, 2, 3):
            return replace(meta, fiscal_period=f"Q{q}")
    raise FilingParseError(
        f"{source}: cannot tell the fiscal quarter (dei:DocumentFiscalPeriodFocus is {meta.fiscal_period!r})"
    )


def quarterly_sections(doc) -> tuple[list[Section], list[str]]:
    """Part I Items 1-4 and Part II Items 1, 1A and 5, in document order, and the ones not found.

    Short Items are kept as they are ("None.", "Refer to Note 13"): in a 10-Q that is the
    company's whole statement on the subject, not a pointer to be resolved.
    """
    found: dict[str, Section] = {}
    try:
        edgar_sections = list(doc.sections.items())
    except Exception:  # a failing detector must not lose the filing
        edgar_sections = []
    for _name, sec in edgar_sections:
        key = edgar_key(getattr(sec, "part", None), getattr(sec, "item", None))
        if key is None or key in found:
            continue
        try:
            raw = sec.text() or ""
        except Exception:
            continue
        if has_body(raw):
            found[key] = _to_section(key, ItemText(raw, None, None), "edgartools")
    if any(key not in found or len(found[key].text) < 4 * MIN_CHARS.get(key, 0) for key in QUARTERLY_ITEMS):
        full = doc.text(table_max_col_width=10**6)
        heads = {k: _to_section(k, it, "headings") for k, it in find_quarterly_items(full).items() if k in QUARTERLY_ITEMS}
        for key, candidate in heads.items():
            current = found[key].text if key in found else None
            if not better(candidate.text, current, key, []):
                continue
            clashes = [k for k, s in found.items() if k != key and overlap_ratio(candidate.text, s.text) > 0.3]
            # An Item edgartools ran on into this one (Pfizer's statements swallowing MD&A) yields to its
            # own heading split, when that one stops where this begins.
            if all(found[k].method == "edgartools" and k in heads
                   and overlap_ratio(candidate.text, heads[k].text) <= 0.3 for k in clashes):  # fmt: skip
                found[key] = candidate
                for k in clashes:
                    found[k] = heads[k]
    for key in MIN_CHARS:
        if key in found and is_stub(found[key].text, key):
            del found[key]  # a heading and a page reference (Intel's MD&A): reported missing, as a 10-K's stub is
    missing = [key for key in QUARTERLY_ITEMS if key not in found]
    return [found[key] for key in QUARTERLY_ITEMS if key in found], missing


def _to_section(key: str, it: ItemText, method: str) -> Section:
    text, tables = normalize_item_text(it.text)
    return Section(item=key, title=QUARTERLY_TITLES[key], text=text, start_offset=it.start, end_offset=it.end,
                   method=method, tables=tuple(tables))  # fmt: skip
