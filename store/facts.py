"""Exact XBRL figures for one company and fiscal year, and which filing reported them.

Why it is careful: several filings report the same period (each 10-K repeats two or three prior
years), and their values can differ after a restatement or a stock split. The rule: among the
acceptable concepts, the first that has a value wins; among the filings that report that period,
the most recent (by filing date, then by the reporting filing's fiscal year) wins, unless the
question names a filing (`as_of_accession`). Only non-dimensional facts count (a segment's
revenue is not the company's revenue).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from decimal import Decimal

import psycopg


# An annual duration: 52/53-week years and calendar years (store.fiscal.is_annual uses 357..378).
ANNUAL_DAYS = (350, 380)
# Only annual reports count: companyfacts also carries us-gaap facts from proxy statements (pay
# versus performance tables repeat five years of net income), 10-Qs (prior year-end balance
# sheets) and 8-Ks. A fact without a form came from an ingested 10-K document.
TEN_K = "coalesce({alias}form, '10-K') IN ('10-K', '10-K/A', '10-KT', '10-KT/A', '10-K405')"

# The filings table holds 10-Qs too (form '10-Q', fiscal_period Q1-Q3); every query here is about
# fiscal years, so it reads the annual reports (form LIKE '10-K%') among them.
# The fiscal year's end date: an ingested 10-K's period end, else the end of an annual duration
# fact labelled with that fiscal year (companyfacts cover years whose documents are not ingested),
# else the latest balance-sheet date a 10-K reports for that year (the prior-year column).
FISCAL_YEAR_END = """
SELECT coalesce(
    (SELECT max(period_end) FROM filings WHERE cik = %(cik)s AND fiscal_year = %(fy)s AND form LIKE '10-K%%'),
    (SELECT max(period_end) FROM facts
      WHERE cik = %(cik)s AND fiscal_year = %(fy)s AND NOT dimensional AND period_start IS NOT NULL
        AND period_end - period_start BETWEEN 350 AND 380 AND {ten_k}),
    (SELECT max(period_end) FROM facts
      WHERE cik = %(cik)s AND fiscal_year = %(fy)s AND NOT dimensional AND period_start IS NULL
        AND taxonomy <> 'dei' AND {ten_k})
)
""".format(ten_k=TEN_K.format(alias=""))

# Concepts nearly every 10-K reports for its fiscal year: which years a company has, and which
# accession closes a year, are read from these alone, so the (cik, concept, fiscal_year) index serves.
CORE_CONCEPTS = [
    "NetIncomeLoss", "ProfitLoss", "Revenues", "RevenueFromContractWithCustomerExcludingAssessedTax",
    "SalesRevenueNet", "NetCashProvidedByUsedInOperatingActivities", "OperatingIncomeLoss",
    "EarningsPerShareDiluted", "EarningsPerShareBasic",
]

# One query for every candidate: durations of a year labelled with the fiscal year, instants of
# that fiscal year (at its end, when an ingested 10-K gives the date), and dei cover facts (shares
# outstanding) from the 10-K that closes the fiscal year. `names` lets the index find the rows.
ANNUAL_VALUE = """
WITH fy_end AS (SELECT max(period_end) AS d FROM filings
                 WHERE cik = %(cik)s AND fiscal_year = %(fy)s AND form LIKE '10-K%%')
SELECT f.id, f.cik, f.taxonomy, f.concept, f.unit, f.value, f.decimals, f.period_start, f.period_end,
       f.fiscal_year, f.accession, coalesce(f.filed, fl.filed) AS filed, coalesce(fl.form, f.form) AS form,
       coalesce(fl.fiscal_year, f.fy) AS filing_fy, fl.url AS filing_url
  FROM facts f
  CROSS JOIN fy_end
  LEFT JOIN filings fl ON fl.accession = f.accession
 WHERE f.cik = %(cik)s
   AND NOT f.dimensional
   AND f.concept = ANY(%(names)s)
   AND (f.taxonomy || ':' || f.concept) = ANY(%(concepts)s)
   AND (%(unit)s::text IS NULL OR f.unit = %(unit)s)
   AND (%(as_of)s::text IS NULL OR f.accession = %(as_of)s)
   AND coalesce(f.form, fl.form, '10-K') IN ('10-K', '10-K/A', '10-KT', '10-KT/A', '10-K405')
   AND (
        (f.taxonomy <> 'dei' AND f.fiscal_year = %(fy)s AND f.period_start IS NOT NULL
         AND f.period_end - f.period_start BETWEEN 350 AND 380)
     OR (f.taxonomy <> 'dei' AND f.fiscal_year = %(fy)s AND f.period_start IS NULL
         AND (fy_end.d IS NULL OR f.period_end = fy_end.d))
     OR (f.taxonomy = 'dei' AND coalesce(fl.fiscal_year, f.fy) = %(fy)s)
   )
 ORDER BY array_position(%(concepts)s, f.taxonomy || ':' || f.concept),
          coalesce(f.filed, fl.filed) DESC NULLS LAST,
          coalesce(fl.fiscal_year, f.fy) DESC NULLS LAST,
          f.period_end DESC,
          f.accession DESC
 LIMIT 1
