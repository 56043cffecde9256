"""The XBRL facts of one filing whose value falls in given ranges: what an amount quoted from that
filing's prose may be checked against (agent.checking.quoted_figures decides equality; this only narrows).

Why by filing and not by company: a sentence of a 10-K states that 10-K's figures, and the facts the
same 10-K tagged are the ones it can be held to. Served by facts_accession.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal

import psycopg

from store.facts import edgar_index_url, reading_unit

# One row per fact of the accession inside any (low, high, unit family) range, with the row labels the
# same filing printed for its concept (what the fact is called, to tell it from a look-alike value).
# Served by facts_accession and line_labels_accession.
FILING_AMOUNTS = """
SELECT DISTINCT ON (f.id) f.id, f.taxonomy, f.concept, f.unit, f.value, f.period_start, f.period_end,
       f.fiscal_year, f.dims, fl.url, fl.fiscal_year,
       (SELECT string_agg(DISTINCT l.label, ' | ') FROM line_labels l
         WHERE l.accession = f.accession AND l.taxonomy = f.taxonomy AND l.concept = f.concept) AS labels
  FROM facts f
  LEFT JOIN filings fl ON fl.accession = f.accession
  JOIN unnest(%(lows)s::numeric[], %(highs)s::numeric[], %(units)s::text[]) AS r(low, high, unit_family)
    ON abs(f.value) BETWEEN r.low AND r.high AND f.unit = ANY(string_to_array(r.unit_family, ','))
 WHERE f.accession = %(accession)s AND f.taxonomy <> 'dei'
 ORDER BY f.id
"""


@dataclass(frozen=True)
class FilingFact:
    id: int
    concept: str  # qualified
    unit: str
    value: Decimal
    period_start: date | None
    period_end: date
    fiscal_year: int | None
    dims: dict
    url: str
    filing_fiscal_year: int | None
    labels: str  # the filing's own row labels for the concept, ' | '-separated, or ''


def facts_in_ranges(conn: psycopg.Connection, cik: int, accession: str,
                    ranges: list[tuple[Decimal, Decimal, tuple[str, ...]]]) -> list[FilingFact]:
    """Facts of `accession` whose absolute value lies in one of `ranges` (low, high, units),
    totals first, then the latest period."""
    if not ranges:
        return []
    rows = conn.execute(FILING_AMOUNTS, {
        "accession": accession, "lows": [r[0] for r in ranges], "highs": [r[1] for r in ranges],
        "units": [",".join(r[2]) for r in ranges],
    }).fetchall()
    out = [FilingFact(fid, f"{tax}:{concept}", reading_unit(concept, unit), Decimal(value), pstart, pend, fy, dims or {},
                      url or edgar_index_url(cik, accession), ffy, labels or "")
           for fid, tax, concept, unit, value, pstart, pend, fy, dims, url, ffy, labels in rows]
    out.sort(key=lambda f: (bool(f.dims), -f.period_end.toordinal(), f.id))
    return out


# Pairs of facts of the accession, the same concept, unit and dimensions, for periods of the same
# length a year apart, whose change (in money) or relative change (as a fraction) lies in a range:
# what "increased $4.2 billion, or 12%" in that filing's prose may equal. Served by facts_accession.
FILING_CHANGES = """
WITH f AS MATERIALIZED (
    SELECT id, taxonomy, concept, unit, value, period_start, period_end, fiscal_year, dims
      FROM facts
     WHERE accession = %(accession)s AND taxonomy <> 'dei' AND unit = ANY(%(money)s::text[])
)
SELECT DISTINCT a.id, b.id
  FROM f a
  JOIN f b ON b.taxonomy = a.taxonomy AND b.concept = a.concept AND b.unit = a.unit AND b.dims = a.dims
          AND b.period_end BETWEEN a.period_end - 380 AND a.period_end - 350
          AND (a.period_start IS NULL) = (b.period_start IS NULL)
          AND (a.period_start IS NULL
               OR abs((a.period_end - a.period_start) - (b.period_end - b.period_start)) <= 10)
  JOIN unnest(%(lows)s::numeric[], %(highs)s::numeric[], %(relative)s::boolean[]) AS r(low, high, relative)
    ON (NOT r.relative AND abs(a.value - b.value) BETWEEN r.low AND r.high)
    OR (r.relative AND b.value <> 0 AND abs((a.value - b.value) / b.value) BETWEEN r.low AND r.high)
"""


def changes_in_ranges(conn: psycopg.Connection, accession: str, ranges: list[tuple[Decimal, Decimal, bool]],
                      money_units: tuple[str, ...]) -> list[tuple[int, int]]:
    """(later fact id, earlier fact id) of `accession` whose change lies in one of `ranges` (low, high,
    relative: a fraction of the earlier value, else an amount in the facts' unit)."""
    if not ranges:
        return []
    rows = conn.execute(FILING_CHANGES, {
        "accession": accession, "money": list(money_units), "lows": [r[0] for r in ranges],
        "highs": [r[1] for r in ranges], "relative": [r[2] for r in ranges],
    }).fetchall()
    return [(a, b) for a, b in rows]


FACTS_BY_ID = """
SELECT f.id, f.taxonomy, f.concept, f.unit, f.value, f.period_start, f.period_end, f.fiscal_year, f.dims, fl.url,
       fl.fiscal_year,
       (SELECT string_agg(DISTINCT l.label, ' | ') FROM line_labels l
         WHERE l.accession = f.accession AND l.taxonomy = f.taxonomy AND l.concept = f.concept) AS labels
  FROM facts f
  LEFT JOIN filings fl ON fl.accession = f.accession
 WHERE f.id = ANY(%(ids)s::bigint[])
"""


def facts_by_id(conn: psycopg.Connection, cik: int, accession: str, ids: list[int]) -> list[FilingFact]:
    """The facts of `accession` with these ids, as `facts_in_ranges` returns them."""
    if not ids:
        return []
    rows = conn.execute(FACTS_BY_ID, {"ids": list(ids)}).fetchall()
    return [FilingFact(fid, f"{tax}:{concept}", reading_unit(concept, unit), Decimal(value), pstart, pend, fy, dims or {},
                       url or edgar_index_url(cik, accession), ffy, labels or "")
            for fid, tax, concept, unit, value, pstart, pend, fy, dims, url, ffy, labels in rows]
