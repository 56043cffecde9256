"""Every reported period of a few concepts for one company: quarters, years to date, years, balances.

Why not `facts.annual_value`: a quarter is chosen by its exact start and end, among the three
periods a 10-Q reports for one line (the quarter, the year to date, and both a year earlier), and
a fourth quarter or a trailing twelve months is computed from a year and a year to date. So this
returns the candidate rows with their exact dates and the filing that reported each, and
agent.retrieval.quarters picks. Only non-dimensional facts of 10-Q and 10-K filings count (a segment's
revenue is not the company's; a proxy statement's table is not a report of the period).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import date
from decimal import Decimal

import psycopg

from store.facts import edgar_index_url, reading_unit
from store.segments import mistagged

PERIOD_FACTS = """
SELECT f.id, f.taxonomy, f.concept, f.unit, f.value, f.period_start, f.period_end, f.fiscal_year, f.accession,
       coalesce(f.filed, fl.filed) AS filed, coalesce(fl.form, f.form, '10-K') AS form,
       coalesce(fl.fiscal_year, f.fy) AS filing_fy, fl.fiscal_period AS filing_fp, f.fp, fl.url, fl.period_end AS filing_end,
       f.fiscal_quarter
  FROM facts f
  LEFT JOIN filings fl ON fl.accession = f.accession
 WHERE f.cik = %(cik)s
   AND NOT f.dimensional
   AND f.concept = ANY(%(names)s)
   AND (f.taxonomy || ':' || f.concept) = ANY(%(concepts)s)
   AND (%(unit)s::text IS NULL OR f.unit = %(unit)s)
   AND coalesce(fl.form, f.form, '10-K') IN ('10-Q', '10-Q/A', '10-K', '10-K/A', '10-KT', '10-KT/A')
"""

# One member's every reported period of the concepts: facts whose only dimension (beside the mark that a figure is
# an operating segment's) is that member, as store.segments reads a year's member figures.
MEMBER_PERIOD_FACTS = PERIOD_FACTS.replace("AND NOT f.dimensional", """AND f.dimensional
   AND (SELECT count(*) FROM jsonb_object_keys(f.dims - 'srt:ConsolidationItemsAxis' - 'srt:ConsolidatedEntitiesAxis')) = 1
   AND coalesce(f.dims ->> 'srt:ConsolidationItemsAxis', 'us-gaap:OperatingSegmentsMember') = 'us-gaap:OperatingSegmentsMember'
   AND coalesce(f.dims ->> 'srt:ConsolidatedEntitiesAxis', 'us-gaap:OperatingSegmentsMember') = 'us-gaap:OperatingSegmentsMember'
   AND (f.dims - 'srt:ConsolidationItemsAxis' - 'srt:ConsolidatedEntitiesAxis') ->> %(axis)s = ANY(%(members)s)""")

# The members a company tags on one axis for the concepts, in any filing: a member renamed between filings
# ("WalmartInternationalSegmentMember" in a 10-Q, "WalmartInternationalMember" in the next 10-K) is found by name.
AXIS_MEMBERS = """
SELECT DISTINCT d.key, d.value
  FROM facts f, jsonb_each_text(f.dims) d
 WHERE f.cik = %(cik)s AND f.dimensional
   AND d.key NOT IN ('srt:ConsolidationItemsAxis', 'srt:ConsolidatedEntitiesAxis')
   AND f.concept = ANY(%(names)s) AND (f.taxonomy || ':' || f.concept) = ANY(%(concepts)s)
"""

# Which filings a company has, quarterly and annual, with the period each one closes.
FILINGS = """
SELECT accession, form, fiscal_year, fiscal_period, period_end, filed, url
  FROM filings WHERE cik = %(cik)s
 ORDER BY period_end
