"""What the corpus covers: companies, their fiscal years and quarters, filings, and how much was ingested.

Counts come from one grouped query per table, not one query per company, so `footnote tickers`
and the bot's "which companies do you cover?" stay fast on a few hundred companies.
"""

from __future__ import annotations

from store.display_names import display_name
from store.facts import CORE_CONCEPTS, TEN_K

COVERAGE_SQL = """
SELECT c.cik, c.name, c.tickers,
       coalesce(f.fiscal_years, '{}') AS fiscal_years,
       coalesce(f.n, 0) AS filings,
       coalesce(k.n, 0) AS chunks,
       coalesce(x.n, 0) AS facts,
       coalesce(f.quarters, '{}') AS quarters
FROM companies c
LEFT JOIN (SELECT cik,
                  array_agg(DISTINCT fiscal_year ORDER BY fiscal_year) FILTER (WHERE form LIKE '10-K%') AS fiscal_years,
                  -- fiscal year * 10 + quarter: 20242 is Q2 FY2024
                  array_agg(DISTINCT fiscal_year * 10 + CASE fiscal_period WHEN 'Q1' THEN 1 WHEN 'Q2' THEN 2
                                                                            WHEN 'Q3' THEN 3 WHEN 'Q4' THEN 4 END)
                      FILTER (WHERE form LIKE '10-Q%' AND fiscal_period IN ('Q1', 'Q2', 'Q3', 'Q4')) AS quarters,
                  count(*) AS n
           FROM filings GROUP BY cik) f ON f.cik = c.cik
LEFT JOIN (SELECT cik, count(*) AS n FROM chunks GROUP BY cik) k ON k.cik = c.cik
LEFT JOIN (SELECT cik, count(*) AS n FROM facts GROUP BY cik) x ON x.cik = c.cik
ORDER BY c.tickers[1] NULLS LAST, c.name
"""

# Fiscal years a company has annual figures for, by the rule store.facts.available_fiscal_years
# applies per company: companyfacts and the comparatives of later 10-Ks reach years whose own
# filing was never ingested, so a year can be answerable for figures but not for what it says.
FIGURE_YEARS_SQL = """
SELECT cik, array_agg(DISTINCT fiscal_year ORDER BY fiscal_year)
  FROM facts
 WHERE concept = ANY(%(core)s) AND fiscal_year IS NOT NULL AND NOT dimensional
   AND period_start IS NOT NULL AND period_end - period_start BETWEEN 350 AND 380 AND {ten_k}
 GROUP BY cik
""".format(ten_k=TEN_K.format(alias=""))

FILINGS_SQL = """
SELECT f.accession, f.form, f.fiscal_year, f.period_end, f.filed, f.url, f.fiscal_period
FROM filings f JOIN companies c ON c.cik = f.cik
WHERE %s = ANY(c.tickers)
ORDER BY f.fiscal_year DESC, f.period_end DESC
"""


def coverage(conn, filter_text: str | None = None) -> list[dict]:
    """[{ticker, cik, name, display_name, fiscal_years, figures_only_years, quarters, filings, chunks,
    facts}], optionally filtered by a case-insensitive substring of the ticker or either name.

    `fiscal_years` have an ingested 10-K: figures and what the filing says. `figures_only_years`
    have reported figures (from companyfacts, or a later 10-K's prior-year columns) but no filing
    text, so a question about what the company said that year cannot be answered. `quarters` are
    the (fiscal year, quarter) pairs with an ingested 10-Q, ascending: [(2024, 1), (2024, 2)].
    `filings` counts both forms.
    """
    rows = conn.execute(COVERAGE_SQL).fetchall()
    needle = (filter_text or "").strip().lower()
    figure_years = None
    out = []
    for cik, name, tickers, years, filings, chunks, facts, quarters in rows:
        ticker = tickers[0] if tickers else ""
        shown = display_name(name)
        if needle and needle not in name.lower() and needle not in shown.lower() \
                and not any(needle in t.lower() for t in tickers):
            continue
        if figure_years is None:
            figure_years = dict(conn.execute(FIGURE_YEARS_SQL, {"core": CORE_CONCEPTS}).fetchall())
        filed = [int(y) for y in years]
        out.append(
            {"ticker": ticker, "cik": int(cik), "name": name, "display_name": shown, "fiscal_years": filed,
             "figures_only_years": [int(y) for y in figure_years.get(cik) or [] if int(y) not in filed],
             "quarters": sorted(divmod(int(q), 10) for q in quarters or []),
             "filings": int(filings), "chunks": int(chunks), "facts": int(facts)}
        )
    return out


def years_text(years, *, prefix: str = "FY") -> str:
    """[2019, 2020, 2021, 2023] -> 'FY2019–FY2021, FY2023': runs of three or more collapse."""
    ys = sorted({int(y) for y in years or []})
    parts, start = [], 0
    for i in range(1, len(ys) + 1):
        if i == len(ys) or ys[i] != ys[i - 1] + 1:
            run = ys[start:i]
            if len(run) >= 3:
                parts.append(f"{prefix}{run[0]}–{prefix}{run[-1]}")
            else:
                parts.extend(f"{prefix}{y}" for y in run)
            start = i
    return ", ".join(parts)


def quarters_text(quarters, *, years=()) -> str:
    """What a company holds, per fiscal year: [(2024, 1), (2024, 2)] with 10-K years [2023, 2024] ->
    'FY2023: 10-K; FY2024: 10-K, Q1–Q2 10-Q'. Runs of quarters collapse ('Q1–Q3'; 'Q1, Q3')."""
    by_year: dict[int, list[int]] = {int(y): [] for y in years or []}
    for fy, q in quarters or []:
        by_year.setdefault(int(fy), []).append(int(q))
    annual = {int(y) for y in years or []}
    parts = []
    for fy in sorted(by_year):
        held = ["10-K"] if fy in annual else []
        qs = sorted(set(by_year[fy]))
        if qs:
            runs = _runs(qs)
            held.append(", ".join(f"Q{a}" if a == b else f"Q{a}–Q{b}" for a, b in runs) + " 10-Q")
        parts.append(f"FY{fy}: {', '.join(held)}")
    return "; ".join(parts)


def _runs(values: list[int]) -> list[tuple[int, int]]:
    runs: list[tuple[int, int]] = []
    for v in values:
        if runs and v == runs[-1][1] + 1:
            runs[-1] = (runs[-1][0], v)
        else:
            runs.append((v, v))
    return runs


def filing_period(row: dict) -> str:
    """A filing's period in the company's terms: 'FY2024' for a 10-K, 'Q2 FY2024' for a 10-Q."""
    period = row.get("fiscal_period") or "FY"
    return f"FY{row['fiscal_year']}" if period == "FY" else f"{period} FY{row['fiscal_year']}"


def plural(n: int, word: str, words: str | None = None) -> str:
    """'1 company', '2 companies', '1 filing'."""
    return f"{n} {word if n == 1 else (words or word + 's')}"


def filings(conn, ticker: str) -> list[dict]:
    """A company's ingested filings (10-Ks and 10-Qs), newest first."""
    rows = conn.execute(FILINGS_SQL, (ticker.upper(),)).fetchall()
    return [
        {"accession": a, "form": form, "fiscal_year": fy, "fiscal_period": fp, "period_end": pe, "filed": filed,
         "url": url}
        for a, form, fy, pe, filed, url, fp in rows
    ]


def company_filings(conn, ticker: str) -> list[dict]:
    """[{accession, form, fiscal_year, fiscal_period, period_end, filed, url}] for a ticker, newest first."""
    return filings(conn, ticker)
