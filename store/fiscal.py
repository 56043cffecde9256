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
from datetime import date

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
