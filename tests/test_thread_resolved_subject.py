"""Follow-up turns read against what the thread is about: a figure asked only by its label still takes the
thread's follow-ups. Planner tests over a directory and the corpus lookup lent as the planning node lends it."""

from __future__ import annotations

import pytest

from agent.retrieval.concepts import METRICS
from agent.planning.thread import asked_as
from tests.test_thread_questions import planned_with


@pytest.fixture(scope="module")
def directory():
    from agent.planning.companies import CompanyDirectory
    from tests.test_companies import COVERED, SEC

    return CompanyDirectory.from_rows(COVERED, SEC, {320193: [2023, 2024], 1045810: [2024, 2025],
                                                     1318605: [2023, 2024], 833444: [2024], 1018724: [2024]})


def _lookup(phrase: str) -> list[tuple[int, int]]:
    return []


_lookup.writes = lambda phrase, ciks: 12  # type: ignore[attr-defined]


def planned(directory, *texts):
    return planned_with(_lookup, directory, *texts)


def test_every_metric_has_words_to_be_asked_by():
    for key in METRICS:
        words = asked_as(key)
        assert words and "(" not in words and "," not in words, (key, words)
    assert asked_as("depreciation") == "depreciation"


@pytest.mark.parametrize("reply", ["and capex?", "and as a % of revenue?", "what % of operating cash flow is that?",
                                   "minus capex?"])
def test_follow_ups_after_a_figure_asked_by_its_label(directory, reply):
    # depreciation lists no synonym of its own: the follow-up is planned, for the thread's company and year
    p = planned(directory, "apple depreciation fiscal 2024", reply)
    assert p.route == "domain" and p.tickers == ["AAPL"] and 2024 in p.fiscal_years, (reply, p)


CYBER = "Tell me about the cyberattack Johnson Controls had."


def test_a_follow_up_after_a_follow_up_searches_beside_the_threads_subject_not_the_last_aspect(directory):
    p = planned(directory, CYBER, "what has it cost them so far?", "were operations back to normal afterwards?")
    assert p.intent == "qualitative" and p.tickers == ["JCI"], p
    assert "cyberattack" in p.query and "cost" not in p.query.split(), p.query
    assert p.subject == "cyberattack", p.subject


def test_the_turn_after_still_reads_the_aspect_it_was_asked(directory):
    p = planned(directory, CYBER, "what has it cost them so far?")
    assert "cost" in p.query and "cyberattack" in p.query, p.query


def test_how_a_deal_was_paid_for_is_searched_in_the_financing_words(directory):
    p = planned(directory, "when did Johnson Controls close the Silent-Aire acquisition?", "how'd they pay for it?")
    assert p.intent == "qualitative" and p.tickers == ["JCI"], p
    assert "senior notes" in p.query and "silent-aire" in p.query.lower(), p.query
    assert p.items[:2] == ["7", "8"], p.items
    # a plant is no deal: its own words, beside the thread's subject
    q = planned(directory, "what is Tesla building in Texas?", "how are they paying for it?")
    assert "senior notes" not in q.query, q.query
    # the price asked is no financing
    r = planned(directory, "when did Johnson Controls close the Silent-Aire acquisition?", "what did they pay for it?")
    assert "senior notes" not in r.query, r.query


def test_the_row_a_prose_reply_names_with_the_is_the_threads(directory):
    p = planned(directory, CYBER, "how big was the charge?")
    assert p.intent == "qualitative" and not p.metrics and "cyberattack" in p.query, p
    assert p.unless_named and p.unless_named["words"] == ["charge", "cyberattack"], p.unless_named  # else refused
    assert p.probe, p.probe  # a row printed by those words still answers as the figure
    # no "the", no pointing: a row asked of its own
    q = planned(directory, CYBER, "how big was a charge?")
    assert q.intent == "numeric", q


def test_the_effect_named_as_a_noun_is_the_threads_subjects(directory):
    p = planned(directory, CYBER, "what was the hit to margins?")
    assert p.intent == "qualitative" and "cyberattack" in p.query, p
    assert not any(k.startswith("line:") for k in p.metrics), p.metrics


def test_a_bare_figure_after_a_growth_question_asks_its_growth(directory):
    p = planned(directory, "nvidia revenue growth fiscal 2025", "and net income?")
    assert p.tickers == ["NVDA"] and p.metrics == ["net_income_growth"], p
    q = planned(directory, "apple revenue 2024", "and net income?")  # after a level, the level
    assert q.metrics == ["net_income"], q
    r = planned(directory, "nvidia revenue growth fiscal 2025", "and why?")  # no figure named: the thread's cause
    assert r.metrics == ["revenue_growth"] and r.intent == "qualitative", r


def test_the_year_ago_period_after_a_quarter_is_that_quarter_a_year_back(directory):
    p = planned(directory, "apple revenue Q3 fiscal 2024", "and what was it in the year-ago period?")
    assert p.tickers == ["AAPL"] and p.metrics == ["revenue"], p
    assert p.period and p.period.get("quarter") == 3 and p.period.get("fiscal_year") == 2023, p.period


def test_a_figure_refused_as_unknown_leaves_the_thread_what_it_asked_about(directory):
    from agent.memory.remember import remember
    from agent.planning.plan import Plan, refusal_plan
    from agent.planning.rules import plan_rules

    # the planner's refusal names only the figure it could not find
    refused = refusal_plan("unknown_metric", "subscribers", tickers=["TSLA"], fiscal_years=[2023],
                           companies_read=[{"word": "tesla", "ticker": "TSLA", "via": "name"}])
    question = "tesla robotaxi subscribers / losses 2023?"
    kept = remember({"plan": refused.model_dump(), "memory": None, "question": question}, None, None)["memory"]["plan"]
    assert kept["topic"] == "robotaxi subscribers losses", kept["topic"]
    # the next turn searches what was asked, not the refused figure's word alone
    nxt = plan_rules("why?", previous=Plan(**kept), directory=directory)
    assert "robotaxi" in nxt.query, nxt.query
