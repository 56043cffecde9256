"""Where a question points in a 10-K, and how to search for it.

Routing: the words analysts use mapped to the Items that discuss them (risk -> 1A, cybersecurity ->
1C, MD&A and "why" -> 7, market risk -> 7A, accounting notes -> 8, the business -> 1), the most
specific Item winning. Search text: abbreviations followed by the words filings use ("capex" ->
capital expenditures purchases of property and equipment), and compound questions ("how much ...
and on what", "X and its relationship with Y") split into sub-queries.
"""

from __future__ import annotations

import re

from agent.retrieval.concepts import METRICS
from agent.retrieval.finance import FORMULAS

# (pattern, Items). Order matters only for the order of Items in the plan.
TOPICS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (r"\bcyber(?:security|[- ]security|attacks?|threats?|risks?|incidents?|crime)?\b|\binformation security\b|\bdata breach\w*|\bsecurity incidents?\b|\bciso\b|\bransomware\b|"
     r"\bhack\w*|\bsecurity (?:officer|program|team|leadership|governance|risk management)\b|\bcso\b|"
     r"\bbug bount\w*", ("1C",)),
    (r"\binterest rate (?:risk|sensitivity|exposure)|\bforeign (?:currency|exchange)|\bfx\b|\bexchange rates?\b|"
     r"\bmarket risks?\b|\bcommodity (?:price )?risk|\bhedg\w+|\bderivative\w*|\bcurrency risk|"
     r"\bexpos\w+ to (?:changes in )?(?:interest rates?|currenc\w+|foreign exchange|commodit\w+)|\binterest rates?\b|"
     r"\bcurrenc(?:y|ies)\b|\bexchange rates?\b",
     ("7A",)),
    (r"\brisk factors?\b|\brisks?\b|\bthreats?\b|\bheadwinds?\b|\buncertaint\w+|\bchallenges\b|\bvulnerab\w+|"
     r"\bexport (?:controls?|restrictions?|licen[cs]es?)\b|\bsanctions\b|\bgeopolitic\w*|\btrade restrictions?\b",
     ("1A",)),
    (r"\blitigation\b|\blegal proceedings\b|\blawsuits?\b|\bsettlements?\b|\binvestigations?\b|\bopioid\w*|"
     r"\bantitrust\b|\bcourt\b|\bjudge\b|\bruling\b|\bverdict\b|\bjury\b|\bplaintiffs?\b|\bsued\b|\bsuits?\b",
     ("1A", "8")),
    (r"\bmd&a\b|\bmanagement'?s? discussion\b|\bresults of operations\b|\bliquidity\b|\bcapital resources\b|"
     r"\boutlook\b|\bperformance\b|\bcritical accounting estimates\b|\bwhy\b|\bdrivers?\b|\bdrove\b|\bdriven\b|"
     r"\bexplain\w*(?!\s+(?:how|what|who|where|which)\b)|\breasons?\b|\bcaused?\b|\bwhat led\b|\bcontribut\w+|\bsegment results\b|\bkey trends\b|"
     r"\bcash (?:needs|requirements)\b|\bcapital allocation\b|\bheadcount reduction|\brestructuring\b", ("7",)),
    (r"\bwhat happened\b", ("7", "1A")),  # an event: told in MD&A and the risk factors
    (r"\bprice (?:cuts?|reductions?|increases?)\b|\bpricing\b|\bdeliver(?:y|ies|ed)\b|\bproduction volumes?\b|"
     r"\bunits? sold\b|\bdemand\b", ("7", "1A")),
    (r"\b(?:repurchase|buyback) (?:programs?|plans?|authori[sz]ations?)\b|\bcapital return\b", ("7", "8")),
    (r"\b(?:stock|share)[- ]splits?\b|\b5[23](?:rd|nd)?[- ]weeks?\b|\bextra week\b|\bfiscal (?:calendar|period)\b",
     ("7",)),
    (r"\baccounting polic\w+|\brevenue recognition\b|\bnotes? to (?:the )?(?:consolidated )?financial statements\b|"
     r"\bfootnotes\b|\bfootnote\s+(?:on|about|for)\b|\bleases?\b|\bgoodwill\b|\bimpairment\w*|\b(?:stock|share)[- ]based compensation\b|"
     r"\bsegment information\b|\bcontingenc\w+|"
     r"\bdeferred tax\w*|\bfair value\b|\bpension\w*|\bdebt maturit\w+|\bcommitments\b|\bwarrant(?:y|ies)\b|"
     r"\bsubsequent events?\b", ("8",)),
    (r"\bbusiness\b|\bproducts?\b|\bservices\b|\bsegments?\b|\bstrateg\w+|\bcompetit\w+|\bcompete\w*|"
     r"\bemployees\b|\bhuman capital\b|\bworkforce\b|\bheadcount\b(?! reduction)|\bcustomers?\b|\bsuppliers?\b|\bsupply chain\b|"
     r"\bseasonal\w*|\bintellectual property\b|\bpatents?\b|\bregulat\w+|\bmanufactur\w+|"
     r"\bwhat does \S+ do\b|\bgeograph\w+|\bdistribution\b|\bpartner\w*|"
     r"\bacquisitions?\b|\bbrands?\b|\blicens\w+|\bsubsidiar\w+|\bwhat do they (?:do|sell)\b|\bsells?\b|"
     r"\brelationship\b|\bdepend\w+|\bconcentration\b|\bfactor(?:y|ies)\b|\bfacilit\w+|\bplants?\b|"
     r"\bheadquarter\w*|\bproperties\b|\bwhere\b.{0,30}\b(?:make|makes|made|build|builds|built|produce\w*)\b",
     ("1",)),
    (r"\bai\b|\bartificial intelligence\b|\bclimate\b|\bsustainab\w+|\besg\b|\btariffs?\b|\bchina\b|"
     r"\binflation\b|\bgenerative\b|\bdata cent(?:er|re)s?\b|\bgpus?\b|\bcloud\b|\bsays?\b|\bmention\w*|\bdiscuss\w*|"
     r"\bdisclos\w+|\bdescrib\w+|\boverview\b|\bpolic(?:y|ies)\b|\bapproach\b|\bplans?\b", ()),
)

