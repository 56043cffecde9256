"""A whole share count tagged without its table's scale is read at the magnitude the filing states:
McDonald's 10-K tags "732.3" (in millions) as 732.3 shares. Real Postgres, facts typed in."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from store.facts import annual_value
from store.quarters import period_facts
from tests.test_facts import company, fact, filing

MCD, ACC = 63908, "0000063908-24-000072"
DILUTED = "us-gaap:WeightedAverageNumberOfDilutedSharesOutstanding"


def _shares(conn, concept, value, *, decimals, taxonomy="us-gaap", end=date(2023, 12, 31), start=date(2023, 1, 1),
            accession=ACC):
    fact(conn, MCD, accession, concept, value, end, start, fiscal_year=2023, fy=2023, filed=date(2024, 2, 22),
         unit="shares", taxonomy=taxonomy)
    conn.execute("UPDATE facts SET decimals = %s WHERE accession = %s AND concept = %s", (decimals, accession, concept))


@pytest.fixture
def mcd(db):
    with db.connection() as conn:
        company(conn, MCD, "McDONALD'S CORPORATION", ["MCD"], "1231")
        filing(conn, MCD, ACC, 2023, date(2023, 12, 31), date(2024, 2, 22))
        _shares(conn, "WeightedAverageNumberOfDilutedSharesOutstanding", "732.3", decimals="1")
        _shares(conn, "WeightedAverageNumberOfSharesOutstandingBasic", "727.9", decimals=None)
        # counts of some shares, not all of them: small by nature, read as tagged
        _shares(conn, "TreasuryStockSharesAcquired", "4.3", decimals="1")
        _shares(conn, "EntityCommonStockSharesOutstanding", "722051488", decimals="INF", taxonomy="dei",
                end=date(2024, 1, 31), start=None)
    return db


def test_a_whole_count_tagged_without_its_scale_reads_in_millions(mcd):
    with mcd.connection() as conn:
        assert annual_value(conn, MCD, [DILUTED], 2023).value == Decimal("732300000")
        assert annual_value(conn, MCD, ["us-gaap:WeightedAverageNumberOfSharesOutstandingBasic"], 2023).value == \
            Decimal("727900000")
        [annual] = [f for f in period_facts(conn, MCD, [DILUTED]) if f.days and f.days > 300]
        assert annual.value == Decimal("732300000")


def test_other_counts_and_counts_near_the_cover_page_read_as_tagged(mcd):
    with mcd.connection() as conn:
        assert annual_value(conn, MCD, ["us-gaap:TreasuryStockSharesAcquired"], 2023).value == Decimal("4.3")
        conn.execute("UPDATE facts SET value = 732300000, decimals = '-5' WHERE concept = %s",
                     ("WeightedAverageNumberOfDilutedSharesOutstanding",))
        assert annual_value(conn, MCD, [DILUTED], 2023).value == Decimal("732300000")


def test_no_cover_page_count_leaves_the_value_as_tagged(mcd):
    with mcd.connection() as conn:
        conn.execute("DELETE FROM facts WHERE taxonomy = 'dei'")
        assert annual_value(conn, MCD, [DILUTED], 2023).value == Decimal("732.3")
