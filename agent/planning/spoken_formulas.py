"""Rewrite formulas said in words into operator form: "the sum of A and B", "subtract A from B", "A-to-B ratio".

Why: analysts state formulas in prose as often as with symbols; each spoken shape is rewritten to the written
one before parsing, so both are read by the same parser and restated the same way.
"""

from __future__ import annotations

import re

from agent.planning.years import NUMBER_WORDS
from agent.retrieval.concepts import METRICS, PHRASES, find_phrases, normalize
from agent.retrieval.finance import FORMULA_PHRASES, FORMULAS
from agent.planning.formula_operands import DEBT_WORDS, FIXED_ASSETS
from agent.planning.formula_parse import parse_expression, read_operand
from agent.planning.formula_syntax import DefinitionError, holds_operator
from agent.planning.operand_rows import is_printed

# Operators said in words around their operands: "the ratio of R&D to revenue", "capex to
# depreciation ratio", "the sum of dividends and buybacks", "the difference between A and B",
# "take operating income and divide it by total assets". Rewritten into the grammar above; the
# planner keeps the rewrite only when it yields a formula (agent.planning.rules.plan_rules).
# where an operand said before the question's year ends: "... is goodwill fy2024", "... current assets 2025?"
_YEAR_NEXT = r"\s+(?=(?:fy\s*'?|fiscal\s+(?:year\s+)?)?(?:19|20)\d\d\b|fy\s*'?\d\d\b)"
_SPOKEN = (
    # "operating income less interest expense, all over revenue": the whole before it divided, as "A minus B, over C"
    (re.compile(r",?\s+(?:all|then|and\s+then|the\s+whole\s+thing|everything|the\s+(?:result|total|sum|difference))\s+"
                r"(?=(?:over|divided\s+by)\s)", re.I), ", "),
    # "the ratio of general and administrative to capex": the "to" splits, an "and" may be a name's
    (re.compile(r"\b(?:the\s+)?ratio\s+of\s+(?P<a>(?:[^,;?]|,\s(?=[a-z]))+?)\s+to\s+", re.I), r"\g<a> over "),
    (re.compile(r"\b(?:the\s+)?ratio\s+(?:of|between)\s+(?P<a>[^,;?]+?)\s+(?:to|and|vs\.?|versus)\s+", re.I), r"\g<a> over "),

    (re.compile(r"\b(?:the\s+)?difference\s+between\s+(?P<a>[^,;?]+?)\s+and\s+", re.I), r"\g<a> minus "),
    # "take operating income, subtract interest expense, and divide by revenue": the steps in order
    (re.compile(r"\btake\s+(?P<a>[^,;?]+?),?\s+(?:then\s+)?(?P<op>subtract|deduct|add)\s+(?P<b>[^,;?]+?),?\s+"
                r"(?:and\s+)?(?:then\s+)?divide\s+(?:it\s+|that\s+|this\s+|the\s+(?:result|total|difference|sum)\s+)?"
                r"by\s+", re.I),
     lambda m: _taken(m.group("a"), f"({{a}} {'plus' if m.group('op').lower() == 'add' else 'minus'} {m.group('b')}) over ")),
    # "take operating income, subtract SG&A": a difference said as steps, no division after it
    (re.compile(r"\btake\s+(?P<a>[^,;?]+?),?\s+(?:and\s+)?(?:then\s+)?(?P<op>subtract|deduct|add)\s+", re.I),
     lambda m: _taken(m.group("a"), f"{{a}} {'plus' if m.group('op').lower() == 'add' else 'minus'} ")),
    (re.compile(r"\b(?:take\s+)?(?P<a>[^,;?]+?)\s+and\s+divide\s+(?:it|that|this|them)\s+by\s+", re.I), r"\g<a> over "),
    (re.compile(r"\bdivide\s+(?P<a>[^,;?]+?)\s+by\s+", re.I), r"\g<a> over "),
    # "for every dollar of revenue, how much net income did Adobe make": the one over the other
    (re.compile(r"\bfor\s+(?:every|each)\s+(?:\$1|dollar|\$)\s+(?:of|in)\s+(?P<b>[^,;?]+?),?\s+how\s+much\s+(?P<a>[^,;?]+?)\s+"
                r"(?:did|does|do|was|is)\s+(?P<who>(?:\S+\s+){0,3}?\S+)\s+(?:make|earn|generate|produce|keep|spend|"
                r"convert|turn\s+into|bring\s+in)\b", re.I),
     lambda m: _share_asked(m.group("a"), m.group("b"), m.group("who"), "over")),
    # "how much revenue did Tesla generate per dollar of total assets": the same, the whole said last
    (re.compile(r"\bhow\s+much\s+(?P<a>[^,;?]+?)\s+(?:did|does|do)\s+(?P<who>(?:\S+\s+){0,3}?\S+)\s+(?:make|earn|generate|"
                r"produce|keep|spend|convert|bring\s+in|book|report)\s+(?:per|for\s+(?:every|each)|on\s+(?:every|each))\s+"
                r"(?:every\s+|each\s+)?(?:\$\s?1|dollar|\$)\s+(?:of|in)\s+(?:its\s+|their\s+|the\s+)?(?P<b>[^,;?]+?)"
                r"(?=\s+(?:at|for|in|during)\s|\s*[?,;]|" + _YEAR_NEXT + r"|$)", re.I),
     lambda m: _share_asked(m.group("a"), m.group("b"), m.group("who"), "over")),
    # "R&D per dollar of gross profit", "capex per $1 of revenue": a quotient, never a rate per share
    (re.compile(r"\s+per\s+(?:every\s+|each\s+)?(?:\$1|dollar|\$)\s+(?:of|in)\s+", re.I), " over "),
    # "what % of revenue was cost of goods sold at P&G?": the share asked with its whole named first ("what share of
    # revenue did Walmart spend on capex", "what percentage of Nvidia's FY2025 revenue was R&D": the company and year
    # said inside it are the question's, moved after the formula)
    (re.compile(r"\bwhat\s+(?:%|percent(?:age)?|share|portion|fraction|proportion)\s+of\s+(?P<b>[^,;?]+?)\s+"
                r"(?:was|is|were|are|went\s+to|go(?:es)?\s+to|did\s+(?P<who>(?:\S+\s+){0,3}?\S+)\s+(?:spend|pay\s+out)\s+(?:on|as|in))"
                r"\s+(?!from\b|in\b|at\b|by\b)(?P<a>[^,;?]+?)(?=\s+(?:at|for|in|during)\s|\s*[?,;]|" + _YEAR_NEXT + r"|$)", re.I),
     lambda m: _share_asked(m.group("a"), m.group("b"), m.group("who"))),
    # "what percentage of Apple's net sales did cost of sales represent?": the same, the part its verb's subject
    (re.compile(r"\bwhat\s+(?:%|percent(?:age)?|share|portion|fraction|proportion)\s+of\s+(?P<b>[^,;?]+?)\s+(?:did|does|do)\s+"
                r"(?P<a>[^,;?]+?)\s+(?:represent|account\s+for|make\s+up|comprise|constitute|take\s+up|consume|absorb)\b", re.I),
     lambda m: _share_asked(m.group("a"), m.group("b"), None)),
    # "how much of Meta's net income was paid out as dividends?": the same share, its part said last
    (re.compile(r"\bhow\s+much\s+of\s+(?P<b>[^,;?]+?)\s+(?:was|were|is|are|went)\s+(?:paid\s+out\s+as|paid\s+as|spent\s+on|"
                r"returned\s+(?:as|through|via)|used\s+(?:for|on)|to|converted\s+(?:in)?to)\s+(?P<a>[^,;?]+?)"
                r"(?=\s+(?:at|for|in|during)\s|\s*[?,;]|$)", re.I),
     lambda m: _share_asked(m.group("a"), m.group("b"), None)),
    # "unadjusted EBIT (as % of total revenue)": the figure as a share of the one the brackets name
    (re.compile(r"(?P<a>\b[\w&'-]+(?:\s+[\w&'-]+){0,3}?)\s*\(\s*as\s+(?:an?\s+)?(?:%|percent(?:age)?|pct|share)\s+of\s+"
                r"(?P<b>[^()]{2,40}?)\s*\)", re.I), r"\g<a> as a % of \g<b>"),
    # "how many times does Verizon's operating income cover its interest expense?": a coverage, A over B
    (re.compile(r"\bhow\s+many\s+times\s+(?:over\s+)?(?:does|did|do|could|can|would|will)\s+(?P<a>[^,;?]+?)\s+cover\s+"
                r"(?:its\s+|their\s+|the\s+)?(?P<b>[^,;?]+?)(?=\s+(?:at|for|in|during)\s|\s*[?,;]|$)", re.I),
     lambda m: _share_asked(m.group("a"), m.group("b"), None, "over")),
    # "Services mix", "data center revenue mix": that member's share of revenue (a mix by segment is refused)
    (re.compile(r"(?<![\w&'-])(?P<x>(?!(?:revenue|revenues|sales|segment|segments|product|products|business|geographic|"
                r"regional|the|its|their|sales|customer|channel)\b)[a-z][\w&'-]*)\s+(?:revenue\s+|sales\s+)?mix\b(?!\s+(?:by|of|across)\b)",
                re.I), r"\g<x> share of revenue"),
    # "how many times did Walmart turn over its inventory?": the turnover of that balance
    (re.compile(r"\bhow\s+many\s+times\s+(?:does|did|do)\s+(?P<who>[^,;?]+?)\s+turn\s+(?:over\s+)?(?:its\s+|their\s+|the\s+)?"
                r"(?P<x>inventor(?:y|ies)|(?:accounts\s+)?receivables?|(?:total\s+)?assets|(?:accounts\s+)?payables?)(?:\s+over)?\b",
                re.I), lambda m: f"what was {m.group('who')} {re.sub(r'ies$', 'y', m.group('x'))} turnover"),
)
# A company's possessive and the years said inside an operand ("Nvidia's FY2025 revenue"): the question's
_OWNER_AND_YEARS = re.compile(r"^(?P<owner>(?:[\w&.\-]+\s+){0,3}?[\w&.\-]+['\u2019]s?\s+)?(?P<years>(?:(?:fiscal\s+(?:year\s+)?|fy\s*'?)?"
                              r"(?:19|20)?\d\d\s+)*)(?P<rest>.+)$", re.I)


