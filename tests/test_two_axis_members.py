"""A member tagged only beside a segment (a product within its segment) is answered when one member the words
name holds nothing the question did not say, the company's brand counting as said; when several hold the words,
they are listed. Alphabet's fiscal 2023 revenue by product within Google Services, typed in from its 10-K (USD
millions); labels as the table prints them."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest
from psycopg.types.json import Jsonb

SEGMENT, PRODUCT = "us-gaap:StatementBusinessSegmentsAxis", "srt:ProductOrServiceAxis"
GOOGL, ACC = 1652044, "acc-alphabet-2023"
M = 1_000_000


@pytest.fixture(scope="module")
def alphabet_db(make_database):
    db = make_database()
    rows = [  # (label, dims, value)
        ("Google Services total", {SEGMENT: "goog:GoogleServicesMember"}, 272543),
        ("Google Cloud", {SEGMENT: "goog:GoogleCloudMember"}, 33088),
        ("Google advertising", {SEGMENT: "goog:GoogleServicesMember", PRODUCT: "goog:GoogleAdvertisingRevenueMember"},
         237855),
        ("YouTube ads", {SEGMENT: "goog:GoogleServicesMember", PRODUCT: "goog:YouTubeAdvertisingRevenueMember"}, 31510),
        ("Google Network", {SEGMENT: "goog:GoogleServicesMember", PRODUCT: "goog:GoogleNetworkMember"}, 31312),
        # two products whose names share a word (made up for the shape)
        ("Subscriptions platforms", {SEGMENT: "goog:GoogleServicesMember", PRODUCT: "x:SubscriptionsPlatformsMember"}, 20),
        ("Subscriptions devices", {SEGMENT: "goog:GoogleServicesMember", PRODUCT: "x:SubscriptionsDevicesMember"}, 14),
    ]
    with db.connection() as conn, conn.transaction():
        conn.execute("INSERT INTO companies (cik, name, tickers) VALUES (%s, 'Alphabet Inc.', %s)", (GOOGL, ["GOOGL"]))
        conn.execute("INSERT INTO filings (accession, cik, form, fiscal_year, fiscal_period, period_end, url, content_hash)"
                     " VALUES (%s, %s, '10-K', 2023, 'FY', %s, 'https://www.sec.gov/x', 'x')", (ACC, GOOGL, date(2023, 12, 31)))
        for n, (label, dims, value) in enumerate(rows):
            conn.execute("INSERT INTO line_labels (accession, cik, taxonomy, concept, label, statement, table_no, row_no,"
                         " negated, dims) VALUES (%s, %s, 'us-gaap', 'Revenues', %s, 'other', 1, %s, false, %s)",
                         (ACC, GOOGL, label, n, Jsonb(dims)))
            conn.execute(
                "INSERT INTO facts (cik, accession, taxonomy, concept, unit, value, period_start, period_end, fiscal_year,"
                " fy, fp, form, filed, source, fact_key, dimensional, dims) VALUES (%s, %s, 'us-gaap', 'Revenues', 'USD',"
                " %s, %s, %s, 2023, 2023, 'FY', '10-K', %s, 'ixbrl', %s, true, %s)",
                (GOOGL, ACC, value * M, date(2023, 1, 1), date(2023, 12, 31), date(2024, 2, 1), f"g{n}", Jsonb(dims)))
    return db


def _cells(db, qualifier, question):
    from agent.retrieval.retrieve import _member_cells

    company = {"ticker": "GOOGL", "cik": GOOGL, "name": "Alphabet"}
    with db.connection() as conn:
        return _member_cells(conn, None, company, f"dim:revenue|{qualifier}", 2023, {"ticker": "GOOGL"},
                             question=question)


def test_ad_revenue_is_the_advertising_member_its_brand_names(alphabet_db):
    for qualifier, question in (("ad", "googl ad revenue 2023"), ("advertising", "googl advertising revenue 2023")):
        (cell, evidence), = _cells(alphabet_db, qualifier, question)
        assert evidence is not None and Decimal(evidence.value) == Decimal(237855 * M), (qualifier, cell)
        assert evidence.dims == {PRODUCT: "goog:GoogleAdvertisingRevenueMember"} or "Advertising" in cell["member"]


def test_words_several_product_members_hold_list_them(alphabet_db):
    (cell, evidence), = _cells(alphabet_db, "subscriptions", "alphabet subscriptions revenue 2023")
    assert evidence is None
    assert set(cell["members"]) == {"Subscriptions platforms", "Subscriptions devices"}, cell


BA, BA_ACC = 12927, "acc-boeing-2024"


@pytest.fixture(scope="module")
def boeing_db(make_database):
    """A segment and a product line whose names hold one word alike (Boeing's fiscal 2024 10-K, USD millions), and
    two made-up product lines holding one word alike."""
    db = make_database()
    rows = [("Global Services", {SEGMENT: "ba:GlobalServicesMember"}, 19954, 1),
            ("Commercial Airplanes", {SEGMENT: "ba:CommercialAirplanesMember"}, 22861, 1),
            ("Sales of products", {PRODUCT: "us-gaap:ProductMember"}, 53227, 2),
            ("Sales of services", {PRODUCT: "us-gaap:ServiceMember"}, 13290, 2),
            ("Cloud platforms", {PRODUCT: "x:CloudPlatformsMember"}, 10, 3),
            ("Cloud consulting", {PRODUCT: "x:CloudConsultingMember"}, 12, 3)]
    with db.connection() as conn, conn.transaction():
        conn.execute("INSERT INTO companies (cik, name, tickers) VALUES (%s, 'Boeing Co', %s)", (BA, ["BA"]))
        conn.execute("INSERT INTO filings (accession, cik, form, fiscal_year, fiscal_period, period_end, url, content_hash)"
                     " VALUES (%s, %s, '10-K', 2024, 'FY', %s, 'https://www.sec.gov/x', 'x')", (BA_ACC, BA, date(2024, 12, 31)))
        for n, (label, dims, value, table) in enumerate(rows):
            conn.execute("INSERT INTO line_labels (accession, cik, taxonomy, concept, label, statement, table_no, row_no,"
                         " negated, dims) VALUES (%s, %s, 'us-gaap', 'Revenues', %s, 'other', %s, %s, false, %s)",
                         (BA_ACC, BA, label, table, n, Jsonb(dims)))
            conn.execute(
                "INSERT INTO facts (cik, accession, taxonomy, concept, unit, value, period_start, period_end, fiscal_year,"
                " fy, fp, form, filed, source, fact_key, dimensional, dims) VALUES (%s, %s, 'us-gaap', 'Revenues', 'USD',"
                " %s, %s, %s, 2024, 2024, 'FY', '10-K', %s, 'ixbrl', %s, true, %s)",
                (BA, BA_ACC, value * M, date(2024, 1, 1), date(2024, 12, 31), date(2025, 2, 1), f"b{n}", Jsonb(dims)))
    return db


def _ba_cells(db, qualifier, question):
    from agent.retrieval.retrieve import _member_cells

    company = {"ticker": "BA", "cik": BA, "name": "Boeing"}
    with db.connection() as conn:
        return _member_cells(conn, None, company, f"dim:revenue|{qualifier}", 2024, {"ticker": "BA"}, question=question)


def test_words_inside_several_members_names_take_the_one_holding_nothing_unsaid_else_ask(boeing_db):
    (cell, evidence), = _ba_cells(boeing_db, "sales of services", "ba sales of services revenue 2024")
    assert evidence is not None and Decimal(evidence.value) == Decimal(13290 * M), cell  # never Global Services
    (cell, evidence), = _ba_cells(boeing_db, "cloud", "ba cloud revenue 2024")
    assert evidence is None and set(cell["members"]) == {"Cloud platforms", "Cloud consulting"}, cell
