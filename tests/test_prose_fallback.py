"""A figure no table maps, asked in words ("what does the 10-K say about its state aid charge?"), is
searched in the filing's prose before it is refused; the refusal it would have had stands unless a
passage names the figure. A figure asked as a figure is refused as before."""

from __future__ import annotations

import pytest

from agent.planning.companies import CompanyDirectory
from agent.planning.counts import PEOPLE
from agent.planning.in_words import (asks_filing_words, named_words, names_all, prose_fallback, topic_words,
                                     yes_no_clause)
from agent.planning.plan import refusal_plan
from agent.planning.rules import plan_rules
from tests.conftest import thread_of
from tests.test_companies import COVERED, SEC


@pytest.fixture(scope="module")
def directory() -> CompanyDirectory:
    return CompanyDirectory.from_rows(COVERED, SEC, {})


@pytest.mark.parametrize("text, words, count", [
    # the discussion asked for, the figure its topic: whatever answers past the relevance floor
    ("what does Apple's 10-K say about its headcount?", [], None),
    ("why did Apple's zorble backlog rise in 2024?", [], None),
    ("how did the state aid charge affect Apple?", [], None),
    # a count asked of the filing: only the company's own sentence stating it (agent.retrieval.prose_counts)
    ("what's Apple's headcount per the 10-K?", [], list(PEOPLE)),
    ("how many people does Apple employ, according to its 10-K?", [], list(PEOPLE)),
])
def test_a_figure_refused_as_unknown_and_asked_in_words_is_searched_with_its_refusal_kept(directory, text, words,
                                                                                          count):
    refused = refusal_plan("unknown_metric", "headcount", tickers=["AAPL"], fiscal_years=[2024])
    plan = prose_fallback(refused, text, directory)
    assert plan is not None and plan.route == "domain" and plan.intent == "qualitative" and plan.tickers == ["AAPL"]
    assert plan.unless_named == {"reason": "unknown_metric", "detail": "headcount", "words": words,
                                 **({"count": count} if count else {})}
    assert plan.fiscal_years == [2024] and plan.query


@pytest.mark.parametrize("text, detail", [
    ("what is Apple's churn rate?", "churn rate"),  # a figure asked as a figure
    ("apple ebitda fy2024", "ebitda"),
    ("define adjusted margin as zorble over revenue: what does Apple say about it?", "zorble (in your formula)"),
])
def test_a_figure_asked_as_a_figure_or_a_users_formula_keeps_its_refusal(directory, text, detail):
    assert prose_fallback(refusal_plan("unknown_metric", detail, tickers=["AAPL"]), text, directory) is None


def test_the_planner_searches_a_filing_framed_unknown_figure_and_refuses_a_bare_one(directory):
    framed = plan_rules("what's Apple's headcount per the 10-K?", directory=directory)
    assert framed.intent == "qualitative" and framed.unless_named["count"] == list(PEOPLE)
    bare = plan_rules("what is Apple's churn rate?", directory=directory)
    assert bare.route == "refusal" and bare.refusal_reason == "unknown_metric"


def test_the_words_a_passage_must_name_are_the_figures_own():
    assert named_words("revenue (covid testing off) (members reported: Analytical Instruments)", {"thermo"}) == \
        ["revenue", "covid", "testing", "off"]
    assert named_words("Apple's state aid charge", {"apple", "aapl", "inc"}) == ["state", "aid", "charge"]


def test_a_passage_names_a_figure_when_one_sentence_says_every_word_in_any_form():
    text = "Sales rose. The provision included a one-time charge related to a European state aid decision."
    assert names_all(text, ["state", "aid", "charges"])
    assert names_all("PepsiCo employed approximately 318,000 people.", ["people", "employ"])
    assert not names_all("A state decision. An aid package. A charge.", ["state", "aid", "charge"])  # not one sentence
    assert not names_all(text, ["state", "aid", "backlog"])


@pytest.mark.parametrize("text, asks", [
    ("why did Apple's zorble rise?", True),
    ("what does the 10-K say about Apple's zorble?", True),
    ("how did Apple's zorble do in 2024?", True),
    ("how dependent is Apple on zorble?", True),
    ("what is Apple's zorble?", False),
    ("apple zorble 2024", False),
    ("how much zorble did Apple report?", False),
])
def test_which_forms_ask_in_words(text, asks):
    assert asks_filing_words(text.lower()) is asks


def test_a_line_no_filing_prints_asked_of_the_filing_is_quoted_when_its_prose_names_it(offline_footnote):
    # the fixture's MD&A tells of a one-time charge for a European state aid decision; no statement row names
    # it, so the line lookup finds nothing and the turn goes back through fetch as a prose search
    answer = thread_of(offline_footnote)("what's Apple's state aid charge per the 10-K?")
    assert answer.kind == "answer", answer.text
    assert answer.plan["intent"] == "qualitative" and answer.plan["unless_named"]["words"] == ["aid", "charge"]
    assert any("state aid" in (c.quote or "") and c.item == "7" for c in answer.citations)


def test_a_figure_no_passage_names_keeps_its_refusal(offline_footnote):
    ask = thread_of(offline_footnote)
    answer = ask("what's Apple's zorble backlog per the 10-K?")
    assert answer.kind == "refusal" and answer.refusal_reason == "unknown_metric", answer.text
    figure = ask("what was Apple's state aid charge in fiscal 2024?")  # asked as a figure: no prose search
    assert figure.kind == "refusal" and figure.refusal_reason == "unknown_metric", figure.text