def _taken(a: str, said: str) -> str:
    """A step said after "take": `said` with the operand's words in it ({a}), the company and years said inside
    the operand ("take Walmart's operating income") set after the formula, where the question's words are read."""
    m = _OWNER_AND_YEARS.match(a.strip())
    owner, years, a = (m.group("owner") or "", m.group("years") or "", m.group("rest")) if m else ("", "", a)
    tail = " ".join(w for w in (owner.strip(), years.strip()) if w)
    return (f"for {tail}, " if tail else "") + said.format(a=a)


def _share_asked(a: str, b: str, who: str | None, op: str = "as a % of") -> str:
    """"what was A as a % of B" (or "A over B"), with the company and years said inside B, or the company that spent,
    set after the formula where the question's other words are read."""
    m = _OWNER_AND_YEARS.match(b.strip())
    owner, years, b = (m.group("owner") or "", m.group("years") or "", m.group("rest")) if m else ("", "", b)
    tail = " ".join(w for w in (owner.strip(), years.strip(), who or "") if w)
    return f"what was {a} {op} {b}" + (f" for {tail}" if tail else "")
_TO_RATIO = re.compile(r"(?P<a>[\w&'\-]+)\s+to\s+(?P<b>[\w&'\- ]+?)\s+ratio\b", re.I)


