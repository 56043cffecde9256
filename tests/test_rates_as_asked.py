"""A rate the user defines is a percentage, under the name the user gave it; a tagged rate the user asks to have
computed from the statement's lines is that computation alone, never the company's tagged figure beside it."""

from __future__ import annotations

import pytest

from agent.planning.formula_parse import parse_expression
from agent.planning.formula_trees import unit_of
from tests.test_figures import directory, plan  # noqa: F401  (the module's directory fixture)


@pytest.mark.parametrize("name", ["effective tax rate", "tax rate", "etr", "cash tax rate"])
def test_a_quotient_named_a_rate_is_a_percentage(name):
    assert unit_of(parse_expression("income taxes over income before income taxes"), name) == "percent"


def test_a_quotient_named_a_ratio_stays_a_ratio():
    assert unit_of(parse_expression("income taxes over income before income taxes"), "tax ratio") == "ratio"


@pytest.mark.parametrize("question", [
    "Apple's 2024 effective tax rate, calculated from the income statement",
    "Apple fy2024 ETR using income taxes and income before income taxes from the income statement",
    "Apple effective tax rate fiscal 2024, not the reported one",
])
def test_a_rate_asked_computed_is_its_formula_alone(directory, question):  # noqa: F811
    p = plan(directory, question)
    assert p.metrics == ["effective_tax_rate_computed"], p


def test_a_rate_asked_plainly_is_computed_and_the_tagged_rate_stands_in_a_table(directory):  # noqa: F811
    p = plan(directory, "Apple effective tax rate fiscal 2024")
    assert p.metrics == ["effective_tax_rate_computed"], p  # the tagged rate answers only where a line is missing
    p = plan(directory, "Apple and Nvidia effective tax rate fiscal 2024")
    assert "effective_tax_rate" in p.metrics, p


def test_a_rate_named_before_its_bracketed_formula_keeps_its_name(directory):  # noqa: F811
    p = plan(directory, "Apple 2024 tax rate (provision for income taxes over income before provision for income taxes)")
    assert p.definitions and p.definitions[-1]["name"] == "tax rate" and p.definitions[-1]["unit"] == "percent", p
