"""Writing the SEC data: companies, SEC's ticker map, filings with their Items, chunks and facts.

Every write here runs inside a transaction the caller opens, so one filing is all-or-nothing:
its old rows are deleted and its new rows inserted together, and a crash or Ctrl-C in between
leaves the previous state. Bulk rows (chunks, facts, the ~10,000-row ticker map) go through
COPY; chunk embeddings are sent in binary through pgvector's psycopg adapter.

A fact's natural key (`fact_key`) is a hash of what identifies it in SEC's data, so the same
fact read from a 10-K's inline XBRL and from companyfacts is stored once.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date

import numpy as np
import psycopg
from psycopg.types.json import Jsonb

from store.parsed import ChunkDraft, Fact, ParsedFiling
from store import labels

UPSERT_COMPANY = """
INSERT INTO companies (cik, name, tickers, fiscal_year_end)
VALUES (%(cik)s, %(name)s, %(tickers)s, %(fye)s)
ON CONFLICT (cik) DO UPDATE SET
    name = EXCLUDED.name,
    tickers = EXCLUDED.tickers,
    fiscal_year_end = coalesce(EXCLUDED.fiscal_year_end, companies.fiscal_year_end),
    updated_at = now()
WHERE (companies.name, companies.tickers, companies.fiscal_year_end)
      IS DISTINCT FROM (EXCLUDED.name, EXCLUDED.tickers, coalesce(EXCLUDED.fiscal_year_end, companies.fiscal_year_end))
"""

COMPANY = "SELECT name, tickers, fiscal_year_end FROM companies WHERE cik = %s"

TICKERS_TEMP = "CREATE TEMP TABLE sec_tickers_in (ticker text, cik bigint, title text) ON COMMIT DROP"
TICKERS_COPY = "COPY sec_tickers_in (ticker, cik, title) FROM STDIN"
TICKERS_MERGE = """
INSERT INTO sec_tickers (ticker, cik, title)
SELECT DISTINCT ON (ticker) ticker, cik, title FROM sec_tickers_in ORDER BY ticker
ON CONFLICT (ticker) DO UPDATE SET cik = EXCLUDED.cik, title = EXCLUDED.title
WHERE (sec_tickers.cik, sec_tickers.title) IS DISTINCT FROM (EXCLUDED.cik, EXCLUDED.title)
"""

FILING_HASHES = "SELECT accession, content_hash FROM filings WHERE accession = ANY(%s)"

# The chunks a filing holds now, with their vectors: a changed document's unchanged chunks keep them.
FILING_VECTORS = "SELECT context, text, embedding FROM chunks WHERE accession = ANY(%s)"

DELETE_FILING = "DELETE FROM filings WHERE accession = %s"  # sections and chunks cascade
DELETE_FILING_FACTS = "DELETE FROM facts WHERE accession = %s AND source = 'ixbrl'"

INSERT_FILING = """
INSERT INTO filings (accession, cik, form, fiscal_year, fiscal_period, period_end, filed, url,
                     content_hash, source, missing_items)
VALUES (%(accession)s, %(cik)s, %(form)s, %(fiscal_year)s, %(fiscal_period)s, %(period_end)s, %(filed)s,
        %(url)s, %(content_hash)s, %(source)s, %(missing_items)s)
"""

INSERT_SECTION = """
INSERT INTO sections (accession, item, title, text, start_offset, end_offset, method)
VALUES (%s, %s, %s, %s, %s, %s, %s)
"""

CHUNKS_COPY = """
COPY chunks (accession, cik, item, ordinal, is_table, text, context, n_tokens, embedding)
FROM STDIN WITH (FORMAT BINARY)
"""
CHUNK_TYPES = ["text", "int8", "text", "int4", "bool", "text", "text", "int4", "vector"]

FACT_COLUMNS = (
    "cik, accession, taxonomy, concept, unit, value, decimals, period_start, period_end, fiscal_year, "
    "fy, fp, form, frame, filed, dimensional, dims, source, fact_key, fiscal_quarter"
)
FACTS_TEMP = f"CREATE TEMP TABLE facts_in AS SELECT {FACT_COLUMNS} FROM facts WITH NO DATA"
FACTS_TEMP_DROP = "DROP TABLE IF EXISTS facts_in"
FACTS_COPY = f"COPY facts_in ({FACT_COLUMNS}) FROM STDIN"
# A fact already stored from the other source stays as it is; companyfacts only adds SEC's
# `frame`, which inline XBRL does not carry.
FACTS_MERGE = f"""
INSERT INTO facts ({FACT_COLUMNS})
SELECT DISTINCT ON (fact_key) {FACT_COLUMNS} FROM facts_in ORDER BY fact_key, frame NULLS LAST
ON CONFLICT (fact_key) DO UPDATE SET
    frame = coalesce(facts.frame, EXCLUDED.frame),
    filed = coalesce(facts.filed, EXCLUDED.filed),
    source = CASE WHEN EXCLUDED.source = 'ixbrl' THEN 'ixbrl' ELSE facts.source END,
    fiscal_quarter = coalesce(facts.fiscal_quarter, EXCLUDED.fiscal_quarter)