_DILUTED = re.compile(r"[,;:]?\s*\b(?:use|using|with|on)\s+(?:a\s+|the\s+)?(?:weighted[\s-]+average\s+)?"
                      r"(?P<kind>diluted|basic)\s+(?:weighted[\s-]+average\s+)?"
                      r"(?:shares?(?:\s+(?:count|outstanding))?|share\s+count|basis)\b\s*[,;:]?", re.I)
_PER_SHARE = re.compile(r"\bper\s+share\b", re.I)
# "dividends paid per share outstanding": a division by the count outstanding, said as a per-share figure
_PER_OUTSTANDING = re.compile(r"\s+per\s+(?:common\s+)?shares?\s+outstanding\b", re.I)


# "in percentage points", "(pp)": the unit a change of a percentage is asked in, which the change
# formula states (agent.planning.changes.spanned_changes); no operand's words.
_POINTS = re.compile(r"[,;]?\s*\(?\s*\b(?:in\s+|as\s+)?(?:percentage\s+points?|pct\.?\s+points?|pp|ppts?|"
                     r"points)\b\s*\)?", re.I)
_CHANGE_SAID = re.compile(r"\b(?:chang\w*|expan\w*|contract\w*|compress\w*|increas\w*|decreas\w*|"
                          r"declin\w*|improv\w*|widen\w*|narrow\w*|rise|rose|fell|fall|grew|growth)\b", re.I)
# "2-year revenue CAGR through fiscal 2025": the span said as the years it runs over
_CAGR_SPAN = re.compile(r"\b(?P<n>two|three|four|five|[2-5])[\s-]+(?:years?|yrs?)\s+(?P<what>[^,;?]{1,60}?)\s+"
                        r"(?P<cagr>cagr|compound(?:ed)?\s+annual\s+growth(?:\s+rate)?)\s+"
                        r"(?:through|thru|to|ending(?:\s+in)?|ended|for|in|as\s+of)\s+(?P<fy>(?:fiscal\s+(?:year\s+)?|fy\s*'?)?)"
                        r"(?P<year>(?:19|20)\d\d|(?<=fy)\d\d|(?<=fy ')\d\d|(?<=fy')\d\d|(?<=fy )\d\d)\b", re.I)
# "compound annual revenue growth rate": the metric inside the rate's name, said as "revenue CAGR"
_CAGR_AROUND = re.compile(r"\bcompound(?:ed)?\s+annual\s+(?P<what>(?!growth\b)[a-z&' -]{2,40}?)\s+growth(?:\s+rate)?\b",
                          re.I)

_COMPOUND_RATE = re.compile(r"\bcompound(?:ed)?\s+annual(?:\s+growth)?(?:\s+rate)?\b", re.I)  # its initials


def _cagr_years(m: re.Match) -> str:
    n = NUMBER_WORDS[m.group("n").lower()]
    end = int(m.group("year"))
    end += 2000 if end < 100 else 0  # "thru fy23"
    fy = "fiscal " if m.group("fy") else ""
    return f"{m.group('what')} {m.group('cagr')} from {fy}{end - n} to {fy}{end}"


