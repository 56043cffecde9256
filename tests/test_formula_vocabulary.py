"""Ratios by more of the names analysts use, operands in their words (fixed assets, a balance at year end or at
the year's start, total capital), a definition's two years, instructions about where to look, and shares and
coverages said in words."""

from __future__ import annotations

from decimal import Decimal

import pytest

from agent.planning.defined_formulas import without_restated_inputs
from agent.planning.formula_definitions import find_definition
from agent.planning.formula_parse import parse_expression
from agent.planning.formula_syntax import DefinitionError
from agent.planning.formula_trees import evaluate, metrics_of, restate
from agent.planning.registry_trees import formula_tree
from agent.planning.rules import plan_rules
from agent.planning.sourcing import without_sourcing
from agent.retrieval.finance import FORMULAS, Operand, calculate
from tests.test_plan_changes import directory  # noqa: F401  (the module's directory fixture)


def _ops(*values):
    return [Operand(Decimal(v), "USD", 2024, i + 1) for i, v in enumerate(values)]


@pytest.mark.parametrize("text, key", [
    ("apple operating ratio fy24", "operating_ratio"),
    ("tesla working capital turnover 2024", "working_capital_turnover"),
    ("walmart equity turnover fy2025", "equity_turnover"),
    ("apple fcf payout ratio fy24", "fcf_payout"),
    ("walmart operating cycle fy2025", "operating_cycle"),
    ("tesla interest burden 2024", "interest_burden"),
    ("apple pretax roe fy24", "pretax_roe"),
    ("nvidia cash return on assets fy2025", "cash_roa"),
    ("tesla capitalization ratio 2024", "capitalization_ratio"),
    ("apple cash flow to debt fy24", "cash_flow_to_debt"),
    ("tesla gearing 2024", "net_debt_to_equity"),
    ("tesla net debt to capital 2024", "net_debt_to_capital"),
    ("apple quality of earnings ratio fy24", "cash_conversion"),
    ("walmart cash coverage ratio fy2025", "ebitda_interest_coverage"),
    ("tesla long-term debt ratio 2024", "lt_debt_to_assets"),
    ("apple oibda margin fy24", "ebitda_margin"),
])
def test_a_ratio_named_as_analysts_name_it_is_planned_as_that_ratio(text, key, directory):
    plan = plan_rules(text, directory=directory)
    assert plan.refusal_reason is None and plan.metrics == [key], plan


def test_the_operating_ratio_is_every_operating_cost_over_revenue_whatever_the_company_calls_its_expenses():
    # Union Pacific 2024 in $M: operating revenues 24,250, operating income 9,712: a 60.0% operating ratio
    assert str(round(calculate("operating_ratio", _ops("24250", "9712")).value, 1)) == "60.0"


def test_the_new_ratios_compute_under_the_convention_their_expression_states():
    # working capital turnover: revenue 100 over (current assets 80 - current liabilities 60)
    assert calculate("working_capital_turnover", _ops("100", "80", "60")).value == Decimal(5)
    # equity turnover over the year's average equity: 300 / ((100 + 200) / 2)
    assert calculate("equity_turnover", _ops("300", "100", "200")).value == Decimal(2)
    # FCF payout: dividends 30 over (OCF 100 - capex 40)
    assert calculate("fcf_payout", _ops("30", "100", "40")).value == Decimal(50)
    # operating cycle: inventories 10 / COGS 365 + receivables 20 / revenue 365, in days
    assert calculate("operating_cycle", _ops("10", "365", "20", "365")).value == Decimal(30)
    # capitalization: long-term debt 40 over (40 + equity 60)
    assert calculate("capitalization_ratio", _ops("40", "60")).value == Decimal("0.4")
    assert "average" in FORMULAS["equity_turnover"].expression and "year-end" in FORMULAS["capitalization_ratio"].expression


@pytest.mark.parametrize("expr, shown", [
    ("inventory at year end / cost of revenue * 365", "(Inventories ÷ Cost of revenue) × 365"),
    ("ending inventory over cost of sales", "Inventories ÷ Cost of revenue"),
    ("net income / ((beginning equity + ending equity) / 2)",
     "Net income ÷ ((Total stockholders' equity (prior year) + Total stockholders' equity) ÷ 2)"),
    ("revenue / average fixed assets", "Revenue ÷ average property, plant and equipment, net (opening and closing)"),
    ("revenue / net PP&E", "Revenue ÷ Property, plant and equipment, net"),
    ("tax / revenue", "Income tax expense ÷ Revenue"),
])
def test_an_operand_said_with_its_balance_date_or_as_fixed_assets_is_that_balance(expr, shown):
    assert restate(parse_expression(expr, members=True), top=True) == shown


