"""Which Item a prose question reads first, and which 10-K a question names by when it came out.

The rules' Item stands where the form of the question names it; where they only guessed from a topic
word, the Item whose passages tell the subject clearly best leads (agent.retrieval.item_lead). A 10-K
"filed in 2024" is the one that came out that year, "the previous 10-K" the one before the latest
(agent.retrieval.filing_choice, agent.retrieval.fetch._filing_meant)."""

from __future__ import annotations

import pytest

from agent.planning.item_vote import load, vote
from agent.planning.companies import CompanyDirectory
from agent.planning.rules import plan_rules
from agent.retrieval.fetch import _filing_meant
from agent.retrieval.filing_choice import asks_prior_filing, filed_in, filed_year, fiscal_year_filed_in
from agent.retrieval.item_lead import lead_item, sure_form
from tests import agent_corpus
from tests.test_companies import COVERED, SEC

APPLE_2024 = [agent_corpus.ACC[("AAPL", 2024)]]


@pytest.fixture
def corpus(db, embedder):
    return agent_corpus.load(db, embedder)


def _lead(db, embedder, question, items):
    return lead_item(db, embedder, question, question, items, cik=agent_corpus.APPLE, accessions=APPLE_2024)


def test_the_item_that_tells_the_subject_leads_where_the_rules_guessed(db, embedder, corpus):
    # "suppliers" points the rules at the business description; what a failing supplier does is a risk
    items = _lead(db, embedder, "what happens to them if a single-source component supplier gets disrupted?", ["1"])
    assert items == ["1A", "1"]


def test_the_rules_item_stays_first_when_it_tells_the_subject_best(db, embedder, corpus):
    assert _lead(db, embedder, "what products does the company design and sell?", ["1", "7"]) == ["1", "7"]


@pytest.mark.parametrize("question", [
    "why did research and development expense increase?",  # a cause of what happened: MD&A
    "how dependent is Apple on single-source suppliers?",  # a dependence: the risk factors
    "what does Apple expect for research and development spending?",  # an expectation: MD&A
    "what does Item 1 say about its suppliers?",  # a section named
])
def test_a_question_whose_form_names_its_item_keeps_the_rules_order(db, embedder, corpus, question):
    assert sure_form(question.lower())
    assert _lead(db, embedder, question, ["1", "1A"]) == ["1", "1A"]


def test_expected_as_an_amount_is_no_plan():
    assert not sure_form("where does it record expected credit losses on its investments?")
    assert not sure_form("how much of the tooling cost is expected to be recovered from firm orders?")


def test_without_a_filing_or_a_model_the_rules_decide(db, embedder, corpus):
    question = "what happens to them if a single-source component supplier gets disrupted?"
    assert lead_item(db, None, question, question, ["1"], cik=agent_corpus.APPLE, accessions=APPLE_2024) == ["1"]
    assert lead_item(db, embedder, question, question, ["1"], cik=agent_corpus.APPLE, accessions=[]) == ["1"]
    assert lead_item(db, embedder, question, question, [], cik=agent_corpus.APPLE, accessions=APPLE_2024) == []


def test_the_labelled_questions_cover_each_item_and_vote_by_meaning(embedder):
    labels = [label for label, _ in load()]
    assert {labels.count(i) >= 40 for i in ("1", "1A", "7", "8")} == {True}
    assert vote("when does the company book revenue from selling its devices?", embedder).item == "8"
    assert vote("what could hurt them if a hacker broke into their systems?", embedder).item == "1A"
    assert vote("why did operating income fall compared with last year?", embedder).item == "7"
    assert vote("what does the company sell and to whom?", embedder).item == "1"
    assert vote("why did operating income fall?", None) is None


# --- the filing named by when it came out ------------------------------------------------------

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
    assert fiscal_year_filed_in(CALENDAR, 2023) is None
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
    assert _filing_meant("what did the previous 10-K say?", latest, {2024: CALENDAR[2024]}, [2024]) is None


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