# Asks about how something is done or described, not for a figure, even when a metric is named.
SECTION_ITEMS = {"1A", "1C", "7A"}  # a metric named inside these topics is part of a prose question
QUAL_ASK = re.compile(
    r"\b(?:(?:report|say|said|says|write|wrote|mention|disclose)\w*\s+(?:about|on|regarding)|how does|how do|how did|describe|discuss\w*|says? about|said about|explain\w*|polic(?:y|ies)|approach|"
    r"account(?:s|ed|ing)? for|recogni[sz]\w*|strateg\w+|what factors|impact of|affect\w*|what happened)\b"
)
WHY = re.compile(
    # "explain how Visa earns its fees" asks how something works, not why it changed
    r"\b(?:why|(?:what|which)\s+(?:\w+\s+){0,2}?drove|what caused|drivers?|driven by|reasons?|"
    r"explain\w*(?!\s+(?:how|what|who|where|which)\b)|explanation|what led|"
    r"contribut\w+ to|factors behind|what(?:'?s|\s+is|\s+are)?\s+driv(?:ing|es)|(?:what'?s|what\s+is|what\s+was|story)\s+behind|how come|how\s+so|attribut(?:e|es|ed|ing)\s+(?:[\w'-]+\s+){1,4}to)\b"
)
# A figure narrowed by something that is not a measure ("what the 53rd week added to sales",
# "revenue from acquisitions", "growth from price increases"): no XBRL fact is that slice, and the
# unqualified total would answer another question. MD&A discusses such contributions.
NARROWED = re.compile(
    r"\b(?:5[23](?:rd|nd)?|14th|extra|additional)[- ]weeks?\b|\b(?:add|added|adds|adding)\s+to\b|"
    r"\b(?:from|due to|attributable to|because of)\s+(?:the\s+|its\s+|their\s+)?(?:recent\s+)?"
    r"(?:acquisitions?|acquired\s+\w+|price\s+(?:increases?|hikes?|changes?)|pricing|higher\s+prices|"
    r"(?:foreign\s+)?currency|exchange\s+rates?|divestitures?)\b"
)
COMPOUND = re.compile(
    r"\s*,?\s*\b(?:and|as well as|plus|also)\s+(?=(?:on what|what|how|why|where|which|who|its|their|"
    r"the reasons?|whether)\b)"
)

