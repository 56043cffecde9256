"""What a message takes back or spells out before it is planned: a question corrected as it was
typed, a clause saying what is not asked, an abbreviation with its ampersand spelled out.

Why a module of its own: these rewrite the raw words once, before the planner's flow
(agent.planning.rules) reads them; none of them needs the thread or the directory.
"""

from __future__ import annotations

import re


# A question corrected as it was typed: a trailing-off mark, then a word taking it back ("microsoft...
# sorry, Alphabet"). Everything up to the last such correction was not asked.
_CORRECTION = (r"(?:\.\.\.+|\u2026|\s--\s|\s\u2014\s?)\s*(?:sorry|no|nope|i\s+mean|actually|wait|oops|"
               r"correction|scratch\s+that)\b[\s,.:;!]*")
SELF_CORRECTED = re.compile(r"^.*" + _CORRECTION, re.I | re.S)


def corrected(raw: str, companies_in, year_words: re.Pattern) -> str:
    """The question as corrected: the correction takes back what it names, and only that. "microsoft...
    sorry, Alphabet" takes back the company, "apple revenue 2023... sorry, 2024" the year, "Nike FY2025
    R&D... sorry, SG&A" the figure (Nike and the year stay). `companies_in(text)`: [(start, end)] of the
    company names the text mentions."""
    m = SELF_CORRECTED.match(raw)
    if m is None:
        return raw
    year_words = re.compile(year_words.pattern, year_words.flags | re.I)  # "FY2025" as typed
    marks = re.search(_CORRECTION + "$", raw[: m.end()], re.I)  # the last correction's own words
    before, after = raw[: marks.start() if marks else m.end()], raw[m.end():]
    named, dated = companies_in(after), list(year_words.finditer(after))
    rest = _blanked(after, [*named, *((y.start(), y.end()) for y in dated)])
    if (named or dated) and not re.search(r"[a-z]{3,}", re.sub(_LINKING, " ", rest.lower())):
        # only a company or a year: the question before it, with that company or year in place of its own
        taken = (companies_in(before) if named else []) + ([(y.start(), y.end()) for y in year_words.finditer(before)]
                                                          if dated else [])
        return f"{_blanked(before, taken)} {after}"
    kept = [before[a:b] for a, b in companies_in(before)] if not named else []
    if kept and not dated:
        kept += [y.group(0) for y in year_words.finditer(before)]
    return " ".join([*kept, after]) if kept else after


_LINKING = re.compile(r"\b(?:i|mean|in|for|of|the|its|it's|is|was|fiscal|year|fy|please|pls|then)\b")


def _blanked(text: str, spans: list[tuple[int, int]]) -> str:
    for a, b in sorted(spans, reverse=True):
        text = text[:a] + " " + text[b:]
    return re.sub(r"\s+", " ", text).strip()


# A clause that says what is not asked ("cash dividends paid, not net income", "(not ad revenue)").
# "not including services" narrows the figure instead: kept, so it is refused as no reported figure.
NEGATED = re.compile(r"(?:[,;(]|\s[-\u2013\u2014]+)\s*(?:and\s+|but\s+)?(?:not|rather\s+than|instead\s+of|as\s+opposed\s+to)"
                     r"\s+(?!incl|count|exclud|counting|adjust|account)[^,;()?!]*?(?=[,;()?!]|\.(?:\s|$)|$)", re.I)


# An abbreviation with its ampersand spelled out ("SG and A", "R and D", "D and A").
SPELLED_AMPERSAND = re.compile(r"(?<![\w&])([A-Za-z]{1,2})\s+and\s+([A-Za-z])(?![\w&])")
_NOT_INITIALS = frozenset("up in on is it at to of or as an be by do go if me my no so us we a i".split())


def ampersand(m: re.Match) -> str:
    return m.group(0) if m.group(1).lower() in _NOT_INITIALS else f"{m.group(1)}&{m.group(2)}"


# Words saying a figure covers the whole company or the whole year ("full-year operating margin", "company-wide
# gross margin", "gross margin on a consolidated basis"): the figure itself, as every annual figure is, never a
# segment or product named before it ("full" or "wide" as a member). An outlook's words stay ("full-year guidance").
WHOLE_FIGURE = re.compile(r"\b(?:on\s+an?\s+)?(?:consolidated|company[\s-]?wide|firm[\s-]?wide|enterprise[\s-]?wide|"
                          r"group[\s-]?wide|total[\s-]company|whole[\s-]company|entire[\s-]company)\s+basis\b"
                          r"|\b(?:company|firm|enterprise|group)[\s-]wide\b|\b(?:total|whole|entire)-company\b"
                          r"|\bfull[\s-]+(?:fiscal[\s-]+)?year\b(?!\s*(?:guidance|outlook|forecasts?|projections?|targets?|"
                          r"expectations?|plans?))", re.I)


