"""Formulas in more of analysts' words: "the total of A and B", "average of beginning and end X", and a ratio over
two consecutive years written with their numbers ("2024 revenue divided by 2023 revenue")."""

from __future__ import annotations

import pytest

from agent.planning.formula_parse import parse_expression
from agent.planning.formula_trees import restate
from agent.planning.spoken_formulas import spoken_operators
from tests.test_figures import directory, plan  # noqa: F401  (the module's directory fixture)


def test_the_total_of_two_figures_is_their_sum(directory):  # noqa: F811
    p = plan(directory, "what was the total of apple's R&D and SG&A in fiscal 2024")
    assert p.definitions and p.definitions[-1]["formula"] == \
        "Research and development expense + Selling, general and administrative expense", p


def test_the_total_of_one_figures_name_is_that_figure():
    assert "plus" not in spoken_operators("Apple 2024 total of cash and cash equivalents")


@pytest.mark.parametrize("said", ["average of beginning and end inventory", "average inventory at the beginning and end of the year",
                                  "average of opening and closing inventory"])
def test_an_average_of_the_years_two_ends_is_the_averaged_balance(said):
    assert restate(parse_expression(f"cost of revenue over {said}"), top=True) == \
        restate(parse_expression("cost of revenue over average inventory"), top=True)


@pytest.mark.parametrize("question", ["Apple 2024 revenue divided by 2023 revenue",
                                      "ratio of Apple's FY2024 net income to its FY2023 net income"])
def test_two_consecutive_years_in_a_formula_are_the_year_and_its_prior_year(directory, question):  # noqa: F811
    p = plan(directory, question)
    assert p.fiscal_years == [2024] and p.definitions, p
    tree = p.definitions[-1]["tree"]
    assert tree["op"] == "/" and tree["args"][1].get("offset") == -1 and not tree["args"][0].get("offset"), tree


def test_one_year_alone_inside_a_formula_is_not_read_as_a_prior_year(directory):  # noqa: F811
    p = plan(directory, "Apple revenue divided by 2023 revenue")
    assert not any(d["tree"].get("args", [{}, {}])[1].get("offset") for d in p.definitions
                   if d["tree"].get("op") == "/" and d["tree"]["args"][0] == d["tree"]["args"][1]), p
