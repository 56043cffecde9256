"""A comparison built over several turns holds each company at the fiscal year the thread showed it:
"Nvidia fiscal 2025", then "and Apple 2024", then "which is bigger?" compares those two figures, and
"the year before for both" steps each company back from its own year. Ordering words ("rank them by
size") rank the thread's figure; a refused company leaves the companies compared.

Thread tests run the whole graph over the fixture corpus (real Postgres, real LangGraph checkpoints)."""

from __future__ import annotations

from agent.planning.plan import Plan
from agent.planning.plan_years import own_years
from tests.conftest import thread_of
from tests.test_thread_frame import directory, footnote, planned  # noqa: F401 (its fixtures, shared)


def _years(answer) -> set[tuple[str, int]]:
    return {(n.ticker, n.fiscal_year) for n in answer.numbers}


def test_a_comparison_keeps_each_company_at_its_own_year_through_the_checkpoint(footnote):
    ask = thread_of(footnote)
    assert _years(ask("Nvidia revenue fiscal 2025")) == {("NVDA", 2025)}
    assert _years(ask("and Apple 2024")) == {("AAPL", 2024)}
    bigger = ask("which is bigger?")
    assert bigger.kind == "answer", bigger.text
    assert _years(bigger) == {("NVDA", 2025), ("AAPL", 2024)}, bigger.numbers
    assert "Nvidia fiscal 2025" in bigger.text and "Apple fiscal 2024" in bigger.text, bigger.text  # which year is which
    before = ask("and the year before for both")
    assert before.kind == "answer", before.text
    assert _years(before) == {("NVDA", 2024), ("AAPL", 2023)}, before.numbers
    other = ask("same for both but net income")
    assert other.plan["metrics"] == ["net_income"], other.plan
    assert _years(other) == {("NVDA", 2024), ("AAPL", 2023)}, other.numbers


def test_a_refused_company_leaves_the_comparison(footnote):
    ask = thread_of(footnote)
    assert ask("Apple revenue FY2024").kind == "answer"
    assert ask("and Netflix?").refusal_reason == "not_covered"
    assert _years(ask("ok, Nvidia fy2025 then")) == {("NVDA", 2025)}
    bigger = ask("who had more?")
    assert bigger.kind == "answer", bigger.text
    assert _years(bigger) == {("AAPL", 2024), ("NVDA", 2025)}, bigger.numbers


def test_ordering_words_rank_the_thread_s_figure(footnote):
    ask = thread_of(footnote)
    ask("Nvidia revenue 2025")
    ask("Apple 2024?")
    ask("and Tesla for 2024")
    for words in ("rank them by size", "order them largest first"):
        ranked = ask(words)
        assert ranked.kind == "answer" and ranked.plan["metrics"] == ["revenue"], (words, ranked.text)
        assert _years(ranked) == {("NVDA", 2025), ("AAPL", 2024), ("TSLA", 2024)}, (words, ranked.numbers)


def test_one_shared_year_stays_the_plan_s_one_list(directory):
    p = planned(directory, "Apple revenue 2024", "and Tesla?", "which is higher?")
    assert sorted(p.tickers) == ["AAPL", "TSLA"] and p.fiscal_years == [2024] and p.company_years == {}, p


def test_own_years_steps_each_company_by_the_thread_s_offset():
    prev = Plan(route="domain", intent="compare", tickers=["NVDA", "AAPL"], fiscal_years=[2024],
                company_years={"NVDA": [2025], "AAPL": [2024]})
    walked = Plan(route="domain", intent="compare", tickers=["NVDA", "AAPL"], fiscal_years=[2023])
    assert own_years(walked, prev, from_thread=True) == {"NVDA": [2024], "AAPL": [2023]}
    assert own_years(walked, prev, from_thread=False) == {}  # a year the message named is every company's
    assert own_years(walked.model_copy(update={"latest": True}), prev, from_thread=True) == {}  # each its latest already


def test_a_company_refused_at_fetch_leaves_the_comparison(footnote):
    ask = thread_of(footnote)
    assert ask("Apple revenue FY2024").kind == "answer"
    assert ask("and Tesla 2012?").refusal_reason == "year_not_available"  # known, but no figure of that year held
    assert _years(ask("ok, Nvidia fy2025 then")) == {("NVDA", 2025)}
    bigger = ask("which is bigger?")
    assert bigger.kind == "answer" and sorted(bigger.plan["tickers"]) == ["AAPL", "NVDA"], bigger.plan
    assert _years(bigger) == {("AAPL", 2024), ("NVDA", 2025)}, bigger.numbers


def test_a_year_refused_for_the_thread_s_own_company_keeps_it(footnote):
    ask = thread_of(footnote)
    assert ask("Apple revenue FY2024").kind == "answer"
    assert ask("and 2012?").refusal_reason == "year_not_available"
    again = ask("and 2023?")
    assert again.kind == "answer" and again.plan["tickers"] == ["AAPL"], again.text


def test_a_company_too_in_a_thread_is_the_thread_s_question_of_it(footnote):
    for reply in ("apple too", "Apple too", "apple as well"):
        ask = thread_of(footnote)
        ask("Nvidia net income fiscal 2024")
        also = ask(reply)
        assert also.kind == "answer" and also.plan["tickers"] == ["AAPL"], (reply, also.text)
        assert also.plan["metrics"] == ["net_income"], (reply, also.plan)
    ask = thread_of(footnote)
    ask("Nvidia net income fiscal 2024")
    assert ask("you too").plan["route"] == "meta"  # small talk that names no company stays small talk


def test_a_company_with_no_figure_is_said_not_compared():
    from agent.composing.compose import _numbers

    cells = [{"ticker": "TSLA", "name": "Tesla", "fiscal_year": 2024, "metric": "revenue", "label": "Revenue",
              "evidence_id": "e1", "display": "$97.69 billion"},
             {"ticker": "F", "name": "Ford Motor", "fiscal_year": 2024, "metric": "revenue", "label": "Revenue",
              "evidence_id": None, "display": None}]
    plan = Plan(route="domain", intent="compare", tickers=["TSLA", "F"], metrics=["revenue"], fiscal_years=[2024])
    intro = _numbers(plan, cells).intro
    assert "no reported figure of Ford Motor for fiscal 2024" in intro and "Tesla" not in intro.split("Ford")[1], intro
    assert "no reported figure" not in _numbers(plan, cells[:1] + [{**cells[1], "evidence_id": "e2",
                                                                    "display": "$185 billion"}]).intro


def test_a_refused_turn_leaves_each_company_at_the_year_its_figure_was_shown(footnote):
    ask = thread_of(footnote)
    shown = ask("compare apple and nvidia revenue in fiscal 2023")
    assert shown.kind == "answer" and _years(shown) == {("AAPL", 2023), ("NVDA", 2023)}, shown.numbers
    # read as a prose question, Nvidia resolves to the filing that would discuss its fiscal 2023 (its
    # fiscal 2024 10-K: the 2023 one is not held); refused, the turn showed no figure of that year
    refused = ask("what about their fiscal 2023 customer satisfaction score")
    assert refused.kind == "refusal", refused.text
    after = ask("and net income?")
    assert after.kind == "answer", after.text
    assert _years(after) == {("AAPL", 2023), ("NVDA", 2023)}, after.numbers
