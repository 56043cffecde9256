"""store.facts over a real Postgres: which value, from which filing, for a company's fiscal year."""

from __future__ import annotations

import hashlib
from datetime import date
from decimal import Decimal

import pytest

from agent.retrieval.metric_facts import metric_value
from store.facts import (
    annual_value,
    available_fiscal_years,
    edgar_index_url,
    filing_for,
    fiscal_year_end,
    latest_fiscal_year,
)

AAPL, NVDA, WMT = 320193, 1045810, 104169
REV = ["us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax", "us-gaap:Revenues"]


def company(conn, cik, name, tickers, fye=None):
    conn.execute(
        "INSERT INTO companies (cik, name, tickers, fiscal_year_end) VALUES (%s, %s, %s, %s)",
        (cik, name, tickers, fye),
    )


def filing(conn, cik, accession, fy, period_end, filed=None, form="10-K", url=None):
    conn.execute(
        "INSERT INTO filings (accession, cik, form, fiscal_year, period_end, filed, url, content_hash) "
        "VALUES (%s, %s, %s, %s, %s, %s, %s, 'x')",
        (accession, cik, form, fy, period_end, filed, url or f"https://www.sec.gov/Archives/edgar/data/{cik}/doc.htm"),
    )


def fact(conn, cik, accession, concept, value, end, start=None, *, fiscal_year, fy=None, filed=None, unit="USD",
         taxonomy="us-gaap", form="10-K", fp="FY", dims=None):
    key = hashlib.sha256(f"{accession}|{taxonomy}:{concept}|{unit}|{start}|{end}|{dims}".encode()).hexdigest()
    conn.execute(
        "INSERT INTO facts (cik, accession, taxonomy, concept, unit, value, period_start, period_end, fiscal_year, "
        "fy, fp, form, filed, dimensional, dims, source, fact_key) "
        "VALUES (%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,'companyfacts',%s) RETURNING id",
        (cik, accession, taxonomy, concept, unit, Decimal(value), start, end, fiscal_year, fy, fp, form, filed,
         bool(dims), "{}" if not dims else __import__("json").dumps(dims), key),
    )


