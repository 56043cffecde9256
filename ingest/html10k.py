"""Read one inline-XBRL 10-K primary document: its cover, its Items, its facts.

edgartools does the heavy lifting (HTML parsing, section detection, inline XBRL facts with
contexts, scale and sign resolved). What it lacks is added here: stub detection (an Item that
is empty or only points elsewhere) with a heading-based fallback over the document text
(`ingest.sections`), tables pulled out of the prose as text rows, and the conversion of facts
to exact Decimals keyed the way the store keys them.
"""

from __future__ import annotations

import hashlib
import logging
import re
from dataclasses import replace
from datetime import date
from decimal import Decimal, InvalidOperation

from ingest.chunking import ITEM_TITLES
from ingest.edgar_parse import parse_html
from ingest.line_items import parse_line_items
from store.parsed import Fact, FilingMeta, ParsedFiling, Section
from store.parsed import parse_date as _date
from ingest.page_index import XREF_HEADING, cross_reference_items, find_items_by_index
from ingest.sections import (
    WANTED_ITEMS,
    ItemText,
    find_items,
    is_stub,
    normalize_item_text,
    overlap_ratio,
    resolve_pointer,
    split_statements,
)
from store.errors import FootnoteError

log = logging.getLogger(__name__)


class FilingParseError(FootnoteError):
    """A document that cannot be read as an inline-XBRL 10-K; the message names file and reason."""


def parse_10k(
    html: bytes | str,
    *,
    source: str,
    accession: str | None = None,
    filed: date | None = None,
    url: str | None = None,
) -> ParsedFiling:
    """Parse a 10-K primary document (`source` names it in errors)."""
    raw = html.encode("utf-8") if isinstance(html, str) else html
    content_hash = hashlib.sha256(raw).hexdigest()
    text = html if isinstance(html, str) else _decode(raw)
    if "<" not in text:
        raise FilingParseError(f"{source}: not an HTML document")
    doc = _parse(text, source)
    xfacts = doc.xbrl_facts
    meta = _cover(xfacts, source=source, accession=accession, filed=filed, url=url)
    sections, missing = _sections(doc, text)
    facts = _facts(xfacts, meta)
    return ParsedFiling(meta=meta, sections=sections, facts=facts, missing_items=missing, content_hash=content_hash,
                        line_items=parse_line_items(text))


def filing_key(meta: FilingMeta) -> str:
    """The accession, or 'noacc-<cik>-<period_end>' when the accession is unknown."""
    return meta.accession or f"noacc-{meta.cik}-{meta.period_end.isoformat()}"


def _decode(raw: bytes) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw.decode("cp1252", errors="replace")


def _parse(text: str, source: str, form: str = "10-K"):
    try:
        return parse_html(text, form)
    except Exception as exc:  # edgartools raises several types; all mean the same to us
        raise FilingParseError(f"{source}: malformed HTML ({type(exc).__name__}: {str(exc)[:120]})") from exc


# -- cover ---------------------------------------------------------------------------------

def _cover(xfacts, *, source: str, accession, filed, url, kind: str = "10-K") -> FilingMeta:
    """The filing's cover tags; `kind` ('10-K' or '10-Q') is the form the document must declare."""
    dei: dict[str, object] = {}
    for f in xfacts:
        if not f.concept.startswith("dei:"):
            continue
        name = f.concept[4:]
        value = (f.value or "").strip()
        if name not in dei and value:
            dei[name] = f
    if not dei:
        raise FilingParseError(f"{source}: no inline XBRL cover tags (dei:*): not an inline-XBRL filing")

    def val(name: str) -> str | None:
        f = dei.get(name)
        return " ".join(f.value.split()) if f is not None else None

    form = val("DocumentType")
    if not form or not form.upper().startswith(kind):
        raise FilingParseError(f"{source}: not a {kind} (dei:DocumentType is {form!r})")
    cik_text = val("EntityCentralIndexKey")
    if not cik_text or not cik_text.strip().isdigit():
        raise FilingParseError(f"{source}: no dei:EntityCentralIndexKey")
    period_end = _period_end(dei.get("DocumentPeriodEndDate"))
    if period_end is None:
        raise FilingParseError(f"{source}: no readable dei:DocumentPeriodEndDate")
    fy_text = val("DocumentFiscalYearFocus")
    try:
        fiscal_year = int(fy_text) if fy_text else period_end.year
    except ValueError:
        fiscal_year = period_end.year
    return FilingMeta(
        cik=int(cik_text),
        company=val("EntityRegistrantName") or "",
        ticker=(val("TradingSymbol") or None),
        form=form.upper(),
        fiscal_year=fiscal_year,
        fiscal_period=(val("DocumentFiscalPeriodFocus") or "FY").upper(),
        period_end=period_end,
        accession=accession,
        filed=filed,
        url=url,
        fiscal_year_end=_month_day(val("CurrentFiscalYearEndDate")),
    )


