"""What is asked decides the route: a figure, the filing's prose, or a refusal, and which Items are read.

- The kinds of what the business earns ("what types of revenue", "its main revenue streams"), how
  the business earns it ("how does Visa generate revenue?") or what of it is at risk ("how much revenue is
  at risk from export controls?") are asked in words: the filing's prose, never an unknown line nor the
  company's total. Such a search must quote a sentence naming the figure, else it says nothing answered.
  The kinds of a balance ("which kinds of debt") stay a figure question: "debt securities" held would answer.
- The words a question is put in ("projections", "expects") are never words a passage must say.
- An effect on the company asked in the future tense ("what will be the effect of tariffs on Walmart's
  costs?"), what a figure will be used for, or an outlook said to be management's are the filing's
  statements; a figure or a stock price Footnote is asked to predict stays refused.
- "explain how X earns money" is a description (the business, then MD&A), unlike "explain the decline";
  risks asked for beside a market-risk topic read the risk factors as well as Item 7A.
- A capitalised word after a model number beside a covered company ("Boeing's 737 MAX") is its product,
  whatever registrant's ticker it spells; a brand of several words typed in lowercase ("frito-lay") is
  read again as the name it is.
"""

from __future__ import annotations

import pytest

from agent.planning.brands import brands_from
from agent.planning.companies import CompanyDirectory
from agent.planning.exemplars import meaning_from
from agent.planning.rules import plan_rules
from tests.test_companies import COVERED, SEC

PEP = 77476
UNCOVERED = [("MAX", 1637207, "MediaAlpha, Inc.")]


@pytest.fixture(scope="module")
def directory() -> CompanyDirectory:
    return CompanyDirectory.from_rows(COVERED, SEC + UNCOVERED,
                                      {104169: [2024, 2025], 12927: [2023, 2024], 1403161: [2024],
                                       1045810: [2024, 2025], 320193: [2024], PEP: [2023]})


@pytest.fixture(autouse=True, scope="module")
def _judged_by_meaning(embedder):
    with meaning_from(embedder):
        yield


def plan(directory, text):
    return plan_rules(text, directory=directory)


def prose(p) -> bool:
    return p.route == "domain" and p.intent == "qualitative" and not p.metrics


@pytest.mark.parametrize("text, ticker", [
    ("what types of revenue does Visa have?", "V"),
    ("which sources of revenue does Visa have?", "V"),
    ("what are Walmart's main revenue streams?", "WMT"),
    ("how does Visa generate revenue?", "V"),
])
def test_the_kinds_of_a_figure_or_how_it_is_earned_is_the_business_description(directory, text, ticker):
    p = plan(directory, text)
    assert prose(p) and p.tickers == [ticker], (p.route, p.intent, p.refusal_reason, p.metrics)
    assert p.items[:2] == ["1", "7"], p.items
    # a quoted sentence must name the figure, else nothing answered it: never a sentence about something else
    assert p.unless_named and p.unless_named["reason"] == "no_grounding" and p.unless_named["words"], p.unless_named


def test_what_of_a_figure_is_at_risk_is_read_in_the_risk_factors(directory):
    p = plan(directory, "how much revenue is at risk from export controls at Nvidia?")
    assert prose(p) and p.tickers == ["NVDA"], (p.route, p.refusal_reason, p.metrics)
    assert p.items[0] == "1A", p.items
    assert "revenue" in p.unless_named["words"] and "risk" not in p.unless_named["words"], p.unless_named


def test_the_kinds_of_a_balance_stay_a_figure_question(directory):
    # "debt securities" and "cash equivalents" are what the company holds: its prose would answer another question
    p = plan(directory, "which kinds of debt does Boeing carry?")
    assert not prose(p), (p.route, p.intent, p.items)


@pytest.mark.parametrize("text", [
    "what was Visa's revenue in fiscal 2024?",
    "how much revenue did Nvidia report in fiscal 2025?",
    "Boeing long-term debt 2024",
])
def test_an_amount_asked_stays_a_figure(directory, text):
    p = plan(directory, text)
    assert p.route == "domain" and p.intent != "qualitative" and p.metrics, (p.route, p.intent, p.metrics)


def test_the_words_a_question_is_put_in_are_not_its_subject(directory):
    p = plan(directory, "what are Visa's projections for cross-border volume?")
    if p.unless_named:  # searched in prose for want of a figure of that name
        assert "projections" not in p.unless_named["words"], p.unless_named
    assert p.route == "domain", (p.route, p.refusal_reason)