@pytest.fixture
def apple(db):
    """Apple: FY2024 10-K ingested; FY2023 known from companyfacts (with a later restatement)."""
    with db.connection() as conn:
        company(conn, AAPL, "Apple Inc.", ["AAPL"], "0928")
        filing(conn, AAPL, "0000320193-24-000123", 2024, date(2024, 9, 28), date(2024, 11, 1),
               url="https://www.sec.gov/Archives/edgar/data/320193/000032019324000123/aapl-20240928.htm")
        a24, a23 = "0000320193-24-000123", "0000320193-23-000106"
        # FY2024 revenue, and FY2023 revenue as first reported and as repeated (restated) a year later
        fact(conn, AAPL, a24, "RevenueFromContractWithCustomerExcludingAssessedTax", "391035000000",
             date(2024, 9, 28), date(2023, 10, 1), fiscal_year=2024, fy=2024, filed=date(2024, 11, 1))
        fact(conn, AAPL, a23, "RevenueFromContractWithCustomerExcludingAssessedTax", "383285000000",
             date(2023, 9, 30), date(2022, 9, 25), fiscal_year=2023, fy=2023, filed=date(2023, 11, 3))
        fact(conn, AAPL, a24, "RevenueFromContractWithCustomerExcludingAssessedTax", "383300000000",
             date(2023, 9, 30), date(2022, 9, 25), fiscal_year=2023, fy=2024, filed=date(2024, 11, 1))
        # a segment's revenue (dimensional) and a quarter's revenue must never be taken
        fact(conn, AAPL, a24, "RevenueFromContractWithCustomerExcludingAssessedTax", "201183000000",
             date(2024, 9, 28), date(2023, 10, 1), fiscal_year=2024, fy=2024, filed=date(2024, 11, 1),
             dims={"srt:ProductOrServiceAxis": "us-gaap:ProductMember"})
        fact(conn, AAPL, a24, "RevenueFromContractWithCustomerExcludingAssessedTax", "94930000000",
             date(2024, 9, 28), date(2024, 6, 30), fiscal_year=2024, fy=2024, filed=date(2024, 11, 1))
        # a second acceptable concept, lower in the list, with a different value
        fact(conn, AAPL, a24, "SalesRevenueNet", "1", date(2024, 9, 28), date(2023, 10, 1), fiscal_year=2024, fy=2024,
             filed=date(2024, 11, 1))
        fact(conn, AAPL, a24, "CostOfGoodsAndServicesSold", "210352000000", date(2024, 9, 28), date(2023, 10, 1),
             fiscal_year=2024, fy=2024, filed=date(2024, 11, 1))
        # balance sheet: the fiscal year end, the prior year end and a quarter end inside FY2024
        fact(conn, AAPL, a24, "Assets", "364980000000", date(2024, 9, 28), fiscal_year=2024, fy=2024,
             filed=date(2024, 11, 1))
        fact(conn, AAPL, a24, "Assets", "352583000000", date(2023, 9, 30), fiscal_year=2023, fy=2024,
             filed=date(2024, 11, 1))
        fact(conn, AAPL, "0000320193-24-000081", "Assets", "331612000000", date(2024, 6, 29), fiscal_year=2024,
             fy=2024, fp="Q3", form="10-Q", filed=date(2024, 8, 2))
        # per-share data before and after a split: the later filing reports the split-adjusted figure
        fact(conn, AAPL, "0000320193-20-000096", "EarningsPerShareDiluted", "11.89", date(2019, 9, 28),
             date(2018, 9, 30), fiscal_year=2019, fy=2019, filed=date(2019, 10, 31), unit="USD/shares")
        fact(conn, AAPL, "0000320193-21-000105", "EarningsPerShareDiluted", "2.97", date(2019, 9, 28),
             date(2018, 9, 30), fiscal_year=2019, fy=2021, filed=date(2021, 10, 29), unit="USD/shares")
        # cover-page shares outstanding: dated after the year end, from the FY2024 10-K
        fact(conn, AAPL, a24, "EntityCommonStockSharesOutstanding", "15115823000", date(2024, 10, 18),
             fiscal_year=2025, fy=2024, filed=date(2024, 11, 1), unit="shares", taxonomy="dei")
        # a 10-Q of the next fiscal year: not an annual figure
        fact(conn, AAPL, "0000320193-25-000008", "RevenueFromContractWithCustomerExcludingAssessedTax",
             "124300000000", date(2024, 12, 28), date(2024, 9, 29), fiscal_year=2025, fy=2025, fp="Q1",
             form="10-Q", filed=date(2025, 1, 31))
    return db


def test_annual_value_takes_the_full_year_non_dimensional_fact(apple):
    with apple.connection() as conn:
        row = annual_value(conn, AAPL, REV, 2024)
    assert row.value == Decimal("391035000000")
    assert row.concept == "RevenueFromContractWithCustomerExcludingAssessedTax"
    assert row.qualified_concept == "us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax"
    assert (row.period_start, row.period_end) == (date(2023, 10, 1), date(2024, 9, 28))
    assert row.accession == "0000320193-24-000123"
    assert row.url.endswith("aapl-20240928.htm")  # the ingested document
    assert row.form == "10-K" and row.filed == date(2024, 11, 1)


def test_first_acceptable_concept_wins_over_later_ones(apple):
    with apple.connection() as conn:
        assert annual_value(conn, AAPL, ["us-gaap:SalesRevenueNet"], 2024).value == Decimal("1")
        assert annual_value(conn, AAPL, [*REV, "us-gaap:SalesRevenueNet"], 2024).concept != "SalesRevenueNet"
        assert annual_value(conn, AAPL, ["us-gaap:SalesRevenueNet", *REV], 2024).value == Decimal("1")
        # bare names mean us-gaap
        assert annual_value(conn, AAPL, ["RevenueFromContractWithCustomerExcludingAssessedTax"], 2024).value == Decimal(
            "391035000000"
        )


def test_restated_period_comes_from_the_most_recent_filing(apple):
    with apple.connection() as conn:
        row = annual_value(conn, AAPL, REV, 2023)
    assert row.value == Decimal("383300000000")
    assert row.accession == "0000320193-24-000123"
    assert row.filing_fiscal_year == 2024


