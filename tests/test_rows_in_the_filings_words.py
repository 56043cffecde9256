"""A row or a member asked in an analyst's words reaches the one the filing prints: the period's words are no part of
a line's name, "noncurrent" beside "long-term" says one thing twice, "taxed" asks a tax note's row, a member whose
QName runs its words together or that the taxonomy names ("International" for us-gaap:NonUsMember), a class of stock
by its letter, the revenue's own word beside a member's row, a printed row holding "share", "CFO" asked as an amount;
and never another figure: a row that says what it leaves out is no widest D&A, a per-share figure reported only by
class is each class's, named, and a curated balance is the balance sheet's row under its own name.

Real figures (USD millions) are typed in as facts; the row names are short labels as the statements print them.
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal


from agent.planning.measure_spelling import spelled_out
from agent.retrieval.line_items import resolve
from agent.retrieval.segments import display_name, find_member
from tests.test_facts import company, fact, filing
from tests.test_line_names_and_year_ends import _ask, _label, _row, _values

M = 1_000_000


def test_noncurrent_beside_long_term_names_the_long_term_row():
    rows = [_row("Long-term debt", "us-gaap:LongTermDebtAndCapitalLeaseObligations", row=20),
            _row("Short-term debt and current portion of long-term debt", "us-gaap:DebtCurrent", row=12)]
    match, _ = resolve("noncurrent", "long term debt noncurrent", rows, [])
    assert match is not None and match.concept == "us-gaap:LongTermDebtAndCapitalLeaseObligations"
    current = [_row("Long-term debt, current portion", "us-gaap:LongTermDebtCurrent", row=12)]
    match, _ = resolve("noncurrent", "long term debt noncurrent", current, [])
    assert match is None  # the current part is never the noncurrent one


def test_taxed_asks_the_tax_notes_row():
    rows = [_row("Global intangible low-taxed income", "us-gaap:EffectiveIncomeTaxRateReconciliationGiltiAmount",
                 "other")]
    match, _ = resolve("global low taxed income", "global intangible low taxed income", rows, [])
    assert match is not None and match.concept.endswith("GiltiAmount")
    match, _ = resolve("global low income", "global intangible low income", rows, [])
    assert match is None  # no tax said: the rate reconciliation's rows are tax figures, not the items


def test_members_named_by_run_together_qnames_standard_meanings_and_class_letters():
    pairs = [("srt:ProductOrServiceAxis", "gme:VideogamehardwareaccessoriesMember"),
             ("srt:ProductOrServiceAxis", "gme:SoftwareMember")]
    labels = {"gme:VideogamehardwareaccessoriesMember": {"Hardware and accessories (1)"}}
    found, exact = find_member("hardware and accessories", pairs, labels)
    assert exact and found == [pairs[0]]
    assert display_name(pairs[0][1], labels[pairs[0][1]], frozenset()) == "Hardware and accessories"

    regions = [("srt:StatementGeographicalAxis", "us-gaap:NonUsMember"), ("srt:StatementGeographicalAxis", "country:US"),
               ("srt:ProductOrServiceAxis", "v:InternationalTransactionRevenuesMember")]
    labels = {"v:InternationalTransactionRevenuesMember": {"International transaction revenue"}}
    found, exact = find_member("international", regions, labels)
    assert exact and found == [regions[0]]  # the region, never the transaction revenue the word falls inside
    assert display_name("us-gaap:NonUsMember", set(), frozenset()) == "International"
    own = [("srt:StatementGeographicalAxis", "ko:InternationalMember"), regions[0]]
    found, _ = find_member("international", own, {"ko:InternationalMember": {"International"}})
    assert found == [own[0]]  # a member the company names so itself comes first

    classes = [("us-gaap:StatementClassOfStockAxis", "us-gaap:CommonClassAMember"),
               ("us-gaap:StatementClassOfStockAxis", "v:CommonClassB1Member")]
    labels = {"us-gaap:CommonClassAMember": {"Class A common stock"}, "v:CommonClassB1Member": {"Class B-1 common stock"}}
    assert find_member("class a", classes, labels) == ([classes[0]], False)
    assert find_member("class b-1", classes, labels)[0] == [classes[1]]


def test_cfo_is_an_amount_only_when_asked_as_one_and_words_are_never_respelled_into_others():
    assert "operating cash flow" in spelled_out("how much CFO did nvidia report in fy2025")
    assert "operating cash flow" in spelled_out("nvda cfo in fiscal 2025")
    assert "cfo" in spelled_out("what did apple's cfo say about margins in 2024")
    assert "net gain on sale" in spelled_out("j&j net gain on sale of assets in 2024")
    assert spelled_out("nvda gross mrgn 2024") == "nvda gross margin 2024"


HD, HD_ACC = 354950, "0000354950-25-000007"


def test_a_da_row_saying_what_it_leaves_out_is_never_the_widest_figure(db, embedder):
    with db.connection() as conn:
        company(conn, HD, "HOME DEPOT, INC.", ["HD"], "0202")
        filing(conn, HD, HD_ACC, 2024, date(2025, 2, 2), date(2025, 3, 21))
        _label(conn, HD_ACC, HD, "DepreciationAndAmortization", "Depreciation and amortization", "income", 4)
        _label(conn, HD_ACC, HD, "DepreciationDepletionAndAmortization",
               "Depreciation and amortization, excluding amortization of intangible assets", "cash", 1)
        for concept, value in (("DepreciationAndAmortization", 3034), ("DepreciationDepletionAndAmortization", 3336)):
            fact(conn, HD, HD_ACC, concept, str(value * M), date(2025, 2, 2), date(2024, 1, 29), fiscal_year=2024,
                 fy=2024, filed=date(2025, 3, 21))
    answer = _ask(db, embedder, "HD depreciation and amortization fy2024")
    assert _values(answer) == [3034 * M], answer.text


V, V_ACC = 1403161, "0001403161-24-000058"
_CLASS = "us-gaap:StatementClassOfStockAxis"


def test_a_per_share_figure_reported_only_by_class_is_each_classs_named(db, embedder):
    with db.connection() as conn:
        company(conn, V, "VISA INC.", ["V"], "0930")
        filing(conn, V, V_ACC, 2024, date(2024, 9, 30), date(2024, 11, 13))
        for member, label, value in (("us-gaap:CommonClassAMember", "Class A common stock", "9.73"),
                                     ("v:CommonClassB1Member", "Class B-1 common stock", "15.45")):
            _label(conn, V_ACC, V, "EarningsPerShareDiluted", label, "income", 30, dims={_CLASS: member})
            fact(conn, V, V_ACC, "EarningsPerShareDiluted", value, date(2024, 9, 30), date(2023, 10, 1),
                 fiscal_year=2024, fy=2024, filed=date(2024, 11, 13), unit="USD/shares", dims={_CLASS: member})
    answer = _ask(db, embedder, "visa diluted eps fy2024")
    assert _values(answer) == [Decimal("9.73"), Decimal("15.45")], answer.text
    assert "Class A" in answer.text and "Class B-1" in answer.text
    one = _ask(db, embedder, "visa class a diluted eps fy2024")
    assert _values(one) == [Decimal("9.73")], one.text
    with db.connection() as conn:
        company(conn, MA, "Mastercard Incorporated", ["MA"], "1231")
        filing(conn, MA, MA_ACC, 2024, date(2024, 12, 31), date(2025, 2, 12))
        fact(conn, MA, MA_ACC, "EarningsPerShareDiluted", "13.89", date(2024, 12, 31), date(2024, 1, 1),
             fiscal_year=2024, fy=2024, filed=date(2025, 2, 12), unit="USD/shares")
    # beside another company's one figure a class's is no comparison: Mastercard's is stated, Visa's said missing
    both = _ask(db, embedder, "compare Mastercard and Visa diluted eps for fiscal 2024")
    assert both.kind == "answer" and "Visa" in both.text, both.text


MA, MA_ACC = 1141391, "0001141391-25-000011"


VZ, VZ_ACC = 732712, "0000732712-24-000009"


def test_a_curated_balance_is_the_balance_sheets_row_under_its_own_name(db, embedder):
    with db.connection() as conn:
        company(conn, VZ, "VERIZON COMMUNICATIONS INC", ["VZ"], "1231")
        filing(conn, VZ, VZ_ACC, 2023, date(2023, 12, 31), date(2024, 2, 9))
        rows = (("AccountsAndFinancingReceivableBeforeAllowanceForCreditLossCurrent", "Accounts receivable", "balance",
                 5, 26102, "vz"),
                ("AccountsNotesAndLoansReceivableNetCurrent", "Accounts receivable, net", "balance", 7, 25085, "us-gaap"),
                ("AccountsReceivableFromContractWithCustomer", "Accounts receivable", "other", 3, 9760, "vz"))
        for concept, label, statement, row, value, taxonomy in rows:
            _label(conn, VZ_ACC, VZ, concept, label, statement, row, taxonomy=taxonomy)
            fact(conn, VZ, VZ_ACC, concept, str(value * M), date(2023, 12, 31), fiscal_year=2023, fy=2023,
                 filed=date(2024, 2, 9), taxonomy=taxonomy)
    answer = _ask(db, embedder, "verizon accounts receivable 2023")
    assert _values(answer) == [25085 * M], answer.text


GE, GE_ACC = 40545, "0000040545-24-000018"


def test_a_revenue_members_row_asked_with_the_revenues_word(db, embedder):
    with db.connection() as conn:
        company(conn, GE, "GENERAL ELECTRIC CO", ["GE"], "1231")
        filing(conn, GE, GE_ACC, 2023, date(2023, 12, 31), date(2024, 2, 2))
        product = {"srt:ProductOrServiceAxis": "us-gaap:ProductMember"}
        _label(conn, GE_ACC, GE, "RevenueFromContractWithCustomerExcludingAssessedTax", "Sales of equipment", "income",
               2, dims=product)
        _label(conn, GE_ACC, GE, "CostOfGoodsAndServicesSold", "Cost of equipment sold", "income", 6, dims=product)
        fact(conn, GE, GE_ACC, "RevenueFromContractWithCustomerExcludingAssessedTax", str(26793 * M), date(2023, 12, 31),
             date(2023, 1, 1), fiscal_year=2023, fy=2023, filed=date(2024, 2, 2), dims=product)
        fact(conn, GE, GE_ACC, "CostOfGoodsAndServicesSold", str(21000 * M), date(2023, 12, 31), date(2023, 1, 1),
             fiscal_year=2023, fy=2023, filed=date(2024, 2, 2), dims=product)
    answer = _ask(db, embedder, "what was GE's revenue from sales of equipment in 2023")
    assert _values(answer) == [26793 * M], answer.text


GOOGL, GOOGL_ACC = 1652044, "0001652044-25-000014"


def test_a_printed_rows_share_word_is_its_name_not_a_share_of_anything(db, embedder):
    with db.connection() as conn:
        company(conn, GOOGL, "Alphabet Inc.", ["GOOGL", "GOOG"], "1231")
        filing(conn, GOOGL, GOOGL_ACC, 2024, date(2024, 12, 31), date(2025, 2, 4))
        _label(conn, GOOGL_ACC, GOOGL, "AccruedRevenueShare", "Accrued revenue share", "balance", 18, taxonomy="goog")
        _label(conn, GOOGL_ACC, GOOGL, "RevenueFromContractWithCustomerExcludingAssessedTax", "Revenues", "income", 1)
        fact(conn, GOOGL, GOOGL_ACC, "AccruedRevenueShare", str(8876 * M), date(2023, 12, 31), fiscal_year=2023,
             fy=2024, filed=date(2025, 2, 4), taxonomy="goog")
        fact(conn, GOOGL, GOOGL_ACC, "RevenueFromContractWithCustomerExcludingAssessedTax", str(307394 * M),
             date(2023, 12, 31), date(2023, 1, 1), fiscal_year=2023, fy=2024, filed=date(2025, 2, 4))
    answer = _ask(db, embedder, "googl accrued revenue share 2023")
    assert _values(answer) == [8876 * M], answer.text


def test_a_notes_row_named_with_its_schedule_totals_heading():
    """Mastercard's accrued-expenses note prints "Personnel costs" above "Total accrued expenses"."""
    personnel = {**_row("Personnel costs", "us-gaap:EmployeeRelatedLiabilitiesCurrent", "other", 3),
                 "schedule": frozenset({"accrued"})}
    other = {**_row("Other", "us-gaap:OtherAccruedLiabilitiesCurrent", "other", 4), "schedule": frozenset({"accrued"})}
    match, _ = resolve("accrued personnel costs", "accrued personnel costs", [personnel, other], [])
    assert match is not None and match.concept == "us-gaap:EmployeeRelatedLiabilitiesCurrent"
    assert match.label == "Personnel costs (accrued)"
    plain = _row("Accrued personnel costs", "us-gaap:AccruedSalariesCurrent", "balance", 9)
    match, _ = resolve("accrued personnel costs", "accrued personnel costs", [personnel, plain], [])
    assert match is not None and match.concept == "us-gaap:AccruedSalariesCurrent"  # a row printing the words first


def test_the_notes_and_the_segment_disclosure_are_places_to_look_never_words_of_a_name():
    from agent.planning.sourcing import without_sourcing

    assert without_sourcing("From the notes to the financial statements, what was Abbott's interest paid in 2023?") \
        == "what was Abbott's interest paid in 2023?"
    assert without_sourcing("Based on the segment disclosure, what were Meta's Reality Labs revenues in 2024?") \
        == "what were Meta's Reality Labs revenues in 2024?"
    assert without_sourcing("Per the segment note, what was Apple's Greater China operating income in fiscal 2024?") \
        == "what was Apple's Greater China operating income in fiscal 2024?"
    assert without_sourcing("What was the revenue from operations of Apple in 2024?") \
        == "What was the revenue from operations of Apple in 2024?"