"""


@dataclass(frozen=True)
class PeriodFact:
    id: int
    concept: str  # taxonomy:Name
    unit: str
    value: Decimal
    start: date | None
    end: date
    fiscal_year: int | None  # the fiscal year the period belongs to
    accession: str
    filed: date | None
    form: str
    filing_fiscal_year: int | None
    filing_period: str | None  # the reporting filing's own fiscal period (Q1..Q3, FY), when known
    url: str
    own_period: bool  # the reporting filing's own period ends on this fact's end (not a comparative)
    fiscal_quarter: int | None = None  # the quarter whose end the period's end is, as ingest placed it
    dims: dict = field(default_factory=dict, compare=False)  # {axis: member} of a member's figure; {} for the company's

    @property
    def days(self) -> int | None:
        return None if self.start is None else (self.end - self.start).days


def period_facts(conn: psycopg.Connection, cik: int, concepts: list[str], unit: str | None = None) -> list[PeriodFact]:
    """Every reported period of the concepts ("taxonomy:Name"; a bare name is us-gaap)."""
    qualified = [c if ":" in c else f"us-gaap:{c}" for c in concepts]
    if not qualified:
        return []
    rows = conn.execute(PERIOD_FACTS, {"cik": cik, "concepts": qualified, "names": [c.split(":", 1)[1] for c in qualified],
                                       "unit": unit}).fetchall()
    return _period_facts(cik, rows)


def axis_members(conn: psycopg.Connection, cik: int, concepts: list[str]) -> list[tuple[str, str]]:
    """Every (axis, member QName) the company tags the concepts on, in any filing held."""
    qualified = [c if ":" in c else f"us-gaap:{c}" for c in concepts]
    rows = conn.execute(AXIS_MEMBERS, {"cik": cik, "concepts": qualified,
                                       "names": [c.split(":", 1)[1] for c in qualified]}).fetchall()
    return sorted((a, m) for a, m in rows if a and m)


def member_period_facts(conn: psycopg.Connection, cik: int, concepts: list[str], axis: str, member: str,
                        unit: str | None = None, wrong: set[tuple[str, str, str]] | None = None) -> list[PeriodFact]:
    """Every reported period of the concepts on one member of one axis ("Data Center" on the product axis): a
    segment's, product's or region's quarters, as `period_facts` gives the company's. A member tagged both
    plainly and beside "operating segments" in one filing for one period is its plain fact (store.segments)."""
    qualified = [c if ":" in c else f"us-gaap:{c}" for c in concepts]
    if not qualified:
        return []
    query = MEMBER_PERIOD_FACTS.replace("SELECT f.id,", "SELECT (f.dims ? 'srt:ConsolidationItemsAxis' OR "
                                        "f.dims ? 'srt:ConsolidatedEntitiesAxis') AS marked, f.id,")
    rows = conn.execute(query, {"cik": cik, "concepts": qualified, "names": [c.split(":", 1)[1] for c in qualified],
                                "unit": unit, "axis": axis, "members": [member]}
                        ).fetchall()
    plain = {(r[3], r[6], r[7], r[9]) for r in rows if not r[0]}  # (concept, start, end, accession)
    if rows and wrong is None:
        wrong = mistagged(conn, cik)
    off = {acc for acc, a, m in wrong or () if (a, m) == (axis, member)}
    kept = [r[1:] for r in rows if (not r[0] or (r[3], r[6], r[7], r[9]) not in plain) and r[9] not in off]
    # the member's dimension rides along, so an answer's figure says which member it is
    return [replace(f, dims={axis: member}) for f in _period_facts(cik, kept)]


def _period_facts(cik: int, rows: list[tuple]) -> list[PeriodFact]:
    out = []
    for (fid, taxonomy, concept, funit, value, start, end, fy, accession, filed, form, filing_fy, filing_fp, fp, url,
         filing_end, fiscal_quarter) in rows:
        out.append(PeriodFact(
            id=fid, concept=f"{taxonomy}:{concept}", unit=reading_unit(concept, funit), value=Decimal(value), start=start, end=end,
            fiscal_year=fy, accession=accession, filed=filed, form=form, filing_fiscal_year=filing_fy,
            filing_period=filing_fp or fp, url=url or edgar_index_url(cik, accession),
            own_period=filing_end == end if filing_end is not None else False, fiscal_quarter=fiscal_quarter,
        ))
    return out


@dataclass(frozen=True)
class Filing:
    accession: str
    form: str
    fiscal_year: int
    fiscal_period: str | None
    period_end: date
    filed: date | None
    url: str | None


def filings(conn: psycopg.Connection, cik: int) -> list[Filing]:
    return [Filing(*row) for row in conn.execute(FILINGS, {"cik": cik}).fetchall()]


# One Item of one filing, in document order: what a 10-Q's risk factors add to the 10-K's.
SECTION_CHUNKS = """
SELECT c.id, c.accession, c.cik, c.item, c.ordinal, c.is_table, c.text, f.fiscal_year, f.form, f.url, f.period_end
  FROM chunks c JOIN filings f ON f.accession = c.accession
 WHERE c.accession = %(accession)s AND c.item = %(item)s
 ORDER BY c.ordinal
"""


def section_chunks(conn: psycopg.Connection, accession: str, item: str) -> list:
    """The chunks of one Item of one filing, in order (store.chunks.ChunkHit, score 1)."""
    from store.chunks import ChunkHit

    return [ChunkHit(*row, score=1.0) for row in conn.execute(SECTION_CHUNKS, {"accession": accession, "item": item}).fetchall()]
