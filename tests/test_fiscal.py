"""The fiscal year a period belongs to, in the company's own terms (non-calendar, 52/53-week)."""

from datetime import date

import pytest

from store.fiscal import fiscal_year_anchors, fiscal_year_for, is_annual

APPLE = [(date(2022, 9, 24), 2022), (date(2023, 9, 30), 2023), (date(2024, 9, 28), 2024)]
NVIDIA = [(date(2024, 1, 28), 2024), (date(2025, 1, 26), 2025)]
WALMART = [(date(2024, 1, 31), 2024)]
GAMESTOP = [(date(2024, 2, 3), 2023)]  # fiscal 2023 is a 53-week year ending in February 2024


@pytest.mark.parametrize(
    "period_end, anchors, expected",
    [
        # Apple's FY2024 10-K reports three years, all with fy=2024: each belongs to its own year.
        (date(2024, 9, 28), APPLE[-1:], 2024),
        (date(2023, 9, 30), APPLE[-1:], 2023),
        (date(2022, 9, 24), APPLE[-1:], 2022),
        (date(2021, 9, 25), APPLE[-1:], 2021),
        # A quarter ending in December belongs to the fiscal year ending the next September.
        (date(2023, 12, 30), APPLE, 2024),
        (date(2024, 6, 29), APPLE, 2024),
        # NVIDIA: fiscal 2024 ends in January 2024, so a period ending then is FY2024, not 2023.
        (date(2024, 1, 28), NVIDIA, 2024),
        (date(2023, 1, 29), NVIDIA, 2023),
        (date(2022, 1, 30), NVIDIA[:1], 2022),
        (date(2023, 10, 29), NVIDIA, 2024),
        (date(2026, 1, 25), NVIDIA, 2026),
        # Walmart: fiscal 2024 ends 2024-01-31 (calendar-month end, not 52/53 weeks).
        (date(2024, 1, 31), WALMART, 2024),
        (date(2023, 1, 31), WALMART, 2023),
        (date(2025, 1, 31), WALMART, 2025),
        # GameStop labels the year by its start: the year ending 2024-02-03 is fiscal 2023.
        (date(2024, 2, 3), GAMESTOP, 2023),
        (date(2023, 1, 28), GAMESTOP, 2022),
        (date(2025, 2, 1), GAMESTOP, 2024),
        # Calendar year.
        (date(2023, 12, 31), [(date(2024, 12, 31), 2024)], 2023),
        (date(2024, 3, 31), [(date(2024, 12, 31), 2024)], 2024),
    ],
)
def test_fiscal_year_for(period_end, anchors, expected):
    assert fiscal_year_for(period_end, anchors) == expected


def test_no_anchors_gives_none():
    assert fiscal_year_for(date(2024, 1, 28), []) is None


def test_nearest_anchor_wins_when_the_year_end_moved():
    # A company that moved its year end from December to June: each period follows its nearest anchor.
    anchors = [(date(2022, 12, 31), 2022), (date(2024, 6, 30), 2024)]
    assert fiscal_year_for(date(2021, 12, 31), anchors) == 2021
    assert fiscal_year_for(date(2024, 6, 30), anchors) == 2024
    assert fiscal_year_for(date(2025, 6, 30), anchors) == 2025


def test_is_annual():
    assert is_annual(date(2023, 10, 1), date(2024, 9, 28))  # Apple, 52 weeks
    assert is_annual(date(2022, 9, 25), date(2023, 9, 30))  # Apple, 53 weeks
    assert is_annual(date(2023, 1, 1), date(2023, 12, 31))
    assert not is_annual(date(2024, 6, 30), date(2024, 9, 28))  # a quarter
    assert not is_annual(date(2023, 1, 1), date(2024, 6, 30))  # eighteen months
    assert not is_annual(date(2023, 10, 1), date(2024, 6, 29))  # nine months
    assert not is_annual(None, date(2024, 9, 28))  # an instant


def test_anchor_pairs_are_deduplicated_and_sorted():
    pairs = [(date(2024, 9, 28), 2024), (date(2023, 9, 30), 2023), (date(2024, 9, 28), 2024), (None, 2022)]
    assert fiscal_year_anchors(pairs) == [(date(2023, 9, 30), 2023), (date(2024, 9, 28), 2024)]


def test_fiscal_periods_are_each_ends_year_and_quarter_computed_once_per_end():
    from store.fiscal import fiscal_periods, fiscal_quarter_for

    anchors = [(date(2023, 1, 29), 2023), (date(2024, 1, 28), 2024)]
    quarter_ends = {date(2023, 7, 30): 2}
    ends = [date(2023, 7, 30), date(2023, 4, 30), date(2023, 7, 30), date(2024, 1, 28), date(2022, 10, 30)]
    periods = fiscal_periods(ends, anchors, quarter_ends)
    assert set(periods) == set(ends)
    for end in ends:
        assert periods[end] == (fiscal_year_for(end, anchors), fiscal_quarter_for(end, anchors, quarter_ends))
    assert periods[date(2023, 7, 30)] == (2024, 2)