def test_a_flow_said_at_year_end_is_refused_not_read_as_a_balance():
    definition, _, bad = find_definition("Sales intensity is defined as revenue at year end / total assets.")
    assert definition is None and bad == "revenue at year end"


def test_a_definitions_two_years_are_the_asked_year_and_the_one_before():
    definition, _, bad = find_definition(
        "Inventory turnover is defined as: (FY2024 COGS) / ((FY2023 inventory + FY2024 inventory) / 2).")
    assert bad is None and definition is not None
    values = {k: Decimal(v) for k, v in zip(metrics_of(definition["tree"]), ("100", "30", "20"))}
    assert sorted(metrics_of(definition["tree"])) == ["cost_of_revenue", "inventory", "inventory~-1"]
    assert evaluate(definition["tree"], values, "ratio") == Decimal(4)  # 100 / ((30 + 20) / 2)


def test_a_measure_the_user_defines_is_the_one_divided_by_even_under_a_registry_ratios_name(directory):
    plan = plan_rules("What is Tesla's FY2024 total debt to total capital? Total capital = total debt + total equity "
                      "+ total liabilities.", directory=directory)
    assert plan.refusal_reason is None and len(plan.metrics) == 1 and plan.metrics[0].startswith("udf:"), plan
    asked = next(d for d in plan.definitions if f"udf:{d['name']}" == plan.metrics[0])
    assert "Total liabilities" in asked["formula"]  # the user's total capital, never the registry's


def test_instructions_about_where_to_look_are_no_words_of_the_ask():
    assert without_sourcing("What is Tesla's FY2024 asset turnover? Please utilize information provided primarily "
                            "within the balance sheet and the P&L statement.") == "What is Tesla's FY2024 asset turnover?"
    assert without_sourcing("Assume that you are a public equities analyst. Answer the following question by "
                            "primarily using information that is shown in the balance sheet: what is Apple's year end "
                            "FY2024 inventory?") == "on the balance sheet what is Apple's year end FY2024 inventory?"
    defined = "Define adjusted margin as operating income plus SBC over revenue, using the income statement."
    assert without_sourcing(defined) == "Define adjusted margin as operating income plus SBC over revenue."
    kept = "Based on operating income over revenue from the income statement, what was Apple's margin in 2024?"
    assert without_sourcing(kept) == kept  # a clause holding a formula is the user's, never an instruction
    plain = "What was Apple's revenue in fiscal 2024?"
    assert without_sourcing(plain) == plain


def test_calculating_a_named_measure_from_its_own_inputs_restates_it():
    text = ("What is Adobe's FY2024 EBITDA margin? Calculate unadjusted EBITDA using unadjusted operating income and "
            "D&A (from cash flow statement).")
    assert without_restated_inputs(text) == "What is Adobe's FY2024 EBITDA margin?"
    other = "What is Adobe's FY2024 EBITDA margin? Calculate EBITDA using net income and interest expense."
    assert without_restated_inputs(other) == other  # other inputs: the user's own formula, read or refused


def test_a_change_in_an_ebitda_margin_is_its_points_change(directory):
    assert formula_tree("ebitda_margin") is not None
    plan = plan_rules("apple ebitda margin change fy2024", directory=directory)
    assert plan.refusal_reason is None and "percentage points" in plan.metrics[0], plan


@pytest.mark.parametrize("text, formula", [
    ("In FY2024, what share of revenue did Walmart spend on capex?", None),
    ("What percentage of Nvidia's FY2025 revenue was R&D?", None),
    ("How much of Apple's 2024 net income was paid out as dividends?", "Dividends paid ÷ Net income"),
    ("How many times does Tesla's operating income cover its interest expense in 2024?",
     "Operating income ÷ Interest expense"),
    ("How many times did Walmart turn over its inventory in FY2025?", None),
])
def test_a_share_or_coverage_said_in_words_is_the_quotient_it_says(text, formula, directory):
    plan = plan_rules(text, directory=directory)
    assert plan.refusal_reason is None and len(plan.tickers) == 1 and len(plan.fiscal_years) == 1, plan
    if formula is None:
        assert plan.metrics[0] in FORMULAS, plan
    else:
        assert plan.definitions[-1]["formula"] == formula, plan