# Words analysts shorten, and the words filings use for them (appended, so both are searched).
EXPANSIONS: tuple[tuple[str, str], ...] = (
    (r"\bcapex\b|\bcap ex\b", "capital expenditures purchases of property and equipment"),
    (r"\bopex\b", "operating expenses"),
    (r"\bop(?=\.?\s+(?:income|margin|loss|expenses?|profit|earnings)\b)", "operating"),
    (r"\bfcf\b", "free cash flow operating activities capital expenditures"),
    (r"\bd&a\b", "depreciation and amortization"),
    (r"\bsg&a\b|\bsga\b", "selling, general and administrative"),
    (r"\br&d\b|\br & d\b|\brnd\b", "research and development"),
    (r"\byoy\b|\by/y\b", "year over year compared to prior year"),
    (r"\bmd&a\b", "management's discussion and analysis"),
    (r"\bai\b", "artificial intelligence"),
    (r"\bcogs\b", "cost of sales cost of revenue"),
    (r"\beps\b", "earnings per share"),
    (r"\bfx\b", "foreign currency exchange rates"),
    (r"\bm&a\b", "acquisitions"),
    (r"\bip\b", "intellectual property"),
    (r"\besg\b", "environmental social governance"),
    (r"\bciso\b", "chief information security officer"),
    (r"\bpp&e\b", "property, plant and equipment"),
    (r"\bbuybacks?\b", "share repurchases"),
    (r"\bgm\b(?= margin)", "gross margin"),
    (r"\bhq\b", "headquarters"),
    (r"\bcyber\b", "cybersecurity"),
    # everyday words for what a filing names formally: "why did Walgreens lose money?" is its loss
    (r"\b(?:lose|loses|lost|losing)\s+(?:\w+\s+){0,2}?money\b", "loss"),
    (r"\blay-?offs?\b|\blaid\s+off\b", "workforce reduction"),
    (r"\bprice\s+cuts?\b", "price reductions"),
    # what analysts call one-time, filings itemise: "special items", restructuring, litigation, impairment
    (r"\bone[- ]?(?:time|off)\b|\bnon-?recurring\b", "special items restructuring litigation impairment"),
)

STOPWORDS = {
    "what", "how", "why", "which", "who", "when", "where", "is", "are", "was", "were", "do", "does", "did", "can",
    "could", "should", "would", "tell", "show", "give", "list", "compare", "i", "the", "in", "for", "and", "please",
    "hi", "hey", "item", "form", "sec", "gaap", "fy", "me", "get", "find", "explain", "describe", "summarize",
    "according", "per", "between", "vs", "of", "about", "its", "their", "a", "an", "on", "to", "from", "with",
}
# Words a tail like "and what it went into" is made of: no subject of its own, so it borrows one.
TAIL_WORDS = {"went", "go", "goes", "gone", "into", "used", "use", "spent", "spend", "put", "toward", "towards",
              "it", "they", "them", "this", "that", "those", "money", "funds", "cash"}
# Sections named by their titles: the user has said where to look.
SECTION_NAMES: tuple[tuple[str, str], ...] = (
    (r"\brisk factors?\b", "1A"),
    (r"\bmd&a\b|\bmanagement'?s? discussion\b", "7"),
    (r"\bquantitative and qualitative disclosures?\b", "7A"),
    (r"\bnotes? to (?:the )?(?:consolidated )?financial statements\b|\bfinancial statement notes\b", "8"),
)


# A particular event, not the program: Item 1C describes how cybersecurity is run, while what an
# attack did (costs, disruption, what was found) is told in MD&A and the risk factors.
INCIDENT = (r"\bwhat happened\b|\b(?:the|a|an|its|their|this|that|last year's|(?:19|20)\d{2})\s+(?:[\w&'-]+\s+){0,3}?"
            r"(?:cyber[- ]?)?(?:attack|breach|incident|intrusion|outage|hack)(?:es|s)?\b")

_TOPICS = tuple((re.compile(p), items) for p, items in TOPICS)
_INCIDENT = re.compile(INCIDENT)
_SECTION_NAMES = tuple((re.compile(p), item) for p, item in SECTION_NAMES)
_EXPANSIONS = tuple((re.compile(p, re.I), words) for p, words in EXPANSIONS)
_ITEM = re.compile(r"\bitem\s+(1a|1b|1c|7a|1|7|8)\b")
# What names a section of the filing ("item 7", "the MD&A", "its risk factors"): where to look, not what.
SECTION_PATTERNS = (_ITEM, *(p for p, _ in _SECTION_NAMES))
_RISK_FACTORS = re.compile(r"\brisk factors?\b")
# a market-risk topic with the word for its risk ("foreign currency risk", "interest rate exposure"): one phrase
_MARKET_TOPIC = re.compile(r"(?:" + next(p for p, items in TOPICS if items == ("7A",)) +
                           r")(?:\s+(?:rates?\s+)?(?:risks?|exposures?|sensitivit\w+))?")
