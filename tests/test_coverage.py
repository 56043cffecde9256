"""What the corpus covers, as `footnote tickers` and the bot's coverage answers show it."""

from __future__ import annotations

from datetime import date

import pytest

from ingest.cli import format_coverage, parse_years
from store.coverage import company_filings, coverage
from store.errors import FootnoteError


def test_coverage_lists_the_ingested_companies(corpus_db):
    with corpus_db.connection() as conn:
        rows = coverage(conn)
    by_ticker = {r["ticker"]: r for r in rows}
    assert list(by_ticker) == ["AAPL", "NVDA", "TSLA", "WMT"]  # MSFT is in SEC's map, not covered
    assert by_ticker["NVDA"]["fiscal_years"] == [2024, 2025]
    assert by_ticker["WMT"]["fiscal_years"] == [2024, 2025]
    assert by_ticker["AAPL"]["cik"] == 320193 and by_ticker["AAPL"]["name"] == "Apple Inc."
    assert all(r["chunks"] > 0 and r["facts"] > 0 for r in rows)
    # filings counts 10-Ks and 10-Qs; the quarters held are the company's own fiscal quarters
    assert {t: r["filings"] for t, r in by_ticker.items()} == {"AAPL": 3, "NVDA": 5, "TSLA": 2, "WMT": 2}
    assert by_ticker["NVDA"]["quarters"] == [(2025, 1), (2025, 2), (2025, 3)]
    assert by_ticker["AAPL"]["quarters"] == [(2024, 3)] and by_ticker["TSLA"]["quarters"] == []
    # companyfacts brings Apple's and NVIDIA's older years: more facts than the documents alone
    assert by_ticker["AAPL"]["facts"] > 2 * by_ticker["TSLA"]["facts"]


def test_coverage_filter(corpus_db):
    with corpus_db.connection() as conn:
        assert [r["ticker"] for r in coverage(conn, "nvid")] == ["NVDA"]
        assert [r["ticker"] for r in coverage(conn, "wmt")] == ["WMT"]
        assert coverage(conn, "microsoft") == []


def test_company_filings_newest_first(corpus_db):
    with corpus_db.connection() as conn:
        rows = company_filings(conn, "wmt")
    assert [(r["fiscal_year"], r["accession"], r["period_end"]) for r in rows] == [
        (2025, "noacc-104169-2025-01-31", date(2025, 1, 31)),
        (2024, "0000104169-24-000056", date(2024, 1, 31)),
    ]
    assert all(r["form"] == "10-K" and r["url"].startswith("https://www.sec.gov/") for r in rows)


def test_not_covered_is_told_from_unknown(corpus_db):
    """SEC's ticker map knows companies the corpus does not cover: the directory the planner reads
    tells such a company (a not_covered refusal) from a ticker nobody has (no_company)."""
    from agent.planning.companies import CompanyDirectory
    from store.companies import sec_title

    with corpus_db.connection() as conn:
        directory = CompanyDirectory.load(conn)
        assert sec_title(conn, "msft") == (789019, "MICROSOFT CORP") and sec_title(conn, "FOOBAR") is None
    microsoft, apple = directory.get("MSFT"), directory.get("AAPL")
    assert microsoft is not None and microsoft.cik == 789019 and not microsoft.covered
    assert apple is not None and apple.covered
    assert directory.get("FOOBAR") is None


def test_tickers_table(corpus_db):
    with corpus_db.connection() as conn:
        text = format_coverage(coverage(conn))
    lines = text.splitlines()
    assert lines[0].split() == ["TICKER", "COMPANY", "10-K", "FILINGS", "FIGURES", "ONLY", "10-Q", "QUARTERS", "FILINGS",
                                "CHUNKS", "FACTS"]  # fmt: skip
    assert lines[1].startswith("AAPL") and "FY2023, FY2024" in lines[1] and "FY2019–FY2022" in lines[1]
    assert "FY2024 Q3" in lines[1] and "FY2025 Q1–Q3" in next(line for line in lines if line.startswith("NVDA"))
    assert lines[-2] == "4 companies, 12 filings"
    assert lines[-1].startswith("10-K filings: figures and what the filing says. Figures only:")


def test_parse_years():
    assert parse_years("2024") == (2024, 2024)
    assert parse_years("2021-2024") == (2021, 2024)
    assert parse_years(None) is None
    with pytest.raises(FootnoteError):
        parse_years("2024-2021")
    with pytest.raises(FootnoteError):
        parse_years("last year")
