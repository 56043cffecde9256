"""A line asked in the user's words reaches the row the filing prints by the words that carry meaning: a payment's verb
and the cash a purchase nets out are the cash-flow row's sign, acquisitions are of businesses (never the goodwill
roll-forward's row), "related to" links as "from" does, cash burn from operations is the operating section, a balance
the company reports only as current is named without its term, a list row folds the asked expense, the parent's net
income is the company's, and a metric's shorthand after the words of one of its phrases ("net rev", "cost of rev") is
spelled out.

Real figures (USD millions) are typed in as facts; the row names are short labels as the statements print them.
"""

from __future__ import annotations

from datetime import date

from agent.planning.measure_spelling import spelled_out
from agent.retrieval.line_items import resolve
from tests.test_facts import company, fact, filing
from tests.test_line_names_and_year_ends import _ask, _label, _row, _values

M = 1_000_000


def test_acquisitions_are_the_cash_paid_for_businesses_never_the_goodwill_they_added():
    rows = [_row("Payments for businesses acquired, net", "us-gaap:PaymentsToAcquireBusinessesNetOfCashAcquired", "cash",
                 14),
            _row("Acquisitions", "us-gaap:GoodwillAcquiredDuringPeriod", "other", 3)]
    match, _ = resolve("acquisitions", "acquisitions", rows, [])
    assert match is not None and match.concept == "us-gaap:PaymentsToAcquireBusinessesNetOfCashAcquired"
    match, _ = resolve("acquisitions", "acquisitions", rows[1:], [])
    assert match is None  # the roll-forward's row is goodwill's, asked only with "goodwill"
    match, _ = resolve("goodwill acquisitions", "goodwill acquisitions", rows[1:], [])
    assert match is not None and match.concept == "us-gaap:GoodwillAcquiredDuringPeriod"
    walmart = [_row("Payments for business acquisitions, net of cash acquired",
                    "us-gaap:PaymentsToAcquireBusinessesNetOfCashAcquired", "cash", 17)]
    match, _ = resolve("business acquisitions net acquired", "business acquisitions net cash acquired", walmart, [])
    assert match is not None and match.concept.endswith("NetOfCashAcquired")
    interest = [_row("Cash paid for interest", "us-gaap:InterestPaidNet", "cash", 40)]
    match, _ = resolve("interest", "interest", interest, [])
    assert match is None  # "paid" is the sign only of a Payments… row: interest paid is no interest expense


def test_linking_and_sign_words_name_no_row_of_their_own():
    proceeds = [_row("Proceeds related to employee stock plans", "us-gaap:ProceedsFromStockPlans", "cash", 20)]
    match, _ = resolve("proceeds employee stock plans", "proceeds from employee stock plans", proceeds, [])
    assert match is not None and match.concept == "us-gaap:ProceedsFromStockPlans"
    operating = [_row("Net cash provided by operating activities", "us-gaap:NetCashProvidedByUsedInOperatingActivities",
                      "cash", 12),
                 _row("Cash and cash equivalents", "us-gaap:CashAndCashEquivalentsAtCarryingValue", "balance", 1)]
    match, _ = resolve("burn operations", "cash burn from operations", operating, [])
    assert match is not None and match.concept.endswith("OperatingActivities")
    match, _ = resolve("burn", "cash burn", operating, [])
    assert match is None or not match.concept.startswith("us-gaap:Cash")  # a burn is never the cash balance


def test_a_balance_reported_only_as_current_is_named_without_its_term():
    printed = [_row("Cash dividends declared but not paid", "us-gaap:DividendsPayableCurrent", "other", 8)]
    match, _ = resolve("dividends payable", "dividends payable", printed, [("us-gaap:DividendsPayableCurrent", "")])
    assert match is not None and match.concept == "us-gaap:DividendsPayableCurrent"
    assert match.label == "dividends payable"
    both = [("us-gaap:OtherLiabilitiesCurrent", ""), ("us-gaap:OtherLiabilitiesNoncurrent", "")]
    match, _ = resolve("other liabilities", "other liabilities", [], both)
    assert match is None  # current and noncurrent both reported: the term the user leaves out is no default
    for asked, concept in (("liabilities", "us-gaap:LiabilitiesCurrent"), ("debt", "us-gaap:DebtCurrent")):
        match, _ = resolve(asked, f"total {asked}", [], [(concept, "")])
        assert match is None  # a whole of other parts is never its current part, reported alone or not


def test_a_list_row_folds_the_asked_expense_one_row_only():
    walmart = [_row("Operating, selling, general and administrative expenses",
                    "us-gaap:SellingGeneralAndAdministrativeExpense", "income", 5),
               _row("Operating income", "us-gaap:OperatingIncomeLoss", "income", 6)]
    match, _ = resolve("operating", "operating expenses", walmart, [])
    assert match is not None and match.concept == "us-gaap:SellingGeneralAndAdministrativeExpense"
    plain = [_row("Operating lease expenses", "us-gaap:OperatingLeaseExpense", "income", 5)]
    match, _ = resolve("operating", "operating expenses", plain, [])
    assert match is None  # a longer name without a list is another line


