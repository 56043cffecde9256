"""A quarter carried by a follow-up to another company ("same for amd" after Nvidia's Q2 FY2024) is that company's
own quarter of the same months, and the answer says so: Nvidia's fiscal 2024 ends in January, AMD's in December,
so Nvidia's Q2 FY2024 (ended July 30, 2023) is AMD's Q2 FY2023 (ended July 1, 2023), never AMD's Q2 FY2024 a year
later. Real figures typed in as facts (USD millions, from the companies' 10-Qs and 10-Ks)."""

from __future__ import annotations

import uuid
from datetime import date
from decimal import Decimal

import pytest

from agent.answer import Turn
from agent.planning.rules import plan_rules
from tests.test_facts import company, fact, filing
from tests.test_figures import directory  # noqa: F401  (the module's directory fixture)
from tests.test_quarter_answers import M, footnote, nvidia  # noqa: F401  (fixtures)

AMD = 2488
AMD_K23, AMD_K24 = "0000002488-24-000012", "0000002488-25-000012"
AMD_Q2_23, AMD_Q2_24 = "0000002488-23-000139", "0000002488-24-000121"


@pytest.fixture
def with_amd(nvidia):
    with nvidia.connection() as conn:
        company(conn, AMD, "ADVANCED MICRO DEVICES INC", ["AMD"], "1228")
        filing(conn, AMD, AMD_K24, 2024, date(2024, 12, 28), date(2025, 2, 5))
        for acc, form, start, end, value, fy in (
                (AMD_K23, "10-K", date(2023, 1, 1), date(2023, 12, 30), 22680, 2023),
                (AMD_K24, "10-K", date(2023, 12, 31), date(2024, 12, 28), 25785, 2024),
                (AMD_Q2_23, "10-Q", date(2023, 4, 2), date(2023, 7, 1), 5359, 2023),
                (AMD_Q2_24, "10-Q", date(2024, 3, 31), date(2024, 6, 29), 5835, 2024)):
            fact(conn, AMD, acc, "Revenues", str(value * M), end, start, fiscal_year=fy, fy=fy, form=form,
                 fp="FY" if form == "10-K" else "Q2", filed=date(fy + 1, 2, 5) if form == "10-K" else date(fy, 8, 1))
    return nvidia


def test_a_follow_up_naming_another_company_marks_the_quarter_as_the_threads_companys(directory):  # noqa: F811
    first = plan_rules("nvidia revenue q2 fy2024", directory=directory)
    second = plan_rules("same for apple", previous=first, directory=directory)
    assert second.tickers == ["AAPL"] and second.period["of"] == "NVDA", second
    # a reply about the same company, or naming its own year, is in that company's calendar
    again = plan_rules("and q3?", previous=first, directory=directory)
    assert "of" not in (again.period or {}), again
    # "for the same quarter" is the thread's quarter, never a period it cannot read
    same = plan_rules("what about Apple for the same quarter", previous=first, directory=directory)
    assert same.route == "domain" and same.period["quarter"] == 2 and same.period["of"] == "NVDA", same


def test_same_for_another_company_answers_its_own_quarter_of_the_same_months(with_amd, footnote):  # noqa: F811
    thread = f"test:{uuid.uuid4().hex}"
    first = footnote.answer(Turn(thread_key=thread, user="u", text="nvidia revenue q2 fy2024"))
    assert {Decimal(n.value) for n in first.numbers} == {Decimal(13507 * M)}
    second = footnote.answer(Turn(thread_key=thread, user="u", text="same for amd"))
    assert second.kind == "answer", second.text
    assert {Decimal(n.value) for n in second.numbers} == {Decimal(5359 * M)}  # never Q2 FY2024's 5,835
    assert "nearest in time to Nvidia's Q2 FY2024" in second.text and "July 1, 2023" in second.text
