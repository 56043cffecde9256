"""Quarters: 10-Q documents read, keyed and stored in the company's own fiscal terms.

Pure rules first (fiscal quarters from anchors, Item keys), then the fixture corpus ingested by
the real pipeline into a real Postgres (tests/fixtures/sec holds four 10-Qs: Apple Q3 FY2024,
NVIDIA Q1-Q3 FY2025, whose figures are typed from the companies' XBRL).
"""

from __future__ import annotations

import shutil
from datetime import date
from decimal import Decimal

import pytest

from store.fiscal import fiscal_quarter_for, fiscal_year_for, quarter_anchor, quarter_before_year_end
from ingest.html10k import FilingParseError, parse_10k
from ingest.html10q import parse_10q
from ingest.pipeline import ingest_folder
from ingest.sec_select import in_years
from store import items
from store.coverage import coverage, filings, quarters_text
from store.facts import available_fiscal_years, filing_for
from tests.conftest import SEC_FIXTURES

NVDA, AAPL = 1045810, 320193
NVDA_Q2 = "filings/10-Q/NVDA/0001045810-0001045810-24-000264-2024-07-28.htm"
AAPL_Q3 = "filings/10-Q/AAPL/0000320193-0000320193-24-000081-2024-06-29.htm"

# (fiscal year end, the company's label): each company's own 10-K covers
ANCHORS = {
    "NVDA": [(date(2023, 1, 29), 2023), (date(2024, 1, 28), 2024), (date(2025, 1, 26), 2025)],
    "AAPL": [(date(2023, 9, 30), 2023), (date(2024, 9, 28), 2024)],
    "WMT": [(date(2024, 1, 31), 2024), (date(2025, 1, 31), 2025)],
    "NKE": [(date(2024, 5, 31), 2024)],
    "GME": [(date(2024, 2, 3), 2023)],  # GameStop labels the year by its start
    "MSFT": [(date(2024, 6, 30), 2024)],
}


@pytest.mark.parametrize("company, period_end, expected", [
    ("NVDA", date(2023, 7, 30), (2024, 2)),  # NVIDIA's Q2 FY2024 ended July 2023
    ("NVDA", date(2023, 4, 30), (2024, 1)),
    ("NVDA", date(2023, 10, 29), (2024, 3)),
    ("NVDA", date(2024, 1, 28), (2024, 4)),  # the year end is Q4's end
    ("NVDA", date(2024, 10, 27), (2025, 3)),
    ("AAPL", date(2023, 7, 1), (2023, 3)),  # Apple's June quarter is its third
    ("AAPL", date(2023, 12, 30), (2024, 1)),  # and the December quarter opens the next fiscal year
    ("AAPL", date(2024, 6, 29), (2024, 3)),
    ("WMT", date(2023, 7, 31), (2024, 2)),
    ("WMT", date(2024, 10, 31), (2025, 3)),
    ("NKE", date(2023, 8, 31), (2024, 1)),
    ("NKE", date(2024, 11, 30), (2025, 2)),  # a year past the last anchor
    ("GME", date(2023, 7, 29), (2023, 2)),
    ("MSFT", date(2023, 12, 31), (2024, 2)),
    ("MSFT", date(2022, 9, 30), (2023, 1)),  # a year before the only anchor
])  # fmt: skip
def test_fiscal_quarters_are_the_company_s_own(company, period_end, expected):
    anchors = ANCHORS[company]
    assert (fiscal_year_for(period_end, anchors), fiscal_quarter_for(period_end, anchors)) == expected


def test_a_date_off_every_quarter_end_has_no_quarter():
    anchors = ANCHORS["NVDA"]
    assert fiscal_quarter_for(date(2024, 8, 23), anchors) is None  # a cover date, four weeks after Q2
    assert fiscal_quarter_for(date(2024, 6, 10), anchors) is None
    assert fiscal_quarter_for(date(2024, 7, 28), []) is None  # no anchors, nothing to tell


def test_a_10q_cover_stands_in_for_missing_anchors():
    anchor = quarter_anchor(date(2023, 7, 30), 2024, 2)  # NVIDIA Q2 FY2024 10-Q, no 10-K held
    assert abs((anchor[0] - date(2024, 1, 28)).days) <= 7 and anchor[1] == 2024
    assert fiscal_quarter_for(date(2023, 4, 30), [anchor]) == 1
    assert quarter_before_year_end(date(2023, 6, 30), date(2023, 12, 31)) == 2


