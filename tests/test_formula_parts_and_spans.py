"""Formulas in more of analysts' shapes: a part of a named ratio defined beside it ("net debt to EBITDA, using
long-term debt less cash"), a figure averaged over a range of years with no count said, any year's amount per share,
two figures "combined", "how much A did X generate per dollar of B", and FinanceBench's "(in units of percents)".

Each was refused, or answered as another figure (an amount under a ratio's name, one EPS over the other)."""

from __future__ import annotations

import pytest

from agent.planning.formula_trees import metrics_of
from tests.test_figures import directory, plan  # noqa: F401  (the module's directory fixture)


def _definition(p):
    assert p.refusal_reason is None and len(p.metrics) == 1 and p.metrics[0].startswith("udf:"), p
    return next(d for d in p.definitions if f"udf:{d['name']}" == p.metrics[0])


@pytest.mark.parametrize("question", ["Walmart net debt to EBITDA for fiscal 2025, using long-term debt less cash.",
                                      "Walmart net debt to equity fy2025 (long-term debt minus cash)"])
def test_an_amount_said_beside_a_ratio_defines_its_part_never_the_ratio(directory, question):  # noqa: F811
    d = _definition(plan(directory, question))
    assert d["tree"]["op"] == "/" and d["unit"] != "USD", d
    assert d["tree"]["args"][0] == {"op": "-", "args": [{"metric": "long_term_debt"}, {"metric": "cash"}]}, d


def test_an_amount_said_beside_an_amount_is_still_its_definition(directory):  # noqa: F811
    d = _definition(plan(directory, "Walmart net debt fy2025, using long-term debt less cash"))
    assert d["tree"] == {"op": "-", "args": [{"metric": "long_term_debt"}, {"metric": "cash"}]} and d["unit"] == "USD"


@pytest.mark.parametrize("question, years, ops", [
    ("what's Walmart's average net margin in FY2024 and FY2025?", 2, {"net_income", "revenue"}),
    ("What is the mean of Apple's gross margin over fiscal 2023 and 2024?", 2, {"gross_profit", "revenue"}),
    ("average walmart revenue 2024 to 2025", 2, {"revenue"}),
    ("what's the average of walmart's inventory at 2024 and 2025 year ends?", 2, {"inventory"}),
])
def test_a_figure_averaged_over_a_range_is_the_mean_of_its_years(directory, question, years, ops):  # noqa: F811
    p = plan(directory, question)
    d = _definition(p)
    assert d["name"].startswith(f"{years}-year average") and d["tree"]["op"] == "/", d
    assert d["tree"]["args"][1] == {"const": str(years)}
    assert {m.split("~")[0] for m in metrics_of(d["tree"])} >= ops and len(p.fiscal_years) == 1, d


def test_an_average_inside_a_formula_or_of_one_year_is_left_to_the_formula(directory):  # noqa: F811
    d = _definition(plan(directory, "Walmart ROA fy2025, net income over average total assets between fy2024 and fy2025"))
    assert "year average" not in d["name"]
    d = _definition(plan(directory, "Compute Apple's FY2024 average inventory (average of year-end inventories FY2023 and FY2024)"))
    assert metrics_of(d["tree"]) == ["inventory", "inventory~-1"]


def test_a_balance_is_never_averaged_over_more_than_its_two_year_ends(directory):  # noqa: F811
    p = plan(directory, "apple average inventory between fy2021 and fy2024")
    assert not any(d["name"].startswith("4-year average") for d in p.definitions), p


@pytest.mark.parametrize("question, metric", [("NVDA gross profit per share fy2025", "gross_profit"),
                                              ("walmart operating income per share fy2025", "operating_income")])
def test_a_years_amount_per_share_is_over_the_diluted_shares(directory, question, metric):  # noqa: F811
    d = _definition(plan(directory, question))
    assert d["tree"]["op"] == "/" and d["tree"]["args"][1] == {"metric": "diluted_shares"}, d
    assert metric in metrics_of(d["tree"]) and "Weighted-average diluted shares" in d["formula"]


@pytest.mark.parametrize("question, metrics", [
    ("walmart dividends per share fy2025", ["dividends_per_share"]),  # reported, never paid ÷ shares
    ("walmart net income per share fy2025", ["eps_diluted"]),
    ("What is Apple's net income per share, basic, 2024?", ["eps_basic"]),  # was one EPS over the other
    ("apple net income per share (diluted) fy2024", ["eps_diluted"]),
])
def test_per_share_figures_the_company_reports_stay_its_own(directory, question, metrics):  # noqa: F811
    assert plan(directory, question).metrics == metrics


def test_a_balance_per_share_is_not_divided_by_a_years_shares(directory):  # noqa: F811
    p = plan(directory, "walmart cash per share fy2025")
    assert not any("diluted_shares" in metrics_of(d["tree"]) for d in p.definitions), p


@pytest.mark.parametrize("question", ["Apple's R&D and SG&A combined as a share of revenue, 2024",
                                      "tesla R&D and SG&A together as % of revenue 2024"])
