"""What the corpus covers: companies, their fiscal years and filings, and how much was ingested.

Counts come from one grouped query per table, not one query per company, so `footnote tickers`
and the bot's "which companies do you cover?" stay fast on a few hundred companies.
"""

from __future__ import annotations

COVERAGE_SQL = """
SELECT c.cik, c.name, c.tickers,
       coalesce(f.fiscal_years, '{}') AS fiscal_years,
       coalesce(f.n, 0) AS filings,
       coalesce(k.n, 0) AS chunks,
       coalesce(x.n, 0) AS facts
FROM companies c
LEFT JOIN (SELECT cik, array_agg(DISTINCT fiscal_year ORDER BY fiscal_year) AS fiscal_years, count(*) AS n
           FROM filings GROUP BY cik) f ON f.cik = c.cik
LEFT JOIN (SELECT cik, count(*) AS n FROM chunks GROUP BY cik) k ON k.cik = c.cik
LEFT JOIN (SELECT cik, count(*) AS n FROM facts GROUP BY cik) x ON x.cik = c.cik
ORDER BY c.tickers[1] NULLS LAST, c.name
"""

FILINGS_SQL = """
SELECT f.accession, f.form, f.fiscal_year, f.period_end, f.filed, f.url
FROM filings f JOIN companies c ON c.cik = f.cik
WHERE %s = ANY(c.tickers)
ORDER BY f.fiscal_year DESC, f.period_end DESC
"""


def coverage(conn, filter_text: str | None = None) -> list[dict]:
    """[{ticker, cik, name, fiscal_years, filings, chunks, facts}], optionally filtered by a
    case-insensitive substring of the ticker or name."""
    rows = conn.execute(COVERAGE_SQL).fetchall()
    out = []
    needle = (filter_text or "").strip().lower()
    for cik, name, tickers, years, filings, chunks, facts in rows:
        ticker = tickers[0] if tickers else ""
        if needle and needle not in name.lower() and not any(needle == t.lower() or needle in t.lower() for t in tickers):
            continue
        out.append(
            {"ticker": ticker, "cik": int(cik), "name": name, "fiscal_years": list(years),
             "filings": int(filings), "chunks": int(chunks), "facts": int(facts)}
        )
    return out


def filings(conn, ticker: str) -> list[dict]:
    """A company's ingested filings, newest first."""
    rows = conn.execute(FILINGS_SQL, (ticker.upper(),)).fetchall()
    return [
        {"accession": a, "form": form, "fiscal_year": fy, "period_end": pe, "filed": filed, "url": url}
        for a, form, fy, pe, filed, url in rows
    ]


def company_filings(conn, ticker: str) -> list[dict]:
    """[{accession, form, fiscal_year, period_end, filed, url}] for a ticker, newest first."""
    return filings(conn, ticker)
