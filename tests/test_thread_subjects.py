"""A thread's two subjects, through the whole graph over the fixture corpus (real Postgres, real
checkpoints): its last figure and its last prose topic, each resolved against the reply that refers
to it; and "say more" quoting the next best sentences, never the thread's earlier ones."""

from __future__ import annotations

import re

import pytest

from agent.planning.followups import back_to_figure, comments_on_thread, figure_reply, gap_as_difference
from agent.planning.plan import Plan
from tests.conftest import thread_of


@pytest.fixture(scope="module")
def footnote(offline_footnote):
    return offline_footnote


def quotes(answer) -> list[str]:
    return [c.quote for c in answer.citations if c.quote]


def words(sentence: str) -> set[str]:
    return set(re.findall(r"[a-z]{3,}", sentence.lower()))


def test_a_year_after_a_why_is_the_figure_again_not_the_prose_topic(footnote):
    ask = thread_of(footnote)
    assert ask("Tesla revenue 2024").kind == "answer"
    why = ask("why did it go up?")
    assert why.plan["intent"] == "qualitative" and why.plan["metrics"] == ["revenue"]
    again = ask("and in 2023?")
    assert again.kind == "answer", again.text
    assert again.plan["intent"] == "numeric" and again.plan["metrics"] == ["revenue"]
    assert again.plan["tickers"] == ["TSLA"] and again.plan["fiscal_years"] == [2023]
    assert again.plan["slots"]["metrics"].startswith("thread, its last figure")
    assert [(n.ticker, n.fiscal_year) for n in again.numbers] == [("TSLA", 2023)]


def test_growth_after_say_more_is_the_figure_s_growth(footnote):
    ask = thread_of(footnote)
    ask("Tesla revenue 2024")
    ask("why?")
    ask("say more")
    growth = ask("what's the growth?")
    assert growth.kind == "answer", growth.text
    assert growth.plan["metrics"] == ["revenue_growth"] and growth.plan["fiscal_years"] == [2024]
    assert growth.calculation, growth.text


def test_what_management_said_about_a_figure_is_mdna_on_that_figure(footnote):
    ask = thread_of(footnote)
    ask("Tesla revenue 2024")
    said = ask("what did management say about it?")
    assert said.kind == "answer", said.text
    assert said.plan["intent"] == "qualitative" and said.plan["items"][0] == "7"
    assert said.plan["metrics"] == ["revenue"] and said.plan["slots"]["metrics"] == "thread, its cause"
    assert said.plan["tickers"] == ["TSLA"] and said.plan["fiscal_years"] == [2024]
    assert quotes(said) and all(c.item in ("7", "8") for c in said.citations if c.quote)


def test_say_more_never_quotes_a_sentence_the_thread_has_quoted(footnote):
    ask = thread_of(footnote)
    ask("Tesla revenue 2024")
    first = ask("why?")
    assert quotes(first)
    more = ask("say more")
    assert more.route == "domain" and more.plan["quoted"], more.text
    seen = [words(q) for q in quotes(first)]
    for q in quotes(more):
        assert all(len(words(q) & s) < 0.8 * min(len(words(q)), len(s)) for s in seen), q


def test_anything_else_in_a_thread_is_no_goodbye(footnote):
    ask = thread_of(footnote)
    ask("What are Apple's risk factors?")
    answer = ask("anything else?")
    assert answer.route == "domain" and answer.plan["tickers"] == ["AAPL"], answer.text
    assert answer.plan["quoted"]


def test_the_gap_between_them_answers_for_both_companies(footnote):
    ask = thread_of(footnote)
    ask("Compare revenue of Apple and Tesla in fiscal 2024")
    gap = ask("what's the gap between them?")
    assert gap.kind == "answer", gap.text
    assert sorted(gap.plan["tickers"]) == ["AAPL", "TSLA"] and gap.plan["metrics"] == ["revenue"]
    assert sorted({n.ticker for n in gap.numbers}) == ["AAPL", "TSLA"]


def test_another_company_after_a_why_asks_the_same_why(footnote):
    ask = thread_of(footnote)
    why = ask("why did Tesla's revenue change in 2024?")
    assert why.plan["metrics"] and why.plan["items"][0] == "7"
    other = ask("and Apple's?")
    assert other.plan["intent"] == "qualitative" and other.plan["tickers"] == ["AAPL"], other.text
    assert other.plan["metrics"] == why.plan["metrics"] and other.plan["items"][0] == "7"


def _plan(**fields) -> Plan:
    return Plan(route="domain", **fields)


def test_only_a_prose_turn_about_the_figure_hands_a_bare_year_back_to_it():
    figure = _plan(intent="numeric", tickers=["V"], fiscal_years=[2024], metrics=["net_income"])
    followed = _plan(intent="qualitative", tickers=["V"], fiscal_years=[2024], items=["7"],
                     slots={"tickers": "thread", "fiscal_years": "thread"})
    own_topic = _plan(intent="qualitative", tickers=["V"], fiscal_years=[2024], items=["8"], topic="litigation",
                      slots={"tickers": "message", "fiscal_years": "thread"})
    back = back_to_figure("and in fy2023?", followed, figure)
    assert back is not None and back.metrics == ["net_income"] and back.tickers == ["V"]
    assert back_to_figure("and in fy2023?", own_topic, figure) is None  # litigation in fy2023
    assert back_to_figure("what's the growth?", own_topic, figure) is not None  # no topic grows
    assert back_to_figure("say more", followed, figure) is None
    assert back_to_figure("why did it go up?", followed, figure) is None
    other = _plan(intent="qualitative", tickers=["MA"], slots={"tickers": "thread"})
    assert back_to_figure("and in fy2023?", other, figure) is None  # the thread moved to another company


