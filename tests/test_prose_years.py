"""Which filing a prose question reads: an expectation for a named year is read in the filing
written before that year; other named years read their own filing (or, when it is not held, the
next one's discussion of them)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from agent.planning.prose_route import expects_ahead
from agent.retrieval.fetch import fetch

CIK = 990002


def _deps(years: list[int]) -> SimpleNamespace:
    """Everything fetch reads, already in its memo: no database is opened."""
    filings = {y: {"accession": f"0000990002-{y % 100}-000001", "url": "https://www.sec.gov/x.htm", "form": "10-K",
                   "period_end": f"{y}-12-31"} for y in years}
    memo = {("company", "HSHM"): {"ticker": "HSHM", "cik": CIK, "name": "Hashmark Mining"},
            ("filings", CIK): filings, ("years", CIK): sorted(years, reverse=True)}
    return SimpleNamespace(db=None, memo=memo)


def _read(question: str, years: list[int], asked: list[int]) -> list[int]:
    plan = {"intent": "qualitative", "tickers": ["HSHM"], "fiscal_years": asked, "latest": False,
            "year_offsets": [], "metrics": [], "items": ["7"]}
    out = fetch({"plan": plan, "question": question}, _deps(years), None)
    assert "refusal" not in out, out
    return out["resolved"][0]["fiscal_years"]


@pytest.mark.parametrize("question", [
    "what does hashmark expect for 2024?",
    "hashmark's outlook for fiscal 2024",
    "what did hashmark plan to spend on miners in 2024?",
    "what does hashmark anticipate for hash rate during 2024",
])
def test_an_expectation_for_a_year_reads_the_filing_written_before_it(question):
    assert expects_ahead(question.lower())
    assert _read(question, [2023, 2024], [2024]) == [2023]


@pytest.mark.parametrize("question", [
    "what drove hashmark's revenue in 2024?",
    "what was the expected return on plan assets for 2024?",  # a figure of 2024, not an expectation
    "what does hashmark expect from the halving, per its 2024 results?",
])
def test_a_year_that_is_not_the_object_of_an_expectation_reads_its_own_filing(question):
    assert _read(question, [2023, 2024], [2024]) == [2024]


def test_an_expectation_with_no_earlier_filing_reads_the_years_own():
    # nothing written before 2023 is held: the 2023 filing is the nearest that speaks of it
    assert _read("what does hashmark expect for 2023?", [2023, 2024], [2023]) == [2023]


def test_a_change_between_two_years_reads_the_later_filing_and_says_so():
    """Its MD&A tells the change with the earlier year as comparison; the answer's plan names that one
    year, so no "not held" line is written for an earlier 10-K that is held."""
    plan = {"intent": "qualitative", "tickers": ["HSHM"], "fiscal_years": [2023, 2024], "latest": False,
            "year_offsets": [], "metrics": [], "items": ["7"]}
    out = fetch({"plan": plan, "question": "how did hashmark's hash rate change from 2023 to 2024?"},
                _deps([2023, 2024]), None)
    assert out["resolved"][0]["fiscal_years"] == [2024]
    assert out["plan"]["fiscal_years"] == [2024]


@pytest.mark.parametrize("question", [
    "what did hashmark say about the halving in 2023 and in 2024?",  # what each filing says: both read
    "hashmark mining strategy, 2023 and 2024",
])
def test_two_years_asked_for_what_each_filing_says_read_both(question):
    assert _read(question, [2023, 2024], [2023, 2024]) == [2023, 2024]


def test_a_change_over_years_that_are_not_consecutive_reads_each_years_filing():
    # the 2024 10-K compares 2024 with 2023 only: 2022 is told in its own filing
    assert _read("how did hashmark's margin change from 2022 to 2024?", [2022, 2023, 2024], [2022, 2024]) == [2022, 2024]


def test_a_number_that_names_a_thing_is_no_year_asked_about():
    from agent.planning.years import parse_years

    assert parse_years("the 737-9 accident in January 2024 (Alaska Airlines flight 1282)").years == [2024]
    assert parse_years("what does section 1502 say about conflict minerals").years == []
    assert parse_years("revenue 1980").years == [1980]  # where a year goes, still a year (refused as one)
    assert parse_years("2024 vs 1850").years == [1850, 2024]


def _read_relative(question: str, years: list[int], *, intent: str = "qualitative", offsets=(-1,)) -> list[int]:
    """The years read for a question the planner kept relative to the latest ("last year": one back)."""
    from agent.planning.years import parse_years

    said = parse_years(question)
    assert said.latest and said.offsets == list(offsets), said
    plan = {"intent": intent, "tickers": ["HSHM"], "fiscal_years": [], "latest": True, "year_offsets": list(offsets),
            "metrics": [], "items": ["7"]}
    out = fetch({"plan": plan, "question": question}, _deps(years), None)
    assert "refusal" not in out, out
    return out["resolved"][0]["fiscal_years"]


@pytest.mark.parametrize("question", [
    "why did hashmark's hash rate fall last year?",
    "hashmark power costs in the prior year - drivers?",
    "what drove hashmark's revenue in the previous fiscal year",
    "why were hashmark's margins higher last fiscal year",
])
def test_last_year_in_a_prose_question_is_the_latest_filings_year(question):
    # the latest 10-K reports the year just ended; the one before it discusses the year before that
    assert _read_relative(question, [2023, 2024]) == [2024]


@pytest.mark.parametrize("question", [
    "what did hashmark say a year ago about the halving?",
    "and the year before?",
])
def test_a_year_counted_back_from_the_latest_stays_counted_back(question):
    assert _read_relative(question, [2023, 2024]) == [2023]


def test_last_year_of_a_figure_keeps_its_planned_year():
    assert _read_relative("hashmark revenue last year", [2023, 2024], intent="numeric") == [2023]


@pytest.mark.parametrize("question, query", [
    ("For the fiscal year ended January 28, 2024, what drove gross margin?", "what drove gross margin"),
    ("what drove gross margin in the year ended jan 2024", "what drove gross margin"),
    ("As of December 31, 2023, what drove the automotive margin decline?", "what drove the automotive margin decline"),
    ("why did gross margin rise in the twelve months ending June 30, 2024?", "why did gross margin rise"),
    ("what did it say about may sales", "what did it say about may sales"),  # a month alone dates nothing
])
def test_a_periods_end_date_is_no_search_word(question, query):
    """"January 28" is the date a year is named by (parse_years reads the year from it); left among the
    search words it outweighs the topic, and the answer was refused as finding nothing."""
    from agent.planning.company_mentions import strip_for_query

    assert strip_for_query(question, []) == query
