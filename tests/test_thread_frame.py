"""What a thread carries into a reply that leans on it: all of its companies ("add Tesla to that",
"which one made the least?"), the years it has shown ("growth between them?"), the figure behind a
transform ("as a share of revenue?" after a growth rate), the year a "than 2023" only measures
against, and, for prose, the kind of question ("what about X's decline?" after "what drove ...?"),
what a figure was spent on, and the part of the same discussion a "say more about ..." names.

Planner tests read the rules planner against a directory; the thread tests run the whole graph
over the fixture corpus (real Postgres, real LangGraph checkpoints)."""

from __future__ import annotations

import pytest

from agent.planning.followups import asks_use, figure_base, includes_company, leads_reply
from tests.conftest import thread_of


@pytest.fixture(scope="module")
def footnote(offline_footnote):
    return offline_footnote


@pytest.fixture(scope="module")
def directory():
    from agent.planning.companies import CompanyDirectory
    from tests.test_companies import COVERED, SEC

    return CompanyDirectory.from_rows(COVERED, SEC, {320193: [2023, 2024], 1045810: [2024, 2025],
                                                     1318605: [2023, 2024]})


def planned(directory, *texts):
    from agent.planning.rules import plan_rules

    previous = None
    for text in texts:
        previous = plan_rules(text, previous=previous, directory=directory)
    return previous


# --- companies

@pytest.mark.parametrize("reply", ["add Nvidia to that", "include Nvidia too", "throw in Nvidia",
                                   "now add Nvidia to the comparison", "ok, add Nvidia"])
def test_adding_a_company_asks_the_thread_s_question_of_both(directory, reply):
    p = planned(directory, "Apple net income 2024", reply)
    assert p.route == "domain" and sorted(p.tickers) == ["AAPL", "NVDA"], p
    assert p.metrics == ["net_income"] and p.fiscal_years == [2024], p


def test_adding_shapes():
    assert includes_company("add abbvie to that") and includes_company("throw in ford")
    assert includes_company("can you also include pepsi?")
    assert not includes_company("add")  # the verb alone adds nothing
    assert not includes_company("how much did acquisitions add to revenue?")  # a verb of the figure, not a reply


@pytest.mark.parametrize("reply", ["which one made the least?", "which is the smallest?", "which one made more?",
                                   "who earned the most?"])
def test_choosing_after_three_companies_is_among_all_three(directory, reply):
    p = planned(directory, "Net income in 2024 for Apple, Nvidia and Tesla", reply)
    assert p.route == "domain" and p.refusal_reason is None, p
    assert sorted(p.tickers) == ["AAPL", "NVDA", "TSLA"] and p.metrics == ["net_income"], p


def test_which_is_bigger_that_or_another_company_compares_both(directory):
    p = planned(directory, "Apple revenue 2023", "which is bigger, that or Tesla's 2023 revenue?")
    assert sorted(p.tickers) == ["AAPL", "TSLA"] and p.metrics == ["revenue"] and p.fiscal_years == [2023], p


# --- years and transforms

def test_growth_between_the_two_years_shown_is_the_later_year_s(directory):
    p = planned(directory, "Apple revenue fiscal 2024", "and fiscal 2023?", "growth between them?")
    assert p.metrics == ["revenue_growth"] and p.fiscal_years == [2024], p
    p = planned(directory, "Apple revenue fiscal 2023", "and fiscal 2024?", "what's the growth rate?")
    assert p.metrics == ["revenue_growth"] and p.fiscal_years == [2024], p


def test_a_share_of_revenue_after_a_growth_rate_is_the_figure_s_share(directory):
    p = planned(directory, "Apple R&D 2024", "what's the growth rate?", "as a share of revenue?")
    assert p.metrics == ["rd_pct_revenue"] and p.tickers == ["AAPL"] and p.fiscal_years == [2024], p
    assert figure_base("rd_growth") == "rd" and figure_base("rd_pct_revenue") == "rd_pct_revenue"


def test_why_lower_than_a_year_keeps_the_thread_s_year(directory):
    p = planned(directory, "Tesla net income 2024", "why was it lower than 2023?")
    assert p.intent == "qualitative" and p.fiscal_years == [2024] and p.metrics == ["net_income"], p
    p = planned(directory, "why was Tesla's net income lower in 2023?")
    assert p.fiscal_years == [2023], p  # no thread: the year named is the year asked


# --- prose

def test_a_cause_handed_to_another_company_asks_the_same_why(directory):
    first = planned(directory, "What drove Tesla's automotive revenue decline in 2024?")
    assert first.intent == "qualitative" and first.asks_cause, first
    p = planned(directory, "What drove Tesla's automotive revenue decline in 2024?",
                "what about Apple's 2023 revenue decline?")
    assert p.intent == "qualitative" and p.tickers == ["AAPL"] and p.items[0] == "7", p
    assert p.fiscal_years == [2023] and not any(k.endswith("_growth") for k in p.metrics), p
    p = planned(directory, "What drove Tesla's automotive revenue decline in 2024?",
                "what about Apple's 2023 revenue growth rate?")
    assert p.intent == "derived" and p.metrics == ["revenue_growth"], p  # a figure asked for stays a figure
    assert leads_reply("what about intel's 2023 revenue decline?") and not leads_reply("why did intel's revenue fall?")


