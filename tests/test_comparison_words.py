"""A comparison answers the figure its words ask, for the companies they name: never the headline figures
in place of a figure it asks by a word no table maps, never a registrant that shares a covered
company's first word, never a company read from a ratio's initials."""

from __future__ import annotations

import pytest

from agent.planning.companies import CompanyDirectory
from agent.planning.rules import plan_rules
from tests.test_companies import COVERED, SEC


@pytest.fixture(scope="module")
def directory() -> CompanyDirectory:
    return CompanyDirectory.from_rows(COVERED, SEC, {320193: [2023, 2024], 1045810: [2024, 2025],
                                                     1318605: [2023, 2024], 1467858: [2023, 2024]})


def test_a_comparison_that_names_no_figure_shows_the_headline_figures(directory):
    p = plan_rules("compare tesla and nvidia", directory=directory)
    assert p.tickers == ["TSLA", "NVDA"] and p.metrics == ["revenue", "net_income"]


def test_a_figure_asked_by_a_word_no_table_maps_replaces_the_headline_figures(directory):
    p = plan_rules("tesla vs nvidia cfo 2023", directory=directory)
    assert p.tickers == ["TSLA", "NVDA"]
    assert "revenue" not in p.metrics and "net_income" not in p.metrics
    assert any("cfo" in k for k in p.metrics), p.metrics  # answered by its row, or refused by its word


def test_a_covered_company_owns_the_first_word_of_its_name(directory):
    # Apple Hospitality REIT also begins with "apple": the covered Apple Inc. is the one meant
    p = plan_rules("compare apple and nvidia net income 2024", directory=directory)
    assert p.tickers == ["AAPL", "NVDA"] and p.metrics == ["net_income"]


@pytest.mark.parametrize("text", ["tesla's GM % in 2023", "tesla's gm% in 2023"])
def test_a_ratio_s_initials_before_a_percent_sign_are_no_ticker(directory, text):
    p = plan_rules(text, directory=directory)
    assert p.tickers == ["TSLA"] and p.metrics == ["gross_margin"]
