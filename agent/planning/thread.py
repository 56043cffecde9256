"""What a message may take from its thread: the last plan that can be built on, the companies the
thread has discussed, and a reply that divides the thread's figure rewritten as that quotient.

Why a module of its own: the planner's flow (agent.planning.rules) asks these of the thread at
several points; the words that make a message a follow-up live here beside them.
"""

from __future__ import annotations

import re

from agent.planning.plan import Plan
from agent.retrieval.concepts import METRICS
from agent.retrieval.finance import FORMULAS
from agent.retrieval.segments import key_parts


FOLLOWUP = re.compile(
    r"^\s*(?:and|also|what about|how about|same|now|ok|okay|then|plus|vs\.?|versus|compare (?:that|it|this|them)|"
    r"what if|how does (?:that|it|this) compare|and for|and in|for)\b|"
    r"\b(?:that|it|its|this|those|them|they|their|the same)\b"
)
ADDING = re.compile(r"\b(?:compar\w*|vs\.?|versus|against|relative to|with|side by side|stack up|alongside)\b")


# "as a share of revenue?", "relative to sales", "per dollar of revenue": a figure over the same year's revenue
SHARE = re.compile(r"(?:\bas\s+(?:a\s+)?(?:%|percent(?:age)?|share|proportion|fraction)\s+of|\b(?:relative|ratio)\s+to|"
                   r"\b(?:its|their|the)\s+(?:share|percentage|proportion|fraction)\s+of|"
                   r"\bin\s+relation\s+to|\bper\s+dollar\s+of|\bscaled\s+(?:by|to)|\bnormali[sz]ed\s+(?:by|to|for))"
                   r"\s+(?:total\s+)?(?:net\s+)?(?:revenues?|sales)\b")


# A metric and its share of revenue, for "as a % of revenue?" as a follow-up, where the catalogue's
# name for it is not "X as % of revenue" (a margin); the rest are read from the catalogue (share_of_revenue).
SHARE_OF_REVENUE = {
    "rd": "rd_pct_revenue", "sga": "sga_pct_revenue", "capex": "capex_pct_revenue", "gross_profit": "gross_margin",
    "operating_income": "operating_margin", "net_income": "net_margin",
}


def share_of_revenue(key: str) -> str | None:
    """The catalogue formula that is `key` over the same year's revenue, in percent, or None.

    Why read the catalogue: a hand-kept table misses every share added to the catalogue later, and
    a share follow-up it misses ("as a % of revenue?" after cost of revenue) would be answered with
    revenue itself, a true figure for the wrong question."""
    if key in SHARE_OF_REVENUE:
        return SHARE_OF_REVENUE[key]
    from agent.retrieval.finance import FORMULAS, Input

    wanted = (Input(key), Input("revenue"))
    return next((f.key for f in FORMULAS.values() if f.inputs == wanted and f.unit == "percent"
                 and f.fallback is None and f.synonyms), None)


def is_share_of_revenue(key: str) -> bool:
    """`key` is already a figure over the same year's revenue (a margin, R&D as % of revenue).

    Why: "which spends more relative to sales?" after "as % of revenue" asks to compare that share;
    a share of a share is no figure, and refusing it as unknown drops the thread's answer."""
    if key in SHARE_OF_REVENUE.values():
        return True
    from agent.retrieval.finance import FORMULAS, Input

    f = FORMULAS.get(key)
    return f is not None and f.unit == "percent" and len(f.inputs) == 2 and f.inputs[1] == Input("revenue")


def discussed(prev: Plan | None) -> list[str]:
    """The companies the thread has discussed, most recent last."""
    if prev is None:
        return []
    if prev.route != "domain":  # a refused company was asked about, never discussed
        return [t for t in prev.thread_tickers if t not in prev.tickers]
    seen = [t for t in prev.thread_tickers if t not in prev.tickers] + list(prev.tickers)
    return list(dict.fromkeys(seen))


def usable_previous(previous: Plan | None) -> Plan | None:
    if previous is None or previous.route == "meta":
        return None
    if previous.route == "refusal" and previous.refusal_reason in (
        "out_of_scope", "input_too_long", "internal_error", "no_grounding",
    ):
        return None
    return previous