@pytest.mark.parametrize("text, ticker", [
    ("what will be the effect of the new tariffs on Walmart's costs?", "WMT"),
    ("what will be the impact of interest rates on Visa?", "V"),
    ("what will Boeing's capex be used for?", "BA"),
    ("what's the forecast for Coca-Cola's bottler refranchising, per management?", "KO"),
])
def test_an_effect_on_the_company_or_its_stated_plan_is_no_forecast(directory, text, ticker):
    p = plan(directory, text)
    assert p.route == "domain" and p.tickers == [ticker], (p.route, p.refusal_reason, p.refusal_detail)


@pytest.mark.parametrize("text", [
    "what will Visa's revenue be next year?",
    "will Nvidia's stock go up next year?",
    "what will be the effect of the split on Apple's stock price?",
    "what do you predict the effect of tariffs on Walmart will be?",
])
def test_a_prediction_asked_of_footnote_stays_refused(directory, text):
    p = plan(directory, text)
    assert p.route == "refusal" and p.refusal_reason == "out_of_scope", (p.route, p.refusal_reason)


def test_explain_how_is_a_description_and_explain_a_change_is_a_cause(directory):
    how = plan(directory, "explain how Visa earns money from the interchange reimbursement fee")
    assert prose(how) and how.items[0] == "1", how.items
    why = plan(directory, "explain the decline in Walmart's operating margin in fiscal 2025")
    assert why.items and why.items[0] == "7", why.items


def test_risks_asked_beside_a_market_risk_topic_read_the_risk_factors_too(directory):
    risks = plan(directory, "what are Visa's main risks from foreign currency fluctuations?")
    assert {"7A", "1A"} <= set(risks.items), risks.items
    market = plan(directory, "what is Visa's foreign currency risk?")
    assert market.items == ["7A"], market.items


def test_a_name_after_a_model_number_is_the_companys_product(directory):
    p = plan(directory, "what liabilities could arise from Boeing's 737 MAX issues?")
    assert p.route == "domain" and p.tickers == ["BA"], (p.route, p.refusal_reason, p.refusal_detail)
    alone = plan(directory, "what does MAX say about its advertising partners?")
    assert alone.route == "refusal" and alone.refusal_reason == "not_covered", (alone.route, alone.refusal_reason)


def test_a_brand_of_several_words_typed_in_lowercase_is_its_makers(directory):
    mentions = {"frito-lay": [(PEP, 30)]}
    with brands_from(lambda phrase: mentions.get(phrase.lower(), [])):
        p = plan(directory, "what does frito-lay say about snack pricing?")
        unknown = plan(directory, "what does zorbo-flink say about snack pricing?")
    assert p.route == "domain" and p.tickers == ["PEP"], (p.route, p.refusal_reason, p.refusal_detail)
    assert unknown.route == "refusal" and unknown.refusal_reason == "no_company", (unknown.route, unknown.refusal_reason)


@pytest.mark.parametrize("text, detail", [
    ("how did GOOGL stock perform in 2024?", "stock prices"),
    ("how much did Apple's stock rise in 2024?", "stock prices"),
    ("what's Nvidia's pe multiple vs AMD?", "stock prices"),
    ("which analyst rates Walmart a buy?", "market trading data"),
    ("will Nvidia ever catch up to Apple in revenue?", "forecasts"),
])
def test_the_stocks_moves_ratings_and_races_asked_of_footnote_are_refused(directory, text, detail):
    p = plan(directory, text)
    assert p.route == "refusal" and p.refusal_reason == "out_of_scope" and p.refusal_detail.startswith(detail), \
        (p.route, p.refusal_reason, p.refusal_detail)


@pytest.mark.parametrize("text", [
    "why did Apple's diluted shares decline in fiscal 2024?",
    "what does Boeing say about its credit rating downgrade?",
    "how many shares did Apple repurchase in fiscal 2024?",
])
def test_share_counts_and_credit_ratings_stay_the_filings(directory, text):
    p = plan(directory, text)
    assert p.route == "domain", (p.route, p.refusal_reason, p.refusal_detail)


QUARTERS_ONLY_CO = (37996, "Ford Motor Co", ["F"])  # covered through its 10-Qs alone: no 10-K years held


