"""Which metrics and formulas a question names, and when a named metric must be refused.

Exact phrases only (agent.retrieval.concepts, agent.retrieval.finance), longest first. A metric narrowed to something
the table cannot map ("iPhone revenue", "revenue by segment", "net sales in Greater China",
"Blackwell revenue") is reported as unmappable, so the planner refuses it instead of answering
with the company total.
"""

from __future__ import annotations

import re

from agent.retrieval.concepts import METRICS, UNKNOWN_METRICS, find_phrases, normalize
from agent.retrieval.finance import GROWTH_WORDS, MEASURE_PHRASES
from agent.retrieval.segments import COUNTRY_WORDS
from agent.planning.company_words import PRODUCTS
from agent.planning.topics import STOPWORDS

# Metric words inside a qualitative topic ("revenue recognition"): masked before metric matching.
TOPIC_MASK = re.compile(
    r"\b(?:revenue recognition|recogni[sz]\w* (?:of )?revenues?|deferred (?:income )?tax\w*|"
    r"tax (?:polic(?:y|ies)|strategy|disputes?|audits?|legislation|law)|cash (?:needs|requirements|management)|"
    r"sales (?:channels?|force|strategy|practices|team|organization)|debt (?:maturit\w+|covenants?)|"
    r"(?:share |stock )?(?:repurchase|buyback) (?:programs?|plans?|authori[sz]ations?))\b",
    re.I,
)

# A word right before a metric that narrows it to something the table cannot map: refused.
QUALIFIERS = {
    "iphone", "ipad", "mac", "wearables", "services", "service", "product", "products", "segment", "segments",
    "cloud", "azure", "aws", "data", "center", "gaming", "automotive", "advertising", "ad", "ads", "subscription",
    "international", "domestic", "china", "europe", "americas", "asia", "regional", "deferred", "unearned",
    "interest", "rental", "license", "licensing", "hardware", "software", "device", "devices", "retail",
    "wholesale", "online", "digital", "ecommerce", "store", "stores", "organic", "adjusted", "recurring",
    "monthly", "foreign", "geographic", "core", "pharmaceutical", "pharma", "membership", "merchandise",
    "unbilled", "comprehensive", "other", "segmental", "divisional", "us", "u.s", "north", "south", "east",
    "west", "greater", "japan", "india", "vaccine", "oncology", "auto", "energy", "defense", "commercial",
    "consumer", "enterprise", "platform", "streaming", "mobile", "payments", "accumulated", "pro", "forma",
}
# A country's name narrows a metric to the member tagged with its ISO code ("revenue in Mexico").
QUALIFIERS |= COUNTRY_WORDS
# A product's name before a metric narrows it too ("cybertruck revenue", "aws revenue").
QUALIFIERS |= {normalize(p).split()[-1] for products in PRODUCTS.values() for p in products}
BY_BREAKDOWN = re.compile(
    r"\b(?:by|per|for each|across|from)\s+(?:segment|segments|product|products|region|regions|geography|"
    r"geographies|country|countries|category|categories|line|business|division|divisions|customer|"
    r"customers|employee|store|unit|user|subscriber)\b"
)

_MEASURE_OR_UNKNOWN = {**MEASURE_PHRASES, **{normalize(p): "?" + normalize(p) for p in UNKNOWN_METRICS}}
# Capitalised words that may stand before a metric without narrowing it ("Total Revenue").
NEUTRAL_BEFORE = STOPWORDS | {
    "total", "net", "annual", "consolidated", "gaap", "reported", "fiscal", "full", "overall", "company", "gross",
    "operating", "diluted", "basic", "latest", "recent", "current", "prior", "previous", "last", "yearly", "whole",
    "entire", "cumulative", "fy", "year", "q", "report", "reports", "reported", "compare", "show", "what's",
}


def _capitalised(text: str) -> set[str]:
    """Title-case words not at the start of a sentence, lowercased (e.g. product names)."""
    out: set[str] = set()
    for m in re.finditer(r"[A-Za-z][\w'\u2019-]*", text):
        word = m.group(0)
        before = text[: m.start()].rstrip()
        if not before or before[-1] in ".?!:;\"(":
            continue
        if word[0].isupper() and not word.isupper() and not re.search(r"['\u2019]s$", word):
            out.add(normalize(word))  # possessives name an owner (a company), not a product
    return out


# the money a figure is asked in: "how much", "the value of the shares repurchased"
_MONEY_WORDS = frozenset("much dollar dollars usd value cost spent spend spending paid pay amount".split())