def test_a_shorthand_after_its_phrases_words_is_spelled_out():
    assert spelled_out("walmart net rev fy2025") == "walmart net revenue fy2025"
    assert spelled_out("hd cost of rev fy2024") == "hd cost of revenue fy2024"
    assert spelled_out("nvda rev fy2025") == "nvda rev fy2025"  # alone, the tables list it as it is
    assert spelled_out("apple iphone rev fy24") == "apple iphone rev fy24"  # a member's name is no phrase's word


HD, HD_ACC = 354950, "0000354950-25-000007"
WMT, WMT_ACC = 104169, "0000104169-25-000021"


def test_asked_in_analysts_words_end_to_end(db, embedder):
    with db.connection() as conn:
        company(conn, HD, "HOME DEPOT, INC.", ["HD"], "0202")
        filing(conn, HD, HD_ACC, 2024, date(2025, 2, 2), date(2025, 3, 21))
        rows = (("PaymentsToAcquireBusinessesNetOfCashAcquired", "Payments for businesses acquired, net", "cash", 14,
                 17644),
                ("GoodwillAcquiredDuringPeriod", "Acquisitions", "other", 3, 11048),
                ("NetCashProvidedByUsedInOperatingActivities", "Net cash provided by operating activities", "cash", 12,
                 19810),
                ("NetIncomeLoss", "Net earnings", "income", 20, 14806))
        for concept, label, statement, row, value in rows:
            _label(conn, HD_ACC, HD, concept, label, statement, row)
            fact(conn, HD, HD_ACC, concept, str(value * M), date(2025, 2, 2), date(2024, 1, 29), fiscal_year=2024,
                 fy=2024, filed=date(2025, 3, 21))
        company(conn, WMT, "WALMART INC.", ["WMT"], "0131")
        filing(conn, WMT, WMT_ACC, 2025, date(2025, 1, 31), date(2025, 3, 14))
        _label(conn, WMT_ACC, WMT, "SellingGeneralAndAdministrativeExpense",
               "Operating, selling, general and administrative expenses", "income", 5)
        fact(conn, WMT, WMT_ACC, "SellingGeneralAndAdministrativeExpense", str(139884 * M), date(2025, 1, 31),
             date(2024, 2, 1), fiscal_year=2025, fy=2025, filed=date(2025, 3, 14))
        for concept, label, row, value in (("RevenueFromContractWithCustomerExcludingAssessedTax", "Net sales", 1, 674538),
                                           ("Revenues", "Total revenues", 3, 680985)):
            _label(conn, WMT_ACC, WMT, concept, label, "income", row)
            fact(conn, WMT, WMT_ACC, concept, str(value * M), date(2025, 1, 31), date(2024, 2, 1), fiscal_year=2025,
                 fy=2025, filed=date(2025, 3, 14))
    for question, value in (("home depot acquisitions fiscal 2024", 17644),
                            ("cash burn from operations at home depot fy2024", 19810),
                            ("hd net earnings (parent) fy2024", 14806),
                            ("walmart opex fy2025", 139884)):
        answer = _ask(db, embedder, question)
        assert _values(answer) == [value * M], (question, answer.text)
    ratio = _ask(db, embedder, "walmart operating expenses as a % of net sales fy2025")
    assert _values(ratio)[:2] == [139884 * M, 674538 * M], ratio.text  # net sales, never total revenues


def test_what_an_amount_is_measured_after_and_its_signs_other_name_are_no_words_of_its_name():
    rows = [_row("Proceeds from long-term debt, net of discounts",
                 "us-gaap:ProceedsFromIssuanceOfLongTermDebtAndCapitalSecuritiesNet", "cash", 30)]
    match, _ = resolve("proceeds long term debt", "proceeds from long term debt", rows, [])
    assert match is not None and match.concept.endswith("CapitalSecuritiesNet")
    both = rows + [_row("Proceeds from long-term debt", "us-gaap:ProceedsFromIssuanceOfLongTermDebt", "cash", 31)]
    match, _ = resolve("proceeds long term debt", "proceeds from long term debt", both, [])
    assert match is not None and match.concept == "us-gaap:ProceedsFromIssuanceOfLongTermDebt"  # the nearer row
    refunds = [_row("Indirect tax payments (refunds)", "cl:IndirectTaxPaymentsRefunds", "cash", 9)]
    match, _ = resolve("indirect tax payments", "indirect tax payments", refunds, [])
    assert match is not None and match.concept == "cl:IndirectTaxPaymentsRefunds"


def test_an_abbreviation_says_the_kind_of_line_its_words_do():
    from agent.retrieval.line_items import other_kind

    assert other_kind("opex", "TOTAL OPERATING ACTIVITIES")  # P&G prints no operating-expense total
    assert not other_kind("opex", "Operating, selling, general and administrative expenses")
