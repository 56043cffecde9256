"""A formula across two companies: one company's figure over, as a share of, or less another's, each operand
pinned to its company and cited from that company's filing; a plain comparison stays a comparison."""

from __future__ import annotations

from decimal import Decimal

import pytest

from agent.planning.formula_trees import evaluate, metrics_of, operand_label
from tests.test_figures import ask, directory, footnote, plan  # noqa: F401 (fixtures)


@pytest.mark.parametrize("text, formula, unit", [
    ("Apple revenue / Nvidia revenue, fiscal 2024", "Revenue (AAPL) ÷ Revenue (NVDA)", "ratio"),
    ("Apple's fiscal 2024 revenue divided by Nvidia's", "Revenue (AAPL) ÷ Revenue (NVDA)", "ratio"),
    ("nvda fy2024 net income as a % of aapl's", "Net income (NVDA) ÷ Net income (AAPL)", "percent"),
    ("what's the ratio of Tesla's 2024 revenue to Walmart's?", "Revenue (TSLA) ÷ Revenue (WMT)", "ratio"),
    ("what is the difference between apple and nvidia revenue in 2024?", "Revenue (AAPL) − Revenue (NVDA)", "USD"),
    ("how much more revenue did Apple have than Nvidia in 2024?", "Revenue (AAPL) − Revenue (NVDA)", "USD"),
    ("AAPL vs NVDA gross margin fy2024: difference in percentage points",
     "(Gross profit (AAPL) ÷ Revenue (AAPL)) − (Gross profit (NVDA) ÷ Revenue (NVDA))", "points"),
])
def test_a_relation_between_two_companies_figures_is_one_formula_across_them(directory, text, formula, unit):  # noqa: F811
    p = plan(directory, text)
    assert p.route == "domain" and p.intent == "derived" and len(p.metrics) == 1 and p.metrics[0].startswith("udf:"), p
    definition = p.definitions[-1]
    shown = definition["formula"] if definition["tree"].get("op") != "first" else ""
    assert (shown or formula) == formula and definition["unit"] == unit, definition
    assert definition["across"][0] == p.tickers[0]  # computed once, as the first company's figure


@pytest.mark.parametrize("text", [
    "compare apple and nvidia revenue 2024",
    "AAPL vs NVDA revenue fiscal 2024",
])
def test_a_comparison_without_a_relation_stays_a_comparison(directory, text):  # noqa: F811
    p = plan(directory, text)
    assert p.intent == "compare" and p.metrics == ["revenue"] and not p.definitions, p


def test_a_relation_of_prose_is_no_formula(directory):  # noqa: F811
    p = plan(directory, "what's the difference between Apple's and Nvidia's supply chain risks?")
    assert not any(m.startswith("udf:") for m in p.metrics) and not p.definitions, p


def test_pinned_operands_are_labelled_with_their_company_and_evaluate_as_written():
    tree = {"op": "/", "args": [{"metric": "revenue", "ticker": "AAPL"}, {"metric": "revenue", "ticker": "NVDA"}]}
    assert metrics_of(tree) == ["revenue^AAPL", "revenue^NVDA"]
    assert operand_label("revenue^NVDA") == "Revenue (NVDA)" and operand_label("revenue~-1^NVDA") == "Revenue (prior year) (NVDA)"
    values = {"revenue^AAPL": Decimal(391035), "revenue^NVDA": Decimal(60922)}
    assert evaluate(tree, values, "percent").quantize(Decimal("0.1")) == Decimal("641.9")


def test_a_share_of_another_companys_figure_is_computed_from_both_filings(footnote):  # noqa: F811
    answer = ask(footnote, "Apple's fiscal 2024 revenue as a % of Nvidia's fiscal 2024 revenue")
    assert answer.kind == "answer", answer.text
    assert answer.calculation and answer.calculation[0].result == "641.9%", answer.calculation  # 391,035 ÷ 60,922
    assert {"391035000000", "60922000000"} <= {n.value for n in answer.numbers}
    assert {c.ticker for c in answer.citations} == {"AAPL", "NVDA"}
    assert "Nvidia" in answer.text and "Revenue (AAPL) ÷ Revenue (NVDA)" in answer.calculation[0].formula


def test_a_difference_of_two_companies_margins_is_in_points(footnote):  # noqa: F811
    answer = ask(footnote, "What is the difference between Apple's and Nvidia's gross margin in fiscal 2024, in points?")
    assert answer.kind == "answer", answer.text
    computed = [Decimal(n.value) for n in answer.numbers if n.citation is None]
    # 180,683 ÷ 391,035 − 44,301 ÷ 60,922, in percentage points
    expected = (Decimal(180683) / Decimal(391035) - Decimal(44301) / Decimal(60922)) * 100
    assert computed and abs(computed[0] - expected) < Decimal("0.0001"), (computed, expected)
    assert "percentage points" in answer.text
