"""Which of the company's fiscal years a period belongs to.

A fact's `fy` is the fiscal year of the filing that reported it, not of the period it covers:
Apple's FY2024 10-K reports R&D for FY2024, FY2023 and FY2022, all with fy=2024. The period's
own fiscal year comes from anchors, (fiscal year end, the company's label for that year) pairs
read from 10-K cover pages and companyfacts, by whole-year steps from the nearest anchor. The
steps tolerate 52/53-week years, whose ends drift a few days around the same calendar date,
and non-calendar labels (NVIDIA's fiscal 2024 ends 2024-01-28, GameStop's fiscal 2023 ends
2024-02-03): the label is the company's, never inferred from the calendar year.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from datetime import date, timedelta

YEAR_DAYS = 365.2425
# A 52/53-week year ends up to a week either side of its nominal date; no quarter ends this
# close after a year end, so a period ending within this many days after an anchor's
# (shifted) date still belongs to that anchor's year.
DRIFT_DAYS = 10


def fiscal_year_for(period_end: date, anchors: list[tuple[date, int]]) -> int | None:
    """The company's fiscal-year label for a period ending on `period_end`, or None without anchors.

    A period belongs to the first fiscal year whose end falls on or after it (a quarter ending
    in December belongs to the fiscal year ending the next September); ends a few days past a
    fiscal year end count as that year (52/53-week drift).
    """
    if not anchors:
        return None
    anchor_end, anchor_fy = min(anchors, key=lambda a: (abs((period_end - a[0]).days), -a[1]))
    delta = (period_end - anchor_end).days
    steps = math.ceil((delta - DRIFT_DAYS) / YEAR_DAYS)
    return anchor_fy + steps


def is_annual(period_start: date | None, period_end: date) -> bool:
    """True for a duration of one fiscal year: 52 or 53 weeks, or a calendar year."""
    if period_start is None:
        return False
    days = (period_end - period_start).days
    return 357 <= days <= 378


def fiscal_year_anchors(pairs) -> list[tuple[date, int]]:
    """Deduplicated, sorted anchors from (period_end, fy) pairs; drops pairs with a missing part."""
    seen: dict[date, int] = {}
    for end, fy in pairs:
        if end is None or fy is None:
            continue
        seen.setdefault(end, int(fy))
    return sorted(seen.items())


# -- fiscal quarters ---------------------------------------------------------------------------

QUARTER_DAYS = YEAR_DAYS / 4
# A 13-week quarter ends within days of a quarter of the fiscal year; a 53rd week, or a year end
# estimated from another year's anchor, moves it a week or so. A date further off than this is
# no quarter end (a cover date, a subsequent event).
QUARTER_DRIFT_DAYS = 16


def quarter_before_year_end(period_end: date, year_end: date) -> int | None:
    """1-4: the fiscal quarter a period ending on `period_end` closes, in the fiscal year ending
    `year_end`; None when `period_end` is not near a quarter end of that year."""
    days_left = (year_end - period_end).days
    quarters_left = round(days_left / QUARTER_DAYS)
    if not 0 <= quarters_left <= 3 or abs(days_left - quarters_left * QUARTER_DAYS) > QUARTER_DRIFT_DAYS:
        return None
    return 4 - quarters_left


def fiscal_quarter_for(period_end: date, anchors: list[tuple[date, int]],
                       quarter_ends: dict[date, int] | None = None) -> int | None:  # fmt: skip
    """The company's fiscal quarter (1-4) whose end `period_end` is, or None (no anchors, or not a
    quarter end). With `fiscal_year_for`, a period ending then is (fiscal year, quarter): a
    three-month duration is that quarter, a longer one the year to date, an instant the balance
    at the quarter's end. NVIDIA's quarter ended 2023-07-30 is Q2 of FY2024.

    `quarter_ends` maps the period ends the company's own 10-Qs declare to their quarter; they win
    over the arithmetic, which assumes quarters of about 13 weeks (PepsiCo's are 12, 12, 12 and 16)."""
    for shift in (0, -1, 1, -2, 2, -3, 3):
        quarter = (quarter_ends or {}).get(period_end + timedelta(days=shift))
        if quarter is not None:
            return quarter
    fy = fiscal_year_for(period_end, anchors)
    if fy is None:
        return None
    return quarter_before_year_end(period_end, year_end_of(fy, anchors))


def fiscal_periods(period_ends: Iterable[date], anchors: list[tuple[date, int]],
                   quarter_ends: dict[date, int] | None = None) -> dict[date, tuple[int | None, int | None]]:  # fmt: skip
    """{period end: (fiscal year, fiscal quarter)} for each distinct end, as `fiscal_year_for` and
    `fiscal_quarter_for` give them. A company's tens of thousands of facts share a few hundred
    period ends, and each lookup scans every anchor: computed per fact, this was most of the CPU
    of storing a companyfacts file."""
    return {end: (fiscal_year_for(end, anchors), fiscal_quarter_for(end, anchors, quarter_ends))
            for end in set(period_ends)}  # fmt: skip


def year_end_of(fiscal_year: int, anchors: list[tuple[date, int]]) -> date:
    """The end of `fiscal_year`: its own anchor's date, else the nearest anchor's moved by whole years."""
    own = [end for end, fy in anchors if fy == fiscal_year]
    if own:
        return max(own)
    anchor_end, anchor_fy = min(anchors, key=lambda a: (abs(a[1] - fiscal_year), -a[1]))
    return anchor_end + timedelta(days=round((fiscal_year - anchor_fy) * YEAR_DAYS))


def year_end_after(period_end: date, month_day: str) -> date:
    """The first date on or after `period_end` with month and day `month_day` ('0128', SEC's MMDD);
    Feb 29 falls back to Feb 28 in other years."""
    month, day = int(month_day[:2]), int(month_day[2:])
    for year in (period_end.year, period_end.year + 1):
        try:
            candidate = date(year, month, day)
        except ValueError:
            candidate = date(year, month, 28)
        if candidate >= period_end:
            return candidate
    raise ValueError(month_day)


def quarter_anchor(period_end: date, fiscal_year: int, quarter: int) -> tuple[date, int]:
    """An anchor (estimated fiscal year end, label) from a 10-Q cover: for a company with no 10-K
    yet, its quarters still fall in the fiscal years it names."""
    return period_end + timedelta(days=round((4 - quarter) * QUARTER_DAYS)), fiscal_year