def test_reply_shapes():
    assert figure_reply("and in fy23?") and figure_reply("what's the growth rate?") and figure_reply("rank them")
    assert not figure_reply("any risks to that?") and not figure_reply("anything else?")
    assert not figure_reply("and the litigation?")
    assert comments_on_thread("what did management say about it?") and comments_on_thread("any commentary on that?")
    assert not comments_on_thread("what did they say about tariffs?")
    assert gap_as_difference("what's the gap between them?", 2) == "what's the difference between them?"
    assert gap_as_difference("what's the gap between them?", 1) == "what's the gap between them?"
    assert gap_as_difference("Gap revenue 2024", 2) == "Gap revenue 2024"


def test_an_aspect_of_a_figure_is_searched_with_the_figure_s_words(footnote):
    ask = thread_of(footnote)
    ask("Tesla revenue 2024")
    headwinds = ask("what are the headwinds?")
    # the fixture 10-K may say nothing of headwinds (then: no_grounding, saying what was searched), never another refusal
    assert headwinds.refusal_reason in (None, "no_grounding") and headwinds.plan["intent"] == "qualitative"
    assert headwinds.plan["items"][0] == "7" and "revenue" in headwinds.plan["query"]
    assert headwinds.plan["tickers"] == ["TSLA"] and headwinds.plan["fiscal_years"] == [2024]
    take = ask("what's management's take?")  # after the prose turn: its topic, never an opinion refused
    assert take.refusal_reason in (None, "no_grounding"), take.text
    assert take.plan["tickers"] == ["TSLA"] and "revenue" in take.plan["query"]
    ask = thread_of(footnote)
    ask("Tesla revenue 2024")
    take = ask("what's management's take?")  # right after the figure: what explains it
    assert take.kind == "answer", take.text
    assert take.plan["slots"]["metrics"] == "thread, its cause" and take.plan["items"][0] == "7"


def test_aspect_shapes():
    from agent.planning.followups import aspect_of_thread

    assert aspect_of_thread("what are the headwinds?") and aspect_of_thread("what risks could hurt it?")
    assert aspect_of_thread("is that sustainable?")
    assert not aspect_of_thread("what are the main risks?")  # the filing's risk factors, a question of its own
    assert not aspect_of_thread("what about tariffs?") and not aspect_of_thread("and the litigation?")
    assert comments_on_thread("what factors contributed?") and comments_on_thread("what's management's take?")


def test_a_why_answered_from_the_next_year_s_filing_keeps_the_thread_on_its_figure(footnote):
    ask = thread_of(footnote)
    ask("Apple net income fiscal 2022")  # its own 10-K is not held; the FY2023 10-K discusses it
    why = ask("why did it change?")
    assert why.plan["slots"]["metrics"] == "thread, its cause", why.text
    said = ask("what did management say about it?")
    assert said.plan["slots"]["metrics"] == "thread, its cause" and said.plan["items"][0] == "7", said.text
    assert said.plan["tickers"] == ["AAPL"] and said.plan["fiscal_years"] == [2022]


def test_a_year_after_a_topic_beside_a_figure_stays_with_the_topic(footnote):
    ask = thread_of(footnote)
    first = ask("What does Apple say about its component suppliers?")
    assert first.plan["intent"] == "qualitative" and first.plan["topic"], first.text
    touching = ask("how does that affect its gross margin?")
    assert set(first.plan["topic"].split()) <= set(touching.plan["topic"].split()), touching.plan["topic"]
    later = ask("and in fiscal 2023?")
    assert later.plan["intent"] == "qualitative" and later.plan["fiscal_years"] == [2023], later.text
    assert later.plan["query"] == touching.plan["query"]


def test_swaps_and_figure_only_topics():
    from agent.planning.followups import figure_only_topic, swaps_only

    assert swaps_only("and company's?", True) and swaps_only("and in fy2024?", True)
    assert not swaps_only("and aws?", False) and not swaps_only("and the company's margins?", True)
    why = _plan(intent="qualitative", tickers=["GOOGL"], metrics=["revenue"], topic="revenue net sales")
    beside = _plan(intent="qualitative", tickers=["NVDA"], metrics=["revenue"], topic="revenue export controls")
    assert figure_only_topic(why) and not figure_only_topic(beside)


def test_a_word_said_of_the_thread_company_by_pronoun_is_never_taken_for_another_company(footnote):
    ask = thread_of(footnote)
    ask("Tesla revenue 2024")
    answer = ask("how about its margin?")
    assert answer.refusal_reason != "no_company", answer.text
    assert answer.plan["tickers"] == ["TSLA"] and answer.plan["lone_name"] is None
