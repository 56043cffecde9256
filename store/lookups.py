"""Plain reads the evals score answers against: a ticker's CIK, chunk and Item texts, whether a fact
with a value exists, and the bare dense search the baseline measures.

They read the tables directly rather than through the agent's code paths, so a bug in the agent's
retrieval cannot make its own answers look grounded.
"""

from __future__ import annotations

CIK_FOR_TICKER = "SELECT cik FROM companies WHERE %s = ANY(tickers) ORDER BY cik LIMIT 1"
COMPANY_NAME = "SELECT name FROM companies WHERE cik = %s"
CHUNK_TEXT = "SELECT text FROM chunks WHERE id = %s"
CHUNKS_OF_ITEM = "SELECT text FROM chunks WHERE accession = %s AND item = %s ORDER BY ordinal"
FACT_WITH_VALUE = """
SELECT 1 FROM facts
WHERE cik = %s AND taxonomy = %s AND concept = %s AND value = %s AND (%s OR NOT dimensional)
  AND (%s::int IS NULL OR fiscal_year = %s::int)
LIMIT 1
"""
FACT_IN_FILING = """
SELECT 1 FROM facts
WHERE accession = %s AND taxonomy = %s AND concept = %s AND value = %s
LIMIT 1
"""
EVIDENCE_CANDIDATES = """
SELECT c.id, c.text FROM chunks c JOIN filings f ON f.accession = c.accession
WHERE c.cik = %(cik)s
  AND (%(fy)s::int IS NULL OR f.fiscal_year = %(fy)s::int)
  AND (%(item)s::text IS NULL OR c.item = %(item)s::text)
"""
# A 10-K Item of one fiscal year: its chunks in order, and the section text they were cut from.
ITEM_CHUNKS = """
SELECT c.text FROM chunks c JOIN filings f ON f.accession = c.accession
WHERE c.cik = %(cik)s AND f.fiscal_year = %(fy)s AND c.item = %(item)s AND f.form LIKE '10-K%%'
ORDER BY c.accession, c.ordinal
"""
ITEM_SECTION = """
SELECT s.text FROM sections s JOIN filings f ON f.accession = s.accession
WHERE f.cik = %(cik)s AND f.fiscal_year = %(fy)s AND s.item = %(item)s AND f.form LIKE '10-K%%'
"""
# The exact scan (index scans off), so the baseline is the method, not an approximation of it.
DENSE_TOP_K = """
SELECT c.id, c.cik
FROM chunks c
ORDER BY c.embedding <=> %s
LIMIT %s
"""
NO_INDEX_SCAN = "SET LOCAL enable_indexscan = off"


def cik_for_ticker(conn, ticker: str) -> int | None:
    row = conn.execute(CIK_FOR_TICKER, (ticker.upper(),)).fetchone()
    return row[0] if row else None


def company_names(conn, cik: int) -> list[str]:
    return [r[0] for r in conn.execute(COMPANY_NAME, (cik,)).fetchall() if r[0]]


def chunk_text(conn, chunk_id: int) -> str | None:
    row = conn.execute(CHUNK_TEXT, (chunk_id,)).fetchone()
    return row[0] if row else None


def item_chunk_texts(conn, accession: str, item: str) -> list[str]:
    """One filing's Item, chunk by chunk."""
    return [r[0] for r in conn.execute(CHUNKS_OF_ITEM, (accession, item)).fetchall()]


def fact_with_value(conn, cik: int, taxonomy: str, concept: str, value, *, dimensional: bool,
                    fiscal_year: int | None) -> bool:  # fmt: skip
    """A stored fact with this value; a member's fact only when `dimensional`."""
    params = (cik, taxonomy, concept, value, dimensional, fiscal_year, fiscal_year)
    return conn.execute(FACT_WITH_VALUE, params).fetchone() is not None


def fact_in_filing(conn, accession: str | None, taxonomy: str, concept: str, value) -> bool:
    return conn.execute(FACT_IN_FILING, (accession, taxonomy, concept, value)).fetchone() is not None


def evidence_candidates(conn, cik: int, fiscal_year: int | None, item: str | None) -> list[tuple[int, str]]:
    """[(chunk id, text)] of a company's chunks, narrowed to a year and an Item when given."""
    return conn.execute(EVIDENCE_CANDIDATES, {"cik": cik, "fy": fiscal_year, "item": item}).fetchall()


def item_chunks(conn, cik: int, fiscal_year: int, item: str) -> list[str]:
    """A 10-K Item's chunk texts, in order."""
    return [r[0] for r in conn.execute(ITEM_CHUNKS, {"cik": cik, "fy": fiscal_year, "item": item}).fetchall()]


def item_sections(conn, cik: int, fiscal_year: int, item: str) -> list[str]:
    """A 10-K Item's section texts (what its chunks were cut from)."""
    return [r[0] for r in conn.execute(ITEM_SECTION, {"cik": cik, "fy": fiscal_year, "item": item}).fetchall()]


def dense_top_k(conn, vector, k: int) -> list[tuple[int, int]]:
    """[(chunk id, cik)] of the k chunks nearest to the vector by an exact scan, best first."""
    with conn.transaction():
        conn.execute(NO_INDEX_SCAN)
        return [(int(r[0]), int(r[1])) for r in conn.execute(DENSE_TOP_K, (vector, k)).fetchall()]
