"""A quarter compared with a year earlier ("vs a year ago?" after a quarter's figure, "Q2 2024 vs Q2 2023", "what
about the prior-year quarter?") reads both quarters, or the earlier one: never the later quarter alone, which
answered "vs a year ago?" with the figure the thread had just given. Real figures typed in as facts (USD millions,
AMD's 10-Qs)."""

from __future__ import annotations

import uuid
from decimal import Decimal

from agent.answer import Turn
from agent.planning.rules import plan_rules
from tests.test_figures import directory  # noqa: F401  (the module's directory fixture)
from tests.test_quarter_answers import M, footnote, nvidia  # noqa: F401  (fixtures)
from tests.test_quarter_carried_to_another_company import with_amd  # noqa: F401  (fixture)


def test_a_quarter_against_a_year_earlier_is_planned_as_both_quarters(directory):  # noqa: F811
    first = plan_rules("nvidia revenue q2 fy2024", directory=directory)
    versus = plan_rules("vs a year ago?", previous=first, directory=directory)
    assert versus.period["growth"] == "yoy" and versus.period["fiscal_year"] == 2024, versus
    named = plan_rules("nvidia revenue q2 fy2024 vs q2 fy2023", directory=directory)
    assert named.period["growth"] == "yoy" and named.period["fiscal_year"] == 2024, named
    earlier = plan_rules("what about the prior-year quarter", previous=first, directory=directory)
    assert earlier.route == "domain" and earlier.period["quarter"] == 2 and earlier.period["fiscal_year"] == 2023, earlier
    # a quarter alone, and a year's comparison, are as before
    assert "growth" not in plan_rules("nvidia revenue q2 fy2024", directory=directory).period
    annual = plan_rules("vs a year ago?", previous=plan_rules("nvidia revenue fy2024", directory=directory),
                        directory=directory)
    assert not annual.period and sorted(annual.fiscal_years) == [2023, 2024], annual


def test_vs_a_year_ago_after_a_quarter_states_the_year_earlier_quarter(with_amd, footnote):  # noqa: F811
    thread = f"test:{uuid.uuid4().hex}"
    first = footnote.answer(Turn(thread_key=thread, user="u", text="amd revenue q2 fy2024"))
    assert {Decimal(n.value) for n in first.numbers} == {Decimal(5835 * M)}
    second = footnote.answer(Turn(thread_key=thread, user="u", text="vs a year ago?"))
    assert second.kind == "answer", second.text
    assert {Decimal(5835 * M), Decimal(5359 * M)} <= {Decimal(n.value) for n in second.numbers}, second.text
    third = footnote.answer(Turn(thread_key=thread, user="u", text="and the prior-year quarter?"))
    assert {Decimal(n.value) for n in third.numbers} == {Decimal(5359 * M)}, third.text


def test_compared_with_the_year_ago_quarter_reads_both(directory):  # noqa: F811
    first = plan_rules("nvidia revenue q2 fy2024", directory=directory)
    compared = plan_rules("compared with the year-ago quarter?", previous=first, directory=directory)
    assert compared.period["growth"] == "yoy" and compared.period["fiscal_year"] == 2024, compared


def test_last_years_quarter_in_a_thread_counts_back_from_the_threads_quarter(directory):  # noqa: F811
    first = plan_rules("nvidia revenue q2 fy2024", directory=directory)
    alone = plan_rules("and last year's q2?", previous=first, directory=directory)
    assert alone.period["quarter"] == 2 and alone.period["fiscal_year"] == 2023, alone
    assert not alone.period.get("latest"), alone
    versus = plan_rules("how does that compare to last year's q2?", previous=first, directory=directory)
    assert versus.period["growth"] == "yoy" and versus.period["fiscal_year"] == 2024, versus
    # a quarter with no year after a quarter is the thread's year, as before
    assert plan_rules("and q3?", previous=first, directory=directory).period["fiscal_year"] == 2024


def test_the_previous_quarter_in_a_thread_is_the_quarter_before_the_threads(directory):  # noqa: F811
    first = plan_rules("nvidia revenue q2 fy2024", directory=directory)
    before = plan_rules("and the previous quarter?", previous=first, directory=directory)
    assert before.route == "domain" and (before.period["quarter"], before.period["fiscal_year"]) == (1, 2024), before
    q1 = plan_rules("nvidia revenue q1 fy2024", directory=directory)
    wrapped = plan_rules("what about the prior quarter", previous=q1, directory=directory)
    assert (wrapped.period["quarter"], wrapped.period["fiscal_year"]) == (4, 2023), wrapped
    # after a year's figure there is no thread quarter to step back from: not read as one
    annual = plan_rules("and the previous quarter?", previous=plan_rules("nvidia revenue fy2024", directory=directory),
                        directory=directory)
    assert not (annual.period or {}).get("quarter") or annual.route != "domain", annual


def test_a_comparison_with_the_previous_quarter_in_a_thread_is_the_threads_quarter_against_it(directory):  # noqa: F811
    first = plan_rules("nvidia revenue q2 fy2024", directory=directory)
    versus = plan_rules("how does that compare with the previous quarter?", previous=first, directory=directory)
    assert versus.period["growth"] == "sequential", versus
    assert (versus.period["quarter"], versus.period["fiscal_year"]) == (2, 2024), versus
    why = plan_rules("what drove the increase from the prior quarter?", previous=first, directory=directory)
    assert why.intent == "qualitative" and (why.period["quarter"], why.period["fiscal_year"]) == (2, 2024), why
