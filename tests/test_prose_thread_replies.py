"""Replies in a prose thread: what the thread's filing says of a name, a choice among its companies,
another company at the thread's year, and what is left once a company was refused.

- "does it say anything about Intel?" after AMD's risks asks AMD's filing about Intel; "what about
  Intel?" still turns to Intel, and "what about Target?" is still refused for Target.
- "which is riskier?" after prose answers about two companies quotes both, on the thread's topic, the
  risk factors first; the comparative is no search word.
- "what about AMD?" after Walmart's fiscal 2025 10-K reads AMD's latest 10-K when AMD has none for that
  year (nor the next, which discusses it); a company that has it keeps the thread's year.
- A prose answer about several companies says which of them nothing answered.
- "and Nvidia?" after a refused "what about Samsung?" asks the thread's topic of Nvidia.
"""

from __future__ import annotations

import pytest

from agent.composing.compose import compose_extractive
from agent.composing.draft import Evidence
from agent.planning.brands import brands_from
from agent.planning.companies import CompanyDirectory
from agent.planning.exemplars import meaning_from
from agent.planning.plan import Plan
from agent.planning.rules import plan_rules
from tests.conftest import thread_of
from tests.test_companies import COVERED, SEC

EXTRA = [(50863, "INTEL CORP", ["INTC"])]


@pytest.fixture(scope="module")
def directory() -> CompanyDirectory:
    return CompanyDirectory.from_rows(COVERED + EXTRA, SEC, {104169: [2024, 2025], 12927: [2023, 2024],
                                                              60667: [2023], 2488: [2023], 50863: [2023],
                                                              320193: [2023, 2024]})


@pytest.fixture(autouse=True, scope="module")
def _judged_by_meaning(embedder):
    with meaning_from(embedder):
        yield


def thread(directory, *turns) -> Plan:
    plan = None
    for text in turns:
        plan = plan_rules(text, previous=plan, directory=directory)
    return plan


def prose(plan) -> bool:
    return plan.route == "domain" and plan.intent == "qualitative" and not plan.metrics


@pytest.mark.parametrize("reply", [
    "does it say anything about Intel?",
    "do they mention Intel at all?",
    "what does the filing say about Intel?",
    "anything on Intel?",
])
def test_a_name_asked_of_the_thread_s_filing_is_looked_for_in_it(directory, reply):
    p = thread(directory, "what does AMD say about competition?", reply)
    assert prose(p) and p.tickers == ["AMD"], (p.route, p.tickers, p.refusal_reason)
    assert "intel" in p.query.lower() and "intel" in p.topic


def test_a_name_after_what_about_still_switches_or_is_refused(directory):
    assert thread(directory, "what does AMD say about competition?", "what about Intel?").tickers == ["INTC"]
    refused = thread(directory, "what does Walmart say about competition?", "what about Target?")
    assert refused.route == "refusal" and refused.refusal_reason == "not_covered"
    asked = thread(directory, "what does Walmart say about competition?", "does it mention Target?")
    assert prose(asked) and asked.tickers == ["WMT"] and "target" in asked.query.lower()


@pytest.mark.parametrize("choice", ["which is riskier?", "who's more exposed?", "which one is more vulnerable?"])
def test_a_choice_among_the_thread_s_companies_quotes_each_on_its_topic(directory, choice):
    p = thread(directory, "what does Apple say about its supply chain?", "and AMD?", choice)
    assert prose(p) and set(p.tickers) == {"AAPL", "AMD"}, (p.route, p.tickers)
    assert p.items[0] == "1A" and "supply" in p.query.lower()
    assert not {"riskier", "exposed", "vulnerable", "more"} & set(p.topic.split())


def test_a_choice_naming_a_subject_searches_it_beside_the_topic(directory):
    p = thread(directory, "how does Walmart describe competition?", "and Lowe's?", "which one says more about pricing?")
    assert prose(p) and set(p.tickers) == {"WMT", "LOW"}
    assert "pricing" in p.query.lower() and "competition" in p.query.lower()