def test_item_keys_cannot_be_confused_and_map_between_forms():
    assert items.item_for("mdna", "10-K") == "7" and items.item_for("mdna", "10-Q") == "I-2"
    assert items.item_for("risk_factors", "10-Q/A") == "II-1A" and items.item_for("business", "10-Q") is None
    assert items.quarterly_item("7") == "I-2" and items.quarterly_item("1A") == "II-1A"
    assert items.annual_item("II-1A") == "1A" and items.quarterly_item("2") is None
    assert items.item_label("II-1A") == "Part II, Item 1A" and items.item_label("7A") == "Item 7A"
    assert not set(items.QUARTERLY_ITEMS) & {"1", "1A", "1C", "2", "3", "5", "7", "7A", "8"}


def test_quarters_text():
    assert quarters_text([(2024, 1), (2024, 2)], years=[2023, 2024]) == "FY2023: 10-K; FY2024: 10-K, Q1–Q2 10-Q"
    assert quarters_text([(2025, 1), (2025, 3)]) == "FY2025: Q1, Q3 10-Q"
    assert quarters_text([]) == ""


def test_sec_year_window_for_a_quarter():
    # NVIDIA's quarter ended July 2023 is in fiscal 2024: without SEC's label, both years may hold it.
    assert in_years(date(2023, 7, 30), None, (2024, 2024), quarterly=True)
    assert in_years(date(2023, 7, 30), None, (2023, 2023), quarterly=True)
    assert not in_years(date(2023, 7, 30), None, (2024, 2024))  # a 10-K's rule is narrower
    assert not in_years(date(2023, 7, 30), 2024, (2023, 2023), quarterly=True)  # a known label is exact


# -- parsing ------------------------------------------------------------------------------------

def test_a_10q_is_read_with_its_parts():
    parsed = parse_10q((SEC_FIXTURES / NVDA_Q2).read_bytes(), source=NVDA_Q2)
    meta = parsed.meta
    assert (meta.form, meta.fiscal_year, meta.fiscal_period, meta.period_end) == ("10-Q", 2025, "Q2", date(2024, 7, 28))
    assert meta.fiscal_year_end == "0126" and meta.is_quarterly
    assert [s.item for s in parsed.sections] == list(items.QUARTERLY_ITEMS) and parsed.missing_items == []
    by_item = {s.item: s for s in parsed.sections}
    assert "Second quarter revenue was $ 30,040 million" in by_item["I-2"].text
    assert "Export licensing requirements continue to change." in by_item["II-1A"].text
    assert "Legal Proceedings" in by_item["II-1"].text and "Financial Statements" not in by_item["II-1"].title
    periods = {(f.period_start, f.period_end) for f in parsed.facts if f.concept == "Revenues"}
    assert periods == {(date(2024, 4, 29), date(2024, 7, 28)), (date(2023, 5, 1), date(2023, 7, 30)),
                       (date(2024, 1, 29), date(2024, 7, 28)), (date(2023, 1, 30), date(2023, 7, 30))}  # fmt: skip


def test_each_form_in_its_own_parser():
    with pytest.raises(FilingParseError, match=r"not a 10-K \(dei:DocumentType is '10-Q'\)"):
        parse_10k((SEC_FIXTURES / NVDA_Q2).read_bytes(), source=NVDA_Q2)
    annual = "filings/10-K/NVDA/0001045810-0001045810-25-000023-2025-01-26.htm"
    with pytest.raises(FilingParseError, match=r"not a 10-Q \(dei:DocumentType is '10-K'\)"):
        parse_10q((SEC_FIXTURES / annual).read_bytes(), source=annual)


# -- the fixture corpus, ingested ------------------------------------------------------------

def test_10q_filings_are_stored_in_the_company_s_terms(corpus_db):
    with corpus_db.connection() as conn:
        rows = conn.execute("SELECT cik, form, fiscal_year, fiscal_period, period_end, missing_items FROM filings "
                            "WHERE form = '10-Q' ORDER BY period_end").fetchall()  # fmt: skip
        context = conn.execute("SELECT context FROM chunks WHERE accession = '0001045810-24-000264' AND item = 'II-1A' "
                               "LIMIT 1").fetchone()[0]  # fmt: skip
    assert rows == [
        (NVDA, "10-Q", 2025, "Q1", date(2024, 4, 28), []),
        (AAPL, "10-Q", 2024, "Q3", date(2024, 6, 29), []),
        (NVDA, "10-Q", 2025, "Q2", date(2024, 7, 28), []),
        (NVDA, "10-Q", 2025, "Q3", date(2024, 10, 27), []),
    ]
    assert context == "NVIDIA CORPORATION (NVDA) 10-Q Q2 FY2025 — Part II, Item 1A Risk Factors:"