# "2-year revenue CAGR" with its end year said elsewhere in the question ("Adobe 2-year revenue CAGR FY2023",
# "RTX 2023 2-year revenue CAGR?"): the span runs over the years before the one year the question names
_CAGR_YEARS = re.compile(r"\b(?P<n>two|three|four|five|[2-5])[\s-]+(?:years?|yrs?)\s+(?P<what>[^,;?]{1,60}?)\s+"
                         r"(?P<cagr>cagr|compound(?:ed)?\s+annual\s+growth(?:\s+rate)?)\b", re.I)
_A_YEAR = re.compile(r"\b(?P<fy>fiscal\s+(?:year\s+)?|fy\s*'?)?(?P<year>(?:19|20)\d\d)\b|\bfy\s*'?(?P<short>\d\d)\b", re.I)


def _cagr_end_elsewhere(text: str) -> str:
    """`text` with an N-year CAGR whose end year is the question's only year said as the span it runs
    over ("revenue CAGR from fiscal 2021 to fiscal 2023"), the year's own mention taken out; else as is."""
    m = _CAGR_YEARS.search(text)
    if m is None:
        return text
    years = [y for y in _A_YEAR.finditer(text) if not (m.start() <= y.start() < m.end())]
    if len({int(y.group("year") or 2000 + int(y.group("short"))) for y in years}) != 1:
        return text
    y = years[0]
    end = int(y.group("year") or 2000 + int(y.group("short")))
    n = NUMBER_WORDS[m.group("n").lower()]
    fy = "fiscal " if y.group("fy") or y.group("short") else ""
    said = f"{m.group('what')} {m.group('cagr')} from {fy}{end - n} to {fy}{end}"
    pieces = [(m.start(), m.end(), said)] + [(x.start(), x.end(), " ") for x in years]
    for start, stop, put in sorted(pieces, reverse=True):
        text = text[:start] + put + text[stop:]
    return text


# "what multiple of revenue is cash", "how many times interest expense was operating income": the
# quotient of the figure after the verb by the one before it (A is k times B: k = A ÷ B)
_MULTIPLE_OF = re.compile(r"\b(?:what|which)\s+multiple\s+of\s+(?P<b>(?:[^,;?]|,\s(?=[a-z]))+?)\s+"
                          r"(?:is|was|are|were)\s+"
                          r"(?P<tail>(?:[^,;?]|,\s(?=[a-z]))+)"
                          r"|\bhow\s+many\s+times\s+(?:(?:as\s+)?(?:large|big|high|much)\s+as\s+)?(?P<b2>[^,;?]+?)\s+"
                          r"(?:is|was|are|were)\s+(?P<tail2>[^,;?]+)", re.I)
# "the sum of A and B": which "and" joins the two operands is the one with an operand on both sides
_SUM_OF = re.compile(r"\b(?:the\s+)?sum\s+of\s+(?P<body>[^,;?]+)", re.I)
# Where an operand said before the question's own words may end: "... for Walmart", "... in fiscal 2024"
_OPERAND_STOP = re.compile(r"\s*,\s+|\s+(?=(?:at|for|in|during|as|over|divided|minus|plus|less|times|per|to)\s)"
                           r"|\s*$", re.I)


def _is_operand(words: str, lines: frozenset) -> bool:
    try:
        read_operand(words, None, False, lines)
    except DefinitionError:
        return False
    return bool(words.strip())


def _operand_then_rest(tail: str, lines: frozenset) -> tuple[str, str]:
    """The operand the tail starts with and the words after it: the longest run up to a word that may
    start the question's next words ("for", "in", an operator) that is an operand ("net cash used in
    investing activities for Apple": the row, then "for Apple"); else the run up to the first such word."""
    cuts = [m.start() for m in _OPERAND_STOP.finditer(tail) if m.start() > 0]
    for at in reversed(cuts):
        if _is_operand(tail[:at], lines):
            return tail[:at], tail[at:]
    at = cuts[0] if cuts else len(tail)
    return tail[:at], tail[at:]


_SUBTRACT_FROM = re.compile(r"\b(?:subtract|deduct)\s+(?P<body>(?:[^,;?]|,\s(?=[a-z]))+)", re.I)


def _subtract_from(m: re.Match, lines: frozenset) -> str:
    """"subtract capex from operating cash flow": the second less the first, split at the "from" with
    an operand before it ("subtract proceeds from sales of investments from revenue"); else as said."""
    body = m.group("body")
    for f in re.finditer(r"\s+from\s+", body, re.I):
        below = body[: f.start()]
        if _is_operand(below, lines):
            above, rest = _operand_then_rest(body[f.end():], lines)
            if _is_operand(above, lines):
                return f"{above} minus {below}{rest}"
    return m.group(0)


def _multiple_of(m: re.Match, lines: frozenset) -> str:
    below = m.group("b") or m.group("b2")
    above, rest = _operand_then_rest(m.group("tail") or m.group("tail2"), lines)
    return f"what was {above} as a multiple of {below}{rest}"


