"""A figure is answered only for what the question asks: every word of it accounted for
(agent.planning.words), leftover words turning the metric they qualify into a line or member lookup,
a quarter or a direction read into the plan's period and years, a prose answer's lead figure kept
whole.

Why a module of its own: it is the planner's last step on a figure plan (agent.planning.rules hands
its plan here), with the word patterns other steps claim so that they are never left over.
"""

from __future__ import annotations

import re

from agent.planning.checks import balance_as_flow, conventions, other_convention
from agent.planning.company_mentions import company_spans
from agent.planning.figure_kinds import KIND_WORD
from agent.planning.followups import ALSO, INCLUDING, REPLACING, inherited_growth, own_subject
from agent.planning.thread_members import (MEMBER_POINTER, member_of_thread_metric, member_probe, on_thread_member,
                                            thread_member, thread_metric_words, topic_of_reply)
from agent.planning.in_words import leftover_words
from agent.planning.measures import IMPLIED_PATTERNS
from agent.planning.movers import EFFECT, MOVED
from agent.planning.plan import Plan, refusal_plan
from agent.planning.prose_route import CAUSE
from agent.planning.prose_search import searched_beside_subject
from agent.planning.quarters import (GROWTH, SEQUENTIAL, dated_period, latest_period, month_phrase,
                                     parse_period, thread_period)
from agent.planning.reading import NAMED_THROUGH, Reading
from agent.planning.thread import ADDING, FOLLOWUP, SHARE, share_of_revenue
from agent.planning.topics import QUAL_ASK, SECTION_ITEMS, SECTION_PATTERNS, WHY
from agent.planning.words import AMOUNT_NOUNS, NARROWING, NUMERIC_INTENTS, QUARTERLY, account, claimed, line_keys, quarterly_phrase
from agent.planning.years import YEAR_PHRASES
from agent.retrieval.concepts import METRICS, PHRASES, UNKNOWN_METRICS, find_phrases, normalize
from agent.retrieval.finance import FORMULAS, change_key, growth_key
from agent.retrieval.line_items import line_parts
from agent.retrieval.quarter_prose import asks_changes, quarter_items
from agent.retrieval.segments import key_parts
from agent.retrieval.segments import plan_key as dimension_key


# "the same quarter", "that period": the thread's own period, named again
_SAME_PERIOD = re.compile(r"\b(?:the\s+)?(?:same|that|this)\s+(?:quarter|qtr|period|three\s+months|half|six\s+months|"
                          r"nine\s+months)\b")
_COMPARED = re.compile(r"\bvs\.?(?!\w)|\bversus\b|\bcompar(?:e|ed|ing|ison)\b|\bagainst\b")
# "the prior-year quarter", "the year-ago quarter", "the same quarter last year": the thread's quarter a year earlier
_YEAR_EARLIER_PERIOD = re.compile(
    r"\b(?:(?:prior|previous|last)[\s-]+year(?:'s)?|year[\s-]+(?:ago|earlier)|comparable|corresponding)\s+"
    r"(?:quarter|qtr|period|three\s+months)\b|\b(?:same|comparable|corresponding)\s+(?:quarter|qtr|period)\s+"
    r"(?:(?:of\s+)?(?:the\s+)?(?:prior|previous|last)\s+year|a\s+year\s+(?:ago|earlier|before))\b")

# "how much is that up from the prior quarter?": a change on a base, whatever growth word it lacks
_CHANGED_FROM = re.compile(r"\b(?:up|down|higher|lower)\s+(?:from|on|over|than|vs\.?|versus)\s")

_PRIOR_QUARTER = re.compile(r"\b(?:previous|prior|preceding)\s+(?:fiscal\s+)?(?:quarter|qtr|three\s+months)\b|"
                            r"\bthe\s+quarter\s+before\b")


def _quarter_of_a_year(period: dict | None) -> bool:
    """Whether a thread's period is a quarter named by its fiscal year and number, which a quarter before it
    steps back from (one named by its end date is the company's calendar's to step)."""
    return bool(period and period.get("kind") == "quarter" and period.get("quarter") and period.get("fiscal_year")
                and not period.get("end") and not period.get("end_month"))


def _dated_quarter(period: dict | None) -> bool:
    """Whether a thread's period is a quarter named by the date it ended ("the quarter ended July 30, 2023")."""
    return bool(period and period.get("kind") == "quarter" and period.get("end") and not period.get("quarter"))


def names_thread_period(low: str) -> bool:
    """"and the same quarter last year?", "the prior-year quarter": a reply pointing at the thread's period or the
    one a year before it, which asks the thread's figure again, never what the filings say of a period. So does a
    reply that names only a period ("and year to date?", "what about the first half?"): the thread's figure for it."""
    if _SAME_PERIOD.search(low) or _YEAR_EARLIER_PERIOD.search(low) or _PRIOR_QUARTER.search(low):
        return True
    return bool(QUARTERLY.search(low)) and not own_subject(QUARTERLY.sub(" ", low))


def _year_earlier(period, plan) -> None:
    """The thread's quarter moved one fiscal year back ("the prior-year quarter" after Q2 FY2024: Q2 FY2023), or,
    for a quarter named by its end date, the quarter with the same quarter a year earlier beside it (the growth
    sentence states both), since a date a year back is the company's calendar's to say."""
    if period.fiscal_year is not None and not period.end and not period.end_month:
        period.fiscal_year, period.growth = period.fiscal_year - 1, None  # that quarter's figure, not its growth
        plan.fiscal_years = [period.fiscal_year]
    else:
        period.growth = "yoy"