def test_as_of_accession_answers_from_the_named_filing(apple):
    with apple.connection() as conn:
        row = annual_value(conn, AAPL, REV, 2023, as_of_accession="0000320193-23-000106")
        assert row.value == Decimal("383285000000")
        assert row.accession == "0000320193-23-000106"
        # not ingested as a document: cited by its EDGAR filing index
        assert row.url == (
            "https://www.sec.gov/Archives/edgar/data/320193/000032019323000106/0000320193-23-000106-index.htm"
        )
        assert annual_value(conn, AAPL, REV, 2024, as_of_accession="0000320193-23-000106") is None


def test_split_adjusted_per_share_value_from_the_later_filing(apple):
    with apple.connection() as conn:
        row = annual_value(conn, AAPL, ["us-gaap:EarningsPerShareDiluted"], 2019, unit="USD/shares")
        assert row.value == Decimal("2.97")
        old = annual_value(conn, AAPL, ["us-gaap:EarningsPerShareDiluted"], 2019,
                           as_of_accession="0000320193-20-000096")
        assert old.value == Decimal("11.89")
        assert annual_value(conn, AAPL, ["us-gaap:EarningsPerShareDiluted"], 2019, unit="USD") is None


def test_instants_are_taken_at_the_fiscal_year_end(apple):
    with apple.connection() as conn:
        assert fiscal_year_end(conn, AAPL, 2024) == date(2024, 9, 28)
        assert annual_value(conn, AAPL, ["us-gaap:Assets"], 2024).value == Decimal("364980000000")
        # FY2023's end is known from its annual duration facts (no ingested FY2023 document)
        assert fiscal_year_end(conn, AAPL, 2023) == date(2023, 9, 30)
        assert annual_value(conn, AAPL, ["us-gaap:Assets"], 2023).value == Decimal("352583000000")


def test_cost_of_revenue_is_never_revenue(apple):
    with apple.connection() as conn:
        row = metric_value(conn, AAPL, "revenue", 2024)
        cost = metric_value(conn, AAPL, "cost_of_revenue", 2024)
    assert row.value == Decimal("391035000000")
    assert cost.value == Decimal("210352000000") and cost.concept == "CostOfGoodsAndServicesSold"


def test_cover_page_shares_outstanding_from_the_years_10k(apple):
    with apple.connection() as conn:
        row = metric_value(conn, AAPL, "shares_outstanding", 2024)
        assert row.taxonomy == "dei" and row.value == Decimal("15115823000")
        assert metric_value(conn, AAPL, "shares_outstanding", 2025) is None


def test_missing_year_or_concept_gives_none(apple):
    with apple.connection() as conn:
        assert annual_value(conn, AAPL, REV, 2025) is None  # only a quarter of FY2025
        assert annual_value(conn, AAPL, ["us-gaap:ResearchAndDevelopmentExpense"], 2024) is None
        assert annual_value(conn, AAPL, [], 2024) is None
        assert annual_value(conn, 999, REV, 2024) is None


def test_available_and_latest_fiscal_years(apple):
    with apple.connection() as conn:
        assert available_fiscal_years(conn, AAPL) == [2019, 2023, 2024]
        assert latest_fiscal_year(conn, AAPL) == 2024
        assert available_fiscal_years(conn, 999) == []
        assert latest_fiscal_year(conn, 999) is None


def test_filing_for_ingested_and_companyfacts_only_years(apple):
    with apple.connection() as conn:
        f24 = filing_for(conn, AAPL, 2024)
        assert f24.accession == "0000320193-24-000123" and f24.ingested
        assert f24.url.endswith("aapl-20240928.htm") and f24.period_end == date(2024, 9, 28)
        f23 = filing_for(conn, AAPL, 2023)
        assert f23.accession == "0000320193-23-000106" and not f23.ingested
        assert f23.url.endswith("/000032019323000106/0000320193-23-000106-index.htm")
        assert filing_for(conn, AAPL, 2030) is None


