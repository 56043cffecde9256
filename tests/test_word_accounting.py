"""The plan accounts for every word: a word it cannot account for routes the question elsewhere or
ends in a refusal naming it, never in a true figure for another thing. Plan-level, against the
planner's own directory of test companies."""

from __future__ import annotations

import pytest

from agent.planning.quarters import month_phrase, parse_period
from agent.planning.scope import out_of_scope
from tests.test_figures import directory, plan  # noqa: F401 (its fixture and planner call, shared)


# --- a qualifier another step's pattern matches still narrows the metric ------------------------------


@pytest.mark.parametrize("text, broader", [
    ("Apple comparable operating margin 2024", "operating_margin"),  # "compar\w*" is also a comparison's word
    ("Walmart organic revenue growth fiscal 2025", "revenue_growth"),
    ("Nvidia income tax rate 2025", "income_tax"),  # "rate" is filler only beside a growth word
    ("Apple interest rate on its term debt 2024", "interest_expense"),
])
def test_a_narrowing_word_never_leaves_the_broader_metric_answered(directory, text, broader):
    p = plan(directory, text)
    assert broader not in p.metrics, p.metrics
    assert not any(w["as"] in ("filler", "other") for w in p.words
                   if w["word"] in ("comparable", "organic", "rate")), p.words


def test_a_noun_ending_in_er_is_no_comparative_filler(directory):
    """"Owner earnings" is another figure than net income ("owner" is no comparative of "own")."""
    assert "net_income" not in plan(directory, "Apple owner earnings 2024").metrics
    assert plan(directory, "which grew faster, Apple or Nvidia revenue in 2024").metrics == ["revenue_growth"]


def test_rate_beside_a_growth_word_is_still_the_growth_asked(directory):
    assert plan(directory, "Apple revenue growth rate 2024").metrics == ["revenue_growth"]
    assert plan(directory, "at what rate did Apple's revenue grow in 2024?").metrics == ["revenue_growth"]


def test_what_follows_net_of_or_excluding_is_never_the_row_answered(directory):
    """"revenue net of incentives": the leftover alone names what is taken out (a row "Client incentives"
    would fit it), so the lookup needs a row printed with the whole phrase."""
    p = plan(directory, "Apple revenue net of incentives 2024")
    lines = [k for k in p.metrics if k.startswith("line:")]
    assert lines and all(k[5:].split("|")[0].split() == ["revenue", "net", "incentives"] for k in lines), p.metrics
    assert "revenue" not in p.metrics


@pytest.mark.parametrize("text, place", [
    ("how much stock-based compensation was included in cost of revenue at Apple in 2024", "cost_of_revenue"),
    ("What was Apple's change in fair value recognized in net income in fiscal 2024?", "net_income"),
])
def test_a_metric_where_another_amount_was_booked_is_never_the_figure_answered(directory, text, place):
    p = plan(directory, text)
    assert not any(k == place or k.startswith(place + "_") for k in p.metrics), p.metrics


def test_a_one_digit_class_number_is_no_year_and_level_is_no_filler(directory):
    """"Level 3 assets" are a fair-value class, never total assets; the "3" is no period."""
    p = plan(directory, "Apple level 3 assets 2024")
    assert "total_assets" not in p.metrics, p.metrics
    assert plan(directory, "Apple revenue for the past 3 years").metrics == ["revenue"]


@pytest.mark.parametrize("text, metric", [("Apple revenue over 3 years", "revenue"),
                                          ("Apple net income over 2 years", "net_income")])
def test_over_a_number_of_years_is_a_span_never_a_division(directory, text, metric):
    p = plan(directory, text)
    assert p.metrics == [metric] and p.intent == "trend", (p.intent, p.metrics)


def test_over_an_amount_is_a_threshold_never_a_division(directory):
    assert plan(directory, "Apple net income over 10 billion 2024").metrics == ["net_income"]


def test_a_written_division_by_a_constant_is_still_a_formula(directory):
    assert plan(directory, "Apple revenue / 3").metrics == ["udf:revenue / 3"]


def test_a_subtracted_words_member_is_never_looked_up_for_the_figure():
    """The member route of a line no row names drops the metric's words: "revenue net of incentives"
    would be the member "Client incentives", the amount taken out."""
    from agent.retrieval.retrieve import _line_as_member

    assert _line_as_member("line:revenue net incentives|revenue net incentives|revenue net of incentives") is None
    assert _line_as_member("line:services|services revenue|services revenue") == "dim:revenue|services"


# --- periods the product does not answer as a fiscal year ------------------------------------------


def test_a_month_is_refused_naming_it_and_a_year_ended_in_a_month_is_that_year(directory):
    p = plan(directory, "What was Tesla's revenue in December 2024?")
    assert (p.route, p.refusal_reason) == ("refusal", "out_of_scope") and "december 2024" in p.refusal_detail
    assert plan(directory, "Tesla revenue for the fiscal year ending in December 2024").metrics == ["revenue"]
    assert plan(directory, "Tesla cash and cash equivalents at December 31, 2024").route == "domain"
    assert month_phrase("revenue in the June 2023 quarter") is None
    assert month_phrase("revenue for the month of March") == "the month of march"


@pytest.mark.parametrize("text", ["net income in the second half of fiscal 2024",
                                  "revenue for the last six months of fiscal 2024"])
def test_the_second_half_is_the_year_minus_its_first_six_months(text):
    period = parse_period(text).as_dict()
    assert (period["kind"], period["quarter"], period["months"], period["fiscal_year"]) == ("ytd", 0, 6, 2024)


# --- refusals name the first missing thing: the company before the metric ----------------------------


