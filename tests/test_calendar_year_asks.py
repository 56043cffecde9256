"""A figure asked for a calendar year of a company whose fiscal year ends a month into the next calendar year is
answered with the fiscal year that covers it, said beside the figure: NVIDIA's fiscal 2024 ran from February 2023
to January 2024, so "calendar 2023" is fiscal 2024, never fiscal 2023 (February 2022 to January 2023). A fiscal
year ending elsewhere in the year (September, May) covers part of the calendar year only, and is refused with
why. Real figures typed in (tests.test_quarter_answers)."""

from __future__ import annotations

from decimal import Decimal

from agent.retrieval.fetch import _calendar_year_asked
from tests.test_quarter_answers import ask, footnote, nvidia  # noqa: F401  (fixtures)


def test_a_calendar_year_of_a_january_fiscal_year_is_the_fiscal_year_covering_it(footnote):  # noqa: F811
    answer = ask(footnote, "nvidia revenue for calendar 2023")
    assert answer.kind == "answer", answer.text
    assert {n.fiscal_year for n in answer.numbers} == {2024}
    assert {Decimal(n.value) for n in answer.numbers} == {Decimal(60922) * 1_000_000}
    assert "for calendar 2023: fiscal 2024 ran February 2023 to January 2024" in answer.text
    # the fiscal year, asked as one, is answered as before, with no calendar note
    fiscal = ask(footnote, "nvidia revenue fiscal 2024")
    assert fiscal.kind == "answer" and "calendar" not in fiscal.text


def test_a_calendar_year_of_a_year_ending_elsewhere_is_refused_saying_why():
    september = {2023: {"period_end": "2023-09-30"}, 2024: {"period_end": "2024-09-28"}}
    refused, moved = _calendar_year_asked("apple revenue calendar 2023", {"fiscal_years": [2023]}, september)
    assert moved is None and "calendar 2023" in refused and "fiscal year ends in September" in refused
    december = {2023: {"period_end": "2023-12-31"}}
    assert _calendar_year_asked("ko revenue cy2023", {"fiscal_years": [2023]}, december) == (None, None)
    january = {2024: {"period_end": "2024-01-28"}, 2025: {"period_end": "2025-01-26"}}
    refused, moved = _calendar_year_asked("nvda revenue calendar 2023 and 2024", {"fiscal_years": [2023, 2024]}, january)
    assert refused is None and moved["fiscal_years"] == [2024, 2025] and moved["latest"] is False
