"""A company's fiscal calendar and the exact periods a quarter question asks for.

Why here: the planner only knows words ("Q2 FY2024", "the June 2023 quarter", "last quarter");
which dates they mean depends on the company (NVIDIA's Q2 FY2024 ended July 30, 2023; Apple's
June quarter is its third). The calendar is read from the facts themselves: a fiscal year starts
where its years-to-date and its annual figure start, and a quarter's number is how many quarters
past that start its three months end. A figure is then one reported fact of exactly that period,
or a computation over reported facts (a fourth quarter as the year minus nine months, a trailing
twelve months), never a nearby period: no year for a quarter, no year to date for a quarter.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from datetime import date, timedelta
from decimal import Decimal

from store.quarters import PeriodFact

THREE_MONTHS = (80, 100)
HALF = (165, 195)
NINE = (245, 285)
YEAR = (357, 378)
MONTH_NAMES = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
               "November", "December"]
ORDINAL = {1: "first", 2: "second", 3: "third", 4: "fourth"}


def long_date(d: date) -> str:
    return f"{MONTH_NAMES[d.month - 1]} {d.day}, {d.year}"


def _within(days: int | None, bounds: tuple[int, int]) -> bool:
    return days is not None and bounds[0] <= days <= bounds[1]


@dataclass
class Calendar:
    """Each fiscal year's first and last day, as the company's facts report them."""

    starts: dict[int, date] = field(default_factory=dict)
    ends: dict[int, date] = field(default_factory=dict)

    @classmethod
    def of(cls, facts: list[PeriodFact]) -> "Calendar":
        starts: dict[int, Counter] = {}
        ends: dict[int, Counter] = {}
        for f in facts:
            if f.fiscal_year is None or f.start is None:
                continue
            if f.days >= HALF[0]:
                starts.setdefault(f.fiscal_year, Counter())[f.start] += 1
            if _within(f.days, YEAR):
                ends.setdefault(f.fiscal_year, Counter())[f.end] += 1
        cal = cls({fy: c.most_common(1)[0][0] for fy, c in starts.items()},
                  {fy: c.most_common(1)[0][0] for fy, c in ends.items()})
        for f in facts:  # a year with only quarters: Q1 starts it (after the prior year, or as ingest placed it)
            if f.fiscal_year is not None and f.fiscal_year not in cal.starts and _within(f.days, THREE_MONTHS):
                prior = cal.ends.get(f.fiscal_year - 1)
                if (prior is not None and abs((f.start - prior).days - 1) <= 3) or f.fiscal_quarter == 1:
                    cal.starts[f.fiscal_year] = f.start
        for f in facts:  # no start known: a later quarter's number, as ingest placed it, counts back to it
            if f.fiscal_year is not None and f.fiscal_year not in cal.starts and f.fiscal_quarter \
                    and _within(f.days, THREE_MONTHS) and f.fiscal_quarter in (2, 3):
                cal.starts[f.fiscal_year] = f.start - timedelta(days=round((f.fiscal_quarter - 1) * 91.31))
        return cal

    def start(self, fy: int) -> date | None:
        if fy in self.starts:
            return self.starts[fy]
        if fy - 1 in self.ends:
            return self.ends[fy - 1] + timedelta(days=1)
        if fy + 1 in self.starts:
            return self.starts[fy + 1] - timedelta(days=364)
        if fy - 1 in self.starts:
            return self.starts[fy - 1] + timedelta(days=364)
        return None

    def end(self, fy: int) -> date | None:
        if fy in self.ends:
            return self.ends[fy]
        nxt = self.starts.get(fy + 1)
        if nxt is not None:
            return nxt - timedelta(days=1)
        start = self.start(fy)
        return start + timedelta(days=363) if start else None

    def quarter_of(self, end: date, fy: int) -> int | None:
        start = self.start(fy)
        if start is None:
            return None
        q = round(((end - start).days + 1) / 91.3)
        return q if 1 <= q <= 4 else None

    def year_of(self, d: date) -> int | None:
        """The fiscal year a date falls in (the one whose start is the latest not after it)."""
        years = sorted(set(self.starts) | set(self.ends))
        for fy in sorted(years, reverse=True):
            start = self.start(fy)
            if start is not None and start <= d + timedelta(days=3):
                end = self.end(fy)
                if end is None or d <= end + timedelta(days=7):
                    return fy
                return fy + 1 if d <= end + timedelta(days=370) else None
        return None

    def ends_year(self, d: date) -> int | None:
        """The fiscal year ending on (or within a few days of) that date."""
        for fy, end in self.ends.items():
            if abs((end - d).days) <= 3:
                return fy
        return None


@dataclass
class Figure:
    """One value of one period: a reported fact, or a computation over figures."""

    value: Decimal
    fiscal_year: int
    span: str  # quarter | ytd | year | instant | ttm | growth
    start: date | None
    end: date
    quarter: int | None = None
    months: int | None = None
    fact: PeriodFact | None = None
    formula: str | None = None  # how a computed figure was made, in words
    inputs: list[tuple[str, "Figure"]] = field(default_factory=list)
    unit: str = "USD"

    @property
    def derived(self) -> bool:
        return self.fact is None

    def period_text(self) -> str:
        """"Q2 FY2024 (three months ended July 30, 2023)" — the period exactly, in the company's terms."""
        when = long_date(self.end)
        if self.span == "quarter":
            return f"Q{self.quarter} FY{self.fiscal_year} (three months ended {when})"
        if self.span == "ytd":
            months = {6: "six", 9: "nine", 3: "three"}.get(self.months or 0, f"{self.months}")
            if self.start is not None and self.inputs and self.inputs[-1][0] == "first half":
                return f"the {months} months ended {when} (the second half of FY{self.fiscal_year})"  # never "year to date"
            return f"the {months} months ended {when} (FY{self.fiscal_year} year to date)"
        if self.span == "year":
            return f"fiscal {self.fiscal_year} (year ended {when})"
        if self.span == "instant":
            q = f", the end of Q{self.quarter} FY{self.fiscal_year}" if self.quarter else ""
            return f"{when}{q}"
        if self.span == "ttm":
            return f"the trailing twelve months ended {when}"
        return when


