"""Periods said as analysts write them, and thread replies that point at the thread's period or subject.

"for the 12 months ended September 24, 2022" is the twelve months to that date (a fiscal year when it ends one),
never words of a metric's name; "the quarter ended July 2023" is the quarter whose last month that is; "and the same
quarter last year?" after a quarter's figure is that figure a year back, never a question about what the filings
say of a period; "same thing last year" asks the thread's figure again; "does marathon say the same thing?" in a
thread is about the company in the subject's slot.
"""

from __future__ import annotations

from agent.planning.brands import brands_from
from agent.planning.rules import plan_rules
from tests.test_company_reading import MARA, _lookup, directory  # noqa: F401  (the module's directory fixture)


def _writes_everything(phrase: str, ciks: frozenset[int]) -> int:
    # every word is one the thread's filings write often: "quarter" is, in any 10-K
    return 40


def _everything(phrase: str) -> list[tuple[int, int]]:
    return []


_everything.writes = _writes_everything  # type: ignore[attr-defined]


def test_twelve_months_ended_a_date_is_that_span_never_a_metric_word(directory):  # noqa: F811
    for text, end in (("AAPL revenue for the 12 months ended September 24, 2022 (USD millions)", "2022-09-24"),
                      ("What was Tesla's net income for the twelve months ended December 31, 2023?", "2023-12-31")):
        plan = plan_rules(text, directory=directory)
        assert plan.route == "domain" and plan.period and plan.period["kind"] == "ttm", plan
        assert plan.period["end"] == end and not plan.refusal_reason, plan


def test_the_quarter_ended_a_month_is_the_quarter_that_month_closes(directory):  # noqa: F811
    plan = plan_rules("apple revenue for the quarter ended july 2023", directory=directory)
    assert plan.route == "domain" and plan.period["kind"] == "quarter", plan
    assert (plan.period["end_month"], plan.period["end_year"]) == (7, 2023), plan


def test_the_same_quarter_last_year_is_the_threads_quarter_a_year_back(directory):  # noqa: F811
    with brands_from(_everything):
        first = plan_rules("apple revenue q2 fy2024", directory=directory)
        reply = plan_rules("and the same quarter last year?", previous=first, directory=directory)
    assert reply.route == "domain" and reply.metrics == ["revenue"], reply
    assert (reply.period["quarter"], reply.period["fiscal_year"]) == (2, 2023), reply


def test_same_thing_last_year_asks_the_threads_figure_of_the_year_before(directory):  # noqa: F811
    first = plan_rules("tesla net income fy2024", directory=directory)
    reply = plan_rules("same thing last year", previous=first, directory=directory)
    assert reply.route == "domain" and reply.metrics == first.metrics and reply.fiscal_years == [2023], reply


def test_a_name_in_the_subjects_slot_of_a_thread_reply_is_that_company(directory):  # noqa: F811
    with brands_from(_lookup):
        first = plan_rules("why did tesla's margins fall in 2023", directory=directory)
        reply = plan_rules("does marathon say the same thing?", previous=first, directory=directory)
    assert reply.tickers == ["MARA"], reply
