"""The ratios analysts name, as data; a ratio's change in percentage points; compound growth; the
widest of a line's tags; and formulas read around a company's name."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from agent.planning.formula_trees import compound_growth, evaluate, points_change, restate
from agent.planning.registry_trees import formula_tree
from agent.planning.spoken_formulas import spoken_operators
from agent.retrieval.concepts import PHRASES
from agent.retrieval.finance import FORMULAS, Operand, calculate, display_value, match_formulas
from agent.retrieval.metric_facts import metric_value
from agent.retrieval.ratio_catalogue import CATALOGUE, computed_variants
from tests.test_facts import company, fact
from tests.test_plan_changes import directory  # noqa: F401  (the module's directory fixture)
from agent.planning.companies import CompanyDirectory, line_names
from agent.planning.rules import plan_rules
from tests.test_companies import COVERED, SEC


def _ops(*values):
    return [Operand(Decimal(v), "USD", 2024, i + 1) for i, v in enumerate(values)]


def test_every_catalogued_ratio_is_a_formula_over_table_metrics_named_by_its_own_phrases():
    for key, _, synonyms, inputs, *_ in CATALOGUE:
        assert key in FORMULAS
        for s in synonyms:
            assert s not in PHRASES  # a ratio's name never shadows a reported metric
            assert match_formulas(f"apple {s} 2024") == [key], s


@pytest.mark.parametrize("key, values, shown", [
    # Coca-Cola FY2024 in $M: equity 24,856 over 4,301 million shares outstanding
    ("book_value_per_share", ("24856000000", "4301000395"), "$5.78"),
    ("liabilities_to_assets", ("60", "100"), "0.60"),
    ("equity_ratio", ("40", "100"), "40.0%"),
    ("pretax_margin", ("123", "1000"), "12.3%"),
    ("retention_ratio", ("15143", "6733"), "55.5%"),  # Home Depot-like: (NI − dividends) ÷ NI
    ("dividend_coverage", ("100", "40"), "2.50"),
    ("payables_turnover", ("365", "73"), "5.00"),
    ("capex_coverage", ("300", "120"), "2.50"),
    ("sbc_pct_revenue", ("5", "200"), "2.5%"),
])
def test_catalogued_ratios_compute_exactly(key, values, shown):
    result = calculate(key, _ops(*values))
    assert isinstance(result.value, Decimal) and result.display == shown
    assert FORMULAS[key].expression in result.calculation.formula


def test_a_rate_said_to_be_computed_is_the_computed_formula_never_the_tagged_rate():
    assert "implied etr" in computed_variants(["etr"])
    assert computed_variants(["implied etr"]) == []
    assert match_formulas("alphabet implied etr 2024") == ["effective_tax_rate_computed"]
    assert match_formulas("alphabet effective tax rate 2024") == []  # the tagged rate stays a metric


def test_a_margins_change_is_in_percentage_points_over_the_years_asked():
    tree = formula_tree("gross_margin")
    assert tree["op"] == "first"  # gross profit ÷ revenue, else (revenue − cost) ÷ revenue
    change = points_change(tree["args"][0], 1)
    values = {"gross_profit": Decimal(45), "revenue": Decimal(100), "gross_profit~-1": Decimal(40),
              "revenue~-1": Decimal(100)}
    assert evaluate(change, values, "points") == Decimal(5)
    assert display_value(Decimal("-0.6410910"), "points") == "-0.6 percentage points"
    assert formula_tree("asset_turnover") is None  # an average balance: no plain quotient


def test_compound_growth_is_the_annual_rate_that_compounds_to_the_whole_change():
    tree = compound_growth("revenue", 2)
    values = {"revenue": Decimal(121), "revenue~-2": Decimal(100)}
    assert evaluate(tree, values, "percent") == Decimal(10)
    assert restate(tree, top=True) == "(Revenue ÷ Revenue (-2 years))^(1/2) − 1"


@pytest.mark.parametrize("text, name, formula", [
    ("How much did Apple's gross margin change from 2023 to 2024, in percentage points?",
     "gross margin change from the prior year (percentage points)", "(Gross profit ÷ Revenue) − (Gross profit (prior year)"),
    ("apple gross margin expansion fy2024", "gross margin change from the prior year (percentage points)", "(Gross profit"),
    ("nvidia revenue CAGR 2023 to 2025", "revenue cagr, fiscal 2023 to 2025", "(Revenue ÷ Revenue (-2 years))^(1/2) − 1"),
    ("nvidia 2-year revenue CAGR through fiscal 2025", "revenue cagr, fiscal 2023 to 2025", "^(1/2)"),
])
def test_changes_of_ratios_and_compound_rates_are_planned_as_formulas(directory, text, name, formula):
    p = plan_rules(text, previous=None, directory=directory)
    assert p.metrics == [f"udf:{name}"] and p.fiscal_years == [max(p.fiscal_years)]
    assert p.definitions[-1]["formula"].startswith(formula) or formula in p.definitions[-1]["formula"]


def test_a_margin_asked_without_a_change_word_is_still_the_margin(directory):
    assert plan_rules("apple gross margin fy2024", previous=None, directory=directory).metrics == ["gross_margin"]


def test_a_share_asked_as_what_percent_of_the_whole_was_the_part(directory):
    assert "cost of goods sold as a % of revenue" in spoken_operators(
        "what % of revenue was cost of goods sold at Apple in fiscal 2024")
    p = plan_rules("what % of revenue was cost of goods sold at Apple in fiscal 2024", previous=None,
                   directory=directory)
    assert p.metrics == ["cost_of_revenue_pct"] and p.tickers == ["AAPL"]
    # a share said of a part that is no metric is left to the member reading, as written
    assert spoken_operators("what percent of revenue came from services") == "what percent of revenue came from services"


def test_a_formula_never_takes_a_companys_name_as_an_operands_word():
    """Walmart prints "Total Walmart shareholders' equity": "shareholders equity for Walmart" reads
    as that row, leaving nothing to name the company, unless a company's name ends the operand."""
    directory = CompanyDirectory.from_rows(COVERED, SEC, {104169: [2024, 2025]})
    directory.line_names = line_names([("Total Walmart shareholders' equity", "us-gaap:StockholdersEquity")])
    p = plan_rules("net income over shareholders equity for Walmart fy2025", previous=None, directory=directory)
    assert p.route == "domain" and p.tickers == ["WMT"]
    assert p.definitions[-1]["formula"] == "Net income ÷ Total stockholders' equity"


