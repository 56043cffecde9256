"""A question the line lookup cannot answer goes to prose, not to a refusal: a cause asked with a
verb that moves a figure, the size of an effect, a share that "came from" something, a split
("price vs volume"). A figure asked for a line nobody prints is still refused by its words, and a
prose search that finds nothing answering refuses instead of quoting filler."""

from __future__ import annotations

import uuid

import pytest

from agent.answer import Turn
from agent.planning.companies import CompanyDirectory
from agent.planning.movers import asks_cause, forms
from agent.planning.rules import plan_rules
from tests.test_companies import COVERED, SEC


@pytest.fixture(scope="module")
def directory() -> CompanyDirectory:
    return CompanyDirectory.from_rows(COVERED, SEC, {})


def test_a_verb_is_matched_by_its_whole_family():
    assert {"drag", "drags", "dragged", "dragging"} <= forms("drag")
    assert {"squeezed", "squeezing"} <= forms("squeeze")
    assert {"hit", "hits", "hitting"} <= forms("hit") and "hitted" not in forms("hit")
    assert {"fueled", "fuelled"} <= forms("fuel")


@pytest.mark.parametrize("text", [
    "What pushed Tesla's revenue up in 2023?",
    "what dragged down Apple's gross margin in fiscal 2024",
    "What has been weighing on Walmart's operating income?",
    "which costs squeezed Tesla's gross margin in 2023?",
    "What eroded Apple's net sales in fiscal 2023?",
    "who was to blame for Tesla's lower operating income in 2024?",
    "How much did the price cuts hurt Tesla's revenue in 2023?",
    "how badly did the strong dollar dent Apple's net sales in fiscal 2024",
])
def test_a_cause_asked_with_a_verb_of_movement_is_a_why_question(directory, text):
    p = plan_rules(text, directory=directory)
    assert p.route == "domain" and p.intent == "qualitative", (p.intent, p.refusal_reason, p.metrics)
    assert p.items[0] == "7"
    assert not any(k.startswith(("line:", "dim:")) for k in p.metrics), p.metrics


@pytest.mark.parametrize("text", [
    "How much of Tesla's revenue came from the Maxwell acquisition in 2023?",
    "How much of Walmart's revenue growth in fiscal 2024 was price vs volume?",
    "Was Apple's fiscal 2024 net sales growth price or volume?",
    "how big was the hit to Tesla's revenue from the price cuts in 2023",
])
def test_a_line_lookup_by_words_no_line_is_named_after_is_prose(directory, text):
    p = plan_rules(text, directory=directory)
    assert p.route == "domain" and p.intent == "qualitative", (p.intent, p.refusal_reason, p.metrics)
    assert p.metrics == [] and p.items[0] == "7"
    assert p.query


@pytest.mark.parametrize("text", [
    "How many iPhones did Apple ship in fiscal 2024?",
    "What was Tesla's revenue per vehicle delivered in 2023?",
    "How much did Apple cut capex in fiscal 2024?",
    "What was Walmart's basket size in fiscal 2024?",
    "What was Tesla's average selling price per vehicle in 2023?",
    "how much did Tesla's revenue drop in 2024?",
    "apple revenue fy2024'; DROP TABLE facts; --",
])
def test_a_figure_ask_for_a_line_stays_a_line_lookup(directory, text):
    p = plan_rules(text, directory=directory)
    assert p.intent != "qualitative" or p.route == "refusal", (p.intent, p.metrics)


@pytest.mark.parametrize("text", ["what is CUDA, per nvidia's 10-K?", "What was Apple's strategy in fiscal 2024?"])
def test_per_a_filing_or_a_word_of_discourse_stays_prose(directory, text):
    assert plan_rules(text, directory=directory).intent == "qualitative"


def test_the_verb_must_follow_a_question_word_or_another_subject_than_the_company():
    assert asks_cause("what pushed revenue up", "what pushed revenue up")
    assert not asks_cause("what support does apple offer?", "what support does _____ offer?")
    assert not asks_cause("what increased more, revenue or costs?", "what increased more, revenue or costs?")
    assert not asks_cause("how much did apple cut capex?", "how much did _____ cut capex?")
    assert asks_cause("how much did the strike cost gm?", "how much did the strike cost __?")


def _answer(corpus_db, embedder, text):
    from bot.settings import Settings
    from bot.wiring import build_footnote

    footnote = build_footnote(corpus_db, embedder, Settings(llm="off"), use_cache=False)
    return footnote.answer(Turn(thread_key=f"test:{uuid.uuid4().hex}", user="u", text=text))


def test_a_cause_with_a_verb_quotes_the_filing_s_explanation(corpus_db, embedder):
    answer = _answer(corpus_db, embedder, "What dragged down Apple's net sales in fiscal 2023?")
    assert answer.kind == "answer", answer.text
    quotes = " ".join(c.quote or "" for c in answer.citations)
    assert "lower Mac and iPad sales" in quotes


def test_a_split_the_filing_states_in_prose_is_quoted_with_no_figure_of_its_own(corpus_db, embedder):
    answer = _answer(corpus_db, embedder, "How much of Tesla's revenue growth in 2023 came from deliveries vs prices?")
    assert answer.kind == "answer", answer.text
    assert "higher vehicle deliveries" in " ".join(c.quote or "" for c in answer.citations)
    assert answer.numbers == [] or all(n.metric != "revenue" for n in answer.numbers)


def test_nothing_answering_the_prose_search_is_a_refusal_not_filler(corpus_db, embedder):
    answer = _answer(corpus_db, embedder, "How much of Walmart's revenue came from the Zorblax venture in fiscal 2024?")
    assert answer.kind == "refusal" and answer.refusal_reason == "no_grounding", answer.text
    assert not answer.numbers


@pytest.mark.parametrize("text", [
    "How many iPhones did Apple ship in fiscal 2024?",
    "What was Walmart's same-store sales in fiscal 2024?",
    "What was Tesla's average selling price per vehicle in 2023?",
])
def test_a_figure_for_a_line_nobody_prints_is_still_refused(corpus_db, embedder, text):
    answer = _answer(corpus_db, embedder, text)
    assert answer.kind == "refusal" and answer.refusal_reason == "unknown_metric", answer.text


def test_an_uncovered_ticker_inside_a_cause_about_a_covered_company_is_a_word():
    """"the 737 MAX issues": MAX is also some registrant's ticker, but the question is about Tesla's cost."""
    directory = CompanyDirectory.from_rows(COVERED, SEC + [("MAX", 1809104, "MediaAlpha, Inc.")], {})
    p = plan_rules("How much did the 737 MAX issues cost Tesla in 2023?", directory=directory)
    assert p.route == "domain" and p.tickers == ["TSLA"] and p.intent == "qualitative"
    assert plan_rules("why did MAX revenue fall?", directory=directory).refusal_reason == "not_covered"


@pytest.mark.parametrize("text", ["what dragged it down?", "what weighed on it?"])
def test_a_verb_of_movement_after_a_figure_asks_why_that_figure_moved(directory, text):
    previous = plan_rules("Apple net sales fiscal 2023", directory=directory)
    p = plan_rules(text, previous=previous, directory=directory)
    assert p.intent == "qualitative" and p.tickers == ["AAPL"] and p.fiscal_years == [2023]
    assert p.metrics == previous.metrics and p.items == ["7"]
