"""A company's share count read at the magnitude its filing states, when the tag left out the scale.

McDonald's 10-K prints its weighted-average shares in a table "in millions" (732.3) and tags them
with no scale: the fact says 732.3 shares. Every other reading of that filing (the table header, the
cover page's 722,051,488 shares outstanding, the 10-Qs tagged at scale 6) says millions. A share
count of the whole company cannot be a thousandth of the shares outstanding a few weeks later, so
such a count is read at the power of a thousand that brings it nearest the filing's own cover-page
count, and only then: a count already near it, a count with no cover page to compare with, and any
count that is not the company's whole share count (awards granted, shares repurchased) are read as
tagged.
"""

from __future__ import annotations

import math
from decimal import Decimal

import psycopg

# Counts of all the company's shares: comparable with the cover page's shares outstanding.
WHOLE_COUNTS = frozenset({
    "us-gaap:WeightedAverageNumberOfSharesOutstandingBasic",
    "us-gaap:WeightedAverageNumberOfDilutedSharesOutstanding",
    "us-gaap:WeightedAverageNumberOfShareOutstandingBasicAndDiluted",
    "us-gaap:CommonStockSharesOutstanding",
    "us-gaap:CommonStockSharesIssued",
})

# The filing's cover-page count (each class's, when it has several): the largest stands for the company.
COVER_COUNT = """
SELECT max(value) FROM facts
 WHERE cik = %(cik)s AND accession = %(accession)s AND taxonomy = 'dei'
   AND concept = 'EntityCommonStockSharesOutstanding' AND unit = 'shares' AND value > 0
"""

# below this a whole count is checked at all (no listed company has fewer shares); above it, no query
_CHECK_BELOW = Decimal(1_000_000)
# the scaled count must land within this factor of the cover count (share classes, buybacks)
_WITHIN = 10


def stated_count(conn: psycopg.Connection, cik: int, accession: str, concept: str, unit: str,
                 value: Decimal, decimals: str | None) -> Decimal:
    """`value` at the magnitude the filing states it: the tagged value, or it times 10^3, 10^6 or
    10^9 when it is a whole share count tagged without its table's scale (see the module's note)."""
    if (unit != "shares" or concept not in WHOLE_COUNTS or not 0 < value < _CHECK_BELOW
            or (decimals or "").lstrip().startswith("-")):
        return value  # a negative `decimals` means the tag did carry a scale (rounded to thousands, millions)
    row = conn.execute(COVER_COUNT, {"cik": cik, "accession": accession}).fetchone()
    cover = row[0] if row else None
    if not cover or value * 1000 > cover:
        return value
    power = min((3, 6, 9), key=lambda p: abs(math.log10(float(value) * 10 ** p / float(cover))))
    scaled = value * Decimal(10) ** power
    return scaled if cover / _WITHIN <= scaled <= cover * _WITHIN else value