_ASKS_RISKS = re.compile(r"\b(?:risks?|threats?|headwinds?|uncertaint\w+|vulnerab\w+)\b")


def route_items(text: str) -> tuple[list[str], bool]:
    """10-K Items the wording points to, and whether any qualitative topic was named at all.

    The most specific Item wins over the generic ones its words also trigger: "interest rate
    risk" is Item 7A, not every risk factor; "supply chain risks" are risk factors (1A), not the
    business description (1); cybersecurity is Item 1C.
    """
    items: list[str] = []
    found = False
    for pattern, its in _TOPICS:
        if pattern.search(text):
            found = True
            items += [i for i in its if i not in items]
    named = _ITEM.findall(text)
    named += [item for pattern, item in _SECTION_NAMES if pattern.search(text)]
    if named:  # "in item 1", "its risk factors", "the MD&A": the user named the section
        return list(dict.fromkeys(n.upper() for n in named)), True
    # "what are P&G's main risks from currency?": risks asked for in a word of their own, beside a market-risk
    # topic ("currency risk" is one phrase, Item 7A's), are the risk factors' too
    risk_factors = "7A" in items and bool(_ASKS_RISKS.search(_MARKET_TOPIC.sub(" ", text)))
    if ("7A" in items or "1C" in items) and not risk_factors:
        items = [i for i in items if i != "1A"]
    if "1C" in items or ("1A" in items and "8" not in items):
        items = [i for i in items if i != "1"]
    if "1C" in items and _INCIDENT.search(text):
        items += [i for i in ("7", "1A") if i not in items]
    return items, found


def expand_query(text: str) -> str:
    """The text with analyst abbreviations followed by the words filings use for them."""
    out = text
    for pattern, words in _EXPANSIONS:
        out = pattern.sub(lambda m, w=words: f"{m.group(0)} ({w})", out)
    return re.sub(r"\s+", " ", out).strip(" ?.!,;:")


def label(key: str) -> str:
    if key in METRICS:
        return METRICS[key].label.lower()
    if key in FORMULAS:
        return FORMULAS[key].label.lower()
    if key.startswith("line:"):  # its spare words when written, else the clause as the user wrote it
        parts = key[5:].split("|")[:4]
        return parts[3] if len(parts) == 4 and parts[3] else parts[min(2, len(parts) - 1)]
    return key.split(":", 1)[-1].split("|")[-1]  # a user's formula ('udf:...')


def metric_query(key: str) -> str:
    if key in METRICS or key in FORMULAS:
        return METRICS[key].query if key in METRICS else FORMULAS[key].query
    return label(key)


def sub_queries(parts: list[str], measures: list[str]) -> list[str]:
    """Each part of a compound question as its own search; a bare tail ("on what") borrows the
    first part's subject."""
    subject = " ".join(metric_query(k) for k in measures) or parts[0]
    out = []
    for i, part in enumerate(parts):
        content = [w for w in re.findall(r"[\w&]+", part.lower()) if w not in STOPWORDS | TAIL_WORDS and len(w) > 2]
        if i > 0 and len(content) < 2:
            tail = re.sub(r"(?i)^\s*on what\b", "were directed to investments in", part)
            part = f"{subject} {tail}"
        out.append(expand_query(part))
    return out


# Words that name a part of the filing or a kind of statement, not a subject: "and the risks?",
# "what about the outlook?" after a figure name nothing of their own to search for.
SECTION_ONLY = {"risk", "risks", "factor", "factors", "threat", "threats", "headwinds", "challenges", "uncertainties",
                "outlook", "md&a", "discussion", "notes", "exposure", "exposures", "main", "biggest", "key", "now",
                "also", "then", "so", "ok", "okay", "any", "there", "those", "them", "that", "this", "it"}


def borrows_thread_subject(text: str) -> bool:
    """The message names a section or kind of statement and nothing it is about ("and the risks?"),
    so it is about what the thread was discussing."""
    low = text.lower().strip()
    if not (_ELLIPTIC.match(low) or len(low.split()) <= 3):
        return False  # "what are the main risk factors?" is a question of its own
    words = [w for w in re.findall(r"[\w&]+", low) if w not in STOPWORDS]
    return bool(words) and all(w in SECTION_ONLY for w in words)


_ELLIPTIC = re.compile(r"(?:and|also|plus|what\s+about|how\s+about)\b")
