"""A figure follow-up is a change to the thread's whole last plan: what the reply names replaces its
slot, what it leaves out is the thread's (every company, the year it was walked to, the figure). A
reply typed in a hurry ("yr before?", "which was higer", "rnak them") or pointing back at the figure
("the same ratio for Tesla", "back to Apple") is read so, never as a line item of its own words.

Planner tests read the rules planner against a directory; the thread tests run the whole graph over
the fixture corpus (real Postgres, real LangGraph checkpoints)."""

from __future__ import annotations

import pytest

from agent.planning.plan import Plan
from agent.planning.reply_words import reply_spelled
from tests.conftest import thread_of
from tests.test_thread_frame import directory, footnote, planned  # noqa: F401 (its fixtures, shared)


FIGURE = Plan(route="domain", intent="numeric", tickers=["TSLA"], metrics=["revenue"], fiscal_years=[2024])


# --- the reply's words

@pytest.mark.parametrize("typed, read", [
    ("yr before?", "year before?"),
    ("which was higer", "which was higher"),
    ("grwoth?", "growth?"),
    ("rnak em", "rank them"),
    ("smae for 2023", "same for 2023"),
    ("cash from ops both?", "cash from operations both?"),
    ("as % of revenu?", "as % of revenue?"),
    ("and the same ratio for Apple", "and the same for Apple"),
    ("what was it back in 2019?", "what was it in 2019?"),
    ("did it change versus the one before?", "did it change versus the year before?"),
])
def test_a_reply_is_read_in_the_words_the_planner_knows(typed, read):
    assert reply_spelled(typed, FIGURE) == read


def test_only_a_reply_to_a_thread_is_rewritten_and_never_a_name():
    assert reply_spelled("which was higer", None) == "which was higer"  # no thread: the message as typed
    assert reply_spelled("what about Zentrix?", FIGURE) == "what about Zentrix?"  # a name no follow-up word is near
    assert reply_spelled("Acme revenue 2023", FIGURE) == "Acme revenue 2023"  # two letters changed, not swapped
    assert reply_spelled("and Rnak?", FIGURE) == "and Rnak?"  # capitalised inside the message: a name
    assert reply_spelled("Higer?", FIGURE) == "higher?"  # the message's first word is capitalised anyway
    assert reply_spelled("grwoth revenue?", FIGURE, lambda w: w == "grwoth") == "grwoth revenue?"  # a company's name
    assert reply_spelled("what about em dashes?", FIGURE) == "what about em dashes?"  # "em" only after a verb


# --- every company the thread holds

def test_a_bare_comparative_chooses_among_the_thread_s_companies(directory):
    p = planned(directory, "Tesla revenue 2024", "and Apple?", "higher?")
    assert sorted(p.tickers) == ["AAPL", "TSLA"] and p.metrics == ["revenue"] and p.fiscal_years == [2024], p


def test_for_each_is_every_company_of_the_thread(directory):
    p = planned(directory, "Apple revenue fiscal 2024", "and Nvidia?", "gross margin for each")
    assert sorted(p.tickers) == ["AAPL", "NVDA"] and p.metrics == ["gross_margin"], p


def test_relative_to_revenue_is_the_thread_figure_s_share_for_both(directory):
    p = planned(directory, "Apple R&D 2024", "and Tesla?", "who spent more relative to revenue?")
    assert sorted(p.tickers) == ["AAPL", "TSLA"] and p.metrics == ["rd_pct_revenue"], p


def test_the_same_ratio_for_another_company(directory):
    p = planned(directory, "Apple R&D 2024", "as a share of revenue?", "and the same ratio for Tesla?")
    assert p.tickers == ["TSLA"] and p.metrics == ["rd_pct_revenue"] and p.fiscal_years == [2024], p


# --- the year the thread walked to

