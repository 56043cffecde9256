"""Follow-ups read against what the thread is about: a reply naming only a period asks the thread's figure for it,
a change on the prior quarter is the sequential growth, a reply naming a thing of its own is searched in its own
words as well as beside the subject, and a part's figure asked in a prose thread is a figure.
Planner tests over a directory and the corpus lookup lent as the planning node lends it."""

from __future__ import annotations

import pytest

from agent.planning.followups import names_own_thing
from agent.planning.thread_members import names_member_figure
from tests.test_thread_questions import planned_with
from tests.test_thread_resolved_subject import _lookup, directory  # noqa: F401  (fixture; every phrase is written)


def planned(directory, *texts):
    return planned_with(_lookup, directory, *texts)


@pytest.mark.parametrize("reply", ["and year to date?", "and for the year to date?", "what about year to date"])
def test_a_reply_naming_only_a_period_asks_the_threads_figure_through_its_quarter(directory, reply):
    p = planned(directory, "apple revenue q3 fy2023", reply)
    assert p.route == "domain" and p.tickers == ["AAPL"] and p.metrics == ["revenue"], p
    assert p.period["kind"] == "ytd" and p.period["months"] == 9 and p.period["fiscal_year"] == 2023, p.period


def test_the_year_to_date_after_a_dated_quarter_ends_with_that_quarter(directory):
    p = planned(directory, "nvidia revenue for the quarter ended july 30 2023", "ytd?")
    assert p.metrics == ["revenue"] and p.period["kind"] == "ytd" and p.period["end"] == "2023-07-30", p.period


@pytest.mark.parametrize("reply", ["sequential growth?", "q/q change?", "how much is that up from the prior quarter, %?"])
def test_a_change_on_the_prior_quarter_is_the_sequential_growth(directory, reply):
    p = planned(directory, "apple revenue q3 fy2023", reply)
    assert p.period["growth"] == "sequential" and p.period["quarter"] == 3, p.period
    assert not any(k.startswith("line:") for k in p.metrics), p.metrics


def test_sequential_growth_after_a_quarter_named_by_its_end_date(directory):
    p = planned(directory, "nvidia revenue for the quarter ended july 30 2023", "sequential growth?")
    assert p.period["growth"] == "sequential" and p.period["end"] == "2023-07-30", p.period
    assert p.metrics == ["revenue_growth"], p.metrics


def test_the_previous_quarter_alone_is_still_its_figure(directory):
    p = planned(directory, "apple revenue q3 fy2023", "and the previous quarter?")
    assert p.metrics == ["revenue"] and p.period["quarter"] == 2 and not p.period.get("growth"), p.period


def test_only_a_reply_naming_a_thing_of_its_own_is_searched_without_the_subject():
    assert names_own_thing(["stop", "buying", "back", "stock", "because"])
    assert names_own_thing(["restructuring"])
    assert not names_own_thing(["cost"])  # "how much did it cost them?": every cost sentence of the filing
    assert not names_own_thing(["affect", "margins"])


def test_a_reply_is_searched_alone_and_beside_the_threads_subject(directory):
    p = planned(directory, "Tell me about the cyberattack Johnson Controls had.", "did it disrupt their operations?")
    assert p.intent == "qualitative" and p.tickers == ["JCI"], p
    assert len(p.sub_queries) == 2, p.sub_queries
    alone, beside = p.sub_queries
    assert "disrupt" in alone and "cyberattack" not in alone, alone
    assert "disrupt" in beside and "cyberattack" in beside, beside


def test_a_reply_of_the_subjects_words_alone_is_searched_once(directory):
    p = planned(directory, "Tell me about the cyberattack Johnson Controls had.", "tell me more about the cyberattack")
    assert len(p.sub_queries) <= 1 or all("cyberattack" in q for q in p.sub_queries), p.sub_queries


def test_a_parts_figure_named_in_a_prose_thread_is_a_figure():
    assert names_member_figure("services net sales", "what were services net sales in 2024?")
    assert names_member_figure("data center revenue", "and data center revenue in fiscal 2024?")
    assert not names_member_figure("revenue at risk", "how much revenue is at risk?")
    assert not names_member_figure("material earnings", "was it material to earnings?")


def test_the_charge_after_a_charge_figure_is_that_figure():
    from agent.planning.figure_kinds import kind_of_thread

    impairment = "line:goodwill impairment|goodwill impairment|goodwill impairment"
    assert kind_of_thread("how big was the charge?", [impairment]) == [impairment]
    assert kind_of_thread("how big was the charge?", ["revenue"]) == []  # no charge in the thread: the planner reads it
    assert kind_of_thread("and the restructuring charge in europe?", [impairment]) == []  # says more than the kind
    # after a prose answer about the impairment, the sentences stating the charge answer, not its figure alone
    assert kind_of_thread("how big was the charge?", [impairment], prose=True) == []


def test_the_previous_quarter_of_a_dated_quarter_is_the_quarter_ending_three_months_before(directory):
    p = planned(directory, "nvidia revenue for the quarter ended july 30 2023", "and the previous quarter?")
    assert p.route == "domain" and p.metrics == ["revenue"], p
    assert p.period["end_month"] == 4 and p.period["end_year"] == 2023 and "end" not in p.period, p.period
    assert not p.period.get("growth"), p.period


def test_how_much_was_it_after_a_prose_answer_asks_the_filing_not_a_price(directory):
    p = planned(directory, "Tell me about the cyberattack Johnson Controls had.", "how much was it?")
    assert p.route == "domain" and p.tickers == ["JCI"], p
    worth = planned(directory, "Tell me about the cyberattack Johnson Controls had.", "how much was the stock worth?")
    assert worth.refusal_reason == "out_of_scope", worth


def test_how_they_paid_is_not_searched_without_the_deal():
    assert not names_own_thing(["how'd", "pay"][:1])


def test_another_company_asked_a_thing_of_its_own_after_a_why_is_not_handed_the_why(directory):
    # the thing asked of Nvidia is searched in its filing; the thread's figure answers a question nobody asked
    p = planned(directory, "why did tesla's revenue grow in fiscal 2024?", "and nvidia, any labor strikes?")
    assert p.tickers == ["NVDA"] and p.intent == "qualitative" and p.metrics == [], p
    assert "strike" in p.query, p.query
    # a company swapped in alone still gets the same why
    p = planned(directory, "why did tesla's revenue grow in fiscal 2024?", "and nvidia's?")
    assert p.tickers == ["NVDA"] and p.metrics == ["revenue"] and p.asks_cause, p
