"""Follow-up turns in a prose thread: what they search, and whose filing. A reply pointing back at the thread that
the figure path read as a row of its own words is what the filing says of the thread's subject; a brand of a
company the thread never discussed, or a figure's word written in capitals, never switches the thread's company. Planner tests over
a directory, the corpus lookup lent as the planning node lends it, and the memory node itself."""

from __future__ import annotations

import pytest

from agent.planning.plan import Plan
from agent.planning.thread_prose import prose_reply
from tests.test_thread_questions import planned_with

APPLE = 320193


@pytest.fixture(scope="module")
def directory():
    from agent.planning.companies import CompanyDirectory
    from tests.test_companies import COVERED, SEC

    return CompanyDirectory.from_rows(COVERED, SEC, {320193: [2023, 2024], 1045810: [2024, 2025],
                                                     1318605: [2023, 2024], 833444: [2024], 1018724: [2024]})


def _lookup(phrase: str) -> list[tuple[int, int]]:
    # Apple's filings name "wearables" as a brand would; no other word is anyone's brand
    return [(APPLE, 40), (1318605, 0)] if phrase.lower() == "wearables" else []


# the thread's filings write every phrase but "wearables" and a made-up one (chunks holding it)
_lookup.writes = lambda phrase, ciks: 0 if phrase.lower() in ("wearables", "zorblax") else 12  # type: ignore[attr-defined]


def planned(directory, *texts):
    return planned_with(_lookup, directory, *texts)


def test_a_prose_threads_reply_read_as_a_row_is_the_filings_words_on_the_subject(directory):
    for said in ("was it material to earnings?", "r they insured for that"):
        p = planned(directory, "Tell me about the cyberattack Johnson Controls had.", said)
        assert p.route == "domain" and p.intent == "qualitative", (said, p)
        assert p.tickers == ["JCI"] and not p.metrics, (said, p)
        assert "cyberattack" in p.query.lower(), (said, p.query)  # the thread's subject, beside the reply's words
        assert p.items[0] == "7", (said, p.items)
        # a row the company prints by those words would still answer as that figure (retrieval's probe)
        assert p.probe and all(k.startswith("line:") for k in p.probe), (said, p.probe)


def test_what_stays_a_row_lookup(directory):
    thread = Plan(route="domain", intent="qualitative", tickers=["JCI"], fiscal_years=[2024], items=["7", "1A"],
                  topic="cyberattack", subject="cyberattack", query="cyberattack")
    row = Plan(route="domain", intent="numeric", tickers=["JCI"], fiscal_years=[2024],
               metrics=["line:restructuring|restructuring costs|restructuring costs"])
    assert prose_reply(row, "was that in restructuring costs?", thread, directory) is not None
    # no pointing back: a row asked of its own; another company's, a year the message names, or a figure thread's
    assert prose_reply(row, "restructuring costs?", thread, directory) is None
    assert prose_reply(row.model_copy(update={"tickers": ["AAPL"]}), "was that in restructuring costs?", thread,
                       directory) is None
    assert prose_reply(row.model_copy(update={"slots": {"fiscal_years": "message"}}), "was that in 2023's costs?",
                       thread, directory) is None
    assert prose_reply(row, "was that in restructuring costs?", thread.model_copy(update={"intent": "numeric"}),
                       directory) is None
    # a registry figure is no row made of the reply's words
    assert prose_reply(row.model_copy(update={"metrics": ["net_income"]}), "what did that do to net income?", thread,
                       directory) is None


def test_another_companys_brand_never_switches_the_thread(directory):
    p = planned(directory, "what does tesla say about competition", "and wearables?")
    assert p.route == "domain" and p.tickers == ["TSLA"], p
    # the same question of it, answered only if a passage of Tesla's says it (else no_grounding)
    assert p.unless_named == {"reason": "no_grounding", "detail": "wearables", "words": ["wearables"]}, p
    # in the owner's own thread, the brand is the owner's
    p = planned(directory, "what does apple say about competition", "and wearables?")
    assert p.route == "domain" and p.tickers == ["AAPL"], p


def test_a_figures_word_in_capitals_is_no_company(directory):
    for said in ("and Net income?", "what about Net Income"):
        p = planned(directory, "nvidia revenue fy2025", said)
        assert p.route == "domain" and p.tickers == ["NVDA"] and p.metrics == ["net_income"], (said, p)
