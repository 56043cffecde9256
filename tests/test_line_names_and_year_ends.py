"""A line asked by the name the company's row goes by, never a longer or another row: property and equipment with or
without "plant", the balance sheet's closing total whatever its equity is called, two totals that are no one row,
a change asked with the company's words before the balance, a row whose name holds "and", one label on two concepts
across filings; a segment's sales to customers before its sales before eliminations; and a balance at a fiscal
year's end of a company held only through its 10-Qs, from the next 10-Q's comparative column.

Real figures (USD millions) are typed in as facts; the row names are short labels as the statements print them.
"""

from __future__ import annotations

import uuid
from datetime import date
from decimal import Decimal

from psycopg.types.json import Jsonb

from agent.answer import Turn
from agent.retrieval.line_items import company_line, line_key, resolve
from tests.test_facts import company, fact, filing

M = 1_000_000


def _row(label: str, concept: str, statement: str = "balance", row: int = 1) -> dict:
    return {"label": label, "concept": concept, "statement": statement, "dims": {}, "negated": False, "row": row}


def _label(conn, acc, cik, concept, label, statement, row, taxonomy="us-gaap", dims=None):
    conn.execute("INSERT INTO line_labels (accession, cik, taxonomy, concept, label, statement, table_no, row_no,"
                 " negated, dims) VALUES (%s, %s, %s, %s, %s, %s, 2, %s, false, %s)",
                 (acc, cik, taxonomy, concept, label, statement, row, Jsonb(dims or {})))


def _ask(db, embedder, text):
    from bot.settings import Settings
    from bot.wiring import build_footnote

    footnote = build_footnote(db, embedder, Settings(llm="off"), use_cache=False)
    return footnote.answer(Turn(thread_key=f"test:{uuid.uuid4().hex}", user="u", text=text))


def _values(answer) -> list[Decimal]:
    return [Decimal(n.value) for n in answer.numbers]


def test_property_and_equipment_is_named_with_or_without_plant():
    rows = [_row("Property, plant and equipment, net", "us-gaap:PropertyPlantAndEquipmentNet"),
            _row("Gross property, plant and equipment", "us-gaap:PropertyPlantAndEquipmentGross", "other")]
    match, _ = resolve("property equipment net", "property and equipment, net", rows, [])
    assert match is not None and match.concept == "us-gaap:PropertyPlantAndEquipmentNet"
    match, _ = resolve("property plant equipment", "property plant & equipment", [_row(
        "Net property and equipment", "us-gaap:PropertyPlantAndEquipmentNet")], [])
    assert match is not None and match.concept == "us-gaap:PropertyPlantAndEquipmentNet"


def test_the_closing_total_is_one_figure_whatever_its_equity_is_called():
    rows = [_row("Total liabilities and shareholders' equity", "us-gaap:LiabilitiesAndStockholdersEquity", row=40),
            _row("Total equity", "us-gaap:StockholdersEquityIncludingPortionAttributableToNoncontrollingInterest", row=39)]
    match, _ = resolve("total liabilities equity", "total liabilities and equity", rows, [])
    assert match is not None and match.concept == "us-gaap:LiabilitiesAndStockholdersEquity"
    match, _ = resolve("total liabilities stockholders equity", "total liabilities and stockholders equity",
                       [_row("Total liabilities and equity", "us-gaap:LiabilitiesAndStockholdersEquity", row=40)], [])
    assert match is not None and match.concept == "us-gaap:LiabilitiesAndStockholdersEquity"


def test_two_totals_named_are_no_one_row():
    cik = 732712
    memo = {("labels", cik): [_row("Total liabilities and equity", "us-gaap:LiabilitiesAndStockholdersEquity", row=40)],
            ("concepts", cik): [("us-gaap:LiabilitiesAndStockholdersEquity", "instant")], ("name", cik): "verizon"}
    match, candidates = company_line(None, memo, cik, line_key("total liabilities and total stockholders equity"))
    assert match is None and not candidates
    match, _ = company_line(None, memo, cik, line_key("total liabilities and stockholders equity"))
    assert match is not None and match.concept == "us-gaap:LiabilitiesAndStockholdersEquity"


HD, HD_ACC = 354950, "0000354950-25-000007"


def test_a_change_asked_with_the_companys_words_before_the_balance_is_the_change(db, embedder):
    with db.connection() as conn:
        company(conn, HD, "HOME DEPOT, INC.", ["HD"], "0202")
        filing(conn, HD, HD_ACC, 2024, date(2025, 2, 2), date(2025, 3, 21))
        _label(conn, HD_ACC, HD, "InventoryNet", "Merchandise inventories", "balance", 3)
        _label(conn, HD_ACC, HD, "IncreaseDecreaseInRetailRelatedInventories", "Changes in merchandise inventories",
               "cash", 12)
        fact(conn, HD, HD_ACC, "InventoryNet", str(23451 * M), date(2025, 2, 2), fiscal_year=2024, fy=2024,
             filed=date(2025, 3, 21))
        fact(conn, HD, HD_ACC, "IncreaseDecreaseInRetailRelatedInventories", str(743 * M), date(2025, 2, 2),
             date(2024, 1, 29), fiscal_year=2024, fy=2024, filed=date(2025, 3, 21))
    change = _ask(db, embedder, "HD changes in merchandise inventories fy2024")
    assert _values(change) == [743 * M], change.text  # once, and never the balance
    balance = _ask(db, embedder, "HD merchandise inventories fy2024")
    assert _values(balance) == [23451 * M], balance.text