def test_another_company_at_a_year_it_has_no_10k_for_reads_its_latest(directory):
    p = thread(directory, "what does Walmart say about competition in fiscal 2025?", "what about AMD?")
    assert prose(p) and p.tickers == ["AMD"]
    assert p.company_years == {"AMD": [2023]} and p.fiscal_years == [2023] and p.as_of_filing_year is None
    kept = thread(directory, "what does Walmart say about competition in fiscal 2024?", "what about Boeing?")
    assert kept.tickers == ["BA"] and kept.fiscal_years == [2024] and "BA" not in kept.company_years
    # its own year said: that year, held or not (refused at fetch, saying which years are held)
    named = thread(directory, "what does Walmart say about competition in fiscal 2025?", "what about AMD in 2025?")
    assert named.fiscal_years == [2025] and "AMD" not in named.company_years


def _chunk(n: int, ticker: str, text: str) -> Evidence:
    return Evidence(id=f"c:{n}", kind="chunk", ticker=ticker, cik=n, fiscal_year=2024, accession=f"a{n}", url="u",
                    item="1A", text=text)


def test_a_prose_answer_about_two_companies_says_which_one_nothing_answered(embedder):
    plan = Plan(route="domain", intent="qualitative", tickers=["ZZZ", "YYY"], fiscal_years=[2024],
                items=["1A"], query="ocean carriers imported goods")
    chunks = [_chunk(1, "ZZZ", "The company relies on a small number of ocean carriers for imported goods."),
              _chunk(2, "YYY", "Our headquarters building was renovated during the year.")]
    draft = compose_extractive("does it rely on ocean carriers?", plan, chunks, embedder=embedder)
    assert [c.evidence_id for c in draft.claims] == ["c:1"]
    assert draft.intro.startswith("I found nothing in YYY's 10-K that answers this.")
    alone = compose_extractive("does it rely on ocean carriers?", plan.model_copy(update={"tickers": ["ZZZ"]}),
                               chunks[:1], embedder=embedder)
    assert "nothing" not in alone.intro
    # a company none of whose filings was read (no 10-K for the year) is not said to have been searched
    unread = compose_extractive("does it rely on ocean carriers?", plan, chunks, embedder=embedder,
                                held={"ZZZ": {2024}})
    assert "nothing" not in unread.intro


def test_after_a_refused_company_the_next_one_gets_the_thread_s_topic(offline_footnote):
    ask = thread_of(offline_footnote)
    first = ask("what does Apple say about competition?")
    assert first.plan["intent"] == "qualitative"
    refused = ask("what about Samsung?")
    assert refused.kind == "refusal"
    again = ask("and Nvidia?")
    assert again.plan["tickers"] == ["NVDA"] and again.plan["intent"] == "qualitative", again.text
    assert again.plan["topic"] == first.plan["topic"] and "competition" in again.plan["query"].lower()


def test_a_thing_asked_of_the_thread_s_filing_is_searched_for_itself(directory):
    p = thread(directory, "why did Walmart's gross profit rate rise in fiscal 2025?", "does it say anything about tariffs?")
    assert prose(p) and p.tickers == ["WMT"]
    assert "tariff" in p.query.lower() and "gross" not in p.query.lower()
    assert p.topic.startswith("tariffs")  # still carried with the thread's topic for the next reply
    pointing = thread(directory, "what does Walmart say about competition?", "what does it say about the risks of that?")
    assert "competition" in pointing.query.lower()


@pytest.mark.parametrize("reply, word", [("does it say anything about tarrifs?", "tariffs"),
                                         ("any litigaton risk?", "litigation"),
                                         ("what about the recesion?", "recession")])
