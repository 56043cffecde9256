"""A covered company's short ticker typed in lowercase as a possessive ("v's net income", "ai's capex") is
that company, never another registrant whose name begins with the same letters (V.F. Corp, AI
Transportation Acquisition), which the refusal would otherwise name as the company asked about."""

from __future__ import annotations

import pytest

from agent.planning.companies import CompanyDirectory
from agent.planning.exemplars import meaning_from
from agent.planning.rules import plan_rules
from tests.test_companies import COVERED, SEC

VISA, C3 = 1403161, 1577526
REGISTRANTS = [*SEC, ("VFC", 103379, "V F CORP"), ("AITR", 1987240, "AI TRANSPORTATION ACQUISITION CORP"),
               ("AI", C3, "C3.ai, Inc.")]


@pytest.fixture(scope="module")
def directory() -> CompanyDirectory:
    return CompanyDirectory.from_rows(COVERED, REGISTRANTS, {VISA: [2023, 2024], C3: [2024]})


@pytest.fixture(autouse=True, scope="module")
def _judged_by_meaning(embedder):
    with meaning_from(embedder):
        yield


@pytest.mark.parametrize("text, ticker", [
    ("v's net income 2024", "V"),
    ("Could you pull v's revenue for fiscal year 2023 from the 10-K?", "V"),
    ("ai's capex for fiscal year 2024", "AI"),
    ("AI's cash and cash equivalents for fy2024", "AI"),
])
def test_a_short_covered_ticker_owning_a_figure_is_that_company(directory, text, ticker):
    p = plan_rules(text, directory=directory)
    assert p.route == "domain" and p.tickers == [ticker], (p.refusal_reason, p.refusal_detail)


def test_a_short_word_owning_no_figure_is_not_read_as_a_ticker(directory):
    p = plan_rules("what is AI's impact on jobs?", directory=directory)
    assert p.tickers != ["AI"]
    assert "AITR" not in (p.refusal_detail or "") and "AITR" not in p.tickers


def test_an_uncovered_registrant_by_its_own_name_is_still_refused_as_not_covered(directory):
    p = plan_rules("what was V F Corp's revenue in 2023?", directory=directory)
    assert p.refusal_reason == "not_covered" and "VFC" in (p.refusal_detail or "")


@pytest.mark.parametrize("reply", ["same for v", "and v?"])
def test_a_reply_naming_a_short_covered_ticker_alone_is_that_company(directory, reply):
    first = plan_rules("Apple revenue 2024", directory=directory)
    p = plan_rules(reply, previous=first, directory=directory)
    assert p.tickers == ["V"] and p.metrics == ["revenue"], (p.refusal_reason, p.refusal_detail)


@pytest.mark.parametrize("reply, ticker", [("pep?", "PEP"), ("ko?", "KO"), ("and gd?", "GD")])
def test_a_lone_lowercase_ticker_after_a_figure_is_that_company_not_small_talk(reply, ticker):
    covered = CompanyDirectory.from_rows([*COVERED, (40533, "GENERAL DYNAMICS CORPORATION", ["GD"])], REGISTRANTS,
                                         {77476: [2024], 21344: [2024], 40533: [2024], 320193: [2024]})
    first = plan_rules("Apple revenue 2024", directory=covered)
    p = plan_rules(reply, previous=first, directory=covered)
    assert p.route == "domain" and p.tickers == [ticker] and p.metrics == ["revenue"], (p.route, p.intent)
    assert plan_rules("thanks", previous=first, directory=covered).route == "meta"