def test_growth_that_year_is_the_walked_to_year(directory):
    p = planned(directory, "Tesla net income 2024", "and the year before that?", "how much did it grow that year?")
    assert p.metrics == ["net_income_change", "net_income_growth"] and p.fiscal_years == [2023], p
    # a bare figure after a growth question asks its growth (its answer shows both years' levels), that same year
    p = planned(directory, "Tesla net income 2024", "and the year before that?", "how much did it grow that year?",
                "and operating income?")
    assert p.metrics == ["operating_income_growth"] and p.fiscal_years == [2023], p


def test_growth_rate_alone_after_a_walk_back_is_still_the_later_year(directory):
    p = planned(directory, "Tesla net income 2024", "and the year before that?", "what's the growth rate?")
    assert p.metrics == ["net_income_growth"] and p.fiscal_years == [2024], p


def test_back_to_the_thread_s_company_keeps_its_year(directory):
    p = planned(directory, "Apple R&D 2024", "how about Zentrix Dynamics?", "back to Apple: gross profit?")
    assert p.route == "domain" and p.tickers == ["AAPL"] and p.metrics == ["gross_profit"], p
    assert p.fiscal_years == [2024], p


def test_back_in_a_year_is_that_year_not_a_line(directory):
    p = planned(directory, "Tesla revenue 2024", "and what was it back in 2019?")
    assert p.route == "domain" and p.metrics == ["revenue"] and p.fiscal_years == [2019], p


# --- through the graph and its checkpoints

def test_a_hurried_thread_answers_both_companies_through_the_checkpoint(footnote):
    ask = thread_of(footnote)
    assert ask("Tesla revenue 2024").kind == "answer"
    assert ask("and Apple?").kind == "answer"
    higher = ask("which was higer")
    assert higher.kind == "answer", higher.text
    assert sorted({n.ticker for n in higher.numbers}) == ["AAPL", "TSLA"], higher.numbers
    before = ask("yr before?")
    assert before.kind == "answer", before.text
    assert before.plan["fiscal_years"] == [2023] and sorted(before.plan["tickers"]) == ["AAPL", "TSLA"], before.plan
    assert {(n.ticker, n.fiscal_year) for n in before.numbers} >= {("AAPL", 2023), ("TSLA", 2023)}, before.numbers


def test_a_year_walk_then_growth_that_year_through_the_checkpoint(footnote):
    ask = thread_of(footnote)
    assert ask("Tesla revenue 2024").kind == "answer"
    assert ask("and the year before that?").plan["fiscal_years"] == [2023]
    grew = ask("growth that yr?")
    assert grew.plan["metrics"] == ["revenue_growth"] and grew.plan["fiscal_years"] == [2023], grew.plan


def test_after_a_refused_company_a_reply_is_about_the_thread_s_companies(footnote):
    ask = thread_of(footnote)
    assert ask("Apple revenue fiscal 2024").kind == "answer"
    refused = ask("what about Zentrix Dynamics?")
    assert refused.refusal_reason == "no_company", refused.text
    margin = ask("and the gross margin?")  # Apple's, never "which company?" nor Zentrix
    assert margin.kind == "answer" and margin.plan["tickers"] == ["AAPL"], margin.text
    assert margin.plan["metrics"] == ["gross_margin"] and margin.plan["fiscal_years"] == [2024], margin.plan
    assert ask("what about Netflix?").refusal_reason == "not_covered"
    before = ask("and the year before?")  # still Apple's gross margin, a year back, never Netflix's
    assert before.kind == "answer" and before.plan["tickers"] == ["AAPL"], before.text
    assert before.plan["fiscal_years"] == [2023], before.plan


def test_a_four_letter_name_missing_one_letter_of_a_covered_name(directory):
    p = planned(directory, "Aple revenue 2024")  # a letter dropped from "apple": Apple, a first question or a reply
    assert p.route == "domain" and p.tickers == ["AAPL"], p
    p = planned(directory, "Tesla revenue 2024", "and Aple?")
    assert p.tickers == ["AAPL"] and p.metrics == ["revenue"], p
    p = planned(directory, "Tesla revenue 2024", "and Tesa?")  # a letter dropped from "tesla"
    assert p.tickers == ["TSLA"], p
    p = planned(directory, "Tesla revenue 2024", "and Appe?")
    assert p.tickers == ["AAPL"], p
    assert planned(directory, "Tesla revenue 2024", "what about Zorb?").tickers != ["AAPL"]


