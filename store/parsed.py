"""What parsing a filing produces, before anything touches the database.

The parsers (html10k, xbrl, companyfacts, chunking) return these; the pipeline writes them. They
live in store/ because store/writes.py takes them, and ingest -> store is the allowed direction.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal


@dataclass(frozen=True)
class FilingMeta:
    cik: int
    company: str  # dei:EntityRegistrantName
    ticker: str | None  # first dei:TradingSymbol
    form: str  # dei:DocumentType: 10-K, 10-K/A, 10-Q, 10-Q/A
    fiscal_year: int  # dei:DocumentFiscalYearFocus: the company's fiscal year (a 10-Q's: the year its quarter belongs to)
    fiscal_period: str  # dei:DocumentFiscalPeriodFocus: FY for a 10-K, Q1/Q2/Q3 for a 10-Q
    period_end: date  # end of the dei:DocumentPeriodEndDate context
    accession: str | None  # None when unknown
    filed: date | None = None
    url: str | None = None
    fiscal_year_end: str | None = None  # dei:CurrentFiscalYearEndDate as MMDD ('0128'), when the cover says

    @property
    def is_quarterly(self) -> bool:
        return self.form.upper().startswith("10-Q")


@dataclass(frozen=True)
class Section:
    item: str  # 10-K: '1', '1A', '1C', '7', '7A', '8'; 10-Q: 'I-1', 'I-2', ..., 'II-1A', 'II-5' (store.items)
    title: str  # 'Risk Factors'
    text: str
    start_offset: int | None
    end_offset: int | None
    method: str  # 'edgartools' or 'headings'
    tables: tuple[str, ...] = ()  # financial tables in this Item, rendered as text rows


@dataclass(frozen=True)
class Fact:
    taxonomy: str
    concept: str
    unit: str
    value: Decimal
    period_end: date
    period_start: date | None  # None for instants
    accession: str
    decimals: str | None = None
    fy: int | None = None
    fp: str | None = None
    form: str | None = None
    frame: str | None = None
    filed: date | None = None
    dims: dict[str, str] = field(default_factory=dict)
    source: str = "ixbrl"  # or 'companyfacts'

    @property
    def dimensional(self) -> bool:
        return bool(self.dims)


@dataclass
class ParsedFiling:
    meta: FilingMeta
    sections: list[Section]
    facts: list[Fact]
    missing_items: list[str]  # wanted Items not found even by the fallback
    content_hash: str  # sha256 of the document bytes
    line_items: list = field(default_factory=list)  # ingest.line_items.LineItem: statement row labels


@dataclass(frozen=True)
class ChunkDraft:
    item: str
    ordinal: int
    text: str
    context: str  # e.g. 'Apple Inc. (AAPL) 10-K FY2024 — Item 1A Risk Factors:'
    is_table: bool
    n_tokens: int  # context + text, in the embedding model's tokens, specials included


def parse_date(value) -> date | None:
    """A date as SEC's data writes it ("2024-09-28", or a timestamp that starts with one), else None.
    The one reader of dates for companyfacts, the submissions index, inline XBRL and the evals."""
    if not value:
        return None
    try:
        return date.fromisoformat(str(value).strip()[:10])
    except ValueError:
        return None