def test_what_a_figure_was_spent_on_is_its_discussion(directory):
    p = planned(directory, "Tesla capex 2024", "what were they spent on?")
    assert p.intent == "qualitative" and p.metrics == ["capex"] and p.items[0] == "7", p
    assert p.tickers == ["TSLA"] and p.fiscal_years == [2024], p
    assert asks_use("where did the money go?") and asks_use("what was it used for?")
    assert not asks_use("how much did they spend?")


def test_say_more_about_a_part_stays_in_the_same_discussion(directory):
    p = planned(directory, "Tesla revenue 2024", "why did it go up?", "say more about the energy part")
    assert p.intent == "qualitative" and p.items[0] == "7" and p.tickers == ["TSLA"], p
    assert "energy" in p.topic and "revenue" in p.topic, p


def test_expectations_after_a_figure_are_searched_with_it(directory):
    p = planned(directory, "Tesla capex 2024", "and what do they expect next year?")
    assert p.intent == "qualitative" and p.tickers == ["TSLA"], p
    assert "capital" in p.query.lower() or "capex" in p.query.lower(), p


# --- through the graph

def test_add_a_company_then_choose_answers_both_with_their_figures(footnote):
    ask = thread_of(footnote)
    assert ask("Apple revenue fiscal 2024").kind == "answer"
    both = ask("add Nvidia to that")
    assert both.kind == "answer", both.text
    assert sorted({n.ticker for n in both.numbers}) == ["AAPL", "NVDA"], both.numbers
    chosen = ask("which one made the least?")
    assert chosen.kind == "answer", chosen.text
    assert sorted({n.ticker for n in chosen.numbers}) == ["AAPL", "NVDA"], chosen.numbers


def test_growth_between_two_years_through_the_checkpoint(footnote):
    ask = thread_of(footnote)
    ask("Apple revenue fiscal 2024")
    ask("and fiscal 2023?")
    growth = ask("growth between them?")
    assert growth.kind == "answer", growth.text
    assert growth.plan["metrics"] == ["revenue_growth"] and growth.plan["fiscal_years"] == [2024], growth.plan
    assert growth.calculation and growth.calculation[0].result == "2.0%", growth.calculation


# --- replies that only point at the thread

def test_side_by_side_is_the_thread_s_companies(directory):
    p = planned(directory, "Apple revenue 2024", "and Nvidia?", "put them side by side")
    assert sorted(p.tickers) == ["AAPL", "NVDA"] and p.metrics == ["revenue"], p


def test_up_or_down_from_the_prior_year_is_the_figure_s_growth(directory):
    p = planned(directory, "Tesla revenue 2024", "is that up or down from the prior year?")
    assert p.route == "domain" and p.metrics == ["revenue_growth"] and p.fiscal_years == [2024], p
    p = planned(directory, "Tesla revenue 2024", "is it trending up or down?")
    assert p.intent == "trend" and len(p.fiscal_years) == 3, p  # a direction with no base: a trend


def test_the_one_before_is_the_year_before(directory):
    p = planned(directory, "Tesla revenue 2024", "and the one before?")
    assert p.route == "domain" and p.metrics == ["revenue"] and p.fiscal_years == [2023], p


def test_what_they_do_about_a_figure_is_its_discussion_not_a_line(directory):
    p = planned(directory, "Tesla net income 2024", "what are they doing about it?")
    assert p.intent == "qualitative" and p.items[0] == "7" and p.metrics == ["net_income"], p
    assert not any(k.startswith("line:") for k in p.metrics), p


def test_the_same_thing_for_another_company_is_the_thread_s_topic(directory):
    p = planned(directory, "What does Nvidia say about export controls?", "does Apple mention the same thing?")
    assert p.intent == "qualitative" and p.tickers == ["AAPL"] and "export" in p.topic, p


def test_plans_for_a_named_year_after_a_figure_are_searched_with_it(directory):
    p = planned(directory, "Tesla capex 2024", "why so high?", "what do they plan for 2025?")
    assert p.intent == "qualitative" and p.tickers == ["TSLA"], p
    assert "capital" in p.query.lower() or "capex" in p.query.lower(), p


def test_a_refused_figure_leaves_the_shown_figures_to_choose_among(footnote):
    ask = thread_of(footnote)
    assert ask("Apple and Nvidia revenue fiscal 2024").kind == "answer"
    refused = ask("which one had the biggest flurble?")
    assert refused.kind == "refusal" and refused.refusal_reason == "unknown_metric", refused.text
    chosen = ask("which one made more?")
    assert chosen.kind == "answer", chosen.text
    assert chosen.plan["metrics"] == ["revenue"] and sorted(chosen.plan["tickers"]) == ["AAPL", "NVDA"], chosen.plan


def test_a_sibling_reply_searches_the_thread_s_subject_not_the_last_reply_s_words(directory):
    p = planned(directory, "What does Tesla say about the Cybertruck recall?", "how much did it cost?",
                "and how many vehicles were affected?")
    assert p.intent == "qualitative" and p.tickers == ["TSLA"], p
    assert "recall" in p.topic and "vehicles" in p.topic and "cost" not in p.topic, p
    # a reply that drills into the last answer keeps its words
    p = planned(directory, "What does Tesla say about the Cybertruck recall?", "how much did it cost?",
                "why did it cost that much?")
    assert "cost" in p.topic and "recall" in p.topic, p
