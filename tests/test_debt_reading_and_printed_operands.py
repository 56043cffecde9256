"""Debt as analysts read it (long-term debt, current and noncurrent; short-term borrowings only when the question adds
them), and derived figures over the lines a filing prints: a change asked "by how much" in dollars beside its rate,
"the difference between" two years, "how many days of COGS", operating expenses where no total is printed, the cash
paid for acquisitions, and a share of revenue named by a row's own words."""

from __future__ import annotations

from decimal import Decimal

import pytest

from agent.planning.conventions import borrowings_said, without_borrowings
from agent.planning.formula_parse import parse_expression
from agent.planning.formula_trees import metrics_of
from agent.planning.spoken_formulas import spoken_operators
from agent.retrieval.finance import BORROWING_FORMS, stated_convention
from tests.test_figures import directory, plan  # noqa: F401  (the module's directory fixture)
from tests.test_named_conventions import _filer


@pytest.mark.parametrize("question, metrics", [
    ("apple net debt fy2024", ["net_debt"]),
    ("AAPL debt to equity 2024", ["debt_to_equity"]),
    ("apple net debt fy24 including commercial paper", ["net_debt_all"]),
    ("apple debt to equity ratio 2024 including all borrowings", ["debt_to_equity_all"]),
    ("walmart net debt (incl. short-term borrowings) fy2025", ["net_debt_all"]),
    ("Walmart total debt including short-term borrowings, fiscal 2025", ["total_debt_all"]),
])
def test_debt_is_long_term_debt_unless_the_question_adds_short_term_borrowings(directory, question, metrics):  # noqa: F811
    p = plan(directory, question)
    assert p.refusal_reason is None and p.metrics == metrics, p


def test_the_borrowing_words_are_read_only_beside_a_measure_over_debt():
    assert borrowings_said("net debt including commercial paper") and borrowings_said("D/E, all borrowings")
    assert not borrowings_said("apple net debt 2024")
    assert without_borrowings("apple net debt including short-term borrowings 2024").split() == \
        ["apple", "net", "debt", "2024"]
    said = "apple short-term borrowings including commercial paper 2024"  # no measure over debt: left to be read
    assert without_borrowings(said) == said
    assert set(BORROWING_FORMS) >= {"total_debt", "net_debt", "debt_to_equity", "debt_to_capital", "roic"}


def test_net_debt_counts_commercial_paper_only_when_asked_and_says_what_it_counted(db):
    from agent.retrieval.retrieve import _collect

    # Apple FY2024 in $M: term debt 85,750 noncurrent and 10,912 current, commercial paper 9,967, cash 29,943
    with db.connection() as conn:
        filer = _filer(conn, 999201, "APX", [], [
            ("LongTermDebtNoncurrent", 85_750), ("LongTermDebtCurrent", 10_912), ("CommercialPaper", 9_967),
            ("CashAndCashEquivalentsAtCarryingValue", 29_943)])
        _, calculations, cells = _collect(conn, [filer], ["net_debt", "net_debt_all"])
    shown = {c["metric"]: (c["display"], c["convention"]) for c in cells}
    assert shown["net_debt"] == ("$66,719", "debt as long-term debt, current and noncurrent"), cells
    assert shown["net_debt_all"][0] == "$76,686" and "short-term borrowings" in shown["net_debt_all"][1], cells


def test_a_debt_tagged_with_its_current_maturities_or_as_one_current_line_says_so(db):
    from agent.retrieval.retrieve import _collect

    with db.connection() as conn:
        whole = _filer(conn, 999202, "PPX", [], [("LongTermDebtNoncurrent", 900), ("LongTermDebt", 1_100),
                                                ("DebtCurrent", 400)])
        line = _filer(conn, 999203, "UHX", [], [("LongTermDebtNoncurrent", 900), ("DebtCurrent", 400)])
        _, calculations, cells = _collect(conn, [whole, line], ["total_debt"])
    by = {c["ticker"]: c for c in cells}
    # the long-term debt holding its current maturities, never the current line with its commercial paper
    assert by["PPX"]["display"] == "$1,100" and "including its current maturities" in by["PPX"]["convention"]
    # no current maturities tagged apart: the balance sheet's current debt line, said to hold borrowings maybe
    assert by["UHX"]["display"] == "$1,300" and "may include short-term borrowings" in by["UHX"]["convention"]