def test_depreciation_is_the_widest_of_the_lines_tags(db):
    """McDonald's FY2023: restaurants' D&A on the income statement ($381.7M, one tag) and the
    company's total on the cash-flow statement ($1,978.2M, another): EBITDA adds back the total."""
    mcd = 63908
    with db.connection() as conn:
        company(conn, mcd, "McDonald's Corp", ["MCD"])
        for concept, value in (("DepreciationDepletionAndAmortization", "381700000"),
                               ("DepreciationAndAmortization", "1978200000")):
            fact(conn, mcd, "0000063908-24-000016", concept, value, date(2023, 12, 31), date(2023, 1, 1),
                 fiscal_year=2023, fy=2023, filed=date(2024, 2, 22))
        row = metric_value(conn, mcd, "depreciation_amortization", 2023)
        assert row.concept == "DepreciationAndAmortization" and row.value == Decimal("1978200000")
        assert metric_value(conn, mcd, "depreciation_amortization", 2022) is None


@pytest.mark.parametrize("text, key", [
    ("apple roe ratio fy2024", "roe"),
    ("adobe dso days fy2024", "dso"),
    ("meta net profit margin ratio 2024", "net_margin"),
    ("walmart inv turnover fy2025", "inventory_turnover"),
    ("adobe average collection period fy2024", "dso"),
    ("apple total payout ratio fy2024", "total_payout"),  # dividends and buybacks, never dividends alone
    ("apple payout ratio fy2024", "dividend_payout"),
    ("apple fcf per share fy2024", "fcf_per_share"),
])
def test_other_names_and_unit_words_name_the_same_ratio(text, key):
    assert match_formulas(text) == [key]


def test_a_ticker_inside_a_ratios_name_is_no_company_beside_a_covered_one():
    """Entergy trades as ETR: "implied ETR" beside Apple is a rate of Apple's; alone, ETR is Entergy."""
    directory = CompanyDirectory.from_rows(COVERED, [*SEC, ("ETR", 65984, "ENTERGY CORP /DE/")], {320193: [2024]})
    p = plan_rules("implied ETR for Apple fy2024", previous=None, directory=directory)
    assert (p.route, p.metrics, p.tickers) == ("domain", ["effective_tax_rate_computed"], ["AAPL"])
    p = plan_rules("ETR revenue 2024", previous=None, directory=directory)
    assert (p.route, p.refusal_reason) == ("refusal", "not_covered")


def test_times_written_as_x_and_a_formula_after_ie(directory):
    p = plan_rules("Apple fy2024 accounts payable / cost of revenue x 365", previous=None, directory=directory)
    assert p.definitions[-1]["formula"] == "(Accounts payable ÷ Cost of revenue) × 365"
    p = plan_rules("Compute Apple's fiscal 2024 operating income after tax, i.e. operating income times "
                   "(1 - effective tax rate)", previous=None, directory=directory)
    assert p.definitions[-1]["formula"] == "Operating income × (1 − Effective tax rate)"


