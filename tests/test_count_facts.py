"""XBRL's dimensionless unit holds rates as fractions and counts alike: a count (McDonald's 39,680 franchised
restaurants, tagged "pure") reads as a number of things, never as 3,968,000%, and a rate still reads as a percent."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from agent.retrieval.finance import display_value
from store.facts import annual_value, reading_unit
from tests.test_facts import company, fact, filing

MCD, K_MCD = 63908, "0000063908-24-000010"


@pytest.fixture
def counted(db):
    with db.connection() as conn:
        company(conn, MCD, "McDONALD'S CORPORATION", ["MCD"], "1231")
        filing(conn, MCD, K_MCD, 2023, date(2023, 12, 31), date(2024, 2, 22))
        fact(conn, MCD, K_MCD, "NumberOfRestaurants", "39680", date(2023, 12, 31), fiscal_year=2023, fy=2023,
             unit="pure")
        fact(conn, MCD, K_MCD, "EffectiveIncomeTaxRateContinuingOperations", "0.199", date(2023, 12, 31),
             date(2023, 1, 1), fiscal_year=2023, fy=2023, unit="pure")
    return db


def test_a_dimensionless_count_reads_as_a_count_and_a_rate_as_a_percent(counted):
    with counted.connection() as conn:
        count = annual_value(conn, MCD, ["us-gaap:NumberOfRestaurants"], 2023)
        rate = annual_value(conn, MCD, ["us-gaap:EffectiveIncomeTaxRateContinuingOperations"], 2023)
    assert (count.unit, display_value(count.value, count.unit)) == ("count", "39,680")
    assert (rate.unit, display_value(rate.value, rate.unit)) == ("pure", "19.9%")


def test_only_a_concept_naming_a_number_of_things_is_a_count():
    assert reading_unit("us-gaap:NumberOfReportableSegments", "pure") == "count"
    assert reading_unit("us-gaap:NumberOfRestaurants", "shares") == "shares"
    assert reading_unit("us-gaap:StockholdersEquityNoteStockSplitConversionRatio1", "pure") == "pure"
    assert display_value(Decimal("2.5"), "count") == "2.5"