def _month_day(text: str | None) -> str | None:
    """dei:CurrentFiscalYearEndDate ('--01-28', '--12-31') as SEC's MMDD ('0128'), else None."""
    m = re.fullmatch(r"-*(\d{1,2})-(\d{1,2})", (text or "").strip())
    if not m or not (1 <= int(m[1]) <= 12 and 1 <= int(m[2]) <= 31):
        return None
    return f"{int(m[1]):02d}{int(m[2]):02d}"


def _period_end(fact) -> date | None:
    """The end of the context of dei:DocumentPeriodEndDate (its text can be a nested tag)."""
    if fact is None:
        return None
    ctx = fact.context or {}
    for key in ("end_date", "instant"):
        d = _date(ctx.get(key))
        if d:
            return d
    return _date(fact.value)


# -- sections ------------------------------------------------------------------------------

def _sections(doc, html: str) -> tuple[list[Section], list[str]]:
    """Items 1, 1A, 1C, 7, 7A, 8: edgartools first, the heading split where it gives a stub.

    Returns the Items found with real content, and the wanted Items that are absent or only
    a cross-reference (reported, never silently dropped).
    """
    found: dict[str, Section] = {}
    weak: dict[str, Section] = {}  # real text, but too short for this Item: kept if nothing better
    stubs: dict[str, Section] = {}  # an Item that only points elsewhere
    full = None  # the whole document's text, rendered only when needed
    if XREF_HEADING.search(html):
        # The filer maps Items to printed pages (GE, Intel): that map beats anchors and headings.
        full = doc.text(table_max_col_width=10**6)
        for item, it in cross_reference_items(full).items():
            if item in WANTED_ITEMS:
                sec = _to_section(item, it, "index")
                if sec.text and _plausible_size(sec, item):
                    found[item] = sec
    for item in WANTED_ITEMS:
        if item in found:
            continue
        sec = _edgar_section(doc, item)
        if sec is not None and is_stub(sec.text, item):
            stubs[item] = sec
        elif sec is not None and _plausible_size(sec, item):
            if len(sec.text) < _MIN_CHARS.get(item, 0):
                weak[item] = sec
            else:
                found[item] = sec
    fallbacks = ((find_items, "headings"), (find_items_by_index, "index"))
    for finder, method in fallbacks:
        if len(found) == len(WANTED_ITEMS):
            break
        if full is None:
            full = doc.text(table_max_col_width=10**6)
        for item, it in finder(full).items():
            if item in found or item not in WANTED_ITEMS:
                continue
            sec = _to_section(item, it, method)
            if item in weak and len(sec.text) < 1.5 * len(weak[item].text):
                continue  # no better than the short text edgartools found
            if not sec.text or (not it.relocated and is_stub(sec.text, item)) or not _plausible_size(sec, item):
                continue
            # A heading boundary that ran into an Item already found. (A cross-reference index
            # may map one page to two Items on purpose: Intel's Items 1 and 7 share pages.)
            if method == "headings" and any(overlap_ratio(sec.text, o.text) > 0.3 for o in found.values()):
                continue
            found[item] = sec
    for item, sec in weak.items():
        found.setdefault(item, sec)
    if "8" not in found and "7" in found:
        _carve_statements(found)
    if "7A" not in found and "7A" in stubs and "7" in found:
        _follow_pointer(found, stubs["7A"], found["7"])
    # A stub (a bare pointer elsewhere) is reported missing rather than stored as the Item.
    missing = [i for i in WANTED_ITEMS if i not in found]
    return [found[i] for i in WANTED_ITEMS if i in found], missing


