"""The metric table: exact phrases only, longest first, and never a look-alike concept."""

from __future__ import annotations

import pytest

from agent.retrieval.concepts import METRICS, PHRASES, match_metrics, normalize, unknown_metric_phrase

REQUIRED = [
    "revenue", "net_income", "rd", "sga", "total_assets", "total_liabilities", "equity", "long_term_debt", "cash",
    "eps_diluted", "eps_basic", "shares_outstanding", "operating_expenses", "gross_profit", "operating_income",
    "cost_of_revenue", "capex", "operating_cash_flow", "depreciation_amortization", "income_tax", "current_assets",
    "current_liabilities", "inventory", "dividends_paid", "buybacks",
]


def test_required_metrics_exist_with_units_and_periods():
    for key in REQUIRED:
        m = METRICS[key]
        assert m.key == key and m.label and m.synonyms and m.concepts
        assert m.unit in ("USD", "USD/shares", "shares", "pure")
        assert m.period in ("duration", "instant")
        assert all(":" in c for c in m.concepts), key
    assert METRICS["total_assets"].period == "instant"
    assert METRICS["revenue"].period == "duration"
    assert METRICS["eps_diluted"].unit == "USD/shares"
    assert METRICS["shares_outstanding"].unit == "shares"


def test_revenue_concepts_are_ordered_and_never_a_cost():
    concepts = METRICS["revenue"].concepts
    assert concepts[:4] == (
        "us-gaap:Revenues",
        "us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax",
        "us-gaap:SalesRevenueNet",
        "us-gaap:RevenueFromContractWithCustomerIncludingAssessedTax",
    )
    for key, m in METRICS.items():
        if key not in ("cost_of_revenue", "costs_expenses_total"):  # (the latter an operand of operating expenses)
            assert not any(":CostOf" in c or ":CostsAnd" in c for c in m.concepts), key
    assert "us-gaap:CostOfRevenue" in METRICS["cost_of_revenue"].concepts


def test_no_concept_belongs_to_two_metrics():
    """A question's metric reads one concept list. A formula's input with no phrases of its own (total
    debt's "debt_current", the balance sheet's whole current-debt line) is never asked for, so it may
    share a concept with the metric users name."""
    seen: dict[str, str] = {}
    for key, m in METRICS.items():
        if not m.synonyms:
            continue
        for c in m.concepts:
            assert c not in seen, f"{c} in {seen.get(c)} and {key}"
            seen[c] = key


@pytest.mark.parametrize(
    "text, expected",
    [
        ("What was Apple's revenue in FY2024?", ["revenue"]),
        ("total net sales", ["revenue"]),
        ("top line", ["revenue"]),
        ("turnover for walmart", ["revenue"]),
        ("cost of revenue", ["cost_of_revenue"]),
        ("Cost of sales and revenue", ["cost_of_revenue", "revenue"]),
        ("COGS", ["cost_of_revenue"]),
        ("revnue fy24", ["revenue"]),
        ("reveune", ["revenue"]),
        ("net income", ["net_income"]),
        ("net earnings and EPS", ["net_income", "eps_diluted"]),
        ("earnings per share", ["eps_diluted"]),
        ("basic EPS", ["eps_basic"]),
        ("diluted earnings per share", ["eps_diluted"]),
        ("R&D", ["rd"]),
        ("r & d spend", ["rd"]),
        ("research and development expense", ["rd"]),
        ("SG&A", ["sga"]),
        ("selling, general and administrative", ["sga"]),
        ("long-term debt", ["long_term_debt"]),
        ("cash and cash equivalents", ["cash"]),
        ("operating cash flow", ["operating_cash_flow"]),
        ("cash from operations", ["operating_cash_flow"]),
        ("capex", ["capex"]),
        ("capital expenditures", ["capex"]),
        ("D&A", ["depreciation_amortization"]),
        ("stockholders' equity", ["equity"]),
        ("shareholders’ equity", ["equity"]),
        ("total current assets and current liabilities", ["current_assets", "current_liabilities"]),
        ("opex", ["operating_expenses"]),
        ("operating income", ["operating_income"]),
        ("gross profit", ["gross_profit"]),
        ("buybacks", ["buybacks"]),
        ("dividends paid", ["dividends_paid"]),
        ("inventories", ["inventory"]),
        ("provision for income taxes", ["income_tax"]),
        ("shares outstanding", ["shares_outstanding"]),
        ("total assets", ["total_assets"]),
        ("total liabilities", ["total_liabilities"]),
        ("the weather", []),
        ("operating", []),
        ("revenues of apple", ["revenue"]),
    ],
)
def test_match_metrics(text, expected):
    assert match_metrics(text) == expected


def test_longest_phrase_wins_so_cost_of_revenue_is_not_revenue():
    assert match_metrics("cost of revenue") == ["cost_of_revenue"]
    assert "revenue" not in match_metrics("Nvidia's cost of revenues in fiscal 2025")
    assert match_metrics("operating cash flow") == ["operating_cash_flow"]  # not "cash"
    assert match_metrics("net income per diluted share") == ["eps_diluted"]  # not net income


def test_no_fuzzy_matching():
    assert match_metrics("revenueish") == []
    assert match_metrics("rvn") == []
    assert match_metrics("revenoo") == []  # not in the explicit typo list


@pytest.mark.parametrize(
    "text, unknown",
    [
        ("Apple EBITDAR", "ebitdar"),
        ("Tesla adjusted EBIT 2024", "adjusted ebit"),
        ("adjusted EBITDA", "adjusted ebitda"),
        ("What is Salesforce's ARR?", "arr"),
        ("customer churn", "churn"),
        ("Walmart same-store sales", "same store sales"),
        ("adjusted EPS", "adjusted eps"),
        ("free cash flow", None),
        ("revenue", None),
        ("EPS", None),
        # line items the company prints are looked up by their label (agent.retrieval.line_items), not refused here
        ("sales and marketing expense", None),
        ("depreciation expense", None),
        ("depreciation and amortization", None),
    ],
)
def test_unknown_metric_phrase(text, unknown):
    assert unknown_metric_phrase(text) == unknown


def test_normalize():
    assert normalize("Apple’s Long-Term Debt?") == "apple long term debt"
    assert normalize("R & D") == "r&d"
    assert normalize("SG & A") == "sg&a"
    assert normalize("R&D as a % of revenue") == "r&d as a % of revenue"
    assert normalize("10-K") == "10-k"


def test_every_phrase_is_normalized():
    for phrase in PHRASES:
        assert normalize(phrase) == phrase


def test_a_metric_phrase_matches_in_the_singular_and_the_plural():
    # the table lists "stock repurchases" and "capital expenditures"; analysts type either number
    assert match_metrics("rtx stock repurchase 2023") == ["buybacks"]
    assert match_metrics("apple capital expenditure 2024") == ["capex"]


def test_long_term_debt_is_the_noncurrent_amount_first_so_total_debt_never_counts_current_maturities_twice():
    concepts = METRICS["long_term_debt"].concepts
    including_current = concepts.index("us-gaap:LongTermDebt")
    assert concepts.index("us-gaap:LongTermDebtNoncurrent") < including_current
    assert concepts.index("us-gaap:LongTermDebtAndCapitalLeaseObligations") < including_current
