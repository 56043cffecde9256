"""Which 10-K a question names by when it came out: a 10-K "filed in 2024" is the one that came out that
year, "the previous 10-K" the one before the latest (agent.retrieval.filing_choice,
agent.retrieval.fetch._filing_meant); the words that choose it are never searched for."""

from __future__ import annotations

import pytest

from agent.planning.companies import CompanyDirectory
from agent.planning.rules import plan_rules
from agent.retrieval.fetch import _filing_meant
from agent.retrieval.filing_choice import asks_prior_filing, filed_in, filed_year, fiscal_year_filed_in
from tests.test_companies import COVERED, SEC

CALENDAR = {2024: {"period_end": "2024-12-31", "filed": None}, 2023: {"period_end": "2023-12-31", "filed": None}}
SEPTEMBER = {2024: {"period_end": "2024-09-28", "filed": "2024-11-01"}, 2023: {"period_end": "2023-09-30", "filed": None}}


@pytest.mark.parametrize("question, year", [
    ("what did the 10-K filed in early 2024 say about AWS?", 2024),
    ("in the annual report that was released on March 1, 2024, what were the risks?", 2024),
    ("what did the February 2024 10-K say about the strike", 2024),
    ("the filing that came out in 2025 - anything on tariffs?", 2025),
    ("in the 10-K Meta filed in early 2024, what did they say about layoffs?", 2024),
    ("jnj 10-K from Feb 2024 - talc litigation status?", 2024),
    ("what did the 10-K from 2024 say about talc?", None),  # a year alone: the fiscal year's report
    ("what does the report the company filed with the EPA in 2023 say about emissions?", None),
    ("what did the company say about the FTC lawsuit filed in September 2023?", None),  # an event's date
    ("how were the notes issued in 2023 priced?", None),
    ("what did the 2023 10-K say about AWS?", None),  # the fiscal year's own report
])
def test_a_filing_is_named_by_the_year_it_came_out_only_with_its_verb(question, year):
    assert filed_in(question) == year


def test_the_10k_that_came_out_in_a_year_is_the_prior_fiscal_years_for_a_calendar_year():
    assert fiscal_year_filed_in(CALENDAR, 2024) == 2023
    assert fiscal_year_filed_in(CALENDAR, 2025) == 2024
    assert fiscal_year_filed_in(CALENDAR, 2023) == 2022  # not held: the year its 10-K reports all the same
    # a September year-end files in the same calendar year; a recorded filing date wins over the estimate
    assert fiscal_year_filed_in(SEPTEMBER, 2024) == 2024
    assert filed_year({"period_end": "2023-12-31", "filed": "2024-02-02"}) == 2024


def test_fetch_reads_and_names_the_filing_meant():
    plan = {"fiscal_years": [2024], "latest": False, "year_offsets": []}
    assert _filing_meant("what did the 10-K filed in early 2024 say about AWS?", plan, CALENDAR, [2024]) == {
        "fiscal_years": [2023], "latest": False, "year_offsets": []}
    assert _filing_meant("what did the 2024 10-K say about AWS?", plan, CALENDAR, [2024]) is None
    latest = {"fiscal_years": [], "latest": True, "year_offsets": []}
    assert asks_prior_filing("what did amazon's previous 10-K say about AWS?")
    assert _filing_meant("what did amazon's previous 10-K say about AWS?", latest, CALENDAR, [2024])["fiscal_years"] == [2023]
    assert _filing_meant("what did amazon's latest 10-K say about AWS?", latest, CALENDAR, [2024]) is None
    # only the latest held: the year before it, which the latest discusses as its prior year (said in the answer)
    assert _filing_meant("what did the previous 10-K say?", latest, {2024: CALENDAR[2024]}, [2024])["fiscal_years"] == [2023]


@pytest.mark.parametrize("question", [
    "what did apple's 10-K filed in early 2024 say about services?",
    "what did apple's previous annual report say about services?",
    "in the 10-K Apple filed in early 2024, what did they say about services?",
])
def test_the_words_that_choose_the_filing_are_not_searched_for(question):
    plan = plan_rules(question, directory=CompanyDirectory.from_rows(COVERED, SEC, {}))
    assert plan.intent == "qualitative" and plan.tickers == ["AAPL"]
    assert "services" in plan.query
    assert not {"filed", "early", "previous"} & set(plan.query.lower().split()), plan.query


def test_a_word_that_starts_like_a_month_names_no_filing_date():
    from agent.planning.prose_route import FILED_IN, FILED_WORDS

    assert FILED_IN.search("mara 2022 10-K risks") is None  # Marathon's fiscal 2022 10-K
    assert FILED_IN.search("the 10-K from sept. 2023") is not None
    assert FILED_WORDS.sub(" ", "risks in the 10-K from marathon") == "risks in the 10-K from marathon"
