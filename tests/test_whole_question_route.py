"""A question is a figure question only when a figure reading accounts for what it asks: one asking a time, a
reason, what a company did or what a thing was about is searched in the filing's prose, whatever figure words
("sale", "taxes", "charge") it holds; a company's own outlook is its filing's statement, not a forecast asked of
Footnote; "latest" said in words is the year of the latest 10-K held."""

from __future__ import annotations

import pytest

from agent.planning.no_amount import asks_no_amount
from tests.test_plan_rules import directory, plan  # noqa: F401  (fixture)


@pytest.mark.parametrize("text, ticker, words", [
    ("walmart seiyu sale - what did they sell", "WMT", ["seiyu"]),
    # every word it asks of, but the transaction's own ("stake", "sale"), which the filing may word otherwise
    ("When will Walmart actually pay the taxes on its Seiyu stake sale?", "WMT", ["pay", "taxes", "seiyu"]),
    ("when does Nvidia's debt mature", "NVDA", ["debt", "mature"]),  # never a sentence of contracts maturing
    ("what was the Zorblax impairment charge about at pepsico", "PEP", ["zorblax", "impairment", "charge"]),
    ("why did Boeing's door plug costs rise", "BA", None),
])
def test_a_question_asking_no_amount_is_searched_in_prose(directory, text, ticker, words):  # noqa: F811
    p = plan(directory, text)
    assert p.route == "domain" and p.intent == "qualitative" and p.tickers == [ticker], p
    assert not p.probe, p.probe  # no row's amount answers a question asking no amount
    if words is not None:
        # a passage must name what the question is about, else nothing in the filing told it (no_grounding)
        assert p.unless_named["reason"] == "no_grounding" and p.unless_named["words"] == words, p.unless_named


@pytest.mark.parametrize("text", [
    "what did pepsico spend on advertising in 2023",  # an amount spent
    "Where did Walmart's operating income land in fiscal 2025?",  # where a figure landed: an amount
    "how much did GM pay in income taxes in 2023",
    "coca-cola revenue 2023",
])
def test_a_figure_asked_as_an_amount_stays_a_figure(directory, text):  # noqa: F811
    p = plan(directory, text)
    # a figure, or a row's figure tried before any passage (the probe), never a prose search alone
    assert p.route == "domain" and (p.intent in ("numeric", "derived", "compare") or p.probe), p


def test_the_form_read_clause_by_clause():
    assert asks_no_amount("company seiyu sale - what did they sell")
    assert asks_no_amount("what was the company impairment about")
    assert asks_no_amount("when will company pay the taxes on its hulu sale?")
    assert not asks_no_amount("what did company spend on advertising")
    assert not asks_no_amount("what did company cloud earn in 2024")  # a subject of two words, then its amount
    assert not asks_no_amount("what was company's revenue in 2023?")
    assert not asks_no_amount("where did company's operating income land?")


@pytest.mark.parametrize("text, ticker", [
    ("pep pension + retiree medical expense outlook for 2024?", "PEP"),  # a lowercase ticker, read once in scope
    ("PepsiCo pension expense outlook for 2024?", "PEP"),
    ("how long will boeing's 737-9 planes be grounded?", "BA"),
])
def test_the_company_own_outlook_is_its_filing_statement(directory, text, ticker):  # noqa: F811
    p = plan(directory, text)
    assert p.route == "domain" and p.intent == "qualitative" and p.tickers == [ticker], p


def test_an_outlook_is_answered_by_a_sentence_expecting_what_it_is_for(directory):  # noqa: F811
    p = plan(directory, "pep pension + retiree medical expense outlook for 2024?")
    assert p.unless_named == {"reason": "no_grounding", "detail": None,
                              "words": ["pension", "retiree", "medical", "expense", "expect"]}
    # an outlook of nothing named is no statement a filing makes of itself: refused as a forecast
    for text in ("wmt outlook for 2025", "Walmart outlook for 2025?"):
        p = plan(directory, text)
        assert p.route == "refusal" and p.refusal_reason == "out_of_scope", p


@pytest.mark.parametrize("text", [
    "what's the outlook for 2025?",  # no company's
    "what's your outlook for apple in 2025",  # Footnote's
    "analyst outlook for nvidia in 2026",
    "What will Apple's revenue be next year?",
    "what will nvidia earn next quarter?",
])
def test_a_forecast_asked_of_footnote_stays_refused(directory, text):  # noqa: F811
    p = plan(directory, text)
    assert p.route == "refusal" and p.refusal_reason == "out_of_scope", p


@pytest.mark.parametrize("text, year", [
    ("nvda revenue this year", 2025),
    ("what's walmart's latest annual revenue?", 2025),
    ("Apple most recent fiscal year net income", 2024),
])
def test_latest_said_is_the_latest_10k_year(directory, text, year):  # noqa: F811
    p = plan(directory, text)
    assert p.fiscal_years == [year] and not p.latest and not p.year_offsets, p


def test_no_year_said_is_still_the_latest_figures(directory):  # noqa: F811
    p = plan(directory, "walmart revenue")
    assert p.latest and not p.fiscal_years
    # "latest" with no year word: the most recent period held, which may be a quarter (agent.planning.quarters)
    p = plan(directory, "nvidia's latest revenue")
    assert p.latest and not p.fiscal_years and p.period and p.period["latest"], p


def test_a_calendar_year_is_a_year_phrase(directory):  # noqa: F811
    for text in ("ko revenue cy2023", "coca-cola revenue for calendar year 2023", "nvidia revenue in calendar 2023"):
        p = plan(directory, text)
        assert p.intent == "numeric" and p.metrics == ["revenue"] and p.fiscal_years == [2023], p


@pytest.mark.parametrize("text, ticker, words", [
    ("walmart seiyu sale", "WMT", ["seiyu"]),  # "sale" said once: a transaction, never the company's sales
    ("walmart seiyu stake sale proceeds", "WMT", ["seiyu", "stake", "proceeds"]),
])
def test_an_event_named_is_searched_in_prose_after_any_row_of_its_words(directory, text, ticker, words):  # noqa: F811
    p = plan(directory, text)
    assert p.route == "domain" and p.intent == "qualitative" and p.tickers == [ticker], p
    assert p.probe  # a row the company prints by those words still answers first
    assert p.unless_named["reason"] == "unknown_metric" and p.unless_named["words"] == words, p.unless_named


def test_sales_stay_the_company_sales(directory):  # noqa: F811
    p = plan(directory, "walmart sales 2024")
    assert p.intent == "numeric" and p.metrics == ["revenue"], p