def counted_shares(phrase: str, key: str, words: list[str]) -> bool:
    """"shares repurchased" matched a money metric through the singular "share repurchase": the plural count noun
    asks how many shares (Home Depot repurchased 26 million of them for $7.95 billion), another figure, unless the
    question asks for money."""
    return (phrase.split()[0] == "shares" and key in METRICS and METRICS[key].unit == "USD"
            and not _MONEY_WORDS & set(words))


# Words before "ratio" that name no ratio: a year, a verb that asks for one ("compute FY2025 ratio: A / B")
_NO_NAME = re.compile(r"\d|^(?:compute|calculate|calc|give|show|get|find|what|whats|the|a|this|that|its|their|following|"
                      r"simple|same)$")


def find_measures(text: str, *, named_company: bool = False) -> tuple[list[str], str | None]:
    """Metric/formula keys in the text, and a narrowed or unmappable metric phrase to refuse, if any.

    With `named_company`, a capitalised word right before a metric ("Nvidia Blackwell revenue")
    narrows it; without one, that word is more likely an unknown company's name.
    """
    norm = normalize(text)
    words = norm.split()
    names = _capitalised(text) if named_company else set()
    spans = find_phrases(norm, _MEASURE_OR_UNKNOWN)
    keys: list[str] = []
    covered = {i for start, end, _ in spans for i in range(start, end)}
    for i, word in enumerate(words):
        if word in ("ratio", "ratios") and i not in covered and i > 0 and words[i - 1] not in STOPWORDS \
                and not _NO_NAME.search(words[i - 1]):
            lead = [w for w in words[max(0, i - 2) : i] if w not in STOPWORDS]
            lead = lead[next((j + 1 for j in range(len(lead) - 1, -1, -1) if _NO_NAME.search(lead[j])), 0):]
            return keys, " ".join([*lead[-2:], word])  # "operating ratio", "medical cost ratio"
    for start, end, key in spans:
        if key.startswith("?"):
            return keys, key[1:]
        phrase = " ".join(words[start:end])
        if counted_shares(phrase, key, words):
            return keys, phrase  # "shares repurchased": a count, never the dollars the metric reports
        before = words[start - 1] if start > 0 else ""
        if before in QUALIFIERS or (before in names and before not in NEUTRAL_BEFORE and key in METRICS):
            lead, i = [before], start - 1
            while i >= 2 and words[i - 1] in ("and", "or", "vs", "versus", "&") and words[i - 2] not in STOPWORDS:
                lead, i = [words[i - 2], words[i - 1], *lead], i - 2  # "iphone and mac revenue": both members
            return keys, f"{' '.join(lead)} {phrase}"  # "iPhone revenue", "Blackwell revenue"
        after = " ".join(words[end : end + 3])
        if BY_BREAKDOWN.match(after) and key in METRICS:
            return keys, f"{phrase} {after}"
        where = [w for w in words[end + 1 : end + 4] if w not in ("the", "its", "their")]
        if end < len(words) and words[end] in ("in", "from", "outside", "for") and where and where[0] in QUALIFIERS:
            return keys, f"{phrase} {words[end]} {where[0]}"  # "net sales in greater china"
        if key not in keys:
            keys.append(key)
    return keys, None


_MARGINS = r"(?<![\w-])(?<!gross )(?<!operating )(?<!net )(?<!profit )(?<!ebitda )(?<!ebit )(?<!pretax )(?<!pre-tax )" \
    r"(?<!segment )(?<!contribution )(?<!fcf )(?<!cash )(?<!interest )margins\b"
# Plain-English asks for a metric that no phrase names ("how much did Walgreens lose?").
IMPLIED: tuple[tuple[str, str], ...] = (
    # Only the asking words and the verb are claimed (words.claimed): the words between name who earned
    # ("home depot", or a product or segment, which word accounting then reads as a member).
    (r"\b(?P<claim>how much (?:money )?did)(?: \S+){1,4}? (?P<claim_verb>lose|earn|make|profit)\b(?! per\b)", "net_income"),
    (r"\b(?P<claim>what did)(?: \S+){1,4}? (?P<claim_verb>earn|lose)\b(?! per\b)", "net_income"),  # "what did alphabet earn in 2023"
    (r"\b(?P<claim>(?:how much|what) did)(?: \S+){1,4}? (?P<claim_verb>(?:earn|lose) per share)\b", "eps_diluted"),  # the diluted figure, as reported
    (r"\b(?:is|was|were) \S+(?: (?:more|less))? profitable\b|\bprofitability\b", "net_income"),
    # "are KO's margins improving?", "ko vs pep margins": margins unqualified are the three an analyst reads together
    *((_MARGINS, key) for key in ("gross_margin", "operating_margin", "net_margin")),
    (r"\bshares\b.{0,40}\boutstanding\b", "shares_outstanding"),  # "how many shares did X have outstanding"
    # "what did the Digital Experience segment bring in?", "how much lumber did Lowe's sell?": its sales
    (r"\b(?:bring|brings|brought|pull|pulls|pulled|rake|rakes|raked)\s+in\b", "revenue"),
    (r"\b(?:sell|sells|sold)\b", "revenue"),
)
# An implied ask that needs a word beside it: "how much ... sell" is sales, "how many ... sold" is units.
_IMPLIED_ONLY_WITH = {r"\b(?:sell|sells|sold)\b": re.compile(r"\bhow\s+much\b")}