"""

AVAILABLE_YEARS = """
SELECT fiscal_year FROM filings WHERE cik = %(cik)s AND form LIKE '10-K%%'
UNION
SELECT DISTINCT fiscal_year FROM facts
 WHERE cik = %(cik)s AND concept = ANY(%(core)s) AND fiscal_year IS NOT NULL AND NOT dimensional
   AND period_start IS NOT NULL AND period_end - period_start BETWEEN 350 AND 380 AND {ten_k}
 ORDER BY 1
""".format(ten_k=TEN_K.format(alias=""))

FILING_FOR = """
SELECT accession, cik, form, fiscal_year, period_end, filed, url
  FROM filings
 WHERE cik = %(cik)s AND fiscal_year = %(fy)s AND form LIKE '10-K%%'
 ORDER BY (form = '10-K') DESC, filed DESC NULLS LAST, accession DESC
 LIMIT 1
"""

# No ingested document for that year: the 10-K whose facts close it, known from companyfacts.
FILING_FROM_FACTS = """
SELECT accession, cik, coalesce(form, '10-K') AS form, fy, max(period_end) AS period_end, max(filed) AS filed
  FROM facts
 WHERE cik = %(cik)s AND concept = ANY(%(core)s) AND fiscal_year = %(fy)s AND fy = %(fy)s
   AND {ten_k} AND NOT dimensional
 GROUP BY accession, cik, coalesce(form, '10-K'), fy
 ORDER BY (coalesce(form, '10-K') = '10-K') DESC, max(filed) DESC NULLS LAST, accession DESC
 LIMIT 1
""".format(ten_k=TEN_K.format(alias=""))


# XBRL's dimensionless unit holds rates as fractions (0.241) and counts alike (39,680 restaurants): a
# concept that names a number of things is a count, or its figure would read as 3,968,000%.
_COUNT_CONCEPT = re.compile(r"(?:^|[a-z])NumberOf[A-Z]|^Number[A-Z]")


def reading_unit(concept: str, unit: str) -> str:
    """The unit a figure is read in: "count" for a dimensionless count, else the fact's own unit."""
    return "count" if unit == "pure" and _COUNT_CONCEPT.search(concept.rsplit(":", 1)[-1]) else unit


@dataclass(frozen=True)
class FactRow:
    id: int
    cik: int
    taxonomy: str
    concept: str
    unit: str
    value: Decimal
    decimals: str | None
    period_start: date | None
    period_end: date
    fiscal_year: int | None  # the fiscal year the period belongs to
    accession: str  # the filing that reported it
    filed: date | None
    form: str | None
    filing_fiscal_year: int | None  # the reporting filing's own fiscal year
    url: str  # the SEC document when ingested, else the EDGAR filing index

    @property
    def qualified_concept(self) -> str:
        return f"{self.taxonomy}:{self.concept}"


@dataclass(frozen=True)
class FilingRow:
    accession: str
    cik: int
    form: str
    fiscal_year: int
    period_end: date
    filed: date | None
    url: str
    ingested: bool  # False when known only from companyfacts (no document text to cite)


def edgar_index_url(cik: int, accession: str) -> str:
    """The EDGAR filing index page for an accession (what we cite when the document is not ingested)."""
    if not accession or accession.startswith("noacc"):
        return f"https://www.sec.gov/cgi-bin/browse-edgar?action=getcompany&CIK={int(cik)}&type=10-K"
    return f"https://www.sec.gov/Archives/edgar/data/{int(cik)}/{accession.replace('-', '')}/{accession}-index.htm"


def _qualify(concepts: list[str] | tuple[str, ...]) -> list[str]:
    return [c if ":" in c else f"us-gaap:{c}" for c in concepts]