def test_roic_and_leverage_over_ebitda_say_the_debt_beside_their_own_convention():
    assert stated_convention("roic").endswith("debt as long-term debt, current and noncurrent")
    assert "EBITDA as operating income plus D&A" in stated_convention("net_debt_to_ebitda")
    assert "debt as long-term debt" in stated_convention("net_debt_to_ebitda")


def test_by_how_much_is_the_change_in_dollars_beside_the_rate_and_a_difference_between_years_is_the_change(
        directory):  # noqa: F811
    p = plan(directory, "By how much did Apple's operating income decrease from fiscal 2023 to fiscal 2024?")
    assert p.metrics == ["operating_income_change", "operating_income_growth"] and p.fiscal_years == [2024], p
    p = plan(directory, "difference between Walmart's fiscal 2025 and fiscal 2024 net income")
    assert p.metrics == ["net_income_change"] and p.fiscal_years == [2025], p
    p = plan(directory, "by how much did apple revenue grow in fy2024, in percent?")
    assert p.metrics == ["revenue_growth"], p  # the rate said: the rate alone


def test_days_of_a_flow_a_balance_represents_is_the_balance_over_the_flow_times_365(directory):  # noqa: F811
    said = spoken_operators("How many days of COGS does Walmart's FY2025 inventory represent?")
    assert "inventory over COGS times 365" in said
    p = plan(directory, "How many days of COGS does Walmart's FY2025 inventory represent?")
    definition = next(d for d in p.definitions if f"udf:{d['name']}" == p.metrics[0])
    assert metrics_of(definition["tree"]) == ["inventory", "cost_of_revenue"] and definition["unit"] == "days", p
    first = plan(directory, "walmart inventory fy2025")
    reply = plan(directory, "how many days of COGS is that?", previous=first)
    definition = next(d for d in reply.definitions if f"udf:{d['name']}" == reply.metrics[0])
    assert metrics_of(definition["tree"]) == ["inventory", "cost_of_revenue"] and reply.tickers == ["WMT"], reply


def test_operating_expenses_without_a_printed_total_are_computed_and_said_so(db):
    from agent.retrieval.retrieve import _collect

    with db.connection() as conn:
        costs = _filer(conn, 999204, "GGX", [("Revenues", 1_000), ("CostsAndExpenses", 700), ("CostOfRevenue", 400),
                                             ("OperatingIncomeLoss", 300)])
        residual = _filer(conn, 999205, "WWX", [("Revenues", 1_000), ("CostOfRevenue", 750),
                                                ("OperatingIncomeLoss", 50)])
        _, calculations, cells = _collect(conn, [costs, residual], ["operating_expenses", "opex_ratio"])
    by = {(c["ticker"], c["metric"]): c for c in cells}
    assert by[("GGX", "operating_expenses")]["display"] == "$300"
    assert "total costs and expenses less cost of revenue" in by[("GGX", "operating_expenses")]["convention"]
    assert by[("GGX", "opex_ratio")]["display"] == "30.0%"
    # no total of costs and expenses either: refused, never revenue less cost and operating income (which takes
    # whichever revenue row where a company prints two)
    assert not by[("WWX", "operating_expenses")].get("evidence_id") and not by[("WWX", "opex_ratio")].get("evidence_id")


def test_acquisitions_in_a_formula_are_the_cash_paid_never_the_goodwill_roll_forward():
    assert metrics_of(parse_expression("capex plus acquisitions")) == ["capex", "acquisitions_paid"]