def _carve_statements(found: dict[str, Section]) -> None:
    """Item 8 that only points to statements printed inside Item 7: split them out of Item 7."""
    mdna = found["7"]
    at = split_statements(mdna.text)
    if at is None or at < 500:
        return
    head, tail = mdna.text[:at].rstrip(), mdna.text[at:]
    found["7"] = replace(mdna, text=head, end_offset=None, tables=tuple(t for t in mdna.tables if t in head))
    found["8"] = Section(
        item="8",
        title=ITEM_TITLES["8"],
        text=tail,
        start_offset=None,
        end_offset=None,
        method="headings",
        tables=tuple(t for t in mdna.tables if t in tail),
    )


def _follow_pointer(found: dict[str, Section], stub: Section, target: Section) -> None:
    """Item 7A that says "see 'Market Risk' in Item 7": the pointer plus the part it names."""
    part = resolve_pointer(stub.text, target.text)
    if part is None:
        return
    text = f"{stub.text.strip()}\n\n{part}"
    found[stub.item] = replace(stub, text=text, method="headings", start_offset=None, end_offset=None,
                               tables=tuple(t for t in target.tables if t in part))


# Business, Risk Factors, MD&A and the statements run to many pages in any 10-K that has them.
_MIN_CHARS = {"1": 2500, "1A": 2500, "7": 2500, "8": 2500}


# Beyond these, a short Item has swallowed the document (a mis-detected boundary).
_MAX_CHARS = {"1C": 60000, "7A": 100000}


def _plausible_size(sec: Section, item: str) -> bool:
    return len(sec.text) <= _MAX_CHARS.get(item, 10**9)


def _edgar_section(doc, item: str) -> Section | None:
    try:
        sec = doc.get_section(f"Item {item}")
        if sec is None:
            return None
        raw = sec.text()
    except Exception as exc:  # a failing section must not lose the filing
        log.debug("edgartools section %s failed: %s", item, exc)
        return None
    if not raw or not raw.strip():
        return None
    start = sec.start_offset or None
    end = sec.end_offset or None
    return _to_section(item, ItemText(raw, start, end), "edgartools")


def _to_section(item: str, it: ItemText, method: str) -> Section:
    text, tables = normalize_item_text(it.text)
    return Section(
        item=item,
        title=ITEM_TITLES.get(item, ""),
        text=text,
        start_offset=it.start,
        end_offset=it.end,
        method=method,
        tables=tuple(tables),
    )


# -- facts ---------------------------------------------------------------------------------

def _facts(xfacts, meta: FilingMeta) -> list[Fact]:
    """Numeric inline XBRL facts as exact Decimals, one per (concept, unit, period, dims)."""
    key_acc = filing_key(meta)
    best: dict[tuple, Fact] = {}
    for f in xfacts:
        if not f.unit_ref or not f.concept or ":" not in f.concept:
            continue  # non-numeric (ix:nonNumeric) or malformed
        if f.metadata and f.metadata.get("format_issue"):
            continue
        raw = (f.value or "").strip().replace(",", "")
        if not raw:
            continue  # xsi:nil
        try:
            value = Decimal(raw)
        except InvalidOperation:
            continue
        ctx = f.context or {}
        start = _date(ctx.get("start_date"))
        end = _date(ctx.get("end_date")) or _date(ctx.get("instant"))
        if end is None:
            continue
        taxonomy, concept = f.concept.split(":", 1)
        dims = {str(k): str(v) for k, v in (ctx.get("dimensions") or {}).items()}
        unit = f.unit or f.unit_ref
        fact = Fact(
            taxonomy=taxonomy,
            concept=concept,
            unit=unit,
            value=value,
            period_end=end,
            period_start=start,
            accession=key_acc,
            decimals=f.decimals,
            fy=meta.fiscal_year,
            fp=meta.fiscal_period,
            form=meta.form,
            filed=meta.filed,
            dims=dims,
            source="ixbrl",
        )
        key = (taxonomy, concept, unit, start, end, tuple(sorted(dims.items())))
        prev = best.get(key)
        if prev is None or _precision(fact.decimals) > _precision(prev.decimals):
            best[key] = fact
    return list(best.values())


def _precision(decimals: str | None) -> float:
    if decimals is None:
        return float("-inf")
    if decimals.upper() == "INF":
        return float("inf")
    try:
        return float(int(decimals))
    except ValueError:
        return float("-inf")
