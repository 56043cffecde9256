"""Parsing a 10-K primary document: cover, Items (with the heading fallback), inline XBRL facts."""

from datetime import date
from decimal import Decimal
from pathlib import Path

import pytest

from ingest.html10k import FilingParseError, parse_10k
from ingest.page_index import cross_reference_items, find_items_by_index
from ingest.sections import find_items, is_stub, normalize_item_text

MINI = Path(__file__).parent / "fixtures" / "parse" / "mini-10k.htm"


@pytest.fixture(scope="module")
def mini_bytes() -> bytes:
    return MINI.read_bytes()


@pytest.fixture(scope="module")
def parsed(mini_bytes):
    return parse_10k(mini_bytes, source=str(MINI))


def _fact(parsed, concept, end=date(2024, 1, 28), dims=None):
    hits = [f for f in parsed.facts if f.concept == concept and f.period_end == end and f.dims == (dims or {})]
    assert len(hits) == 1, hits
    return hits[0]


def test_cover(parsed):
    m = parsed.meta
    assert (m.cik, m.company, m.ticker, m.form) == (9999001, "Example Widgets Inc.", "WDGT", "10-K")
    assert (m.fiscal_year, m.fiscal_period) == (2024, "FY")
    # The cover date is a nested tag ("January 28" inside "January 28, 2024"): read from its context.
    assert m.period_end == date(2024, 1, 28)
    assert m.accession is None
    assert len(parsed.content_hash) == 64


def test_accession_and_filing_details_are_passed_through(mini_bytes):
    p = parse_10k(mini_bytes, source="x", accession="0009999001-24-000007", filed=date(2024, 3, 15),
                  url="https://www.sec.gov/Archives/edgar/data/9999001/000999900124000007/wdgt-20240128.htm")
    assert p.meta.accession == "0009999001-24-000007"
    assert p.meta.filed == date(2024, 3, 15)
    assert {f.accession for f in p.facts} == {"0009999001-24-000007"}
    assert {f.filed for f in p.facts} == {date(2024, 3, 15)}


def test_items_found_and_stub_item_8_recovered(parsed):
    by_item = {s.item: s for s in parsed.sections}
    assert list(by_item) == ["1", "1A", "1C", "7", "7A", "8"]
    assert parsed.missing_items == []
    assert by_item["1A"].text.startswith("Item 1A. Risk Factors")
    assert "few large customers" in by_item["1A"].text
    assert "Item 1C" not in by_item["1A"].text
    assert by_item["1A"].method == "edgartools"
    # Item 8 only points to Item 15: the statements are found there by the heading fallback.
    assert by_item["8"].method == "headings"
    assert "Report of Independent Registered Public Accounting Firm" in by_item["8"].text
    assert "Note 4. Income taxes" in by_item["8"].text
    assert "Exhibit 31.1" not in by_item["8"].text
    assert by_item["1"].title == "Business" and by_item["7"].title.startswith("Management")


def test_tables_are_rendered_as_rows_inside_their_item(parsed):
    item7 = next(s for s in parsed.sections if s.item == "7")
    assert len(item7.tables) == 1
    table = item7.tables[0]
    assert "Revenue | $1,234.5 | $1,100.0" in table
    assert "Diluted earnings per share | $1.50 | $1.20" in table
    assert table in item7.text  # in place, so chunks keep document order
    item8 = next(s for s in parsed.sections if s.item == "8")
    assert any("Gross profit | 434.5 | 340.0" in t for t in item8.tables)


