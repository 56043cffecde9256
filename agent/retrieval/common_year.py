"""The one fiscal year a comparison that names no year reads every company at.

"ko vs pep revenue" asks about the same stretch of time for both. Each company's own latest year
is not that when one has filed a 10-K the other has not yet (Coca-Cola's fiscal 2024 beside
PepsiCo's 2023): the comparison would set two different years side by side. So the companies are
read at the latest fiscal year they all report under one label, when those years end within about
seven months of each other. Labels do not always name the same months: Walmart's fiscal 2025 and
Home Depot's fiscal 2024 both end around February 2025, while Walmart's fiscal 2024 ended a year
earlier. With no such label, the years are matched by when they end: the reference is the company
whose latest year ends first, and every other company is read at its year ending nearest that date.
When some company has no year ending within half a year of it, there is no common year, and each
keeps its own latest (the answer names each company's year).
"""

from __future__ import annotations

from datetime import date, timedelta

from store import facts as facts_store

# two fiscal years ending this close cover mostly the same months
_SAME_YEAR = timedelta(days=183)
# one label's years ending this close are read as that fiscal year for every company
_SAME_LABEL = timedelta(days=215)
# a company's latest years considered for the match (the reference is at most a year or two behind)
_LOOK_BACK = 3


def aligned_latest(conn, memo: dict, companies: dict[str, tuple[int, list[int]]]) -> dict[str, int]:
    """{ticker: fiscal year} to read each company at instead of its own latest, or {} when every
    company's latest already is the common year or no common year exists.

    `companies` maps each ticker to (cik, the fiscal years it reports, latest first)."""
    if len(companies) < 2 or any(not years for _, years in companies.values()):
        return {}
    ends: dict[str, dict[int, date]] = {}
    for ticker, (cik, years) in companies.items():
        ends[ticker] = {}
        for fy in years[:_LOOK_BACK]:
            end = _year_end(conn, memo, cik, fy)
            if end is not None:
                ends[ticker][fy] = end
        if years[0] not in ends[ticker]:
            return {}  # its latest year has no known end: nothing to match by
    chosen = _same_label(ends) or _nearest_end(ends, min(ends[t][companies[t][1][0]] for t in companies))
    if not chosen or all(chosen[t] == companies[t][1][0] for t in companies):
        return {}
    return chosen


def _same_label(ends: dict[str, dict[int, date]]) -> dict[str, int]:
    """The latest fiscal year every company reports under the same label, when those years end within
    about seven months of each other (Adobe's fiscal 2024, ending in November, and Smucker's, ending in
    April, are each one's "fiscal 2024"); {} when no label is shared so (Walmart's fiscal 2024 ended a
    year before Home Depot's)."""
    for fy in sorted(set.intersection(*(set(by_year) for by_year in ends.values())), reverse=True):
        dates = [by_year[fy] for by_year in ends.values()]
        if max(dates) - min(dates) <= _SAME_LABEL:
            return {t: fy for t in ends}
    return {}


def _nearest_end(ends: dict[str, dict[int, date]], reference: date) -> dict[str, int]:
    """Each company at its year ending nearest `reference`, or {} when one has none within half a year."""
    chosen: dict[str, int] = {}
    for ticker, by_year in ends.items():
        fy = min(by_year, key=lambda y: (abs(by_year[y] - reference), -y))
        if abs(by_year[fy] - reference) > _SAME_YEAR:
            return {}
        chosen[ticker] = fy
    return chosen


def _year_end(conn, memo: dict, cik: int, fiscal_year: int) -> date | None:
    key = ("fiscal_year_end", cik, fiscal_year)
    if key not in memo:
        memo[key] = facts_store.fiscal_year_end(conn, cik, fiscal_year)
    return memo[key]
