"""What a filing states is answered from it, whoever it is asked of and however the company is named;
Footnote's own view of a stock is refused. A figure's words inside a question about the business, or a
question about what is ahead, read MD&A first."""

from __future__ import annotations

import pytest

from agent.planning.companies import CompanyDirectory
from agent.planning.prose_route import order_items
from agent.planning.rules import plan_rules
from agent.planning.scope import out_of_scope
from tests.test_companies import COVERED, SEC


@pytest.fixture(scope="module")
def directory() -> CompanyDirectory:
    return CompanyDirectory.from_rows(COVERED, SEC, {200406: [2023, 2024], 1467858: [2023], 1318605: [2023, 2024]})


@pytest.mark.parametrize("text, ticker", [
    ("what's the 2026 outlook in Johnson & Johnson's 10-K?", "JNJ"),  # a company of several words, its filing named
    ("what's the 2026 outlook in General Motors' annual report?", "GM"),
    ("how will the talc litigation affect Johnson & Johnson in 2026?", "JNJ"),  # an effect on the company named
])
def test_a_later_year_asked_of_the_filing_or_of_its_effect_on_the_company_is_no_forecast(directory, text, ticker):
    plan = plan_rules(text, directory=directory)
    assert plan.route == "domain" and plan.intent == "qualitative" and plan.tickers == [ticker], plan


@pytest.mark.parametrize("text", [
    "how many employees will Tesla have in 2030?",
    "what will Tesla's revenue be in 2030?",
    "what do you think Tesla will earn in 2027?",
])
def test_a_later_year_asked_of_footnote_stays_a_forecast(directory, text):
    plan = plan_rules(text, directory=directory)
    assert plan.route == "refusal" and plan.refusal_reason == "out_of_scope"


@pytest.mark.parametrize("text, detail", [
    ("rate unitedhealth as buy, hold or sell", "investment advice"),
    ("what would you pay for a share of salesforce?", "stock prices"),
    ("what's a fair value for texas instruments stock?", "stock prices"),
    ("what is the fair value of visa shares?", "stock prices"),
    ("will boeing's stock recover?", "stock prices"),
    ("are walmart shares going to rebound?", "stock prices"),
])
def test_footnotes_view_of_a_stock_is_refused(text, detail):
    assert (out_of_scope(text) or "").startswith(detail)


@pytest.mark.parametrize("text", [
    "what is the fair value of stock options granted?",
    "what was the fair value of shares issued in the acquisition?",
    "how did share repurchases affect eps?",
    "will boeing's deliveries recover, per the 10-k?",
])
def test_accounting_for_shares_and_a_filings_statements_are_in_scope(text):
    assert out_of_scope(text) is None


@pytest.mark.parametrize("text, items, first", [
    ("what does rtx's 10-k say about net services cost of sales in 2023?", ["1"], "7"),
    ("what will the number of customers be, according to c3.ai's 10-k?", ["1"], "7"),
    ("who are apple's customers?", ["1"], "1"),
    ("what products does apple sell?", ["1"], "1"),
    ("what does pepsico predict will happen to pension expense?", ["8"], "7"),
    ("what are pepsico's projections for pension expense?", ["8"], "7"),
])
def test_a_figure_or_what_is_ahead_reads_mdna_first(text, items, first):
    assert order_items(text, items)[0] == first


@pytest.mark.parametrize("text, first", [
    ("what did meta say about reality labs losses in 2023?", ["7", "8", "1", "1A"]),  # a year, a figure: MD&A
    ("what does nvidia say about cuda?", []),  # nothing chose an Item: the whole filing, MD&A and business preferred
])
def test_what_a_company_said_of_a_year_or_a_figure_reads_mdna_first(text, first):
    assert order_items(text, []) == first


@pytest.mark.parametrize("text, items", [
    ("who does salesforce compete with?", ["1"]),  # names: the business description
    ("lowe's competitors", ["1"]),
    ("what does amd say about competition from intel?", ["1A", "1"]),  # what a rival may do: its risks first
])
def test_who_the_rivals_are_is_read_in_the_business_description(text, items):
    assert order_items(text, ["1"], named_other="intel" in text) == items


def test_a_topic_asked_in_words_reads_the_items_its_topic_points_to_first(directory):
    plan = plan_rules("does Walmart have seasonality in its sales?", directory=directory)
    assert plan.intent == "qualitative" and plan.items[0] == "1" and plan.items_guessed
    went = plan_rules("how did Walmart's comparable sales do in fiscal 2024?", directory=directory)
    assert went.intent == "qualitative" and went.items[0] == "7"


def test_a_company_named_with_an_ampersand_is_cut_from_the_search_as_written():
    from agent.planning.company_mentions import strip_for_query

    directory = CompanyDirectory.from_rows(COVERED + [(80424, "PROCTER & GAMBLE Co", ["PG"])], SEC, {})
    for text in ("why did Procter & Gamble's volumes fall in fiscal 2024?", "why did Johnson & Johnson's sales rise?"):
        query = strip_for_query(text, directory.find(text))
        assert "&" not in query and "gamble" not in query.lower() and "johnson" not in query.lower(), query
        assert query.startswith("why did ") and ("volumes fall" in query or "sales rise" in query), query


def test_a_company_is_cut_from_the_search_only_where_it_stands_as_a_word(directory):
    """"gm" inside "segments" and "ge" inside "changes" are no mention: the search once read "what se ents"."""
    from agent.planning.company_mentions import strip_for_query

    for text, kept in (("what segments does gm report", "what segments does report"),
                       ("how did ge's changes in pricing affect margins?", "how did changes in pricing affect margins")):
        assert strip_for_query(text, directory.find(text)) == kept


@pytest.mark.parametrize("text", [
    "how will the exchange offer be accounted for",  # an accounting treatment the notes state
    "what pension contributions will general motors make next year",  # a note's expected contributions
])
def test_what_the_filing_states_of_a_plan_or_its_accounting_is_no_forecast(directory, text):
    assert out_of_scope(text) is None


@pytest.mark.parametrize("text", [
    "when will tesla be profitable",
    "when will tesla's stock recover",
    "what will tesla's revenue be next year",
])
def test_when_something_will_happen_asked_of_footnote_stays_a_forecast(text):
    assert out_of_scope(text) is not None


@pytest.mark.parametrize("text", ["rank ko pep and khc as buys", "which of them would you rate as a sell"])
def test_companies_judged_as_trades_is_advice(text):
    assert (out_of_scope(text) or "").startswith("investment advice")


def test_a_sale_in_the_filings_words_is_no_trade():
    assert out_of_scope("what did apple classify as held for sale") is None