def test_two_figures_combined_are_their_sum(directory, question):  # noqa: F811
    d = _definition(plan(directory, question))
    assert d["tree"]["op"] == "/" and d["tree"]["args"][0]["op"] == "+", d
    assert {"rd", "sga", "revenue"} <= set(metrics_of(d["tree"]))


@pytest.mark.parametrize("question, top, bottom", [
    ("How much revenue did Tesla generate per dollar of total assets in 2024?", "revenue", "total_assets"),
    ("how much operating cash flow does walmart generate for every dollar of net income, fy2025", "operating_cash_flow",
     "net_income"),
])
def test_how_much_a_per_dollar_of_b_is_a_over_b(directory, question, top, bottom):  # noqa: F811
    p = plan(directory, question)
    d = _definition(p)
    assert d["tree"] == {"op": "/", "args": [{"metric": top}, {"metric": bottom}]} and len(p.tickers) == 1, d


def test_units_of_percents_in_brackets_is_how_to_answer(directory):  # noqa: F811
    p = plan(directory, "What is the year-over-year change in Walmart's revenue from FY2024 to FY2025 "
                        "(in units of percents and round to one decimal place)?")
    assert p.metrics == ["revenue_growth"] and p.fiscal_years == [2025], p


@pytest.mark.parametrize("first, reply, metrics", [
    ("walmart inventory turnover fy2025", "using year-end inventory instead?", ["inventory_turnover_end"]),
    ("walmart ROE fy2025", "what about on year-end balances?", ["roe_end"]),
    ("walmart ROE fy2025 on year-end equity", "and on average equity?", ["roe"]),
    ("nvda DSO fy2025", "use average receivables", ["dso_avg"]),
])
def test_a_reply_saying_only_a_balance_convention_recomputes_the_threads_ratio(directory, first, reply, metrics):  # noqa: F811
    before = plan(directory, first)
    p = plan(directory, reply, previous=before)
    assert p.metrics == metrics and p.tickers == before.tickers and p.fiscal_years == before.fiscal_years, p


def test_a_reply_naming_a_balance_with_other_words_is_not_a_convention(directory):  # noqa: F811
    before = plan(directory, "walmart inventory turnover fy2025")
    assert plan(directory, "and year-end inventory for apple?", previous=before).metrics != ["inventory_turnover_end"]


@pytest.mark.parametrize("said, formula", [
    ("operating margin excluding depreciation and amortization",
     "(Operating income + Depreciation and amortization (the excluded expense added back)) ÷ Revenue"),
    ("operating income excluding d&a", "Operating income + Depreciation and amortization (the excluded expense added back)"),
])
def test_an_expense_excluded_from_a_profit_or_margin_is_added_back_never_taken_from_a_percentage(said, formula):
    from agent.planning.formula_parse import parse_expression
    from agent.planning.formula_trees import restate
    assert restate(parse_expression(said), top=True) == formula


def test_a_percentage_less_an_amount_is_no_figure():
    from agent.planning.formula_parse import parse_expression
    from agent.planning.formula_syntax import DefinitionError
    with pytest.raises(DefinitionError):
        parse_expression("gross margin minus d&a")


def test_a_change_in_an_amount_is_the_year_less_the_prior_year_and_the_users_name_stays_whole(directory):  # noqa: F811
    p = plan(directory, "compute NVDA's incremental operating margin fy2025 (change in operating income / change in revenue)")
    d = _definition(p)
    assert d["name"] == "incremental operating margin", d
    assert d["formula"] == "(Operating income − Operating income (prior year)) ÷ (Revenue − Revenue (prior year))", d


@pytest.mark.parametrize("first, reply, numerator, denominator", [
    ("walmart capex fy2025", "what % of operating cash flow is that?", "capex", "operating_cash_flow"),
    ("walmart dividends paid fy2025", "and as a share of free cash flow?", "dividends_paid", "free_cash_flow"),
])
def test_a_reply_asking_the_threads_amount_as_a_share_of_another_is_that_quotient(directory, first, reply, numerator,  # noqa: F811
                                                                                 denominator):
    before = plan(directory, first)
    p = plan(directory, reply, previous=before)
    assert p.tickers == before.tickers and p.fiscal_years == before.fiscal_years, p
    from agent.retrieval.finance import FORMULAS, formula_inputs
    read = set(p.metrics) | {m for d in p.definitions for m in metrics_of(d["tree"])} \
        | {i for k in p.metrics if k in FORMULAS for i in formula_inputs(k)}
    assert numerator in read and (denominator in read or {"operating_cash_flow", "capex"} <= read), p
    assert p.metrics != [denominator] and p.metrics != [f"{denominator}"], p


def test_another_amount_to_the_threads_registry_amount_is_their_quotient(directory):  # noqa: F811
    before = plan(directory, "walmart EBITDA fy2025")
    p = plan(directory, "and net debt to that?", previous=before)
    d = _definition(p)
    assert d["tree"]["op"] == "/" and "operating_income" in metrics_of(d["tree"]) and "cash" in metrics_of(d["tree"]), d