# "the total of capex and acquisitions", "combined capex and acquisitions": a sum, unless the words joined by "and"
# are one figure's name ("the total of cash and cash equivalents")
_TOTAL_OF = re.compile(r"\b(?:the\s+)?(?:(?:combined\s+)?total\s+of|combined)\s+(?P<body>[^,;?]+)", re.I)


def _total_of(m: re.Match, lines: frozenset) -> str:
    whole, _ = _operand_then_rest(m.group("body"), lines)
    if _is_operand(whole, lines):
        return m.group(0)
    said = _sum_of(m, lines)
    return m.group(0) if said == m.group(0) else said


# "R&D and SG&A combined as a share of revenue", "what were its R&D and SG&A together in 2024": two figures added
_COMBINED = re.compile(r"(?P<body>[^,;?()]+?)\s+(?:combined|added\s+together|taken\s+together|together|in\s+total)\b"
                       r"(?=\s*,?\s*(?:as\s+(?:an?\s|%|percent|pct\b|share\b|proportion\b|fraction\b)|over\b|divided\b|relative\b|to\b|vs\.?\s|versus\b|in\b|for\b|during\b|at\b|"
                       r"fy|fiscal\b|'?\d{2,4}\b)|\s*[?,.;]|\s*$)", re.I)


def _combined(m: re.Match, lines: frozenset) -> str:
    """"A and B combined": (A plus B), split at the "and" with an operand on each side, the left one the longest run of
    words before it that is an operand (the company and the question's words before it stay). Else as said."""
    body = m.group("body")
    for a in re.finditer(r"\s+(?:and|&|plus|\+)\s+", body, re.I):
        right = body[a.end():]
        if not _is_operand(right, lines):
            continue
        words = list(re.finditer(r"\S+", body[: a.start()]))
        for k in range(max(0, len(words) - 8), len(words)):
            left = body[words[k].start(): a.start()]
            if "'" in left or "\u2019" in left or not _is_operand(left, lines):
                continue
            return f"{body[: words[k].start()]}({left} plus {right})"
    return m.group(0)


def _sum_of(m: re.Match, lines: frozenset) -> str:
    """The two operands of "the sum of A and B" split at the "and" with an operand on each side
    ("the sum of cash and cash equivalents and paid-in capital"), else at the first "and"."""
    body = m.group("body")
    ands = list(re.finditer(r"\s+and\s+", body, re.I))
    if not ands:
        return m.group(0)
    chosen = ands[0]
    for a in ands:
        left, right = body[: a.start()], body[a.end():]
        if _is_operand(left, lines) and _is_operand(_operand_then_rest(right, lines)[0], lines):
            chosen = a
            break
    return body[: chosen.start()] + " plus " + body[chosen.end():]


# One table metric said once for two names: "the combined revenue of Google Cloud and Google Services", "google
# services + google cloud revenue". Each name takes the metric ("Google Cloud revenue plus Google Services revenue"),
# so two members' (or rows') figures are added; kept only when the rewrite yields a formula (agent.planning.rules)
_SHARED_OF = re.compile(r"\b(?:the\s+)?(?:combined|aggregate|sum\s+of(?:\s+the)?|total\s+of(?:\s+the)?)\s+"
                        r"(?P<m>[a-z&][\w&'\- ]*?)\s+(?:of|for|from)\s+(?P<a>[^,;?]+?)\s+(?:and|&|\+|plus)\s+"
                        r"(?P<b>[^,;?]+?)(?P<rest>(?:\s+(?:in|for|during|at|fy\S*|fiscal|combined|together)\b|\s+'?\d{2,4}\b|\s*[?,;.]|$).*)",
                        re.I | re.S)
_PLUS = re.compile(r"\s*\+\s*|\s+plus\s+", re.I)
_JOINED_NAME = re.compile(r"\s(?:and|&)\s|&", re.I)
_TOGETHER = re.compile(r"\b(?:combined|added\s+together|together|summed|in\s+total)\b", re.I)
_OTHER_OPERATOR = re.compile(r"[*/÷()=:]|\s[-−]\s|\b(?:minus|over|divided|times|defined?|less|per|ratio|excluding|"
                             r"net\s+of|ex|without)\b", re.I)
_TAIL_STOP = re.compile(r"(?:in|for|during|at|fy\S*|fiscal|combined|together|total|\d{2,4}|'\d{2})$", re.I)


def _metric_phrase(words: str) -> bool:
    """Whether the words are exactly one table metric's phrase ("revenue", "operating income")."""
    norm = normalize(words)
    spans = find_phrases(norm, PHRASES)
    return len(spans) == 1 and spans[0][0] == 0 and spans[0][1] == len(norm.split()) and spans[0][2] in METRICS