IMPLIED_PATTERNS = tuple((re.compile(p), key) for p, key in IMPLIED)


def implied_measures(text: str) -> list[str]:
    """Metric keys asked for in words rather than by name. `text`: lowercase."""
    return [key for pattern, key in IMPLIED_PATTERNS if pattern.search(text)
            and (pattern.pattern not in _IMPLIED_ONLY_WITH or _IMPLIED_ONLY_WITH[pattern.pattern].search(text))]


_GROWTH = re.compile("|".join(rf"(?<![\w/]){re.escape(w)}(?![\w/])" for w in GROWTH_WORDS))


def growth_words(norm: str) -> bool:
    return bool(_GROWTH.search(norm))


# A change asked in the metric's own unit, not as a rate: "by how much did it change in dollars?",
# "the dollar increase", "how much higher than the year before?". Percent words keep the rate.
_ABSOLUTE = re.compile(
    r"\b(?:in|as\s+an?)\s+(?:(?:us\s+)?dollars?|usd|\$|dollar\s+terms|absolute\s+terms|absolute\s+(?:dollars|amount))\b"
    r"|\b(?:dollar|absolute|nominal)\s+(?:change|increase|decrease|decline|growth|difference|amount|gain|drop|rise)s?\b"
    r"|\bhow\s+much\s+(?:higher|lower|more|less|bigger|smaller|larger|greater)\b"
    r"|\bhow\s+many\s+(?:dollars|more\s+dollars)\b"
)
_RATE = re.compile(r"(?:%|\b(?:percent|percentage|pct|rate|growth\s+rate|cagr|times)\b)")


_CHANGE = re.compile(
    r"\b(?:dollar|absolute|nominal)\s+(?:change|increase|decrease|decline|growth|difference|gain|drop|rise)s?\b"
    r"|\bhow\s+much\s+(?:higher|lower|more|less|bigger|smaller|larger|greater)\b.*\bthan\s+(?:the\s+|in\s+)?"
    r"(?:(?:prior|previous|last)\s+(?:fiscal\s+)?year|year\s+(?:before|earlier|ago)|a\s+year\s+(?:before|earlier|ago)|"
    r"(?:fiscal\s+|fy\s*)?'?\d{2,4})\b"
    r"|\b(?:up\s+or\s+down|down\s+or\s+up)\b"  # "is that up or down from the prior year?": its change
)


def implies_change(norm: str) -> bool:
    """Words that ask for a change on their own, without a growth word ("how much higher ...?")."""
    return bool(_CHANGE.search(norm))


def absolute_words(norm: str) -> bool:
    """Whether a change is asked in the metric's own unit (a difference), not as a growth rate."""
    return bool(_ABSOLUTE.search(norm)) and not _RATE.search(norm)


# "which segment grew fastest?", "which of its regions had the highest sales?": every member of the
# axis, each with its figure (or its growth), never the company total.
_RANKED = re.compile(
    r"\bwhich\s+(?:of\s+(?:its|their|the)\s+)?(?:[\w&'.-]+\s+){0,3}?"
    r"(?P<axis>segments?|business(?:es)?|divisions?|products?|regions?|geograph(?:y|ies)|countr(?:y|ies)|categor(?:y|ies))\b"
)


def ranked_axis(low: str) -> str | None:
    """The breakdown word of a "which segment/product/region ..." question, singular, or None."""
    m = _RANKED.search(low)
    if m is None:
        return None
    word = m.group("axis")
    return {"businesses": "business", "geographies": "geography", "countries": "country",
            "categories": "category"}.get(word, word.rstrip("s") if word.endswith("s") and word != "business" else word)