def test_a_misspelt_subject_in_a_reply_is_searched_as_the_word_meant(directory, reply, word):
    p = thread(directory, "what does Walmart say about competition?", reply)
    assert prose(p) and p.tickers == ["WMT"] and word in p.query.lower(), p.query


def test_a_term_or_name_in_a_reply_is_never_respelled(directory):
    from agent.planning.reply_words import subject_spelled

    prev = thread(directory, "what does Walmart say about competition?")
    for kept in ("and eCommerce?", "and capex?", "what about Zorblax?", "and lowes?"):
        assert subject_spelled(kept, prev, lambda w: bool(directory.find(w))) == kept


def test_the_year_before_for_a_company_the_thread_showed_is_before_its_own_year(directory):
    prev = thread(directory, "what does Walmart say about competition in fiscal 2025?", "what about Boeing in 2023?")
    # the memory's years per company, as agent.memory.remember writes them after the second turn
    prev = prev.model_copy(update={"company_years": {"WMT": [2025], "BA": [2023]}})
    p = plan_rules("and what did Walmart say the year before?", previous=prev, directory=directory)
    assert p.tickers == ["WMT"] and p.fiscal_years == [2024], (p.fiscal_years, p.company_years)


def test_a_held_company_whose_name_is_an_everyday_word_typed_in_lower_case_is_that_company():
    # Ford held through its 10-Qs only: "ford" typed in lower case matches no name, yet the reply names it
    held = CompanyDirectory.from_rows(COVERED + [(37996, "FORD MOTOR CO", ["F"]), (1046179, "TAIWAN SEMICONDUCTOR "
                                                  "MANUFACTURING CO LTD", ["TSM"])], SEC, {1467858: [2023]})
    # the corpus's filings that name each word: Ford's own name Ford; Taiwan is named by others, as a place
    corpus = {"ford": [(37996, 40), (1467858, 6)], "taiwan": [(2488, 12), (320193, 3)]}
    with brands_from(lambda phrase: corpus.get(phrase.lower(), [])):
        for first in ("GM revenue 2023", "what does GM say about the UAW strike?"):
            p = thread(held, first, "and ford?")
            assert p.tickers == ["F"], (first, p.route, p.tickers, p.refusal_reason)
        assert set(thread(held, "GM revenue 2023", "compare that with ford").tickers) == {"GM", "F"}
        # a place a registrant's name begins with, and a word many names begin with, stay words
        assert thread(held, "what does AMD say about its foundries?", "what about taiwan?").tickers == ["AMD"]
        assert thread(held, "GM revenue 2023", "and general?").tickers != ["GE"]


def test_why_after_a_prose_answer_searches_the_causes_of_its_topic(directory):
    p = thread(directory, "how did Walmart's eCommerce business do in fiscal 2025?", "why?")
    assert prose(p) and p.tickers == ["WMT"] and p.items[0] == "7"
    assert "ecommerce" in p.query.lower() and "primarily due to" in p.query.lower(), p.query


def test_a_section_named_in_a_reply_is_no_company(directory):
    p = thread(directory, "Walmart revenue fiscal 2025", "what does the MD&A say about it?")
    assert prose(p) or p.intent == "qualitative", (p.route, p.refusal_reason, p.refusal_detail)
    assert p.tickers == ["WMT"] and p.items[0] == "7"


def test_a_compound_word_is_never_respelled_as_the_word_inside_it(directory):
    from agent.planning.reply_words import subject_spelled

    prev = thread(directory, "what does Walmart say about its online sales?")
    assert subject_spelled("how did ecommerce contribute?", prev) == "how did ecommerce contribute?"
    # a figure's own words the dictionary lacks are no slips ("payout" is no "layout"), and a figure thread's
    # reply is left to the figure path
    assert subject_spelled("and the dividend payout?", prev) == "and the dividend payout?"
    figure = thread(directory, "Walmart revenue fiscal 2025")
    assert subject_spelled("and any litigaton?", figure) == "and any litigaton?"