def shared_metric(text: str, named=lambda words: False) -> str:
    """The text with a metric said once for two names given to each (see _SHARED_OF); else the text. `named`: whether
    words name a company (two companies' sum is agent.planning.across's, an unknown one's a refusal of it)."""
    m = _SHARED_OF.search(text)
    if m and _metric_phrase(m.group("m")) and not (named(m.group("a")) or named(m.group("b"))) \
            and not _OTHER_OPERATOR.search(m.group("a") + " " + m.group("b")) \
            and not _JOINED_NAME.search(m.group("a") + " " + m.group("b")):
        said = m.group("m")
        return f"{text[:m.start()]}{m.group('a')} {said} plus {m.group('b')} {said}{m.group('rest')}"
    plus = _PLUS.search(text)
    if plus is None and _TOGETHER.search(text):  # "google services and google cloud revenue 2023 combined"
        plus = re.search(r"\s+(?:and|&)\s+", text[:_TOGETHER.search(text).start()])
        if plus is not None and re.search(r"\s+(?:and|&)\s+", text[plus.end():_TOGETHER.search(text).start()]):
            return text  # several "and"s: which two names is no guess to make
    if plus is None or _PLUS.search(text, plus.end()) or _OTHER_OPERATOR.search(text):
        return text  # one plus and nothing else: a formula of more terms is read as written
    head, tail = text[:plus.start()], text[plus.end():]
    tail = _TOGETHER.sub(" ", tail).strip()
    words = tail.split()
    for i in range(1, min(len(words), 6)):  # "google cloud revenue 2023": the name, then the metric, then the rest
        for j in range(len(words), i, -1):
            if _metric_phrase(" ".join(words[i:j])) and (j == len(words) or _TAIL_STOP.match(words[j].strip("?.,!"))):
                head_words = normalize(head).split()
                if head_words and any(_metric_phrase(" ".join(head_words[k:])) for k in range(len(head_words))):
                    return text  # "revenue + net income": each operand names its own figure already
                if j - i > 1 and _metric_phrase(words[i]) and _metric_phrase(" ".join(words[i + 1:j])):
                    i += 1  # "energy generation and storage sales revenue": "sales" is the name's, "revenue" the metric
                said = " ".join(words[i:j])
                if named(" ".join(words[:i])) or named(" ".join(head.split()[-3:])) \
                        or _JOINED_NAME.search(" ".join(words[:i])):
                    return text  # a company's name, or a name with an "and" the formula reader would split
                return f"{head} {said} plus {' '.join(words[:i])} {said} {' '.join(words[j:])}".rstrip()
    return text


# "tesla capex net of depreciation? i.e. capex minus D&A", "total debt over equity... use long-term debt /
# equity": the formula the user writes after a name, in a clause of its own, is that name's definition
# "ROE (i.e. net income / equity)", "(e.g., A over B)": inside a bracket after a name the abbreviation only
# introduces the definition the bracket already sets off, and its periods would end the formula's clause
_BRACKET_IE = re.compile(r"\(\s*(?:i\.\s?e\.?|e\.\s?g\.?|ie|eg|that\s+is|namely)\s*[,:]?\s+(?=[^()]*\))", re.I)


def _bracket_ie(m: re.Match) -> str:
    rest = m.string[m.end():]
    return "(" if holds_operator(" " + rest[: rest.find(")")] + " ") else m.group(0)


_SAID_AGAIN = re.compile(r"\s*(?:\?|\.\.\.|\u2026|;|,)\s*(?:i\.?\s?e\.?|that\s+is|meaning|use|using)[,:]?\s+"
                         r"(?P<said>[^?()]+?)\s*(?P<end>[?.]?\s*)$", re.I)


# "EBITDA % margin", "COGS % margin", "operating income % margin": analysts' shorthand for a share of revenue
_PCT_MARGIN = re.compile(r"\b(?P<x>(?:[\w&'-]+\s+){0,3}?[\w&'-]+)\s*%\s*margins?\b", re.I)


def _pct_margin(m: re.Match) -> str:
    words = m.group("x").split()
    for k in range(len(words)):  # the longest amount named just before "% margin"
        x = " ".join(words[k:])
        if normalize(x) + " margin" in FORMULA_PHRASES:
            return " ".join(words[:k] + [x, "margin"])
        if normalize(x) in PHRASES:
            return " ".join(words[:k] + [x, "as a % of revenue"])
    return m.group(0)


def _said_again(m: re.Match) -> str:
    said = m.group("said")
    if not holds_operator(f" {said} "):
        return m.group(0)
    # a name that reads as a formula itself ("total debt over equity"): marked, so the whole is restated, never
    # the name's last operand defined; any other name is a plain bracket after it, as a restatement is written
    before = m.string[: m.start()].rsplit("?", 1)[-1]
    return f" (restated as {said}){m.group('end')}" if holds_operator(f" {before} ") else f" ({said}){m.group('end')}"


def unread_restatement(text: str, lines: frozenset = frozenset()) -> str | None:
    """The words of a formula the user wrote after a name ("... use long-term debt less current portion /
    equity") that the grammar cannot read, else None: the name's own reading is then no answer to what was
    asked, which is refused naming those words."""
    m = _SAID_AGAIN.search(text)
    if m is None or not holds_operator(f" {m.group('said')} "):
        return None
    try:
        parse_expression(m.group("said"), members=True, lines=lines)
    except DefinitionError as error:
        return str(error) or m.group("said")
    return None


