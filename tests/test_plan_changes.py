"""A change asked in dollars is the difference of two cited years, never the growth rate; the year a
change is measured from is its base, not the asked year."""

from __future__ import annotations

import pytest

from agent.planning.companies import CompanyDirectory
from agent.planning.rules import plan_rules
from tests.test_companies import COVERED, SEC


@pytest.fixture(scope="module")
def directory() -> CompanyDirectory:
    return CompanyDirectory.from_rows(
        COVERED, SEC, {320193: [2023, 2024], 1045810: [2024, 2025], 104169: [2024, 2025], 1318605: [2023, 2024]}
    )


def _plan(directory, text, previous=None):
    return plan_rules(text, previous=previous, directory=directory)


@pytest.mark.parametrize("text, metrics", [
    ("by how much did Apple's revenue change in dollars in fiscal 2024?", ["revenue_change"]),
    ("tesla net income dollar increase 2024", ["net_income_change"]),
    ("apple revenue growth fy2024", ["revenue_growth"]),
    ("how much did apple revenue grow in fy2024, in percent?", ["revenue_growth"]),
    ("what was apple's revenue in dollars in fy2024?", ["revenue"]),  # a unit, no change asked
])
def test_dollar_words_turn_growth_into_a_difference(directory, text, metrics):
    assert _plan(directory, text).metrics == metrics


def test_a_follow_up_in_dollars_is_the_threads_figure_changed(directory):
    first = _plan(directory, "apple revenue fy2024")
    p = _plan(directory, "by how much did it change in dollars?", previous=first)
    assert (p.metrics, p.fiscal_years) == (["revenue_change"], [2024])
    p = _plan(directory, "how much higher was that than the year before?", previous=first)
    assert (p.metrics, p.fiscal_years) == (["revenue_change"], [2024])  # the year before is the base


def test_a_members_change_in_dollars_is_a_member_difference(directory):
    first = _plan(directory, "iphone revenue fy2024")
    p = _plan(directory, "what was the change in dollars from fy2023?", previous=first)
    assert p.fiscal_years == [2024]
    assert len(p.definitions) == 1 and p.metrics == [f"udf:{p.definitions[0]['name']}"]
    tree = p.definitions[0]["tree"]["args"][0]  # the member's (else the row printed under its words and the metric's)
    assert tree["op"] == "-" and [a.get("offset", 0) for a in tree["args"]] == [0, -1]
    assert tree["args"][0] == {"metric": "revenue", "member": "iphone"}
    assert p.definitions[0]["unit"] == "USD"


@pytest.mark.parametrize("text, years", [
    ("apple revenue growth from fy2023", [2024]),
    ("apple revenue growth over 2023", [2024]),
    ("apple revenue growth in 2024", [2024]),
    ("apple revenue growth from 2023 to 2024", [2024]),
])
def test_the_year_a_change_is_measured_from_is_its_base(directory, text, years):
    assert _plan(directory, text).fiscal_years == years


def test_a_dash_after_a_definition_sets_off_the_company_not_a_subtraction():
    from agent.planning.formula_definitions import find_definition

    definition, rest, bad = find_definition("define core margin as gross profit minus R&D over revenue - cisco fy2024?")
    assert bad is None and definition["name"] == "core margin"
    assert definition["tree"]["op"] == "/" and "cisco fy2024" in rest
    _, _, bad = find_definition("define foo as revenue - widgets")
    assert bad == "widgets"  # an unknown operand is still refused with its words


@pytest.mark.parametrize("text, metrics", [
    ("which apple segment grew revenue fastest in 2024?", ["udf:revenue growth by segment"]),
    ("which nvidia segment had the fastest revenue growth in fiscal 2025?", ["udf:revenue growth by segment"]),
    ("which of apple's products had the highest net sales in fy2024", ["dim:revenue|*product"]),
])
def test_which_member_is_asked_over_every_member_of_the_axis(directory, text, metrics):
    p = _plan(directory, text)
    assert p.metrics == metrics, p
    for d in p.definitions:
        assert all(node.get("member") == "*segment" for node in d["tree"]["args"][1:])


