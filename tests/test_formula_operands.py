"""A formula's operands in the company's own words: row names with commas and brackets in them, a row
printed under words a member reading would also fit, abbreviations, "the ratio of A to B" with an "and"
inside A, an N-year CAGR whose end year is said elsewhere, and the operating cash flow a company tags
only for its continuing operations."""

from __future__ import annotations

from dataclasses import replace

import pytest

from agent.planning.companies import line_names
from agent.planning.inline_definitions import joined_rows
from agent.planning.spoken_formulas import spoken_operators
from agent.retrieval.concepts import METRICS
from tests.test_figures import directory, plan  # noqa: F401  (the module's directory fixture)

ROWS = [
    ("Accounts receivable, net", "us-gaap:AccountsReceivableNetCurrent"),
    ("Total term debt", "us-gaap:LongTermDebt"),
    ("Selling, general and administrative", "us-gaap:SellingGeneralAndAdministrativeExpense"),
    ("Purchases of property, equipment and technology", "us-gaap:PaymentsToAcquireProductiveAssets"),
    ("Net cash provided by (used for) investing activities", "us-gaap:NetCashProvidedByUsedInInvestingActivities"),
    ("Income (loss) before income taxes",
     "us-gaap:IncomeLossFromContinuingOperationsBeforeIncomeTaxesExtraordinaryItemsNoncontrollingInterest"),
    ("Operating lease liabilities", "us-gaap:OperatingLeaseLiabilityNoncurrent"),
    ("Pre-tax earnings", "us-gaap:IncomeLossFromContinuingOperationsBeforeIncomeTaxesExtraordinaryItemsNoncontrollingInterest"),
    ("General and administrative", "us-gaap:GeneralAndAdministrativeExpense"),
    ("Revenues", "us-gaap:Revenues"),
]


@pytest.fixture()
def printed(directory):  # noqa: F811
    return replace(directory, line_names=line_names(ROWS))


def _operands(p) -> list[dict]:
    return p.definitions[-1]["tree"]["args"]


def test_a_comma_inside_a_printed_row_name_is_the_names_not_a_break(printed):
    p = plan(printed, "For Apple in fiscal 2024: accounts receivable, net divided by total term debt.")
    first, second = _operands(p)
    assert p.refusal_reason is None and first == {"line": "accounts receivable net"}, p
    assert second["args"][0] == {"line": "total term debt"}, p  # "total" kept: the total's row, not a part
    p = plan(printed, "apple 2024, purchases of property, equipment and technology as a share of revenue")
    assert _operands(p)[0] == {"line": "purchases of property equipment and technology"}, p  # never "purchases"
    p = plan(printed, "apple 2024 revenue as a percentage of selling, general and administrative")
    assert p.definitions[-1]["formula"] == "Revenue ÷ Selling, general and administrative expense", p


def test_a_comma_that_lists_or_sets_off_the_company_stays():
    lines = line_names(ROWS)
    said = "tesla revenue, gross profit minus sg&a 2024"
    assert joined_rows(said, lines) == said  # no row is "revenue gross profit"
    said = "apple 2024, revenue, net income over total assets"
    assert joined_rows(said, lines) == said  # "net" starts the next operand, it ends no row's name
    said = "accounts receivable, net"
    assert joined_rows(said, lines) == said  # no formula asked: nothing to read operands from
    with_acquisitions = line_names([*ROWS, ("Acquisitions", "us-gaap:PaymentsToAcquireBusinessesNetOfCashAcquired")])
    said = "apple 2024 acquisitions, net of cash acquired over revenue"
    assert joined_rows(said, with_acquisitions) == said  # an operator's words after the comma: no name goes on
    assert joined_rows("accounts receivable, net over revenue", frozenset()) == "accounts receivable, net over revenue"


def test_a_row_name_with_brackets_is_the_row(printed):
    p = plan(printed, "apple 2024, define my ratio as income (loss) before income taxes minus "
                      "net cash provided by (used for) investing activities over revenue")
    minus = _operands(p)[0]["args"]
    assert minus == [{"line": "income (loss) before income taxes"},
                     {"line": "net cash provided by (used for) investing activities"}], p
    # a bracketed formula is no row's name, and words no row prints stay refused as written
    assert plan(printed, "apple 2024, define x as (gross profit - sg&a) over revenue").refusal_reason is None
    refused = plan(printed, "apple 2024, define x as widgets (shipped) over revenue")
    assert refused.refusal_reason == "unknown_metric" and "widgets" in refused.refusal_detail, refused


