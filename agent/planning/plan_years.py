"""The plan's years: the message's own, else the thread's (shifted by "the year before"); the latest
year the store covers for the companies asked; and a statement about a year ahead, read from the
latest filing rather than as a figure of a year not yet reported.

Why a module of its own: the planner's flow (agent.planning.rules) fills the plan's year fields from
here; the coverage years decide both what is ahead and what "since 2021" runs to.
"""

from __future__ import annotations

import re

from agent.planning.companies import CompanyDirectory
from agent.planning.plan import Plan
from agent.planning.quarters import bare_latest
from agent.planning.reading import Reading
from agent.planning.scope import exposure, filed_future
from agent.planning.word_accounting import COMPARING
from agent.planning.years import Years


def latest_covered_year(directory: CompanyDirectory, tickers: list[str]) -> int | None:
    years: list[int] = []
    for t in tickers:
        c = directory.get(t)
        if c is not None:
            years += directory.years.get(c.cik, [])
    return max(years) if years else None


def last_completed_year(directory: CompanyDirectory, tickers: list[str]) -> dict:
    """The year fields of "last fiscal year": the year of the latest 10-K held, when every company asked
    has the same one; else each company's latest year. Why the 10-K: the user counts back from the
    filings, and a year of figures alone (a later companyfacts year) is no year a held filing reports."""
    held = []
    for t in tickers:
        c = directory.get(t)
        years = directory.years.get(c.cik, []) if c is not None else []
        if years:
            held.append(max(years))
    if tickers and len(held) == len(tickers) and len(set(held)) == 1:
        return {"fiscal_years": [held[0]], "latest": False, "year_offsets": []}
    return {"year_offsets": []}


def _year_fields(years: Years, previous: Plan | None, directory: CompanyDirectory, tickers: list[str]) -> dict:
    """The plan's year fields: the message's own, else (`previous` given) the thread's."""
    if previous is not None:
        return {"fiscal_years": list(previous.fiscal_years), "latest": previous.latest,
                "year_offsets": list(previous.year_offsets), "as_of_filing_year": previous.as_of_filing_year}
    out = {"fiscal_years": list(years.years), "latest": years.latest or not years.given,
           "year_offsets": list(years.offsets), "as_of_filing_year": years.as_of}
    if years.since is not None:
        top = latest_covered_year(directory, tickers)
        if top is not None and top >= years.since:
            out.update(fiscal_years=list(range(years.since, top + 1)), latest=False)
        else:
            out["fiscal_years"] = [years.since]
    return out


def filing_statement(r: Reading, directory: CompanyDirectory, tickers: list[str]) -> None:
    """What a company or its filing says it expects, plans or will record: prose from the filing
    (MD&A first), quoted, never a figure of a year not yet reported nor a forecast of our own. A
    future year in the question is the year the statement is about; the latest filing states it."""
    r.measures, r.unmappable, r.has_topic, r.why = [], None, True, False
    r.items = r.items or (["1A", "7"] if exposure(r.low) else ["7"])
    if filed_future(r.low) and "8" not in r.items:
        r.items = [*r.items, "8"]  # amounts to be recorded or paid are scheduled in the notes too
    if r.years.as_of:  # "what does its 2024 10-K say it expects for 2025?": that filing
        r.years = Years(years=[r.years.as_of], as_of=r.years.as_of)
        return
    top = latest_covered_year(directory, tickers)
    future = [y for y in r.years.years if top is None or y > top]
    if future or any(o > 0 for o in r.years.offsets):
        r.years = Years(years=[y for y in r.years.years if y not in future],
                        latest=True, offsets=[o for o in r.years.offsets if o <= 0], as_of=r.years.as_of)
        if not r.years.years:
            r.years.latest = True