WHERE (facts.frame IS NULL AND EXCLUDED.frame IS NOT NULL)
   OR (facts.filed IS NULL AND EXCLUDED.filed IS NOT NULL)
   OR (EXCLUDED.source = 'ixbrl' AND facts.source <> 'ixbrl')
   OR (facts.fiscal_quarter IS NULL AND EXCLUDED.fiscal_quarter IS NOT NULL)
"""
# A fact reported by both the document and companyfacts is owned by the document, whichever
# was ingested first: the stored state does not depend on order, and replacing companyfacts
# (which deletes source = 'companyfacts' rows) never removes a fact the document still reports.
DELETE_COMPANYFACTS = "DELETE FROM facts WHERE cik = %s AND source = 'companyfacts'"

SOURCE_HASH = "SELECT value FROM corpus_meta WHERE key = %s"
SET_SOURCE_HASH = """
INSERT INTO corpus_meta (key, value) VALUES (%s, %s)
ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value
"""

COMPANY_FACT_PERIODS = "SELECT id, period_end, fiscal_year, fiscal_quarter FROM facts WHERE cik = %s"
PERIODS_TEMP = "CREATE TEMP TABLE fact_periods_in (id bigint, fiscal_year int, fiscal_quarter smallint) ON COMMIT DROP"
PERIODS_COPY = "COPY fact_periods_in (id, fiscal_year, fiscal_quarter) FROM STDIN"
PERIODS_MERGE = """
UPDATE facts SET fiscal_year = p.fiscal_year, fiscal_quarter = p.fiscal_quarter
  FROM fact_periods_in p WHERE facts.id = p.id
"""
PERIODS_TEMP_DROP = "DROP TABLE IF EXISTS fact_periods_in"
FILING_ANCHORS = "SELECT period_end, fiscal_year FROM filings WHERE cik = %s AND fiscal_period = 'FY'"
# A company with no 10-K yet: each 10-Q's cover names its fiscal year and quarter, so the year
# ends (4 - quarter) quarters of 91.31 days after the period (store.fiscal.quarter_anchor).
QUARTER_ANCHORS = """
SELECT period_end + round((4 - substr(fiscal_period, 2, 1)::int) * 91.31)::int, fiscal_year
  FROM filings
 WHERE cik = %s AND form LIKE '10-Q%%' AND fiscal_period IN ('Q1', 'Q2', 'Q3')
"""
COMPANIES = "SELECT cik FROM companies ORDER BY cik"
# The quarter ends a company's 10-Qs declare: its ingested 10-Qs, and the 10-Qs companyfacts names
# (a 10-Q's facts end at its period end or before; its cover facts are dei).
QUARTER_ENDS = """
SELECT period_end, substr(fiscal_period, 2, 1)::int FROM filings
 WHERE cik = %(cik)s AND form LIKE '10-Q%%' AND fiscal_period IN ('Q1', 'Q2', 'Q3')
UNION
SELECT max(period_end), substr(max(fp), 2, 1)::int FROM facts
 WHERE cik = %(cik)s AND source = 'companyfacts' AND form LIKE '10-Q%%' AND fp IN ('Q1', 'Q2', 'Q3')
   AND taxonomy <> 'dei'
 GROUP BY accession
"""
COMPANYFACTS_ANCHORS = """
SELECT accession, max(period_end), max(fy)
FROM facts
WHERE cik = %s AND source = 'companyfacts' AND fy IS NOT NULL AND form LIKE '10-K%%'
  AND coalesce(fp, 'FY') = 'FY' AND taxonomy <> 'dei'
  AND period_start IS NOT NULL AND period_end - period_start BETWEEN 357 AND 378
GROUP BY accession
"""


@dataclass(frozen=True)
class FilingWrite:
    """What one filing's transaction wrote."""

    accession: str
    sections: int
    chunks: int
    facts: int  # new fact rows (a fact already stored from companyfacts is not counted)