def test_in_a_definition_a_printed_row_is_tried_before_a_members_reading(printed, directory):  # noqa: F811
    p = plan(printed, "apple 2024, define lease load as operating lease liabilities over total assets")
    first = _operands(p)[0]
    assert first["op"] == "first" and first["args"][0] == {"line": "operating lease liabilities"}, p
    assert first["args"][1] == {"metric": "total_liabilities", "member": "operating lease"}
    # with no such row printed, the member's reading alone (resolved, or refused naming it, by the facts)
    alone = plan(directory, "apple 2024, define lease load as operating lease liabilities over total assets")
    assert _operands(alone)[0] == {"metric": "total_liabilities", "member": "operating lease"}, alone


def test_an_abbreviated_row_name_is_the_row_printed_in_full(printed):
    p = plan(printed, "LOW 2023, pre-tax earnings as a percentage of revenue?")
    first = _operands(p)[0]
    assert p.refusal_reason is None and first["op"] == "first", p
    assert first["args"][0] == {"line": "pre tax earnings"}, p  # the row first, a member of net income after


def test_the_ratio_of_a_to_b_splits_at_to_when_a_holds_an_and(printed):
    assert spoken_operators("ratio of general and administrative to revenue") == \
        "general and administrative over revenue"
    assert spoken_operators("the ratio between capex and revenue") == "capex over revenue"
    p = plan(printed, "For Apple in fiscal 2024: ratio of general and administrative to revenue.")
    assert p.refusal_reason is None and p.definitions[-1]["formula"] == "General and administrative ÷ Revenue", p


@pytest.mark.parametrize("text, years", [
    ("Apple 2-year revenue CAGR FY2024", "fiscal 2022 to 2024"),
    ("TSLA 2024 2-year revenue CAGR?", "2022 to 2024"),
    ("3-year revenue CAGR for Tesla, 2024", "2021 to 2024"),
])
def test_an_n_year_cagr_ends_in_the_one_year_the_question_names(text, years, directory):  # noqa: F811
    p = plan(directory, text)
    assert p.refusal_reason is None and p.metrics == [f"udf:revenue cagr, {years}".replace(
        "udf:revenue cagr, 2", "udf:revenue cagr, fiscal 2")], p
    assert "compound annual growth rate" in p.definitions[-1]["formula"]


def test_an_n_year_cagr_with_two_years_said_is_left_as_written():
    said = "apple 2-year revenue CAGR, 2023 vs 2024"
    assert spoken_operators(said) == said  # which year ends the span is not for the rewrite to guess


def test_operating_cash_flow_falls_back_to_the_continuing_operations_line():
    concepts = METRICS["operating_cash_flow"].concepts
    assert concepts[0] == "us-gaap:NetCashProvidedByUsedInOperatingActivities"  # the total wherever tagged
    assert "us-gaap:NetCashProvidedByUsedInOperatingActivitiesContinuingOperations" in concepts[1:]


# --- inputs a company tags under another concept of the same line, through retrieval ------------------


def _fy2024(conn, cik: int, name: str, ticker: str, rows: list[tuple[str, int]]) -> tuple[str, object]:
    """A company with one FY2024 10-K holding `rows` as the year's (duration) facts; its accession and year end."""
    from datetime import date

    from tests.test_facts import company, fact, filing

    acc, end = f"0000{cik}-25-000001", date(2024, 12, 31)
    company(conn, cik, name, [ticker], "1231")
    filing(conn, cik, acc, 2024, end, date(2025, 2, 1))
    for concept, value in rows:
        fact(conn, cik, acc, concept, value, end, date(2024, 1, 1), fiscal_year=2024)
    return acc, end