def _through_thread_quarter(period, prev: Plan | None) -> None:
    """"and year to date?" after a quarter's figure: the months through that quarter, never through the latest
    10-Q held, which is another quarter's year to date when the company has a later one (Alphabet's Q2 2023 and
    Q3 2023 10-Qs both held: the year to date after Q2 is six months, not nine)."""
    if period is None or period.kind != "ytd" or period.months or period.end or period.quarter is not None \
            or period.fiscal_year or prev is None or not prev.period or prev.period.get("kind") != "quarter":
        return
    if prev.period.get("end"):
        period.end, period.latest = prev.period["end"], False
    elif prev.period.get("quarter") and prev.period.get("fiscal_year"):
        period.months, period.fiscal_year, period.latest = 3 * prev.period["quarter"], prev.period["fiscal_year"], False


def _one_year_apart(years: list[int], year: int | None) -> bool:
    """Two fiscal years a year apart, the period's (when it names one) the later or the earlier of them."""
    return len(years) == 2 and abs(years[0] - years[1]) == 1 and (year is None or year in years)


def _without_spare(key: str, words: set[str]) -> str:
    """A `line:` key whose spare words (its fourth field) leave out `words`."""
    parts = key[5:].split("|")
    if len(parts) < 4:
        return key
    parts[3] = " ".join(w for w in parts[3].split() if w not in words)
    return "line:" + "|".join(parts if parts[3] or len(parts) > 4 else parts[:3])


# Words that take what follows out of the figure ("revenue net of incentives", "sales excluding
# acquisitions", "cash less restricted cash"): what follows is subtracted, never the figure asked
_SUBTRACTING = frozenset({"excluding", "less", "minus", "ex", "without"})


def _subtracted(trace: list[dict], start: int) -> bool:
    """Whether the leftover run starting at `start` follows a subtracting word ("net of", "excluding")."""
    before = [t["word"] for t in trace[max(0, start - 2):start]]
    return (bool(before) and before[-1] in _SUBTRACTING) or before[-2:] == ["net", "of"]


def _whole_when_subtracted(key: str, trace: list[dict], runs: list[tuple[int, int]]) -> str:
    """A `line:` key whose leftover words follow a subtracting word needs a row printed with the whole
    phrase ("Revenues, net of interest expense"): the leftover alone names what is taken out ("Client
    incentives" for "revenue net of incentives"), a true figure for another thing."""
    if not key.startswith("line:"):
        return key
    leftover, context, *rest = key[5:].split("|")
    for start, end in runs:
        if _subtracted(trace, start) and " ".join(t["word"] for t in trace[start:end]) in leftover:
            return "line:" + "|".join([context, context, *rest])
    return key


_UNQUALIFIED_MARGINS = ("gross_margin", "operating_margin", "net_margin")


