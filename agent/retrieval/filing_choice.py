"""Which 10-K a prose question means when it names the filing by when it came out or by its place
among the company's filings, not by the fiscal year it reports.

Why: a 10-K is filed after its year ends. For a company whose fiscal year is the calendar year, "the
10-K filed in February 2024" or "the annual report released in 2024" is the fiscal 2023 report, and
reading the fiscal 2024 one answers from a filing the user never meant. "The previous 10-K", "its
prior annual report" is the one before the latest, whatever year that is. A year said as the
fiscal year ("in 2023", "the 2023 10-K", "fiscal 2023") is the year's own report, as before.
"""

from __future__ import annotations

import datetime as dt

from agent.planning.prose_route import FILED_IN
from agent.planning.years import names_prior_filing

FILING_LAG = dt.timedelta(days=75)  # a 10-K is due 60-90 days after its year ends: when it came out, if not recorded


def filed_year(filing: dict) -> int | None:
    """The calendar year a 10-K came out: its recorded filing date, else its year-end plus the usual lag."""
    filed = filing.get("filed")
    if filed:
        return dt.date.fromisoformat(str(filed)[:10]).year
    end = filing.get("period_end")
    if not end or end == "None":
        return None
    return (dt.date.fromisoformat(str(end)[:10]) + FILING_LAG).year


def filed_in(question: str) -> int | None:
    """The calendar year the question says its filing came out in, if it says so."""
    m = FILED_IN.search(question)
    return int(next(g for g in m.groups() if g)) if m else None


def fiscal_year_filed_in(filings: dict[int, dict], year: int) -> int | None:
    """The fiscal year of the 10-K that came out in `year`: the held one (the latest such, if two did),
    else the one a company files each year at the same time after its year-end, counted from its
    latest held 10-K (a calendar-year company's 10-K filed in 2024 is fiscal 2023's, held or not: when
    not, the next one's discussion of it stands in, said in the answer, rather than another year read
    as if it were the one named)."""
    found = [fy for fy, f in filings.items() if filed_year(f) == year]
    if found:
        return max(found)
    dated = [(fy, filed_year(f)) for fy, f in filings.items() if filed_year(f) is not None]
    if not dated:
        return None
    fy, filed = max(dated)
    return year - (filed - fy)


def asks_prior_filing(question: str) -> bool:
    return names_prior_filing(question)