def _filer(db):
    """A filer tagging no effective tax rate, no D&A total (depreciation and the amortization of intangibles
    as two rows), interest as "Interest and debt expense", receivables as "Receivables, net", payables as
    "Trade accounts payable"."""
    from tests.test_facts import fact

    cik = 999001
    with db.connection() as conn:
        acc, end = _fy2024(conn, cik, "Example Industries Inc.", "EXI", [
            ("Revenues", 1000), ("OperatingIncomeLoss", 200), ("IncomeTaxExpenseBenefit", 38),
            ("IncomeLossFromContinuingOperationsBeforeIncomeTaxesExtraordinaryItemsNoncontrollingInterest", 190),
            ("Depreciation", 30), ("AmortizationOfIntangibleAssets", 20), ("InterestAndDebtExpense", 25),
            ("CostOfGoodsAndServicesSold", 600)])
        for concept, value in [("ReceivablesNetCurrent", 100), ("AccountsPayableTradeCurrent", 60)]:
            fact(conn, cik, acc, concept, value, end, fiscal_year=2024)
    return {"cik": cik, "ticker": "EXI", "name": "Example Industries", "fiscal_years": [2024]}


def test_formula_inputs_resolve_through_each_lines_other_concepts_and_say_their_convention(db):
    from agent.retrieval.retrieve import _collect

    filer = _filer(db)
    keys = ["effective_tax_rate", "ebitda_margin", "interest_coverage", "dso", "dpo"]
    with db.connection() as conn:
        evidence, calculations, cells = _collect(conn, [filer], keys)
    shown = {c["metric"]: c["display"] for c in cells}
    assert shown == {"effective_tax_rate": "20.0%", "ebitda_margin": "25.0%", "interest_coverage": "8.00",
                     "dso": "36.5 days", "dpo": "36.5 days"}, cells
    by_key = {c["key"]: c for c in calculations}
    # the untagged rate is computed, and says so; EBITDA names the two rows it added back
    assert next(c for c in cells if c["metric"] == "effective_tax_rate")["label"] == "Effective tax rate (computed)"
    assert "effective_tax_rate_computed" in by_key and "ebitda_margin_dep_amort" in by_key, by_key.keys()
    from agent.retrieval.finance import FORMULAS

    assert "Amortization of intangible assets" in FORMULAS["ebitda_margin_dep_amort"].expression


def test_ebitda_on_depreciation_alone_says_so_and_nothing_untagged_is_computed(db):
    from agent.retrieval.retrieve import _collect

    cik = 999002
    with db.connection() as conn:
        _fy2024(conn, cik, "Depreciation Only Corp.", "DOC",
                [("Revenues", 1000), ("OperatingIncomeLoss", 200), ("Depreciation", 50)])
        evidence, calculations, cells = _collect(
            conn, [{"cik": cik, "ticker": "DOC", "name": "DOC", "fiscal_years": [2024]}],
            ["ebitda_margin", "effective_tax_rate"])
    margin, rate = cells
    assert margin["display"] == "25.0%" and calculations[0]["key"] == "ebitda_margin_depreciation", calculations
    assert rate["evidence_id"] is None  # no tax lines: refused, never a look-alike


def test_d_and_a_in_a_users_formula_is_the_rows_printed_for_it_and_the_answer_says_which(db):
    from agent.planning.formula_parse import parse_expression
    from agent.retrieval.retrieve import _collect

    tree = parse_expression("capex over d&a", members=True)
    definition = {"name": "reinvestment", "tree": tree, "unit": "ratio", "formula": "Capital expenditures ÷ D&A"}
    cik = 999003
    with db.connection() as conn:
        _fy2024(conn, cik, "Two Rows Corp.", "TRC", [("PaymentsToAcquirePropertyPlantAndEquipment", 90),
                                                       ("Depreciation", 40), ("AmortizationOfIntangibleAssets", 20)])
        _, calculations, cells = _collect(conn, [{"cik": cik, "ticker": "TRC", "name": "TRC", "fiscal_years": [2024]}],
                                          ["udf:reinvestment"], definitions=[definition])
    assert cells[0]["display"] == "1.50", cells
    assert cells[0]["label"] == ("reinvestment (defined as Capital expenditures ÷ (Depreciation + Amortization of "
                                 "intangible assets))"), cells  # the parts computed, not a D&A total never tagged


