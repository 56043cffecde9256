"""Fiscal-year phrases in a question: "FY24", "fiscal 2024", "2022-2024", "last year", "per the FY2024 10-K".

Years are the company's own fiscal-year labels (NVIDIA's fiscal 2025 ends in January 2025);
relative phrases ("latest", "last year", "past three years") are kept relative — offsets from the
company's latest fiscal year — and made concrete per company when the facts are fetched.

A year the user clearly named ("fiscal 2099", "FY1850", "for 12345") is kept even when no filing
could hold it: fetch then refuses it as year_not_available. Dropping it would have made the
question yearless, and a yearless question is answered with the latest year: a wrong answer.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from agent.planning.prose_route import FILED_IN, PRIOR_FILING

NUMBER_WORDS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
                "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "10": 10}

# A year as said, to set aside whole (the words with it): "fiscal 2023", "FY24", "2024"; unlike `_YEAR`,
# which reads the year, any four digits from 1900 on count ("above 40% in 2024": the year is no amount).
YEAR_WORDS = re.compile(r"\b(?:fiscal\s+(?:year\s+)?|fy\s*)?'?(?:19|20)\d\d\b|\bfy\s*'?\d\d\b")
_Y = r"(?:fy\s?'?|fiscal\s+(?:year\s+)?'?|f\.y\.\s?)?(\d{4}|(?<=fy)\d{2}|(?<=fy )\d{2}|(?<=fy')\d{2}|(?<=fiscal )\d{2}|(?<=fiscal year )\d{2})"
_YEAR = re.compile(r"(?<![\w$.,])" + _Y + r"(?![\w%]|\s?(?:%|percent|million|billion|thousand|m\b|bn\b|k\b|shares))", re.I)
_RANGE = re.compile(
    r"(?:from\s+|between\s+)?" + _Y + r"\s*(?:-|–|—|to|through|thru|until|and)\s*" + _Y, re.I
)
_AS_OF = re.compile(
    r"(?:per|according to|in|from|based on|using|of|as reported in|as of)\s+(?:the|its|their|his|her)?\s*"
    + _Y + r"(?:'s)?\s+(?:form\s+)?(?:10-?k|annual report|annual filing|filing)", re.I
)
_AS_OF_BARE = re.compile(_Y + r"(?:'s)?\s+(?:form\s+)?(?:10-?k|annual report)", re.I)
_N = r"(two|three|four|five|six|seven|eight|nine|ten|\d{1,2})"
# "the last three years", and the same span said as "over three years" or "a 3-year trend"
_SPAN = re.compile(
    rf"\b(?:last|past|previous|prior|recent)\s+{_N}\s+(?:fiscal\s+)?years?\b"
    rf"|\b(?:over|across)\s+(?:the\s+)?{_N}\s+(?:fiscal\s+)?years\b(?!\s+(?:ended|ending|to|through|before|after|ago))"
    rf"|\b{_N}[\s-]+(?:fiscal[\s-]+)?years?[\s-]+(?:trend|history|view|run|record|series|look)\b",
    re.I,
)
# "two years ago", and in a thread "two years earlier" / "three years before": that many back, one year
# ("the two years before that" counts the years between, and stays a span)
_AGO = re.compile(r"(?<!\bthe\s)\b(two|three|four|five|\d{1,3})\s+(?:fiscal\s+)?years?\s+(?:ago|earlier|before|prior)\b", re.I)
# "the two years before (that)", "the three years prior": that many years before the one the thread is on
_YEARS_BEFORE = re.compile(rf"\bthe\s+{_N}\s+(?:fiscal\s+)?years\s+(?:before|prior|preceding|earlier)\b(?:\s+(?:that|it|then)\b)?", re.I)
# "two decades ago", "a century ago": that many years before the latest, which no filing reaches
_AGO_LONG = re.compile(r"\b(a|one|two|three|four|five|\d{1,2})\s+(decades?|century|centuries)\s+(?:ago|earlier|before)\b", re.I)
# "200 years from now", "in 3 years' time": a year after the latest, which no filing holds yet (refused, never
# answered with the latest year's figure)
_FROM_NOW = re.compile(r"\b(a|one|two|three|four|five|\d{1,3})\s+(?:fiscal\s+)?years?['\u2019]?\s+(?:from\s+(?:now|today)|hence|"
                       r"time|later|out)\b", re.I)
_LAST_YEAR = re.compile(
    r"\b(?:last|prior|previous)\s+(?:fiscal\s+)?year\b|\ba\s+year\s+ago\b|\byear\s+(?:before|prior|earlier)\b|\bthe\s+year\s+before\b"
    # "and before that?", "and the one before?"
    r"|^\W*(?:and\s+|what\s+about\s+|how\s+about\s+)?(?:(?:the\s+one\s+)?before\s+that|the\s+one\s+before(?:\s+it)?)\W*$",
    re.I,
)
_YEAR_AFTER = re.compile(r"\b(?:the\s+)?(?:following|subsequent)\s+(?:fiscal\s+)?year\b|(?<!\byear\s)\byear\s+after\b(?!\s+year)"
                         r"|^\W*(?:and\s+|what\s+about\s+|how\s+about\s+)?the\s+one\s+after(?:\s+(?:that|it))?\W*$",
                         re.I)
_LATEST = re.compile(r"\b(?:latest|most\s+recent|this\s+year|current\s+(?:fiscal\s+)?year|newest|recent\s+(?:10-?k|filing|year))\b"
                     # "its most recently completed fiscal year", "the fiscal year just ended": the latest year reported
                     r"|\b(?:most\s+)?recently\s+(?:completed|ended|closed|finished|reported)\s+(?:fiscal\s+)?year\b"
                     r"|\b(?:fiscal\s+)?year\s+(?:just\s+)?(?:completed|ended|closed|finished)\b(?!\s+(?:in|on)\b)", re.I)
# "last year", "last fiscal year" said alone in a first message: the year most recently completed, which is the
# latest a filing reports; only set against "this year", or after "than" / "vs" / "compared with", is it the one
# before. "prior year", "previous year", "a year ago" always count back from the latest.
_LAST_COMPLETED = re.compile(r"\blast\s+(?:full\s+)?(?:fiscal\s+)?year\b|\bpast\s+fiscal\s+year\b", re.I)
# "last year" set against the latest year: a comparison of the two
_SET_AGAINST = re.compile(r"\b(?:than|vs\.?|versus|compared\s+(?:to|with)|relative\s+to|against)\s+(?:the\s+|its\s+|their\s+)?"
                          r"(?:last|prior|previous)\s+(?:fiscal\s+)?year\b"
                          r"|\b(?:this|current)\s+(?:fiscal\s+)?year\b.{0,40}\b(?:last|prior|previous)\s+(?:fiscal\s+)?year\b"
                          r"|\b(?:last|prior|previous)\s+(?:fiscal\s+)?year\b.{0,40}\b(?:this|current)\s+(?:fiscal\s+)?year\b", re.I)
_CHANGE_VERB = re.compile(r"\b(?:grow|grows|grew|grown|growing|growth|rise|rises|rose|risen|fall|falls|fell|fallen|up|down|"
                          r"(?:in|de)creas(?:e|es|ed|ing)|declin(?:e|es|ed|ing)|chang(?:e|es|ed|ing)|improv(?:e|es|ed|ing))\b", re.I)
_LAST_AS_BASE = re.compile(r"\b(?:than|vs\.?|versus|compared\s+(?:to|with)|relative\s+to|from|over|against|since|"
                           r"before|after|and)\s+(?:the\s+|its\s+|their\s+)?(?:last|past)\s+(?:full\s+)?(?:fiscal\s+)?year\b"
                           r"|\b(?:last|past)\s+(?:full\s+)?(?:fiscal\s+)?year\s+(?:vs\.?|versus|and|to|compared)\b"
                           r"|\bthis\s+year\b|\bcurrent\s+(?:fiscal\s+)?year\b", re.I)
_SINCE = re.compile(r"\bsince\s+" + _Y, re.I)
_TREND = re.compile(
    r"\b(?:trend|trends|trending|trended|over\s+time|over\s+the\s+(?:years|past|last)|historical(?:ly)?|history|each\s+year|"
    r"every\s+year|by\s+year|year\s+by\s+year|year\s+after\s+year|year\s+in,?\s+year\s+out|track\s+record|"
    r"multi-?year(?:\s+(?:trend|history|view|run|record|series|look|picture|perspective))?|trajectory|evolution|evolved|"
    r"ups\s+and\s+downs)\b",
    re.I,
)
# A course over years read from the grammar rather than a word list: a verb of change in the progressive
# after a perfect or a verb of going on ("has revenue been growing", "keeps rising", "continued to
# decline", "been steadily going up"). A direction sustained over time, so several years, never the
# one-year growth that "did revenue grow?" asks.
_CHANGING = (r"(?:grow|ris|fall|climb|declin|increas|decreas|improv|expand|shrink|dropp|slid|slipp|sink|gain|"
             r"erod|soar|surg|deteriorat|worsen|trend|contract|slow|accelerat|widen|narrow|compress|go|head|"
             r"mov|tick|creep|inch|edg|shift|chang|rebound|recover|sagg|tumbl|balloon|swell|dwindl)ing"
             r"(?:\s+(?:up|down|upwards?|downwards?|higher|lower|back))?")
_GO_ON = re.compile(
    r"\b(?:been|keeps?|kept|keeping)\s+(?:on\s+)?(?:\w+ly\s+)?"
    + _CHANGING + r"(?:\s+\w+ly)?\b"
    r"|\bcontinu(?:e|es|ed|ing)\s+to\s+(?:\w+ly\s+)?(?:grow|rise|fall|climb|decline|increase|decrease|improve|"
    r"expand|shrink|drop|slide|slip|gain|erode|deteriorate|worsen|trend|contract|go\s+(?:up|down)|move\s+(?:up|down))\b",
    re.I,
)
# A span of years said without its count ("over the past few years", "in recent years", "across the
# years"): a run of years ending with the latest, three of them
_FEW_SPAN = re.compile(
    r"\b(?:(?:over|in|across|during|for|through)\s+)?(?:the\s+)?(?:last|past|previous|prior|recent)\s+"
    r"(?:few|several|couple(?:\s+of)?|number\s+of|many)\s+(?:fiscal\s+)?years\b"
    r"|\b(?:in|over|during)\s+recent\s+(?:fiscal\s+)?years\b|\b(?:across|over|through)\s+the\s+years\b",
    re.I,
)
FEW_YEARS = 3  # the span "the past few years" stands for
# A year-like number after an explicit year word, of any size: a year the user meant ("fiscal year 0", "FY0"
# too: answered, it was the latest year). "FY" may
# follow a digit ("\\u0000FY2099" pasted from an escaped string), never a letter ("shfy").
_MARKED = re.compile(
    r"(?:(?<![a-z$.,])fy\s?'?|(?<![\w$.,])(?:fiscal\s+(?:year\s+)?'?|f\.y\.\s?(?=\d)|(?:in|for|during)\s+(?:the\s+)?(?:fiscal\s+)?(?:year\s+)?(?=\d{4})))"
    r"(\d{2,}|(?<=fy)\d|(?<=fy )\d|(?<=fiscal year )\d)(?![\w%]|[.,]\d|\s?(?:%|percent|million|billion|thousand|m\b|bn\b|k\b|shares))",
    re.I,
)
# A bare four-digit number no filing year can be, written where a year goes ("2024 vs 1850", "and the year
# 2100?", "revenue 1980"): a year the user named, refused as one; dropped, the question would be answered for another year.
# Not an amount or a count ("$1,850", "1850 million", "2500 employees").
_FAR_YEAR = re.compile(r"(?<![\w$.,])(1[0-8]\d\d|19[0-8]\d|199[0-2]|20[4-9]\d|2[1-9]\d\d|3\d\d\d)(?![\w%]|[.,]\d|\s?(?:%|percent|million|billion|thousand|"
                       r"m\b|bn\b|k\b|shares|employees|people|stores|units|customers|locations|vehicles))", re.I)
# A decade ("the 2010s", "back in the 1980s"): its years, never dropped for the latest year. One before
# any filing stands for its first year, refused as a year we lack.
# A number that names a thing rather than a time ("flight 1282", "Section 1502", "store #1187", "Model 3"): an
# identifier, never a year asked about
_LABELLED = re.compile(r"\b(?:flights?|models?|sections?|rules?|items?|forms?|chapters?|articles?|routes?|gates?|stores?|"
                       r"plants?|fabs?|buildings?|units?|lines?|platforms?|programs?|patents?|no\.?|nos\.?|numbers?|#)\s*#?\s*$",
                       re.I)
_DECADE = re.compile(r"(?<![\w$.,])(1\d\d0|20\d0)['\u2019]?s\b")
# A 10-K named by its place among the company's filings, beyond PRIOR_FILING's "the previous 10-K": "the older
# of the two Nvidia 10-Ks", "the earlier of its annual reports", "the 10-K before the latest one", "the
# second-newest filing". The filing before the latest (agent.retrieval.filing_choice).
PRIOR_NAMED = re.compile(
    r"\b(?:older|earlier|previous|prior|first)\s+of\s+(?:the|its|their|his|her)\s+(?:two\s+|2\s+)?(?:[\w.&'-]+\s+){0,2}?"
    r"(?:10-?ks|annual\s+reports|annual\s+filings|filings|reports)\b"
    r"|\b(?:10-?k|annual\s+report|annual\s+filing|filing|report)\s+before\s+(?:the\s+|its\s+|their\s+)?"
    r"(?:latest|most\s+recent|newest|current)(?:\s+one)?\b"
    r"|\bsecond[- ](?:newest|most[- ]recent|latest)\s+(?:10-?k|annual\s+report|annual\s+filing|filing|report)\b",
    re.I,
)
# The latest filing named as such ("its current 10-K", "the newest annual report"): the latest year
_LATEST_FILING = re.compile(r"\b(?:current|latest|newest|most\s+recent)\s+(?:form\s+)?(?:10-?k|annual\s+(?:report|filing))\b", re.I)


def names_prior_filing(text: str) -> bool:
    """The question names the 10-K before the latest ("the previous annual report", "the older of the two 10-Ks")."""
    return bool(PRIOR_FILING.search(text) or PRIOR_NAMED.search(text))


# A calendar year named as such ("calendar 2023", "calendar year 2024", "CY2023"): the year asked, which a company whose
# fiscal year is the calendar year reports as that fiscal year; for others agent.retrieval.fetch reads the fiscal
# year that covers it, or refuses
CALENDAR_YEAR = re.compile(r"\bcalendar(?:\s+year)?(?:\s+of)?\s+(?:fy\s*)?((?:19|20)\d\d)\b|\bcy\s?((?:19|20)?\d\d)\b", re.I)


# Every year phrase the reader takes, so that the word accounting (agent.planning.word_accounting)
# never leaves one over.
YEAR_PHRASES = (CALENDAR_YEAR, FILED_IN, PRIOR_FILING, PRIOR_NAMED, _LATEST_FILING, _YEAR, _RANGE, _AS_OF, _AS_OF_BARE, _SPAN, _AGO, _LAST_YEAR, _YEAR_AFTER, _LATEST, _SINCE, _TREND, _GO_ON, _FEW_SPAN, _FAR_YEAR,
                _DECADE, _FROM_NOW, _AGO_LONG, _YEARS_BEFORE)
MIN_YEAR, MAX_YEAR = 1993, 2039
NO_SUCH_YEAR = 999_999  # what a named year of more than six digits stands for


@dataclass
class Years:
    years: list[int] = field(default_factory=list)  # explicit fiscal years, ascending
    latest: bool = False
    offsets: list[int] = field(default_factory=list)  # with latest: offsets from the latest fiscal year
    as_of: int | None = None  # "per the FY2024 10-K"
    since: int | None = None  # "since 2020": from that year to the latest
    trend: bool = False  # the wording asks for several years
    # the -1 offset was said as "last (fiscal) year" alone: in a first message, the latest year completed
    # (agent.planning.plan_years); in a thread, the year before the one the thread is on
    last_completed: bool = False
    # the latest year said in words ("latest", "most recent", "this year"): in a first message, the year of the latest
    # 10-K held (agent.planning.plan_years), as "last fiscal year" is
    latest_said: bool = False

    @property
    def given(self) -> bool:
        return bool(self.years or self.latest or self.offsets or self.as_of or self.since)


def _year(token: str) -> int | None:
    y = int(token)
    if len(token) == 2:
        y += 2000 if 2000 + y <= MAX_YEAR else 1900  # FY24 is 2024; FY99 is 1999
    return y if MIN_YEAR <= y <= MAX_YEAR else None


def _named_year(token: str) -> int:
    """A year the user named that no filing can hold, as a number fetch can refuse."""
    if len(token) > 6:
        return NO_SUCH_YEAR
    y = int(token)
    if len(token) == 2:
        y += 2000 if 2000 + y <= MAX_YEAR else 1900
    return y


# A verb of change said of a figure over the years named ("how has capex / revenue changed over 2022-2024"):
# the course of the figure, as a trend word says it
_CHANGED = re.compile(r"\b(?:chang|evolv|mov|develop|shift|progress)(?:ed|ing)\b", re.I)


_SPAN_LEAD = re.compile(r"\b(?:over|in|across|during|for|through)\s+(?:the\s+)?$")


def trend_spans(text: str) -> list[tuple[int, int]]:
    """Where the text says that it asks for several years ("trend", "over time", "the last three years",
    "has been growing"; a verb of change when several years are named), as spans of `text`.

    Why: a formula written in the question is the user's only when no operand word is left beside it; these
    words are the question's, asking the formula's course, never part of an operand."""
    t = text.lower()
    spans = [m.span() for p in (_TREND, _GO_ON, _FEW_SPAN, _SPAN) for m in p.finditer(t)]
    # "over the last three years", "in recent years": the preposition before a span is its own
    spans = [((lead.start() if (lead := _SPAN_LEAD.search(t[:s])) else s), e) for s, e in spans]
    years = parse_years(text)
    if len(years.years) >= 2 or years.trend or len(years.offsets) >= 2:
        spans += [m.span() for m in _CHANGED.finditer(t)]
    return spans


def parse_years(text: str, *, growth: bool = False) -> Years:
    """Every year phrase in the text. `growth`: "prior year" is part of a growth ask, not a year."""
    t = text.lower().replace("\u2019", "'").replace("\u2018", "'")
    t = re.sub(r"\b(fy|fiscal(?:\s+year)?)\s*'\s*(?=\d{2}\b)", r"\1 ", t)  # "fiscal '25", "fy'24"
    t = re.sub(r"(?<![\w'])'(\d{2})\b(?!\s*%)", r"fy\1", t)  # "in '24"
    out = Years(trend=bool(_TREND.search(t) or _GO_ON.search(t) or _FEW_SPAN.search(t)))
    consumed: list[tuple[int, int]] = []

    def free(m) -> bool:
        return not any(s < m.end() and m.start() < e for s, e in consumed)

    for m in _AS_OF.finditer(t):
        y = _year(m.group(1))
        if y:
            out.as_of = y
            consumed.append(m.span())
    if out.as_of is None:
        for m in _AS_OF_BARE.finditer(t):
            y = _year(m.group(1))
            if y:
                out.as_of = y
                consumed.append(m.span())
    for m in _SINCE.finditer(t):
        y = _year(m.group(1))
        if y and free(m):
            out.since = y
            out.latest = True
            out.trend = True
            consumed.append(m.span())
    years: set[int] = set()
    for m in _RANGE.finditer(t):
        a, b = _year(m.group(1)), _year(m.group(2))
        if a and b and free(m) and a != b:
            lo, hi = sorted((a, b))
            if hi - lo <= 20:
                connective = m.group(0)
                if re.search(r"\band\b", connective) and not connective.startswith("between"):
                    years |= {lo, hi}  # "2023 and 2024": the two years, not a range
                else:
                    years |= set(range(lo, hi + 1))
                consumed.append(m.span())
    for m in CALENDAR_YEAR.finditer(t):
        y = _year(m.group(1) or m.group(2))
        if y and free(m):
            years.add(y)
            consumed.append(m.span())
    for m in _YEAR.finditer(t):
        y = _year(m.group(1))
        if y and free(m):
            years.add(y)
            consumed.append(m.span())
    for m in _MARKED.finditer(t):
        if free(m) and _year(m.group(1)) is None:
            years.add(_named_year(m.group(1)))
            consumed.append(m.span())
    for m in _FAR_YEAR.finditer(t):
        if free(m) and not _LABELLED.search(t[: m.start()]):
            years.add(int(m.group(1)))
            consumed.append(m.span())
    for m in _DECADE.finditer(t):
        if free(m):
            first = int(m.group(1))
            years |= {first} if first < MIN_YEAR - 3 else set(range(first, first + 10))
            out.trend = out.trend or first >= MIN_YEAR - 3
            consumed.append(m.span())
    out.years = sorted(years)
    m = _SPAN.search(t)
    if m:
        said = next(g for g in m.groups() if g)
        n = NUMBER_WORDS.get(said.lower()) or int(said)
        if len(out.years) == 1 and n > 1:
            # "the last 3 years (FY2023)", "past three years through 2023": the span ends at the year said
            out.years = list(range(out.years[0] - n + 1, out.years[0] + 1))
        else:
            out.latest = True
            out.offsets = list(range(-(n - 1), 1))
        out.trend = True
    elif _FEW_SPAN.search(t) and not out.years and not out.since:
        out.latest = True
        out.offsets = list(range(-(FEW_YEARS - 1), 1))
    elif (m := _YEARS_BEFORE.search(t)) is not None:
        n = NUMBER_WORDS.get(m.group(1).lower()) or int(m.group(1))
        out.latest = True
        out.offsets = list(range(-n, 1))  # shown beside the year the thread is on, as the trend they make
        out.trend = True
    elif (m := _AGO.search(t)) is not None:
        n = NUMBER_WORDS.get(m.group(1).lower()) or int(m.group(1))
        out.latest = True
        out.offsets = [-n]
    elif (m := _AGO_LONG.search(t)) is not None and not out.years:
        said = m.group(1).lower()
        n = 1 if said in ("a", "one") else NUMBER_WORDS.get(said) or int(said)
        out.latest = True
        out.offsets = [-n * (10 if m.group(2).lower().startswith("decade") else 100)]
    elif (m := _FROM_NOW.search(t)) is not None and not out.years:
        said = m.group(1).lower()
        out.latest = True
        out.offsets = [1 if said in ("a", "one") else NUMBER_WORDS.get(said) or int(said)]
    elif _LAST_YEAR.search(t) and not growth and not out.years:
        out.latest = True
        out.offsets = [-1]
        if _SET_AGAINST.search(t) and not _CHANGE_VERB.search(t):  # "grown vs the prior year": one year's growth
            out.offsets = [-1, 0]  # "revenue this year vs last year", "compared with last year": both years
        out.last_completed = bool(_LAST_COMPLETED.search(t)) and not _LAST_AS_BASE.search(t) \
            and not re.search(r"\b(?:prior|previous|preceding)\s+(?:fiscal\s+)?year\b|\byear\s+(?:before|prior|earlier)\b|\ba\s+year\s+ago\b", t)
    elif _YEAR_AFTER.search(t) and not out.years:  # in a follow-up: the year after the thread's
        out.latest = True
        out.offsets = [1]
    if _LATEST.search(t) and not out.years and not names_prior_filing(t) and out.offsets in ([], [0]):
        out.latest_said = True
    if (_LATEST.search(t) or names_prior_filing(t)) and not out.years:
        # "the previous 10-K" is counted back from the latest filing (agent.retrieval.filing_choice): a
        # year phrase of its own, so that "and in the older 10-K?" names a year as "and in 2023?" does
        out.latest = True
    if out.as_of and not out.years and not out.offsets:
        out.years = [out.as_of]
    return out


# "year-end" said beside the year it qualifies ("year-end FY2024 ratio of ...", "FY2024 year-end", "at year-end
# 2024"): the date of the year's balances, which a balance is read at anyway; not a convention asked of a ratio
# ("year-end balances", "(year-end AR)": agent.planning.conventions reads those)
_YEAR_END_BESIDE = re.compile(
    r"(?:\b(?:at|as\s+of)\s+(?:the\s+)?)?\b(?:fiscal[\s-]+)?year[\s-]?end(?:ed)?\s+(?:of\s+)?(?=(?:" + YEAR_WORDS.pattern + r")(?!\s+(?:net\s+)?balances?\b))"
    r"|(?<=\d)\s+(?:fiscal[\s-]+)?year[\s-]?end\b(?!\s*(?:'s\s+)?(?:net\s+)?(?:balances?|figures?|amounts?|values?)\b)",
    re.I)


def year_end_dropped(text: str) -> str:
    """The text without a "year-end" that only dates a year said beside it: "What is KO's year-end FY2024
    ratio of total liabilities to total assets?" is the ratio at FY2024. Why: the word between the
    company and the formula was read as a line's name ("year end"), and the ratio refused or split into
    its operands, each answered alone."""
    out = _YEAR_END_BESIDE.sub("", text or "")
    out = re.sub(r"\s{2,}", " ", out)
    return out if re.search(YEAR_WORDS.pattern, out, re.I) else text