def test_facts_scaled_signed_typed(parsed):
    revenue = _fact(parsed, "Revenues")
    assert revenue.value == Decimal("1234500000") and isinstance(revenue.value, Decimal)
    assert (revenue.taxonomy, revenue.unit, revenue.period_start) == ("us-gaap", "USD", date(2023, 1, 30))
    assert (revenue.fy, revenue.fp, revenue.form, revenue.source) == (2024, "FY", "10-K", "ixbrl")
    assert revenue.accession == "noacc-9999001-2024-01-28"
    assert revenue.decimals == "-6"
    # sign="-" is applied once: the displayed "(12)" is an expense of 12 million.
    assert _fact(parsed, "NonoperatingIncomeExpense").value == Decimal("-12000000")
    assert _fact(parsed, "NonoperatingIncomeExpense", end=date(2023, 1, 29)).value == Decimal("3000000")
    assert _fact(parsed, "EarningsPerShareDiluted").unit == "USD/shares"
    assert _fact(parsed, "EarningsPerShareDiluted").value == Decimal("1.50")
    rate = _fact(parsed, "EffectiveIncomeTaxRateContinuingOperations")
    assert (rate.unit, rate.value) == ("pure", Decimal("0.215"))
    cash = _fact(parsed, "CashAndCashEquivalentsAtCarryingValue")
    assert cash.period_start is None and cash.value == Decimal("310000000")
    shares = _fact(parsed, "CommonStockSharesOutstanding")
    assert (shares.unit, shares.value) == ("shares", Decimal("100200000"))


def test_dimensional_facts_keep_their_members(parsed):
    gears = _fact(parsed, "Revenues", dims={"us-gaap:StatementBusinessSegmentsAxis": "wdgt:GearsSegmentMember"})
    assert gears.value == Decimal("700000000") and gears.dimensional
    assert not _fact(parsed, "Revenues").dimensional


def test_only_numeric_facts(parsed):
    assert all(f.taxonomy != "dei" for f in parsed.facts)
    assert len(parsed.facts) == 12


def test_amendment_recognised_by_document_type(mini_bytes):
    html = mini_bytes.replace(b">10-K</ix:nonNumeric>", b">10-K/A</ix:nonNumeric>")
    assert parse_10k(html, source="amended").meta.form == "10-K/A"  # AmendmentFlag still says false


def test_not_a_10k_is_a_named_error(mini_bytes):
    html = mini_bytes.replace(b">10-K</ix:nonNumeric>", b">10-Q</ix:nonNumeric>")
    with pytest.raises(FilingParseError, match=r"q\.htm: not a 10-K .*10-Q"):
        parse_10k(html, source="q.htm")


def test_html_without_inline_xbrl_is_a_named_error():
    with pytest.raises(FilingParseError, match="plain.htm: no inline XBRL cover"):
        parse_10k(b"<html><body><p>Item 1. Business</p><p>We make things.</p></body></html>", source="plain.htm")


