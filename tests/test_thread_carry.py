"""A follow-up carries the whole thread: every company and year it showed, the figure it is about, and
the question it last asked. Each test is one way a reply used to lose part of it: a risk question read as
the figure's cause, "same for X" after a why answered with the figure instead, a share of revenue asked
again refused as a share of a share, "minus capex?" looked up as a line, "that year" overruled by each
company's own year, the thread's companies named again answered at their latest filings.

Planner tests read the rules planner against the test directory (agent.planning.rules); the thread test
runs the whole graph over the fixture corpus (real Postgres, real checkpoints)."""

from __future__ import annotations

import pytest

from agent.planning.followups import asks_use, back_to_figure, own_subject
from tests.conftest import thread_of
from tests.test_thread_frame import directory, planned  # noqa: F401 (its fixtures, shared)


# --- prose after a figure

def test_risks_they_mention_after_a_why_are_the_risk_factors_not_the_figure_s_cause(directory):
    p = planned(directory, "Tesla revenue 2024", "what drove that?", "and what risks do they mention?")
    assert p.intent == "qualitative" and p.tickers == ["TSLA"], p
    assert p.items[0] == "1A" and not p.asks_cause, p.items
    # pointing at the figure ("any risks there?") still asks what weighs on it, MD&A first
    there = planned(directory, "Tesla revenue 2024", "what drove that?", "any risks there?")
    assert there.intent == "qualitative" and there.items[0] == "7", there


def test_same_for_a_year_after_a_why_asks_the_why_again_while_a_bare_year_goes_back_to_the_figure(directory):
    figure = planned(directory, "Tesla revenue 2024")
    why = planned(directory, "Tesla revenue 2024", "why?")
    assert why.intent == "qualitative"
    assert back_to_figure("same for 2023", why, figure) is None
    assert back_to_figure("do the same for 2023", why, figure) is None
    assert back_to_figure("and in 2023?", why, figure) is not None  # the figure, two turns back


@pytest.mark.parametrize("reply", ["what are they spending it on?", "what was the money spent on?",
                                   "what were they spent on?"])
def test_what_a_figure_was_spent_on_is_read_with_an_object_between(reply):
    assert asks_use(reply)


def test_evaluative_and_group_words_are_no_search_topic():
    assert "low" not in own_subject("why was abbvie's so low?")
    assert "both" not in own_subject("why did both fall?")
    assert own_subject("why did the data center business fall?")  # a subject of its own stays


# --- figures over the thread

def test_a_share_of_revenue_asked_again_keeps_the_thread_s_share(directory):
    p = planned(directory, "Apple R&D 2024", "as % of revenue", "same for Tesla",
                "which spends more relative to sales?")
    assert p.route == "domain", p.refusal_detail
    assert p.metrics == ["rd_pct_revenue"] and set(p.tickers) == {"AAPL", "TSLA"}, p


def test_which_shrank_more_is_the_growth_of_the_thread_s_figure(directory):
    p = planned(directory, "Apple and Tesla revenue 2024", "which of the two shrank more?")
    assert p.route == "domain", p.refusal_detail
    assert p.metrics == ["revenue_growth"] and set(p.tickers) == {"AAPL", "TSLA"}, p


@pytest.mark.parametrize("reply", ["minus capex?", "now subtract capex for each", "less capital expenditures?"])
def test_minus_another_figure_is_the_thread_s_figure_less_it_for_all_its_companies(directory, reply):
    p = planned(directory, "Apple and Tesla operating cash flow 2023", reply)
    assert p.route == "domain", (reply, p.refusal_reason, p.refusal_detail)
    assert set(p.tickers) == {"AAPL", "TSLA"} and p.fiscal_years == [2023], p
    assert len(p.metrics) == 1 and p.metrics[0].startswith("udf:"), p.metrics
    assert not any(k.startswith("line:") for k in p.metrics)  # never a printed line named "minus capex"


@pytest.fixture(scope="module")
def footnote(offline_footnote):
    return offline_footnote


def test_that_year_puts_every_company_at_the_year_the_thread_last_answered_for(footnote):
    ask = thread_of(footnote)
    assert ask("Apple revenue fiscal 2024").kind == "answer"
    assert ask("and Tesla in 2023?").kind == "answer"
    bigger = ask("which was bigger that year, Apple or Tesla?")
    assert bigger.kind == "answer", bigger.text
    shown = {(n.ticker, n.fiscal_year) for n in bigger.numbers}
    assert ("AAPL", 2023) in shown and ("TSLA", 2023) in shown, shown
    assert ("AAPL", 2024) not in shown, shown  # never Apple at the year it was first asked for


def test_the_thread_s_companies_named_again_are_asked_at_the_thread_s_year(directory):
    p = planned(directory, "Apple net income 2023", "and Tesla?", "net margin for Apple and Tesla?")
    assert set(p.tickers) == {"AAPL", "TSLA"} and p.fiscal_years == [2023] and not p.latest, p


def test_a_word_written_as_no_name_after_a_prose_answer_is_the_next_topic_never_a_company(directory):
    p = planned(directory, "What does Apple say about pricing?", "and eCommerce?")
    assert p.route == "domain" and p.intent == "qualitative" and p.tickers == ["AAPL"], (p.refusal_reason, p)
    assert "ecommerce" in p.query.lower(), p.query
    # a word written as a name, or that may be one typed in lower case, is still a company asked about,
    # and refused as one: never answered for the thread's company
    for reply in ("what about Zorblax?", "what about zorblax?", "and zorblax?"):
        named = planned(directory, "What does Apple say about pricing?", reply)
        assert named.route == "refusal" and named.refusal_reason == "no_company", (reply, named)


@pytest.mark.parametrize("reply, metric", [("which one earned more?", "revenue"), ("rank them", "revenue"),
                                           ("which of the two shrank more?", "revenue_growth")])
def test_a_choice_among_the_thread_s_companies_after_a_prose_answer_is_about_the_figure(directory, reply, metric):
    p = planned(directory, "Apple and Tesla revenue 2024", "why did they change?", reply)
    assert p.intent == "compare" and set(p.tickers) == {"AAPL", "TSLA"} and p.metrics == [metric], (reply, p)