def fiscal_year_end(conn: psycopg.Connection, cik: int, fiscal_year: int) -> date | None:
    row = conn.execute(FISCAL_YEAR_END, {"cik": cik, "fy": fiscal_year}).fetchone()
    return row[0] if row else None


def annual_value(
    conn: psycopg.Connection,
    cik: int,
    concepts: list[str] | tuple[str, ...],
    fiscal_year: int,
    *,
    as_of_accession: str | None = None,
    unit: str | None = None,
) -> FactRow | None:
    """The company's value for the fiscal year from the first concept that has one, or None.

    Concepts are "taxonomy:Name" (a bare name means us-gaap). Durations must span one year and
    belong to the fiscal year; instants must belong to it too, and fall on its end when an
    ingested 10-K gives that date.
    """
    qualified = _qualify(concepts)
    if not qualified:
        return None
    row = conn.execute(
        ANNUAL_VALUE,
        {"cik": cik, "concepts": qualified, "names": [c.split(":", 1)[1] for c in qualified], "fy": fiscal_year,
         "as_of": as_of_accession, "unit": unit},
    ).fetchone()
    if row is None:
        return None
    (fid, fcik, taxonomy, concept, funit, value, decimals, pstart, pend, fyear, accession, filed, form,
     filing_fy, filing_url) = row
    return FactRow(
        id=fid, cik=fcik, taxonomy=taxonomy, concept=concept, unit=reading_unit(concept, funit), value=Decimal(value),
        decimals=decimals, period_start=pstart, period_end=pend, fiscal_year=fyear, accession=accession,
        filed=filed, form=form, filing_fiscal_year=filing_fy,
        url=filing_url or edgar_index_url(fcik, accession),
    )


def available_fiscal_years(conn: psycopg.Connection, cik: int) -> list[int]:
    """Fiscal years with an ingested 10-K or with annual facts, ascending."""
    rows = conn.execute(AVAILABLE_YEARS, {"cik": cik, "core": CORE_CONCEPTS}).fetchall()
    return [r[0] for r in rows if r[0] is not None]


def latest_fiscal_year(conn: psycopg.Connection, cik: int) -> int | None:
    years = available_fiscal_years(conn, cik)
    return years[-1] if years else None


def filing_for(conn: psycopg.Connection, cik: int, fiscal_year: int) -> FilingRow | None:
    """The 10-K for that fiscal year: the ingested document if any, else the one companyfacts names."""
    row = conn.execute(FILING_FOR, {"cik": cik, "fy": fiscal_year}).fetchone()
    if row:
        accession, rcik, form, fy, period_end, filed, url = row
        return FilingRow(accession, rcik, form, fy, period_end, filed, url or edgar_index_url(rcik, accession), True)
    row = conn.execute(FILING_FROM_FACTS, {"cik": cik, "fy": fiscal_year, "core": CORE_CONCEPTS}).fetchone()
    if row:
        accession, rcik, form, fy, period_end, filed = row
        return FilingRow(accession, rcik, form, fy, period_end, filed, edgar_index_url(rcik, accession), False)
    return None


VALUES_IN_FILINGS = """
SELECT k.n, f.value
  FROM unnest(%(ciks)s::bigint[], %(accessions)s::text[], %(names)s::text[], %(concepts)s::text[], %(ends)s::date[])
       WITH ORDINALITY AS k(cik, accession, name, concept, period_end, n)
  JOIN facts f ON f.cik = k.cik AND f.accession = k.accession AND f.concept = k.name
              AND f.taxonomy || ':' || f.concept = k.concept AND NOT f.dimensional AND f.period_end = k.period_end
"""


def values_in_filings(conn: psycopg.Connection, asked: list[tuple[int, str, str, date]]) -> list[list[Decimal]]:
    """The values each filing of `asked` ((cik, accession, concept "taxonomy:Name", period end)) reports for the
    concept and period end, without dimensions, in one query: what a year's own 10-K printed for a figure a later
    10-K restated, for every cell of a table at once."""
    out: list[list[Decimal]] = [[] for _ in asked]
    if not asked:
        return out
    rows = conn.execute(VALUES_IN_FILINGS, {
        "ciks": [a[0] for a in asked], "accessions": [a[1] for a in asked],
        "names": [a[2].split(":", 1)[-1] for a in asked], "concepts": [a[2] for a in asked],
        "ends": [a[3] for a in asked]}).fetchall()
    for n, value in rows:
        out[n - 1].append(Decimal(value))
    return out