# "what's that relative to equity?", "and as a multiple of EBIT?": the thread's one figure over another
_RELATIVE = re.compile(
    r"^\W*(?:(?:and|so|ok(?:ay)?)\W+)?(?:(?:what|how\s+much)(?:'s|\s+is|\s+was|\s+are|\s+were)?\s+)?(?:that|it|this|those|these)?"
    r"\s*(?:relative\s+to|in\s+relation\s+to|divided\s+by|over|as\s+a\s+(?:ratio|multiple|fraction)\s+of)\s+"
    r"(?P<other>[^?]+?)\W*$", re.I)


# "what share of total revenue is that?", "as a % of sales?": the thread's member over its company's total
_MEMBER_SHARE = re.compile(
    r"^\W*(?:(?:and|so|ok(?:ay)?)\W+)?(?:(?:what|which|how\s+much)(?:'s|\s+is|\s+was)?\s+)?"
    r"(?:(?:that|it|this)(?:'s|\s+is|\s+was)?\s+)?(?:the\s+|a\s+|as\s+a\s+|its\s+|their\s+)?"
    r"(?:share|percent(?:age)?|%|proportion|portion|fraction|pct)\s+of\s+(?:the\s+)?(?:total|overall|company|whole)?\s*"
    r"(?:net\s+)?(?:revenues?|sales)\b[^?]*\W*$", re.I)


# "diluted?", "and basic?", "as a margin?": a reply that is only a word or two to put beside the thread's figure
_MODIFIER = re.compile(r"^\W*(?:(?:and|so|ok(?:ay)?|what\s+about|how\s+about|now)\W+)*(?:(?:as\s+an?|in|the)\s+)?"
                       r"(?P<words>[a-z][a-z&%-]*(?:\s+[a-z][a-z&%-]*)?)\W*$", re.I)


def modified_figure(raw: str, previous: Plan | None) -> str:
    """A reply of a word or two that, put beside the name of the thread's one figure, names a figure
    ("diluted?" after EPS is diluted EPS, "basic?" basic EPS, "as a margin?" after net income the net
    margin): that figure asked for, written out. The reply as written otherwise, and always when its
    words are a figure of their own ("eps?", "r&d?") or name none beside the thread's.

    Why: alone, "diluted" is a word many statement rows print (diluted shares, diluted EPS), so it is
    looked up as a line and asked back as ambiguous, when the thread has already said which figure."""
    from agent.retrieval.concepts import normalize
    from agent.retrieval.finance import FORMULAS, MEASURE_PHRASES

    if previous is None or previous.route != "domain" or len(previous.metrics) != 1:
        return raw
    m = _MODIFIER.match(raw)
    key = previous.metrics[0]
    names = METRICS[key].synonyms if key in METRICS else FORMULAS[key].synonyms if key in FORMULAS else ()
    if m is None or not names:
        return raw
    words = normalize(m.group("words"))
    if not words or words in MEASURE_PHRASES:
        return raw
    for name in names:
        said = normalize(name).split()
        # beside the name ("diluted" + "eps"), or in place of its first word ("diluted" for "basic" in "basic eps")
        for phrase in (f"{words} {' '.join(said)}", f"{' '.join(said)} {words}", " ".join([words, *said[1:]])):
            if len(said) > 1 or phrase != words:
                if phrase in MEASURE_PHRASES:
                    return f"and {phrase}?"  # "and": the thread's company and year
    return raw


# words a reply asking only for a share says beside the share itself ("and its ratio to revenue?")
_SHARE_FILLER = frozenset("and so ok okay what what's whats is was its their the that it this those how about much "
                          "then now please".split())


def _bare_share(raw: str) -> bool:
    """The reply asks for the thread's figure as a share of revenue and says nothing else ("ratio to revenue?")."""
    low = raw.lower().replace("\u2019", "'")
    m = SHARE.search(low)
    if m is None:
        return False
    rest = re.findall(r"[a-z][a-z']*", low[: m.start()] + " " + low[m.end():])
    return all(w in _SHARE_FILLER for w in rest)


# "minus capex?", "now subtract capex for each", "less dividends?": the thread's figure less another
_MINUS = re.compile(
    r"^\W*(?:(?:and|so|now|ok(?:ay)?|then)\W+)*(?:(?:what|how\s+much)(?:'s|\s+is|\s+was|\s+are|\s+were)?\s+)?"
    r"(?:(?:that|it|this|those|these)\s+)?(?:minus|less|subtract(?:ing)?|deduct(?:ing)?|take\s+away|net\s+of|"
    r"after\s+(?:subtracting|deducting))\s+(?!than\b)(?P<other>[^?]+?)"
    r"(?:\s+(?:for|from)\s+(?:each|both|them|it|that|this|all(?:\s+(?:of\s+them|three))?|the\s+(?:two|three)))?\W*$", re.I)