def fact_key(cik: int, fact: Fact) -> str:
    """sha1 of (cik, accession, taxonomy, concept, unit, period start, period end, sorted dims)."""
    parts = [
        str(int(cik)), fact.accession, fact.taxonomy, fact.concept, fact.unit,
        fact.period_start.isoformat() if fact.period_start else "", fact.period_end.isoformat(),
        json.dumps(sorted(fact.dims.items()), separators=(",", ":")) if fact.dims else "[]",
    ]  # fmt: skip
    return hashlib.sha1("|".join(parts).encode("utf-8")).hexdigest()


def upsert_company(conn: psycopg.Connection, cik: int, name: str, tickers: Sequence[str], fiscal_year_end: str | None) -> bool:
    """Insert or refresh a company; True when a row changed."""
    cur = conn.execute(UPSERT_COMPANY, {"cik": int(cik), "name": name, "tickers": list(tickers), "fye": fiscal_year_end})
    return cur.rowcount > 0


def company(conn: psycopg.Connection, cik: int) -> tuple[str, list[str], str | None] | None:
    row = conn.execute(COMPANY, (int(cik),)).fetchone()
    return (row[0], list(row[1]), row[2]) if row else None


def load_sec_tickers(conn: psycopg.Connection, rows: Iterable[tuple[str, int, str]]) -> int:
    """Merge SEC's ticker map (COPY into a temp table, then one upsert); returns rows changed."""
    conn.execute(TICKERS_TEMP)
    with conn.cursor() as cur:
        with cur.copy(TICKERS_COPY) as copy:
            for ticker, cik, title in rows:
                copy.write_row((ticker, int(cik), title))
        cur.execute(TICKERS_MERGE)
        changed = cur.rowcount
    conn.execute("DROP TABLE IF EXISTS sec_tickers_in")
    return changed


def filing_hashes(conn: psycopg.Connection, accessions: Sequence[str]) -> dict[str, str]:
    return dict(conn.execute(FILING_HASHES, (list(accessions),)).fetchall())


def source_hash(conn: psycopg.Connection, key: str) -> str | None:
    row = conn.execute(SOURCE_HASH, (f"source:{key}",)).fetchone()
    return row[0] if row else None


def set_source_hash(conn: psycopg.Connection, key: str, value: str) -> None:
    conn.execute(SET_SOURCE_HASH, (f"source:{key}", value))


def filing_vectors(conn: psycopg.Connection, accessions: Sequence[str]) -> list[tuple[str, str, np.ndarray]]:
    """(context, text, embedding) of every chunk the filings hold now (none for a new filing); the
    vectors read in binary, bit for bit as stored."""
    with conn.cursor(binary=True) as cur:
        rows = cur.execute(FILING_VECTORS, (list(accessions),)).fetchall()
    return [(c, t, e.to_numpy() if hasattr(e, "to_numpy") else np.asarray(e, dtype=np.float32)) for c, t, e in rows]


def replace_filing(
    conn: psycopg.Connection,
    parsed: ParsedFiling,
    *,
    accession: str,
    url: str,
    source: str,
    chunks: Sequence[ChunkDraft],
    embeddings: np.ndarray,
    fiscal_years: Sequence[int | None],
    fiscal_quarters: Sequence[int | None] | None = None,
) -> FilingWrite:
    """Delete the filing's old rows and insert its new ones. Call inside a transaction."""
    if len(chunks) != len(embeddings):
        raise ValueError(f"{len(chunks)} chunks but {len(embeddings)} embeddings")
    meta = parsed.meta
    conn.execute(DELETE_FILING, (accession,))
    conn.execute(DELETE_FILING_FACTS, (accession,))
    conn.execute(
        INSERT_FILING,
        {
            "accession": accession, "cik": meta.cik, "form": meta.form, "fiscal_year": meta.fiscal_year,
            "fiscal_period": meta.fiscal_period or "FY", "period_end": meta.period_end, "filed": meta.filed,
            "url": url, "content_hash": parsed.content_hash, "source": source,
            "missing_items": list(parsed.missing_items),
        },
    )  # fmt: skip
    with conn.cursor() as cur:
        cur.executemany(
            INSERT_SECTION,
            [(accession, s.item, s.title, s.text, s.start_offset, s.end_offset, s.method) for s in parsed.sections],
        )
        with cur.copy(CHUNKS_COPY) as copy:
            copy.set_types(CHUNK_TYPES)
            for c, e in zip(chunks, embeddings, strict=True):
                copy.write_row((accession, meta.cik, c.item, c.ordinal, c.is_table, c.text, c.context, c.n_tokens, e))
    added = insert_facts(conn, meta.cik, parsed.facts, fiscal_years, fiscal_quarters)
    labels.replace_labels(conn, accession, meta.cik, getattr(parsed, "line_items", ()))
    return FilingWrite(accession, len(parsed.sections), len(chunks), added)