@pytest.mark.parametrize("text, detail, words", [
    # a topic: the name's head is no amount's, so every word of it must be named
    ("what about the zorble recall?", "zorble recall", ["zorble", "recall"]),
    # an event's effect: the event's words, not the figure word beside them
    ("what did the zorble strike cost them", "zorble strike cost", ["zorble", "strike"]),
    # a figure's change qualified by words no figure has: those words
    ("apple zorble sales drop", "zorble sales drop", ["zorble"]),
    ("whether apple's big ticket sales are weak", "whether big ticket sales weak", ["big", "ticket", "sales", "weak"]),
])
def test_a_name_that_is_no_figure_is_searched_in_prose_and_refused_unless_a_passage_names_it(directory, text, detail,
                                                                                             words):
    refused = refusal_plan("unknown_metric", detail, tickers=["AAPL"])
    plan = prose_fallback(refused, text, directory)
    assert plan is not None and plan.intent == "qualitative"
    assert plan.unless_named == {"reason": "unknown_metric", "detail": detail, "words": words}


@pytest.mark.parametrize("text, detail", [
    ("apple units shipped 2024", "units shipped"),  # a figure's name, whose head is an amount's word
    ("apple revenue drop", "revenue drop"),  # a change of a figure and nothing to narrow it: the figure's question
])
def test_a_figure_name_without_a_form_asking_in_words_keeps_its_refusal(directory, text, detail):
    assert prose_fallback(refusal_plan("unknown_metric", detail, tickers=["AAPL"]), text, directory) is None


@pytest.mark.parametrize("text, detail, count", [
    ("how many zorble units did apple ship", "zorble units", ["zorble units"]),
    ("what is apple's zorble count", "zorble count", ["zorble"]),
])
def test_a_count_keeps_its_refusal_unless_the_companys_own_sentence_states_it(directory, text, detail, count):
    plan = prose_fallback(refusal_plan("unknown_metric", detail, tickers=["AAPL"]), text, directory)
    assert plan is not None and plan.unless_named == {"reason": "unknown_metric", "detail": detail, "words": [],
                                                      "count": count}


def test_a_topic_asked_as_an_amount_keeps_its_refusal(directory):
    assert topic_words(["zorble", "recall"], "how much was the zorble recall") == ["zorble", "recall"]  # an event
    assert topic_words(["zorble", "widgets"], "how many zorble widgets did apple make") == []
    assert topic_words(["volume"], "frito-lay volume trends", {"word": "Frito-Lay"}) == ["volume"]
    assert topic_words(["sales"], "frito-lay sales trends", {"word": "Frito-Lay"}) == ["frito-lay"]


def test_a_short_stem_is_no_other_words_stem():
    assert not names_all("The Company repurchased shares and paid dividends.", ["paid", "sharing"])
    assert names_all("Paid sharing lifted membership.", ["paid", "sharing"])
    assert names_all("Big-ticket sales were weaker.", ["big", "ticket", "weak"])


@pytest.mark.parametrize("text", [
    "is apple's revenue growing because of zorble?",
    "did apple's sales fall due to the zorble strike?",
    "how is apple thinking about zorble levels",
])
def test_a_cause_named_by_the_asker_or_a_view_asked_for_asks_in_words(text):
    assert asks_filing_words(text, wider=True)


def test_a_yes_no_question_after_a_figure_is_searched_for_the_figures_words(directory):
    refused = refusal_plan("unknown_metric", "zorble levels healthy", tickers=["AAPL"])
    plan = prose_fallback(refused, "apple zorble levels - are they healthy now?", directory)
    assert plan is not None and plan.unless_named["words"] == ["zorble", "levels"]
    assert yes_no_clause("apple zorble levels - are they healthy now?") == "are they healthy now"
    assert yes_no_clause("apple gross margin - is it above 40%?") is None  # an amount checked: the figure's
    assert yes_no_clause("is apple's zorble healthy?") is None  # one question: judged as a whole


def test_a_cause_put_as_blame_asks_in_words_and_a_hyphen_is_no_word_break():
    assert asks_filing_words("is the console cycle to blame", wider=True)
    assert names_all("We recorded inventory write-downs on EVs.", ["inventory", "writedown"])


@pytest.mark.parametrize("text, detail, words", [
    # a later clause asks: the name's words outside it must be named
    ("apple's zorble capex - how are they justifying it", "zorble capex justifying", ["zorble", "capex"]),
    ("apple zorble pile what are they doing with it", "zorble pile doing", []),  # the company's conduct asked
])
def test_a_clause_asking_how_the_company_acts_is_searched_in_prose(directory, text, detail, words):
    plan = prose_fallback(refusal_plan("unknown_metric", detail, tickers=["AAPL"]), text, directory)
    assert plan is not None and plan.unless_named["words"] == words


@pytest.mark.parametrize("text, detail", [
    # a segment the filing does not report: refused listing the members it has, never searched in prose
    ("apple zorble revenue drop", "zorble revenue drop (members reported: iPhone, Mac)"),
    ("is apple's zorble revenue growing because of ai?", "revenue (zorble because ai) (members reported: iPhone)"),
    # another company named beside the figure, or a lone word that may be a name: never the thread company's prose
    ("what about the Microsoft recall?", "microsoft recall"),
    ("what about rivian?", "rivian"),
])
def test_a_missing_member_or_another_company_keeps_its_refusal(directory, text, detail):
    assert prose_fallback(refusal_plan("unknown_metric", detail, tickers=["AAPL"]), text, directory) is None