@pytest.fixture(scope="module")
def with_quarters_only() -> CompanyDirectory:
    held = CompanyDirectory.from_rows(COVERED + [QUARTERS_ONLY_CO], SEC + [("F", 37996, "FORD MOTOR CO")],
                                      {12927: [2023, 2024]})
    held.quarters_only = frozenset({37996})
    return held


@pytest.mark.parametrize("text", [
    "Ford 10-K risk factors",
    "what did Ford's 2023 annual report say about EV losses?",
    "how did Ford's warranty costs affect results in 2023?",
])
def test_an_annual_report_asked_of_a_company_held_in_10qs_only_is_not_covered(with_quarters_only, text):
    p = plan(with_quarters_only, text)
    assert p.route == "refusal" and p.refusal_reason == "not_covered" and p.refusal_detail.startswith("quarters only"), \
        (p.route, p.refusal_reason, p.refusal_detail)


@pytest.mark.parametrize("text, ticker", [
    ("what does Ford say about EV demand?", "F"),  # its latest 10-Q says
    ("what did Ford's Q2 2023 10-Q say about warranty costs?", "F"),
    ("Boeing 10-K risk factors", "BA"),  # a 10-K held
])
def test_what_the_held_filings_say_is_still_answered(with_quarters_only, text, ticker):
    p = plan(with_quarters_only, text)
    assert p.route == "domain" and p.tickers == [ticker], (p.route, p.refusal_reason, p.refusal_detail)


def test_a_possessives_owner_typed_in_lowercase_is_the_company(with_quarters_only):
    # "ford" is an everyday word, a name only when written as one; owning "EV losses", it is written as one
    p = plan(with_quarters_only, "what does ford's latest filing say about EV losses?")
    assert p.route == "domain" and p.tickers == ["F"], (p.route, p.refusal_reason, p.refusal_detail)


@pytest.mark.parametrize("text, ticker", [
    ("What is the nature and purpose of Boeing's restructuring charge?", "BA"),
    ("What was the nature of Walmart's goodwill impairment?", "WMT"),
])
def test_what_a_charge_is_asked_by_a_noun_of_description_is_prose(directory, text, ticker):
    p = plan(directory, text)
    assert prose(p) and p.tickers == [ticker], (p.route, p.refusal_reason, p.metrics)


def test_the_store_tells_which_companies_are_held_through_10qs_alone(db):
    with db.connection() as conn:
        conn.execute("INSERT INTO companies (cik, name, tickers) VALUES (320193, 'Apple Inc.', '{AAPL}'), "
                     "(37996, 'Ford Motor Co', '{F}')")
        conn.execute(
            "INSERT INTO filings (accession, cik, form, fiscal_year, period_end, url, content_hash) VALUES "
            "('0000320193-24-000123', 320193, '10-K', 2024, '2024-09-28', 'u', 'h'), "
            "('0000320193-23-000077', 320193, '10-Q', 2023, '2023-07-01', 'u', 'h'), "
            "('0000037996-23-000040', 37996, '10-Q', 2023, '2023-06-30', 'u', 'h')")
        held = CompanyDirectory.load(conn)
    assert held.quarters_only == frozenset({37996})
    p = plan(held, "Ford 10-K risk factors")
    assert p.route == "refusal" and p.refusal_reason == "not_covered", (p.route, p.refusal_reason)
    assert plan(held, "Apple 10-K risk factors").route == "domain"


def test_an_effect_asked_in_a_thread_is_on_the_threads_company_and_of_its_subject(directory):
    first = plan(directory, "what does Walmart say about tariffs?")
    p = plan_rules("what will the impact be on margins?", previous=first, directory=directory)
    assert p.route == "domain" and p.tickers == ["WMT"], (p.route, p.refusal_reason, p.refusal_detail)
    assert "tariffs" in p.query, p.query  # the effect of what the thread is about
    stock = plan_rules("what will the impact be on the stock price?", previous=first, directory=directory)
    assert stock.route == "refusal" and stock.refusal_reason == "out_of_scope", (stock.route, stock.refusal_reason)


def test_an_effect_asked_in_the_future_must_find_its_cause_named(directory):
    p = plan(directory, "what will be the effect of the new tariffs on Walmart's costs?")
    assert p.unless_named == {"reason": "no_grounding", "detail": None, "words": ["tariffs"]}, p.unless_named
    past = plan(directory, "what was the effect of the strike on Boeing's deliveries in 2024?")
    assert past.unless_named is None  # what happened is searched as before