# "how many days of COGS does P&G's FY2025 inventory represent?": the balance over the year's flow times 365 (days of
# inventory, of payables), the days ratio in the user's words; never the balance alone
_DAYS_OF = re.compile(r"\bhow\s+many\s+days\s+(?:of|worth\s+of)\s+(?P<b>[^,;?]+?)\s+(?:does|do|did|would|is|are|was)\s+"
                      r"(?P<a>[^,;?]+?)\s+(?:represent|cover|equal|amount\s+to|worth)\b", re.I)


def _days_of(m: re.Match) -> str:
    return f"{m.group('a')} over {m.group('b')} times 365, call it 'days of {m.group('b').strip()}'"


# "how much did Apple return to shareholders in fiscal 2024 through dividends + repurchases?": the amounts named after
# "through" are the figure asked (their sum), the words before them its description; never read as a line item
_RETURNED_THROUGH = re.compile(
    # "how much total cash was returned ...": the amount named before the verb is the sum itself, no line of its own
    r"(?:\b(?:the\s+)?(?:total\s+)?(?:cash|amount|capital|money)\s+(?:was|were|has\s+been|have\s+been)\s+)?"
    r"\b(?:return(?:ed|ing|s)?|distribut(?:e|ed|es|ing)|pa(?:y|id|ys)\s+out|g[ai]ve\s+back|send|sent)\s+"
    r"(?:in\s+(?:total|all)\s+)?to\s+(?:its\s+|their\s+|the\s+)?(?:share|stock)holders"
    # the company and year said between ("returned to shareholders by TXN in FY2023 through ..."): kept after the sum
    r"(?P<mid>(?:\s+by\s+[\w&.'\u2019-]+(?:\s+[\w&.'\u2019-]+){0,2}?(?=\s+(?:in|during|for|through|via)\b))?"
    r"(?:\s+(?:in|during|for)\s+(?:the\s+)?(?:fiscal\s+(?:year\s+)?|fy\s*)?'?\d{2,4})?)\s+"
    r"(?:through|via|by\s+way\s+of|in\s+the\s+form\s+of|by|as|with|from)\s+(?:the\s+|its\s+|their\s+)?"
    r"(?P<expr>[^?;,.]+?)(?=\s+(?:in|for|during|over|in\s+fiscal)\b|\s*[?;,.]|\s*$)", re.I)


def _returned_through(m: re.Match) -> str:
    expr = m.group("expr").strip()
    joined = not re.search(r"[+]|\bplus\b", expr, re.I)
    return f"{expr}{' combined' if joined else ''}{m.group('mid')}" if not m.group("mid").strip().startswith("by ") \
        else f"{m.group('mid').strip()[3:]} {expr}{' combined' if joined else ''}"  # "by TXN in FY2023": before the sum


def spoken_operators(text: str, lines: frozenset = frozenset(), named=lambda words: False) -> str:
    """The text with operators said in words written as the grammar's ("A over B"). A registry
    formula's own name ("debt to equity ratio", "R&D to revenue ratio") is left alone. "Use diluted
    shares" (or basic) with a per-share figure is the divisor: "per diluted share". `lines`: the rows
    some company prints, by which an operand's extent is told from the question's next words. `named`: whether
    words name a company, covered or not (shared_metric)."""
    out = _PCT_MARGIN.sub(_pct_margin, _SAID_AGAIN.sub(_said_again, _BRACKET_IE.sub(_bracket_ie, text)))
    out = _CAGR_SPAN.sub(_cagr_years, _COMPOUND_RATE.sub("CAGR", _CAGR_AROUND.sub(r"\g<what> CAGR", out)))
    out = _cagr_end_elsewhere(out)
    if _CHANGE_SAID.search(out):
        out = _POINTS.sub(" ", out)
    said = _DILUTED.search(out)
    if said and _PER_SHARE.search(out):
        out = _PER_SHARE.sub(f"per {said.group('kind').lower()} share", _DILUTED.sub(" ", out))
    out = _PER_OUTSTANDING.sub(" over shares outstanding", out)
    out = _RETURNED_THROUGH.sub(_returned_through, out, count=1)
    out = shared_metric(out, named)
    out = _COMBINED.sub(lambda m: _combined(m, lines), out, count=1)
    out = _SUM_OF.sub(lambda m: _sum_of(m, lines), out, count=1)
    out = _TOTAL_OF.sub(lambda m: _total_of(m, lines), out, count=1)
    out = _MULTIPLE_OF.sub(lambda m: _multiple_of(m, lines), out, count=1)
    out = _SUBTRACT_FROM.sub(lambda m: _subtract_from(m, lines), out, count=1)
    out = _DAYS_OF.sub(_days_of, out, count=1)
    for pattern, replacement in _SPOKEN:
        out = pattern.sub(replacement, out, count=1)

    def to_ratio(m: re.Match) -> str:
        start = max(0, m.start() - 40)
        said = normalize(out[start : m.end()])
        if any(said.endswith(p) for p in FORMULA_PHRASES):
            return m.group(0)
        return f"{m.group('a')} over {m.group('b')}"

    return _metric_to_metric(_TO_RATIO.sub(to_ratio, out), lines)


