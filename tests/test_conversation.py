"""Conversation over the fixture corpus, through the whole graph: replies about Footnote itself,
follow-ups that refer back to every company of the thread, and prose that quotes what answers the
question or says it found nothing."""

from __future__ import annotations

import uuid

import pytest

from agent.answer import Turn
from bot.wiring import build_footnote
from bot.settings import Settings


@pytest.fixture(scope="module")
def footnote(corpus_db, embedder):
    return build_footnote(corpus_db, embedder, Settings(llm="off"), use_cache=False)


def ask(footnote, text, thread=None):
    return footnote.answer(Turn(thread_key=thread or f"test:{uuid.uuid4().hex}", user="u", text=text))


def test_questions_about_footnote_get_an_accurate_reply(footnote):
    answer = ask(footnote, "are you a bot?")
    assert answer.kind == "meta" and answer.route == "meta"
    assert "10-K" in answer.text and "XBRL" in answer.text and "cite" in answer.text
    assert "fiscal 2023 to 2025" in answer.text  # what the store holds, not a fixed claim


def test_which_years_for_one_company(footnote):
    answer = ask(footnote, "which years do you have for Tesla?")
    assert answer.kind == "meta"
    assert "fiscal 2023 and 2024" in answer.text and "latest" in answer.text


def test_acknowledgements_and_goodbyes_are_not_refused(footnote):
    thread = f"test:{uuid.uuid4().hex}"
    assert ask(footnote, "Tesla revenue 2024", thread).kind == "answer"
    assert ask(footnote, "got it", thread).kind == "meta"
    follow = ask(footnote, "and the year before that?", thread)  # the thread survives small talk
    assert follow.kind == "answer" and follow.plan["fiscal_years"] == [2023] and follow.plan["tickers"] == ["TSLA"]
    assert ask(footnote, "ok bye then", thread).kind == "meta"


def test_which_of_the_two_was_higher_answers_for_both(footnote):
    thread = f"test:{uuid.uuid4().hex}"
    ask(footnote, "Compare revenue of Apple and Tesla in fiscal 2024", thread)
    answer = ask(footnote, "which of the two was higher?", thread)
    assert answer.kind == "answer", answer.text
    assert [row[0] for row in answer.tables[0].rows] == ["Apple (AAPL)", "Tesla (TSLA)"]
    assert "Apple is higher than Tesla on revenue" in answer.text


def test_why_after_a_figure_quotes_the_cause_from_mdna(footnote):
    thread = f"test:{uuid.uuid4().hex}"
    ask(footnote, "Tesla revenue 2024", thread)
    answer = ask(footnote, "why?", thread)
    assert answer.kind == "answer", answer.text
    assert "- Revenues were roughly flat in 2024: lower automotive revenue from reduced average selling prices was " \
           "offset by strong growth in energy storage deployments and services." in answer.text
    assert all(c.item in ("7", "8") for c in answer.citations if c.quote)


def test_another_company_in_a_follow_up_is_never_the_thread_company(footnote):
    thread = f"test:{uuid.uuid4().hex}"
    ask(footnote, "What are Tesla's risk factors?", thread)
    answer = ask(footnote, "what about Netflix?", thread)
    assert answer.refusal_reason == "not_covered" and "Netflix" in answer.text
    answer = ask(footnote, "and Zorblax?", thread)
    assert answer.refusal_reason == "no_company" and "Zorblax" in answer.text


def test_quotes_are_whole_sentences(footnote):
    answer = ask(footnote, "How much did Tesla spend on capex in 2024 and on what?")
    assert answer.kind == "answer", answer.text
    # what the money went to is quoted in its whole sentence: both of its amounts are XBRL facts of that
    # 10-K (operating cash flow $14.92 billion, capex $11.34 billion), and the footnotes cite them
    sentence = ("Net cash provided by operating activities was $14.9 billion, and capital expenditures were "
                "$11.3 billion, mainly for factory expansion, AI training compute and new products.")
    assert sentence in answer.text
    assert [c.quote for c in answer.citations if c.quote and "factory expansion" in c.quote] == [sentence]
    assert {"14923000000", "11339000000"} <= {c.value for c in answer.citations if c.concept}
    other = ask(footnote, "What does Tesla say about its supply chain?")  # sentences with no figure are quoted whole
    assert all(c.quote and c.quote[0].isupper() for c in other.citations if c.quote), other.citations


def test_nothing_relevant_is_refused_saying_what_was_searched(footnote):
    answer = ask(footnote, "What does Tesla say about its pet food strategy?")
    assert answer.kind == "refusal" and answer.refusal_reason == "no_grounding", answer.text
    assert "I searched Tesla's fiscal 2024 10-K" in answer.text
    assert not answer.citations