def test_non_calendar_fiscal_years(db):
    """NVIDIA's fiscal 2025 ends 2025-01-26; Walmart's fiscal 2025 ends 2025-01-31 (companyfacts only)."""
    with db.connection() as conn:
        company(conn, NVDA, "NVIDIA CORP", ["NVDA"], "0126")
        company(conn, WMT, "Walmart Inc.", ["WMT"], "0131")
        filing(conn, NVDA, "0001045810-25-000023", 2025, date(2025, 1, 26), date(2025, 2, 26))
        fact(conn, NVDA, "0001045810-25-000023", "Revenues", "130497000000", date(2025, 1, 26), date(2024, 1, 29),
             fiscal_year=2025, fy=2025, filed=date(2025, 2, 26))
        fact(conn, NVDA, "0001045810-25-000023", "Revenues", "60922000000", date(2024, 1, 28), date(2023, 1, 30),
             fiscal_year=2024, fy=2025, filed=date(2025, 2, 26))
        fact(conn, NVDA, "0001045810-25-000023", "Assets", "111601000000", date(2025, 1, 26), fiscal_year=2025,
             fy=2025, filed=date(2025, 2, 26))
        fact(conn, WMT, "0000104169-25-000021", "Revenues", "680985000000", date(2025, 1, 31), date(2024, 2, 1),
             fiscal_year=2025, fy=2025, filed=date(2025, 3, 14))
        fact(conn, WMT, "0000104169-25-000021", "Assets", "260823000000", date(2025, 1, 31), fiscal_year=2025,
             fy=2025, filed=date(2025, 3, 14))
        fact(conn, WMT, "0000104169-25-000021", "Assets", "252399000000", date(2024, 1, 31), fiscal_year=2024,
             fy=2025, filed=date(2025, 3, 14))

        assert annual_value(conn, NVDA, REV, 2025).value == Decimal("130497000000")
        assert annual_value(conn, NVDA, REV, 2024).value == Decimal("60922000000")
        assert annual_value(conn, NVDA, ["us-gaap:Assets"], 2025).value == Decimal("111601000000")
        assert fiscal_year_end(conn, WMT, 2025) == date(2025, 1, 31)
        assert annual_value(conn, WMT, ["us-gaap:Assets"], 2025).value == Decimal("260823000000")
        # no annual duration labelled FY2024 for Walmart: its year end is the prior-year balance sheet date
        assert fiscal_year_end(conn, WMT, 2024) == date(2024, 1, 31)
        assert annual_value(conn, WMT, ["us-gaap:Assets"], 2024).value == Decimal("252399000000")
        assert annual_value(conn, WMT, REV, 2024) is None
        assert available_fiscal_years(conn, NVDA) == [2024, 2025]
        assert latest_fiscal_year(conn, WMT) == 2025


def test_only_annual_reports_count(apple):
    """A proxy statement's pay-versus-performance table and a 10-Q's prior year-end balance sheet
    repeat annual figures in later filings; the answer cites the 10-K."""
    with apple.connection() as conn:
        fact(conn, AAPL, "0001308179-25-000008", "RevenueFromContractWithCustomerExcludingAssessedTax", "391000000000",
             date(2024, 9, 28), date(2023, 10, 1), fiscal_year=2024, fy=2024, form="DEF 14A", filed=date(2025, 1, 10))
        fact(conn, AAPL, "0000320193-25-000008", "Assets", "364980000000", date(2024, 9, 28), fiscal_year=2024,
             fy=2025, fp="Q1", form="10-Q", filed=date(2025, 1, 31))
        assert annual_value(conn, AAPL, REV, 2024).accession == "0000320193-24-000123"
        assert annual_value(conn, AAPL, ["us-gaap:Assets"], 2024).accession == "0000320193-24-000123"


def test_revenue_prefers_the_total_when_both_concepts_are_tagged(db):
    with db.connection() as conn:
        company(conn, WMT, "Walmart Inc.", ["WMT"])
        for concept, value in (("Revenues", "680985000000"),
                               ("RevenueFromContractWithCustomerExcludingAssessedTax", "674538000000")):
            fact(conn, WMT, "0000104169-25-000021", concept, value, date(2025, 1, 31), date(2024, 2, 1),
                 fiscal_year=2025, fy=2025, filed=date(2025, 3, 14))
        row = metric_value(conn, WMT, "revenue", 2025)
    assert row.concept == "Revenues" and row.value == Decimal("680985000000")