_JOINED_TO = re.compile(r"(?<=\w)(?:-to-|:)(?=[a-z])", re.I)  # "cash-to-assets", "cash:assets" (never "… end: total")


def _names_amount(words: str, lines: frozenset = frozenset()) -> bool:
    """Whether the words are exactly an amount an operand can be: a metric's name, a row some company
    prints (`lines`), or a registry amount computed from metrics ("free cash flow", "net debt")."""
    said = normalize(words).strip()
    if said in PHRASES or said in DEBT_WORDS or FIXED_ASSETS.fullmatch(said):
        return True
    if lines and is_printed(said, lines):
        return True
    key = FORMULA_PHRASES.get(said)
    return key is not None and FORMULAS[key].unit == "USD" and _operand_tree(said) is not None


def _operand_tree(said: str) -> dict | None:
    try:
        return read_operand(said)
    except DefinitionError:
        return None


def _metric_to_metric(text: str, lines: frozenset = frozenset()) -> str:
    """"cash to current liabilities", "cash-to-assets", "SG&A:revenue ratio": a ratio named by its two
    metrics joined by "to", as "A over B", when the words on both sides are each exactly a metric's
    name and together no registry ratio's ("long-term debt to equity" stays that ratio)."""
    text = _JOINED_TO.sub(" to ", text)
    words = list(re.finditer(r"[^\s,;?]+", text))
    for k, w in enumerate(words):
        if w.group(0).lower() != "to":
            continue
        # a printed row on either side only when "ratio" follows ("A to B ratio"): "net income attributable
        # to noncontrolling interests" is one row, no quotient
        said_ratio = re.match(r"(?:[^,;?]|,\s(?=[a-z]))*?\bratio\b", text[w.end():])  # "property, plant and .."
        rows = lines if said_ratio else frozenset()
        left = next((i for i in range(max(0, k - 8), k) if _names_amount(text[words[i].start():w.start()], rows)),
                    None)
        right = next((j for j in range(min(len(words), k + 9), k + 1, -1)
                      if _names_amount(text[w.end():words[j - 1].end()], rows)), None)
        if left is None or right is None or (rows and _names_amount(
                text[words[left].start():words[right - 1].end()], rows)):
            continue
        named = normalize(text[words[left].start():words[right - 1].end()])
        if any(named == p or named + " ratio" == p for p in (named, named + " ratio") if p in FORMULA_PHRASES):
            continue
        end = words[right].end() if right < len(words) and words[right].group(0).lower() == "ratio" else words[right - 1].end()
        return text[:w.start()] + "over" + text[w.end():words[right - 1].end()] + text[end:]
    return text


def to_defined(text: str, names: list[str], lines: frozenset = frozenset()) -> str:
    """"total debt to total capital", "capex to my adjusted EBITDA": a ratio said with "to" whose one side is a
    measure the user defined (`names`) and the other an amount, as "A over B", so the user's definition is the
    one divided by, even where the words together are a registry ratio's name (whose own convention may differ)."""
    for name in sorted(names, key=len, reverse=True):
        n = re.escape(name)
        for m in reversed(list(re.finditer(rf"(?<![\w&])(?:the\s+)?{n}\s+to\s+(?P<b>[^,;?.]+)|"
                                           rf"(?P<a>[^,;?.]+?)\s+to\s+(?:the\s+|my\s+|our\s+)?{n}(?![\w&])", text, re.I))):
            side = m.group("a") if m.group("a") is not None else m.group("b")
            words = side.split()
            # the words nearest "to" that are exactly an amount ("value of total debt": "total debt")
            spans = range(len(words)) if m.group("a") is not None else range(len(words), 0, -1)
            hit = next((i for i in spans if _names_amount(" ".join(words[i:] if m.group("a") is not None
                                                                    else words[:i]), lines)
                        or normalize(" ".join(words[i:] if m.group("a") is not None else words[:i])) in names), None)
            if hit is None:
                continue
            to = re.search(r"\s+to\s+", text[m.start():m.end()] if m.group("a") is None else
                           text[m.start("a") + len(side):m.end()])
            at = (m.start() if m.group("a") is None else m.start("a") + len(side)) + to.start()
            text = text[:at] + " over " + text[at + len(to.group(0)):]
            # "debt to equity ratio": the quotient's own word after its divisor names no figure of its own ("equity
            # ratio"), it is the quotient just written
            after = at + len(" over ") + (len(" ".join(words[:hit])) if m.group("a") is None else len(name))
            ratio = re.match(r"\s+ratio\b", text[after:], re.I)
            if ratio and (m.group("a") is not None or normalize(" ".join(words[:hit])) not in names):
                text = text[:after] + text[after + ratio.end():]
    return text