def asked_years(r: Reading, prev: Plan | None, followup: bool, directory: CompanyDirectory) -> tuple[dict, bool]:
    """The plan's year fields, and whether they came from the thread."""
    # a message naming only companies the thread has discussed ("net margin for McDonald's and Coke?") is
    # asked at the thread's years, as a follow-up is: not at each one's latest filing
    ctx = prev if (not r.years.given and prev is not None and (
        followup or not r.matches or _of_the_thread(r, prev))) else None
    fields = _year_fields(r.years, ctx, directory, r.tickers)
    if r.years.last_completed and not (prev is not None and followup) and fields["year_offsets"] == [-1]:
        # "apple revenue last fiscal year" as a first question: the fiscal year Apple last completed, which its
        # latest 10-K held reports, never the one before it ("and last year?" in a thread counts back, below)
        fields.update(last_completed_year(directory, r.tickers))
    if r.years.latest_said and r.measures and ctx is None and not fields["fiscal_years"] \
            and fields["year_offsets"] in ([], [0]) and not fields.get("as_of_filing_year") \
            and (len(r.tickers) != 1 or not bare_latest(r.low)):
        # "apple's latest annual revenue", "nvda revenue this year": the year the latest 10-K held reports, as for
        # "last fiscal year"; never a later year of figures alone, which no held filing reports. "nvidia's latest
        # revenue", a year unsaid, is the most recent period held (agent.planning.quarters.latest_period)
        fields.update(last_completed_year(directory, r.tickers))
    if r.years.offsets and not r.years.years and not r.years.since and prev is not None and followup:
        # "and the year before?": relative to the year the thread is on, not to the latest filing
        # "how does that compare with the year before?": both years, the thread's and the one named
        both = [0] if COMPARING.search(r.low) or re.search(r"\b(?:vs\.?|versus|against)\b", r.low) else []
        # "and what did Nvidia say the year before?" after AMD's turn: before the year the thread showed Nvidia
        named = {max(prev.company_years[t]) for t in r.tickers if (prev.company_years or {}).get(t)}
        if r.tickers and len(named) == 1 and set(r.tickers) <= set(prev.company_years or {}):
            fields.update(fiscal_years=sorted({named.pop() + o for o in [*both, *r.years.offsets]}), latest=False,
                          year_offsets=[])
        elif prev.latest and len(prev.tickers) > 1 and len(set(prev.fiscal_years)) > 1:
            # companies each on their own latest year (Nvidia's fiscal 2025 beside Intel's 2023): "the year
            # before" is each one's year before its own, never one year for all that some do not report
            base_offset = max(prev.year_offsets or [0])
            fields.update(fiscal_years=[], latest=True,
                          year_offsets=sorted({base_offset + o for o in [*both, *r.years.offsets]}))
        elif prev.fiscal_years:
            base = max(prev.fiscal_years)
            fields.update(fiscal_years=sorted({base + o for o in [*both, *r.years.offsets]}), latest=False,
                          year_offsets=[])
        elif prev.latest:
            base_offset = max(prev.year_offsets or [0])
            fields.update(year_offsets=sorted({base_offset + o for o in [*both, *r.years.offsets]}))
    inherited = ctx is not None and bool(ctx.fiscal_years or ctx.latest or ctx.year_offsets)
    return fields, inherited


def _of_the_thread(r: Reading, prev: Plan) -> bool:
    """Every company the message names is one the thread has answered for."""
    from agent.planning.thread import discussed

    return prev.route == "domain" and bool(r.tickers) and set(r.tickers) <= set(discussed(prev))


def filing_outlook(plan: Plan) -> bool:
    """A named filing asked about a later year: what that filing says it expects (quoted from its
    text), not figures of a year it has not reported and not a forecast of Footnote's own."""
    return bool(plan.as_of_filing_year and plan.fiscal_years and max(plan.fiscal_years) > plan.as_of_filing_year)