@pytest.mark.parametrize("text, formula", [
    ("What's the ratio of R&D to revenue for Apple FY2024?", "Research and development expense ÷ Revenue"),
    ("what's the sum of dividends and buybacks for apple in fy2024?", "Dividends paid + Share repurchases"),
    ("Take Apple's operating income and divide it by its total assets for fiscal 2024", "Operating income ÷ Total assets"),
    ("the difference between gross profit and R&D for apple 2024", "Gross profit − Research and development expense"),
    ("Let's call opex SG&A + R&D. What was Apple's opex in 2024?",
     "Selling, general and administrative expense + Research and development expense"),
    ("apple net income over average total assets fy2024", "Net income ÷ average total assets (opening and closing)"),
    ("Using diluted shares, what's Apple's net income per share fy2024?", "Net income ÷ Weighted-average diluted shares"),
    ("free cash flow per share for apple fy2024, use diluted shares",
     "(Operating cash flow − Capital expenditures) ÷ Weighted-average diluted shares"),
])
def test_operators_said_in_words_are_the_formula_they_say(directory, text, formula):
    p = _plan(directory, text)
    assert p.route == "domain" and p.metrics and p.metrics[0].startswith("udf:"), p
    assert p.definitions[-1]["formula"] == formula


@pytest.mark.parametrize("text, metrics", [
    ("what is apple's debt to equity ratio in 2024", ["debt_to_equity"]),  # the registry's own name
])
def test_words_that_only_resemble_spoken_operators_are_left_alone(directory, text, metrics):
    assert _plan(directory, text).metrics == metrics


def test_an_average_balance_is_the_mean_of_opening_and_closing():
    from decimal import Decimal

    from agent.planning.formula_parse import parse_expression
    from agent.planning.formula_trees import evaluate

    tree = parse_expression("net income over average total assets")
    assert evaluate(tree, {"net_income": Decimal(10), "total_assets": Decimal(120), "total_assets~-1": Decimal(80)},
                    "ratio") == Decimal("0.1")


@pytest.mark.parametrize("text, refused", [
    ("what's tesla's short interest right now?", True),
    ("how many apple shares are sold short?", True),
    ("nvidia average trading volume", True),
    ("what are analysts' estimates for apple's eps?", True),
    ("tesla short-term debt 2024", False),
    ("apple short-term investments fy2024", False),
])
def test_market_trading_data_is_refused_never_searched_in_the_filing(directory, text, refused):
    p = _plan(directory, text)
    assert (p.refusal_reason == "out_of_scope" and "market trading data" in p.refusal_detail) == refused, p


def test_growth_over_more_than_a_year_is_computed_over_those_years(directory):
    first = _plan(directory, "nvidia revenue fy2025")
    p = _plan(directory, "what was the growth over fy2023?", previous=first)  # NVDA holds FY2024-25 here
    assert p.fiscal_years == [2025] and p.metrics == ["udf:revenue growth from fiscal 2023"], p
    prior = p.definitions[-1]["tree"]["args"][1]["args"][0]
    assert prior == {"metric": "revenue", "offset": -2}


def test_growth_of_a_registry_sum_or_difference_is_its_growth_never_its_level(directory):
    p = _plan(directory, "tesla free cash flow growth 2024")
    assert p.metrics == ["udf:free cash flow growth"], p
    assert p.definitions[-1]["formula"] == (
        "((Operating cash flow − Capital expenditures) − (Operating cash flow (prior year) − Capital expenditures "
        "(prior year))) ÷ |Operating cash flow (prior year) − Capital expenditures (prior year)|")