# --- a share of revenue asked in other words, and one that cannot be given

def test_its_share_of_sales_and_ratio_to_revenue_are_the_thread_figure_s_share(directory):
    p = planned(directory, "Tesla operating income 2024", "and its share of sales?")
    assert p.metrics == ["operating_margin"] and p.tickers == ["TSLA"], p
    p = planned(directory, "Tesla R&D 2024", "ratio to revenue?")
    assert p.metrics == ["rd_pct_revenue"], p


def test_a_share_of_a_figure_with_no_share_is_refused_never_revenue(directory):
    p = planned(directory, "Tesla advertising expense 2024", "as a % of revenue?")
    assert p.route == "refusal" and p.refusal_reason == "unknown_metric" and "revenue" not in p.metrics, p
    assert "share of revenue" in (p.refusal_detail or ""), p


@pytest.mark.parametrize("first", ["Tesla diluted EPS 2024", "Tesla shares outstanding 2024"])
def test_a_share_of_revenue_of_a_figure_that_is_no_amount_is_refused(directory, first):
    # a per-share amount or a count over dollars of revenue is no figure: never "0.0%"
    p = planned(directory, first, "as a share of revenue?")
    assert p.route == "refusal" and p.refusal_reason == "unknown_metric" and not p.definitions, p


@pytest.mark.parametrize("typed, read", [
    ("wat about 2023", "what about 2023"),
    ("hw about the year before?", "how about the year before?"),
    ("and teh year before?", "and the year before?"),
    ("pct change?", "percent change?"),
    ("compare w/ Apple", "compare with Apple"),
    ("+ Apple", "and Apple"),
])
def test_chat_shorthand_in_a_reply(typed, read):
    assert reply_spelled(typed, FIGURE) == read


def test_shorthand_replies_plan_as_the_thread_s_figure(directory):
    p = planned(directory, "Apple net income 2024", "and Tesla?", "whos bigger")
    assert sorted(p.tickers) == ["AAPL", "TSLA"] and p.metrics == ["net_income"], p
    p = planned(directory, "Apple net income 2024", "and Tesla?", "wat about 2023")
    assert p.tickers == ["TSLA"] and p.fiscal_years == [2023] and p.metrics == ["net_income"], p


def test_a_company_instead_replaces_a_comparison_s_companies(directory):
    p = planned(directory, "Compare Apple and Nvidia revenue in fiscal 2024", "Tesla instead")
    assert p.tickers == ["TSLA"] and p.metrics == ["revenue"], p
    p = planned(directory, "Compare Apple and Nvidia revenue in fiscal 2024", "and Tesla?")  # added, as before
    assert sorted(p.tickers) == ["AAPL", "NVDA", "TSLA"], p


def test_the_year_before_for_companies_on_different_latest_years(footnote):
    ask = thread_of(footnote)
    nvidia = ask("Nvidia revenue")  # its latest fiscal year
    tesla = ask("and Tesla?")  # Tesla's own latest, a different fiscal year
    both = ask("which was higher?")
    assert both.kind == "answer", both.text
    latest = {n.ticker: n.fiscal_year for n in both.numbers}
    assert latest == {"NVDA": nvidia.numbers[0].fiscal_year, "TSLA": tesla.numbers[0].fiscal_year}, both.numbers
    assert latest["NVDA"] != latest["TSLA"], latest  # the case under test
    before = ask("and the year before?")  # each company's year before its own, both answered
    assert before.kind == "answer", before.text
    assert {(n.ticker, n.fiscal_year) for n in before.numbers} >= {("NVDA", latest["NVDA"] - 1),
                                                                 ("TSLA", latest["TSLA"] - 1)}, before.numbers