# How the answer should read ("answer in one line", "in a single sentence", "one word"): an instruction,
# never words of the figure ("line" is a row's word elsewhere: "line of credit").
# Where the user read a figure: the 10-K's cover page ("on the cover of its 10-K", "10-K cover"), which prints the
# public float and a share count as of a date after the year ends; the place, not a word of the figure's name.
COVER = re.compile(r"\b(?:(?:on|from|in)\s+)?(?:the|its|their)\s+(?:10-?k\s+)?cover(?:\s+page)?\b(?=\s+of\b|\s*$|[^\w\s])"
                   r"|\b(?:(?:on|from|in)\s+)?(?:the\s+|its\s+|their\s+)?(?:10-?k\s+cover(?:\s+page)?|cover\s+page)\b",
                   re.I)
_COUNT = re.compile(r"\b(?:shares\s+outstanding|outstanding\s+shares|share\s+count)\b", re.I)


def cover_page(text: str) -> str:
    """`text` without the cover page named as the place; a share count asked there is the cover's own
    (the metric "cover shares", dei:EntityCommonStockSharesOutstanding), a later date than the balance
    sheet's, so never the year-end count."""
    if not COVER.search(text) or re.search(r"\binterest\s+cover\b", text, re.I):
        return text
    return _COUNT.sub("cover shares", COVER.sub(" ", text), count=1)


LAYOUT = re.compile(r"\b(?:(?:answer|reply|respond)\s+)?(?:in\s+)?(?:one|a\s+single|1)\s+(?:line|sentence|word)(?!\s+items?)"
                    r"(?:\s+(?:answer|reply|only|please))?\b"
                    r"|\b(?:no|without)\s+(?:commentary|comments?|explanations?|narrative|context|fluff)\b"
                    r"|\bjust\s+the\s+(?:number|figure|value)s?\b", re.I)


# A closing clause that asks the user's own judgement of the figure just asked ("home depot gross margin
# 2023 - was that a low point for them?", "apple net income 2024, is that good?", "nvidia revenue fy2025 --
# pretty huge right?"): an opinion Footnote does not give, said about the answer, never words of the figure.
# Read as the figure's words it refused the question ("net income 2024 good"); set aside, the figure the
# question names is answered. A clause that asks a comparison or a change ("is it growing?", "is that higher
# than 2023?") or names a year, a number or a company stays: that is a question of its own.
_JUDGED_TAIL = re.compile(
    r"(?:[?,;:]|\s[-\u2013\u2014]{1,2}|[\u2013\u2014]|\.(?=\s))\s*"
    r"(?P<tail>(?:(?:is|was|are|were|isn'?t|wasn'?t|does|did|do|would|should)\s+(?:that|it|this|those|these)\b[^?!.;]*"
    r"|(?:pretty|quite|really|so|very|super)\s+[a-z]+(?:\s*,?\s*(?:right|huh|eh|no|yeah))?"
    r"|(?:right|huh|eh|wow|nice|yikes|ouch|impressive|not\s+bad|lol))\s*[?!.]*)\s*$", re.I)
_ASKS_OF_ITS_OWN = re.compile(r"\d|\b(?:than|vs\.?|versus|compared|compare|grow\w*|grew|rise|rising|rose|fall\w*|fell|"
                              r"increas\w*|decreas\w*|declin\w*|improv\w*|chang\w*|up|down|higher|lower|more|less|why|how|"
                              r"what|which|who|when|where|highest|lowest|largest|biggest|smallest|best|worst|record|mostly|mainly|primarily|"
                              r"largely|because|due|from|driven|by|of|the\s+\w+\s+of)\b",
                              re.I)


_PROSE_ASK = re.compile(r"\b(?:why|how|explain|describe|drove|driver|drivers|reason|reasons|cause|caused)\b", re.I)


def without_judgement(text: str) -> str:
    """The text with a closing clause that asks an opinion of the figure set aside (`_JUDGED_TAIL`)."""
    m = _JUDGED_TAIL.search(text)
    if m is None or _ASKS_OF_ITS_OWN.search(m.group("tail")) or not re.search(r"[A-Za-z]{2}", text[: m.start()]):
        return text
    if _PROSE_ASK.search(text[: m.start()]):
        return text  # "why did margins fall - is it the mix?": a guess at the cause, part of what is searched
    return text[: m.start()] + " " * (len(text) - m.start())