def less_than_thread(raw: str, previous: Plan | None) -> str:
    """A follow-up that takes another figure from the thread's one ("minus capex?", "now subtract capex
    for each") is that difference, written out as a formula the formula reader takes ("operating cash
    flow minus capex"), for the thread's companies and years; never the other figure alone, nor a line
    named "minus capex". Only when the thread asked for one reported figure."""
    if previous is None or previous.route != "domain" or len(previous.metrics) != 1:
        return raw
    key = previous.metrics[0]
    m = _MINUS.match(raw)
    if m is None or key not in METRICS:
        return raw
    return f"and {asked_as(key)} minus {m.group('other')}?"  # "and": the thread's companies and year


# "what percentage of that was footwear?", "what share of it came from the US?": a part's share of the thread's figure
_PART_SHARE = re.compile(
    r"^\W*(?:(?:and|so|now|ok(?:ay)?|then)\W+)*(?:what|which)(?:'s|\s+is|\s+was)?\s+(?:the\s+)?"
    r"(?:percent(?:age)?|share|portion|proportion|fraction|%)\s+of\s+(?:that|it|this|those|them|the\s+total)\s+"
    r"(?:(?:was|is|were|are|came|comes|come)\s+)?(?:(?:from|in|by)\s+)?(?:its\s+|their\s+)?"
    r"(?P<part>(?:the\s+)?[a-z][\w&'.\- ]{0,40}?)\W*$", re.I)


def formula_of_thread(raw: str, previous: Plan | None, read) -> dict | None:
    """A reply that puts the thread's one formula of the user's, an amount, into another ("as a % of revenue?",
    "minus R&D?", "relative to equity?", "and capex over that?"): the new formula's definition, the thread's tree
    inside it (`read` parses the other operand's words, an amount too); None for any other message.

    Why: read as words, the reply lost the formula the thread computed (its name is no figure), and was refused or
    answered with the other figure alone."""
    if previous is None or previous.route != "domain" or len(previous.metrics) != 1 \
            or not previous.metrics[0].startswith("udf:"):
        return None
    name = previous.metrics[0][4:]
    mine = next((d for d in previous.definitions or [] if d.get("name") == name), None)
    if mine is None:
        return None
    from agent.planning.formula_syntax import DefinitionError
    from agent.planning.formula_trees import restate, unit_of

    def other(words: str) -> dict | None:
        try:
            return read(words)
        except DefinitionError:
            return None

    if unit_of(mine["tree"], name) != "USD":
        return None  # a ratio's share of revenue, or a ratio over an amount, is no figure: left to the reply's own reading
    if _MEMBER_SHARE.match(raw) or _bare_share(raw):
        said, tree, unit = f"{name} as a % of revenue", {"op": "/", "args": [mine["tree"], {"metric": "revenue"}]}, "percent"
    elif (m := _RELATIVE.match(raw)) and (o := other(m.group("other"))) is not None:
        said = f"{name} over {m.group('other').strip()}"
        tree = {"op": "/", "args": [mine["tree"], o]}
        unit = unit_of(tree, said)
    elif (m := _MINUS.match(raw)) and (o := other(m.group("other"))) is not None and unit_of(o, "") == "USD":
        said, tree, unit = f"{name} minus {m.group('other').strip()}", {"op": "-", "args": [mine["tree"], o]}, mine["unit"]
    elif (m := _OVER_THAT.match(raw)) and (o := other(m.group("other"))) is not None and unit_of(o, "") == "USD":
        share = re.match(r"as\b", m.group("op"), re.I)
        said = f"{m.group('other').strip()} {'as a % of' if share else 'over'} {name}"
        tree = {"op": "/", "args": [o, mine["tree"]]}
        unit = "percent" if share else unit_of(tree, said)
    else:
        return None
    return {"name": said, "tree": tree, "unit": unit, "formula": restate(tree, top=True)}