def insert_facts(conn: psycopg.Connection, cik: int, facts: Sequence[Fact], fiscal_years: Sequence[int | None],
                 fiscal_quarters: Sequence[int | None] | None = None) -> int:  # fmt: skip
    """COPY facts into a temp table, then insert the ones not yet stored; returns rows inserted."""
    if not facts:
        return 0
    if fiscal_quarters is None:
        fiscal_quarters = [None] * len(facts)
    conn.execute(FACTS_TEMP_DROP)
    conn.execute(FACTS_TEMP)
    with conn.cursor() as cur:
        with cur.copy(FACTS_COPY) as copy:
            for f, fiscal_year, quarter in zip(facts, fiscal_years, fiscal_quarters, strict=True):
                copy.write_row((
                    int(cik), f.accession, f.taxonomy, f.concept, f.unit, f.value, f.decimals, f.period_start,
                    f.period_end, fiscal_year, f.fy, f.fp, f.form, f.frame, f.filed, bool(f.dims), Jsonb(f.dims),
                    f.source, fact_key(cik, f), quarter,
                ))  # fmt: skip
        cur.execute(FACTS_MERGE)
        inserted = cur.rowcount
    conn.execute(FACTS_TEMP_DROP)
    return inserted


def replace_companyfacts(conn: psycopg.Connection, cik: int, facts: Sequence[Fact], fiscal_years: Sequence[int | None],
                         fiscal_quarters: Sequence[int | None] | None = None) -> int:  # fmt: skip
    """A company's companyfacts, replaced whole (SEC republishes the file whole). Call in a transaction."""
    conn.execute(DELETE_COMPANYFACTS, (int(cik),))
    return insert_facts(conn, cik, facts, fiscal_years, fiscal_quarters)


def fiscal_year_anchors(conn: psycopg.Connection, cik: int) -> list[tuple[date, int]]:
    """(fiscal year end, label) pairs from the company's 10-K covers and its companyfacts 10-Ks;
    for a company with neither, the year ends its 10-Q covers imply."""
    pairs = [(end, fy) for end, fy in conn.execute(FILING_ANCHORS, (int(cik),)).fetchall()]
    pairs += [(end, fy) for _acc, end, fy in conn.execute(COMPANYFACTS_ANCHORS, (int(cik),)).fetchall()]
    if not pairs:
        pairs = [(end, fy) for end, fy in conn.execute(QUARTER_ANCHORS, (int(cik),)).fetchall()]
    return pairs


def quarter_ends(conn: psycopg.Connection, cik: int) -> dict[date, int]:
    """{period end: fiscal quarter} from the company's 10-Qs (see QUARTER_ENDS)."""
    return {end: q for end, q in conn.execute(QUARTER_ENDS, {"cik": int(cik)}).fetchall() if end is not None}


def refresh_fiscal_years(conn: psycopg.Connection, cik: int) -> int:
    """Recompute every fact's fiscal year and quarter from the company's current anchors; returns
    rows changed.

    A filing ingested later can add an anchor that settles the year of an older fact, so the
    pipeline calls this once per company whose data changed.
    """
    from store.fiscal import fiscal_periods
    from store.fiscal import fiscal_year_anchors as dedupe

    anchors = dedupe(fiscal_year_anchors(conn, cik))
    if not anchors:
        return 0
    ends = quarter_ends(conn, cik)
    rows = conn.execute(COMPANY_FACT_PERIODS, (int(cik),)).fetchall()
    periods = fiscal_periods((end for _fid, end, _y, _q in rows), anchors, ends)
    changes = [(fid, *periods[end]) for fid, end, old_year, old_quarter in rows if periods[end] != (old_year, old_quarter)]
    if changes:
        conn.execute(PERIODS_TEMP_DROP)
        conn.execute(PERIODS_TEMP)
        with conn.cursor() as cur:
            with cur.copy(PERIODS_COPY) as copy:
                for row in changes:
                    copy.write_row(row)
            cur.execute(PERIODS_MERGE)
        conn.execute(PERIODS_TEMP_DROP)
    return len(changes)


def company_ciks(conn: psycopg.Connection) -> list[int]:
    return [int(r[0]) for r in conn.execute(COMPANIES).fetchall()]
