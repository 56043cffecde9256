"""How a named ratio is computed, said beside it: a 360-day year is a form of the days ratio of its own; a
balance convention or a share count said apart is read as the ratio's convention, never as a line item; a
payout defined over per-share figures is computed as defined; and a refused "A per B" names B."""

from __future__ import annotations

from decimal import Decimal

import pytest

from agent.planning.conventions import day_count, missing_divisor, without_day_count
from agent.retrieval.finance import DAY_FORMS, FORMULAS
from tests.test_figures import ask, directory, footnote, plan  # noqa: F401 (fixtures)


def test_each_days_ratio_has_a_360_day_form_whose_expression_says_so():
    assert DAY_FORMS["dso"] == "dso_360" and DAY_FORMS["dio_avg"] == "dio_avg_360"
    f = FORMULAS["dso_360"]
    assert "× 360" in f.expression and "360-day year" in f.expression and "365" not in f.expression
    assert f.compute([Decimal(33410), Decimal(391035)]) == Decimal("30.7583720127")  # AR ÷ revenue × 360
    assert FORMULAS["dso"].compute([Decimal(33410), Decimal(391035)]) == Decimal("31.1855716240")


@pytest.mark.parametrize("text, days, left", [
    ("Apple DSO FY2024 using a 360-day year", 360, "Apple DSO FY2024"),
    ("apple dso fy24, 365 days", 365, "apple dso fy24"),
    ("tsla dpo 2024 (365d, year-end AP)", 365, "tsla dpo 2024 (year-end AP)"),
    ("days sales outstanding on a 360 day basis", 360, "days sales outstanding"),
    ("apple revenue fy24", None, "apple revenue fy24"),
])
def test_a_day_count_is_read_and_taken_out(text, days, left):
    assert day_count(text) == days
    assert " ".join(without_day_count(text).split()) == left


@pytest.mark.parametrize("text, metrics", [
    ("Apple DSO FY2024 using a 360-day year", ["dso_360"]),
    ("apple dso fy24, 365 days", ["dso"]),
    ("apple dso fy24 (year-end AR)", ["dso"]),
    ("Walmart DIO FY2025 on average inventory, 360 days", ["dio_avg_360"]),
    ("apple's payables turnover on average AP fy24", ["payables_turnover_avg"]),
    ("What is Tesla's return on average equity for 2024?", ["roe"]),  # the ratio's own name, never cut
    ("nvda fcf per share fy2025 (diluted)", ["fcf_per_share"]),
    ("OCF per share, diluted, Apple FY2024", ["ocf_per_share"]),
])
def test_a_convention_said_beside_a_ratio_is_its_convention(directory, text, metrics):  # noqa: F811
    p = plan(directory, text)
    assert p.route == "domain" and p.metrics == metrics, p


@pytest.mark.parametrize("text", [
    "Walmart FY2025 dividend payout ratio (dividends per share / diluted EPS)",
    "Walmart FY2025 dividend payout ratio using per-share figures: dividends per share / diluted EPS",
])
def test_a_payout_defined_over_per_share_figures_is_computed_as_defined(directory, text):  # noqa: F811
    p = plan(directory, text)
    assert p.metrics == ["udf:dividend payout ratio"], p
    assert p.definitions[-1]["formula"] == "Dividends declared per share ÷ Diluted EPS", p.definitions


def test_a_refused_figure_per_unit_names_the_unit_as_the_operand_missing():
    assert missing_divisor("revenue per employee") == "employee (in your formula: revenue per employee)"
    assert missing_divisor("net sales per square foot") == "square foot (in your formula: net sales per square foot)"
    assert missing_divisor("revenue per share") == "revenue per share"  # a per-share figure: no unit missing
    assert missing_divisor("widget sales per employee") == "widget sales per employee"  # the numerator is unknown too


def test_the_answer_names_the_balance_convention_its_ratio_used(footnote):  # noqa: F811
    answer = ask(footnote, "Apple ROA FY2024")
    assert answer.kind == "answer", answer.text
    assert "on the average of opening and closing balances" in answer.text, answer.text
    assert "return on assets (on the average of opening and closing balances) for fiscal 2024 was" in answer.text
    assert answer.calculation and "average total assets" in answer.calculation[0].formula


@pytest.mark.parametrize("text, formula", [
    # other operands than the registry computes with: the user's figure, never the registry's beside it
    ("debt-to-equity (total liabilities / shareholders' equity) for Apple FY2024", "Total liabilities ÷ Total stockholders' equity"),
    ("Apple debt to equity (long-term debt / shareholders' equity) FY2024", "Long-term debt ÷ Total stockholders' equity"),
])
def test_a_named_ratio_defined_in_other_operands_is_computed_as_defined(directory, text, formula):  # noqa: F811
    p = plan(directory, text)
    assert p.metrics == ["udf:debt to equity"] and p.definitions[-1]["formula"] == formula, p