def test_edgar_index_url():
    assert edgar_index_url(320193, "0000320193-24-000123") == (
        "https://www.sec.gov/Archives/edgar/data/320193/000032019324000123/0000320193-24-000123-index.htm"
    )
    assert "CIK=320193" in edgar_index_url(320193, "noacc-320193-2024-09-28")


# --- over the fixture corpus, ingested through the real pipeline (figures from tests/fixtures/sec/README.md)

MILLION = Decimal(10) ** 6


@pytest.mark.parametrize(
    "cik, metric, fy, millions",
    [
        (AAPL, "revenue", 2024, "391035"),
        (AAPL, "revenue", 2023, "383285"),
        (AAPL, "net_income", 2024, "93736"),
        (AAPL, "rd", 2022, "26251"),  # reported by the FY2023 and FY2024 10-Ks for fiscal 2022
        (AAPL, "operating_cash_flow", 2024, "118254"),
        (AAPL, "capex", 2024, "9447"),
        (AAPL, "total_assets", 2024, "364980"),
        (AAPL, "total_assets", 2023, "352583"),
        (AAPL, "cash", 2024, "29943"),
        (AAPL, "equity", 2024, "56950"),
        (AAPL, "current_liabilities", 2024, "176392"),
        (NVDA, "revenue", 2025, "130497"),
        (NVDA, "revenue", 2024, "60922"),
        (NVDA, "capex", 2025, "3236"),  # PaymentsToAcquireProductiveAssets
        (NVDA, "total_assets", 2025, "111601"),
        (NVDA, "total_assets", 2024, "65728"),
        (WMT, "revenue", 2025, "680985"),
        (WMT, "revenue", 2024, "648125"),
        (WMT, "net_income", 2025, "19436"),  # NetIncomeLoss, not the ProfitLoss that includes minorities
        (WMT, "total_assets", 2025, "260823"),
        (WMT, "total_assets", 2024, "252399"),
        (1318605, "revenue", 2024, "97690"),
        (1318605, "revenue", 2022, "81462"),
        (1318605, "operating_income", 2024, "7076"),
        (1318605, "equity", 2024, "72913"),
    ],
)
def test_corpus_figures(corpus_db, cik, metric, fy, millions):
    with corpus_db.connection() as conn:
        row = metric_value(conn, cik, metric, fy)
    assert row is not None, (cik, metric, fy)
    assert row.value == Decimal(millions) * MILLION


def test_corpus_apple_fy2024_revenue_cites_its_10k(corpus_db):
    with corpus_db.connection() as conn:
        row = metric_value(conn, AAPL, "revenue", 2024)
    assert row.qualified_concept == "us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax"
    assert row.accession == "0000320193-24-000123"
    assert row.period_end == date(2024, 9, 28)
    assert row.url.startswith("https://www.sec.gov/")


def test_corpus_nvidia_split_restatement(corpus_db):
    """FY2024 diluted EPS: 11.93 as first reported, 1.19 after the June 2024 ten-for-one split."""
    with corpus_db.connection() as conn:
        latest = metric_value(conn, NVDA, "eps_diluted", 2024)
        original = metric_value(conn, NVDA, "eps_diluted", 2024, as_of_accession="0001045810-24-000029")
        shares = metric_value(conn, NVDA, "shares_outstanding", 2024)
        fy2023_eps = metric_value(conn, NVDA, "eps_diluted", 2023)
    assert latest.value == Decimal("1.19") and latest.accession == "0001045810-25-000023"
    assert original.value == Decimal("11.93") and original.accession == "0001045810-24-000029"
    assert shares.value == Decimal(24643) * MILLION
    assert fy2023_eps.value == Decimal("0.17")


def test_corpus_missing_concepts_are_none_not_look_alikes(corpus_db):
    with corpus_db.connection() as conn:
        assert metric_value(conn, WMT, "rd", 2025) is None
        assert metric_value(conn, WMT, "gross_profit", 2025) is None
        assert metric_value(conn, WMT, "total_liabilities", 2025) is None
        # Tesla's D&A is a company-extension concept (tsla:...), which the table does not accept
        assert metric_value(conn, 1318605, "depreciation_amortization", 2024) is None


