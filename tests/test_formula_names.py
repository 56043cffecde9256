"""A ratio's name as analysts type it: misspelt or abbreviated, its definition restated beside it,
or in brackets after a paraphrase; and revenue per share on the diluted count."""

from __future__ import annotations

from decimal import Decimal

import pytest

from agent.planning.measure_spelling import spelled_out, spellings
from agent.planning.restated import without_restatements
from agent.retrieval.finance import FORMULAS, Operand, calculate, match_formulas
from tests.test_plan_changes import directory  # noqa: F401  (the module's directory fixture)
from agent.planning.rules import plan_rules


@pytest.mark.parametrize("typed, read", [
    ("apple gross mrgn 2024", "apple gross margin 2024"),
    ("tesla operating margn fy24?", "tesla operating margin fy24?"),
    ("nvidia intrest coverage ratio fy25", "nvidia interest coverage ratio fy25"),
    ("apple curr ratio end of fy24", "apple current ratio end of fy24"),
    ("tesla eff tax rate 2024", "tesla effective tax rate 2024"),
    ("apple free cash flow margn 2024", "apple free cash flow margin 2024"),
])
def test_a_misspelt_or_abbreviated_word_is_spelled_out_inside_the_ratio_name_it_completes(typed, read):
    assert spelled_out(typed) == read


@pytest.mark.parametrize("typed", [
    "shopify revenue 2023",  # a word no phrase around it completes: a name, left as written
    "apple revenue 2024",
    "what is curr doing",  # "curr" alone completes no phrase
    "apple gross, mrgn 2024",  # punctuation between the words: no phrase
])
def test_a_word_is_never_rewritten_outside_a_phrase_it_completes(typed):
    assert spelled_out(typed) == typed


def test_known_words_and_company_names_are_never_respelled():
    assert spellings("margin") == () and spellings("the") == ()
    text = "intrest coverage ratio"
    assert spelled_out(text, keep=[(0, 7)]) == text  # the span is a company's name as written


def test_the_rewritten_question_plans_the_ratio(directory):
    plan = plan_rules("apple gross mrgn fy2024", directory=directory)
    assert plan.metrics == ["gross_margin"] and plan.tickers == ["AAPL"] and plan.fiscal_years == [2024], plan


@pytest.mark.parametrize("text, named", [
    ("Tesla interest coverage ratio (operating income divided by interest expense) in 2024?",
     "interest_coverage"),
    ("Apple asset turnover (revenue / total assets) fy2024", "asset_turnover"),
    ("Please compute Apple's operating margin for fiscal 2024, expressed as a percent of total revenue.",
     "operating_margin"),
    ("Calculate Tesla's free cash flow margin for 2024, defining FCF as operating cash flow less capital "
     "expenditures.", "fcf_margin"),
    ("What was Apple's debt to equity ratio at the end of fiscal 2024? Use total debt over shareholders' equity.",
     "debt_to_equity"),
])
def test_a_restated_definition_with_the_formula_s_own_operands_is_taken_out(text, named, directory):
    read, bracketed = without_restatements(text)
    assert bracketed is None and len(read) < len(text), read
    assert match_formulas(read) == [named], read
    plan = plan_rules(text, directory=directory)
    # the registry's ratio, or the user's own definition when the words as written already plan one
    assert plan.refusal_reason is None, plan
    assert named in plan.metrics or any(m.startswith("udf:") for m in plan.metrics), plan


def test_a_restatement_with_another_operand_is_the_user_s_definition_and_stays():
    text = "Apple interest coverage (net income over interest expense) 2024"
    assert without_restatements(text) == (text, None)  # never silently the registry's operating income
    text = "define fcf as operating cash flow minus capex. apple 2024"
    assert without_restatements(text) == (text, None)  # the definition is the question


def test_words_of_a_formula_s_own_name_are_never_taken_for_a_restatement():
    text = "Tesla 2024: operating cash flow as a share of revenue"
    assert without_restatements(text) == (text, None)


def test_a_bracketed_name_says_which_ratio_a_paraphrase_describes(directory):
    text = "How many days of sales were outstanding in receivables at Apple for fiscal 2024 (DSO)?"
    read, bracketed = without_restatements(text)
    assert bracketed == "dso" and "(DSO)" not in read
    plan = plan_rules(text, directory=directory)
    assert plan.metrics == ["dso"] and plan.tickers == ["AAPL"] and plan.fiscal_years == [2024], plan
    plan = plan_rules("What share of net income did Tesla pay out as dividends in 2024 (payout ratio)?",
                      directory=directory)
    assert plan.metrics == ["dividend_payout"] and plan.tickers == ["TSLA"], plan


def test_revenue_per_share_is_revenue_over_the_diluted_count(directory):
    f = FORMULAS["revenue_per_share"]
    assert [i.metric for i in f.inputs] == ["revenue", "diluted_shares"] and "diluted" in f.expression
    # Coca-Cola FY2023: revenue $45,754M over 4,339M diluted shares
    ops = [Operand(Decimal("45754000000"), "USD", 2023, 1), Operand(Decimal("4339000000"), "shares", 2023, 2)]
    assert round(calculate("revenue_per_share", ops).value, 2) == Decimal("10.54")
    plan = plan_rules("tesla revenue per share 2024", directory=directory)
    assert plan.metrics == ["revenue_per_share"] and plan.refusal_reason is None, plan


