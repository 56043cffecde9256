"""A clause beside the question that asks nothing, with an everyday word shouted in it, names no
company and no figure (agent.planning.asides); the same word where the question is stays a ticker."""

from __future__ import annotations

import pytest

from agent.planning.asides import set_aside
from agent.planning.companies import CompanyDirectory
from agent.planning.rules import plan_rules
from tests.test_companies import COVERED, SEC

# everyday words SEC's map holds as tickers of companies nobody covers here
EVERYDAY = [("FUN", 1, "Cedar Fair L P"), ("TEAM", 3, "Atlassian Corp"), ("REAL", 4, "RealReal, Inc."),
            ("SAFE", 5, "Safehold Inc."), ("OPEN", 6, "Opendoor Technologies Inc")]


@pytest.fixture(scope="module")
def directory() -> CompanyDirectory:
    return CompanyDirectory.from_rows(COVERED, SEC + EVERYDAY, {320193: [2023, 2024], 1045810: [2024, 2025],
                                                                104169: [2024, 2025], 1318605: [2023, 2024]})


@pytest.mark.parametrize("text, ticker, metric", [
    ("what was Apple's revenue in fiscal 2024? NOW thanks", "AAPL", "revenue"),
    ("Nvidia net income fiscal 2025? I need it ALL", "NVDA", "net_income"),
    ("FUN please: Walmart revenue 2024", "WMT", "revenue"),
    ("TEAM please: what was Apple's revenue in fiscal 2024", "AAPL", "revenue"),
    ("Tesla net income 2024? I need it REAL", "TSLA", "net_income"),
    ("Apple revenue fiscal 2024 - SAFE if you can", "AAPL", "revenue"),
    ("quick one, NOW: Nvidia revenue fiscal 2025?", "NVDA", "revenue"),
])
def test_a_shouted_word_beside_the_question_is_no_company_and_no_figure(directory, text, ticker, metric):
    p = plan_rules(text, directory=directory)
    assert (p.route, p.tickers, p.metrics) == ("domain", [ticker], [metric]), p


@pytest.mark.parametrize("text", ["NOW revenue 2023", "what was NOW's revenue in 2023?", "TEAM net income 2024",
                                  "Apple revenue 2024 vs NOW"])
def test_the_shouted_word_where_the_question_is_stays_a_ticker(directory, text):
    assert plan_rules(text, directory=directory).refusal_reason == "not_covered"


def test_only_an_aside_beside_a_question_is_set_aside(directory):
    assert set_aside("NOW thanks", directory) == "NOW thanks"  # nothing else is asked: left to the planner
    assert set_aside("Apple revenue 2024? LOW thanks", directory) == "Apple revenue 2024? LOW thanks"  # Lowe's, covered
    assert set_aside("APPLE REVENUE 2024? NOW THANKS", directory) == "APPLE REVENUE 2024? NOW THANKS"  # all shouted
    assert set_aside("Apple revenue 2024? Services only", directory) == "Apple revenue 2024? Services only"
    # a covered company's name typed in capitals, cut off by its "INC.": the company asked about
    assert set_aside("APPLE INC. revenue from fiscal 2022 to 2024", directory) == "APPLE INC. revenue from fiscal 2022 to 2024"
    aside = set_aside("Apple revenue 2024? NOW thanks", directory)
    assert aside.startswith("Apple revenue 2024?") and aside[19:].strip() == "" and len(aside) == 30



@pytest.mark.parametrize("text", ["describe your data sources", "can you describe your data sources?",
                                  "could you explain what you do, briefly?"])
def test_a_question_about_footnote_with_a_topic_word_names_no_company(directory, embedder, text):
    """A filing topic's word ("describe") beside no company, figure or year: about Footnote when the
    sentence model and the letters both read it so, never refused for the company it does not name."""
    from agent.planning.exemplars import meaning_from

    with meaning_from(embedder):
        p = plan_rules(text, directory=directory)
    assert p.route == "meta" and p.refusal_reason is None, p


def test_a_topic_without_a_company_is_still_asked_for_one(directory, embedder):
    from agent.planning.exemplars import meaning_from

    with meaning_from(embedder):
        assert plan_rules("what are the supply chain risks?", directory=directory).refusal_reason == "no_company"


@pytest.mark.parametrize("text", ["that's ALL for today", "ALL good, thanks!"])
def test_a_shouted_word_in_small_talk_is_no_company(directory, embedder, text):
    from agent.planning.exemplars import meaning_from

    with meaning_from(embedder):
        p = plan_rules(text, directory=directory)
    assert p.route == "meta", p


@pytest.mark.parametrize("text", ["tell me about NOW", "what about ALL?"])
def test_a_shouted_ticker_asked_about_stays_a_company(directory, embedder, text):
    from agent.planning.exemplars import meaning_from

    with meaning_from(embedder):
        assert plan_rules(text, directory=directory).refusal_reason == "not_covered"


@pytest.mark.parametrize("text, ticker, metric", [
    ("hey Footnote, what's Apple's revenue in fiscal 2024?", "AAPL", "revenue"),
    ("Footnote, what was Nvidia's net income in fiscal 2025?", "NVDA", "net_income"),
    ("thanks Footnote. Now Walmart revenue fiscal 2025?", "WMT", "revenue"),
])
def test_footnote_spoken_to_by_name_is_no_word_of_the_figure(directory, text, ticker, metric):
    p = plan_rules(text, directory=directory)
    assert (p.route, p.tickers, p.metrics) == ("domain", [ticker], [metric]), p


def test_a_filings_footnote_is_still_a_word():
    from agent.planning.asides import addressed

    for text in ("what does footnote 7 say about leases?", "what does the Footnote say?", "Footnote revenue 2024"):
        assert addressed(text) == text


def test_small_talk_naming_footnote_and_a_figure_word_is_small_talk(directory, embedder):
    from agent.planning.exemplars import meaning_from

    with meaning_from(embedder):
        p = plan_rules("good morning Footnote, ready for earnings season?", directory=directory)
    assert p.route == "meta", p
