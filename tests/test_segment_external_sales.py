"""A segment's sales are its sales to external customers when the filing tags what it sold to other segments: RTX's
Collins Aerospace is 24,294 plainly (a revenue concept of its own) and 26,253 beside "operating segments" (another
revenue concept, before eliminating its 1,959 of intersegment sales). The concept order alone took the larger;
the plain fact, the one the revenue table states, is the segment's figure (store.segments).
Real figures typed in as facts (USD millions, RTX's fiscal 2023 10-K)."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from store.segments import member_values
from tests.test_facts import company, fact, filing

RTX = 101829
K23 = "0000101829-24-000008"
M = 1_000_000
SEGMENT = "us-gaap:StatementBusinessSegmentsAxis"
MARK = "srt:ConsolidationItemsAxis"
OPERATING, INTERSEGMENT = "us-gaap:OperatingSegmentsMember", "us-gaap:IntersegmentEliminationMember"
REVENUE = ["us-gaap:Revenues", "us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax"]


def _rtx(conn, *, intersegment: bool) -> None:
    company(conn, RTX, "RTX Corp", ["RTX"], "1231")
    filing(conn, RTX, K23, 2023, date(2023, 12, 31), date(2024, 2, 5))
    start, end = date(2023, 1, 1), date(2023, 12, 31)
    for concept, value, dims in (
            ("Revenues", 26253, {SEGMENT: "rtx:CollinsAerospaceSystemsMember", MARK: OPERATING}),
            ("RevenueFromContractWithCustomerExcludingAssessedTax", 24294, {SEGMENT: "rtx:CollinsAerospaceSystemsMember"}),
            ("Revenues", 18296, {SEGMENT: "rtx:PrattAndWhitneyMember", MARK: OPERATING}),
            *((("RevenueFromContractWithCustomerExcludingAssessedTax", 1959,
                {SEGMENT: "rtx:CollinsAerospaceSystemsMember", MARK: INTERSEGMENT}),) if intersegment else ())):
        fact(conn, RTX, K23, concept, str(value * M), end, start, fiscal_year=2023, fy=2023, filed=date(2024, 2, 5),
             dims=dims)


def test_a_segments_sales_are_to_external_customers_when_intersegment_sales_are_tagged(db):
    with db.connection() as conn:
        _rtx(conn, intersegment=True)
        found = {f.member: f for f in member_values(conn, RTX, REVENUE, 2023, instant=False, wrong=set())}
    assert found["rtx:CollinsAerospaceSystemsMember"].value == Decimal(24294 * M)  # never 26,253 before eliminations
    assert found["rtx:PrattAndWhitneyMember"].value == Decimal(18296 * M)  # no plain fact: the marked one, as before
