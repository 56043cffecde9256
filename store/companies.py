"""Who the store knows: covered companies, SEC's ticker map, and the filings of each fiscal year.

The agent's company directory and its fetch step read these; the rows come back plain, and what
they mean (a display name, a refusal) is the agent's business.
"""

from __future__ import annotations

import psycopg

COVERED = "SELECT cik, name, tickers FROM companies ORDER BY cik"
SEC_TICKERS = "SELECT ticker, cik, title FROM sec_tickers"
# The fiscal years a company has an annual report for (a 10-Q alone does not make its year covered).
FILING_YEARS = "SELECT DISTINCT cik, fiscal_year FROM filings WHERE form LIKE '10-K%' ORDER BY 1, 2"
# The companies held through their 10-Qs alone: no annual report of theirs at all.
QUARTERS_ONLY = "SELECT cik FROM filings GROUP BY cik HAVING bool_and(form NOT LIKE '10-K%%') ORDER BY 1"
COMPANY_BY_TICKER = "SELECT cik, name, tickers FROM companies WHERE %s = ANY(tickers)"
SEC_TITLE = "SELECT cik, title FROM sec_tickers WHERE ticker = %s"
# One filing per fiscal year: the original 10-K over an amendment, then the latest period and filing.
FILINGS_BY_YEAR = """
SELECT DISTINCT ON (fiscal_year) fiscal_year, accession, url, form, period_end, filed
FROM filings WHERE cik = %s AND form LIKE '10-K%%'
ORDER BY fiscal_year DESC, (form = '10-K') DESC, period_end DESC, filed DESC NULLS LAST
"""


def directory_rows(conn: psycopg.Connection) -> tuple[list[tuple], list[tuple], dict[int, list[int]]]:
    """(covered companies as (cik, name, tickers), SEC's (ticker, cik, title), {cik: fiscal years})."""
    covered = [(r[0], r[1], list(r[2] or [])) for r in conn.execute(COVERED).fetchall()]
    sec = conn.execute(SEC_TICKERS).fetchall()
    years: dict[int, list[int]] = {}
    for cik, fy in conn.execute(FILING_YEARS).fetchall():
        years.setdefault(cik, []).append(fy)
    return covered, sec, years


def quarters_only(conn: psycopg.Connection) -> frozenset[int]:
    """The CIKs of the companies whose filings held are all 10-Qs."""
    return frozenset(r[0] for r in conn.execute(QUARTERS_ONLY).fetchall())


def company_by_ticker(conn, ticker: str) -> tuple | None:
    """(cik, name, tickers) of the covered company with this ticker, or None."""
    return conn.execute(COMPANY_BY_TICKER, (ticker.upper(),)).fetchone()


def sec_title(conn, ticker: str) -> tuple | None:
    """(cik, title) from SEC's ticker map, or None."""
    return conn.execute(SEC_TITLE, (ticker.upper(),)).fetchone()


def filings_by_year(conn, cik: int) -> list[tuple]:
    """[(fiscal_year, accession, url, form, period_end, filed)], latest year first (filed: None when not recorded)."""
    return conn.execute(FILINGS_BY_YEAR, (cik,)).fetchall()