def test_an_abbreviation_never_becomes_a_longer_measure_the_tables_refuse_apart():
    assert spelled_out("apple ebit margin 2024") == "apple ebit margin 2024"  # EBIT is not EBITDA


@pytest.mark.parametrize("text, shape", [
    ("apple fcf to debt fiscal 2024", "(Operating cash flow − Capital expenditures) ÷ Total debt"),
    ("apple net debt to total assets fiscal 2024", "Net debt ÷"),
    ("apple working capital to assets fiscal 2024", "(Total current assets − Total current liabilities) ÷ Total assets"),
])
def test_a_computed_amount_to_a_metric_is_their_ratio(text, shape, directory):
    plan = plan_rules(text, directory=directory)
    assert plan.refusal_reason is None and plan.metrics[0].startswith("udf:"), plan
    assert plan.definitions[-1]["formula"].startswith(shape), plan.definitions[-1]


def test_gross_profit_in_a_definition_is_revenue_less_cost_where_untagged():
    from agent.planning.formula_parse import parse_expression
    from agent.planning.formula_trees import choose, evaluate, restate

    tree = parse_expression("operating income over gross profit")
    tagged = choose(tree, lambda k: True)
    assert restate(tagged, top=True) == "Operating income ÷ Gross profit"
    untagged = choose(tree, lambda k: k != "gross_profit")
    assert restate(untagged, top=True) == "Operating income ÷ (Revenue − Cost of revenue)"
    values = {"operating_income": Decimal(30), "revenue": Decimal(100), "cost_of_revenue": Decimal(40)}
    assert evaluate(untagged, values, "ratio") == Decimal("0.5")


@pytest.mark.parametrize("text, name", [
    ("What was Apple's compound annual revenue growth rate from fiscal 2022 to fiscal 2024?",
     "revenue cagr, fiscal 2022 to 2024"),
    ("tesla revenue compound annual growth rate from 2022 to 2024", "revenue cagr, fiscal 2022 to 2024"),
    ("apple 2-yr revenue CAGR thru fy24", "revenue cagr, fiscal 2022 to 2024"),
])
def test_a_compound_rate_said_around_its_metric_or_with_short_years_is_the_cagr(text, name, directory):
    plan = plan_rules(text, directory=directory)
    assert plan.metrics == [f"udf:{name}"] and plan.refusal_reason is None, plan
    assert "compound annual growth rate" in plan.definitions[-1]["formula"]


@pytest.mark.parametrize("text, key", [
    ("How levered was Tesla in fiscal 2024 on a total debt to EBITDA basis?", "debt_to_ebitda"),
    ("How efficiently did Apple use its assets in fiscal 2024, measured as asset turnover (revenue / total assets)?",
     "asset_turnover"),
    ("how profitable was apple in fiscal 2024 in terms of return on equity?", "roe"),
])
def test_a_paraphrase_with_the_ratio_named_after_it_asks_that_ratio(text, key, directory):
    plan = plan_rules(text, directory=directory)
    assert plan.metrics == [key] and plan.fiscal_years == [2024] and plan.refusal_reason is None, plan


def test_chg_is_a_change_word(directory):
    plan = plan_rules("apple net income yoy % chg fy24", directory=directory)
    assert plan.metrics == ["net_income_growth"], plan


def test_items_listed_after_a_deduction_are_each_deducted():
    from agent.planning.formula_parse import parse_expression
    from agent.planning.formula_trees import restate

    tree = parse_expression("operating cash flow net of capex and dividends")
    assert restate(tree, top=True) == "Operating cash flow − (Capital expenditures + Dividends paid)"
    # an "and" inside a name is the name's: never split
    tree = parse_expression("revenue less cost of revenue and research and development")
    assert restate(tree, top=True) == "Revenue − (Cost of revenue + Research and development expense)"
    tree = parse_expression("net income minus research and development")
    assert restate(tree, top=True) == "Net income − Research and development expense"


def test_diluted_weighted_average_shares_is_the_diluted_count(directory):
    plan = plan_rules("What was Apple's revenue per share for fiscal 2024, using diluted weighted-average shares?",
                      directory=directory)
    assert plan.metrics == ["revenue_per_share"] and plan.refusal_reason is None, plan


def test_operands_restated_beside_a_formula_are_not_asked_apart(directory):
    plan = plan_rules("What was Apple's inventory turnover ratio for fiscal 2024 (cost of sales over inventory)?",
                      directory=directory)
    assert plan.metrics == ["inventory_turnover"], plan


def test_steps_said_in_order_are_one_formula():
    from agent.planning.spoken_formulas import spoken_operators

    said = spoken_operators("For Apple, fiscal 2024: take operating income, subtract interest expense, and divide by revenue.")
    assert "(operating income minus interest expense) over revenue" in said
    said = spoken_operators("take net income, add depreciation and amortization, then divide the result by revenue")
    assert said.startswith("(net income plus depreciation and amortization) over revenue")


def test_a_component_s_definition_restated_by_its_label_beside_its_ratio(directory):
    read, _ = without_restatements("tesla ebitda margin fiscal 2024, EBITDA as operating income + D&A")
    assert read == "tesla ebitda margin fiscal 2024"
    # another operand than the registry's: the user's own definition, kept
    text = "tesla ebitda margin fiscal 2024, EBITDA as net income + D&A"
    assert without_restatements(text) == (text, None)


def test_avg_is_average_inside_a_ratio_name():
    assert spelled_out("return on avg assets, apple, fiscal 2024") == "return on average assets, apple, fiscal 2024"
