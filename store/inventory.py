"""What the corpus holds, counted and listed: for health checks, benches and the evals' set-up."""

from __future__ import annotations

PING = "SELECT 1"
FILING_COUNT = "SELECT count(*) FROM filings"
CORPUS_COUNTS = "SELECT (SELECT count(*) FROM filings), (SELECT count(*) FROM chunks), (SELECT count(*) FROM facts)"
INGESTED_TICKERS = "SELECT DISTINCT c.tickers FROM companies c JOIN filings f ON f.cik = c.cik WHERE f.form LIKE %s"
CHUNK_TEXTS = "SELECT context, text FROM chunks ORDER BY id"
COMPANIES_WITH_YEARS = """
SELECT c.cik, c.tickers[1], c.name, array_agg(DISTINCT f.fiscal_year ORDER BY f.fiscal_year)
FROM companies c JOIN filings f ON f.cik = c.cik
GROUP BY c.cik, c.tickers[1], c.name ORDER BY c.tickers[1]
"""
ITEMS_OF_COMPANY = """
SELECT DISTINCT f.fiscal_year, f.accession, s.item
FROM filings f JOIN sections s ON s.accession = f.accession WHERE f.cik = %s
"""


def ping(conn) -> None:
    """One round trip: raises if the database does not answer."""
    conn.execute(PING)


def filing_count(conn) -> int:
    return conn.execute(FILING_COUNT).fetchone()[0]


def corpus_counts(conn) -> tuple[int, int, int]:
    """(filings, chunks, facts)."""
    return tuple(conn.execute(CORPUS_COUNTS).fetchone())


def ingested_tickers(conn, forms: str = "%") -> set[str]:
    """Every ticker of every company with an ingested filing of `forms` (a LIKE pattern: '10-K%')."""
    return {t for (tickers,) in conn.execute(INGESTED_TICKERS, (forms,)).fetchall() for t in tickers or []}


def chunk_texts(conn) -> list[tuple[str, str]]:
    """[(context, text)] of every chunk, in the order they were written."""
    return conn.execute(CHUNK_TEXTS).fetchall()


def companies_with_years(conn) -> list[tuple]:
    """[(cik, first ticker, name, [fiscal years])] of the companies with filings, by ticker."""
    return conn.execute(COMPANIES_WITH_YEARS).fetchall()


def items_of_company(conn, cik: int) -> list[tuple]:
    """[(fiscal_year, accession, item)] of a company's ingested sections."""
    return conn.execute(ITEMS_OF_COMPANY, (cik,)).fetchall()