def test_sga_where_a_company_prints_its_two_rows_apart_is_their_sum_and_says_so(db):
    from agent.planning.formula_parse import parse_expression
    from agent.retrieval.retrieve import _collect

    cik = 999004
    with db.connection() as conn:
        _fy2024(conn, cik, "Apart Corp.", "APC", [("Revenues", 1000), ("ResearchAndDevelopmentExpense", 100),
                                                  ("SellingAndMarketingExpense", 150),
                                                  ("GeneralAndAdministrativeExpense", 50)])
        tree = parse_expression("(r&d + sg&a) / revenue", members=True)
        mine = {"name": "opex share", "tree": tree, "unit": "percent", "formula": "x"}
        filer = {"cik": cik, "ticker": "APC", "name": "APC", "fiscal_years": [2024]}
        _, calculations, cells = _collect(conn, [filer], ["sga_pct_revenue", "udf:opex share", "sga"],
                                          definitions=[mine])
    ratio, defined, alone = cells
    assert ratio["display"] == "20.0%" and calculations[0]["key"] == "sga_pct_revenue_parts", calculations
    assert defined["display"] == "30.0%" and "(Sales and marketing + General and administrative)" in defined["label"]
    assert alone["evidence_id"] is None  # SG&A asked alone is the filing's own line: none printed, none given


@pytest.mark.parametrize("text, key", [
    ("Apple full-year net margin 2024", "net_margin"),
    ("Tesla's 2024 full year operating margin", "operating_margin"),
    ("walmart firm-wide operating margin fiscal 2025", "operating_margin"),
    ("Apple gross margin on a consolidated basis 2024", "gross_margin"),
    ("tesla company-wide revenue 2024", "revenue"),
])
def test_words_for_the_whole_company_or_year_name_the_figure_itself_never_a_member(text, key, directory):  # noqa: F811
    p = plan(directory, text)
    assert p.refusal_reason is None and p.metrics == [key] and not p.definitions, p


def test_an_outlooks_full_year_words_stay():
    from agent.planning.corrections import WHOLE_FIGURE

    said = "what is apple's full-year guidance for 2025?"
    assert WHOLE_FIGURE.sub(" ", said) == said


@pytest.mark.parametrize("taxonomy, concept, label, value, shown", [
    ("abc", "InterestExpenseOnBorrowings", "Interest expense", 50, "4.00"),  # the company's own concept: its row
    ("us-gaap", "InterestRevenueExpenseNet", "Interest - net", -50, None),  # income netted in: never the expense
    ("us-gaap", "InterestIncomeExpenseNonoperatingNet", "Interest expense, net", -50, None),
])
def test_a_formula_input_read_from_a_printed_row_is_never_a_netted_income_and_expense(db, taxonomy, concept, label,
                                                                                      value, shown):
    from datetime import date

    from agent.retrieval.retrieve import _collect
    from ingest.line_items import LineItem
    from store.labels import replace_labels
    from tests.test_facts import company, fact, filing

    cik, acc = 999005, "0000999005-25-000001"
    end, start = date(2024, 12, 31), date(2024, 1, 1)
    with db.connection() as conn:
        company(conn, cik, "Netted Inc.", ["NTD"], "1231")
        filing(conn, cik, acc, 2024, end, date(2025, 2, 1))
        fact(conn, cik, acc, "OperatingIncomeLoss", 200, end, start, fiscal_year=2024)
        fact(conn, cik, acc, concept, value, end, start, fiscal_year=2024, taxonomy=taxonomy)
        replace_labels(conn, acc, cik, [LineItem("us-gaap", "OperatingIncomeLoss", "Operating income", "income", 1, 1,
                                                 False),
                                        LineItem(taxonomy, concept, label, "income", 1, 2, False)])
        _, _, cells = _collect(conn, [{"cik": cik, "ticker": "NTD", "name": "NTD", "fiscal_years": [2024]}],
                               ["interest_coverage"])
    assert cells[0]["display"] == shown, cells


def test_a_row_named_only_in_words_every_row_may_print_is_the_row_in_a_definition(printed, directory):  # noqa: F811
    p = plan(printed, "apple 2024, define cost share as research and development over total costs and expenses")
    assert p.refusal_reason is None and _operands(p)[1] == {"line": "total costs and expenses"}, p
    # written into a question without "define", or with no rows known, such words stay refused as written
    assert plan(directory, "apple 2024, define cost share as research and development over total costs and expenses"
                ).refusal_reason == "unknown_metric"
    refused = plan(printed, "apple 2024, define x as research and development over total and")
    assert refused.refusal_reason == "unknown_metric", refused