def test_several_definitions_each_in_terms_of_the_next_are_read_together(directory):
    text = ("What is Walmart's FY2025 cash conversion cycle? CCC is defined as: DIO + DSO - DPO. DIO is defined as: "
            "365 * (average inventory between FY2024 and FY2025) / (FY2025 COGS). DSO is defined as: 365 * (average "
            "accounts receivable between FY2024 and FY2025) / (FY2025 Revenue). DPO is defined as: 365 * (average "
            "accounts payable between FY2024 and FY2025) / (FY2025 COGS).")
    plan = plan_rules(text, directory=directory)
    assert plan.refusal_reason is None and plan.metrics == ["udf:ccc"], plan  # the user's, never the registry's too
    tree = plan.definitions[-1]["tree"]
    keys = metrics_of(tree)
    assert {"inventory~-1", "accounts_receivable~-1", "accounts_payable~-1", "revenue"} <= set(keys)
    values = {k: Decimal(v) for k, v in {
        "inventory": "20", "inventory~-1": "20", "cost_of_revenue": "365", "accounts_receivable": "10",
        "accounts_receivable~-1": "10", "revenue": "365", "accounts_payable": "5", "accounts_payable~-1": "5"}.items()}
    assert evaluate(tree, values, "ratio") == Decimal(25)  # 20 + 10 - 5 days


def test_a_definition_naming_a_measure_nobody_defines_is_still_refused_naming_it():
    definition, _, bad = find_definition("CCC is defined as: DIO + DSO - widget days. DIO is defined as: inventory / "
                                         "cost of revenue * 365.")
    assert definition is None and bad


def test_a_margin_excluding_an_expense_adds_it_back_and_a_ratio_never_takes_dollars():
    tree = parse_expression("gross margin excluding amortization of intangible assets", members=True,
                            lines=_lines(("Amortization of intangible assets", "us-gaap:AmortizationOfIntangibleAssets")))
    values = {k: Decimal(v) for k, v in zip(metrics_of(tree), ("40", "10", "100"))}
    assert evaluate(tree, values, "percent") == Decimal(50)  # (40 + 10) / 100
    with pytest.raises(DefinitionError):
        parse_expression("gross margin minus capex", members=True)  # a percentage less dollars is no figure


def test_a_registry_measure_defined_otherwise_in_brackets_is_the_users(directory):
    directory.line_names = _lines(("Short-term investments", "us-gaap:ShortTermInvestments"))
    try:
        plan = plan_rules("Tesla 2024 net debt (total debt less cash and short-term investments)", directory=directory)
    finally:
        directory.line_names = frozenset()
    assert plan.metrics == ["udf:net debt"], plan  # never the registry's net debt, which leaves investments in
    assert "Short term investments" in plan.definitions[-1]["formula"]


def test_interest_coverage_said_on_ebitda_is_the_ebitda_coverage(directory):
    assert plan_rules("Tesla 2024 interest coverage using EBITDA", directory=directory).metrics == \
        ["ebitda_interest_coverage"]


def _lines(*rows):
    from agent.planning.companies import line_names
    return line_names(list(rows))


@pytest.mark.parametrize("text, key", [
    ("nvda gm% fy25", "gross_margin"),  # "gm%": gross margin's initials, never General Motors
    ("googl ni margin 2024", "net_margin"),
    ("apple capex to d&a ratio fy24", "capex_to_da"),
    ("What percentage of Apple's FY2024 net sales did cost of sales represent?", "cost_of_revenue_pct"),
])
def test_more_ways_of_naming_a_ratio(text, key, directory):
    plan = plan_rules(text, directory=directory)
    assert plan.refusal_reason is None and plan.metrics == [key] and len(plan.tickers) == 1, plan


def test_an_expense_said_with_the_word_expense_is_that_expense():
    assert restate(parse_expression("research & development expense / net sales", members=True), top=True) == \
        "Research and development expense ÷ Revenue"


def test_the_year_before_a_measure_defined_in_the_question_is_the_years_asked_not_its_name(directory):
    plan = plan_rules("Calculate Apple's FY2024 widget ratio, defined as R&D divided by revenue.", directory=directory)
    assert plan.refusal_reason is None and plan.fiscal_years == [2024] and plan.tickers == ["AAPL"], plan
    assert plan.metrics == ["udf:widget ratio"], plan


def test_net_income_attributable_to_the_company_is_net_income_and_to_minorities_is_not(directory):
    plan = plan_rules("For Apple's fiscal 2024, I need net sales, net earnings attributable to Apple, and net profit "
                      "margin (net earnings over net sales), answered in USD millions where applicable.",
                      directory=directory)
    assert plan.refusal_reason is None and set(plan.metrics[1:]) == {"revenue", "net_income"}, plan
    assert plan.definitions[-1]["formula"] == "Net income ÷ Revenue"
    minority = plan_rules("What was Apple's net income attributable to noncontrolling interests in 2024?",
                          directory=directory)
    assert "net_income" not in minority.metrics, minority


def test_a_members_mix_is_its_share_of_revenue(directory):
    plan = plan_rules("apple services mix fy2024", directory=directory)
    assert plan.refusal_reason is None and plan.definitions[-1]["formula"] == "Revenue (services) ÷ Revenue", plan
    assert plan_rules("apple revenue mix fy2024", directory=directory).definitions == []  # no member named


