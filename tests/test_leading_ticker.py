"""A terse message opening with a lowercase ticker that is also an everyday word ("v revenue 2024",
"low roe fy23") asks about that company when the message names no other; the word alone never
makes a company elsewhere in a message, nor in a message that plans as typed."""

from __future__ import annotations

import pytest

from agent.planning.companies import CompanyDirectory
from agent.planning.exemplars import meaning_from
from agent.planning.rules import plan_rules
from tests.test_companies import COVERED, SEC


@pytest.fixture(scope="module")
def directory() -> CompanyDirectory:
    return CompanyDirectory.from_rows(COVERED, SEC, {1403161: [2023, 2024], 60667: [2023, 2024], 1577526: [2024]})


@pytest.fixture(autouse=True, scope="module")
def _judged_by_meaning(embedder):
    with meaning_from(embedder):
        yield


@pytest.mark.parametrize("text, ticker, metric", [
    ("v revenue 2024", "V", "revenue"),
    ("low net income fy2023", "LOW", "net_income"),
    ("ai revenue 2024", "AI", "revenue"),
])
def test_a_leading_lowercase_ticker_is_the_company(directory, text, ticker, metric):
    p = plan_rules(text, directory=directory)
    assert p.route == "domain" and p.tickers == [ticker] and metric in p.metrics, (p.refusal_reason, p.metrics)


@pytest.mark.parametrize("text", [
    "low margin companies to buy?",  # names no figure of Lowe's: still no company
    "net income 2024, low",  # the word not leading
])
def test_the_word_elsewhere_or_without_a_question_about_the_company_is_no_ticker(directory, text):
    p = plan_rules(text, directory=directory)
    assert "LOW" not in p.tickers


def test_a_named_company_keeps_the_word_an_adjective(directory):
    p = plan_rules("low debt at Apple in 2024?", directory=directory)
    assert "LOW" not in p.tickers