@pytest.mark.parametrize("text", [
    "tesla net cash provided/(used) by operating activities fiscal 2024",
    "apple net income/(loss) attributable to noncontrolling interest 2024",
])
def test_a_rows_sign_pair_after_a_slash_is_no_division(text, directory):  # noqa: F811
    rows = [("Net cash provided/(used) by operating activities", "us-gaap:NetCashProvidedByUsedInOperatingActivities"),
            ("Net income/(loss) attributable to noncontrolling interest",
             "us-gaap:NetIncomeLossAttributableToNoncontrollingInterest"),
            # rows whose words are the bracket's remainder ("(used) by operating activities")
            ("Operating activities", "abc:OperatingActivities"), ("Noncontrolling interests", "us-gaap:MinorityInterest"),
            *ROWS]
    p = plan(replace(directory, line_names=line_names(rows)), text)
    assert p.tickers and not p.definitions, p  # one row's name, never "A ÷ (used) by operating activities"


def test_a_notes_row_never_answers_for_primary_rows_the_words_left_ambiguous():
    from agent.retrieval.line_items import resolve

    def row(label, concept, statement):
        return {"label": label, "concept": concept, "statement": statement, "dims": {}}

    labels = [row("Fixed assets", "us-gaap:PropertyPlantAndEquipmentGross", "balance"),
              row("Fixed assets, net", "us-gaap:PropertyPlantAndEquipmentNet", "balance"),
              row("Fixed assets", "us-gaap:DeferredTaxLiabilitiesPropertyPlantAndEquipment", "other")]
    match, candidates = resolve("fixed assets net", "fixed assets net", labels, [])
    # the user's "net" picks the balance sheet row printing it; the note's row is never the answer
    assert match is not None and match.concept == "us-gaap:PropertyPlantAndEquipmentNet", (match, candidates)
    match, candidates = resolve("fixed assets", "fixed assets", labels[:1] + [
        row("Fixed assets", "us-gaap:PropertyPlantAndEquipmentOther", "balance")] + labels[2:], [])
    assert match is None and {c.statement for c in candidates} == {"balance"}, (match, candidates)  # asked which
    noted = [row("Fixed assets", "us-gaap:PropertyPlantAndEquipmentOther", "other")]
    match, _ = resolve("fixed assets net", "fixed assets net", noted, [])
    assert match is not None and match.statement == "other"  # a note's row alone still answers for its words
    # ...but the tax note's row is the deferred tax on fixed assets, another figure, unless tax is asked
    assert resolve("fixed assets net", "fixed assets net", labels[2:], [])[0] is None


@pytest.mark.parametrize("long_term, key", [
    ("LongTermDebtNoncurrent", "total_debt"),  # the non-current part, plus the current portion
    ("LongTermDebt", "total_debt_ltd_total"),  # already includes its current maturities: never added twice
])
def test_total_debt_never_counts_current_maturities_twice(db, long_term, key):
    from datetime import date

    from agent.retrieval.retrieve import _collect
    from tests.test_facts import company, fact, filing

    cik, acc = 999006, "0000999006-25-000001"
    end = date(2024, 12, 31)
    with db.connection() as conn:
        company(conn, cik, "Debtor Inc.", ["DBT"], "1231")
        filing(conn, cik, acc, 2024, end, date(2025, 2, 1))
        fact(conn, cik, acc, long_term, 28_500_000 if long_term == "LongTermDebt" else 17_700_000, end, fiscal_year=2024)
        fact(conn, cik, acc, "LongTermDebtCurrent", 10_800_000, end, fiscal_year=2024)
        _, calculations, cells = _collect(conn, [{"cik": cik, "ticker": "DBT", "name": "DBT", "fiscal_years": [2024]}],
                                          ["total_debt"])
    assert cells[0]["display"] == "$28.50 million" and calculations[0]["key"] == key, calculations


def test_a_notes_total_row_answers_for_the_users_total_over_ambiguous_primary_parts():
    from agent.retrieval.line_items import resolve

    def row(label, concept, statement):
        return {"label": label, "concept": concept, "statement": statement, "dims": {}}

    labels = [row("Term debt", "us-gaap:LongTermDebtCurrent", "balance"),
              row("Term debt", "us-gaap:LongTermDebtNoncurrent", "balance"),
              row("Total term debt", "us-gaap:LongTermDebt", "other")]
    match, _ = resolve("term debt", "total term debt", labels, [], total=True)
    assert match is not None and match.concept == "us-gaap:LongTermDebt", match
    # without "total" too: the balance sheet's two rows are one balance split by term, which the note names whole
    match, _ = resolve("term debt", "term debt", labels, [], total=False)
    assert match is not None and match.concept == "us-gaap:LongTermDebt", match
