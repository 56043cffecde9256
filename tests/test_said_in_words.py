"""A question whose form asks what the filing says is searched in its prose, whatever figure-like
words it holds: never refused as an unknown metric, never answered as a line it did not name.
A figure asked in the same forms (an amount, a check against a number, a prediction asked of
Footnote) stays a figure or a refusal."""

from __future__ import annotations

import pytest

from agent.planning.companies import CompanyDirectory
from agent.planning.exemplars import meaning_from
from agent.planning.prose_route import asks_in_words
from agent.planning.rules import plan_rules
from tests.test_companies import COVERED, SEC


@pytest.fixture(scope="module")
def directory() -> CompanyDirectory:
    return CompanyDirectory.from_rows(COVERED, SEC, {21344: [2023, 2024], 12927: [2023, 2024], 1318605: [2023, 2024],
                                                    104169: [2024, 2025], 320193: [2023, 2024]})


@pytest.fixture(autouse=True, scope="module")
def _judged_by_meaning(embedder):
    with meaning_from(embedder):
        yield


def plan(directory, text):
    return plan_rules(text, directory=directory)


@pytest.mark.parametrize("text, ticker", [
    ("What will push Boeing's cost per delivered jet higher?", "BA"),  # a modal cause, a figure no one reports
    ("What might slow Walmart's advertising revenue growth?", "WMT"),  # "might slow" is no formula
    ("What may cause Tesla's regulatory credit sales to shrink?", "TSLA"),  # "may" is no month here
    ("How could a sugar tax hit Coca-Cola's unit case volume?", "KO"),
    ("Is Coca-Cola nervous about bottler concentrate pricing?", "KO"),  # a yes-no question about its stance
    ("Can Walmart's suppliers absorb its cost pressures?", "WMT"),
    ("Does Tesla think battery cell costs will keep falling?", "TSLA"),
])
def test_a_question_in_words_is_searched_in_prose(directory, text, ticker):
    p = plan(directory, text)
    assert (p.route, p.intent, p.tickers) == ("domain", "qualitative", [ticker]), (p.refusal_reason, p.metrics)
    assert not p.metrics and p.period is None


@pytest.mark.parametrize("text", [
    "What does Boeing predict for 737 deliveries?",  # what the company predicts is in its filing
    "What will determine Coca-Cola's concentrate volumes next year?",  # the causes of a future change
])
def test_what_a_company_predicts_is_no_forecast_asked_of_footnote(directory, text):
    p = plan(directory, text)
    assert p.route == "domain" and p.intent == "qualitative"


@pytest.mark.parametrize("text, reason", [
    ("What will Apple's revenue be next year?", "out_of_scope"),  # a prediction asked of Footnote
    ("Could you predict Boeing's deliveries for 2027?", "out_of_scope"),
])
def test_a_prediction_asked_of_footnote_stays_refused(directory, text, reason):
    p = plan(directory, text)
    assert p.route == "refusal" and p.refusal_reason == reason


@pytest.mark.parametrize("text", [
    "Did Apple's revenue grow in 2024?",  # every word a figure's: the figure
    "Is Apple's gross margin above 40%?",  # checked against an amount: the figure
    "How much will Walmart spend on capex?",  # an amount
])
def test_a_figure_in_a_yes_no_or_modal_form_stays_a_figure(directory, text):
    p = plan(directory, text)
    assert not (p.route == "domain" and p.intent == "qualitative" and not p.metrics and not p.probe), p


def test_the_forms():
    assert asks_in_words("what will drive its margin higher?")
    assert asks_in_words("is tesla worried about lithium?")
    assert not asks_in_words("what was apple's revenue in 2024?")
    assert not asks_in_words("how much will it cost?")
    assert not asks_in_words("is there a dividend?")