FACT = """
SELECT value, fiscal_year, fiscal_quarter FROM facts
 WHERE cik = %s AND concept = %s AND accession = %s AND NOT dimensional AND period_end = %s
   AND coalesce(period_end - period_start, 0) BETWEEN %s AND %s
"""


def _fact(conn, cik, concept, accession, end, days):
    return conn.execute(FACT, (cik, concept, accession, end, days[0], days[1])).fetchall()


def test_three_month_year_to_date_and_instant_facts_keep_their_periods(corpus_db):
    q2 = "0001045810-24-000264"
    with corpus_db.connection() as conn:
        three = _fact(conn, NVDA, "Revenues", q2, date(2024, 7, 28), (80, 100))
        half = _fact(conn, NVDA, "Revenues", q2, date(2024, 7, 28), (170, 190))
        year_ago = _fact(conn, NVDA, "Revenues", q2, date(2023, 7, 30), (80, 100))
        assets = _fact(conn, NVDA, "Assets", q2, date(2024, 7, 28), (0, 0))
        opening = _fact(conn, NVDA, "Assets", q2, date(2024, 1, 28), (0, 0))
        apple = _fact(conn, AAPL, "RevenueFromContractWithCustomerExcludingAssessedTax", "0000320193-24-000081",
                      date(2024, 6, 29), (80, 100))  # fmt: skip
        nine = _fact(conn, AAPL, "NetIncomeLoss", "0000320193-24-000081", date(2024, 6, 29), (260, 280))
        annual = _fact(conn, NVDA, "Revenues", "0001045810-25-000023", date(2025, 1, 26), (350, 380))
        cover = conn.execute("SELECT fiscal_quarter FROM facts WHERE accession = %s AND concept = "
                             "'EntityCommonStockSharesOutstanding'", (q2,)).fetchall()  # fmt: skip
    assert three == [(Decimal("30040000000"), 2025, 2)]  # Q2 FY2025: three months
    assert half == [(Decimal("56084000000"), 2025, 2)]  # the first half, ending at Q2
    assert year_ago == [(Decimal("13507000000"), 2024, 2)]  # Q2 FY2024, as this 10-Q repeats it
    assert assets == [(Decimal("85227000000"), 2025, 2)] and opening == [(Decimal("65728000000"), 2024, 4)]
    assert apple == [(Decimal("85777000000"), 2024, 3)] and nine == [(Decimal("79000000000"), 2024, 3)]
    assert annual == [(Decimal("130497000000"), 2025, 4)]  # a fiscal year ends at its Q4
    assert cover == [(None,)]  # the cover date is no quarter end


def test_annual_answers_ignore_the_10qs(corpus_db):
    with corpus_db.connection() as conn:
        assert filing_for(conn, NVDA, 2025).accession == "0001045810-25-000023"
        assert filing_for(conn, AAPL, 2024).form == "10-K"
        nvda = filings(conn, "NVDA")
    assert [(r["form"], r["fiscal_period"]) for r in nvda][:4] == [("10-K", "FY"), ("10-Q", "Q3"), ("10-Q", "Q2"),
                                                                    ("10-Q", "Q1")]  # newest first  # fmt: skip


def _folder(tmp_path, *rels):
    for rel in rels:
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(SEC_FIXTURES / rel, tmp_path / rel)
    shutil.copy(SEC_FIXTURES / "company_tickers.json", tmp_path / "company_tickers.json")
    return tmp_path


def test_a_company_with_only_a_10q(db, embedder, tmp_path):
    """No 10-K, no companyfacts: the 10-Q's cover names the fiscal year and quarter, and its facts
    fall in the company's own quarters all the same; no fiscal year counts as annually covered."""
    summary = ingest_folder(db, embedder, _folder(tmp_path, NVDA_Q2), progress=False)
    assert [o.label for o in summary.ingested] == ["NVDA Q2 FY2025 10-Q (0001045810-24-000264)"]
    with db.connection() as conn:
        q2 = _fact(conn, NVDA, "Revenues", "0001045810-24-000264", date(2024, 7, 28), (80, 100))
        prior = _fact(conn, NVDA, "Revenues", "0001045810-24-000264", date(2023, 7, 30), (80, 100))
        fye = conn.execute("SELECT fiscal_year_end FROM companies WHERE cik = %s", (NVDA,)).fetchone()[0]
        rows = coverage(conn)
        years = available_fiscal_years(conn, NVDA)
    assert q2 == [(Decimal("30040000000"), 2025, 2)] and prior == [(Decimal("13507000000"), 2024, 2)]
    assert fye == "0126"  # from the cover, not the quarter's end
    assert rows[0]["fiscal_years"] == [] and rows[0]["quarters"] == [(2025, 2)] and years == []