def test_a_named_ratio_restated_in_its_own_operands_is_the_registrys(directory):  # noqa: F811
    assert plan(directory, "Apple asset turnover (revenue / total assets) fy2024").metrics == ["asset_turnover"]


def test_a_ratio_over_year_end_balances_has_a_form_over_average_balances():
    f = FORMULAS["cash_conversion_cycle_avg"]
    assert [(i.metric, i.offset) for i in f.inputs][:2] == [("inventory", 0), ("inventory", -1)]
    assert "average of the year's opening and closing" in f.expression and "year-end" not in f.expression
    # Texas Instruments FY2023: inventories 3,999 / 2,757, receivables 1,787 / 1,895, payables 802 / 851
    values = [Decimal(v) for v in (3999, 2757, 1787, 1895, 802, 851, 6500, 17519)]
    expected = ((Decimal(3999 + 2757) / 2 / 6500) + (Decimal(1787 + 1895) / 2 / 17519) - (Decimal(802 + 851) / 2 / 6500)) * 365
    assert abs(f.compute(values) - expected) < Decimal("1E-9")


@pytest.mark.parametrize("text, metrics", [
    ("Apple quick ratio fy2024 on average balances", ["quick_ratio_avg"]),
    ("apple current ratio fy2024", ["current_ratio"]),
])
def test_average_balances_asked_are_applied(directory, text, metrics):  # noqa: F811
    assert plan(directory, text).metrics == metrics


def test_average_balances_no_form_computes_are_refused_never_silently_year_end(directory):  # noqa: F811
    p = plan(directory, "apple debt to equity fy24 using average equity")
    assert p.refusal_reason == "unknown_metric" and "average" in p.refusal_detail, p


@pytest.mark.parametrize("text, asked", [
    ("what was apple's net income per share in 2024", "eps_diluted"),  # the EPS the company reports
    ("apple net earnings per share fy2024", "eps_diluted"),
    ("apple free cash flow per share fy24", "fcf_per_share"),  # the registry's own
])
def test_net_income_per_share_is_the_reported_eps(directory, text, asked):  # noqa: F811
    assert plan(directory, text).metrics == [asked]


@pytest.mark.parametrize("text, metrics", [
    # FinanceBench-style wrappers around the ask: instructions, never a figure's words
    ("Taking into account the information outlined in the income statement, what is Apple's FY2024 operating margin?",
     ["operating_margin"]),
    ("Answer the following question as if you are an equity research analyst and have lost internet connection so you do "
     "not have access to financial metric providers. What is Apple's FY2024 gross margin?", ["gross_margin"]),
    ("What is the FY2024 unadjusted EBITDA margin for Apple? Calculate unadjusted EBITDA using unadjusted operating income "
     "and D&A (from cash flow statement).", ["ebitda_margin"]),
    ("What is Apple's FY2024 unadjusted operating income?", ["operating_income"]),
    ("What is Tesla's FY2024 unadjusted EBIT (using unadjusted operating income)?", ["ebit"]),
])
def test_wrappers_and_restated_inputs_around_a_ratio_leave_the_ratio(directory, text, metrics):  # noqa: F811
    p = plan(directory, text)
    assert p.route == "domain" and p.metrics == metrics, p


def test_the_change_of_a_ratio_between_two_years_is_their_difference(directory):  # noqa: F811
    p = plan(directory, "what is the FY2023 - FY2024 change in the current ratio for Apple?")
    assert p.fiscal_years == [2024] and p.metrics == ["udf:current ratio change from the prior year"], p
    assert p.definitions[-1]["unit"] == "ratio" and p.definitions[-1]["tree"]["op"] == "-"


def test_named_ratios_over_tangible_equity_and_operating_leverage():
    f = FORMULAS["return_on_tangible_equity"]
    # net income 100 over equity 1,000 less goodwill 300 and intangibles 200
    assert f.compute([Decimal(100), Decimal(1000), Decimal(300), Decimal(200)]) == Decimal("20.0000000000")
    tbv = FORMULAS["tangible_book_value_per_share"]
    assert tbv.compute([Decimal(1000), Decimal(300), Decimal(200), Decimal(50)]) == Decimal("10.0000000000")
    dol = FORMULAS["operating_leverage"]  # Apple FY2024: operating income 123,216 / 114,301, revenue 391,035 / 383,285
    assert dol.compute([Decimal(123216), Decimal(114301), Decimal(391035), Decimal(383285)]).quantize(Decimal("0.01")) \
        == Decimal("3.86")


@pytest.mark.parametrize("text", [
    "What was Walmart's dividend paid per share in fiscal 2025?",  # the dividends per share it declares, never paid ÷ shares
    "what were apple's total dividends per share paid in fy24",
    "Apple basic net income per share fy2024",  # a longer name: basic, never the diluted count
    "apple adjusted net income per share fy2024",
])
def test_a_per_share_name_that_is_another_figure_is_never_read_over_diluted_shares(directory, text):  # noqa: F811
    p = plan(directory, text)
    assert not any("per diluted share" in m for m in p.metrics), p
