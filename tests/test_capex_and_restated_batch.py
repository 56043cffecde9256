"""A concept one company uses for its capital expenditures and others for other lines is taken only where the
company prints it so; the restated-figure check reads a whole table's prior-year cells in one query. Real
figures typed in as facts (Verizon's and McDonald's fiscal 2023 10-Ks, Home Depot's fiscal 2023 and 2024 10-Ks)."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest
from psycopg.types.json import Jsonb

from tests.test_facts import company, fact, filing

M = 1_000_000
VZ, VZ_K23 = 732712, "0000732712-24-000009"
MCD, MCD_K23 = 63908, "0000063908-24-000011"
OTHER = "PaymentsToAcquireOtherProductiveAssets"


def _row(conn, cik, accession, concept, label, n):
    conn.execute("INSERT INTO line_labels (accession, cik, taxonomy, concept, label, statement, table_no, row_no,"
                 " negated, dims) VALUES (%s, %s, 'us-gaap', %s, %s, 'cash', 1, %s, false, %s)",
                 (accession, cik, concept, label, n, Jsonb({})))


@pytest.fixture
def capex_db(db):
    with db.connection() as conn:
        company(conn, VZ, "VERIZON COMMUNICATIONS INC", ["VZ"], "1231")
        company(conn, MCD, "MCDONALDS CORP", ["MCD"], "1231")
        filing(conn, VZ, VZ_K23, 2023, date(2023, 12, 31), date(2024, 2, 9))
        filing(conn, MCD, MCD_K23, 2023, date(2023, 12, 31), date(2024, 2, 22))
        fact(conn, VZ, VZ_K23, OTHER, str(18767 * M), date(2023, 12, 31), date(2023, 1, 1), fiscal_year=2023, fy=2023)
        _row(conn, VZ, VZ_K23, OTHER, "Capital expenditures (including capitalized software)", 1)
        # McDonald's tags its purchases of restaurant businesses with the concept, and prints no capex row so
        fact(conn, MCD, MCD_K23, OTHER, "441200000", date(2023, 12, 31), date(2023, 1, 1), fiscal_year=2023, fy=2023)
        _row(conn, MCD, MCD_K23, OTHER, "Purchases of restaurant businesses", 1)
    return db


def test_a_concept_is_capital_expenditures_only_where_the_company_prints_it_so(capex_db):
    from agent.retrieval.metric_facts import metric_value

    with capex_db.connection() as conn:
        verizon = metric_value(conn, VZ, "capex", 2023)
        assert verizon is not None and verizon.value == Decimal(18767 * M)
        assert metric_value(conn, MCD, "capex", 2023) is None  # never the restaurant purchases


HD, HD_K23, HD_K24 = 354950, "0000354950-24-000062", "0000354950-25-000010"


@pytest.fixture
def home_depot(db):
    with db.connection() as conn:
        company(conn, HD, "HOME DEPOT, INC.", ["HD"], "0202")
        filing(conn, HD, HD_K23, 2023, date(2024, 1, 28), date(2024, 3, 13))
        filing(conn, HD, HD_K24, 2024, date(2025, 2, 2), date(2025, 3, 21))
        for acc, concept, value, fy in ((HD_K23, "DepreciationDepletionAndAmortization", 3247, 2023),
                                        (HD_K24, "DepreciationDepletionAndAmortization", 3061, 2024),
                                        (HD_K23, "Revenues", 152669, 2023), (HD_K24, "Revenues", 152669, 2024)):
            fact(conn, HD, acc, concept, str(value * M), date(2024, 1, 28), date(2023, 1, 30), fiscal_year=fy, fy=fy)
    return db


class _Counting:
    def __init__(self, conn):
        self.conn, self.calls = conn, 0

    def execute(self, *args, **kwargs):
        self.calls += 1
        return self.conn.execute(*args, **kwargs)


def test_a_tables_restated_cells_are_checked_in_one_query(home_depot):
    from agent.composing.draft import Evidence
    from agent.retrieval.retrieve import _first_reported_otherwise

    def cell_of(concept, value):
        ev = Evidence(id=concept, kind="fact", text="", ticker="HD", cik=HD, fiscal_year=2024, concept=f"us-gaap:{concept}",
                      value=str(value * M), unit="USD", period_end="2024-01-28", accession=HD_K24, url="", form="10-K")
        return {"fiscal_year": 2023, "label": concept}, ev

    own = {"accession": HD_K23}
    cells = [(*cell_of("DepreciationDepletionAndAmortization", 3061), own), (*cell_of("Revenues", 152669), own)]
    with home_depot.connection() as conn:
        counting = _Counting(conn)
        found = _first_reported_otherwise(counting, cells)
    assert counting.calls == 1
    assert [cell["label"] for cell, _ in found] == ["DepreciationDepletionAndAmortization"]  # revenue printed alike