def test_quarters_are_refilled_for_facts_stored_before_them(db, embedder, tmp_path):
    folder = _folder(tmp_path, AAPL_Q3)
    ingest_folder(db, embedder, folder, progress=False)
    with db.connection() as conn:  # as a database migrated from before quarters would hold them
        conn.execute("UPDATE facts SET fiscal_quarter = NULL")
        conn.execute("DELETE FROM corpus_meta WHERE key = 'source:fiscal_quarters'")
    again = ingest_folder(db, embedder, folder, progress=False)
    assert again.ingested == [] and again.unchanged == 1
    with db.connection() as conn:
        filled = _fact(conn, AAPL, "NetIncomeLoss", "0000320193-24-000081", date(2024, 6, 29), (80, 100))
    assert filled == [(Decimal("21448000000"), 2024, 3)]


def test_a_10k_in_the_10q_folder_is_named(db, embedder, tmp_path):
    annual = "filings/10-K/AAPL/0000320193-0000320193-24-000123-2024-09-28.htm"
    misplaced = tmp_path / "filings/10-Q/AAPL/0000320193-0000320193-24-000123-2024-09-28.htm"
    misplaced.parent.mkdir(parents=True)
    shutil.copy(SEC_FIXTURES / annual, misplaced)
    shutil.copy(SEC_FIXTURES / "company_tickers.json", tmp_path / "company_tickers.json")
    summary = ingest_folder(db, embedder, tmp_path, progress=False)
    assert [o.reason.split(": ", 1)[1] for o in summary.failed] == ["not a 10-Q (dei:DocumentType is '10-K')"]


PLAIN_10Q = """PART I. FINANCIAL INFORMATION
Item 1. Financial Statements            3
Item 2. Management's Discussion and Analysis   20
PART II. OTHER INFORMATION
Item 1. Legal Proceedings   40
Item 2. Unregistered Sales of Equity Securities   41

PART I. FINANCIAL INFORMATION

Item 1. Financial Statements

{statements}

Item 2. Management's Discussion and Analysis of Financial Condition and Results of Operations

{mdna}

Quantitative and Qualitative Disclosures About Market Risk

There were no material changes in market risk during the quarter. {filler}

Controls and Procedures

Disclosure controls were effective at the end of the quarter. {filler}

PART II. OTHER INFORMATION

Item 1. Legal Proceedings

See Note 9 for the legal matters the company is party to.

Item 1A. Risk Factors

There have been no material changes to the risk factors in the annual report.

Item 2. Unregistered Sales of Equity Securities and Use of Proceeds

The company bought back shares during the quarter. {filler}

Item 5. Other Information

None.
"""


def test_headings_tell_the_parts_apart():
    """Item numbers repeat across the Parts: the title decides (Part II Item 2 is no MD&A), a Part I
    Item written without "Item N." is found by its title, and the contents table loses to the body."""
    from ingest.sections10q import find_quarterly_items

    text = PLAIN_10Q.format(statements="Revenue | 1,234 | 1,111\n" * 200, mdna="Revenue grew in the quarter. " * 200,
                            filler="More text follows here. " * 40)  # fmt: skip
    found = find_quarterly_items(text)
    assert set(found) == {"I-1", "I-2", "I-3", "I-4", "II-1", "II-1A", "II-2", "II-5"}
    assert found["I-2"].text.startswith("Item 2. Management's") and "bought back" not in found["I-2"].text
    assert found["II-2"].text.startswith("Item 2. Unregistered") and "Revenue grew" not in found["II-2"].text
    assert found["I-3"].text.startswith("Quantitative") and "PART II" not in found["I-4"].text
    assert found["II-1"].text.startswith("Item 1. Legal") and "Note 9" in found["II-1"].text
    assert found["I-1"].text.count("1,234") == 200


def test_a_company_s_own_quarter_ends_win_over_thirteen_weeks():
    """PepsiCo's quarters run 12, 12, 12 and 16 weeks: its third ends 16 weeks before the year end,
    further off a 13-week grid than any tolerance allows; the 10-Q that declares it settles it."""
    pep = [(date(2022, 12, 31), 2022), (date(2023, 12, 30), 2023)]
    assert fiscal_quarter_for(date(2023, 9, 9), pep) is None
    assert fiscal_quarter_for(date(2023, 9, 9), pep, {date(2023, 9, 9): 3}) == 3
    assert fiscal_quarter_for(date(2023, 9, 10), pep, {date(2023, 9, 9): 3}) == 3  # a day's drift in a context
    assert fiscal_quarter_for(date(2023, 3, 25), pep, {date(2023, 9, 9): 3}) == 1  # the rest by arithmetic
