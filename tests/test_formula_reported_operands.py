"""Operands of a user's formula that the filing reports under its own words: a row joined by '&', an expense
reported in a note, a share of a line item rather than of a member, two names of one metric run together, a margin
restated as its amount, and the conventions around them (averaged balances said in full, two-digit fiscal years,
EBIT from pretax income when no operating income is reported)."""

from __future__ import annotations

from decimal import Decimal

import pytest

from agent.planning.companies import line_names
from agent.planning.conventions import without_balance_asides
from agent.planning.formula_definitions import years_read
from agent.planning.formula_parse import parse_expression
from agent.planning.formula_syntax import DefinitionError
from agent.planning.formula_trees import metrics_of
from agent.planning.operand_rows import INLINE, member_or_row
from agent.retrieval.finance import FORMULAS, Operand, calculate, stated_convention
from agent.retrieval.retrieve import _rows_without_member_words

# rows some company prints on a primary statement (our own labels, with the concepts they tag)
ROWS = [("Food & paper", "mcd:FoodAndPaperCosts"), ("Advertising and marketing", "us-gaap:MarketingExpense"),
        ("Cash dividends paid", "us-gaap:PaymentsOfDividends"), ("Total cost of sales", "us-gaap:CostOfRevenue")]


def _parsed(text: str) -> dict:
    return parse_expression(text, members=INLINE, lines=line_names(ROWS))


def test_a_row_joined_by_an_ampersand_is_read_as_printed():
    assert metrics_of(_parsed("food & paper costs / revenue")) == ["#food&paper costs", "revenue"]
    assert metrics_of(_parsed("food&paper divided by revenue")) == ["#food&paper", "revenue"]


def test_an_expense_reported_in_a_note_is_a_line_and_a_question_s_words_are_not():
    assert metrics_of(_parsed("advertising expense divided by net sales")) == ["#advertising expense", "revenue"]
    assert metrics_of(_parsed("advertising costs over revenue")) == ["#advertising costs", "revenue"]
    for text in ("hd advertising expense / revenue", "widget costs / revenue", "what was advertising expense / revenue"):
        with pytest.raises(DefinitionError):
            _parsed(text)


def test_a_share_of_an_expense_is_its_row_and_of_a_plain_name_the_member_then_the_row():
    assert member_or_row("revenue", "advertising expense") == {"line": "advertising expense"}
    assert member_or_row("revenue", "franchised restaurants") == {
        "op": "first", "args": [{"metric": "revenue", "member": "franchised restaurants"},
                                {"line": "franchised restaurants revenue"}, {"line": "franchised restaurants"}]}
    assert member_or_row("revenue", "*segment") == {"metric": "revenue", "member": "*segment"}


def test_two_names_of_one_metric_run_together_are_that_metric_after_a_row_printed_so():
    tree = _parsed("cash dividends paid / net income")
    assert metrics_of(tree)[-2:] == ["dividends_paid", "net_income"]
    with pytest.raises(DefinitionError):  # "term debt" is no name of long-term debt: its own convention, or refused
        parse_expression("term debt / equity")


def test_a_margin_restated_as_its_amount_is_the_amount_and_dollars_over_a_margin_are_refused():
    assert metrics_of(_parsed("r&d divided by gross margin (gross profit)")) == [
        "rd", "gross_profit", "revenue", "cost_of_revenue"]
    for text in ("r&d / gross margin", "research and development expense divided by operating margin"):
        with pytest.raises(DefinitionError):
            _parsed(text)
    # an aside naming the margin's denominator is no restatement of it
    assert set(metrics_of(_parsed("gross margin (net sales) minus operating margin"))) == {
        "gross_profit", "revenue", "operating_income"}


def test_a_member_s_name_keeps_its_inner_words_in_a_definition():
    tree = parse_expression("energy generation and storage revenue - energy generation and storage cost of revenues",
                            members=True)
    assert metrics_of(tree) == ["revenue@energy generation and storage", "cost_of_revenue@energy generation and storage"]


def test_the_average_of_beginning_and_ending_balances_is_the_averaging_convention_said_apart():
    said = "HD return on average assets FY2024, average of beginning and ending total assets"
    assert without_balance_asides(said).split() == ["HD", "return", "on", "average", "assets", "FY2024"]


def test_two_digit_fiscal_years_in_a_definition_are_the_years_they_abbreviate():
    assert years_read("revenue divided by average PP&E between FY22 and FY23") == "revenue divided by average PP&E"
    assert years_read("revenue / average ppe between fy'23 and fy'25") != "revenue / average ppe"  # not consecutive


def test_interest_coverage_takes_ebit_as_pretax_income_plus_interest_when_no_operating_income_is_reported():
    assert FORMULAS["interest_coverage"].fallback == "interest_coverage_pretax"
    # our own figures: pretax income 16,687, interest expense 755
    result = calculate("interest_coverage_pretax", [Operand(Decimal(v), "USD", 2024, i + 1)
                                                    for i, v in enumerate(("16687", "755"))])
    assert result.display == "23.10"
    assert "income before income taxes plus interest" in stated_convention("interest_coverage_pretax")
    assert "operating income" in stated_convention("interest_coverage")


class _Rows:
    """The labels of the rows a formula's printed-row operands found: what retrieve's _Facts records."""

    def __init__(self, row_labels: dict[str, str]):
        self.row_labels = row_labels


def test_a_row_that_dropped_the_member_s_word_is_never_the_member_s_figure():
    tree = {"op": "/", "args": [{"op": "first", "args": [{"line": "services cost of sales"},
                                                         {"metric": "cost_of_revenue", "member": "services"}]},
                                {"metric": "revenue", "member": "services"}]}
    total = _Rows({"services cost of sales": "Total cost of sales (service)"})  # the words it was asked by, in brackets
    assert _rows_without_member_words(tree, total) == {"#services cost of sales"}
    own = _Rows({"services cost of sales": "Services cost of sales"})
    assert _rows_without_member_words(tree, own) == set()
