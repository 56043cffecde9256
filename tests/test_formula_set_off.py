"""A registry measure set off before the user's formula by a dash or a colon is the measure the formula
defines, its initials ("CFO") operands and never a member; a number taken from a quotient is 1 − (A ÷ B),
and a number less dollars is refused as no figure rather than computed."""

from __future__ import annotations

from decimal import Decimal

import pytest

from agent.planning.formula_parse import parse_expression
from agent.planning.formula_syntax import DefinitionError
from agent.planning.formula_trees import evaluate, restate
from tests.test_figures import directory, plan  # noqa: F401  (the module's directory fixture)


@pytest.mark.parametrize("question", [
    "Apple cash conversion 2024 -- CFO over net income",
    "Apple cash conversion fy2024 \u2014 CFO over net income",
    "Apple 2024 cash conversion: operating cash flow over net income",
])
def test_a_measure_set_off_before_a_formula_is_the_users_definition_of_it(directory, question):  # noqa: F811
    p = plan(directory, question)
    assert p.refusal_reason is None and p.metrics == ["udf:cash conversion"], p
    assert p.definitions[-1]["formula"] == "Operating cash flow ÷ Net income"
    assert "member" not in str(p.definitions[-1]["tree"])
    assert (p.tickers, p.fiscal_years) == (["AAPL"], [2024])


@pytest.mark.parametrize("question", [
    "Apple gross margin fy2024 -- compute it yourself: gross profit / net sales",
    "Apple gross margin fy2024 -- use this: gross profit over net sales",
])
def test_an_instruction_before_a_colon_sets_the_formula_off_and_is_no_name(directory, question):  # noqa: F811
    p = plan(directory, question)
    # the measure named before the instruction is the one defined, never "yourself" or "this"
    assert p.metrics == ["udf:gross margin"] and p.definitions[-1]["unit"] == "percent", p


def test_a_name_before_a_colon_that_names_no_measure_is_not_taken_for_one(directory):  # noqa: F811
    p = plan(directory, "Apple 2024 zorblat: operating cash flow over net income")
    # the user's own name for the formula, never a registry measure's (nor the registry's figure beside it)
    assert p.metrics == ["udf:zorblat"] and p.definitions[-1]["formula"] == "Operating cash flow ÷ Net income", p


def test_a_number_taken_from_a_quotient_is_taken_from_the_quotient_not_from_its_numerator():
    tree = parse_expression("1 minus dividends paid over net income")
    assert restate(tree, top=True) == "1 − (Dividends paid ÷ Net income)"
    value = evaluate(tree, {"dividends_paid": Decimal(8359), "net_income": Decimal(10631)}, "ratio")
    assert abs(value - (1 - Decimal(8359) / Decimal(10631))) < Decimal("1e-9")


def test_a_number_less_dollars_is_no_figure():
    with pytest.raises(DefinitionError):
        parse_expression("(1 minus dividends paid) over net income")


def test_initials_of_a_figure_are_no_member_of_a_registry_ratio(directory):  # noqa: F811
    p = plan(directory, "Apple cfo operating margin 2024")
    assert not any(d["tree"].get("args", [{}])[0].get("member") == "cfo" for d in p.definitions), p


@pytest.mark.parametrize("operand", ["term debt (current + non-current)", "long-term debt (current and long-term portions)",
                                     "total term debt (current + noncurrent)"])
def test_debt_with_its_parts_listed_is_those_two_parts_and_nothing_else(operand):
    tree = parse_expression(f"{operand} over shareholders' equity")
    # the current maturities (never the current debt line, which may hold commercial paper) and the long-term debt
    assert tree["args"][0]["args"][0] == {"op": "+", "args": [{"metric": "ltd_maturities_current"},
                                                              {"metric": "long_term_debt"}]}
    # when no current portion is tagged beside it: the long-term debt tagged with it, else long-term debt alone
    assert tree["args"][0]["args"][1:] == [{"metric": "ltd_with_current"}, {"metric": "long_term_debt"}]


def test_a_measure_set_off_by_a_comma_is_defined_when_the_formula_reads_as_it(directory):  # noqa: F811
    p = plan(directory, "Apple debt to equity fy24, term debt (current + non-current) over shareholders' equity")
    assert p.metrics == ["udf:debt to equity"], p


def test_a_measure_set_off_by_a_comma_and_restated_by_its_own_operands_is_the_registrys(directory):  # noqa: F811
    p = plan(directory, "Apple 2024 net margin, net income over revenue")
    assert p.metrics[0] == "net_margin" and not any(m.startswith("udf:") for m in p.metrics), p


def test_a_growth_set_off_by_a_comma_is_not_defined_by_a_quotient(directory):  # noqa: F811
    p = plan(directory, "Apple fy24 revenue growth, net income over revenue")
    assert "udf:revenue growth" not in p.metrics, p


def test_a_ratio_over_dollars_is_no_figure():
    with pytest.raises(DefinitionError):
        parse_expression("gross margin / net revenue")


def test_a_measure_named_inside_its_own_formula_is_not_defined_by_it(directory):  # noqa: F811
    p = plan(directory, "Apple 2024 gross margin: gross margin / net sales")
    assert not any(d["name"] == "gross margin" for d in p.definitions), p