@pytest.mark.parametrize("text, name", [
    ("quillmark holdings adjusted ebitda 2023", "quillmark holdings"),
    ("adjusted ebitda of zentrova for 2023", "zentrova"),
    ("Vexoria Labs' adjusted EBITDA 2023", "Vexoria Labs"),
    ("pellucid comparable store sales 2023", "pellucid"),  # the narrowing word is the figure's, not the name's
])
def test_an_unknown_company_beside_an_unknown_metric_is_refused_as_the_company(directory, text, name):
    p = plan(directory, text)
    assert (p.refusal_reason, p.refusal_detail) == ("no_company", name)


def test_a_metric_alone_or_an_everyday_verb_is_no_company(directory):
    assert plan(directory, "adjusted ebitda for fy2023").refusal_reason == "unknown_metric"


def test_a_follow_up_names_the_whole_unknown_company(directory):
    first = plan(directory, "What was Apple's revenue in fiscal 2024?")
    p = plan(directory, "how about Brantley Dynamics's?", previous=first)
    assert (p.refusal_reason, p.refusal_detail) == ("no_company", "Brantley Dynamics")
    assert not p.tickers


# --- a decision to trade, however it asks for help, is advice ------------------------------------------


@pytest.mark.parametrize("text", ["help me decide whether to short unitedhealth",
                                  "can you help me pick between verizon and its rivals as an investment?"])
def test_help_deciding_a_trade_is_investment_advice(text):
    assert out_of_scope(text) == "investment advice"


def test_a_companys_own_decision_to_buy_is_no_advice():
    assert out_of_scope("how did apple decide whether to buy back stock") is None
    assert out_of_scope("why did the board decide whether to buy the business") is None


# --- a year the user named is never dropped ----------------------------------------------------------


@pytest.mark.parametrize("text, years, offsets", [
    ("apple revenue 2024 vs 1850", [1850, 2024], []),
    ("and the year 2100", [2100], []),
    ("apple revenue for 2024 and 2099", [2024, 2099], []),
    ("boeing revenue 500 years ago", [], [-500]),
    ("apple had 1500 employees in 2024", [2024], []),  # a count, not a year
    ("revenue of $1850 million in 2023", [2023], []),
    ("visa revenue 1980", [1980], []),  # before any filing, written bare where the year goes
    ("apple revenue 1992 vs 2024", [1992, 2024], []),
    ("apple had 1980 employees in 2024", [2024], []),  # a count
    ("apple revenue back in the 1980s", [1980], []),  # a decade no filing reaches
    ("apple revenue in the 2010s", list(range(2010, 2020)), []),
    ("apple revenue 200 years from now", [], [200]),  # after the latest year: refused, never the latest's
    ("apple revenue in three years' time", [], [3]),
    ("apple revenue two decades ago", [], [-20]),
    ("apple revenue a century ago", [], [-100]),
])
def test_a_year_no_filing_can_hold_is_kept_to_be_refused(text, years, offsets):
    from agent.planning.years import parse_years

    got = parse_years(text)
    assert (got.years, got.offsets) == (years, offsets)


def test_a_follow_up_naming_an_impossible_year_asks_for_that_year(directory):
    first = plan(directory, "Tesla net income 2024")
    p = plan(directory, "and the year 2100", previous=first)
    assert (p.route, p.tickers, p.fiscal_years) == ("domain", ["TSLA"], [2100])


# --- a request for help with a company is judged by its task, never META by its help words ---------------


@pytest.mark.parametrize("text", ["help me figure out if Nvidia is a buy", "can you help me value Tesla?",
                                  "help me build a DCF for Apple", "can you help me time my entry into Tesla?",
                                  "help me decide whether to short Apple"])
def test_help_with_a_trade_or_a_valuation_of_a_company_is_refused(directory, text):
    p = plan(directory, text)
    assert (p.route, p.refusal_reason) == ("refusal", "out_of_scope"), (p.route, p.intent)


def test_help_finding_a_figure_is_that_figure(directory):
    assert plan(directory, "help me find Apple's revenue for fiscal 2024").metrics == ["revenue"]
    assert plan(directory, "can you help me?").route == "meta"


# --- a measure the market prices is out of scope, never an unknown metric ------------------------------


@pytest.mark.parametrize("text, detail", [
    ("what's apple's beta?", "stock prices or market valuations"),
    ("nvidia forward p/e", "stock prices or market valuations"),
    ("tesla ev/ebitda 2024", "stock prices or market valuations"),
    ("apple enterprise value 2024", "stock prices or market valuations"),
    ("apple price to book ratio 2024", "stock prices or market valuations"),
    ("tesla's earnings surprise last quarter", "market trading data such as short interest, volume or analyst "
                                                "estimates (no filing reports it)"),
    ("apple's expected eps growth over the next five years", "forecasts or predictions"),
])
def test_a_market_priced_measure_is_refused_as_out_of_scope(text, detail):
    assert out_of_scope(text) == detail


def test_filed_measures_beside_those_words_stay_in_scope():
    assert out_of_scope("apple book value per share 2024") is None
    assert out_of_scope("tesla fsd beta revenue") is None
    assert out_of_scope("what was apple's expected long-term rate of return on plan assets") is None


def test_a_bare_count_is_a_figure_even_where_a_topic_routes_to_the_risk_factors(directory):
    """"units sold" routes to MD&A and the risk factors by default; a bare count asks for a figure (a row,
    or a refusal naming its words), never quoted sentences standing in for it."""
    p = plan(directory, "Apple iPhone units sold 2024")
    assert (p.intent, p.metrics[0].split("|")[0]) == ("numeric", "line:iphone units"), (p.intent, p.metrics)
    assert plan(directory, "iPhone units sold in Apple's risk factors 2024").intent == "qualitative"