MCD, MCD_ACC = 63908, "0000063908-24-000011"


def test_a_row_whose_name_holds_and_is_one_line_however_long(db, embedder):
    with db.connection() as conn:
        company(conn, MCD, "MCDONALDS CORP", ["MCD"], "1231")
        filing(conn, MCD, MCD_ACC, 2023, date(2023, 12, 31), date(2024, 2, 22))
        _label(conn, MCD_ACC, MCD, "DebtCurrent", "Short-term borrowings and current maturities of long-term debt",
               "balance", 12)
        _label(conn, MCD_ACC, MCD, "CommercialPaper", "Commercial paper", "other", 3)
        fact(conn, MCD, MCD_ACC, "DebtCurrent", "2192400000", date(2023, 12, 31), fiscal_year=2023, fy=2023,
             filed=date(2024, 2, 22))
        fact(conn, MCD, MCD_ACC, "CommercialPaper", "347600000", date(2023, 12, 31), fiscal_year=2023, fy=2023,
             filed=date(2024, 2, 22))
    answer = _ask(db, embedder, "mcd short-term borrowings and current maturities of long-term debt 2023")
    assert _values(answer) == [Decimal("2192400000")], answer.text


INTC, INTC_ACC, INTC_Q = 50863, "0000050863-24-000010", "0000050863-23-000069"


def test_one_label_on_two_concepts_is_the_one_its_reporting_filing_prints(db, embedder):
    """Intel's 10-K prints "Proceeds from sales of subsidiary shares" on one concept and "Partner contributions" on
    another; a 10-Q printed the first name on the second concept. Both have an amount for the year."""
    with db.connection() as conn:
        company(conn, INTC, "INTEL CORP", ["INTC"], "1230")
        filing(conn, INTC, INTC_ACC, 2023, date(2023, 12, 30), date(2024, 1, 26))
        filing(conn, INTC, INTC_Q, 2023, date(2023, 7, 1), date(2023, 7, 28), form="10-Q")
        _label(conn, INTC_ACC, INTC, "ProceedsFromIssuanceInitialPublicOffering", "Proceeds from sales of subsidiary shares",
               "cash", 40)
        _label(conn, INTC_ACC, INTC, "ProceedsFromMinorityShareholders", "Partner contributions", "cash", 39)
        _label(conn, INTC_Q, INTC, "ProceedsFromMinorityShareholders", "Proceeds from sales of subsidiary shares",
               "cash", 30)
        for concept, value in (("ProceedsFromIssuanceInitialPublicOffering", 2959),
                               ("ProceedsFromMinorityShareholders", 1511)):
            fact(conn, INTC, INTC_ACC, concept, str(value * M), date(2023, 12, 30), date(2023, 1, 1), fiscal_year=2023,
                 fy=2023, filed=date(2024, 1, 26))
    answer = _ask(db, embedder, "What were Intel's proceeds from sales of subsidiary shares in 2023?")
    assert _values(answer) == [2959 * M], answer.text


def test_a_segments_sales_to_customers_come_before_its_sales_before_eliminations(db):
    from store import segments as segments_store

    rtx, acc = 101829, "0000101829-24-000008"
    segment = {"us-gaap:StatementBusinessSegmentsAxis": "rtx:CollinsAerospaceSystemsMember"}
    marked = {**segment, "srt:ConsolidationItemsAxis": "us-gaap:OperatingSegmentsMember"}
    with db.connection() as conn:
        company(conn, rtx, "RTX Corp", ["RTX"], "1231")
        filing(conn, rtx, acc, 2023, date(2023, 12, 31), date(2024, 2, 5))
        fact(conn, rtx, acc, "Revenues", str(26253 * M), date(2023, 12, 31), date(2023, 1, 1), fiscal_year=2023,
             fy=2023, filed=date(2024, 2, 5), dims=marked)
        fact(conn, rtx, acc, "RevenueFromContractWithCustomerExcludingAssessedTax", str(24294 * M), date(2023, 12, 31),
             date(2023, 1, 1), fiscal_year=2023, fy=2023, filed=date(2024, 2, 5), dims=segment)
        rows = segments_store.member_values(
            conn, rtx, ["us-gaap:Revenues", "us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax"], 2023,
            instant=False, wrong=set())
    assert [(r.member, r.value) for r in rows] == [("rtx:CollinsAerospaceSystemsMember", Decimal(24294 * M))]


XOM, XOM_Q = 34088, "0000034088-23-000050"