def test_what_a_filing_expects_is_answered_from_it_not_refused(footnote):
    answer = ask(footnote, "What does Tesla's filing say it expects about legal matters?")
    assert answer.refusal_reason != "out_of_scope", answer.text


def test_the_answer_says_which_filing_it_quotes(footnote):
    latest = ask(footnote, "What are Tesla's risk factors?")
    assert latest.kind == "answer" and "latest 10-K (fiscal 2024, Item 1A)" in latest.text
    earlier = ask(footnote, "What risks did Tesla describe for fiscal 2022?")  # its 2022 10-K is not held
    assert earlier.kind == "answer", earlier.text
    assert "fiscal 2022 10-K is not in my corpus" in earlier.text and "fiscal 2023 10-K" in earlier.text
    assert {c.fiscal_year for c in earlier.citations} == {2023}


def test_a_refused_company_leaves_the_thread_its_companies(footnote):
    thread = f"test:{uuid.uuid4().hex}"
    assert ask(footnote, "apple revenue fiscal 2024", thread).kind == "answer"
    assert ask(footnote, "what about Netflix?", thread).refusal_reason == "not_covered"
    nvidia = ask(footnote, "ok and nvidia?", thread)
    assert nvidia.kind == "answer" and nvidia.plan["tickers"] == ["NVDA"], nvidia.text
    answer = ask(footnote, "which of the two was higher?", thread)  # Apple and NVIDIA, never Netflix
    assert answer.kind == "answer", answer.text
    assert sorted(row[0] for row in answer.tables[0].rows) == ["Apple (AAPL)", "Nvidia (NVDA)"]


def test_a_lone_word_that_names_nothing_of_the_company_is_refused_as_a_name(footnote):
    thread = f"test:{uuid.uuid4().hex}"
    assert ask(footnote, "apple revenue fiscal 2024", thread).kind == "answer"
    answer = ask(footnote, "what about samsung?", thread)  # lowercase, and an everyday word to the vocabulary
    assert answer.refusal_reason == "no_company" and "samsung" in answer.text, answer.text
    assert "$" not in answer.text
    beside = ask(footnote, "what about sony's net income?", thread)  # a name beside a measure: never Apple's
    assert beside.refusal_reason == "no_company" and "sony" in beside.text and "$" not in beside.text, beside.text
    nvidia = ask(footnote, "and nvidia?", thread)  # the thread is still on revenue, fiscal 2024
    assert nvidia.kind == "answer" and nvidia.plan["metrics"] == ["revenue"], nvidia.text
    assert nvidia.numbers[0].ticker == "NVDA" and nvidia.numbers[0].fiscal_year == 2024


def test_same_for_both_but_another_metric(footnote):
    thread = f"test:{uuid.uuid4().hex}"
    ask(footnote, "Compare revenue of Apple and Tesla in fiscal 2024", thread)
    answer = ask(footnote, "same for both, but net income", thread)
    assert answer.kind == "answer", answer.text
    assert answer.plan["metrics"] == ["net_income"] and answer.plan["tickers"] == ["AAPL", "TSLA"]
    assert answer.plan["slots"] == {"tickers": "thread, its companies", "metrics": "message", "fiscal_years": "thread"}
    assert {(n.ticker, n.fiscal_year) for n in answer.numbers} == {("AAPL", 2024), ("TSLA", 2024)}


def test_a_transform_naming_the_company_takes_the_thread_figure_and_year(footnote):
    thread = f"test:{uuid.uuid4().hex}"
    ask(footnote, "Tesla revenue 2024", thread)
    ask(footnote, "and what about Apple?", thread)
    answer = ask(footnote, "what's the growth rate for Tesla?", thread)
    assert answer.kind == "answer", answer.text
    assert answer.plan["metrics"] == ["revenue_growth"] and answer.plan["tickers"] == ["TSLA"]
    assert answer.plan["fiscal_years"] == [2024] and "metrics" in answer.plan["inherited"]


def test_a_named_figure_as_a_share_of_revenue(footnote):
    thread = f"test:{uuid.uuid4().hex}"
    ask(footnote, "walmart revenue fiscal 2024", thread)
    answer = ask(footnote, "and operating income as a share of revenue?", thread)
    assert answer.kind == "answer", answer.text
    assert answer.plan["metrics"] == ["operating_margin"] and answer.plan["tickers"] == ["WMT"]
    assert answer.calculation and "4.2%" in answer.text, answer.text


def test_a_comparison_after_a_second_company_compares_the_thread(footnote):
    thread = f"test:{uuid.uuid4().hex}"
    ask(footnote, "apple revenue fiscal 2024", thread)
    ask(footnote, "and tesla?", thread)
    answer = ask(footnote, "who earned more?", thread)  # alone, it resembles a question about Footnote
    assert answer.kind == "answer", answer.text
    assert sorted(row[0] for row in answer.tables[0].rows) == ["Apple (AAPL)", "Tesla (TSLA)"]
