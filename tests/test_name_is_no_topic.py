"""A company's name is never read as the topic of a message: "how about C3.ai?" after a figure asks that
figure of C3.ai, however its name ends in a word that is a filing topic ("AI")."""

from __future__ import annotations

import pytest

from agent.planning.companies import CompanyDirectory
from agent.planning.rules import plan_rules
from tests.test_companies import COVERED, SEC

C3, APPLE, AMD, JCI = 1577526, 320193, 2488, 833444


@pytest.fixture(scope="module")
def directory() -> CompanyDirectory:
    return CompanyDirectory.from_rows(COVERED, SEC, {C3: [2024], APPLE: [2024], AMD: [2024], JCI: [2024]})


@pytest.mark.parametrize("reply", ["how about C3.ai?", "and c3.ai?", "what about C3.ai", "what about C3.ai, Inc."])
def test_a_reply_naming_a_company_whose_name_holds_a_topic_asks_the_threads_figure(directory, reply):
    first = plan_rules("AAPL revenue 2024", directory=directory)
    p = plan_rules(reply, previous=first, directory=directory)
    assert p.tickers == ["AI"] and p.metrics == ["revenue"] and p.intent == "numeric"


def test_the_topic_said_beside_the_name_is_still_the_topic(directory):
    p = plan_rules("what does C3.ai say about AI?", directory=directory)
    assert p.tickers == ["AI"] and p.intent == "qualitative" and "artificial intelligence" in p.query


@pytest.mark.parametrize("reply, ticker", [("Advanced Micro Devices, Inc.?", "AMD"), ("ADVANCED MICRO DEVICES, INC?", "AMD"),
                                           ("Johnson Controls International plc", "JCI")])
def test_a_reply_of_a_long_name_alone_asks_the_threads_figure(directory, reply, ticker):
    """A name of several words is one word of a reply: the thread's figure for it, never its business overview."""
    first = plan_rules("AAPL revenue 2024", directory=directory)
    p = plan_rules(reply, previous=first, directory=directory)
    assert p.tickers == [ticker] and p.metrics == ["revenue"] and p.intent == "numeric"
    about = plan_rules(f"tell me about {reply.rstrip('?')}", previous=first, directory=directory)
    assert about.intent == "qualitative" and about.tickers == [ticker]