def test_a_10q_only_companys_year_end_balance_is_read_from_the_next_10q(db, embedder):
    with db.connection() as conn:
        company(conn, XOM, "EXXON MOBIL CORP", ["XOM"], "1231")
        filing(conn, XOM, XOM_Q, 2023, date(2023, 6, 30), date(2023, 8, 2), form="10-Q")
        for end, value in ((date(2023, 6, 30), 363248), (date(2022, 12, 31), 369067)):
            fact(conn, XOM, XOM_Q, "Assets", str(value * M), end, fiscal_year=2023, fy=2023, form="10-Q", fp="Q2",
                 filed=date(2023, 8, 2))
        for start, value in ((date(2023, 4, 1), 82914), (date(2023, 1, 1), 169043)):
            fact(conn, XOM, XOM_Q, "Revenues", str(value * M), date(2023, 6, 30), start, fiscal_year=2023, fy=2023,
                 form="10-Q", fp="Q2", filed=date(2023, 8, 2))
    answer = _ask(db, embedder, "Exxon total assets at the end of 2022")
    assert _values(answer) == [369067 * M], answer.text
    for flow in ("exxon revenue fiscal 2022", "xom total assets 2021"):  # a year's flow; a year-end no 10-Q prints
        refused = _ask(db, embedder, flow)
        assert refused.kind == "refusal" and not refused.numbers, refused.text


def test_an_expense_line_is_never_a_cash_flow_sections_total():
    rows = [_row("TOTAL OPERATING ACTIVITIES", "us-gaap:NetCashProvidedByUsedInOperatingActivities", "cash", 20),
            _row("Selling, general and administrative expense", "us-gaap:SellingGeneralAndAdministrativeExpense",
                 "income", 3)]
    match, candidates = resolve("total operating", "total operating expenses", rows, [])
    assert match is None and not candidates
    match, _ = resolve("total operating", "total operating activities", rows, [])
    assert match is not None and match.concept == "us-gaap:NetCashProvidedByUsedInOperatingActivities"


def test_a_balances_current_portion_is_its_current_row_shown_with_its_term():
    rows = [_row("Deferred revenue", "us-gaap:ContractWithCustomerLiabilityCurrent", row=12),
            _row("Term debt", "us-gaap:LongTermDebtCurrent", row=14),
            _row("Term debt", "us-gaap:LongTermDebtNoncurrent", row=17)]
    match, _ = resolve("deferred revenue current portion", "deferred revenue, current portion", rows, [])
    assert match is not None and match.concept == "us-gaap:ContractWithCustomerLiabilityCurrent"
    match, _ = resolve("non current portion term debt", "non-current portion of term debt", rows, [])
    assert match is not None and match.concept == "us-gaap:LongTermDebtNoncurrent"
    assert match.label == "Term debt (noncurrent)"  # never shown as the balance's whole


def test_a_current_portion_is_no_share_of_anything():
    from agent.planning.members import _SHARE_ASK, _TERM_PORTION

    assert not _SHARE_ASK.search(_TERM_PORTION.sub(" ", "apple deferred revenue current portion fy2024"))
    assert _SHARE_ASK.search(_TERM_PORTION.sub(" ", "what portion of revenue came from iphone"))


AAPL, AAPL_ACC = 320193, "0000320193-24-000123"


def _apple_rows(db):
    with db.connection() as conn:
        company(conn, AAPL, "Apple Inc.", ["AAPL"], "0928")
        filing(conn, AAPL, AAPL_ACC, 2024, date(2024, 9, 28), date(2024, 11, 1))
        for row, (concept, label, value) in enumerate((
                ("NontradeReceivablesCurrent", "Vendor non-trade receivables", 32833),
                ("Assets", "Total assets", 364980),
                ("AccountsPayableCurrent", "Accounts payable", 68960),
                ("OtherLiabilitiesCurrent", "Other current liabilities", 78304))):
            _label(conn, AAPL_ACC, AAPL, concept, label, "balance", row)
            fact(conn, AAPL, AAPL_ACC, concept, str(value * M), date(2024, 9, 28), fiscal_year=2024, fy=2024,
                 filed=date(2024, 11, 1))


def _thread(db, embedder, *turns):
    from bot.settings import Settings
    from bot.wiring import build_footnote

    footnote = build_footnote(db, embedder, Settings(llm="off"), use_cache=False)
    key = f"test:{uuid.uuid4().hex}"
    return [footnote.answer(Turn(thread_key=key, user="u", text=text)) for text in turns]


def test_a_follow_up_naming_another_printed_row_asks_that_row(db, embedder):
    _apple_rows(db)
    _, other = _thread(db, embedder, "Apple accounts payable fy2024", "and other current liabilities?")
    assert _values(other) == [78304 * M], other.text
    _, vendor = _thread(db, embedder, "Apple total assets fy2024", "same for vendor non-trade receivables")
    assert _values(vendor) == [32833 * M], vendor.text  # the row named, never total assets narrowed by its words
