"""A name right after a covered company's possessive ("Meta's RL", "Palantir's AIP") is that company's
own unit or product, whatever registrant's ticker it also spells: asked why it moved or what the
filing says of it, the company's discussion is searched for it, and the company's total is never
given as the unit's figure."""

from __future__ import annotations

import pytest

from agent.planning.companies import CompanyDirectory
from agent.planning.rules import plan_rules
from tests.test_companies import COVERED, SEC


@pytest.fixture(scope="module")
def directory() -> CompanyDirectory:
    # RL: an uncovered registrant's ticker (a clothing maker), and the abbreviation of Meta's Reality Labs
    return CompanyDirectory.from_rows(COVERED, [*SEC, ("RL", 1037038, "RALPH LAUREN CORP")], {1326801: [2023, 2024]})


@pytest.mark.parametrize("question", [
    "why did Meta's RL revenue fall in 2023",
    "how did Meta's RL revenue perform in 2023",
    "what does the 10-K say about Meta's RL revenue?",
])
def test_a_unit_owned_by_a_covered_company_is_searched_in_its_filing(directory, question):
    p = plan_rules(question, directory=directory)
    assert p.route != "refuse", p
    assert p.tickers == ["META"]
    assert p.intent == "qualitative"
    assert p.metrics == []  # Meta's total revenue is no figure of RL
    assert "rl" in p.query.lower()


def test_a_units_figure_asked_alone_is_still_not_the_companys_total(directory):
    p = plan_rules("Meta's RL revenue 2023", directory=directory)
    assert p.refusal_reason == "not_covered"


def test_the_uncovered_company_asked_on_its_own_is_refused(directory):
    p = plan_rules("why did RL revenue fall in 2023", directory=directory)
    assert p.refusal_reason == "not_covered"