def test_a_registry_ratio_whose_part_the_user_defines_is_computed_over_their_part(directory):
    plan = plan_rules("What is Apple's FY2024 quick ratio, where quick assets = cash + accounts receivable?",
                      directory=directory)
    assert len(plan.metrics) == 1 and plan.metrics[0].startswith("udf:quick ratio"), plan
    asked = next(d for d in plan.definitions if f"udf:{d['name']}" == plan.metrics[0])
    assert asked["formula"] == "(Cash and cash equivalents + Accounts receivable, net) ÷ Total current liabilities"
    plain = plan_rules("apple quick ratio fy24", directory=directory)
    assert plain.metrics == ["quick_ratio"]  # no part defined: the registry's, its convention stated


@pytest.mark.parametrize("text, formula", [
    ("Compute Tesla's FY2024 ratio: operating income / interest expense", "Operating income ÷ Interest expense"),
    ("Tesla 2024: ratio of free cash flow to net income (FCF = CFO - capex)",
     "(Operating cash flow − Capital expenditures) ÷ Net income"),
    ("What was Tesla's 2024 interest coverage? Define it as EBIT divided by interest expense, where EBIT is operating "
     "income.", "Operating income ÷ Interest expense"),
])
def test_a_formula_after_a_bare_ratio_or_with_its_operands_defined_beside_it(text, formula, directory):
    plan = plan_rules(text, directory=directory)
    assert plan.refusal_reason is None and plan.definitions[-1]["formula"] == formula, plan


def test_a_figure_with_its_share_in_brackets_and_gross_interest_and_a_defined_roe(directory):
    plan = plan_rules("What is the FY2024 unadjusted EBIT (as % of total revenue) for Tesla?", directory=directory)
    assert plan.definitions and plan.definitions[-1]["formula"] == "Operating income ÷ Revenue", plan
    assert plan.definitions[-1]["unit"] == "percent"
    assert restate(parse_expression("operating income / gross interest expense", members=True), top=True) == \
        "Operating income ÷ Interest expense"
    roe = plan_rules("What is Tesla's FY2024 ROE? ROE = net income / average shareholders' equity.", directory=directory)
    assert roe.definitions[-1]["unit"] == "percent", roe  # the registry's ROE is a percentage, so is the user's


@pytest.mark.parametrize("text, metrics", [
    ("Apple FY2024 EPS using basic shares", ["eps_basic"]),  # never the diluted EPS beside the basic share count
    ("What was Apple's earnings per share (basic) in fiscal 2024?", ["eps_basic"]),
    ("Apple FY2024 EPS", ["eps_diluted"]),
    ("Apple FY2024 EPS and basic shares outstanding", ["eps_diluted", "basic_shares"]),
])
def test_eps_said_with_its_share_count_is_that_eps(text, metrics, directory):
    assert plan_rules(text, directory=directory).metrics == metrics


def test_free_cash_flow_after_sbc_is_free_cash_flow_less_sbc(directory):
    plan = plan_rules("What is Tesla's FY2024 free cash flow after stock-based compensation?", directory=directory)
    assert plan.definitions[-1]["formula"] == \
        "(Operating cash flow − Capital expenditures) − Share-based compensation expense", plan


def test_a_sentence_naming_a_figure_or_a_company_is_never_taken_for_an_instruction():
    for text in ("Look at Nike's income statement and tell me the gross margin.",
                 "Look at the income statement and tell me Nike gross margin for 2024."):
        assert without_sourcing(text) == text


def test_an_industry_ratio_is_read_as_its_definition_over_printed_rows(directory):
    from agent.planning.industry_ratios import with_industry_definitions
    assert with_industry_definitions("UnitedHealth 2024 medical care ratio") == \
        "UnitedHealth 2024 medical care ratio (medical costs as a % of premiums)"
    said = "UNH medical care ratio, defined as medical costs over total revenues"
    assert with_industry_definitions(said) == said  # the user's own definition stays theirs


@pytest.mark.parametrize("text, ticker", [
    ("What was net income attributable to Apple in FY2024?", "AAPL"),  # the company's only mention stays
    ("Based on Walmart's balance sheet, what were total assets in FY2025?", "WMT"),
    ("Using the balance sheet of Walmart, what were total assets in FY2025?", "WMT"),
    ("As an investor in Tesla, what was revenue in 2024?", "TSLA"),
])
def test_an_instruction_or_attribution_naming_the_company_keeps_it_the_questions(text, ticker, directory):
    plan = plan_rules(text, directory=directory)
    assert plan.refusal_reason is None and plan.tickers == [ticker], plan


def test_a_row_name_beside_a_statement_is_never_an_instruction():
    said = "Walmart net cash provided by financing activities, cash flow statement, FY2025."
    assert without_sourcing(said) == said
