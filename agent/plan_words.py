"""Word accounting: a figure is only answered when the plan accounts for every word of the question.

Why: a true figure for the wrong thing is the worst answer Footnote can give. It happened when a
phrase matched part of a question and the rest was dropped ("cash provided by financing" answered
with the cash balance, "first-half net income" with the year's). Here every word of a numeric
question must be consumed by something the plan understood: a company mention, a metric phrase
(longest match), a period, or a small closed vocabulary of question and filler words. What is left
over either extends the metric into a line-item phrase the company's own statement labels may
answer (`line:` keys, resolved per company in retrieve), or the question is refused. Periods the
product does not answer yet (quarters, halves, year to date) are refused, never answered with a
fiscal year. The trace (`Plan.words`) records how each word was consumed.
"""

from __future__ import annotations

import re

from agent.concepts import find_phrases, normalize
from agent.finance import GROWTH_WORDS, MEASURE_PHRASES

# Periods not answered yet: a quarter, a half, year to date, a stub of months.
QUARTERLY = re.compile(
    r"\b(?:q[1-4]|[1-4]q|h[12]|(?:first|second|third|fourth|1st|2nd|3rd|4th|last|latest|this|past|prior|previous|"
    r"most recent|recent|same|each|every|current)\s+(?:fiscal\s+)?(?:quarter|half)|quarters?|quarterly|"
    r"(?:three|six|nine|3|6|9)[\s-]+months?|half[\s-]+year(?:ly)?|semi[\s-]?annual(?:ly)?|first[\s-]+half|"
    r"second[\s-]+half|year[\s-]+to[\s-]+date|ytd|qtd|interim|10-?q)\b",
    re.I,
)

# Question and filler words: consumed without meaning anything for the figure.
FILLER = frozenset(
    """a an the of for in on at by to from with about as and or vs versus against than into per
    what whats what's which who how much many was were is are be been being did does do done has have had
    show me tell give get find list report reported reports reporting provide please pls can could would you
    i we us our my your it its it's their they them this that those these there here same also just so ok okay
    hey hi thanks thank again now then please? any some all both each either one two three
    according filing filings 10-k 10k form annual report statement statements sec xbrl figure figures
    number numbers value values amount amounts level levels total overall consolidated gaap reported
    company company's companies firm business corp inc co ltd group
    year years fy fiscal yearly annually annual period periods latest recent most last past
    ago since through thru until between ending ended end during within dated fye as-of
    compare compared comparison comparing side stack up relative which higher lower more less bigger larger
    rank ranked ranking rankings order ordered sort sorted
    smaller better worse best worst biggest largest highest lowest
    exact exactly approximately roughly about around usd dollars dollar million millions billion billions
    thousand thousands mm bn k m answer only round rounded nearest
    over time trend trends trending history historical historically evolution trajectory
    growth grow grew grown growing rate yoy y/y change changed changes up down increase increased decrease
    decreased decline declined rise rose fall fell improve improved improving improvement worsening
    much % fast quickly quick slow slowly big large small high low far
    invest invested spend spent spends spending pay paid pays earn earned earns make made makes
    bring brought book booked post posted record recorded generate generated
    if dont don't doesnt didnt know unsure sure invent guess estimate pretend ignore instructions briefly brief
    short format express answer respond reply quickly terms just only exact precise precisely
    take took taken hold held holding carry carried approx hows balance sheet sheets
    using based pull fetch look lookup check see need want like id im would curious wondering interested
    question kindly money decimal decimals places digits percent percentage state confirm determine grab
    """.split()
)
# A date's month names the fiscal year's end ("the year ended September 28, 2024", "as of Jan 31").
MONTHS = frozenset("""january february march april may june july august september october november december
    jan feb mar apr jun jul aug sep sept oct nov dec""".split())
_NUMBER = re.compile(r"^(?:fy)?'?\d{2,4}s?$|^\d+(?:st|nd|rd|th)$|^[\d.,]+$")


def _mask_companies(text: str, spans: list[tuple[int, int]]) -> str:
    for start, end in sorted(spans, reverse=True):
        text = text[:start] + " " + text[end:]
    return text


def quarterly_phrase(text: str) -> str | None:
    """The quarterly, half-year or year-to-date period a question asks about, if any."""
    m = QUARTERLY.search(text)
    return m.group(0) if m else None


