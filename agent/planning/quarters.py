"""Quarter phrases in a question: "Q2 FY2024", "the June 2023 quarter", "last quarter", "first half",
"year to date", "nine months ended July 1, 2023", "trailing twelve months", "quarterly ... by quarter".

Why a parser of its own: a quarter is named in many ways, each meaning one exact period of the
company's own fiscal calendar, and the wrong period is the worst answer (a year for a quarter, six
months for three). This turns the words into a period request; agent.retrieval.quarters makes it concrete
per company from the facts' exact start and end dates. It also returns the words it consumed, so
word accounting (agent.planning.words) knows the period was understood.

A year written beside a quarter ("Q2 2024") is the company's fiscal-year label, as in its own
10-Q; when that differs from the calendar the answer says which quarter it took.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field
from datetime import date

from agent.retrieval.concepts import normalize

MONTHS = {m: i for i, names in enumerate(
    [("january", "jan"), ("february", "feb"), ("march", "mar"), ("april", "apr"), ("may",), ("june", "jun"),
     ("july", "jul"), ("august", "aug"), ("september", "sep", "sept"), ("october", "oct"), ("november", "nov"),
     ("december", "dec")], start=1) for m in names}
_MONTH = r"(january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|" \
         r"jun|jul|aug|sept|sep|oct|nov|dec)\.?"
_DATE = _MONTH + r"\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})"
_ORDINAL = {"first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4}
_SPAN_MONTHS = {"three": 3, "3": 3, "six": 6, "6": 6, "nine": 9, "9": 9, "twelve": 12, "12": 12}
_COUNT = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8}

_Q = re.compile(r"\b(?:q([1-4])|([1-4])q)\b")
_ORD_Q = re.compile(r"\b(first|second|third|fourth|1st|2nd|3rd|4th)[\s-]+(?:fiscal\s+)?quarter\b")
_FROM_TO_Q = re.compile(r"\bfrom\s+q([1-4])\s+to\s+q([1-4])\b")
_SPAN_ENDED = re.compile(r"\b(three|six|nine|twelve|3|6|9|12)[\s-]+months?\s+(?:period\s+)?(?:ended|ending|through|to)\s+"
                         + _DATE)
_QUARTER_ENDED = re.compile(r"\bquarter\s+(?:ended|ending)\s+(?:on\s+)?" + _DATE)
# "the quarter ended July 2023": the quarter whose last month that is, as "the July 2023 quarter" reads
_QUARTER_ENDED_MONTH = re.compile(r"\bquarter\s+(?:ended|ending)\s+(?:in\s+)?" + _MONTH + r",?\s+(\d{4})\b")
_THROUGH_DATE = re.compile(r"\b(?:through|thru|to|as of|at|on|ended|ending)\s+" + _DATE)
_ANY_DATE = re.compile(_DATE)
_MONTH_QUARTER = re.compile(r"\b" + _MONTH + r"(?:[\s-]+(\d{4}))?\s+quarter\b(?:\s+of\s+(?:fiscal\s+(?:year\s+)?)?(\d{4}))?")
_HALF = re.compile(r"\b(?:(first|second|1st|2nd)[\s-]+half|h([12]))\b")
# "the last six months of fiscal 2025": the months that close the year, its second half, never the first six
_CLOSING_HALF = re.compile(r"\b(?:last|final|latter|closing|back)[\s-]+(?:six|6)[\s-]+months\s+of\b")
# "revenue in December 2024", "for the month of March": one month, a period no filing reports (a month
# with a day is a date, "the December 2024 quarter" a quarter; both are read above)
_ONE_MONTH = re.compile(r"\b(?:in|during|for|over|throughout)\s+(?:the\s+)?(?:month\s+of\s+)?" + _MONTH
                        + r"(?![a-z])(?:\s+(?:of\s+)?(\d{4}))?(?![\s-]*(?:\d|quarter|qtr|year|fiscal))")
_NINE = re.compile(r"\b(?:first\s+)?(six|nine|6|9)[\s-]+months\b")
_YTD = re.compile(r"\byear[\s-]+to[\s-]+date\b|\bytd\b")
_TTM = re.compile(r"\btrailing[\s-]+(?:twelve|12)[\s-]+months?\b|\bttm\b|\bltm\b|\blast[\s-]+(?:twelve|12)[\s-]+months\b|"
                  r"\btrailing[\s-]+four[\s-]+quarters\b")
_LATEST = re.compile(r"\b(?:last|latest|most\s+recent|recent|this|current|past|newest)\s+(?:fiscal\s+)?quarter\b|"
                     r"\b(?:latest|most\s+recent|last)\s+quarterly\b|\bquarterly\b.*\b(?:latest|most\s+recent)\b")
_SEVERAL = re.compile(r"\b(?:last|past|previous|recent)\s+(two|three|four|five|six|seven|eight|[2-8])\s+quarters\b")
_BY_QUARTER = re.compile(r"\bby\s+quarter\b|\beach\s+quarter\b|\bevery\s+quarter\b|\bquarter\s+by\s+quarter\b|"
                         r"\bquarterly\s+(?:breakdown|trend|figures|numbers|results)\b|\bquarterly\b")
SEQUENTIAL = re.compile(r"\bsequential(?:ly)?\b|\bquarter[\s-]+over[\s-]+quarter\b|\bqoq\b|\bq/q\b|"
                         r"\b(?:prior|previous|preceding|last)\s+quarter\b")
_YOY = re.compile(r"\byear[\s-]+over[\s-]+year\b|\byear[\s-]+on[\s-]+year\b|\byoy\b|\by/y\b|"
                  r"\b(?:prior|previous|same)[\s-]+year(?:'s)?\s+quarter\b|\bsame\s+quarter\b|\ba\s+year\s+(?:ago|earlier)\b")
GROWTH = re.compile(r"\b(?:grow\w*|grew|change[ds]?|increase[ds]?|decrease[ds]?|decline[ds]?|rise|rose|fell|fall)\b")
# Words of a period phrase the patterns above leave around it.
_PERIOD_WORDS = frozenset("quarter quarters quarterly fiscal ended ending through thru months month half year to date "
                          "trailing twelve period periods sequential sequentially over on same prior previous "
                          "preceding".split())


@dataclass
class Period:
    kind: str  # quarter | ytd | ttm | quarters | date
    quarter: int | None = None  # 1..4 of the fiscal year
    months: int | None = None  # year to date: 6 or 9 (None: as far as the latest 10-Q goes)
    fiscal_year: int | None = None  # the company's label, when the question gives one
    end: str | None = None  # an exact end date (ISO) the question names
    end_month: int | None = None  # "the June 2023 quarter": the quarter ending in that month
    end_year: int | None = None
    year_is_fiscal: bool = False  # the year came with "fiscal" / "FY"
    latest: bool = False
    or_year: bool = False  # "latest" alone: the most recent period held, a quarter or the fiscal year
    growth: str | None = None  # yoy | sequential
    count: int | None = None  # a table of the last N quarters
    phrase: str = ""  # the words as the user wrote them, for the answer and refusals
    words: list[str] = field(default_factory=list)  # normalized words the phrase consumed
    # the ticker whose fiscal calendar the period's quarter and year are, when a follow-up carries them to another
    # company ("same for amd" after Nvidia's Q2 FY2024): each company answers its own quarter of the same months
    of: str | None = None

    def as_dict(self) -> dict:
        out = asdict(self)
        out.pop("words")
        # quarter 0 (the second half) is a value, not an absence: compared by identity, 0 is not False
        return {k: v for k, v in out.items() if v is not None and v is not False and v != ""}


def _date(m, first: int) -> date | None:
    try:
        return date(int(m.group(first + 2)), MONTHS[m.group(first)], int(m.group(first + 1)))
    except ValueError:
        return None


def _fiscal_year(text: str) -> tuple[int | None, bool]:
    """A year written with the quarter: 'FY24', 'fiscal 2024', '2023' (the company's label)."""
    m = re.search(r"\b(?:fy\s?'?|fiscal\s+(?:year\s+)?)(\d{4}|\d{2})\b", text)
    if m:
        y = int(m.group(1))
        return (y + 2000 if y < 100 else y), True
    years = [int(y) for y in re.findall(r"(?<![\w$.,-])((?:19|20)\d{2})(?![\w%]|[.,]\d)", text)]
    return (max(years), False) if years else (None, False)


def parse_period(text: str) -> Period | None:
    """The period a question asks about beyond whole fiscal years, or None."""
    t = text.lower().replace("\u2019", "'").replace("\u2013", "-").replace("\u2014", "-")
    spans: list[tuple[int, int]] = []

    def take(m) -> None:
        spans.append(m.span())

    fy, is_fiscal = _fiscal_year(t)
    p: Period | None = None
    growth = None
    if GROWTH.search(t) or re.search(r"\bvs\.?\b|\bversus\b|\bcompared\b", t):
        if (m := _FROM_TO_Q.search(t)) or (m := SEQUENTIAL.search(t)):
            growth = "sequential"
            take(m)
        elif m := _YOY.search(t):
            growth = "yoy"
            take(m)
    if m := _TTM.search(t):
        take(m)
        p = Period("ttm")
    elif m := _SPAN_ENDED.search(t):
        take(m)
        months = _SPAN_MONTHS[m.group(1)]
        end = _date(m, 2)
        if months == 12:
            p = Period("ttm", end=end.isoformat() if end else None)
        else:
            p = Period("quarter" if months == 3 else "ytd", months=months, end=end.isoformat() if end else None)
    elif m := _QUARTER_ENDED.search(t):
        take(m)
        end = _date(m, 1)
        p = Period("quarter", months=3, end=end.isoformat() if end else None)
    elif m := _QUARTER_ENDED_MONTH.search(t):
        take(m)
        p = Period("quarter", end_month=MONTHS[m.group(1)], end_year=int(m.group(2)))
    elif (m := _HALF.search(t)) or (m := _CLOSING_HALF.search(t)):
        take(m)
        half = 2 if m.re is _CLOSING_HALF else _ORDINAL.get(m.group(1) or "", 0) or int(m.group(2) or 1)
        # the second half is the year minus its first six months (agent.retrieval.quarter_figures, 'ytd'
        # with quarter 0), never a quarter
        p = Period("ytd", months=6) if half == 1 else Period("ytd", quarter=0, months=6)
    elif (m := _NINE.search(t)) and not _Q.search(t):
        take(m)
        p = Period("ytd", months=_SPAN_MONTHS[m.group(1)])
    elif m := _YTD.search(t):
        take(m)
        p = Period("ytd")
    if p is not None and p.kind == "ytd" and p.months is None:
        q = _Q.search(t) or _ORD_Q.search(t)
        if q:
            take(q)
            p.months = 3 * (int(q.group(1) or q.group(2)) if q.re is _Q else _ORDINAL[q.group(1)])
    if p is None or p.kind in ("ttm", "ytd") and p.end is None:
        quarter = None
        if m := _FROM_TO_Q.search(t):
            quarter = int(m.group(2))
            take(m)
        quarters = [int(q.group(1) or q.group(2)) for q in _Q.finditer(t)]
        for q in _Q.finditer(t):
            take(q)
        ords = [_ORDINAL[o.group(1)] for o in _ORD_Q.finditer(t)]
        for o in _ORD_Q.finditer(t):
            take(o)
        quarter = quarter or (max(quarters) if quarters else max(ords) if ords else None)
        month = _MONTH_QUARTER.search(t)
        if p is None and quarter is not None:
            p = Period("quarter", quarter=quarter)
        elif p is None and month:
            take(month)
            year = month.group(3) or month.group(2)
            p = Period("quarter", end_month=MONTHS[month.group(1)], end_year=int(year) if year else None,
                       year_is_fiscal=bool(month.group(3)))
        elif p is not None and quarter is not None:
            p.quarter = quarter
        elif p is not None and month:
            take(month)
            year = month.group(3) or month.group(2)
            p.end_month, p.end_year = MONTHS[month.group(1)], int(year) if year else None
    if p is None:
        if m := _SEVERAL.search(t):
            take(m)
            p = Period("quarters", count=_COUNT.get(m.group(1)) or int(m.group(1)), latest=True)
        elif m := _LATEST.search(t):
            take(m)
            p = Period("quarter", latest=True)
        elif m := _BY_QUARTER.search(t):
            take(m)
            p = Period("quarters")
        elif growth == "sequential" and re.search(r"\bquarter", t):
            p = Period("quarter", latest=True)
        elif m := re.search(r"\b10-?q\b", t):  # "its latest 10-Q", "the 10-Q": the quarter it reports
            take(m)
            p = Period("quarter", latest=True)
    if p is None:
        return None
    if p.kind in ("ttm", "ytd") and p.end is None and (m := _THROUGH_DATE.search(t)):
        take(m)
        p.end = d.isoformat() if (d := _date(m, 1)) else None
    if p.end is None and p.end_month is None and not p.latest and fy is None and p.kind != "quarters":
        p.latest = True
    if p.kind == "quarter" and p.quarter is None and p.end is None and p.end_month is None and _LATEST.search(t):
        p.latest = True
    p.fiscal_year, p.year_is_fiscal = (fy, is_fiscal) if p.end is None and not (p.end_month and p.end_year) \
        else (p.fiscal_year, p.year_is_fiscal or is_fiscal)
    if p.end_month and p.end_year and p.year_is_fiscal:
        p.fiscal_year, p.end_year = p.end_year, None
    if growth:
        p.growth = growth
    elif GROWTH.search(t) and p.kind == "quarter":
        p.growth = "yoy"  # growth of a quarter, unqualified: on the same quarter a year earlier (stated)
    if p.kind == "quarters" and p.count is None:
        p.count = 4 if p.fiscal_year else 8
    phrase = " ".join(text[s:e] for s, e in sorted(spans))
    p.phrase = phrase.strip() or (f"Q{p.quarter}" if p.quarter else "the latest quarter")
    words = set()
    for s, e in spans:
        words |= set(normalize(t[s:e]).split())
    words |= {w for w in normalize(t).split() if w in _PERIOD_WORDS}
    p.words = sorted(words)
    return p


def month_phrase(text: str) -> str | None:
    """The month a question asks a figure of ("revenue in December 2024"), as written, or None. A
    month's figures are in no filing: such a question is refused naming the month, never answered
    with the fiscal year that month falls in."""
    t = text.lower()
    for m in _ONE_MONTH.finditer(t):
        if not _ENDS_IN.search(t[: m.start()]):  # "the year ended in December 2024" is that year
            return m.group(0).split(None, 1)[1]
    return None


_ENDS_IN = re.compile(r"\b(?:end|ends|ended|ending|close|closes|closed|closing|year-end|year\s+end)\s*$")


def dated_period(text: str) -> Period | None:
    """A full date with no quarter word ("cash as of July 30, 2023"): the period ending then. Whether
    it is a fiscal year end (an annual question) is decided per company, in fetch."""
    t = text.lower()
    m = _ANY_DATE.search(t)
    if not m or (d := _date(m, 1)) is None:
        return None
    return Period("date", end=d.isoformat(), phrase=text[m.start():m.end()], words=sorted(set(normalize(t[m.start():m.end()]).split())))


_BARE_LATEST = re.compile(r"\b(?:latest|most\s+recent|newest|current|recent)\b")
_YEARLY = re.compile(r"\b(?:years?|yearly|annual(?:ly)?|10-?k|fiscal|fy\w*|\d{4})\b")


def bare_latest(text: str) -> bool:
    """"latest" said with no year word ("nvidia's latest revenue"): the most recent period held (latest_period)."""
    t = text.lower()
    return bool(_BARE_LATEST.search(t)) and not _YEARLY.search(t)


def latest_period(text: str, plan) -> Period | None:
    """"NVIDIA's latest revenue": the most recent period held, which may be a quarter after the last
    fiscal year (decided per company in fetch); "latest fiscal year" or any year named stays a year.
    Only for one company's figure: a comparison or a trend is about fiscal years."""
    t = text.lower()
    if plan.intent not in ("numeric", "derived") or len(plan.tickers) != 1 or not plan.latest:
        return None
    if plan.fiscal_years or any(plan.year_offsets) or not _BARE_LATEST.search(t) or _YEARLY.search(t):
        return None
    m = _BARE_LATEST.search(t)
    return Period("quarter", latest=True, or_year=True, phrase=text[m.start():m.end()], words=[normalize(m.group(0))])


def thread_period(previous: dict, years: list[int] | None) -> Period:
    """The thread's period for a follow-up that names none ("and Apple?"); a year the follow-up names
    moves it to that fiscal year ("and 2022?" after Q2 2023: Q2 of fiscal 2022)."""
    fields = {k: v for k, v in previous.items() if k in Period.__dataclass_fields__}
    period = Period(**fields)
    if years and period.of:  # "and 2022?": a year of the company asked now, in its own calendar
        period.of = None
    if years and period.kind in ("quarter", "ytd", "ttm", "quarters") and not period.end and not period.end_month:
        period.fiscal_year, period.latest = years[-1], False
    return period