def test_corpus_effective_tax_rate_is_a_reported_rate(corpus_db):
    from agent.retrieval.finance import display_value

    with corpus_db.connection() as conn:
        row = metric_value(conn, AAPL, "effective_tax_rate", 2024)
        nvda = metric_value(conn, NVDA, "effective_tax_rate", 2023)
    assert display_value(row.value, row.unit) == "24.1%"
    assert display_value(nvda.value, nvda.unit) == "-4.5%"


def test_corpus_years_and_filings(corpus_db):
    with corpus_db.connection() as conn:
        assert {2022, 2023, 2024} <= set(available_fiscal_years(conn, AAPL))
        assert latest_fiscal_year(conn, AAPL) == 2024
        assert latest_fiscal_year(conn, NVDA) == 2025
        assert latest_fiscal_year(conn, WMT) == 2025
        apple = filing_for(conn, AAPL, 2024)
        walmart = filing_for(conn, WMT, 2025)
    assert apple.accession == "0000320193-24-000123" and apple.ingested
    assert walmart.ingested and walmart.period_end == date(2025, 1, 31)


def test_a_member_tagged_only_beside_one_other_member_is_its_own_figure_and_a_matrix_cell_never(db):
    """Humira, tagged only with its portfolio, is Humira's figure; a product tagged in two regions is a
    matrix whose cells no question about the product asked for."""
    from store.segments import member_pair_values

    with db.connection() as conn:
        company(conn, 1551152, "AbbVie Inc.", ["ABBV"], "1231")
        filing(conn, 1551152, "abbv-24", 2024, date(2024, 12, 31))
        span = dict(start=date(2024, 1, 1), fiscal_year=2024)
        portfolio, product, geo = "abbv:KeyProductPortfolioAxis", "srt:ProductOrServiceAxis", "srt:StatementGeographicalAxis"
        fact(conn, 1551152, "abbv-24", "RevenueFromContractWithCustomerExcludingAssessedTax", "8993000000",
             date(2024, 12, 31), dims={product: "abbv:HumiraMember", portfolio: "abbv:ImmunologyMember"}, **span)
        for region, value in (("country:US", "1000"), ("us-gaap:NonUsMember", "2000")):
            fact(conn, 1551152, "abbv-24", "RevenueFromContractWithCustomerExcludingAssessedTax", value,
                 date(2024, 12, 31), dims={product: "abbv:SkyriziMember", geo: region}, **span)
        found = {(r.axis, r.member): r.value for r in member_pair_values(
            conn, 1551152, ["us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax"], 2024, instant=False)}
    assert found[(product, "abbv:HumiraMember")] == Decimal("8993000000")
    assert (product, "abbv:SkyriziMember") not in found  # in two regions: a matrix, never one figure


def test_a_member_tagged_plainly_and_beside_operating_segments_is_answered_with_the_plain_fact(db):
    """The segment table states the plain figure; the 'operating segments' one is before eliminations.
    Whatever order the rows were written in, the answer is the same figure."""
    from store.segments import member_values

    segment, consolidation = "us-gaap:StatementBusinessSegmentsAxis", "srt:ConsolidationItemsAxis"
    with db.connection() as conn:
        company(conn, 40545, "General Electric Co", ["GE"], "1231")
        filing(conn, 40545, "ge-23", 2023, date(2023, 12, 31))
        span = dict(start=date(2023, 1, 1), fiscal_year=2023)
        for member, plain_first in (("ge:PowerSegmentMember", True), ("ge:AerospaceSegmentMember", False),
                                    ("ge:RenewableEnergySegmentMember", True), ("ge:OtherSegmentMember", False)):
            plain = ({segment: member}, "100")
            gross = ({segment: member, consolidation: "us-gaap:OperatingSegmentsMember"}, "103")
            for dims, value in (plain, gross) if plain_first else (gross, plain):
                fact(conn, 40545, "ge-23", "Revenues", value, date(2023, 12, 31), dims=dims, **span)
        found = {r.member: r.value for r in member_values(conn, 40545, ["us-gaap:Revenues"], 2023, instant=False)}
    assert len(found) == 4 and set(found.values()) == {Decimal("100")}