def account(text: str, company_spans: list[tuple[int, int]], extra_consumed: set[str] | None = None
            ) -> tuple[list[dict], list[tuple[int, int]]]:
    """Every word of `text` (normalized) with how it was consumed, and the runs of leftover words.

    Returns (trace, leftover runs as (start, end) word index ranges). `extra_consumed`: words
    other parts of the planner claimed (topics, scope, thread words).
    """
    masked = _mask_companies(text, company_spans)
    words = normalize(masked).split()
    how: list[str | None] = [None] * len(words)
    for start, end, key in find_phrases(" ".join(words), MEASURE_PHRASES):
        for i in range(start, end):
            how[i] = f"metric:{key}"
    growth = {w for g in GROWTH_WORDS for w in g.split()}
    extra = extra_consumed or set()
    for i, w in enumerate(words):
        if how[i]:
            continue
        bare = w.strip("-/%")
        if _NUMBER.match(w) or re.fullmatch(r"fy\d{2,4}", w) or w in MONTHS:
            how[i] = "period"
        elif w in FILLER or bare in FILLER or not bare:
            how[i] = "filler"
        elif w in growth:
            how[i] = "growth"
        elif w in extra:
            how[i] = "other"
    trace = [{"word": w, "as": h or "unaccounted"} for w, h in zip(words, how)]
    runs: list[tuple[int, int]] = []
    i = 0
    while i < len(words):
        if how[i] is None:
            j = i
            while j < len(words) and how[j] is None:
                j += 1
            runs.append((i, j))
            i = j
        else:
            i += 1
    return trace, runs


NUMERIC_INTENTS = ("numeric", "derived", "compare", "trend")
_JOIN = frozenset("of in on by from for to and per".split())
_SIDE = ("filler", "period", "growth", "other")
_CLAUSE_BREAK = frozenset({"and", "vs", "versus", "plus", "&", "or"})


def claimed(low: str, patterns) -> set[str]:
    """Words inside matches of other planner parts' patterns (years, thread words, implied asks)."""
    out: set[str] = set()
    for pattern in patterns:
        for m in pattern.finditer(low):
            out |= set(normalize(m.group(0)).split())
    return out


def line_keys(trace: list[dict], runs: list[tuple[int, int]]) -> tuple[list[str], set[str]]:
    """`line:` keys for the leftover runs, and the measure keys they absorb.

    A run's clause (split at "and", "vs", ...) is its context: the metric words in the same clause
    may belong to the line's label ("cash ... financing"), so those measures are absorbed and
    answered only if a label takes them in. Key: 'line:<leftover words>|<clause content words>'."""
    words = [t["word"] for t in trace]
    kinds = [t["as"] for t in trace]
    def side(j: int) -> str:
        return kinds[j] if 0 <= j < len(words) else "end"

    # "revenue and marketing expense" is two asks; "property, plant and equipment" and "marketing and
    # sales" are one label each: an "and" after a word no metric took joins a label
    breaks = [i for i, w in enumerate(words) if w in _CLAUSE_BREAK and not kinds[i].startswith("metric:")
              and side(i - 1) != "unaccounted"]
    keys: list[str] = []
    absorbed: set[str] = set()
    clauses: dict[tuple[int, int], list[tuple[int, int]]] = {}
    for start, end in runs:
        lo = max([b + 1 for b in breaks if b < start], default=0)
        hi = min([b for b in breaks if b >= end], default=len(words))
        clauses.setdefault((lo, hi), []).append((start, end))
    for (lo, hi), inside in clauses.items():
        leftover = " ".join(words[i] for start, end in inside for i in range(start, end))
        context = [w for i, w in enumerate(words[lo:hi], lo) if kinds[i].startswith("metric:") or kinds[i] == "unaccounted"]
        absorbed |= {kinds[i][7:] for i in range(lo, hi) if kinds[i].startswith("metric:")}
        idx = list(range(lo, hi))
        while idx and kinds[idx[0]] in _SIDE:
            idx.pop(0)
        while idx and kinds[idx[-1]] in _SIDE:
            idx.pop()
        shown = [words[i] for i in idx if kinds[i] != "filler" or words[i] in _JOIN]
        key = f"line:{leftover}|{' '.join(context)}|{' '.join(shown)}"
        if key not in keys:
            keys.append(key)
    return keys, absorbed


def line_parts(key: str) -> tuple[str, str, str]:
    """(leftover words, clause content words, the clause as the user wrote it) of a `line:` key."""
    leftover, context, shown = (key[5:].split("|") + ["", ""])[:3]
    return leftover, context, shown or context or leftover