def _best(cands: list[PeriodFact]) -> PeriodFact | None:
    """One fact among several filings' reports of one period: when they agree, the period's own
    filing (the 10-Q of that quarter); when a later filing restated it, the most recent."""
    if not cands:
        return None
    latest = max(cands, key=lambda f: (f.filed or date.min, f.filing_fiscal_year or 0, f.accession))
    same = [f for f in cands if f.value == latest.value]
    # the period's own filing: its document's period ends there, or (companyfacts) it is the filing of
    # the fiscal year the period belongs to, not a later year's comparative column
    return max(same, key=lambda f: (f.own_period, f.filing_fiscal_year == f.fiscal_year,
                                    not f.url.endswith("-index.htm"), -(f.filed or date.max).toordinal()))


class Periods:
    """The figures of one concept list (first concept with a value wins per period) for one company."""

    def __init__(self, facts: list[PeriodFact], calendar: Calendar, concepts: list[str]):
        order = {c if ":" in c else f"us-gaap:{c}": i for i, c in enumerate(concepts)}
        self.facts = sorted(facts, key=lambda f: order.get(f.concept, 99))
        self.cal = calendar
        self.order = order

    def _pick(self, pred) -> PeriodFact | None:
        by_concept: dict[str, list[PeriodFact]] = {}
        for f in self.facts:
            if pred(f):
                by_concept.setdefault(f.concept, []).append(f)
        for concept in sorted(by_concept, key=lambda c: self.order.get(c, 99)):
            return _best(by_concept[concept])
        return None

    def _fig(self, f: PeriodFact | None, span: str, quarter: int | None = None, months: int | None = None) -> Figure | None:
        if f is None:
            return None
        return Figure(value=f.value, fiscal_year=f.fiscal_year, span=span, start=f.start, end=f.end, quarter=quarter,
                      months=months, fact=f, unit=f.unit)

    # --- reported periods -------------------------------------------------------------------

    def quarter(self, fy: int, q: int) -> Figure | None:
        """Q1-Q3 as reported; Q4 as reported, else the year minus its first nine months."""
        f = self._pick(lambda f: f.fiscal_year == fy and _within(f.days, THREE_MONTHS)
                       and self.cal.quarter_of(f.end, fy) == q)
        if f is not None:
            return self._fig(f, "quarter", quarter=q)
        return self.fourth(fy) if q == 4 else None

    def year(self, fy: int) -> Figure | None:
        return self._fig(self._pick(lambda f: f.fiscal_year == fy and _within(f.days, YEAR)), "year")

    def ytd(self, fy: int, months: int) -> Figure | None:
        if months == 3:
            fig = self.quarter(fy, 1)
            if fig is not None:
                fig = Figure(**{**fig.__dict__, "span": "ytd", "months": 3})
            return fig
        bounds = HALF if months == 6 else NINE
        start = self.cal.start(fy)
        return self._fig(self._pick(lambda f: f.fiscal_year == fy and _within(f.days, bounds)
                                    and (start is None or abs((f.start - start).days) <= 3)), "ytd", months=months)

    def instant(self, end: date) -> Figure | None:
        f = self._pick(lambda f: f.start is None and f.end == end)
        if f is None:
            return None
        fy = f.fiscal_year
        q = self.cal.quarter_of(end, fy) if fy is not None else None
        return Figure(value=f.value, fiscal_year=fy, span="instant", start=None, end=end, quarter=q, fact=f, unit=f.unit)

    # --- computed periods -------------------------------------------------------------------

    def fourth(self, fy: int) -> Figure | None:
        year, nine = self.year(fy), self.ytd(fy, 9)
        if year is None or nine is None or year.fact.concept != nine.fact.concept:
            return None
        return Figure(value=year.value - nine.value, fiscal_year=fy, span="quarter", start=nine.end + timedelta(days=1),
                      end=year.end, quarter=4, formula="fiscal year minus the first nine months",
                      inputs=[("fiscal year", year), ("nine months", nine)], unit=year.unit)

    def second_half(self, fy: int) -> Figure | None:
        year, half = self.year(fy), self.ytd(fy, 6)
        if year is None or half is None or year.fact.concept != half.fact.concept:
            return None
        return Figure(value=year.value - half.value, fiscal_year=fy, span="ytd", start=half.end + timedelta(days=1),
                      end=year.end, months=6, formula="fiscal year minus the first six months",
                      inputs=[("fiscal year", year), ("first half", half)], unit=year.unit)

    def ttm(self, fy: int, q: int) -> Figure | None:
        """Trailing twelve months to the end of (fy, q): the prior year + this year to date - the
        prior year to date (the named assumption; four reported quarters sum to the same)."""
        if q == 4:
            year = self.year(fy)
            return None if year is None else Figure(**{**year.__dict__, "span": "ttm"})
        prior_year, ytd, prior_ytd = self.year(fy - 1), self.ytd(fy, 3 * q), self.ytd(fy - 1, 3 * q)
        if prior_year is None or ytd is None or prior_ytd is None:
            return None
        if len({f.fact.concept for f in (prior_year, ytd, prior_ytd) if f.fact is not None}) > 1:
            return None  # three figures of one line, never a mix of two concepts
        return Figure(value=prior_year.value + ytd.value - prior_ytd.value, fiscal_year=fy, span="ttm",
                      start=None, end=ytd.end, quarter=q,
                      formula="trailing twelve months = prior fiscal year + year to date - prior year to date",
                      inputs=[(f"fiscal {fy - 1}", prior_year), ("year to date", ytd), ("prior year to date", prior_ytd)],
                      unit=ytd.unit)

    # --- which quarter --------------------------------------------------------------------------

    def quarter_ends(self) -> list[tuple[int, int, date]]:
        """(fiscal year, quarter, end) of every quarter reported or derivable, oldest first."""
        seen: dict[tuple[int, int], date] = {}
        for f in self.facts:
            if f.fiscal_year is None:
                continue
            if _within(f.days, THREE_MONTHS) or _within(f.days, HALF) or _within(f.days, NINE):
                q = self.cal.quarter_of(f.end, f.fiscal_year)
                if q:
                    seen.setdefault((f.fiscal_year, q), f.end)
        for fy in list(self.cal.ends):
            if (fy, 3) in seen and self.year(fy) is not None and self.ytd(fy, 9) is not None:
                seen.setdefault((fy, 4), self.cal.ends[fy])
        return sorted(((fy, q, end) for (fy, q), end in seen.items()), key=lambda t: t[2])

    def three_month_ends(self) -> list[tuple[int, int, date]]:
        """Quarters whose three months are reported or derivable (a year to date alone is not one)."""
        out = []
        for fy, q, end in self.quarter_ends():
            if self.quarter(fy, q) is not None:
                out.append((fy, q, end))
        return out

    def locate(self, end: date) -> tuple[int, int] | None:
        """The (fiscal year, quarter) ending on that date (a few days' drift allowed)."""
        for fy, q, e in self.quarter_ends():
            if abs((e - end).days) <= 3:
                return fy, q
        fy = self.cal.year_of(end)
        if fy is None:
            return None
        q = self.cal.quarter_of(end, fy)
        start = self.cal.start(fy)
        if not q or start is None:
            return None
        nominal = start + timedelta(days=round(q * 91.31) - 1)
        return (fy, q) if abs((end - nominal).days) <= 7 else None  # a date inside a quarter is no quarter's end