def own_years(plan: Plan, prev: Plan | None, from_thread: bool) -> dict[str, list[int]]:
    """Each of the plan's companies at its own years, when the message named no year and the thread
    showed its companies at different ones: the same offsets from each company's own last years as
    the plan's years are from the thread's ("which is bigger?" keeps each figure's year, "and the year
    before for both" steps each company back from its own year). Empty when all would be the plan's
    years anyway, so fetch reads the plan's one list as before.

    Why: a thread that asked "Nvidia FY2025" then "and Alphabet 2024" shows two figures of two years;
    one shared year list would answer "which is bigger?" with figures never shown, one company's
    missing where its fiscal year ends at another time of year."""
    if (prev is None or not from_thread or not prev.company_years or len(plan.tickers) < 2 or plan.latest
            or not plan.fiscal_years or not prev.fiscal_years or plan.as_of_filing_year or plan.period):
        return {}
    offsets = sorted({y - max(prev.fiscal_years) for y in plan.fiscal_years})
    own = {t: sorted({max(prev.company_years[t]) + o for o in offsets})
           for t in plan.tickers if prev.company_years.get(t)}
    if all(ys == sorted(plan.fiscal_years) for ys in own.values()):
        return {}
    return own


def unheld_filing_years(plan: dict, filing_years: list[int], figure_years: list[int], numeric: bool,
                        ahead: bool = False) -> dict | None:
    """The plan's year fields when it names a 10-K by its fiscal year ("their 2023 annual report",
    "Tesla's 2022 10-K") that is not held, but a held filing reports that year: the year asked as if
    said "fiscal 2023", so that a figure is read from a later 10-K's comparatives and prose from the
    next 10-K's discussion of it (the answer names the filing it reads). None when the filing is held,
    or nothing held covers the year (refused year_not_available, naming the years held), or the
    question asks what that filing expected of a later year (no later filing states it).

    Why: "nke FY23" and "Nike's 2023 annual report" name the same year; one was answered from the
    FY2024 10-K's discussion of fiscal 2023 and the other refused."""
    named = plan.get("as_of_filing_year")
    if not named or int(named) in filing_years or ahead:
        return None
    asked = sorted(plan.get("fiscal_years") or [int(named)])
    if any(y > int(named) for y in asked):
        return None  # what the named filing said of a later year: that filing's own words alone
    if numeric:
        covered = all(y in figure_years for y in asked)
    else:  # a 10-K's MD&A compares its year with the one or two before
        covered = all(any(y < h <= y + 2 for h in filing_years) for y in asked)
    if not covered:
        return None
    return {"as_of_filing_year": None, "fiscal_years": asked, "latest": False, "year_offsets": []}


def years_unanswered(plan: Plan, cells: list[dict]) -> dict[str, list[int]]:
    """Per company, the years the question asked that no figure of the answer is of: no filing held
    reports them ("revenue 2019 to 2023" where the earliest held 10-K starts at 2021; "over the last
    five years" where three are held). A figure of a year not reported has a cell of its own, said
    "not reported" there, so it is not counted here.

    Why: the years held alone, shown as the whole answer, read as the span asked; the question asked
    for every year, so the answer says which ones it could not give."""
    if plan.period or not cells:
        return {}
    out: dict[str, list[int]] = {}
    for ticker in dict.fromkeys(c["ticker"] for c in cells):
        shown = {int(c["fiscal_year"]) for c in cells if c["ticker"] == ticker and c.get("fiscal_year")}
        if not shown:
            continue
        if (plan.company_years or {}).get(ticker):
            asked = set(plan.company_years[ticker])
        elif plan.fiscal_years and not plan.latest:
            asked = set(plan.fiscal_years)
        elif len(plan.year_offsets) > 1:  # "over the last five years": back from the latest year shown
            asked = {max(shown) - max(plan.year_offsets) + o for o in plan.year_offsets}
        else:
            continue
        missing = sorted(y for y in asked - shown if y < max(shown))
        if missing:
            out[ticker] = missing
    return out
