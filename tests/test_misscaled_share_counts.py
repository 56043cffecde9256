"""A share count a filing tags without its scale (McDonald's FY2023 10-K: 732.3 weighted-average diluted shares
beside 722,051,488 shares on its cover) is no figure: never stated as a count, never a per-share divisor."""

from __future__ import annotations

from datetime import date

import pytest

from agent.retrieval.metric_facts import metric_value
from agent.retrieval.retrieve import _annual_value
from tests.test_facts import company, fact, filing

MCD, GM = 63908, 1467858
K_MCD, K_GM = "0000063908-24-000010", "0001467858-24-000010"


@pytest.fixture
def counts(db):
    with db.connection() as conn:
        company(conn, MCD, "McDONALD'S CORPORATION", ["MCD"], "1231")
        filing(conn, MCD, K_MCD, 2023, date(2023, 12, 31), date(2024, 2, 22))
        fact(conn, MCD, K_MCD, "WeightedAverageNumberOfDilutedSharesOutstanding", "732.3", date(2023, 12, 31),
             date(2023, 1, 1), fiscal_year=2023, fy=2023, unit="shares")
        fact(conn, MCD, K_MCD, "EntityCommonStockSharesOutstanding", "722051488", date(2024, 1, 31), fiscal_year=2023,
             fy=2023, unit="shares", taxonomy="dei")
        company(conn, GM, "GENERAL MOTORS COMPANY", ["GM"], "1231")
        filing(conn, GM, K_GM, 2023, date(2023, 12, 31), date(2024, 1, 30))
        fact(conn, GM, K_GM, "WeightedAverageNumberOfDilutedSharesOutstanding", "1369000000", date(2023, 12, 31),
             date(2023, 1, 1), fiscal_year=2023, fy=2023, unit="shares")
        fact(conn, GM, K_GM, "EntityCommonStockSharesOutstanding", "1140000000", date(2024, 1, 24), fiscal_year=2023,
             fy=2023, unit="shares", taxonomy="dei")
    return db


def test_a_count_tagged_without_its_scale_is_no_figure(counts):
    with counts.connection() as conn:
        assert metric_value(conn, MCD, "diluted_shares", 2023) is None
        assert metric_value(conn, GM, "diluted_shares", 2023).value == 1369000000


def test_a_count_tagged_without_its_scale_is_no_figure_under_its_printed_row_either(counts):
    """Asked by the row's own words, the count is read through the printed-row path, guarded alike."""
    with counts.connection() as conn:
        concept = ["us-gaap:WeightedAverageNumberOfDilutedSharesOutstanding"]
        assert _annual_value(conn, MCD, concept, 2023) is None
        assert _annual_value(conn, GM, concept, 2023).value == 1369000000
