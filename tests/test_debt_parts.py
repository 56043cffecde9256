"""Long-term debt with its parts listed sums the current portion and the long-term debt; a long-term debt tagged
with its current maturities in it (us-gaap:LongTermDebt) is never added to them again."""

from __future__ import annotations

from decimal import Decimal

from agent.composing.draft import Evidence
from agent.planning.formula_parse import parse_expression
from agent.retrieval.retrieve import _user_formula

COMPANY = {"cik": 1, "ticker": "XCO", "name": "Example Co"}


class _Tagged:
    """The facts a company tagged, by metric (our own figures): what retrieve's _Facts would find."""

    company = COMPANY
    absent: dict = {}
    row_labels: dict = {}

    def __init__(self, facts: dict[str, tuple[str, str]]):
        self.facts = facts

    def get(self, metric: str, fy: int, printed: bool = False) -> Evidence | None:
        if metric not in self.facts:
            return None
        concept, value = self.facts[metric]
        return Evidence(id=f"f:{metric}", kind="fact", text=metric, ticker="XCO", cik=1, fiscal_year=fy,
                        accession="acc-1", url="https://example.test", concept=concept, value=value, unit="USD")


def _computed(facts: dict) -> tuple[Decimal | None, dict]:
    tree = parse_expression("long-term debt (current + non-current)")
    definition = {"name": "long-term debt", "tree": tree, "unit": "USD", "formula": ""}
    cell: dict = {}
    out = _user_formula(_Tagged(facts), definition, 2024, cell)
    return (Decimal(out[0].value) if out else None), cell


def test_the_current_portion_and_the_noncurrent_debt_are_summed():
    value, _ = _computed({"ltd_maturities_current": ("us-gaap:LongTermDebtCurrent", "100"),
                          "long_term_debt": ("us-gaap:LongTermDebtNoncurrent", "900")})
    assert value == Decimal("1000")


def test_a_long_term_debt_holding_its_current_maturities_is_not_added_to_them():
    value, _ = _computed({"ltd_maturities_current": ("us-gaap:LongTermDebtCurrent", "100"),
                          "long_term_debt": ("us-gaap:LongTermDebt", "1000")})
    assert value == Decimal("1000")


def test_a_sum_written_with_no_alternative_is_refused_rather_than_counted_twice():
    tree = parse_expression("current debt plus long-term debt")
    cell: dict = {}
    out = _user_formula(_Tagged({"current_debt": ("us-gaap:LongTermDebtCurrent", "100"),
                                 "long_term_debt": ("us-gaap:LongTermDebt", "1000")}),
                        {"name": "debt", "tree": tree, "unit": "USD", "formula": ""}, 2024, cell)
    assert out is None and cell.get("missing_inputs")
