"""The Decimal formula registry and the one display function."""

from __future__ import annotations

import ast
import inspect
from decimal import Decimal as D

import pytest

import agent.retrieval.finance as finance
from agent.retrieval.concepts import METRICS
from agent.retrieval.finance import (
    FORMULAS,
    FormulaError,
    Operand,
    calculate,
    display_value,
    growth_key,
    match_formulas,
    match_measures,
)

M = D(10) ** 6


def test_every_formula_input_is_a_metric_and_fallbacks_exist():
    for key, f in FORMULAS.items():
        assert f.key == key
        for inp in f.inputs:
            assert inp.metric in METRICS, (key, inp.metric)
        if f.fallback:
            assert f.fallback in FORMULAS
        assert f.unit in ("percent", "ratio", "USD", "days", "USD/shares", "shares")  # a change keeps its unit
    for m in METRICS.values():
        if m.fallback:
            assert m.fallback in FORMULAS
    assert not set(FORMULAS) & set(METRICS)  # one namespace for Plan.metrics


def test_no_float_in_the_module():
    tree = ast.parse(inspect.getsource(finance))
    names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    floats = [n for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, float)]
    assert "float" not in names and not floats


def test_gross_margin_apple_fy2024():
    r = calculate("gross_margin", [Operand(180683 * M, "USD", 2024, 1), Operand(391035 * M, "USD", 2024, 2)])
    assert r.display == "46.2%"
    assert isinstance(r.value, D) and r.value == D("46.2063498152")
    calc = r.calculation
    assert calc.metric == "Gross margin" and calc.result == "46.2%"
    # each input once, with its year and footnote; the formula and result are not repeated in the trace
    assert calc.steps == ["Gross profit (FY2024): $180.68 billion [1]", "Revenue (FY2024): $391.04 billion [2]"]


def test_gross_margin_fallback_from_cost_of_revenue():
    f = FORMULAS["gross_margin"]
    assert f.fallback == "gross_margin_from_cost"
    r = calculate("gross_margin_from_cost", [Operand(648125 * M, "USD", 2024), Operand(490142 * M, "USD", 2024)])
    assert r.display == "24.4%"


@pytest.mark.parametrize(
    "key, values, display",
    [
        ("operating_margin", [123216, 391035], "31.5%"),
        ("net_margin", [93736, 391035], "24.0%"),
        ("rd_pct_revenue", [31370, 391035], "8.0%"),
        ("sga_pct_revenue", [26097, 391035], "6.7%"),
        ("capex_pct_revenue", [9447, 391035], "2.4%"),
        ("free_cash_flow", [118254, 9447], "$108.81 billion"),
        ("current_ratio", [152987, 176392], "0.87"),
        ("debt_to_equity", [85750, 20879, 56950], "1.87"),  # total debt: long-term + current debt
        ("lt_debt_to_equity", [85750, 56950], "1.51"),
        ("revenue_growth", [391035, 383285], "2.0%"),
        ("net_income_growth", [93736, 96995], "-3.4%"),
        ("revenue_growth", [130497, 60922], "114.2%"),
    ],
)
def test_formulas(key, values, display):
    f = FORMULAS[key]
    ops = [Operand(D(v) * M, METRICS[i.metric].unit, 2024 + i.offset) for v, i in zip(values, f.inputs)]
    assert calculate(key, ops).display == display


def test_growth_uses_prior_year_input_and_abs_denominator():
    f = FORMULAS[growth_key("operating_income")]
    assert [(i.metric, i.offset) for i in f.inputs] == [("operating_income", 0), ("operating_income", -1)]
    r = calculate(f.key, [Operand(D(50), "USD", 2024), Operand(D(-100), "USD", 2023)])
    assert r.display == "150.0%"
    assert [s.split(":")[0] for s in r.calculation.steps] == ["Operating income (FY2024)", "Operating income (FY2023)"]


def test_formula_errors():
    with pytest.raises(FormulaError):
        calculate("net_margin", [Operand(D(1), "USD", 2024), Operand(D(0), "USD", 2024)])
    with pytest.raises(FormulaError):
        calculate("revenue_growth", [Operand(D(1), "USD", 2024), Operand(D(0), "USD", 2023)])
    with pytest.raises(FormulaError):
        FORMULAS["net_margin"].compute([D(1)])
    with pytest.raises(FormulaError):
        FORMULAS["net_margin"].compute([1.0, D(2)])


@pytest.mark.parametrize(
    "value, unit, shown",
    [
        (D("391035000000"), "USD", "$391.04 billion"),
        (D("-565000000"), "USD", "-$565.00 million"),
        (D("1234567"), "USD", "$1.23 million"),
        (D("999999"), "USD", "$999,999"),
        (D("1000000000"), "USD", "$1.00 billion"),
        (D("6.08"), "USD/shares", "$6.08"),
        (D("1.19"), "USD/shares", "$1.19"),
        (D("-0.5"), "USD/shares", "-$0.50"),
        (D("15115823000"), "shares", "15.12 billion shares"),
        (D("2464000000"), "shares", "2.46 billion shares"),
        (D("46.25"), "percent", "46.3%"),  # half-up, not banker's
        (D("46.35"), "percent", "46.4%"),
        (D("0.241"), "pure", "24.1%"),
        (D("0.865"), "ratio", "0.87"),
        (D("1234.5"), "percent", "1,234.5%"),
    ],
)
def test_display_value(value, unit, shown):
    assert display_value(value, unit) == shown


def test_display_value_refuses_floats():
    with pytest.raises(TypeError):
        display_value(0.5, "percent")


@pytest.mark.parametrize(
    "text, keys",
    [
        ("Apple gross margin FY24", ["gross_margin"]),
        ("gross profit margin", ["gross_margin"]),
        ("gross profit", ["gross_profit"]),
        ("operating margin", ["operating_margin"]),
        ("net profit margin", ["net_margin"]),
        ("FCF", ["free_cash_flow"]),
        ("free cash flow", ["free_cash_flow"]),
        ("current ratio", ["current_ratio"]),
        ("debt-to-equity", ["debt_to_equity"]),
        ("debt to equity ratio", ["debt_to_equity"]),
        ("long-term debt to equity", ["lt_debt_to_equity"]),  # never total debt: the user narrowed it
        ("total debt to equity", ["debt_to_equity"]),
        ("R&D as a % of revenue", ["rd_pct_revenue"]),
        ("R&D as a percentage of sales", ["rd_pct_revenue"]),
        ("research and development as a percentage of net sales", ["rd_pct_revenue"]),
        ("R&D intensity", ["rd_pct_revenue"]),
        ("SG&A as % of revenue", ["sga_pct_revenue"]),
        ("capex as a % of revenue", ["capex_pct_revenue"]),
        ("revenue growth", ["revenue_growth"]),
        ("YoY revenue", ["revenue_growth"]),
        ("net income growth", ["net_income_growth"]),
        ("sales growth yoy", ["revenue_growth"]),
        ("growth in operating income", ["operating_income_growth"]),
        ("effective tax rate", ["effective_tax_rate"]),  # a reported rate, a metric
        ("revenue and gross margin", ["revenue", "gross_margin"]),
    ],
)
def test_match_measures(text, keys):
    assert match_measures(text) == keys


def test_match_formulas_only_returns_formulas():
    assert match_formulas("revenue and gross margin") == ["gross_margin"]
    assert match_formulas("revenue") == []