# "and operating income over that?", "R&D as a % of it": another figure over the thread's one
_OVER_THAT = re.compile(
    r"^\W*(?:(?:and|so|now|ok(?:ay)?|then|what\s+about|how\s+about)\W+)*(?:(?:what|how\s+much)(?:'s|\s+is|\s+was)?\s+)?"
    r"(?:(?:the|its|their)\s+)?(?P<other>[a-z][\w&'.\- ]{1,60}?)\s+(?P<op>over|divided\s+by|relative\s+to|to|"
    r"as\s+a\s+(?:%|percent(?:age)?|share|fraction|proportion|pct)\s+of)\s+(?:that|it|this|the\s+same)\W*$", re.I)


def over_thread(raw: str, previous: Plan | None) -> str:
    """A follow-up that divides another figure by the thread's one ("and operating income over that?" after
    revenue, "R&D as a % of it" after a formula of the user's) is that quotient, written out for the formula
    reader, for the thread's companies and years; never the other figure alone. Only when the thread asked for
    reported figure (a formula of the user's: formula_of_thread)."""
    if previous is None or previous.route != "domain" or len(previous.metrics) != 1:
        return raw
    m = _OVER_THAT.match(raw)
    if m is None:
        return raw
    key = previous.metrics[0]
    words = asked_as(key) if key in METRICS else _amount_words(key)  # (a registry amount: "EBITDA")
    if words is None or re.fullmatch(r"(?:that|it|this|figure|number|amount)", m.group("other").strip(), re.I):
        return raw
    op = "as a percentage of" if re.match(r"as\b", m.group("op"), re.I) else "over"
    return f"and {m.group('other')} {op} {words}?"  # "and": the thread's companies and years


_DAYS_OF_THAT = re.compile(r"^\s*(?:and\s+|so\s+)?(?:how\s+many|what(?:'s|\s+is)\s+(?:that|this|it)\s+in)\s+days\s+"
                           r"(?:of|worth\s+of)\s+(?P<other>[\w&' -]+?)(?:\s+(?:is|does|would|was)\s+(?:that|this|it)"
                           r"(?:\s+(?:represent|cover|equal|amount\s+to))?)?\s*\??\s*$", re.I)


def relative_to_thread(raw: str, previous: Plan | None) -> str:
    """A follow-up that divides the thread's figure by another ("what's that relative to equity?")
    is that quotient, written out as a formula the formula reader takes ("total debt over equity"),
    never the other figure alone. Only when the thread asked for one reported figure. After a
    member's figure ("Data Center revenue"), "what share of total revenue is that?" is the member's
    share, never the company's total revenue. A bare figure after a growth question is that figure's growth
    (`grown_like_thread`)."""
    raw = grown_like_thread(raw, previous)
    if previous is None or previous.route != "domain" or len(previous.metrics) != 1:
        return raw
    key = previous.metrics[0]
    if key.startswith("dim:") and _MEMBER_SHARE.match(raw):
        metric, member, _ = key_parts(key)
        if metric in METRICS and member and "*" not in member and "=" not in member:
            return f"and what share of {asked_as(metric)} came from {member}?"
    if key in METRICS and key != "revenue" and share_of_revenue(key) is None and METRICS[key].unit == "USD" and (_MEMBER_SHARE.match(raw)
                                                                                  or _bare_share(raw)):
        # "as a % of revenue?" after D&A, which the catalogue has no share for: that quotient in
        # percent, written out for the formula reader, never revenue itself
        return f"and {asked_as(key)} as a percentage of revenue?"
    part = _PART_SHARE.match(raw)
    if part is not None and key in METRICS and METRICS[key].unit == "USD":
        # "what percentage of that was footwear?" after Nike's revenue: that part's share of the thread's figure
        return f"and what share of {asked_as(key)} came from {part.group('part')}?"
    days = _DAYS_OF_THAT.match(raw)
    if days is not None and key in METRICS and METRICS[key].period == "instant" and METRICS[key].unit == "USD":
        # "how many days of COGS is that?" after inventories: the balance over the year's flow times 365
        other = days.group("other").strip()
        return f"and {asked_as(key)} over {other} times 365, call it 'days of {other}'?"
    words = _amount_words(key)
    share = _SHARE_OF_OTHER.match(raw) or _WHAT_SHARE_OF.match(raw)
    if share is not None and words is not None and not _REVENUE_WORDS.fullmatch(share.group("other").strip()):
        # "and as a share of free cash flow?", "what % of operating cash flow is that?" after dividends or capex: the
        # thread's amount over that other figure, in percent, never the other figure alone
        return f"and {words} as a percentage of {share.group('other').strip()}?"
    m = _RELATIVE.match(raw)
    if m is None or key not in METRICS:
        return raw
    return f"and {asked_as(key)} over {m.group('other')}?"  # "and": the thread's company and year