def _narrowed_margins(plan: Plan, trace: list[dict], runs: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """"franchised margins": words no vocabulary takes right before "margins" name one printed margin (a line
    looked up, or refused, by those words), never the three margins an unqualified "margins" reads as."""
    out = []
    for start, end in runs:
        if end < len(trace) and trace[end]["word"] in ("margins", "margin") and trace[end]["as"] == "other":
            trace[end] = {**trace[end], "as": "unaccounted"}
            plan.metrics = [k for k in plan.metrics if k not in _UNQUALIFIED_MARGINS
                            or any(t["as"] == f"metric:{k}" for t in trace)]
            end += 1
        out.append((start, end))
    return out


def _taken_in(trace: list[dict], absorbed: set[str]) -> set[str]:
    """The metric keys a line phrase took in, with the words it joined ("cash paid for income taxes",
    "fair value recognized in net earnings": one phrase, never its parts) and each key's growth, change
    and share of revenue, which the phrase takes in too."""
    absorbed = absorbed | {k for t in trace for k in t.get("joins", ())}
    return absorbed | ({growth_key(k) for k in absorbed} | {change_key(k) for k in absorbed}
                       | {change_key(k[: -len("_growth")]) for k in absorbed if k.endswith("_growth")}
                       | {share_of_revenue(k) for k in absorbed if share_of_revenue(k)})


def unaccounted_words(outside: str, low: str) -> str | None:
    """The words no metric, period or question word takes ("shopify revenue 2023"): in a question
    naming no known company, most likely the company the user means, named in the refusal."""
    # a narrowing word ("comparable", "adjusted") qualifies the figure, never a word of the company's name
    trace, runs = account(outside, [], claimed(low, _CLAIMED))
    runs = [(a, b) for a, b in ((next((i for i in range(a, b) if trace[i]["word"] not in NARROWING), b),
                                 next((i for i in range(a, b) if trace[i]["word"] in NARROWING), b)) for a, b in runs)
            if a < b]
    return leftover_words(trace, runs[:1]) if runs else None


# A follow-up that asks for a whole year leaves the thread's quarter behind.
_WHOLE_YEAR = re.compile(r"\b(?:full[\s-]+year|whole\s+year|annual(?:ly)?|fiscal\s+year|10-?k)\b")


# A figure asked in another currency ("net income in yen", "revenue converted to euros"): the filings report
# US dollars; a conversion at a rate of the user's or the day's is no reported figure, and the dollar figure
# stated instead would answer another question.
_OTHER_CURRENCY = re.compile(r"\b(?:in|into|to)\s+(?:japanese\s+|british\s+|indian\s+|chinese\s+|swiss\s+|mexican\s+)?"
                             r"(yen|euros?|jpy|gbp|sterling|rupees?|inr|yuan|renminbi|rmb|cny|pesos?|francs?|chf)\b")


# The implied ask of an amount a subject earned ("how much did X earn / make / lose"): with a product or a brand
# as X, the product's or brand's own figure.
_THROUGH_EARNED = re.compile(r"\bhow much (?:money )?(?:did|does|do|has|have|will)\b.*\b(?:earn|earns|earned|make|makes|made|"
                             r"lose|loses|lost|profit)\b(?! per\b)|\bwhat (?:did|does|do)\b.*\b(?:earn|earned|lose|lost)\b(?! per\b)")


def earned_by_member(r: Reading, trace: list[dict], runs: list[tuple[int, int]], low: str) -> str | None:
    """The member a plain earning ask is about ("how much did AWS earn", "how much did nvidia's data center
    segment earn", "how much did iPhone make"): a product or brand named for its company, or words beside the
    company that nothing else accounts for. A `dim:` key of its operating income (earn, lose, profit) or its
    sales (make); None when the company itself is what earned, or the question names its figure."""
    if not _THROUGH_EARNED.search(low) or _EARNED_FROM.search(low) or any(t["as"].startswith("metric:") for t in trace):
        return None  # "how much did Apple earn from widgets": the source's revenue (account_words), not a member's profit
    through = next((m for m in r.matches if m.via in NAMED_THROUGH and m.kind == "company"), None)
    said = normalize(through.text) if through is not None else (leftover_words(trace, runs) if runs else "")
    if not said:
        return None
    key = "operating_income" if re.search(r"\b(?:earn\w*|profit\w*|lose|lost)\b", low) else "revenue"
    return f"dim:{key}|{said}"


# Words other parts of the planner consume: thread words, comparisons, year phrases, implied asks.
# "up or down from the prior year?": a direction measured against one year, its growth, not a trend
_ONE_YEAR_BASE = re.compile(r"\b(?:from|than|over|versus|vs\.?|compared\s+(?:to|with))\s+(?:the\s+|a\s+)?"
                            r"(?:(?:prior|previous|last)\s+(?:fiscal\s+)?year|year\s+(?:before|earlier|ago))\b")
_DIRECTION = re.compile(r"\b(?:improv\w*|deteriorat\w*|worsen\w*|getting (?:better|worse)|trend\w*|trajectory|"
                        r"direction|headed|heading|shrink\w*|expand\w*|rising|falling|declining|"
                        # "is its R&D increasing?", "is capex going up?": a direction as much as "improving" is
                        r"increasing|decreasing|climbing|dropping|going (?:up|down)|up or down)\b")
_SHARE = re.compile(r"\bas\s+(?:a\s+)?(?:%|percent(?:age)?|share|proportion)\s+of\b")
# A comparison that needs several companies ("rank them", "which was higher?").
COMPARING = re.compile(r"\b(?:rank\w*|compar\w*|sort\w*|differ\w*|side\s+by\s+side|head\s+to\s+head|"
                       r"stack(?:ed|s)?\s+up|(?:which|who)\b.*\b(?:higher|lower|more|less|bigger|"
                       r"larger|smaller|better|worse|highest|lowest|most|least|faster|slower|fastest|slowest|"
                       r"biggest|largest|smallest|greatest|fewest))\b")
_DIFFERENCE = re.compile(r"\bdiffer\w*(?:\s+between)?\b")  # "the difference between them": a comparison
# "break down revenue by segment", "broken down by region": how to lay a breakdown out, no row's words
_BREAK_DOWN = re.compile(r"\b(?:break|breaks|broke|broken|breaking)\s+(?:(?:it|that|them|this)\s+)?down\b")
_CLAIMED = (FOLLOWUP, ADDING, INCLUDING, REPLACING, ALSO, _DIFFERENCE, _SHARE, SHARE, _DIRECTION, _BREAK_DOWN,
            *(p for p, _ in IMPLIED_PATTERNS), *YEAR_PHRASES)


# A verb of earning with a source: the source's revenue ("make from", "bring in from", "earn on").
_EARNED_FROM = re.compile(r"\b(?:make|made|makes|making|earn|earned|earns|earning|bring|brings|brought|rake|raked|"
                          r"generate|generated|generates|get|got|gets)\b(?:\s+in)?(?:\s+\S+){0,3}?\s+(?:from|on|off|with)\b")


_SOLD = re.compile(r"\b(?:bring|brings|brought|pull|pulls|pulled|rake|rakes|raked)\s+in\b|\b(?:sell|sells|sold)\b")


_NOT_A_ROW = re.compile(r"\b(?:per|by|each|across|outside|excluding|ex|ratio|ratios|margin|margins|growth|"
                        r"organic|adjusted|core|underlying|comparable|pro|forma|constant|non)\b")  # non-GAAP words
_UNKNOWN_PHRASES = frozenset(normalize(p) for p in UNKNOWN_METRICS)  # as printable compares them


def printable(unmappable: str) -> bool:
    """Whether a narrowed metric phrase could be a printed row's name: not a metric no table maps
    (EBITDA, backlog), not a quotient or a breakdown ("revenue per employee", "sales by region")."""
    phrase = normalize(unmappable)
    return phrase not in _UNKNOWN_PHRASES and not _NOT_A_ROW.search(phrase)


def dimension(r: Reading, outside: str) -> str | None:
    """A metric narrowed to a segment, product or region ("data center revenue"): a 'dim:' key."""
    low = outside.lower()
    # "Reality Labs revenue for the three months ended June 30, 2023", "data center revenue in the second
    # quarter": the period's words say when, never which member
    period = parse_period(low) if quarterly_phrase(low) else None
    trace, _ = account(outside, company_spans(r, outside), claimed(low, _CLAIMED) | set(period.words if period else ()))
    kinds = [t["as"] for t in trace]
    between = {i for i, t in enumerate(trace) if t["word"] in ("and", "vs", "versus", "or")
               and "unaccounted" in kinds[:i] and "unaccounted" in kinds[i + 1:i + 2]}  # "iphone and mac"
    return dimension_key(r.unmappable, [t["word"] for i, t in enumerate(trace) if t["as"] == "unaccounted" or i in between])


# Nouns that make a phrase a figure ("subscriber count", "net promoter score", "units shipped").
_MEASURE_NOUNS = frozenset("count counts score scores units volume volumes multiple multiples shipped sold price prices "
                           "size sizes yield yields rate rates ratio ratios".split())


# An amount's unit asked for ("answer in USD millions", "in $ billions"): a figure, from a printed line or refused
# with its words, never passages quoted for a line the company does not print.
_IN_UNITS = re.compile(r"\b(?:in|as)\s+(?:usd|us\$|\$|dollars?)\s*(?:millions?|billions?|thousands?|mm|bn)?\b|"
                       r"\b(?:usd|\$)\s*(?:millions?|billions?|thousands?|mm|bn)\b|\bin\s+(?:millions?|billions?)\s+of\s+dollars\b")


def _quotient(trace: list[dict]) -> bool:
    """Leftover words on both sides of "per" ("average selling price per vehicle"): a quotient, so
    a figure. "per nvidia's 10-K" is a source, not a quotient."""
    return any(t["word"] == "per" and 0 < i < len(trace) - 1 and trace[i - 1]["as"] == "unaccounted"
               and trace[i + 1]["as"] == "unaccounted" for i, t in enumerate(trace))


_QUARTER_ROW = "a printed row, of the quarter asked"
_EARNING = re.compile(r"\b(?:earn|earned|earns|make|made|makes|how much|how many)\b")


# A question word: without one ("Adobe effect of exchange rates on cash FY23") a message names what it wants, a row's
# figure when the company prints one by those words. (Line-item resolution, B: the probe condition only.)
_ASKED = re.compile(r"\b(?:why|how|what|which|when|where|who|explain|describe|discuss|tell|summari[sz]e|did|does|do|is|are|was|were)\b")


def _qualified_lead(plan: Plan, r: Reading, outside: str, low: str, joined: frozenset[frozenset[str]],
                    rows: frozenset[frozenset[str]] = frozenset()) -> Plan:
    """A prose answer opens with the figure of each metric the question names, so that figure must
    be the one asked for, whole: words of the metric's own clause that nothing accounts for ("revenue
    per vehicle delivered", "the effect of exchange rate changes on cash") make it another figure.
    Such a metric is dropped from the plan: the passage search still runs, and when the words name a
    printed line in a figure question, the line lookup answers or refuses it by those words."""
    trace, runs = account(outside, company_spans(r, outside), claimed(low, (*_CLAIMED, *_PROSE_WORDS)), joined, rows)
    if not runs:
        return plan
    absorbed = _taken_in(trace, line_keys(trace, runs)[1])
    narrowed = [k for k in plan.metrics if k in absorbed]
    if not narrowed:
        return plan
    plan.words = trace
    plan.metrics = [k for k in plan.metrics if k not in absorbed]
    if not plan.metrics and (not r.why or FIGURE_ASK.search(low) or not _ASKED.search(low)):
        # "what was the effect of exchange rate changes on cash?": when those words are a row the company prints,
        # the row's figure answers (fetch tries it before the passage search), else the passages do
        plan.probe = line_keys(trace, runs)[0]
    if not plan.metrics and not r.why and not QUAL_ASK.search(low) and FIGURE_ASK.search(low):
        # "what was its revenue per vehicle delivered?": a figure question about a narrower figure,
        # answered by the printed line of those words or refused naming them, never by a passage
        plan.intent, plan.metrics, plan.probe = "numeric", narrowed, []  # the accounting below narrows them
        plan.items, plan.query, plan.sub_queries = [], "", []
    return plan


# Words of a prose question that say where to look or why, not which figure: a cause, a section
# ("the MD&A", "item 7"), a figure the user quotes back ("+14%").
_PROSE_WORDS = (WHY, CAUSE, MOVED, EFFECT, *SECTION_PATTERNS, re.compile(r"(?<![\w.])[+-]?\d[\d.,]*%"))


# The opening of a question that asks for an amount, not for what a filing says about it.
FIGURE_ASK = re.compile(r"^\W*(?:what\s+(?:was|were|is|are)\b|how\s+(?:much|many)\b)")


# The headline figures a comparison that names no figure shows ("compare Apple and Nvidia"; agent.planning.rules)
DEFAULT_COMPARE = ("revenue", "net_income")
_DEFAULT_SAID = frozenset(f"metric:{k}" for k in DEFAULT_COMPARE)


def account_words(plan: Plan, r: Reading, outside: str, low: str, prev: Plan | None = None,
                  joined: frozenset[frozenset[str]] = frozenset(), rows: frozenset[frozenset[str]] = frozenset()) -> Plan:
    """A figure is answered only for what the question asks: every word accounted for (agent.planning.words).

    Leftover words turn the metric they qualify into a line-item lookup; a quarter is refused."""
    if plan.intent == "qualitative" and plan.metrics and r.measures and not plan.sub_queries:
        plan = _qualified_lead(plan, r, outside, low, joined, rows)
    if plan.intent == "qualitative" and not plan.metrics and not r.why \
            and (not plan.sub_queries or searched_beside_subject(plan)):
        spans = [(m.start, m.end + (2 if outside[m.end : m.end + 2] in ("'s", "\u2019s") else 0)) for m in r.matches]
        trace, runs = account(outside, spans, claimed(low, _CLAIMED))
        left = [t["word"] for t in trace if t["as"] == "unaccounted"]
        counted = bool(left) and (left[-1] in _MEASURE_NOUNS or left[-1] in AMOUNT_NOUNS or bool(re.search(r"\bhow many\b", low))
                                  or bool(_IN_UNITS.search(low))
                                  or (bool(FIGURE_ASK.search(low)) and _quotient(trace)))
        # "what does it say about", "why", "the risk factors related to ...": asked of the filing's words. An
        # Item a topic word routes to by default ("units sold" to MD&A and the risk factors) is no such ask:
        # a bare count ("big mac units sold 2023") is a figure, answered by a row or refused by its words
        asks_prose = (r.why or r.statement or bool(QUAL_ASK.search(low)) or any(p.search(low) for p in SECTION_PATTERNS)
                      or (bool(set(r.items) & SECTION_ITEMS) and not counted))
        figure = not asks_prose and (counted or bool(_EARNING.search(low)))
        quarter = quarterly_phrase(low)
        dated = parse_period(low) if quarter and figure and runs and not asks_prose else None
        row_runs = account(outside, spans, claimed(low, _CLAIMED) | set(dated.words))[1] \
            if dated is not None and dated.kind == "quarter" else []
        if row_runs:
            # "how much did Visa spend on personnel in the quarter ended June 30, 2023": the row those words name,
            # of that quarter (its keys written below, with the quarter's words claimed), or refused by its words;
            # never the question refused for naming no figure
            plan.intent, plan.metrics, plan.probe = "numeric", [_QUARTER_ROW], []
            plan.items, plan.query, plan.sub_queries = [], "", []
        elif quarter and figure:  # "how much was it in the september 2023 quarter": a figure of a quarter, unnamed
            return refusal_plan("unknown_metric", f"which figure of that period (\"{quarter}\"): name a line item, such as "
                                "revenue or net income", tickers=plan.tickers, fiscal_years=plan.fiscal_years)
        # asked in words (why, what the filing says, a section), not only routed to prose by a topic word ("demand
        # creation expense" in the second quarter is a row the company prints, whatever Item "demand" routes to)
        in_words = r.why or r.statement or bool(QUAL_ASK.search(low)) or any(p.search(low) for p in SECTION_PATTERNS)
        if runs and quarter and not in_words and not row_runs:
            # "research and development expenses in the second quarter": a printed row of that quarter's
            # statements answers; else the quarter's 10-Q is searched as below
            dated = parse_period(low)
            if dated is not None and dated.kind == "quarter":
                dated_trace, dated_runs = account(outside, spans, claimed(low, _CLAIMED) | set(dated.words))
                if dated_runs:
                    plan.probe, _ = line_keys(dated_trace, dated_runs)
                    plan.probe_period, plan.words = dated.as_dict(), dated_trace
        if runs and not quarter:
            plan.probe, _ = line_keys(trace, runs)
            plan.probe_standard = not asks_prose and not r.has_topic
            plan.words = trace
            dated = dated_period(low)
            if dated is not None and not asks_prose:
                plan.probe_period = dated.as_dict()  # "customer advances at June 30, 2023": that balance
            elif dated is None and prev is not None and prev.period and not _WHOLE_YEAR.search(low) \
                    and "fiscal_years" in plan.inherited:
                # "and data center?" after a quarter's revenue: that quarter's row, never the fiscal year's, which
                # answered the reply with the whole year's figure as if the thread had asked for it
                plan.probe_period = thread_period(prev.period, None).as_dict()
            source = " ".join(w for w in left if w not in ("get", "got", "gets", "bring", "brought", "brings"))
            member = earned_by_member(r, trace, runs, low) if figure and not counted else None
            if _EARNED_FROM.search(low) and figure and source and not counted:
                # "how much did Tesla get from regulatory credits?": that source's revenue, a member
                plan.intent, plan.metrics, plan.probe = "numeric", [f"dim:revenue|{source}"], []
                plan.items, plan.query, plan.sub_queries = [], "", []
            elif member is not None:
                # "how much did nvidia's data center segment earn?": that segment's figure, or refused by its name
                plan.intent, plan.metrics, plan.probe = "numeric", [member], []
                plan.items, plan.query, plan.sub_queries = [], "", []
            elif counted and not asks_prose:
                # "prime subscriber count", "net promoter score", "how many iPhones": a figure, from a
                # printed line or refused with its words, never a quoted sentence standing in for it
                plan.intent, plan.metrics, plan.probe = "numeric", list(plan.probe), []
                plan.items, plan.query, plan.sub_queries = [], "", []
        probe = member_probe(prev, low) if not asks_prose or not plan.probe else []
        if probe:  # "and services?" after a figure: that member's figure when the company tags one by the name
            plan.probe = probe
        if not quarter:
            return plan
    if plan.intent == "qualitative" and prev is not None and (prev.period or {}).get("kind") == "quarter" \
            and plan.slots.get("metrics") == "thread, its cause" and not quarterly_phrase(low):
        # "why?" after a quarter's figure: that quarter's 10-Q (Part I, Item 2), never the year's 10-K
        plan.period = {k: v for k, v in prev.period.items() if k not in ("changes", "growth")}
        plan.items, plan.slots["period"] = quarter_items(plan.items), "thread"
        return plan
    if plan.intent == "qualitative" and quarterly_phrase(low):
        # what a 10-Q says about its quarter: that 10-Q's Items (and the quarter's figures), never a 10-K's
        period = parse_period(low)
        if period is None or period.kind != "quarter":
            return refusal_plan("out_of_scope", f"what the filings say about that period (\"{quarterly_phrase(low)}\"): "
                                "name a quarter, or ask for a quarter's figures", tickers=plan.tickers)
        if period.fiscal_year is None and not period.end and not period.end_month and "fiscal_years" in plan.inherited \
                and plan.fiscal_years and not period.or_year:
            period.fiscal_year, period.latest = plan.fiscal_years[-1], False  # "and data center in q2?": the thread's year
        if period.quarter is None and not period.end and not period.end_month and prev is not None \
                and _quarter_of_a_year(prev.period) and period.fiscal_year in (None, prev.period["fiscal_year"]):
            # "what drove the increase from the prior quarter?" after Q2 FY2024: the thread's quarter, against the
            # one before it; read alone the quarter had no number and its figure was the latest quarter held
            period.quarter, period.fiscal_year, period.latest = prev.period["quarter"], prev.period["fiscal_year"], False
        plan.period = period.as_dict()
        plan.items = quarter_items(plan.items)
        if asks_changes(low, plan.items):
            plan.period["changes"] = True
        return plan
    if plan.intent == "qualitative" and not plan.metrics and not r.why and not plan.sub_queries:
        return plan
    if plan.intent not in NUMERIC_INTENTS or not plan.metrics:
        return plan
    if (_DIRECTION.search(low) or r.years.trend) and plan.intent in ("numeric", "derived", "trend") \
            and len(plan.tickers) == 1 and len(plan.fiscal_years) <= 1 and len(plan.year_offsets) <= 1 \
            and not r.years.since and not _ONE_YEAR_BASE.search(low):
        # "is its margin improving as of 2023?", "revenue over time", "has it been growing?": a direction or a
        # history needs the years before it, three at least (agent.planning.years reads the wording)
        if len(plan.fiscal_years) == 1 and not plan.latest:
            year = plan.fiscal_years[0]
            plan.fiscal_years = [year - 2, year - 1, year]
            plan.intent = "trend"
        elif not plan.fiscal_years and plan.latest and len(plan.year_offsets) <= 1:
            base = (plan.year_offsets or [0])[0]
            plan.year_offsets = [base - 2, base - 1, base]
            plan.intent = "trend"
    quarter = quarterly_phrase(low)
    period = parse_period(low) if quarter else dated_period(low) or latest_period(low, plan)
    _through_thread_quarter(period, prev)
    same = _SAME_PERIOD.search(low) if quarter and period is None and prev is not None and prev.period else None
    # "the year-ago period" names no quarter word of its own: the thread's quarter a year back all the same
    earlier = _YEAR_EARLIER_PERIOD.search(low) if period is None and prev is not None and not same \
        and prev.period and prev.period.get("kind") == "quarter" else None
    # "and the previous quarter?" after Q2 FY2024: Q1 FY2024, the quarter before the thread's; a comparison with it
    # ("vs the prior quarter", "sequential growth") is the growth path's
    set_against = bool(_COMPARED.search(low) or GROWTH.search(low) or r.growth or _CHANGED_FROM.search(low))
    prior = _PRIOR_QUARTER.search(low) if quarter and period is None and prev is not None and not same \
        and (_quarter_of_a_year(prev.period) or _dated_quarter(prev.period)) and not set_against else None
    # "how does that compare with the previous quarter?", "sequential growth?" after Q2 FY2024: Q2 against Q1.
    # "sequential" names no quarter word of its own, and a quarter named by its end date is set against the one
    # before it all the same (the retrieval steps back on the company's calendar)
    sequential = SEQUENTIAL.search(low) if period is None and prev is not None and not same and not prior \
        and prev.period and prev.period.get("kind") == "quarter" and not prev.period.get("latest") \
        and (set_against or (quarter and _quarter_of_a_year(prev.period))) else None
    if earlier or prior or sequential:
        same = earlier or prior or sequential  # "what about the prior-year quarter?": the thread's quarter, a year back
    if same:
        quarter = None  # "what about AMD for the same quarter": the thread's quarter, read below
    if quarter and period is None:
        return refusal_plan("out_of_scope", f"that period (\"{quarter}\"): name a quarter, a half, a year to date or "
                            "trailing twelve months", tickers=plan.tickers, fiscal_years=plan.fiscal_years)
    month = month_phrase(low) if period is None else None
    if month and not any(METRICS[k].period == "instant" for k in plan.metrics if k in METRICS):
        # "revenue in December 2024": a month's flow, which no filing reports; the fiscal year that
        # month falls in is another figure
        return refusal_plan("out_of_scope", f"that period (\"{month}\"): filings report no month's figures; name a "
                            "quarter, a half, a year to date or a fiscal year", tickers=plan.tickers,
                            fiscal_years=plan.fiscal_years)
    if period is None and prev is not None and prev.period and not _WHOLE_YEAR.search(low):
        period = thread_period(prev.period, plan.fiscal_years if "fiscal_years" not in plan.inherited else None)
        plan.inherited.append("period")  # "and Apple?" after a quarter: the same quarter, never the year
        if "tickers" not in plan.inherited and plan.tickers and plan.tickers != prev.tickers and not period.of \
                and "fiscal_years" in plan.inherited and len(prev.tickers) == 1:
            period.of = prev.tickers[0]  # another company: its own quarter of the same months (quarter_figures)
        if same:
            period.words = sorted(set(normalize(same.group(0)).split()))
        if earlier and _COMPARED.search(low):
            period.growth = "yoy"  # "compared with the year-ago quarter?": both quarters, the growth between them
        elif earlier:
            _year_earlier(period, plan)
        elif prior and period.end and not period.quarter:
            # after "the quarter ended September 30, 2023": the quarter ending three months before it, on the
            # company's calendar (agent.retrieval.quarter_figures reads a quarter by the month it ends in)
            year, month = int(period.end[:4]), int(period.end[5:7]) - 3
            period.end, period.months, period.phrase = None, None, f"the quarter before the {period.phrase}"
            period.end_month, period.end_year = (month, year) if month > 0 else (month + 12, year - 1)
            period.growth = None
        elif prior:
            period.quarter, period.fiscal_year = (period.quarter - 1, period.fiscal_year) if period.quarter > 1 \
                else (4, period.fiscal_year - 1)
            period.growth = None
        elif sequential:
            period.growth = "sequential"  # the thread's quarter and the one before it, the growth between them
            if _CHANGED_FROM.search(low) and not r.growth and "metrics" in plan.inherited:
                # "how much is that up from the prior quarter?": the thread's figures grown, as "sequential growth?"
                # asks them (a base quarter not held is then refused as not held, never as a figure not found)
                plan.metrics = inherited_growth(plan.metrics)
    if period is not None and period.kind == "quarter" and period.latest and period.fiscal_year is None \
            and not period.end and not period.end_month and prev is not None and prev.period \
            and prev.period.get("kind") == "quarter" and plan.fiscal_years and "fiscal_years" not in plan.inherited:
        # "how does that compare to last year's q2?" after Q2 FY2024: "last year" was read against the thread's
        # year (FY2023), so the quarter is that year's, never the latest Q2 held, a figure two years on
        period.fiscal_year, period.latest = min(plan.fiscal_years), False
        period.year_is_fiscal = bool(prev.period.get("year_is_fiscal"))  # the year is the thread's, in its terms
    if period is not None and period.kind == "quarter" and not period.growth and not period.latest \
            and _one_year_apart(plan.fiscal_years, period.fiscal_year):
        # "Q2 2023 vs Q2 2022", "vs a year ago?" after a quarter: the quarter and the same quarter a year
        # earlier, both stated (the growth sentence carries both figures); never the later quarter alone,
        # which answered a thread's "vs a year ago?" with the figure it had just given
        period.growth, period.fiscal_year = "yoy", max(plan.fiscal_years)
    if period is not None and period.fiscal_year is None and not period.end and not period.end_month \
            and "fiscal_years" in plan.inherited and plan.fiscal_years and not period.or_year:
        period.fiscal_year, period.latest = plan.fiscal_years[-1], False  # "and Q4?": the thread's fiscal year
    period_words: set[str] = set()
    if period is not None:
        plan.period = period.as_dict()
        period_words = set(period.words)
        if plan.intent == "trend" and period.kind != "quarters":
            plan.intent = "numeric"  # "Q2 2023 vs Q2 2022": the quarter and its base, not a run of years
    dims = {w for k in plan.metrics if k.startswith("dim:") for w in key_parts(k)[1].split()}
    dims |= {w + s for w in dims for s in ("s", "es")} | {w[:-1] + "ies" for w in dims if w.endswith("y")}
    if any(k.startswith("dim:cost_of_revenue|") for k in plan.metrics):
        dims |= {"cost", "costs", "of"}  # "cost of automotive sales": the member's cost, its words all taken
    if dims:  # "revenue from Europe, Middle East and Africa": a printed name the member's words make up
        joined = frozenset(n for n in joined if not n <= dims | {"and", "&"})  # is the member's, not a line
        rows = frozenset(n for n in rows if not n <= dims | {"and", "&"})
    kind_words = claimed(low, (KIND_WORD,)) if r.kind else set()  # "the margin" after a figure: that figure's
    plan.member_topic = topic_of_reply(plan, prev, low)
    pointed = thread_member(plan, prev, low)
    if pointed is not None:
        # "and operating income there?" after "Greater China net sales": the figure named, of the member the thread
        # was about, never the company's total
        on_thread_member(plan, pointed)
        dims |= set(pointed.split()) | claimed(low, (MEMBER_POINTER,))
    trace, runs = account(outside, company_spans(r, outside), claimed(low, _CLAIMED) | dims | period_words | kind_words,
                          joined, rows)
    runs = conventions(plan, trace) if runs else runs
    plan.words = trace
    member = earned_by_member(r, trace, runs, low) if "net_income" in plan.metrics else None
    if member is not None:
        # "how much did AWS earn?", "how much did the data center segment earn?": the product, brand or segment
        # earned it, so the figure is that member's, never the company's net income
        plan.metrics = [member if k == "net_income" else k for k in plan.metrics]
        plan.intent = "numeric" if plan.intent == "derived" else plan.intent
        return plan
    currency = _OTHER_CURRENCY.search(low)
    if currency:  # "net income in yen": a conversion at some rate is no figure a filing reports
        return refusal_plan("out_of_scope", f"figures converted to another currency (\"{currency.group(1)}\"): the filings "
                            "report them in US dollars", tickers=plan.tickers, fiscal_years=plan.fiscal_years, words=trace)
    other = other_convention(plan, trace)
    if other:
        return refusal_plan("unknown_metric", other, tickers=plan.tickers, fiscal_years=plan.fiscal_years, words=trace)
    flow = balance_as_flow(plan, trace)
    if flow is not None:
        reason, detail, candidates = flow
        return refusal_plan(reason, detail, candidates=candidates, tickers=plan.tickers, fiscal_years=plan.fiscal_years,
                            words=trace)
    if not runs:
        if _QUARTER_ROW in plan.metrics:  # never left as a key: no row's words once the quarter's are claimed
            return refusal_plan("unknown_metric", f"which figure of that period (\"{quarterly_phrase(low)}\"): name a line "
                                "item, such as revenue or net income", tickers=plan.tickers, fiscal_years=plan.fiscal_years)
        return plan
    if "metrics" in plan.inherited:
        # "and Mac?" after "iPhone revenue": the new words name what is asked now; the thread's
        # measure is kept only as the metric a member narrows, never answered beside it
        leftover = leftover_words(trace, runs)
        metrics = [f"{k.split('|')[0]}|{leftover}" for k in plan.metrics if k.startswith("dim:") and "|*" not in k]
        for k in plan.metrics:  # "and Digital Experience?" after "Digital Media revenue" (a member found by its words)
            if k.startswith("line:"):
                context = line_parts(k)[1]
                said = [context.split()[s:e] for s, e, m in find_phrases(context, PHRASES) if m in METRICS]
                if len(said) == 1:
                    phrase = " ".join(said[0])
                    metrics.append(f"line:{leftover}|{leftover} {phrase}|{leftover} {phrase}")
        metrics += member_of_thread_metric(plan.metrics, leftover, prev, low)
        if metrics:
            plan.metrics = list(dict.fromkeys(metrics))
            plan.words = [*trace, *thread_metric_words(plan, prev)]
            return plan
        plan.metrics = []  # "and selling expense?": that line alone, not the thread's figures beside it
        plan.inherited.remove("metrics")
    earned = _EARNED_FROM.search(low)
    if earned and "net_income" in plan.metrics and not any(t["as"] == "metric:net_income" for t in trace):
        # "how much did it make from iPhone?": the member's revenue, never the company's net income
        leftover = leftover_words(trace, runs)
        plan.metrics = [f"dim:revenue|{leftover}", *(k for k in plan.metrics if k != "net_income")]
        plan.intent = "numeric" if plan.intent == "derived" else plan.intent
        return plan
    if "revenue" in plan.metrics and _SOLD.search(low) and not any(t["as"] == "metric:revenue" for t in trace):
        # "what did the Digital Experience segment bring in?": the member's revenue, never the company's
        leftover = leftover_words(trace, runs)
        plan.metrics = [f"dim:revenue|{leftover}", *(k for k in plan.metrics if k != "revenue")]
        return plan
    runs = _narrowed_margins(plan, trace, runs)
    keys, absorbed = line_keys(trace, runs)
    keys = [_whole_when_subtracted(k, trace, runs) for k in keys]
    if dims:  # a member's words ("long-lived assets in Israel") narrow the line: required, never a spare word
        keys = [_without_spare(k, dims) for k in keys]
    absorbed = _taken_in(trace, absorbed)
    if keys and plan.metrics == list(DEFAULT_COMPARE) and not any(t["as"] in _DEFAULT_SAID for t in trace):
        # "kraft heinz vs pepsi CFO 2023": the words left over are the figure asked, so the headline figures a
        # comparison that names none would show are not asked; answering them instead would answer another question
        absorbed = [*absorbed, *DEFAULT_COMPARE]
    plan.metrics = [k for k in plan.metrics if k not in absorbed and k != _QUARTER_ROW] + keys
    if plan.intent == "derived" and not any(k in FORMULAS for k in plan.metrics):
        plan.intent = "numeric"
    return plan