def test_rd_is_the_widest_of_its_tags(db):
    """Johnson & Johnson FY2024: its R&D line ($17,232M) is tagged as the expense excluding acquired
    in-process R&D; ResearchAndDevelopmentExpense holds a $1,841M part."""
    jnj = 200406
    with db.connection() as conn:
        company(conn, jnj, "Johnson & Johnson", ["JNJ"])
        for concept, value in (("ResearchAndDevelopmentExpense", "1841000000"),
                               ("ResearchAndDevelopmentExpenseExcludingAcquiredInProcessCost", "17232000000")):
            fact(conn, jnj, "0000200406-25-000038", concept, value, date(2024, 12, 29), date(2024, 1, 1),
                 fiscal_year=2024, fy=2024, filed=date(2025, 2, 13))
        assert metric_value(conn, jnj, "rd", 2024).value == Decimal("17232000000")


def test_per_share_outstanding_divides_by_the_count_outstanding(directory):
    p = plan_rules("dividends paid per share outstanding, Apple fiscal 2024", previous=None, directory=directory)
    assert p.definitions[-1]["formula"] == "Dividends paid ÷ Shares outstanding"
    assert plan_rules("Apple dividends per share 2024", previous=None, directory=directory).metrics == \
        ["dividends_per_share"]  # a reported per-share figure stays the figure


def test_a_negated_metric_is_never_a_member_of_that_metric():
    from agent.planning.formula_parse import parse_expression
    from agent.planning.formula_syntax import DefinitionError
    from agent.planning.operand_rows import INLINE
    with pytest.raises(DefinitionError):  # "non-current term debt" is no member "non" of current debt
        parse_expression("non-current term debt over equity", {}, members=INLINE)


@pytest.mark.parametrize("text, formula", [
    ("Apple fy2024 cash-to-assets", "Cash and cash equivalents ÷ Total assets"),
    ("Apple fy2024 cash:assets ratio", "Cash and cash equivalents ÷ Total assets"),
    ("Apple fy2024 operating income to interest expense", "Operating income ÷ Interest expense"),
    ("Apple fy2024 operating cash flow as a multiple of net income", "Operating cash flow ÷ Net income"),
    ("Apple fy2024 cash relative to total assets", "Cash and cash equivalents ÷ Total assets"),
    ("What is Apple's R&D expressed as a percentage of operating expenses in fiscal 2024?",
     "Research and development expense ÷ Operating expenses"),
    ("Apple fy2024, where leverage = total liabilities / equity", "Total liabilities ÷ Total stockholders' equity"),
    ("apple fy24: debt / EBITDA, with EBITDA = operating income + D&A",
     "Total debt ÷ (Operating income + Depreciation and amortization)"),
])
def test_ratios_said_in_other_words_are_the_quotient_they_say(directory, text, formula):
    p = plan_rules(text, previous=None, directory=directory)
    assert p.route == "domain" and p.definitions[-1]["formula"] == formula


@pytest.mark.parametrize("text, metrics", [
    ("apple long-term debt to equity fy2024", ["lt_debt_to_equity"]),  # a registry ratio stays the registry's
    ("apple sg&a to revenue fy2024", ["sga_pct_revenue"]),
    ("apple revenue from 2023 to 2024", ["revenue"]),
])
def test_to_between_words_that_are_not_both_metrics_is_no_division(directory, text, metrics):
    assert plan_rules(text, previous=None, directory=directory).metrics == metrics


def test_a_colon_that_sets_off_a_definition_is_no_ratio(directory):
    p = plan_rules("Apple net debt at FY2024 year end: total term debt plus commercial paper minus cash and cash "
                   "equivalents", previous=None, directory=directory)
    assert "to" not in p.definitions[-1]["name"].split() and p.definitions[-1]["name"] == "net debt"


def test_leverage_over_ebitda_counts_debt_as_everywhere_and_states_ebitda(directory):
    # PepsiCo FY2023 in $M: long-term debt including current maturities 41,519, cash 9,711, operating income 11,986,
    # D&A 2,948
    result = calculate("net_debt_to_ebitda_ltd_total", _ops("41519", "9711", "11986", "2948"))
    assert result.display == "2.13" and "unadjusted" in result.calculation.formula
    assert [i.metric for i in FORMULAS["debt_to_ebitda"].inputs][:2] == ["long_term_debt", "ltd_maturities_current"]
    assert match_formulas("pepsico net debt/ebitda 2023") == ["net_debt_to_ebitda"]
    p = plan_rules("apple ebitda fy2024", previous=None, directory=directory)
    assert (p.route, p.metrics) == ("domain", ["ebitda"])  # EBITDA alone: the same convention, stated