def test_the_base_of_a_comparison_is_never_the_asked_year(directory):
    first = _plan(directory, "apple net income 2024")
    p = _plan(directory, "and how much higher than in 2023?", previous=first)
    assert (p.metrics, p.fiscal_years) == (["net_income_change"], [2024])


@pytest.mark.parametrize("text, metrics", [
    ("What did Apple's Wearables segment bring in for fiscal 2024?", ["dim:revenue|wearables segment"]),
    ("how much did apple sell in fy2024", ["revenue"]),
    # a figure named beside the verb is the one asked, never its sales too
    ("How much operating income did Apple's Wearables segment bring in for fiscal 2024?",
     ["line:wearables segment|operating income wearables segment|operating income wearables segment|how much did bring fiscal"]),
])
def test_sales_asked_with_a_verb_are_revenue_of_what_the_question_names(directory, text, metrics):
    assert _plan(directory, text).metrics == metrics


def test_members_joined_by_and_before_a_metric_are_all_asked_even_a_product_that_names_the_company(directory):
    p = _plan(directory, "compare iphone and mac revenue fy2024")
    assert p.tickers == ["AAPL"] and p.metrics == ["dim:revenue|iphone and mac"], p


def test_a_sibling_after_a_member_found_by_its_words_is_that_metric_of_the_sibling(directory):
    first = _plan(directory, "apple digital media revenue fy2024")  # words no table maps: a line, or a member
    assert first.metrics[0].startswith("line:")
    p = _plan(directory, "and digital experience?", previous=first)
    assert p.metrics == ["line:digital experience|digital experience revenue|digital experience revenue"], p


def test_a_members_figure_over_another_metric_is_that_ratio_never_its_share_of_the_total(directory):
    p = _plan(directory, "what was Apple's iPhone operating income as a percentage of its revenue in 2024?")
    tree = p.definitions[-1]["tree"]
    assert tree["args"][0] == {"metric": "operating_income", "member": "iphone"}
    assert tree["args"][1] == {"metric": "revenue", "member": "iphone"}  # its own revenue
    p = _plan(directory, "apple iphone operating income as a percentage of total revenue 2024")
    assert p.definitions[-1]["tree"]["args"][1] == {"metric": "revenue"}  # the company's
    p = _plan(directory, "apple iphone operating income as a share of total operating income 2024")
    assert p.definitions[-1]["tree"]["args"][1] == {"metric": "operating_income"}


def test_a_registry_ratio_within_a_member_found_by_its_words_is_the_members_ratio(directory):
    p = _plan(directory, "apple digital media operating margin 2024")
    assert p.definitions and p.definitions[-1]["tree"]["args"] == [
        {"metric": "operating_income", "member": "digital media"}, {"metric": "revenue", "member": "digital media"}], p


def test_a_definition_may_name_a_members_figure(directory):
    p = _plan(directory, "define services margin as services gross profit over services revenue. apple 2024?")
    assert p.definitions[-1]["tree"] == {"op": "/", "args": [{"metric": "gross_profit", "member": "services"},
                                                             {"metric": "revenue", "member": "services"}]}
    bad = _plan(directory, "define fancy margin as operating income plus widgets over revenue for Apple 2024")
    assert bad.refusal_reason == "unknown_metric" and "widgets" in bad.refusal_detail  # words alone: no member


def test_a_product_that_names_the_company_is_also_the_member_asked(directory):
    p = _plan(directory, "what share of revenue came from iPhone in 2024?")
    assert p.tickers == ["AAPL"] and p.metrics == ["udf:iphone share of revenue"], p


@pytest.mark.parametrize("text", ["apple effect of exchange rate changes on cash 2024",
                                  "What was Apple's effect of exchange rate changes on cash in 2024?"])
def test_a_row_named_for_an_effect_is_looked_up_when_no_question_word_asks_why(directory, text):
    p = _plan(directory, text)
    assert any(k.startswith("line:") for k in [*p.metrics, *p.probe]), p