@pytest.mark.parametrize("question, metrics", [
    ("How much did Apple return to shareholders in fiscal 2024 through dividends + repurchases?",
     ["dividends_paid", "buybacks"]),
    ("What did Walmart return to shareholders via dividends and repurchases in fiscal 2025?",
     ["dividends_paid", "buybacks"]),
])
def test_what_was_returned_through_named_amounts_is_their_sum(directory, question, metrics):  # noqa: F811
    p = plan(directory, question)
    definition = next(d for d in p.definitions if f"udf:{d['name']}" == p.metrics[0])
    assert metrics_of(definition["tree"]) == metrics and p.fiscal_years, p


@pytest.mark.parametrize("question, key", [
    ("Considering the cash flow statement, calculate Walmart's FY2025 free cash flow conversion. Show the formula and "
     "round to 2 decimals.", "fcf_conversion"),
    ("What is Apple's FY2024 gross margin? Please calculate it from the income statement, showing your work.",
     "gross_margin"),
])
def test_how_to_show_the_answer_is_no_part_of_the_figure(directory, question, key):  # noqa: F811
    p = plan(directory, question)
    assert p.refusal_reason is None and p.metrics == [key], p


@pytest.mark.parametrize("question, metrics", [
    ("Compute Apple's debt-to-equity for FY2024. Define debt as total debt.", ["debt_to_equity"]),
    ("apple debt to equity 2024, with debt defined as long-term debt plus its current portion", ["debt_to_equity"]),
    ("AAPL debt to equity 2024 using total debt", ["debt_to_equity"]),
    ("Apple net debt FY2024 (debt = long-term debt + current portion + commercial paper)", ["net_debt_all"]),
])
def test_a_definition_of_the_debt_a_measure_already_counts_is_that_measure(directory, question, metrics):  # noqa: F811
    p = plan(directory, question)
    assert p.refusal_reason is None and p.metrics == metrics, p


def test_a_total_debt_row_the_company_prints_equal_to_the_sum_is_named(db):
    from ingest.line_items import LineItem
    from agent.retrieval.retrieve import _collect
    from store.labels import replace_labels

    with db.connection() as conn:
        filer = _filer(conn, 999206, "TDX", [], [("LongTermDebtNoncurrent", 900), ("LongTermDebtCurrent", 100),
                                                ("DebtLongtermAndShorttermCombinedAmount", 1_000)])
        other = _filer(conn, 999207, "TDY", [], [("LongTermDebtNoncurrent", 900), ("LongTermDebtCurrent", 100),
                                                 ("DebtLongtermAndShorttermCombinedAmount", 1_250)])
        for cik in (999206, 999207):
            replace_labels(conn, f"0000{cik}-25-000001", cik, [
                LineItem("us-gaap", "DebtLongtermAndShorttermCombinedAmount", "Total debt", "other", 9, 4, False)])
        _, _, cells = _collect(conn, [filer, other], ["total_debt"])
    by = {c["ticker"]: c for c in cells}
    assert by["TDX"]["convention"].endswith("which equals the \u201cTotal debt\u201d row the company prints"), cells
    assert "row the company prints" not in by["TDY"]["convention"]  # (its row counts commercial paper too)


def test_a_growth_named_by_a_companys_own_revenue_words_is_read_from_that_row_when_no_member_is_so_named():
    from agent.planning.members import growth

    tree = growth("revenue", "net operating")["tree"]
    assert tree["op"] == "first" and set(metrics_of(tree["args"][0])) == {"revenue@net operating",
                                                                          "revenue@net operating~-1"}
    # the whole growth over the row, both years one way, never the words alone as a row
    assert set(metrics_of(tree["args"][1])) == {"#net operating revenue", "#net operating revenue~-1"}


@pytest.mark.parametrize("question", [
    "Apple total debt: Long-term debt + Current debt",  # the measure's own "debt" begins "debt: ..."
    "Apple cash flow to debt: Operating cash flow / (Long-term debt + Current debt)",  # a whole formula
])
def test_a_definition_that_is_the_measure_or_a_formula_is_not_cut_away(directory, question):  # noqa: F811
    p = plan(directory, question)
    assert p.route == "domain" and p.refusal_reason is None and (p.metrics or p.definitions), p
    assert p.intent != "qualitative", p