def test_truncated_document_still_parses_or_fails_with_its_name(mini_bytes):
    cut = mini_bytes[: len(mini_bytes) // 2]
    try:
        p = parse_10k(cut, source="cut.htm")
    except FilingParseError as exc:
        assert str(exc).startswith("cut.htm: ")
    else:  # a recovering parser keeps what is there and reports the Items it lost
        assert p.meta.cik == 9999001
        assert "8" in p.missing_items


def test_missing_and_stub_items_are_reported(mini_bytes):
    # Remove Item 1C entirely and leave Item 8 as a bare pointer with no statements anywhere.
    html = mini_bytes.decode()
    start, end = html.index('<div id="i1c">'), html.index('<div id="i2">')
    html = html[:start] + html[end:]
    start, end = html.index("<p><b>Report of Independent"), html.index("<p><b>Exhibit Index")
    html = html[:start] + html[end:]
    p = parse_10k(html, source="gaps.htm")
    assert p.missing_items == ["1C", "8"]
    assert "1C" not in {s.item for s in p.sections}


def test_heading_split_skips_the_table_of_contents():
    toc = "\n".join(f"  Item {i}.      {t}      {n}" for i, t, n in
                    [("1", "Business", 3), ("1A", "Risk Factors", 9), ("7", "Management's Discussion", 20),
                     ("8", "Financial Statements", 30)])
    body = ("Item 1. Business\n\n" + "We make gears. " * 40 + "\n\nItem 1A. Risk Factors\n\n"
            + "Customers may leave. " * 40 + "\n\nItem 7. Management's Discussion and Analysis\n\n"
            + "Revenue rose. " * 60 + "\n\nItem 8. Financial Statements and Supplementary Data\n\n"
            + "See the statements. " * 30 + "\n\nItem 9. Changes in and Disagreements with Accountants\n\nNone.")
    items = find_items(toc + "\n\n" + body)
    assert items["1A"].text.startswith("Item 1A. Risk Factors")
    assert "Customers may leave." in items["1A"].text and "Revenue rose." not in items["1A"].text
    assert items["7"].text.endswith("Revenue rose.")


def test_stub_detection():
    assert is_stub("Item 7A. Quantitative and Qualitative Disclosures About Market Risk\n\nNone.", "7A")
    assert is_stub("Item 8. Financial Statements\n\nThe information required by this Item is incorporated "
                   "herein by reference to pages 40 through 90 of the Annual Report to Shareholders.", "8")
    assert not is_stub("Item 1C. Cybersecurity\n\n" + "We run a security program with outside testing. " * 20, "1C")


def test_normalize_keeps_prose_and_marks_numeric_tables():
    text = ("Item 7. Results\n\nWe grew.\n\n                 2024       2023\n ─────────\n"
            "  Revenue      $   1,234    $   1,100\n  Net income        150          120\n\n"
            "  •       A bullet laid out as a table row\n\nMore prose.")
    out, tables = normalize_item_text(text)
    assert tables == ["2024 | 2023\nRevenue | $1,234 | $1,100\nNet income | 150 | 120"]
    assert out.split("\n\n") == ["Item 7. Results", "We grew.", tables[0], "• A bullet laid out as a table row",
                                 "More prose."]


def test_cross_reference_index_maps_items_to_printed_pages():
    # A filer that heads its text by topic, not by Item, and maps Items to printed pages.
    pages = {
        3: "ABOUT THE COMPANY. We make gears and motors. " * 20,
        4: "More about our plants and people. " * 20,
        5: "OTHER DATA. Five-year figures are shown above. " * 10
        + "\n\nCYBERSECURITY. Our security team tests our defences every year. " + "We train staff. " * 20,
        6: "Our security chief reports to the board. " * 10 + "\n\nRISK FACTORS. Customers may leave us. " * 5,
        7: "Metal prices may rise. " * 25,
        **{n: f"Notes to the statements, page {n}. " * 15 for n in range(8, 15)},
    }
    body = "\n\n".join(f"{text}\n\n2024 FORM 10-K {n}" for n, text in pages.items())
    index = ("FORM 10-K CROSS REFERENCE INDEX      Page(s)\n  Part I\n"
             "  Item 1.      Business      3-4\n  Item 1A.     Risk Factors      6-7\n"
             "  Item 1B.     Unresolved Staff Comments      Not applicable\n"
             "  Item 1C.     Cybersecurity      5-6\n  Item 2.      Properties      4\n"
             "  Item 7.      Management's Discussion and Analysis      3, 5\n  Signatures      9")
    cover = "FORM 10-K\n\nAnnual report\n\n2024 FORM 10-K 2"
    items = find_items_by_index(cover + "\n\n" + body + "\n\n" + index)
    assert items["1C"].text.startswith("CYBERSECURITY. Our security team")
    assert "Our security chief reports to the board." in items["1C"].text
    assert "RISK FACTORS" not in items["1C"].text and "Five-year" not in items["1C"].text
    assert items["1A"].text.startswith("RISK FACTORS.") and "Metal prices may rise." in items["1A"].text
    assert "ABOUT THE COMPANY" in items["1"].text and "More about our plants" in items["1"].text
    assert "1B" not in items
    assert all("2024 FORM 10-K" not in it.text for it in items.values())


def test_statements_printed_inside_item_7_become_item_8(mini_bytes):
    # Some filers print the statements inside Item 7 and leave Item 8 a pointer.
    html = mini_bytes.decode()
    start, end = html.index("<p><b>Report of Independent"), html.index("<p><b>Exhibit Index")
    statements = html[start:end]
    html = html[:start] + html[end:]
    html = html.replace('<div id="i7a"></div>', statements + '<div id="i7a"></div>')
    html = html.replace("set forth in Item 15 of this report", "set forth in Item 7 of this report")
    p = parse_10k(html, source="inside7.htm")
    by_item = {s.item: s for s in p.sections}
    assert p.missing_items == []
    assert "Consolidated Balance Sheets" not in by_item["7"].text
    assert "cash on hand and cash from operations" in by_item["7"].text
    assert "Total assets | $1,369,450 | $1,296,270" in by_item["8"].text
    assert "Note 4. Income taxes" in by_item["8"].text
    assert all(t in by_item["8"].text for t in by_item["8"].tables)
    assert all(t in by_item["7"].text for t in by_item["7"].tables)


def test_real_10k_facts_agree_with_sec_companyfacts():
    """Every companyfacts value of Apple's FY2024 10-K equals the one read from its inline XBRL."""
    import gzip
    import json

    from ingest.companyfacts import parse_companyfacts
    from tests.conftest import SHARED_SEC

    doc = SHARED_SEC / "filings" / "10-K" / "AAPL" / "0000320193-0000320193-24-000123-2024-09-28.htm.gz"
    cf_path = SHARED_SEC / "companyfacts" / "CIK0000320193.json.gz"
    if not (doc.exists() and cf_path.exists()):
        pytest.skip("shared SEC corpus not present")
    acc = "0000320193-24-000123"
    parsed = parse_10k(gzip.decompress(doc.read_bytes()), source=str(doc), accession=acc)
    assert parsed.missing_items == []
    _, _, cf = parse_companyfacts(json.load(gzip.open(cf_path)))
    key = lambda f: (f.taxonomy, f.concept, f.unit, f.period_start, f.period_end)  # noqa: E731
    mine = {key(f): f.value for f in parsed.facts if not f.dims}
    theirs = {key(f): f.value for f in cf if f.accession == acc}
    assert len(theirs) > 400
    assert {k: mine.get(k) for k in theirs} == theirs
    rd = {f.period_end: f.value for f in parsed.facts
          if f.concept == "ResearchAndDevelopmentExpense" and not f.dims}
    assert rd[date(2024, 9, 28)] == Decimal("31370000000")


def test_start_page_index_runs_each_item_to_the_next_items_page():
    pages = {n: f"Text of printed page {n}. " * 20 for n in range(2, 16)}
    pages[5] = "End of the business section. " * 10 + "\n\nRISK FACTORS\n\nCustomers may leave us. " * 5
    body = "\n\n".join(f"{text}\n\nAnnual Report {n}" for n, text in pages.items())
    index = ("Form 10-K Cross-Reference Index\n  Item 1.      Business      3\n"
             "  Item 1A.     Risk Factors      5\n  Item 2.      Properties      8\n"
             "  Item 7.      Management's Discussion and Analysis      9\n"
             "  Item 8.      Financial Statements and Supplementary Data      12\n  Signatures      15")
    full = body + "\n\n" + index
    assert cross_reference_items(full) == {}  # start pages only: not authoritative extents
    items = find_items_by_index(full)
    assert "printed page 3." in items["1"].text and "printed page 4." in items["1"].text
    assert "End of the business section." in items["1"].text and "RISK FACTORS" not in items["1"].text
    assert items["1A"].text.startswith("RISK FACTORS") and "printed page 7." in items["1A"].text


def test_item_7a_that_points_into_item_7_gets_the_part_it_names(mini_bytes):
    html = mini_bytes.decode()
    start = html.index("<p>Our main market risks are metal prices")
    end = html.index("</p>", start) + 4
    market_risk = html[start:end]
    html = html[:start] + '<p>See "Market Risk" in Item 7 of this report.</p>' + html[end:]
    html = html.replace(
        '<div id="i7a"></div>',
        "<p><b>MARKET RISK</b></p>" + market_risk + "<p><b>OUTLOOK</b></p><p>We expect growth to slow.</p>"
        '<div id="i7a"></div>',
    )
    p = parse_10k(html, source="pointer.htm")
    item7a = next(s for s in p.sections if s.item == "7A")
    assert p.missing_items == []
    assert item7a.method == "headings"
    assert 'See "Market Risk" in Item 7' in item7a.text
    assert "a ten percent weaker euro" in item7a.text
    assert "OUTLOOK" not in item7a.text and "growth to slow" not in item7a.text


def test_a_pointer_to_nothing_found_stays_missing(mini_bytes):
    html = mini_bytes.decode()
    start = html.index("<p>Our main market risks are metal prices")
    end = html.index("</p>", start) + 4
    html = html[:start] + '<p>See "Hedging Activities" in Item 7 of this report.</p>' + html[end:]
    assert parse_10k(html, source="nowhere.htm").missing_items == ["7A"]