# "and as a share of free cash flow?", "that as a % of operating cash flow?": the thread's figure over another
_SHARE_OF_OTHER = re.compile(
    r"^\W*(?:(?:and|so|ok(?:ay)?|what\s+about|how\s+about|now)\W+)*(?:(?:what|how\s+much)(?:'s|\s+is|\s+was)?\s+)?"
    r"(?:(?:that|it|this)(?:'s|\s+is|\s+was)?\s+)?as\s+(?:a\s+)?(?:%|percent(?:age)?|share|proportion|pct|fraction)\s+of\s+"
    r"(?:the\s+|its\s+|their\s+)?(?P<other>[a-z][\w&'.\- ]{1,60}?)\W*$", re.I)
# "what % of operating cash flow is that?"
_WHAT_SHARE_OF = re.compile(
    r"^\W*(?:(?:and|so|ok(?:ay)?|now)\W+)*what\s+(?:%|percent(?:age)?|share|portion|proportion|fraction|pct)\s+of\s+"
    r"(?:the\s+|its\s+|their\s+)?(?P<other>[a-z][\w&'.\- ]{1,60}?)\s+(?:is|was|are|were)\s+(?:that|it|this)\W*$", re.I)
_REVENUE_WORDS = re.compile(r"(?:total\s+|net\s+)*(?:revenues?|sales|turnover)", re.I)


# "and net income?", "what about operating income": a reply that names only a figure
_BARE_FIGURE = re.compile(r"^\W*(?:(?:and|so|ok(?:ay)?|what\s+about|how\s+about|same\s+for|now)\W+)+"
                          r"(?:the\s+|their\s+|its\s+)?(?P<words>[a-z][a-z&'-]*(?:\s+[a-z][a-z&'-]*){0,3})\W*$", re.I)


def grown_like_thread(raw: str, previous: Plan | None) -> str:
    """A reply naming only another figure after a growth question ("nvidia revenue growth fy2025" -> "and net
    income?", "which grew faster?" -> "and revenue?") asks that figure's growth, written out ("and net income
    growth?"): the thread's question asked of the reply's figure, as "and services?" after a cause asks services'
    cause. Why: read alone it gave the figure's level, and the growth asked was missing; the growth answer shows
    both years' levels as well."""
    from agent.retrieval.concepts import normalize
    from agent.retrieval.finance import GROWTH_BASES, MEASURE_PHRASES

    if previous is None or previous.route != "domain" or not previous.metrics \
            or not all(k.endswith(("_growth", "_change")) for k in previous.metrics) \
            or not any(k.endswith("_growth") for k in previous.metrics):  # "how much did it grow": both, the change too
        return raw
    m = _BARE_FIGURE.match(raw)
    if m is None:
        return raw
    words = normalize(m.group("words"))
    if MEASURE_PHRASES.get(words) not in GROWTH_BASES:
        return raw
    return f"and {words} growth?"  # "and": the thread's companies and years


def asked_as(key: str) -> str:
    """The words a catalogue metric is asked by when a follow-up is written out again: its first synonym, else its
    label without the bracketed gloss or commas ("depreciation", "property plant and equipment net"). Why: some
    metrics are asked only by their label and list no synonym; "and capex?" after depreciation failed on them."""
    metric = METRICS[key]
    if metric.synonyms:
        return metric.synonyms[0]
    return re.sub(r"\s+", " ", re.sub(r"\([^)]*\)|,", " ", metric.label)).strip().lower()


def _amount_words(key: str) -> str | None:
    """The words a thread's one amount is asked by again: a metric's, or a registry amount's ("EBITDA")."""
    if key in METRICS and METRICS[key].unit == "USD":
        return asked_as(key)
    if key in FORMULAS and FORMULAS[key].unit == "USD" and FORMULAS[key].synonyms:
        return FORMULAS[key].synonyms[0]
    return None
